"""File dialogs that remember their folder, names proposed for saved files, and the
"what was written where" notice every save leaves in the main window's status bar.

Folders are kept in the main window's ``QSettings`` (``folders/<kind>`` and
``folders/last``), so a dialog opens where the user last saved that kind of file. A
widget finds the settings and the status bar through its top-level window
(``widget.window()``): a panel needs no reference to the main window.
"""
from __future__ import annotations

import html
import os
import re
from typing import Optional

from PySide6.QtCore import QSettings, QStandardPaths, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox

import resources

from .plain_text import message_box

#: The app's own files (examples, help), wherever the app is installed: never proposed as
#: a place to save.
RESOURCES = resources.root()


def settings_for(widget) -> QSettings:
    """The main window's settings (``QSettings()`` for a widget outside one)."""
    window = widget.window() if widget is not None else None
    settings = getattr(window, "settings", None)
    return settings if isinstance(settings, QSettings) else QSettings()


def is_shipped(path: Optional[str]) -> bool:
    """True for a path inside the app's own ``resources`` package folder (the shipped
    examples), wherever it is installed."""
    if not path:
        return False
    try:
        inside = os.path.realpath(path)
        base = os.path.realpath(RESOURCES)
        return os.path.commonpath([inside, base]) == base
    except ValueError:                      # another drive (Windows)
        return False


def home_folder() -> str:
    """The user's documents folder (their home folder if there is none)."""
    documents = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
    if documents and os.path.isdir(documents):
        return documents
    return os.path.expanduser("~")


def default_folder(widget) -> str:
    """Where a dialog opens when no folder is remembered: the window's suggestion (next
    to the data or the experiment file), else the documents folder."""
    window = widget.window() if widget is not None else None
    suggest = getattr(window, "suggested_folder", None)
    folder = suggest() if callable(suggest) else ""
    return folder if folder and os.path.isdir(folder) else home_folder()


def last_folder(widget, kind: str) -> str:
    """The folder last used for ``kind`` of file (any kind, else :func:`default_folder`)."""
    settings = settings_for(widget)
    for key in (f"folders/{kind}", "folders/last"):
        value = settings.value(key)
        if value and os.path.isdir(str(value)) and not is_shipped(str(value)):
            return str(value)
    return default_folder(widget)


def remember_folder(widget, kind: str, path: str) -> None:
    """Remember the folder of ``path`` (or ``path`` itself, a folder) for ``kind``."""
    folder = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    settings = settings_for(widget)
    settings.setValue(f"folders/{kind}", folder)
    settings.setValue("folders/last", folder)


def ask_save_path(widget, title: str, kind: str, name: str, filters: str) -> str:
    """A save dialog proposing ``name`` (a path, or a file name in the remembered folder)."""
    start = name if os.path.isabs(name) else os.path.join(last_folder(widget, kind), name)
    path, _ = QFileDialog.getSaveFileName(widget, title, start, filters)
    if path:
        remember_folder(widget, kind, path)
    return path


#: The CSV styles of exported tables (:data:`engine.output.tables.CSV_STYLES`) as the save
#: dialog offers them.
CSV_FILTERS = {"standard": "CSV, comma separated (*.csv)",
               "semicolon": "CSV for spreadsheets with decimal commas, semicolon separated "
                            "(*.csv)"}
CSV_STYLE_KEY = "export/csv_style"


def csv_style(widget) -> str:
    """The CSV style the user chose last (``"standard"`` until they choose)."""
    style = str(settings_for(widget).value(CSV_STYLE_KEY, "standard"))
    return style if style in CSV_FILTERS else "standard"


def set_csv_style(widget, style: str) -> None:
    settings_for(widget).setValue(CSV_STYLE_KEY, style)


