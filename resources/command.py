"""The ``honest-eval`` command's entry point (``python main.py`` in a source checkout runs
the same :func:`main`): it sends ``run`` and ``predict`` straight to :mod:`engine.cli` and
everything else (the app, ``--help``, the desktop menu entry) to :mod:`gui.launch`.

It lives here, outside ``gui``, so that a headless run imports no module of the ``gui``
package and works in an install without the ``app`` extra (no PySide6, no pyqtgraph: a
server or a Dask worker). Not in ``engine``: the engine never imports ``gui`` (the
import-linter contract), and the app is one of the places this sends to. ``resources`` is
the package the wheel already ships beside ``engine`` and ``gui``; a new top-level package
or a top-level ``main`` module in site-packages would widen the installed layout.
tests/test_architecture.py checks, in a fresh process, that a headless run loads no
``gui`` module.
"""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    """Entry point of the ``honest-eval`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "run":
        from engine.cli import run

        return run(argv[1:])
    if argv and argv[0] == "predict":
        from engine.cli import predict

        return predict(argv[1:])
    from gui.launch import main as launch

    return launch(argv)


if __name__ == "__main__":
    sys.exit(main())
