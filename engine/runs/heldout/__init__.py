"""The held-out test: every model fitted once on all training rows, scored once on a
separate test file (experiment key ``"test": {"file": PATH}``).

:mod:`engine.runs.heldout.test_file` reads the test file and checks it against the training
data (same feature columns, the target, no unseen class, at least one row) before any
fit; :mod:`engine.runs.heldout.scoring` fits the final models (the same pipelines the
cross-validation fits: preparation, resampling, tuning and thresholds fitted on the
training rows only) and scores them with every metric of the experiment, with a
bootstrap interval of the test rows and, for ROC AUC on two classes, DeLong's;
:mod:`engine.runs.heldout.words` says how the held-out score compares with the CV estimate;
:mod:`engine.runs.heldout.saved` writes and reads the final models (skops) and predicts.
"""
from engine.runs.heldout.scoring import HeldoutResult, run_heldout
from engine.runs.heldout.test_file import TestSet, load_test_set, test_block

__all__ = ["HeldoutResult", "TestSet", "load_test_set", "run_heldout", "test_block"]
