"""The headless runner: ``honest-eval run EXPERIMENT.json --out DIR [--jobs N | --cluster
local:N | --cluster tcp://HOST:PORT]`` (from a source checkout: ``python main.py run …``).

Progress and the data notes (``note: ...``) go to stderr; the tables, ``notes.txt`` and
``run.json`` to DIR as one result set (:mod:`engine.output.result_folder`), which is checked to be
writable before anything is computed, and the run is checked by :mod:`engine.runs.preflight`
(what would make it fail or mislead: one ``error:`` line per problem) and
:mod:`engine.runs.guards` (memory, size parameters; more than 20,000 fits need ``--yes``). The
result store is ``--store``, else the app's ``NAME.store.sqlite`` beside the experiment
when it exists, else ``DIR/store.sqlite``. An experiment with a
``"datasets"`` list runs through :mod:`engine.runs.benchmark` (every data set read and checked
first; progress and notes per data set; the stacked tables, the across tables and
``report.md``); one with a ``"dataset"`` writes what it always wrote. Every run also writes
``report.html`` and ``report.md``, the report of :mod:`engine.output.report` rendered twice. Exit status: 0 done,
1 unexpected failure, 2 bad input or a refused run (one ``error:`` line), 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM; 129 for SIGHUP); worker processes end with the runner,
even when it is killed (:mod:`engine.foundation.processes`). Imports no Qt and no plotting library.

The heavy parts (the analysis, the store, the report, the cluster, saved models) are imported
inside the functions that use them, after the cheap checks of the arguments and files: the
project's documented lazy imports for start-up time, so that a mistyped option or a missing
file is refused in a tenth of a second instead of after scikit-learn has loaded.
"""
from __future__ import annotations

import argparse
import dataclasses
import contextlib
import os
import sys
import time

from engine.input import file_checks
from engine.foundation import machine, param_caps
from engine.foundation.errors import EngineError, is_caller_error
from engine.foundation.processes import Terminated
from engine.input.csv_values import one_line, visible
from engine.foundation.progress import Progress, run_to_end
from engine.runs.service import store_choice  # noqa: F401 - the CLI's store, as before

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        sys.stderr.write(f"error: {one_line(message)} (see: {self.prog} --help)\n")
        sys.exit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="honest-eval run",
                     description="Run an experiment file headless and write its result tables.",
                     epilog="From a source checkout: python main.py run EXPERIMENT.json --out DIR")
    parser.add_argument("experiment", help="the experiment file (JSON)")
    parser.add_argument("--out", required=True, help="folder for the CSV tables (created)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="parallel worker processes for the folds (-1: all cores)")
    parser.add_argument("--cluster", metavar="WHERE",
                        help="run the fits on a Dask cluster: local:N (N worker processes "
                             "started for the run) or tcp://HOST:PORT (a running Dask "
                             "scheduler); needs pip install \"honest-eval[cluster]\"")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--yes", action="store_true",
                        help="start a very long run (more than 20,000 fits) without asking")
    parser.add_argument("--store", metavar="FILE",
                        help="the result store: fits found in it are reused, new ones added "
                             "(default: the app's store beside the experiment, "
                             "NAME.store.sqlite next to NAME.json, when it exists; else "
                             "store.sqlite in the --out folder)")
    parser.add_argument("--fresh", action="store_true",
                        help="compute every fit without reading the store (the new fits "
                             "replace the stored ones)")
    parser.add_argument("--save-models", action="store_true",
                        help="with a held-out test file: also write each final model "
                             "(fitted on all training rows) as model_NAME.skops into the "
                             "--out folder, for honest-eval predict")
    parser.add_argument("--full-paths", action="store_true",
                        help="name the data files' folders in report.html (by default a "
                             "data file is named by its file name and SHA-256 only)")
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
        eta = (f", {machine.format_seconds(left, about=True)} left"
               if left is not None and record.done < record.total else "")
        line = (f"[{bar}] {record.done}/{record.total} {100 * record.fraction:3.0f}% "
                f"{machine.format_seconds(record.elapsed)}{eta}  {record.label}")
        line = visible(line)                 # a label's control characters written out
        end = "\r" if self.tty and record.done < record.total else "\n"
        self.stream.write(line[:120].ljust(120 if self.tty else 0) + end)
        self.stream.flush()


