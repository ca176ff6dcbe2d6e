"""``report.html``: one self-contained HTML report of a whole run, to hand over.

:func:`build_report` turns a run's result (:class:`engine.runs.analysis.ExperimentResult`, or
:class:`engine.runs.benchmark.BenchmarkResult` for several data sets) and the tables the runner
writes into one HTML5 page: the verdicts and their caveats first, then the data, the
models and the cross-validation design, every table (rounded for reading,
:mod:`engine.output.report.tables`), every plot as inline SVG (:mod:`engine.output.report.plots`), the
notes, the methods with references, the TRIPOD+AI items, the versions and the experiment
file embedded (:func:`extract_experiment` reads it back). The page needs no network, no
other file and no script. Imports no Qt and no plotting library.
"""
from __future__ import annotations

from datetime import datetime
from typing import Optional

from engine.output.document import to_html
from engine.output.folder_entries import REPORT_HTML
from engine.output.report.methods import (experiment_block, extract_experiment, methods_section,
                                          tripod_section, versions_section)
from engine.output.report.page import document, section
from engine.output.report.plots import figures_for, ranks_figure
from engine.output.report.sections import (caveats, data_section, design_section, models_section,
                                           notes_list, verdict_section)
from engine.output.report.subgroups import subgroup_section
from engine.output.report.svg import number_svgs, text
from engine.output.report.tables import html_table
from engine.runs.across.report import across_document

__all__ = ["REPORT_HTML", "build_report", "extract_experiment"]

#: Tables shown first and open; every other table follows in name order, folded.
FIRST_TABLES = ("summary.csv", "pairwise.csv", "credible_intervals.csv", "test_scores.csv",
                "dataset_scores.csv", "ranks.csv", "friedman.csv", "wilcoxon.csv",
                "signed_rank.csv", "nemenyi.csv")
_OPEN = ("summary.csv", "pairwise.csv", "test_scores.csv", "dataset_scores.csv", "ranks.csv")


def build_report(result, *, tables: Optional[dict] = None, written: Optional[str] = None,
                 full_paths: bool = False) -> str:
    """The text of ``report.html`` for a run.

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
    str
        The HTML5 page.
    """
    tables = result.tables() if tables is None else tables
    several = hasattr(result, "results")
    runs = list(result.results) if several else [result]
    written = written or datetime.now().astimezone().isoformat(timespec="seconds")
    names = [run.dataset.name for run in runs]
    models = [spec.name for spec in runs[0].experiment.models]
    title = (f"Comparison of {len(models)} models on {', '.join(map(str, names))}")
    parts = [section("verdict", "Verdict and what it does not say",
                     _verdicts(result, runs, several) + "<h3>Caveats</h3>" + caveats()
                     + "<h3>Notes of the run</h3>" + notes_list(result.notes)),
             section("compared", "What was compared", _compared(runs, several, full_paths)),
             section("results", "Results", _results(runs, tables, several)),
             *_subgroups(runs, several),
             section("tables", "Every table of the run", _all_tables(tables)),
             section("methods", "Methods and references",
                     methods_section(result.experiment, tables, several)),
             section("tripod", "TRIPOD+AI items", "".join(
                 (f"<h3>{text(run.dataset.name)}</h3>" if several else "")
                 + tripod_section(run, _dataset_tables(tables, run.dataset.name, several),
                                  full_paths=full_paths)
                 for run in runs)),
             section("reproduce", "Reproduce this run",
                     "<h3>Versions</h3>" + versions_section()
                     + "<h3>The experiment file</h3>"
                     + experiment_block(result.experiment, full_paths=full_paths))]
    subtitle = (f"{len(models)} models ({', '.join(text(m) for m in models)}) compared by "
                f"cross-validation on {len(names)} data "
                f"{'sets' if len(names) > 1 else 'set'}; written {text(written)} by "
                "honest-eval.")
    return document(title, subtitle, parts)


def _verdicts(result, runs: list, several: bool) -> str:
    if not several:
        return verdict_section(runs[0])
    across = to_html(across_document(result.across))
    per_set = "".join(f"<h3>On {text(run.dataset.name)}</h3>{verdict_section(run)}"
                      for run in runs)
    return f"<h3>Across the data sets</h3>{across}{per_set}"


def _compared(runs: list, several: bool, full_paths: bool = False) -> str:
    data = "".join((f"<h4>{text(run.dataset.name)}</h4>" if several else "")
                   + data_section(run, anchor=str(i), full_paths=full_paths) for i,
                   run in enumerate(runs, 1))
    return (f"<h3>The data</h3>{data}<h3>The models</h3>{models_section(runs[0])}"
            f"<h3>The cross-validation</h3>{design_section(runs[0])}")


def _results(runs: list, tables: dict, several: bool) -> str:
    html, count = [], 0
    across = ranks_figure(tables) if several else None
    if across is not None:
        count = 1
        html.append(f'<h3>Across the data sets</h3><figure class="wide">'
                    f"{number_svgs([across.svg])[0]}<figcaption>{text(across.caption)}"
                    "</figcaption></figure>")
    for run in runs:
        own = _dataset_tables(tables, run.dataset.name, several)
        metric = run.cv.primary_metric
        figures = figures_for(own, metric, run.experiment.comparison.rope_for(metric))
        svgs = number_svgs([figure.svg for figure in figures], start=count + 1)
        count += len(figures)
        if several:
            html.append(f"<h3>{text(run.dataset.name)}</h3>")
        html.extend(f'<figure class="{_figure_class(svg)}">{svg}<figcaption>'
                    f"{text(figure.caption)}</figcaption></figure>"
                    for figure, svg in zip(figures, svgs))
        html.extend(f'<p class="note">{text(note)}</p>' for note in _extra_notes(run))
    return "".join(html)


def _subgroups(runs: list, several: bool) -> list:
    """The "Subgroups" section of a one-data-set run with subgroups (else none)."""
    if several or runs[0].subgroups is None:
        return []
    return [section("subgroups", "Subgroups", subgroup_section(runs[0]))]


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


def _all_tables(tables: dict) -> str:
    first = [name for name in FIRST_TABLES if name in tables]
    rest = sorted(name for name in tables if name not in first)
    html = []
    for name in first + rest:
        opened = " open" if name in _OPEN else ""
        html.append(f"<details{opened}><summary>{text(name)} ({len(tables[name]):,} rows)"
                    f"</summary>{html_table(name, tables[name])}</details>")
    return ("<p>Every table the run wrote, in the result folder beside this report. "
            "Numbers are rounded to four significant digits for reading; the CSV files hold "
            "them at full precision. Open a table by its name.</p>" + "".join(html))