def ask_save_csv(widget, title: str, kind: str, name: str) -> tuple:
    """``(path, style)``: a save dialog for a table offering both CSV styles, the last one
    chosen selected (and remembered); ``("", style)`` when cancelled."""
    start = name if os.path.isabs(name) else os.path.join(last_folder(widget, kind), name)
    current = csv_style(widget)
    path, chosen = QFileDialog.getSaveFileName(widget, title, start,
                                               ";;".join(CSV_FILTERS.values()),
                                               CSV_FILTERS[current])
    style = {text: key for key, text in CSV_FILTERS.items()}.get(chosen, current)
    if path:
        remember_folder(widget, kind, path)
        set_csv_style(widget, style)
    return path, style


def ask_open_path(widget, title: str, kind: str, filters: str) -> str:
    path, _ = QFileDialog.getOpenFileName(widget, title, last_folder(widget, kind), filters)
    if path:
        remember_folder(widget, kind, path)
    return path


def ask_folder(widget, title: str, kind: str) -> str:
    folder = QFileDialog.getExistingDirectory(widget, title, last_folder(widget, kind))
    if folder:
        remember_folder(widget, kind, folder)
    return folder


def ask_about_refused_folder(widget, refused) -> str:
    """Ask what to do when the chosen export folder holds files this app did not write
    (``refused``: an ``engine.output.folder_entries.FolderRefused``).

    Returns
    -------
    str
        ``"subfolder"`` (write into a new folder inside it), ``"choose"`` (choose another
        folder) or ``""`` (cancel).
    """
    names = ", ".join(refused.names[:6]) + (f" and {len(refused.names) - 6} more"
                                            if len(refused.names) > 6 else "")
    if refused.code == "unlisted_files":
        why = (f"The folder {refused.folder} holds earlier results of this app, and also "
               f"{names}, which this app did not write under names it would write.")
    else:
        why = f"The folder {refused.folder} holds files this app did not write: {names}."
    box = message_box(QMessageBox.Question, "Export into this folder?",
                      f"{why}\n\nThe app never replaces or removes files it did not write. "
                      "Write the results into a new folder inside it, or choose another "
                      "folder?", QMessageBox.Cancel, widget)
    inside = box.addButton("Write into a new folder inside it", QMessageBox.AcceptRole)
    other = box.addButton("Choose another folder…", QMessageBox.ActionRole)
    box.exec()
    clicked = box.clickedButton()
    return "subfolder" if clicked is inside else "choose" if clicked is other else ""


# ---------------------------------------------------------------------- names
def plain_text(rich: str) -> str:
    """Rich text (a QLabel's ``<b>…</b>``) as plain text."""
    return html.unescape(re.sub(r"<[^>]+>", "", rich or "")).strip()


def file_name_part(text: str, width: int = 40) -> str:
    """``text`` as part of a file name: ``"rbf − linear"`` -> ``"rbf_vs_linear"``."""
    text = re.sub(r"\s+[−–-]\s+", " vs ", str(text).strip())
    text = re.sub(r"[^\w.+-]+", "_", text).strip("._-")
    return text[:width].rstrip("._-")


def with_parts(file_name: str, parts) -> str:
    """``"posterior.png"`` + ``["rbf vs linear", "roc_auc"]`` ->
    ``"posterior_rbf_vs_linear_roc_auc.png"`` (parts already in the name left out)."""
    stem, ext = os.path.splitext(file_name)
    words = []
    for part in parts:
        word = file_name_part(part)
        if word and word not in words and word.lower() not in stem.lower():
            words.append(word)
    return "_".join([stem, *words]) + ext


# ---------------------------------------------------------------------- after a save
def open_folder(folder: str) -> bool:
    """Show ``folder`` in the system's file manager."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(folder))


def announce_saved(widget, what: str, path: str) -> None:
    """Tell the main window's status bar that ``what`` was written (into ``path``'s
    folder, or into ``path`` when it is a folder)."""
    window = widget.window() if widget is not None else None
    show = getattr(window, "show_saved", None)
    if callable(show):
        folder = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
        show(what, folder)
