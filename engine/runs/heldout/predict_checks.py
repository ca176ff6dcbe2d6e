"""What ``predict`` checks before it reads a model or writes a row.

:func:`check_out`: the predictions file is an absent path or a regular file, never the
data file or the model file (the same file under another name or a hard link counts), in
a folder that exists (the app asks before it makes one; the command line refuses).
:func:`check_prediction_memory`: a neural network's layers times the rows to predict fit
in the memory available.  Qt-free.
"""
from __future__ import annotations

import os
import stat

from engine.foundation.errors import EngineError
from engine.foundation.machine import BYTES_PER_VALUE, available_memory, format_bytes

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))
#: Layer outputs an MLP holds at once while predicting (the one in, the one out).
LAYER_COPIES = 2


def out_folder(out: str) -> str:
    """The folder the predictions file goes in (absolute)."""
    return os.path.dirname(os.path.abspath(out))


def check_out(out: str, inputs: dict) -> None:
    """Refuse an output path that is not an absent path or a regular file, that is one
    of ``inputs`` (``{"the data file": path, "the model file": path}``), or whose folder
    does not exist.

    Raises
    ------
    EngineError
        ``predict_out_kind``, ``predict_out_is_input`` or ``predict_out_folder``.
    """
    try:
        info = os.stat(out)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise EngineError("predict_out_kind", {"path": out, "kind": "unreadable"},
                          f"cannot write the predictions to {out}: "
                          f"{exc.strerror or exc}") from None
    if info is not None:
        _check_existing(out, info, inputs)
    folder = out_folder(out)
    if not os.path.isdir(folder):
        raise EngineError("predict_out_folder", {"path": out, "folder": folder},
                          f"cannot write the predictions to {out}: the folder {folder} does "
                          "not exist; create it first or choose another place")


def _check_existing(out: str, info, inputs: dict) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a file")
        raise EngineError("predict_out_kind", {"path": out, "kind": kind},
                          f"cannot write the predictions to {out}: it is {kind}, and only a "
                          "new file or a regular file is replaced; choose a file name")
    for what, path in inputs.items():
        try:
            other = os.stat(path)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
            raise EngineError("predict_out_is_input", {"path": out, "input": what},
                              f"cannot write the predictions to {out}: it is {what}, which "
                              "would be replaced; choose another file name")


def mlp_widths(model) -> list:
    """The layer widths of the neural network inside ``model`` (empty for other models):
    the last step of a pipeline, the estimator of a grid search or threshold."""
    for _ in range(10):
        if type(model).__name__ == "MLPClassifier":
            # getattr: scikit-learn's MLP
            return [int(c.shape[1]) for c in getattr(model, "coefs_", [])]
        if hasattr(model, "steps"):
            model = model.steps[-1][1]
        elif hasattr(model, "best_estimator_"):
            model = model.best_estimator_
        elif hasattr(model, "estimator_"):
            model = model.estimator_
        else:
            return []
    return []


def check_prediction_memory(model, n_rows: int, n_features: int, path: str,
                            *, available=None) -> None:
    """Refuse predicting ``n_rows`` rows when a neural network's widest layer times the
    rows (held twice) and the rows themselves would not fit in the memory available.

    Raises
    ------
    EngineError
        ``predict_memory``.
    """
    widths = mlp_widths(model)
    if not widths:
        return
    available = available_memory() if available is None else available
    need = n_rows * (LAYER_COPIES * max(widths) + n_features) * BYTES_PER_VALUE
    if available is not None and need > available:
        raise EngineError("predict_memory", {"path": path, "needed": need,
                                             "available": available},
                          f"cannot predict the {n_rows:,} rows of {path}: the model's neural "
                          f"network has a layer of {max(widths):,} units, which would take "
                          f"about {format_bytes(need)} of memory for these rows, more than "
                          f"the {format_bytes(available)} available; predict a part of the "
                          "rows at a time")
