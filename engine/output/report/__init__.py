"""``report.html`` and ``report.md``: one report of a whole run, to hand over.

:func:`build_document` turns a run's result (:class:`engine.runs.analysis.ExperimentResult`,
or :class:`engine.runs.benchmark.BenchmarkResult` for several data sets) and the tables the
runner writes into one structure (:class:`engine.output.document.Document`), built once and
rendered (:func:`rendered`) to a self-contained HTML5 page (:func:`build_report`) and to
Markdown, where a plot is named by its caption. Its sections: the verdicts and their caveats first, then the data, the
models and the cross-validation design, every table (rounded for reading,
:mod:`engine.output.report.tables`), every plot as inline SVG (:mod:`engine.output.report.plots`), the
notes, the methods with references, the TRIPOD+AI items, the versions and the experiment
file embedded (:func:`extract_experiment` reads it back). The page needs no network, no
other file and no script. Nothing is parsed. Imports no Qt and no plotting library.
"""
from __future__ import annotations

from datetime import datetime
from typing import Optional

from engine.output.document import (Details, Document, Figure, Heading, Name, Paragraph,
                                    Section, to_markdown)
from engine.output.folder_entries import REPORT, REPORT_HTML
from engine.output.report.methods import (experiment_block, extract_experiment, methods_section,
                                          tripod_section, versions_section)
from engine.output.report.page import page
from engine.output.report.plots import figures_for, ranks_figure
from engine.output.report.sections import (caveats, data_section, design_section, joined,
                                           models_section, notes_list, verdict_section)
from engine.output.report.subgroups import subgroup_section
from engine.output.report.svg import number_svgs
from engine.output.report.tables import table_blocks
from engine.runs.across.report import across_document

__all__ = ["REPORT", "REPORT_HTML", "build_document", "build_report", "extract_experiment",
           "rendered"]

#: Tables shown first and open; every other table follows in name order, folded.
FIRST_TABLES = ("summary.csv", "pairwise.csv", "credible_intervals.csv", "test_scores.csv",
                "dataset_scores.csv", "ranks.csv", "friedman.csv", "wilcoxon.csv",
                "signed_rank.csv", "nemenyi.csv")
_OPEN = ("summary.csv", "pairwise.csv", "test_scores.csv", "dataset_scores.csv", "ranks.csv")


def build_report(result, *, tables: Optional[dict] = None, written: Optional[str] = None,
                 full_paths: bool = False) -> str:
    """The text of ``report.html`` for a run: :func:`build_document` rendered as one page
    (the parameters are :func:`build_document`'s)."""
    return page(build_document(result, tables=tables, written=written, full_paths=full_paths))


def rendered(document: Document) -> dict:
    """``{file name: text}``: ``document`` as ``report.html`` and as ``report.md``."""
    return {REPORT_HTML: page(document), REPORT: to_markdown(document)}


def build_document(result, *, tables: Optional[dict] = None, written: Optional[str] = None,
                   full_paths: bool = False) -> Document:
    """The report of a run as a structure, rendered to ``report.html`` and ``report.md``.

    Parameters
    ----------
    result : ExperimentResult or BenchmarkResult
    tables : dict, optional
        ``{file name: DataFrame}`` as written into the result folder (default
        ``result.tables()``); every one of them is shown.
    written : str, optional
        When the run was written (ISO time; default now).
    full_paths : bool
        Name the folders of the data files (and write them into the embedded
        experiment); by default a data file is named by its file name and the SHA-256 of
        its bytes, so a shared report shows no folder of the user's.

    Returns
    -------
    Document
        Its title, the subtitle under it, and the sections (each with its anchor).
    """
    tables = result.tables() if tables is None else tables
    several = hasattr(result, "results")
    runs = list(result.results) if several else [result]
    written = written or datetime.now().astimezone().isoformat(timespec="seconds")
    names = [run.dataset.name for run in runs]
    models = [spec.name for spec in runs[0].experiment.models]
    title = (f"Comparison of {len(models)} models on ", *joined(names))
    parts = [_section("verdict", "Verdict and what it does not say",
                      *_verdicts(result, runs, several), Heading(3, ("Caveats",)), caveats(),
                      Heading(3, ("Notes of the run",)), *notes_list(result.notes)),
             _section("compared", "What was compared", *_compared(runs, several, full_paths)),
             _section("results", "Results", *_results(runs, tables, several)),
             *_subgroups(runs, several),
             _section("tables", "Every table of the run", *_all_tables(tables)),
             _section("methods", "Methods and references",
                      *methods_section(result.experiment, tables, several)),
             _section("tripod", "TRIPOD+AI items", *_tripod(runs, tables, several, full_paths)),
             _section("reproduce", "Reproduce this run",
                      Heading(3, ("Versions",)), versions_section(),
                      Heading(3, ("The experiment file",)),
                      *experiment_block(result.experiment, full_paths=full_paths))]
    subtitle = Paragraph((f"{len(models)} models (", *joined(models), ") compared by "
                          f"cross-validation on {len(names)} data "
                          f"{'sets' if len(names) > 1 else 'set'}; written ", Name(written),
                          " by honest-eval."), "subtitle")
    return Document(title, (subtitle,), tuple(parts))


