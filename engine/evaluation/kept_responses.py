"""A classifier's responses kept from its predictions, served back by row position.

Scoring a resample of the test rows (the held-out bootstrap,
:mod:`engine.runs.heldout.scoring`) or a subgroup's out-of-fold rows
(:mod:`engine.evaluation.subgroups.scoring`) with the very scorer of the CV folds
(:class:`engine.evaluation.metrics.FoldScorer`) needs something that answers like the
fitted classifier without fitting or predicting again: :class:`KeptResponses` takes row
positions where the classifier takes rows.
"""
from __future__ import annotations

import numpy as np


class KeptResponses:
    """Kept responses served by row position as a fitted classifier's (``predict``, and
    ``predict_proba`` or ``decision_function`` when kept).

    Parameters
    ----------
    labels : ndarray of int
        The predicted class codes, a row each.
    proba, decision : ndarray or None
        The probabilities and the decision values, when kept.
    classes : sequence
        ``classes_`` of the classifier.
    """

    _estimator_type = "classifier"

    def __init__(self, labels, proba, decision, classes):
        self.labels, self.proba, self.decision = labels, proba, decision
        self.classes_ = np.asarray(classes)

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags, Tags, TargetTags

        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags())

    def predict(self, rows):
        return self.labels[np.asarray(rows)]

    @property
    def predict_proba(self):
        if self.proba is None:
            raise AttributeError("predict_proba")
        return lambda rows: self.proba[np.asarray(rows)]

    @property
    def decision_function(self):
        if self.decision is None:
            raise AttributeError("decision_function")
        return lambda rows: self.decision[np.asarray(rows)]
