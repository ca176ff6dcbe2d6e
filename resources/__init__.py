"""The app's own files, shipped inside the installed package and found through
:mod:`importlib.resources` (so they are found wherever the package is installed, and in a
source checkout):

    help/       the offline guide (HTML pages and style.css), shown by gui.help
    examples/   the example experiments (JSON); the app opens ``svc_kernels_moons.json``
    icons/      the application icon (honest-eval.svg, and honest-eval.png at 256x256)
    honest-eval.desktop   the Linux menu entry (``honest-eval --install-desktop``)
    command.py  the ``honest-eval`` command's entry point (run and predict without ``gui``)

Every helper returns a real filesystem path (a string): Qt needs one (a QTextBrowser's
search path is a folder). Installed as ordinary files, that is the file itself; from a
zip archive the resource is copied out once into a temporary folder that lives as long as
the process. Imports no Qt: the headless runner and the engine may use it.

Beside this file are developer tools that need the repository: dev/ (screenshots.py,
layout_gallery.py) and bundle/ (the PyInstaller build). The app never imports them, and
they are not in the wheel: they are folders without ``__init__.py``, so not packages, and
no package-data pattern names them (setuptools ships every module of a package, so a
developer script must not sit beside this file).
"""
from __future__ import annotations

import atexit
import contextlib
import os
import pathlib
import shutil
import tempfile
from importlib.resources import as_file, files

#: The experiment the app opens when it is given none.
DEFAULT_EXAMPLE = "svc_kernels_moons.json"
#: The application's name on the desktop: the command, the .desktop file, the icon.
APP_ID = "honest-eval"

_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)
_cache: dict = {}


def _real_path(*parts: str) -> str:
    """A real filesystem path to the resource ``parts`` (a file or a folder)."""
    key = "/".join(parts)
    if key in _cache:
        return _cache[key]
    traversable = files(__name__)
    for part in parts:
        traversable = traversable.joinpath(part)
    if isinstance(traversable, pathlib.Path):             # installed as ordinary files
        path = str(traversable)
    elif traversable.is_file():                          # inside a zip: copied out
        path = str(_extracted.enter_context(as_file(traversable)))
    else:
        path = _copy_folder(traversable)
    _cache[key] = path
    return path


def _copy_folder(traversable) -> str:
    folder = tempfile.mkdtemp(prefix="honest-eval-")
    _extracted.callback(shutil.rmtree, folder, True)

    def copy(source, target: str) -> None:
        for item in source.iterdir():
            if item.is_dir():
                os.makedirs(os.path.join(target, item.name), exist_ok=True)
                copy(item, os.path.join(target, item.name))
            else:
                with open(os.path.join(target, item.name), "wb") as out:
                    out.write(item.read_bytes())

    copy(traversable, folder)
    return folder


def root() -> str:
    """The folder holding the shipped files (this package's folder)."""
    return _real_path()


def example_path(name: str = DEFAULT_EXAMPLE) -> str:
    """The path of the shipped example experiment ``name`` (a file name in examples/)."""
    return _real_path("examples", name)


def example_names() -> list:
    """The file names of the shipped example experiments, sorted."""
    folder = files(__name__).joinpath("examples")
    return sorted(item.name for item in folder.iterdir() if item.name.endswith(".json"))


def help_dir() -> str:
    """The folder of the guide's pages (``index.html``, ``dataset.html``, … ``style.css``)."""
    return _real_path("help")


def icon_path(kind: str = "png") -> str:
    """The application icon: ``"png"`` (256x256) or ``"svg"``."""
    return _real_path("icons", f"{APP_ID}.{kind}")


def desktop_file_path() -> str:
    """The Linux desktop entry (``honest-eval.desktop``)."""
    return _real_path(f"{APP_ID}.desktop")
