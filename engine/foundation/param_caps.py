"""Caps on model parameters and experiment settings that could make a run endless.

The one check of :data:`PARAM_CAPS` (:func:`param_cap_problem`) serves every model's
``params``, each member of a ``grid`` and of a ``tune.grid``
(:func:`engine.evaluation.catalogue.validated`) and :func:`check_models` before a run;
:func:`setting_problem` checks the settings of :data:`SETTING_CAPS`.

Limits, and why
---------------
* :data:`PARAM_CAPS`: 100,000 trees (``n_estimators``, and ``max_iter`` of histogram
  gradient boosting, which counts trees) -- scikit-learn's default is 100 and forest
  scores stop changing after a few hundred to a few thousand trees, while 100,000 trees
  take gigabytes and hours per fit; 1,000,000 solver iterations (``max_iter``), ten
  thousand times the usual default -- a solver that has not converged by then will not;
  100,000 units in a hidden layer; ``n_jobs`` of a model above 4 threads per core (at
  least 64).  ``n_neighbors`` above the rows of a training fold cannot be fitted at all.
"""
from __future__ import annotations

from typing import Optional

from engine.foundation.machine import count_text, usable_cores, whole_number

#: parameter -> (cap, what it counts); :data:`TREE_ITERATIONS` count trees instead
PARAM_CAPS = {
    "n_estimators": (100_000, "trees"),
    "max_iter": (1_000_000, "solver iterations"),
    "max_fun": (10_000_000, "function calls"),
}
#: estimator -> its parameter that counts trees (besides ``n_estimators``)
TREE_ITERATIONS = {"HistGradientBoostingClassifier": "max_iter"}
#: experiment setting -> (cap, what it counts): the settings of ``tune``, ``threshold``,
#: ``calibration`` and ``aloocv`` that size a search or a table (checked by
#: :func:`setting_problem`, the same path as :data:`PARAM_CAPS`)
SETTING_CAPS = {
    "inner_splits": (100, "inner folds"),
    "n_C": (10_000, "values of C"),
    "n_bins": (1_000, "bins"),
    "map_buckets": (100_000, "buckets"),
}
#: Longest model name (characters): it is written in every row of the result tables.
MAX_MODEL_NAME_CHARS = 200


def check_models(models, *, min_train_rows: Optional[int] = None) -> Optional[str]:
    """Why a model's size parameters are absurd (one line), or None.

    Parameters
    ----------
    models : sequence of ModelSpec
        The experiment's models (after grid expansion).
    min_train_rows : int, optional
        Rows of the smallest training fold, to check ``n_neighbors``.
    """
    for spec in models:
        for pname, value in spec.params.items():
            problem = _param_problem(spec, pname, value, min_train_rows)
            if problem:
                return f"model {spec.name!r}: {problem}"
    return None


def _param_problem(spec, pname: str, value, min_train_rows) -> Optional[str]:
    number = whole_number(value)
    if pname == "n_neighbors" and number is not None and min_train_rows is not None \
            and number > min_train_rows:
        return (f"n_neighbors = {count_text(number)}, but the smallest training fold has only "
                f"{count_text(min_train_rows)} rows: lower n_neighbors to at most "
                f"{count_text(min_train_rows)}, or use more folds")
    return param_cap_problem(spec.estimator, pname, value)


def param_cap_problem(estimator: str, pname: str, value) -> Optional[str]:
    """Why a model parameter's value is above its cap (one line), or None.

    The one check of :data:`PARAM_CAPS` (trees, iterations, layer sizes, threads): every
    model's ``params``, each member of a ``grid`` and of a ``tune.grid`` go through it
    (:func:`engine.evaluation.catalogue.validated`), and :func:`check_models` again before a run.

    Parameters
    ----------
    estimator : str
        The catalogue name (``"RandomForestClassifier"``).
    pname : str
    value
        The parameter's value as the experiment gives it.
    """
    if pname == "hidden_layer_sizes":
        value = list(value) if isinstance(value, (list, tuple)) else [value]
        big = [v for v in value if (whole_number(v) or 0) > 100_000]
        if big or len(value) > 1_000:
            return ("hidden_layer_sizes is too large (at most 1,000 layers of at most 100,000 "
                    "units each): use smaller layers")
        return None
    number = whole_number(value)
    if number is None:
        return None
    if pname == "n_jobs" and number > max(64, 4 * usable_cores()):
        return (f"n_jobs = {count_text(number)} threads is far more than the {usable_cores()} "
                "core(s) of this computer: use -1 (every core) or a small number")
    cap, counts = _cap(estimator, pname)
    if cap is not None and number > cap:
        return (f"{pname} = {count_text(number)} is more than {count_text(cap)} {counts}, which no "
                f"model needs and which would not finish: lower {pname}")
    return None


def setting_problem(name: str, value, *, lowest: int = 2) -> Optional[str]:
    """Why an experiment setting of :data:`SETTING_CAPS` is not a whole number from
    ``lowest`` to its cap (one line, without its place), or None.

    Parameters
    ----------
    name : str
        ``inner_splits``, ``n_C``, ``n_bins`` or ``map_buckets``.
    value
        The value as given.
    lowest : int
        The smallest value allowed.
    """
    cap, counts = SETTING_CAPS[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return f"expected a whole number from {lowest} to {count_text(cap)}, got {shown}"
    if value > cap:
        return (f"{count_text(value)} is more than {count_text(cap)} {counts}, which no result "
                f"needs and which would not finish or fit in memory: lower {name} to at "
                f"most {count_text(cap)}")
    return None


def _cap(estimator: str, pname: str) -> tuple:
    if TREE_ITERATIONS.get(estimator) == pname:
        return PARAM_CAPS["n_estimators"][0], "trees"
    return PARAM_CAPS.get(pname, (None, None))

