"""Build the one-folder desktop bundle of Honest Eval with PyInstaller.

    python resources/bundle/build_bundle.py            # -> build/bundle/honest-eval/
    python resources/bundle/build_bundle.py --dist DIR # -> DIR/honest-eval/

The result is a folder ``honest-eval/`` holding the program ``honest-eval`` and its
``_internal/`` folder (Python, Qt, numpy, scipy, scikit-learn, the app's own files); copy
or archive the whole folder. It runs without Python or pip on the target machine (a Linux
of the same or a newer glibc than the one it was built on):

    honest-eval/honest-eval                                   # the app, on the built-in example
    honest-eval/honest-eval EXPERIMENT.json                   # the app, on an experiment
    honest-eval/honest-eval run EXPERIMENT.json --out DIR     # headless

What goes in and what is left out is written in ``honest-eval.spec`` beside this file.
PyInstaller is a build tool, not a dependency of the app: install it first
(``python -m pip install "pyinstaller>=6.10"``). The build takes a few minutes; its
temporary files go to ``build/bundle-work/`` (both folders are ignored by git).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SPEC = os.path.join(HERE, "honest-eval.spec")
NAME = "honest-eval"
DEFAULT_DIST = os.path.join(ROOT, "build", "bundle")
DEFAULT_WORK = os.path.join(ROOT, "build", "bundle-work")
#: 6.10 fixed the frozen multiprocessing helpers (resource tracker arguments).
MIN_PYINSTALLER = (6, 10)


def program_path(dist: str = DEFAULT_DIST) -> str:
    """The bundled program inside ``dist``."""
    return os.path.join(dist, NAME, NAME)


def folder_size(folder: str) -> tuple:
    """(bytes on disk, number of files) of everything under ``folder``."""
    total = files = 0
    for base, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            if not os.path.islink(path):
                total += os.lstat(path).st_blocks * 512
            files += 1
    return total, files


def strip_debug_info(folder: str) -> int:
    """``strip --strip-debug`` every ELF file under ``folder`` that carries debugging
    information (a Python built from source keeps it in libpython and its extension
    modules); the bytes saved. Nothing is done without binutils' ``strip``."""
    sys.path.insert(0, HERE)
    import elf

    strip = shutil.which("strip")
    if strip is None or not sys.platform.startswith("linux"):
        return 0
    saved = 0
    for base, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            if os.path.islink(path) or not elf.has_debug_info(path):
                continue
            before = os.path.getsize(path)
            subprocess.run([strip, "--strip-debug", path], check=True)
            saved += before - os.path.getsize(path)
    return saved


def check_pyinstaller() -> str:
    try:
        import PyInstaller
    except ImportError:
        raise SystemExit('error: PyInstaller is not installed: python -m pip install '
                         '"pyinstaller>=6.10"') from None
    version = tuple(int(p) for p in PyInstaller.__version__.split(".")[:2] if p.isdigit())
    if version < MIN_PYINSTALLER:
        raise SystemExit(f"error: PyInstaller {PyInstaller.__version__} is too old: "
                         'python -m pip install -U "pyinstaller>=6.10"')
    return PyInstaller.__version__


def build(dist: str = DEFAULT_DIST, work: str = DEFAULT_WORK, clean: bool = False,
          quiet: bool = False, strip: bool = True) -> str:
    """Run PyInstaller on the spec; the path of the bundled program."""
    version = check_pyinstaller()
    dist, work = os.path.abspath(dist), os.path.abspath(work)
    if os.path.realpath(dist).startswith(os.path.realpath(os.path.join(ROOT, "resources"))):
        raise SystemExit("error: --dist inside resources/ would ship the bundle in itself")
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--distpath", dist,
               "--workpath", work, "--log-level", "WARN" if quiet else "INFO"]
    if clean:
        command.append("--clean")
    command.append(SPEC)
    print(f"building with PyInstaller {version}: {' '.join(command)}", flush=True)
    started = time.monotonic()
    env = dict(os.environ, PYTHONHASHSEED="0", QT_QPA_PLATFORM="offscreen")
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    program = program_path(dist)
    if not os.access(program, os.X_OK):
        raise SystemExit(f"error: PyInstaller made no program at {program}")
    if strip:
        saved = strip_debug_info(os.path.dirname(program))
        if saved:
            print(f"stripped debugging information: {saved / 2 ** 20:.0f} MiB", flush=True)
    size, files = folder_size(os.path.dirname(program))
    print(f"built {program} in {time.monotonic() - started:.0f} s: "
          f"{size / 2 ** 20:.0f} MiB on disk, {files} files", flush=True)
    return program


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", default=DEFAULT_DIST,
                        help=f"folder for the bundle (default: {os.path.relpath(DEFAULT_DIST)}); "
                             f"the program is DIST/{NAME}/{NAME}")
    parser.add_argument("--work", default=DEFAULT_WORK,
                        help="folder for PyInstaller's temporary files")
    parser.add_argument("--clean", action="store_true",
                        help="empty PyInstaller's cache and temporary files first")
    parser.add_argument("--quiet", action="store_true", help="only PyInstaller's warnings")
    parser.add_argument("--no-strip", dest="strip", action="store_false",
                        help="keep debugging information in libpython and the like")
    args = parser.parse_args(argv)
    if args.clean and os.path.isdir(args.work):
        shutil.rmtree(args.work)
    build(args.dist, args.work, args.clean, args.quiet, args.strip)
    return 0


if __name__ == "__main__":
    sys.exit(main())
