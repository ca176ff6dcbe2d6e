"""Comparing classifiers across several data sets (Demšar 2006; Benavoli et al. 2017).

:func:`compare_across` takes each model's mean score on each data set and returns an
:class:`AcrossComparison`: the ranks per data set and on average, Friedman's test with
Iman and Davenport's F, Nemenyi's critical difference (read as differences only when
the omnibus test rejects), pairwise Wilcoxon signed-rank tests (adjusted by the
comparison's correction) and the Bayesian signed-rank test with a region of practical
equivalence; with fewer than :func:`~engine.runs.across.decisions.minimum_datasets` data sets
nothing is decided. ``tables()`` gives the CSV tables, ``report()`` a plain-words report
and ``cliques()`` the groups of a critical-difference diagram. Pure and Qt-free.

* :mod:`engine.runs.across.compare`: the entry point, the input checks and the notes;
* :mod:`engine.runs.across.frequentist`: ranks, Friedman, Nemenyi, Wilcoxon (scipy);
* :mod:`engine.runs.across.signed_rank`: the Bayesian signed-rank test (numpy);
* :mod:`engine.runs.across.decisions`: the minimum number of data sets and the decision rules;
* :mod:`engine.runs.across.report`: the text of ``report.md``.
"""
from engine.runs.across.compare import TABLE_FILES, AcrossComparison, compare_across
from engine.runs.across.decisions import MIN_DATASETS, minimum_datasets
from engine.runs.across.signed_rank import (PRIOR_STRENGTH, signed_rank_posterior,
                                            signed_rank_probabilities)

__all__ = ["AcrossComparison", "compare_across", "signed_rank_probabilities",
           "signed_rank_posterior", "TABLE_FILES", "PRIOR_STRENGTH", "MIN_DATASETS",
           "minimum_datasets"]
