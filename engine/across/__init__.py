"""Comparing classifiers across several data sets (Demšar 2006; Benavoli et al. 2017).

:func:`compare_across` takes each model's mean score on each data set and returns an
:class:`AcrossComparison`: the ranks per data set and on average, Friedman's test with
Iman and Davenport's F, Nemenyi's critical difference, pairwise Wilcoxon signed-rank
tests (Holm-adjusted) and the Bayesian signed-rank test with a region of practical
equivalence; ``tables()`` gives the CSV tables, ``report()`` a plain-words report and
``cliques()`` the groups of a critical-difference diagram. Pure and Qt-free.

* :mod:`engine.across.compare`: the entry point, the input checks and the notes;
* :mod:`engine.across.frequentist`: ranks, Friedman, Nemenyi, Wilcoxon (scipy);
* :mod:`engine.across.signed_rank`: the Bayesian signed-rank test (numpy);
* :mod:`engine.across.report`: the text of ``report.md``.
"""
from .compare import TABLE_FILES, AcrossComparison, compare_across
from .signed_rank import PRIOR_STRENGTH, signed_rank_probabilities

__all__ = ["AcrossComparison", "compare_across", "signed_rank_probabilities", "TABLE_FILES",
           "PRIOR_STRENGTH"]
