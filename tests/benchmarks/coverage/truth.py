"""A cell's ``expected_score_at_training_size``: the mean, over fresh draws of the
training size, of a model's score on the rest of the population.

Cross-validation with k folds trains on n·(k−1)/k rows, so that is the training size.
Each draw takes that many rows at random, fits each learner (the app's pipeline) and
scores it on every other row of the population (at most ``rest_cap``, drawn at random);
the mean over ``draws`` draws is the truth and its standard error says how well it is
known. The same draws give the expected difference of the first two learners.
"""
from __future__ import annotations

import numpy as np

from .repetition import metric_for
from .sample import draw_rows, fit_on, scorer_on

__all__ = ["expected_scores", "training_size"]


def training_size(n: int, folds: int) -> int:
    """Rows a k-fold training set of an n-row sample holds (the larger folds' n − n//k)."""
    return n - n // folds


def expected_scores(frame, target, specs, n, folds, draws, rest_cap, seed) -> dict:
    """``{model or "A - B": (mean, standard error)}`` over ``draws`` fresh draws (a draw
    the reader refuses, or of one class, is left out)."""
    rng = np.random.default_rng(seed)
    size = training_size(n, folds)
    scores = {spec.name: [] for spec in specs}
    for _ in range(draws):
        try:
            draw = draw_rows(frame, target, size, 0, rest_cap, rng)
        except ValueError:                     # e.g. a draw of one class: nothing to fit
            continue
        if len(draw.dataset.classes) < 2:
            continue
        metric = metric_for(len(draw.dataset.classes))
        for spec in specs:
            model = fit_on(spec, draw.dataset)
            scores[spec.name].append(scorer_on(model, draw.dataset, draw.rest).score(metric))
    a, b = specs[0].name, specs[1].name
    scores[f"{a} - {b}"] = list(np.subtract(scores[a], scores[b]))
    return {name: (float(np.mean(v)), float(np.std(v, ddof=1) / np.sqrt(len(v))))
            for name, v in scores.items()}
