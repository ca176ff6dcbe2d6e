"""File → Export results after a run over several data sets: the same result folder as
``honest-eval run EXP.json --out DIR`` writes for that experiment (the tables with their
``dataset`` column, the tables across data sets, ``report.md``, ``report.html``,
``notes.txt`` and ``run.json``), written by the headless runner's own writer
(:mod:`engine.runs.result_writer`, with its failure policy: a report that cannot be built
is a warning, the tables are written); after a run on one data set, the same with that
data set's tables. Runs on a worker thread (see ``MainWindow.export_results``). File → Export report… writes the run's HTML
report (:func:`write_report`, on a worker too).

A folder holding files this app did not write is never written
(:class:`engine.output.folder_entries.FolderRefused`): :func:`written_or_refused` hands the
refusal back as a value, and the window asks the user whether to write into a new folder
inside it or to choose another folder."""
from __future__ import annotations

from engine.output.report import build_report
from engine.output.result_folder import FolderRefused
from engine.output.tables import write_text
from engine.runs.result_writer import Written, write_run

#: What ``run.json`` records of an export besides what every result folder records.
FROM_THE_APP = {"written_from": "the app"}


def write_benchmark(benchmark, folder: str, style: str = "standard") -> Written:
    """Write ``benchmark`` (an ``engine.runs.benchmark.BenchmarkResult``) into ``folder``, its
    tables in CSV ``style`` (:data:`engine.output.tables.CSV_STYLES`):
    :func:`engine.runs.result_writer.write_run`, the headless runner's writer."""
    return write_run(benchmark, folder, FROM_THE_APP, csv_style=style)


def write_results(result, folder: str, style: str = "standard") -> Written:
    """File → Export results for one data set: the tables, ``notes.txt``, ``report.html``,
    the saved models (the experiment's ``"save_models"``) and ``run.json``, by the
    headless runner's writer (:func:`engine.runs.result_writer.write_run`: a report that
    cannot be built is a warning in ``notes.txt``, the tables are written)."""
    return write_run(result, folder, FROM_THE_APP, csv_style=style)


def unbuilt(written: Written) -> str:
    """For the status bar after an export: what could not be written (the report), as
    ``notes.txt`` says, or nothing."""
    return " (the HTML report could not be built: see notes.txt)" if written.warnings else ""


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
