"""Calibration of the cross-validated models, measured out of sample.

* :mod:`.maps` -- calibration statistics (reliability diagrams, Brier score, log loss,
  ECE) and the deployable bucket maps; plain numpy, no model fitting;
* :mod:`.analysis` -- calibrated variants of an experiment's models refitted inside each
  outer training fold (:func:`run_calibration`), their scores and the fold-by-fold test.

The names below are the public API.
"""
from engine.evaluation.calibration.analysis import (CURVE_COLUMNS, FOLD_METRICS, FOLD_SCORE_COLUMNS,
                                                    MAP_COLUMNS, SCORE_COLUMNS, UNCALIBRATED,
                                                    VARIANTS, CalibratedFold, CalibrationResult,
                                                    FoldTest, calibrate_fold, fold_score_matrix,
                                                    fold_test, probability_columns, run_calibration,
                                                    top_label_ece)
from engine.evaluation.calibration.maps import (CROWDING_SHARE, MAP_METHODS, STRATEGIES,
                                                apply_calibration_map, calibration_scores,
                                                crowding_share, decision_to_probability,
                                                expected_calibration_error, fit_calibration_map,
                                                observed_interval, reliability_diagram, row_losses,
                                                with_interval)

__all__ = ["CURVE_COLUMNS", "FOLD_METRICS", "FOLD_SCORE_COLUMNS", "MAP_COLUMNS", "SCORE_COLUMNS",
           "UNCALIBRATED", "VARIANTS", "CalibratedFold", "CalibrationResult", "FoldTest",
           "calibrate_fold", "fold_score_matrix", "fold_test", "probability_columns",
           "run_calibration", "top_label_ece",
           "CROWDING_SHARE", "MAP_METHODS", "STRATEGIES", "apply_calibration_map",
           "calibration_scores", "crowding_share", "decision_to_probability",
           "expected_calibration_error", "fit_calibration_map", "observed_interval",
           "reliability_diagram", "row_losses", "with_interval"]
