"""The headless runner: ``python main.py run EXPERIMENT.json --out DIR [--jobs N]``.

Progress goes to stderr, tables to DIR. Exit status: 0 done, 2 bad input (one
``error:`` line), 130 interrupted. Imports no Qt and no plotting library.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from .progress import Progress, run_to_end

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        sys.stderr.write(f"error: {message} (see: python main.py run --help)\n")
        sys.exit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python main.py run",
                     description="Run an experiment file headless and write its result tables.")
    parser.add_argument("experiment", help="the experiment file (JSON)")
    parser.add_argument("--out", required=True, help="folder for the CSV tables (created)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="parallel worker processes for the folds (-1: all cores)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


class ProgressBar:
    """A text progress bar on a stream, at most a few updates a second."""

    def __init__(self, stream=sys.stderr, interval: float = 0.25, width: int = 30):
        self.stream, self.interval, self.width = stream, interval, width
        self.last = 0.0
        self.tty = hasattr(stream, "isatty") and stream.isatty()

    def update(self, record: Progress, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < self.interval and record.done < record.total:
            return
        self.last = now
        filled = int(self.width * record.fraction)
        bar = "#" * filled + "-" * (self.width - filled)
        left = record.remaining
        eta = f", {left:.1f} s left" if left is not None and record.done < record.total else ""
        line = (f"[{bar}] {record.done}/{record.total} {100 * record.fraction:3.0f}% "
                f"{record.elapsed:.1f} s{eta}  {record.label}")
        end = "\r" if self.tty and record.done < record.total else "\n"
        self.stream.write(line[:120].ljust(120 if self.tty else 0) + end)
        self.stream.flush()


def run(argv=None) -> int:
    """Entry point of the headless runner; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.jobs == 0 or args.jobs < -1:
        return _fail(f"--jobs must be a positive number of workers or -1 (got {args.jobs})")
    from .analysis import run_experiment
    from .experiment import load_experiment
    from .tables import write_tables

    bar = None if args.quiet else ProgressBar()
    job = None
    try:
        experiment = load_experiment(args.experiment)
        job = run_experiment(experiment, n_jobs=args.jobs)
        result = run_to_end(job, bar.update if bar is not None else None)
        out = os.path.abspath(args.out)
        written = write_tables(result.tables(), out)
    except ValueError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        if job is not None:
            job.close()
        sys.stderr.write("\ninterrupted: no table was half-written\n")
        return EXIT_INTERRUPTED
    except OSError as exc:
        return _fail(f"cannot write the results: {exc}")
    except Exception as exc:  # noqa: BLE001 - never a traceback for the user
        sys.stderr.write(f"error: unexpected failure ({type(exc).__name__}: {exc}); "
                         "please report it with the experiment file\n")
        return EXIT_FAILED
    if not args.quiet:
        sys.stderr.write(f"wrote {len(written)} tables to {out}\n")
    return EXIT_OK


def _fail(message: str) -> int:
    sys.stderr.write(f"error: {message}\n")
    return EXIT_BAD_INPUT
