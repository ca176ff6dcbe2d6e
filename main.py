"""Honest classifier evaluation: the desktop app, or a headless run of an experiment file.

    python main.py                                  # open the app on the built-in example
    python main.py path/to/experiment.json          # open the app on an experiment
    python main.py run EXPERIMENT.json --out DIR    # headless (no Qt is imported)
"""
import sys


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "run":
        from engine.cli import run

        return run(argv[1:])
    from gui.app import main as open_app

    return open_app(argv)


if __name__ == "__main__":
    sys.exit(main())
