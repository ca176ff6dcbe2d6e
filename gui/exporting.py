"""File → Export results after a run over several data sets: the same result folder as
``honest-eval run EXP.json --out DIR`` writes for that experiment (the tables with their
``dataset`` column, the tables across data sets, ``report.md``, ``report.html``,
``notes.txt`` and ``run.json``, through :func:`engine.output.result_folder.write_result_folder`). Runs on a worker
thread (see ``MainWindow.export_results``). File → Export report… writes the run's HTML
report (:func:`write_report`, on a worker too).

A folder holding files this app did not write is never written
(:class:`engine.output.folder_entries.FolderRefused`): :func:`written_or_refused` hands the
refusal back as a value, and the window asks the user whether to write into a new folder
inside it or to choose another folder."""
from __future__ import annotations

import os
from dataclasses import dataclass

from engine.output.report import REPORT_HTML, build_report
from engine.output.result_folder import FolderRefused, write_result_folder
from engine.output.tables import write_text


@dataclass(frozen=True)
class Written:
    """What an export wrote: every path, and the same in words for the status bar."""

    paths: tuple
    summary: str


def benchmark_manifest(benchmark) -> dict:
    """What ``run.json`` records about the run: the experiment, each data set's record
    (as the headless runner) and that the app wrote it."""
    return {"experiment": benchmark.experiment.to_json(),
            "datasets": benchmark.dataset_records(), "written_from": "the app"}


def write_benchmark(benchmark, folder: str, style: str = "standard") -> Written:
    """Write ``benchmark`` (an ``engine.runs.benchmark.BenchmarkResult``) into ``folder``, its
    tables in CSV ``style`` (:data:`engine.output.tables.CSV_STYLES`)."""
    tables = benchmark.tables()
    texts = {**benchmark.texts(), **report_text(benchmark, tables)}
    notes = [str(note) for note in benchmark.notes]
    paths = write_result_folder(tables, folder, benchmark_manifest(benchmark), notes, texts,
                                csv_style=style)
    parts = [f"{len(tables)} tables", *texts, *(["notes.txt"] if notes else [])]
    summary = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return Written(tuple(paths), summary)


def model_files(result) -> dict:
    """``{file name: bytes}`` of the final models when the experiment keeps them
    (``"save_models"``): made by the run in its child process (skops is never imported
    here: importing it on a worker thread raced with scipy on the GUI thread), else
    empty."""
    heldout = getattr(result, "heldout", None)
    if heldout is None or not result.experiment.save_models:
        return {}
    return dict(heldout.files)
def report_text(result, tables: dict) -> dict:
    """``{"report.html": its text}``: the report the headless runner writes beside the
    tables (:func:`engine.output.report.build_report`)."""
    return {REPORT_HTML: build_report(result, tables)}


def write_results(result, folder: str, manifest: dict, style: str = "standard") -> list:
    """File → Export results for one data set: the tables, ``notes.txt``,
    ``report.html``, the saved models (:func:`model_files`) and ``run.json``, as the headless runner writes them; returns the
    tables' paths."""
    tables = result.tables()
    write_result_folder(tables, folder, manifest, [str(note) for note in result.notes],
                        report_text(result, tables), csv_style=style,
                        files=model_files(result))
    return [os.path.join(os.path.abspath(folder), name) for name in tables]


def write_report(result, path: str) -> str:
    """File → Export report…: write ``result``'s self-contained HTML report
    (:func:`engine.output.report.build_report`, the ``report.html`` the headless runner writes)
    to ``path`` atomically; returns the path. ``result`` is an ``ExperimentResult`` or,
    after a run over several data sets, a ``BenchmarkResult``."""
    page = build_report(result)
    return write_text(path, lambda stream: stream.write(page))


def written_or_refused(write):
    """``write()``'s result, or the :class:`FolderRefused` it raised (returned, not
    raised: the window then asks what to do instead of showing an error)."""
    try:
        return write()
    except FolderRefused as refused:
        return refused
