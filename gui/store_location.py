"""Where the window keeps its result store (engine/runs/store.py).

A saved experiment keeps its store beside it (``NAME.store.sqlite`` next to ``NAME.json``),
so the two travel together; unsaved work, and an experiment in a folder the app must not
write into (a read-only folder, the app's own examples), keeps it in the per-user data
folder. ``HONEST_EVAL_STORE_DIR`` replaces that folder (the tests use it).
"""
from __future__ import annotations

import hashlib
import os
from typing import Optional

from PySide6.QtCore import QStandardPaths

from engine.runs.store import BESIDE_SUFFIX

ENVIRONMENT_VARIABLE = "HONEST_EVAL_STORE_DIR"
UNSAVED_NAME = "unsaved-work.store.sqlite"
SUFFIX = BESIDE_SUFFIX          # the headless runner finds it there too
RESOURCES = os.path.realpath(os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "resources"))


def user_store_folder() -> str:
    """The per-user folder for stores (``$HONEST_EVAL_STORE_DIR``, else Qt's application
    data location, e.g. ``~/.local/share/honest-eval/stores``); not created here."""
    override = os.environ.get(ENVIRONMENT_VARIABLE, "")
    if override:
        return os.path.abspath(override)
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    if not base:
        base = os.path.join(os.path.expanduser("~"), ".honest-eval")
    return os.path.join(base, "stores")


def store_path(experiment_path: Optional[str]) -> str:
    """The store file for an experiment saved at ``experiment_path`` (None: unsaved work)."""
    if not experiment_path:
        return os.path.join(user_store_folder(), UNSAVED_NAME)
    experiment_path = os.path.abspath(experiment_path)
    folder, name = os.path.split(experiment_path)
    stem = os.path.splitext(name)[0]
    if _writable_folder(folder):
        return os.path.join(folder, stem + SUFFIX)
    digest = hashlib.sha256(experiment_path.encode("utf-8")).hexdigest()[:10]
    return os.path.join(user_store_folder(), f"{stem}-{digest}{SUFFIX}")


def _writable_folder(folder: str) -> bool:
    real = os.path.realpath(folder)
    inside_app = real == RESOURCES or real.startswith(RESOURCES + os.sep)
    return not inside_app and os.path.isdir(folder) and os.access(folder, os.W_OK)
