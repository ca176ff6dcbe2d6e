"""Memory a neural network's fit takes, counted from its layer sizes before the run.

``hidden_layer_sizes`` within the parameter caps (:mod:`engine.foundation.param_caps`: at
most 100,000 units a layer) can still ask for more memory than the computer has: two
layers of 12,000 units hold 144 million weights, 1.15 GB, and scikit-learn's ``adam``
keeps four such arrays (the weights, their gradients and two moment estimates).
:func:`fit_bytes` counts, for every MLP of a run (its ``params`` and every
``hidden_layer_sizes`` of its ``tune`` grid), ``8 x (4 x weights + 2 x rows x units)``
bytes: the weight arrays and the layer outputs and their errors for the rows of one batch
(``min(batch_size, rows)``; all training rows with ``lbfgs``).  The run budget
(:func:`engine.runs.guards.check_run`) adds the largest, once per worker.  Qt-free.
"""
from __future__ import annotations

from itertools import pairwise

from engine.foundation.machine import BYTES_PER_VALUE, whole_number

#: Arrays of the weights' size a fit holds (weights, gradients, adam's two moments).
WEIGHT_COPIES = 4
#: Arrays of the layer outputs' size a fit holds (outputs and their errors).
LAYER_COPIES = 2
#: scikit-learn's batch size when ``batch_size`` is ``"auto"``.
AUTO_BATCH = 200


def _layers(value) -> list:
    """``hidden_layer_sizes`` as a list of whole numbers (unreadable: empty)."""
    value = list(value) if isinstance(value, (list, tuple)) else [value]
    sizes = [whole_number(v) for v in value]
    return [int(v) for v in sizes if v is not None and v >= 1]


def _hidden_options(spec) -> list:
    """Every ``hidden_layer_sizes`` a spec fits: its own and those of its tune grid."""
    options = [spec.params.get("hidden_layer_sizes", [100])]
    grids = (spec.tune or {}).get("grid") or []
    for grid in [grids] if isinstance(grids, dict) else grids:
        if isinstance(grid, dict):
            options += list(grid.get("hidden_layer_sizes") or [])
    return [_layers(option) for option in options]


def mlp_bytes(hidden: list, n_inputs: int, n_outputs: int, batch_rows: int) -> int:
    """Bytes an MLP fit of these layers holds at its peak (see the module)."""
    widths = [n_inputs, *hidden, n_outputs]
    weights = sum(a * b for a, b in pairwise(widths))
    return BYTES_PER_VALUE * (WEIGHT_COPIES * weights + LAYER_COPIES * batch_rows * sum(widths))


def fit_bytes(models, n_rows: int, n_inputs: int, n_classes: int) -> int:
    """The largest MLP fit among ``models`` (ModelSpec), in bytes; 0 without an MLP.

    Parameters
    ----------
    models : list of ModelSpec
    n_rows : int
        Training rows (the largest training part is at most all rows).
    n_inputs : int
        Columns after one-hot encoding.
    n_classes : int
    """
    largest = 0
    for spec in models:
        if spec.estimator != "MLPClassifier":
            continue
        batch = spec.params.get("batch_size", "auto")
        batch = whole_number(batch) if batch != "auto" else AUTO_BATCH
        rows = n_rows if spec.params.get("solver") == "lbfgs" or batch is None else \
            min(int(batch), n_rows)
        outputs = 1 if n_classes == 2 else n_classes
        for hidden in _hidden_options(spec):
            largest = max(largest, mlp_bytes(hidden, n_inputs, outputs, rows))
    return largest
