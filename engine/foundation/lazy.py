"""The one place the engine imports a heavy library when a step first needs it.

scikit-learn (with the SciPy modules it pulls in) takes about a second to import on an
idle machine and several on a loaded one; reading an experiment, refusing bad input or
reusing stored fits needs none of it. A module of the engine that uses such a library in
a step, not when it is imported, asks for it here instead of importing it inside its
functions::

    from .lazy import sklearn

    def score(y, proba):
        return sklearn("metrics").roc_auc_score(y, proba)

The first call imports the module (:func:`importlib.import_module`); later ones find it
in :data:`sys.modules`, a dictionary look-up. Modules that need a library whenever they
are used import it at the top as usual.
"""
from __future__ import annotations

import importlib
from types import ModuleType


def sklearn(module: str = "") -> ModuleType:
    """scikit-learn's ``module`` (``"metrics"``, ``"model_selection"``; ``""``: the
    package), imported on the first call.

    Parameters
    ----------
    module : str
        A dotted name below ``sklearn``.

    Returns
    -------
    module
    """
    return importlib.import_module(f"sklearn.{module}" if module else "sklearn")
