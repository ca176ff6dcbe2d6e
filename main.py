"""Honest classifier evaluation from a source checkout: the same as the installed
``honest-eval`` command (resources.command.main), which ``python main.py --help`` describes.

    python main.py                                  # open the app on the built-in example
    python main.py path/to/experiment.json          # open the app on an experiment
    python main.py run EXPERIMENT.json --out DIR    # headless (no gui module, no Qt imported)
"""
import sys


def main(argv=None) -> int:
    from resources.command import main as command

    return command(argv)


if __name__ == "__main__":
    sys.exit(main())
