"""The names of the result tables' shared columns, for code that reads the tables.

The tables themselves are the contract (``shared/EXPERIMENT.md``, docs/experiment-format.md:
extended, never renamed); these constants are the names as code spells them, so that the
GUI reads a table by the engine's name for a column instead of a string typed again.
``tests/test_columns.py`` checks each against the tables a run actually writes.
"""
from __future__ import annotations

#: The model a row is about (every per-model table).
MODEL = "model"
#: The two models of a pair (comparisons, nemenyi, wilcoxon, signed_rank).
MODEL_1, MODEL_2 = "model_1", "model_2"
PAIR = (MODEL_1, MODEL_2)
#: The data set a row is about (tables of several data sets).
DATASET = "dataset"
#: The metric a row is about.
METRIC = "metric"
#: The calibration method (calibration tables).
METHOD = "method"
#: The mean score over the folds (summary).
MEAN = "mean"
#: A model's rank on a data set, and its mean rank across data sets (ranks).
RANK, MEAN_RANK = "rank", "mean_rank"
#: The Bayesian outcome probabilities of a pair: model 1 better, practically equivalent,
#: model 2 better (comparisons, signed_rank).
P_BETTER, P_EQUIVALENT, P_WORSE = "p_better", "p_equivalent", "p_worse"
OUTCOMES = (P_BETTER, P_EQUIVALENT, P_WORSE)
