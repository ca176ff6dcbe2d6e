"""Entry point of the bundled program (PyInstaller one-folder app ``honest-eval``).

It does what ``main.py`` does (the app, ``run`` headless, ``--smoke-test`` ...) once it
has made sure it is not one of the helper processes the program starts of itself. A frozen
program is its own Python: ``sys.executable`` is the bundle's ``honest-eval``, so every
helper process that a library starts "with Python" starts this program again, with
arguments meant for a Python interpreter:

* multiprocessing's forkserver (the window's cross-validation run) and resource tracker:
  ``honest-eval [flags] -c "from multiprocessing.forkserver import main; ..."``, and
  spawn children ``honest-eval --multiprocessing-fork ...``: PyInstaller's
  ``multiprocessing.freeze_support`` (its run-time hook) runs those;
* joblib's loky workers (``--jobs N``):
  ``honest-eval -m joblib.externals.loky.backend.popen_loky_posix --process-name N
  --pipe FD`` and loky's resource tracker: ``honest-eval [flags] -c "from
  joblib.externals.loky.backend.resource_tracker import main; main(FD, V)"``.
  Loky has no freeze support outside Windows, so :func:`divert_loky_helper` runs them.

Only these exact commands are run; any other ``-c``/``-m`` goes to the app unchanged
(which treats it like any other unknown option).

``honest-eval --check-bundle [--jobs N]`` checks the bundle itself, without a window: the
shipped files are found, and the built-in example runs through the window's run path
(``gui.tabs.cv_tab.run_in_process``: a forkserver child, with N loky workers inside it;
default 2). tests/test_bundle.py uses it.
"""
import multiprocessing
import os
import sys
import time

#: ``-m`` modules that loky starts its workers with (joblib's copy, and loky on its own).
LOKY_WORKER_MODULES = ("joblib.externals.loky.backend.popen_loky_posix",
                       "loky.backend.popen_loky_posix")
#: ``-c`` commands that loky starts its resource tracker with.
LOKY_COMMAND_PREFIXES = ("from joblib.externals.loky.backend.resource_tracker import main",
                         "from loky.backend.resource_tracker import main")


def _interpreter_flags_only(words) -> bool:
    """True when ``words`` are flags a Python interpreter was given (``-B``, ``-s``,
    ``-X utf8``, ``-W...``) as :func:`subprocess._args_from_interpreter_flags` writes them."""
    from subprocess import _args_from_interpreter_flags

    return set(words) <= set(_args_from_interpreter_flags())


def divert_loky_helper(argv=None) -> None:
    """In a loky worker or resource tracker: run it, then exit. Otherwise return."""
    argv = sys.argv if argv is None else argv
    for switch in ("-m", "-c"):
        if switch in argv[1:]:
            index = argv.index(switch, 1)
            break
    else:
        return
    if index + 1 >= len(argv) or not _interpreter_flags_only(argv[1:index]):
        return
    what = argv[index + 1]
    if switch == "-m" and what in LOKY_WORKER_MODULES:
        import runpy

        # The worker reads its arguments with argparse; __main__ stays this module, so
        # loky's spawn.prepare sees the parent's main (the same file) and leaves it be.
        sys.argv = [argv[0], *argv[index + 2:]]
        runpy.run_module(what, run_name="__main__", alter_sys=False)
        sys.exit(0)   # the module exits by itself; this is only a safeguard
    if switch == "-c" and what.startswith(LOKY_COMMAND_PREFIXES):
        sys.argv = [argv[0], *argv[index + 2:]]
        exec(compile(what, "<loky helper>", "exec"), {"__name__": "__main__"})  # noqa: S102
        sys.exit(0)


def check_bundle(argv) -> int:
    """``--check-bundle [--jobs N]``: the shipped files, then the built-in example run as
    the window runs it; exit status 0 when all went well."""
    import argparse

    parser = argparse.ArgumentParser(prog="honest-eval --check-bundle")
    parser.add_argument("--jobs", type=int, default=2, help="loky workers (default 2)")
    args = parser.parse_args(argv)
    import resources
    from engine.input.readers import load_dataset
    from engine.evaluation.experiment import load_experiment
    from engine.foundation.schema import experiment_schema

    for path in (resources.example_path(), resources.help_dir(),
                 os.path.join(resources.help_dir(), "index.html"), resources.icon_path("png")):
        if not os.path.exists(path):
            print(f"error: check-bundle: missing {path}", file=sys.stderr)
            return 1
    experiment_schema()
    experiment = load_experiment(resources.example_path())
    dataset = load_dataset(experiment.dataset, base_dir=experiment.base_dir)
    from engine.run_service import check_run
    from gui.tabs.cv_tab import run_in_process

    started, last = time.monotonic(), None
    work = run_in_process(check_run(experiment, (dataset,), n_jobs=args.jobs))
    while True:
        try:
            last = next(work)
        except StopIteration as stop:
            result = stop.value
            break
    if result is None or last is None or last.done != last.total:
        print("error: check-bundle: the run ended without its result", file=sys.stderr)
        return 1
    print(f"check-bundle: files found; the window's run path (forkserver child, "
          f"--jobs {args.jobs}) fitted {last.done}/{last.total} folds in "
          f"{time.monotonic() - started:.1f} s", flush=True)
    return 0


def main() -> int:
    divert_loky_helper()
    multiprocessing.freeze_support()   # PyInstaller's: forkserver, resource tracker, spawn
    if sys.argv[1:2] == ["--check-bundle"]:
        return check_bundle(sys.argv[2:])
    from main import main as honest_eval   # the top-level main.py: resources.command.main

    return honest_eval(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
