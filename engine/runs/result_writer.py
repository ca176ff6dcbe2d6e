"""The one writer of a run's result folder, for ``honest-eval run`` and the app's export.

The headless runner (:mod:`engine.cli`) and File > Export results (``gui.exporting``)
write the same folder for the same result, with the same failure policy:

1. :func:`result_files` -- what the folder holds: the tables, the texts (``report.html``
   and ``report.md``, one report rendered twice), the saved models and the notes.
   A report that cannot be built is a warning (a note, and in
   :attr:`ResultFiles.warnings`), never a failure: the tables matter more than the page.
2. :func:`write_files` -- the folder written at once
   (:func:`engine.output.result_folder.write_result_folder`).

:func:`write_run` does both. Whether a result covers one data set or several is decided
by its experiment (a ``"datasets"`` list), not by the type of the result. Nothing here
prints or imports Qt; the report, the models and the folder writer are imported when
used (a test may replace ``engine.output.report.build_document``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from engine.input.csv_values import one_line


@dataclass(frozen=True)
class ResultFiles:
    """What a result folder holds, before it is written.

    Attributes
    ----------
    tables : dict
        ``{file name: DataFrame}``.
    texts : dict
        ``{file name: text}``: ``report.html`` and ``report.md`` (with several data sets,
        the across-data-set ``report.md`` when the whole report cannot be built).
    files : dict
        ``{file name: bytes}``: the saved final models and their README, or empty.
    notes : tuple of str
        For ``notes.txt``: the run's notes, the caller's, then the ones added here.
    added : tuple of str
        The notes added here (the models saved; a report that could not be built).
    warnings : tuple of str
        One line per failure that cost a file but not the folder (the report).
    """

    tables: dict
    texts: dict
    files: dict
    notes: tuple
    added: tuple = ()
    warnings: tuple = ()


@dataclass(frozen=True)
class Written:
    """What :func:`write_files` wrote.

    Attributes
    ----------
    paths : tuple of str
        Every path written (the tables, the texts, ``notes.txt``, ``run.json``).
    tables : tuple of str
        The tables' paths.
    summary : str
        The same in words: "12 tables, report.html, report.md and notes.txt".
    warnings : tuple of str
        :attr:`ResultFiles.warnings`.
    """

    paths: tuple
    tables: tuple
    summary: str
    warnings: tuple = field(default=())


def is_several(experiment) -> bool:
    """True for an experiment with a ``"datasets"`` list (a comparison across data sets),
    False for one with a single ``"dataset"`` (:mod:`engine.run_service` decides with it
    too)."""
    return bool(experiment.datasets)


def base_manifest(result) -> dict:
    """What ``run.json`` records of every run: the experiment, and the data set read
    (``"data"``) or, with several data sets, each one's record (``"datasets"``)."""
    manifest = {"experiment": result.experiment.to_json()}
    if is_several(result.experiment):
        manifest["datasets"] = result.dataset_records()
    else:
        from engine.input.readers import data_record

        manifest["data"] = data_record(result.dataset, base_dir=result.experiment.base_dir)
    return manifest


def model_files(result, *, save: bool = False) -> dict:
    """``{file name: bytes}`` of the final models to save (the experiment's
    ``"save_models"``, or ``save``: ``--save-models``), else empty. The files the run made
    in its child process are used as they are; only without them are the models written
    here (importing skops)."""
    if is_several(result.experiment):                 # a test file belongs to one data set
        return {}
    heldout = result.heldout
    if heldout is None or not (save or result.experiment.save_models):
        return {}
    if heldout.files:
        return dict(heldout.files)
    from engine.runs.heldout.saved import saved_model_files

    return saved_model_files(heldout, result.dataset)


def report_texts(result, tables: dict, *, full_paths: bool = False):
    """``({"report.html": text, "report.md": text}, None)``: the report built once and
    rendered twice (:func:`engine.output.report.rendered`), or ``({}, warning line)`` when
    it cannot be built (any exception: the tables are written all the same)."""
    from engine.output import report

    try:
        return report.rendered(report.build_document(result, tables=tables,
                                                     full_paths=full_paths)), None
    except Exception as exc:  # noqa: BLE001 - the tables matter more than the report
        return {}, (f"the HTML report could not be written ({type(exc).__name__}: "
                    f"{one_line(str(exc))}); the tables are complete; please report it")


def result_files(result, notes=(), *, save_models: bool = False,
                 full_paths: bool = False) -> ResultFiles:
    """What the result folder of ``result`` holds.

    Parameters
    ----------
    result : ExperimentResult or BenchmarkResult
    notes : iterable
        More notes for ``notes.txt`` after the run's own (the CLI's notes on the folder).
    save_models : bool
        Save the final models even without the experiment's ``"save_models"``.
    full_paths : bool
        Name the data files' folders in ``report.html``.

    Returns
    -------
    ResultFiles
    """
    tables = result.tables()
    texts = dict(result.texts()) if is_several(result.experiment) else {}
    files = model_files(result, save=save_models)
    added = []
    if files:
        from engine.runs.heldout.saved import saved_note

        added.append(str(saved_note(files)))
    page, warning = report_texts(result, tables, full_paths=full_paths)
    texts.update(page)
    added += [warning] if warning else []
    return ResultFiles(tables, texts, files,
                       (*(str(note) for note in result.notes), *map(str, notes), *added),
                       tuple(added), (warning,) if warning else ())


def write_files(content: ResultFiles, folder: str, manifest: dict, *,
                csv_style: str = "standard", own=()) -> Written:
    """Write ``content`` into ``folder`` as one result set
    (:func:`engine.output.result_folder.write_result_folder`: a FolderRefused for a folder
    holding files of someone else, an OSError when it cannot be written)."""
    from engine.output.result_folder import write_result_folder

    notes = list(content.notes)
    paths = write_result_folder(content.tables, folder, manifest, notes, texts=content.texts,
                                csv_style=csv_style, own=own, files=content.files)
    where = os.path.abspath(folder)
    return Written(tuple(paths), tuple(os.path.join(where, name) for name in content.tables),
                   summary(content), content.warnings)


def write_run(result, folder: str, manifest: dict, *, csv_style: str = "standard",
              save_models: bool = False, full_paths: bool = False) -> Written:
    """:func:`result_files` then :func:`write_files`: the result folder of ``result``,
    ``manifest`` (after :func:`base_manifest`'s keys) recorded in ``run.json``."""
    content = result_files(result, save_models=save_models, full_paths=full_paths)
    return write_files(content, folder, {**base_manifest(result), **manifest},
                       csv_style=csv_style)


def summary(content: ResultFiles) -> str:
    """The files of ``content`` in words: "12 tables, report.html, report.md and notes.txt"."""
    parts = [f"{len(content.tables)} tables", *content.texts,
             *(["notes.txt"] if content.notes else [])]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