def run(argv=None) -> int:
    """Entry point of the headless runner; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    from engine.foundation.processes import end_workers, terminate_like_interrupt, worker_lifeline

    with terminate_like_interrupt():
        try:
            with worker_lifeline():
                return _run(args, argv)
        except KeyboardInterrupt as exc:      # before the run's own handling took over
            return _stopped(exc, "computing", False, os.path.abspath(args.out or "."))
        finally:
            with contextlib.suppress(KeyboardInterrupt):   # a signal while closing: done
                end_workers()


def _run(args, argv) -> int:
    """``run``'s arguments checked, then the run service's steps (:mod:`engine.runs.service`:
    folder, check, budget, store, run, :mod:`engine.runs.result_writer`), their notes and
    refusals as lines on stderr."""
    refused = _refused_arguments(args)
    if refused:
        return _fail(refused)
    try:
        spec = _cluster_spec(args)
        file_checks.check_experiment_file(args.experiment)   # before the heavy imports
    except ValueError as exc:
        return _refused_exit(exc)
    from engine.output.result_folder import remove_created
    from engine.runs import service

    jobs, spec = _capped(args, spec)
    out = os.path.abspath(args.out)
    bar = None if args.quiet else ProgressBar()
    job, created, stage, store = None, (), "computing", None
    stack = contextlib.ExitStack()      # the store and the cluster (a LocalCluster with it)
    try:
        opening = _open_cluster(spec, stack, bar)       # starts while the data are read
        experiment, checked, place = _checked(args, out, jobs)
        if checked is None:
            return place
        created = place.created
        shown: list = []
        on_progress = _progress_shower(experiment, checked.datasets, bar, args.quiet, shown)
        store = stack.enter_context(service.open_store(place, fresh=args.fresh))  # closed first
        job = _start(checked, jobs, store, None if opening is None else opening.result())
        result = run_to_end(job, on_progress=on_progress)
        _print_notes([str(n) for n in result.notes if str(n) not in shown], args.quiet)
        if not args.quiet:
            _say(f"reused {store.reused} of {store.fits} fits from the result store "
                 f"{store.path}")
        stage = "writing"
        written = _write(result, place, {**_manifest(result, args, argv),
                                         "store": service.store_record(store, fresh=args.fresh)},
                         args)
        stage = "done"
    except ValueError as exc:
        remove_created(list(created))
        return _refused_exit(exc)
    except KeyboardInterrupt as exc:
        if job is not None:
            job.close()
        remove_created(list(created))
        if store is not None and store.computed and stage == "computing" and not args.quiet:
            sys.stderr.write("\n" + visible(f"kept the {store.computed} fits computed in the "
                                            f"result store {store.path}: run the same command "
                                            "again to resume"))
        # getattr: a built-in exception, flagged by result_folder
        return _stopped(exc, stage, getattr(exc, "committed", False), out)
    except OSError as exc:
        remove_created(list(created))
        if stage != "writing":
            return _fail(f"{type(exc).__name__}: {exc}")
        # getattr: a built-in exception, flagged by result_folder
        done = " (the new results are complete)" if getattr(exc, "committed", False) else ""
        return _fail(f"cannot write the results to {out}: {_reason(exc)}{done}")
    except Exception as exc:  # noqa: BLE001 - never a traceback for the user
        remove_created(list(created))
        sys.stderr.write(f"error: unexpected failure ({type(exc).__name__}: "
                         f"{one_line(str(exc))}); please report it with the experiment file\n")
        return EXIT_FAILED
    finally:
        if job is not None:
            job.close()
        stack.close()
        if store is not None and stage != "done":
            service.drop_if_empty(store, created)
    if not args.quiet:
        _say(f"wrote {written.summary} to {out} (run.json lists them)")
    return EXIT_OK


def _refused_arguments(args):
    """Why the options cannot be run (one sentence), or None."""
    if args.jobs == 0 or args.jobs < -1:
        return f"the number of workers --jobs must be positive or -1 (got {args.jobs})"
    if not args.out.strip():
        return "the folder --out must have a name (got an empty one)"
    if args.cluster is not None and args.jobs != 1:
        return ("the options --jobs and --cluster cannot be combined: --jobs N runs "
                "the fits in N processes on this computer, --cluster on the cluster's "
                "workers (use --cluster local:N for N processes here); give one of them")
    return None


def _cluster_spec(args):
    """``--cluster`` parsed (its Dask installed; a ValueError says why not), or None."""
    if args.cluster is None:
        return None
    from engine.evaluation.cluster import ClusterSpec, import_distributed

    spec = ClusterSpec.parse(args.cluster)
    import_distributed()
    return spec


def _capped(args, spec):
    """``(jobs, spec)``: ``--jobs`` and ``--cluster local:N`` capped to the machine, a
    ``note:`` line when capped."""
    jobs, note = machine.cap_jobs(args.jobs)
    if spec is not None and spec.n_workers is not None:      # local:N, capped like --jobs
        workers, note = machine.cap_jobs(spec.n_workers, option="--cluster local:")
        spec = dataclasses.replace(spec, n_workers=workers)
    if note:
        _print_notes([note], args.quiet)
    return jobs, spec


def _checked(args, out: str, jobs: int):
    """The experiment read, the folder claimed, the run checked and its budget asked:
    ``(experiment, CheckedRun, Destination)``, or ``(experiment, None, exit status)`` when
    the run must not start (its ``error:`` lines written)."""
    from engine import run_service
    from engine.evaluation.experiment import load_experiment
    from engine.output.result_folder import remove_created
    from engine.runs import service

    experiment = load_experiment(args.experiment)
    refused = param_caps.check_models(experiment.models)
    if refused:
        return experiment, None, _fail(refused)
    place = service.claim_folder(out, service.store_choice(args.store, args.experiment, out))
    try:
        _print_notes(place.notes, args.quiet)
        service.check_store(place)
        datasets = run_service.read_datasets(experiment)   # every one read, then checked
        _check_save_models(experiment, args.save_models)
        checked = run_service.check_run(experiment, datasets, n_jobs=jobs)   # the test file too
    except BaseException:
        remove_created(list(place.created))
        raise
    if not _preflight(checked.problems, args.quiet):
        remove_created(list(place.created))
        return experiment, None, EXIT_BAD_INPUT
    refused = service.refusal(checked, yes=args.yes)
    if refused:
        remove_created(list(place.created))
        return experiment, None, _fail(refused)
    return experiment, checked, place


def _start(checked, jobs: int, store, cluster):
    """The run's job (:func:`engine.run_service.run`): a generator of progress records."""
    from engine import run_service

    return run_service.run(checked.experiment, checked.datasets, n_jobs=jobs, cluster=cluster,
                           store=store, test=checked.test)


