"""The headless runner: ``python main.py run EXPERIMENT.json --out DIR [--jobs N]``.

Progress and the data notes (``note: ...``) go to stderr; the tables, ``notes.txt`` and
``run.json`` to DIR as one result set (:mod:`engine.result_folder`), which is checked to be
writable before anything is computed. Exit status: 0 done, 2 bad input (one ``error:``
line), 130 interrupted. Imports no Qt and no plotting library.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from .progress import Progress, run_to_end
from .csv_values import visible

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
        line = visible(line)                 # a label's control characters written out
        end = "\r" if self.tty and record.done < record.total else "\n"
        self.stream.write(line[:120].ljust(120 if self.tty else 0) + end)
        self.stream.flush()


def run(argv=None) -> int:
    """Entry point of the headless runner; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    if args.jobs == 0 or args.jobs < -1:
        return _fail(f"--jobs must be a positive number of workers or -1 (got {args.jobs})")
    if not args.out.strip():
        return _fail("--out must name a folder (got an empty name)")
    from .analysis import run_experiment
    from .data import load_dataset
    from .experiment import load_experiment
    from .result_folder import probe_writable, remove_created, write_result_folder

    out = os.path.abspath(args.out)
    bar = None if args.quiet else ProgressBar()
    job, created, stage = None, [], "computing"
    try:
        experiment = load_experiment(args.experiment)
        try:
            created = probe_writable(out)
        except OSError as exc:
            return _fail(f"cannot write to {out}: {_reason(exc)}")
        dataset = load_dataset(experiment.dataset, experiment.base_dir)
        shown = []

        def on_progress(record):
            if not shown:     # the run is under way: its settings passed every check
                shown.extend(_print_notes([*dataset.notes, *experiment.notes], args.quiet))
            if bar is not None:
                bar.update(record)

        job = run_experiment(experiment, n_jobs=args.jobs, dataset=dataset)
        result = run_to_end(job, on_progress)
        notes = [str(note) for note in result.notes]
        _print_notes([note for note in notes if note not in shown], args.quiet)
        stage = "writing"
        written = write_result_folder(result.tables(), out, _manifest(result, args, argv),
                                      notes)
    except ValueError as exc:
        remove_created(created)
        return _fail(str(exc))
    except KeyboardInterrupt as exc:
        if job is not None:
            job.close()
        remove_created(created)
        sys.stderr.write("\n" + _interrupted(stage, getattr(exc, "committed", False), out) + "\n")
        return EXIT_INTERRUPTED
    except OSError as exc:
        remove_created(created)
        if stage != "writing":
            return _fail(f"{type(exc).__name__}: {exc}")
        done = " (the new results are complete)" if getattr(exc, "committed", False) else ""
        return _fail(f"cannot write the results to {out}: {_reason(exc)}{done}")
    except Exception as exc:  # noqa: BLE001 - never a traceback for the user
        remove_created(created)
        sys.stderr.write(f"error: unexpected failure ({type(exc).__name__}: {exc}); "
                         "please report it with the experiment file\n")
        return EXIT_FAILED
    if not args.quiet:
        n_tables = len(written) - 1 - (len(notes) > 0)
        sys.stderr.write(f"wrote {n_tables} tables{' and notes.txt' if notes else ''} "
                         f"to {out} (run.json lists them)\n")
    return EXIT_OK


def _print_notes(notes, quiet: bool) -> list:
    """Print ``note: ...`` lines to stderr (unless quiet); returns the notes."""
    notes = [str(note) for note in notes]
    if not quiet:
        for note in notes:
            sys.stderr.write(f"note: {visible(note)}\n")
    return notes


def _manifest(result, args, argv) -> dict:
    """What ``run.json`` records about this run (besides its tables and versions)."""
    return {"experiment": result.experiment.to_json(),
            "experiment_file": os.path.abspath(args.experiment),
            "command": {"argv": ["run", *argv], "jobs": args.jobs},
            "exit_status": EXIT_OK}


def _interrupted(stage: str, committed: bool, out: str) -> str:
    if stage == "computing":
        return f"interrupted: nothing was written; {out} holds what it held before"
    if committed:
        return f"interrupted: the new results in {out} are complete"
    return (f"interrupted: the new results were not written; {out} still holds the "
            "previous run's complete results, if it had any")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _fail(message: str) -> int:
    sys.stderr.write(f"error: {message}\n")
    return EXIT_BAD_INPUT