def _section(anchor: str, title: str, *blocks) -> Section:
    return Section((title,), tuple(blocks), anchor)


def _heading(level: int, name) -> Heading:
    return Heading(level, (Name(name),))


def _verdicts(result, runs: list, several: bool) -> list:
    if not several:
        return verdict_section(runs[0])
    across = across_document(result.across)
    blocks = [Heading(3, ("Across the data sets",)), *across.blocks]
    for part in across.sections:
        blocks += [Heading(4, part.title), *part.blocks]
    for run in runs:
        blocks += [Heading(3, ("On ", Name(run.dataset.name))), *verdict_section(run)]
    return blocks


def _compared(runs: list, several: bool, full_paths: bool = False) -> list:
    blocks: list = [Heading(3, ("The data",))]
    for i, run in enumerate(runs, 1):
        blocks += [_heading(4, run.dataset.name)] * several
        blocks += data_section(run, anchor=str(i), full_paths=full_paths)
    return [*blocks, Heading(3, ("The models",)), *models_section(runs[0]),
            Heading(3, ("The cross-validation",)), design_section(runs[0])]


def _results(runs: list, tables: dict, several: bool) -> list:
    blocks: list = []
    count = 0
    across = ranks_figure(tables) if several else None
    if across is not None:
        count = 1
        blocks += [Heading(3, ("Across the data sets",)),
                   Figure(number_svgs([across.svg])[0], (Name(across.caption),))]
    for run in runs:
        own = _dataset_tables(tables, run.dataset.name, several)
        metric = run.cv.primary_metric
        figures = figures_for(own, metric, run.experiment.comparison.rope_for(metric))
        svgs = number_svgs([figure.svg for figure in figures], start=count + 1)
        count += len(figures)
        blocks += [_heading(3, run.dataset.name)] * several
        blocks += [Figure(svg, (Name(figure.caption),), _figure_class(svg))
                   for figure, svg in zip(figures, svgs)]
        blocks += [Paragraph((Name(note),), "note") for note in _extra_notes(run)]
    return blocks


def _subgroups(runs: list, several: bool) -> list:
    """The "Subgroups" section of a one-data-set run with subgroups (else none)."""
    if several or runs[0].subgroups is None:
        return []
    return [_section("subgroups", "Subgroups", *subgroup_section(runs[0]))]


def _tripod(runs: list, tables: dict, several: bool, full_paths: bool) -> list:
    blocks: list = []
    for run in runs:
        blocks += [_heading(3, run.dataset.name)] * several
        blocks += tripod_section(run, _dataset_tables(tables, run.dataset.name, several),
                                 full_paths=full_paths)
    return blocks
def _figure_class(svg: str) -> str:
    """``narrow`` for a small square plot (set side by side), else ``wide``."""
    width = int(svg.split('width="', 1)[1].split('"', 1)[0])
    return "narrow" if width <= 450 else "wide"


def _extra_notes(run) -> list:
    """The notes that stay with ALOOCV's and calibration's results."""
    notes: list = []
    for extra in (run.aloocv, run.calibration):
        notes.extend(extra.notes if extra is not None else ())
    return notes


def _dataset_tables(tables: dict, name, several: bool) -> dict:
    """The tables of one data set: with several, the rows of its ``dataset`` (the column
    dropped); the across tables are left out."""
    if not several:
        return tables
    own = {}
    for file, frame in tables.items():
        if "dataset" in frame.columns:
            own[file] = frame[frame["dataset"] == name].drop(columns="dataset")
        elif "dataset" in (frame.index.names or []):
            own[file] = frame.xs(name, level="dataset")
    return own


def _all_tables(tables: dict) -> list:
    first = [name for name in FIRST_TABLES if name in tables]
    rest = sorted(name for name in tables if name not in first)
    folded = [Details((name, f" ({len(tables[name]):,} rows)"),
                      tuple(table_blocks(name, tables[name])), opened=name in _OPEN)
              for name in first + rest]
    return [Paragraph(("Every table the run wrote, in the result folder beside this report. "
                       "Numbers are rounded to four significant digits for reading; the CSV "
                       "files hold them at full precision. Open a table by its name.",)),
            *folded]