def _write(result, place, manifest: dict, args):
    """The result folder written by :mod:`engine.runs.result_writer` (the app's export
    writes it too); its new notes as ``note:`` lines, a report that could not be built
    as a ``warning:`` line."""
    from engine.runs import result_writer

    content = result_writer.result_files(result, place.notes, save_models=args.save_models,
                                         full_paths=args.full_paths)
    for line in content.added:
        if line in content.warnings:
            sys.stderr.write(visible(f"warning: {line}") + "\n")
        else:
            _print_notes([line], args.quiet)
    return result_writer.write_files(content, place.folder, manifest, own=place.own)


def _check_save_models(experiment, save_models: bool) -> None:
    """``--save-models`` keeps the models fitted for the held-out test: without a
    ``"test"`` block it is refused (a ValueError: one line)."""
    if save_models and not experiment.test:
        raise EngineError("save_models_flag_without_test", {},
                          '--save-models saves the models fitted for the held-out test: add '
                          '"test": {"file": PATH} to the experiment')


def predict(argv=None) -> int:
    """``honest-eval predict MODEL_FILE DATA_FILE --out PREDICTIONS.csv``: apply a saved
    model to a data file; returns the exit status (2 with one ``error:`` line for every
    refusal or failure, never a traceback)."""
    parser = _Parser(prog="honest-eval predict",
                     description="Apply a saved model (model_NAME.skops of a result folder) "
                                 "to a data file and write its predictions as CSV. Only the "
                                 "types and functions the app writes are loaded; use model "
                                 "files from people you trust.")
    parser.add_argument("model", help="the saved model (model_NAME.skops)")
    parser.add_argument("data", help="the data file (CSV, ARFF or Excel) with the training "
                                     "data's feature columns")
    parser.add_argument("--out", required=True,
                        help="the CSV file of predictions to write: a new file or a regular "
                             "file (replaced), not the data or model file, in a folder "
                             "that exists")
    parser.add_argument("--sheet", help="the sheet of an Excel workbook")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    from engine.runs.heldout.saved import predict_file

    try:
        table = predict_file(args.model, args.data, args.out, sheet=args.sheet)
    except ValueError as exc:
        return _refused_exit(exc)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {_reason(exc)}")
    except MemoryError:
        return _fail("predicting ran out of memory; predict a part of the rows at a time")
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        return _fail(f"predicting failed: {type(exc).__name__}: {exc}")
    _say(f"wrote {len(table)} predictions to {os.path.abspath(args.out)}")
    return EXIT_OK



def _open_cluster(spec, stack: contextlib.ExitStack, bar):
    """``spec``'s cluster opening in a thread (its ``result()`` is the open cluster;
    closed with ``stack``), or None without one."""
    if spec is None:
        return None
    from engine.evaluation.cluster import opening_cluster

    if bar is not None:
        bar.stream.write(visible(f"connecting to the cluster {spec}…") + "\n")
    return stack.enter_context(opening_cluster(spec))


def _progress_shower(experiment, datasets, bar, quiet: bool, shown: list):
    """The progress callback: the bar, and the notes of the data (each data set's when
    its run begins, its name before them) once the run is under way (its settings passed
    every check). ``shown`` collects the notes printed."""
    from engine.runs.benchmark import DatasetStep, about_dataset

    begun: set[int] = set()

    def on_progress(record):
        step = record.detail if isinstance(record.detail, DatasetStep) else None
        if not shown and step is None:
            shown.extend(_print_notes([*datasets[0].notes, *experiment.notes], quiet))
        elif step is not None and step.index not in begun:
            if not begun:
                shown.extend(_print_notes(experiment.notes, quiet))
            notes = [about_dataset(note, step.name) for note in datasets[step.index].notes]
            if begun and notes and not quiet and bar is not None and bar.tty:
                bar.stream.write("\n")         # below the bar's line, not over it
            begun.add(step.index)
            shown.extend(_print_notes(notes, quiet))
        if bar is not None:
            bar.update(record)
    return on_progress


def _preflight(problems, quiet: bool) -> bool:
    """The pre-run check's ``problems`` (:mod:`engine.runs.preflight`): one ``error:`` line per
    problem that stops the run, one ``warning:`` line per other (unless quiet); False when
    the run must not start."""
    from engine.runs.preflight import blocking

    stops = blocking(problems)
    for problem in problems:
        if problem.blocking or not quiet:
            sys.stderr.write(visible(one_line(problem.line())) + "\n")
    return not stops



def _stopped(exc: BaseException, stage: str, committed: bool, out: str) -> int:
    """Say what the folder holds after an interrupt or a termination signal; the status."""
    status = exc.exit_status if isinstance(exc, Terminated) else EXIT_INTERRUPTED
    word = "interrupted" if status == EXIT_INTERRUPTED else "terminated"
    sys.stderr.write("\n" + visible(_interrupted(stage, committed, out).replace(
        "interrupted", word, 1)) + "\n")
    return status


def _say(line: str) -> None:
    """Print one line to stderr, its invisible characters written out (``visible``)."""
    sys.stderr.write(visible(line) + "\n")


def _print_notes(notes, quiet: bool) -> list:
    """Print ``note: ...`` lines to stderr (unless quiet); returns the notes."""
    notes = [str(note) for note in notes]
    if not quiet:
        for note in notes:
            _say(f"note: {note}")
    return notes


def _manifest(result, args, argv) -> dict:
    """What ``run.json`` records about this run (besides its tables and versions): what
    every result folder records (:func:`engine.runs.result_writer.base_manifest`: the
    data set read, or each of several data sets), the experiment file and the command."""
    from engine.runs.result_writer import base_manifest

    return {**base_manifest(result), "experiment_file": os.path.abspath(args.experiment),
            "command": {"argv": ["run", *argv], "jobs": args.jobs, "cluster": args.cluster},
            "exit_status": EXIT_OK}


def _interrupted(stage: str, committed: bool, out: str) -> str:
    if stage == "computing":
        return (f"interrupted: no result table was written; {out} holds the tables it held "
                "before")
    if committed:
        return f"interrupted: the new results in {out} are complete"
    return (f"interrupted: the new results were not written; {out} still holds the "
            "previous run's complete results, if it had any")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _refused_exit(exc: ValueError) -> int:
    """A ValueError's one line: the input refused (exit 2), or, for a
    :class:`~engine.foundation.errors.CallerError`, the app's own bug (exit 1)."""
    if not is_caller_error(exc):
        return _fail(str(exc))
    sys.stderr.write(f"error: unexpected failure (CallerError {exc.code}: "
                     f"{one_line(str(exc))}); please report it with the experiment file\n")
    return EXIT_FAILED


def _fail(message: str) -> int:
    sys.stderr.write(f"error: {error_text(message)}\n")
    return EXIT_BAD_INPUT


def error_text(message: str) -> str:
    """A message as the one line after ``error:``: on one line, starting with a word (a
    leading path gets "the file " before it, leading punctuation is dropped)."""
    text = one_line(message)
    if text[:1] in ("/", "\\", "~") or text[:2] in ("./", ".."):
        return "the file " + text
    stripped = text.lstrip(".,;:!?-)]} ")
    return stripped or "unknown problem (no message); please report it"
