"""report.html (issue #30): strict HTML5, every number equal to its CSV under the documented
rounding rule, the embedded experiment reproduces the tables, headless Chromium opens it
with no network request and no console message, one and several data sets."""
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pandas as pd
import pytest

from engine.cli import run as run_cli
from engine.output.report import REPORT_HTML, build_report, extract_experiment
from engine.output.report.svg import Axes, nice_ticks
from engine.output.report.tables import DIGITS, MAX_ROWS
from tests.peers import peer, program_skip

#: A model name that would be markup if it were not escaped.
TRICKY = "nb <script>alert(1)</script> & 'x'"
SINGLE = {
    "dataset": {"builtin": "breast_cancer"},
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
                "params": {"max_iter": 1000}},
               {"name": TRICKY, "estimator": "GaussianNB", "params": {}}],
    "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0},
    "metrics": ["roc_auc", "neg_log_loss"],
    "aloocv": {"C_min": 0.01, "C_max": 100, "n_C": 8, "exact_loo": False},
    "calibration": {"methods": ["isotonic", "sigmoid"], "n_bins": 10, "map_buckets": 50},
}
SEVERAL = {
    "datasets": [{"csv": "moons.csv", "target": "label", "name": "moons"},
                 {"builtin": "iris"}],
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
                "params": {"max_iter": 1000}},
               {"name": "tree", "estimator": "DecisionTreeClassifier",
                "params": {"max_depth": 3, "random_state": 0}}],
    "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
    "metrics": ["accuracy"],
}


def _run(folder, experiment: dict, name: str = "experiment.json") -> str:
    """Write ``experiment`` into ``folder``, run it headless into ``folder/out``; the out
    folder."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(experiment, stream)
    out = os.path.join(folder, "out")
    assert run_cli([path, "--out", out, "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    return _run(str(tmp_path_factory.mktemp("single")), SINGLE)


@pytest.fixture(scope="module")
def several(tmp_path_factory):
    from sklearn.datasets import make_moons

    folder = tmp_path_factory.mktemp("several")
    X, y = make_moons(n_samples=90, noise=0.3, random_state=2)
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "label": np.where(y, "up", "down")}).to_csv(
        folder / "moons.csv", index=False)
    return _run(str(folder), SEVERAL)


@pytest.fixture(params=["single", "several"])
def folder(request):
    return request.getfixturevalue(request.param)


def _page(folder) -> str:
    with open(os.path.join(folder, REPORT_HTML), encoding="utf-8") as stream:
        return stream.read()


def _tables(folder) -> list:
    with open(os.path.join(folder, "run.json"), encoding="utf-8") as stream:
        return [name for name in json.load(stream)["tables"] if name.endswith(".csv")]


def test_report_is_listed_in_run_json_and_parses_strictly(folder):
    html5lib = peer("html5lib")
    with open(os.path.join(folder, "run.json"), encoding="utf-8") as stream:
        assert REPORT_HTML in json.load(stream)["tables"]
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    parser.parse(_page(folder))                  # raises on the first parse error
    assert parser.errors == []
    ids = re.findall(r'\bid="([^"]*)"', _page(folder))
    assert len(ids) == len(set(ids)) > 10          # every clip path's id unique in the page


def _html_tables(page: str) -> dict:
    """``{data-file: (header, rows of cell texts)}`` of the report's CSV tables."""
    html5lib = peer("html5lib")
    tree = html5lib.parse(page, namespaceHTMLElements=False)
    found = {}
    for table in tree.iter("table"):
        name = table.get("data-file")
        if name is None:
            continue
        header = ["".join(th.itertext()) for th in table.find("thead").iter("th")]
        rows = [["".join(td.itertext()) for td in tr.findall("td")]
                for tr in table.find("tbody").findall("tr")]
        found[name] = (header, rows)
    return found


def _expected_cell(value) -> str:
    """The display rule, computed independently: numpy's correctly rounded scientific
    form with DIGITS - 1 decimals, read back; integers and text as the CSV has them."""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return repr(float(np.format_float_scientific(value, precision=DIGITS - 1,
                                                     unique=False)))
    return str(value)


def _cell_number(text: str) -> str:
    return repr(float(text))


def test_every_number_equals_its_csv(folder):
    """Every table of the run is in the report, with the CSV's header and rows, each
    number the CSV's rounded to four significant digits (relative error at most half a
    unit of the fourth digit)."""
    shown = _html_tables(_page(folder))
    written = _tables(folder)
    assert sorted(shown) == sorted(written)
    checked = 0
    for name in written:
        frame = pd.read_csv(os.path.join(folder, name), keep_default_na=False,
                            na_values=[""])
        header, rows = shown[name]
        assert header == list(frame.columns), name
        assert len(rows) == min(len(frame), MAX_ROWS), name
        for row, values in zip(rows, frame.itertuples(index=False, name=None)):
            for cell, value in zip(row, values):
                if isinstance(value, (float, np.floating)):
                    value = float(value)
                    expected = _expected_cell(value)
                    assert (_cell_number(cell) if cell else "") == expected, (name, cell, value)
                    if cell and value != 0:
                        assert abs(float(cell) - value) <= 5 * 10.0 ** -DIGITS * abs(value)
                    checked += 1
                else:
                    assert cell == _expected_cell(value.item() if hasattr(value, "item")
                                                  else value), (name, cell, value)
    assert checked > 100


def test_user_strings_are_inert(single):
    page = _page(single)
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in page
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts == ['<script type="application/json" id="experiment">']


@pytest.mark.slow
def test_embedded_experiment_reproduces_the_tables(folder, tmp_path):
    """Extracted from the page and run headless elsewhere, its data files put beside it
    as the page says: the same tables, to the bit (apart from the fits' timings)."""
    experiment = extract_experiment(_page(folder))
    for block in experiment.get("datasets", [experiment.get("dataset")]):
        if "csv" in block:
            assert os.path.basename(block["csv"]) == block["csv"]      # no folder named
            shutil.copy(os.path.join(os.path.dirname(folder), block["csv"]), tmp_path)
    again = _run(str(tmp_path), experiment, name="extracted.json")
    assert _tables(again) == _tables(folder)
    for name in _tables(folder):
        first = pd.read_csv(os.path.join(folder, name))
        second = pd.read_csv(os.path.join(again, name))
        timing = [c for c in first.columns if c.endswith("seconds")]
        pd.testing.assert_frame_equal(first.drop(columns=timing),
                                      second.drop(columns=timing), check_exact=True)


def test_verdict_comes_first_and_names_methods(single, several):
    page = _page(single)
    order = [page.index(f'<section id="{anchor}">')
             for anchor in ("verdict", "compared", "results", "tables", "methods", "tripod",
                            "reproduce")]
    assert order == sorted(order)
    for words in ("Nadeau, C. and Bengio, Y. (2003)", "Platt, J. (1999)",
                  "Zadrozny, B. and Elkan, C. (2002)", "Rad, K. R. and Maleki, A. (2020)",
                  "Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017)"):
        assert words in page
    assert "Demšar, J. (2006)" not in page and "Demšar, J. (2006)" in _page(several)
    assert "Clinical utility (decision curves)</th><td class=\"na\">not assessed" in page
    assert page.count("<svg") >= 5                  # folds, differences, 2 reliability, ALO


def _svg_outside_figures(page: str) -> str:
    return re.sub(r"<svg.*?</svg>", "", page, flags=re.S)


def test_nothing_refers_to_another_file(folder):
    """No element or style can fetch anything: the only URLs are the empty data favicon,
    the page's own anchors and the SVG namespace."""
    page = _page(folder)
    urls = re.findall(r'(?:src|href|xlink:href|action|poster|data)\s*=\s*"([^"]*)"', page)
    assert set(urls) - {"data:,"} <= {u for u in urls if u.startswith("#")}
    assert "url(" not in _svg_outside_figures(page)
    assert re.findall(r"url\((?!#clip-[a-z0-9-]+\))", page) == []
    assert not re.search(r"<(img|iframe|object|embed|link rel=\"stylesheet\"|audio|video)\b",
                         page)


#: Chromium's own services (updates, sign-in, time), asked whatever the page holds.
BROWSER_HOSTS = ("google.com", "googleapis.com", "gvt1.com")


class _Recorder(BaseHTTPRequestHandler):
    """A proxy that answers nothing and records every request the browser makes."""

    seen: list = []

    def _record(self):
        self.seen.append(f"{self.command} {self.path}")
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_HEAD = do_CONNECT = _record

    def log_message(self, *args):
        pass


def _host(request: str) -> str:
    target = request.split(" ", 1)[1]
    return re.sub(r"^[a-z]+://", "", target).split("/")[0].split(":")[0]


def chromium_requests(url: str, screenshot: str) -> tuple:
    """Open ``url`` in headless Chromium whose every request goes through a recording
    proxy; (the requests not made by Chromium's own services, console lines)."""
    _Recorder.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        done = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--enable-logging=stderr", "--v=0", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             f"--user-data-dir={os.path.dirname(screenshot)}/profile",
             f"--proxy-server=http://127.0.0.1:{server.server_address[1]}",
             "--proxy-bypass-list=<-loopback>", "--window-size=1200,3000",
             f"--screenshot={screenshot}", url],
            capture_output=True, text=True, timeout=120)
    finally:
        server.shutdown()
        server.server_close()
    requests = [r for r in _Recorder.seen
                if not _host(r).endswith(BROWSER_HOSTS)]     # Chromium's update and sign-in
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    assert os.path.getsize(screenshot) > 10_000, done.stderr
    return requests, console


@pytest.mark.slow
@program_skip("chromium", reason="the report is opened in headless Chromium")
def test_chromium_opens_it_without_network_or_console_message(folder, tmp_path):
    requests, console = chromium_requests("file://" + os.path.join(folder, REPORT_HTML),
                                          str(tmp_path / "report.png"))
    assert requests == [] and console == []


@program_skip("chromium", reason="the report is opened in headless Chromium")
def test_the_chromium_check_sees_a_fetch_and_a_console_message(tmp_path):
    """The check above can fail: a page with an image from a server and a script that
    logs is caught."""
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><title>x</title><link rel="icon" href="data:,">'
                    '<img src="http://example.com/x.png"><script>console.error("x")</script>')
    requests, console = chromium_requests(page.as_uri(), str(tmp_path / "bad.png"))
    assert requests == ["GET http://example.com/x.png"] and len(console) == 1


def test_a_curve_table_gets_its_plot_and_table(single):
    """A table another part of the app writes (ROC curves here) is shown and plotted
    without code of its own: by its columns."""
    from engine.output.report.plots import curve_figures

    grid = np.linspace(0, 1, 11)
    roc = pd.DataFrame({"model": ["a"] * 11 + ["b"] * 11, "repeat": [np.nan] * 22,
                        "fpr": np.r_[grid, grid], "tpr": np.r_[np.sqrt(grid), grid]})
    figures = curve_figures({"roc_curve.csv": roc})
    assert [figure.title for figure in figures] == ["ROC curve"]
    assert figures[0].svg.count("<polyline") == 2


def test_axes_map_data_linearly_like_numpy():
    axes = Axes((2.0, 6.0), (-1.0, 1.0), width=500, height=300)
    xs, ys = np.array([2.0, 3.3, 6.0]), np.array([-1.0, 0.25, 1.0])
    left, right = axes.margin["left"], 500 - axes.margin["right"]
    top, bottom = axes.margin["top"], 300 - axes.margin["bottom"]
    assert np.allclose([axes.px(x) for x in xs], np.interp(xs, [2, 6], [left, right]))
    assert np.allclose([axes.py(y) for y in ys], np.interp(ys, [-1, 1], [bottom, top]))
    assert nice_ticks(0.0, 1.0) == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    assert nice_ticks(0.981, 1.002) == pytest.approx([0.985, 0.99, 0.995, 1.0])


def test_build_report_of_a_result_in_memory(single):
    """The app's export builds the page from the result value: the same sections."""
    from engine.runs.analysis import run_experiment
    from engine.evaluation.experiment import parse_experiment
    from engine.foundation.progress import run_to_end

    experiment = parse_experiment({**SINGLE, "aloocv": None, "calibration": None,
                                   "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}})
    result = run_to_end(run_experiment(experiment), on_progress=lambda record: None)
    page = build_report(result, written="2026-01-01T00:00:00+00:00")
    assert "written 2026-01-01T00:00:00+00:00" in page
    assert extract_experiment(page)["models"][1]["name"] == TRICKY


def test_in_short_names_only_decided_pairs():
    from engine.output.report.sections import in_short
    from engine.evaluation.verdict import Verdict

    found = [("a", "b", Verdict("", "better", True)), ("a", "c", Verdict("", "undecided", False)),
             ("b", "c", Verdict("", "worse", False))]
    assert in_short(found, 0.05) == ("In short (each with a probability of at least 0.95): a is "
                                     "practically better than b; c is practically better than "
                                     "b; 1 other pair is undecided.")
    assert in_short(found[1:2], 0.05).startswith("In short: no pair of models is decided")


def test_several_data_sets_show_the_mean_ranks(several):
    page = _page(several)
    ranks = pd.read_csv(os.path.join(several, "ranks.csv"))
    assert "Mean rank across the data sets" in page
    for name in ("moons", "iris"):
        assert f"<h3>{name}</h3>" in page
    assert len(ranks) == 2


def test_a_long_table_shows_its_first_rows_and_says_so():
    from engine.output.document import html_block
    from engine.output.report.tables import table_blocks

    frame = pd.DataFrame({"model": ["=m"] * (MAX_ROWS + 7), "score": np.arange(MAX_ROWS + 7) / 3})
    page = "".join(map(html_block, table_blocks("fold_scores.csv", frame)))
    assert page.count("<tr>") == MAX_ROWS + 1                  # the header and MAX_ROWS rows
    assert f"The first {MAX_ROWS} of {MAX_ROWS + 7:,} rows" in page
    assert "<td>&#x27;=m</td>" in page and '<td class="num">0.3333</td>' in page


def test_a_long_curve_is_thinned_keeping_its_ends():
    from engine.output.report.plots import MAX_POINTS, thinned

    rows = pd.DataFrame({"x": np.arange(10 * MAX_POINTS)})
    kept = thinned(rows)
    assert len(kept) == MAX_POINTS and kept["x"].iloc[0] == 0
    assert kept["x"].iloc[-1] == 10 * MAX_POINTS - 1 and kept["x"].is_monotonic_increasing


def test_a_report_that_cannot_be_built_costs_the_tables_nothing(tmp_path, monkeypatch, capsys):
    """The tables matter more than the page: a failure to build it is one warning line
    and a note, the run still writes its tables and exits 0."""
    import engine.output.report

    def broken(result, tables=None, written=None, full_paths=False):
        raise RuntimeError("no page today")

    monkeypatch.setattr(engine.output.report, "build_document", broken)
    out = _run(str(tmp_path), {**SINGLE, "aloocv": None, "calibration": None,
                               "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}})
    assert not os.path.exists(os.path.join(out, REPORT_HTML))
    assert "summary.csv" in _tables(out)
    err = capsys.readouterr().err
    assert "warning: the HTML report could not be written (RuntimeError: no page today)" in err
    assert "no page today" in open(os.path.join(out, "notes.txt"), encoding="utf-8").read()
    assert "Traceback" not in err


def test_the_methods_name_the_folds_used():
    from engine.evaluation.experiment import load_experiment, parse_experiment
    from engine.output.report.methods import folds_words

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    grouped = load_experiment(os.path.join(root, "resources", "examples",
                                           "repeated_subjects.json"))
    assert folds_words(grouped).startswith("stratified group k-fold")
    assert folds_words(grouped).endswith("k = 5, 4 repeats")
    weka = parse_experiment({**SINGLE, "cv": {"n_splits": 3, "n_repeats": 1,
                                              "random_state": 1, "scheme": "weka"}})
    assert folds_words(weka) == "Weka 3's randomised, stratified k-fold, k = 3, 1 repeat"


def test_the_means_plot_draws_the_summary_intervals(single):
    from engine.output.report.plots import means_figure

    summary = pd.read_csv(os.path.join(single, "summary.csv"))
    figure = means_figure({"summary.csv": summary}, "roc_auc")
    rows = summary[summary["metric"] == "roc_auc"]
    axes_lines = re.findall(r'<line x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)" y2="[\d.]+" '
                            r'stroke="#[0-9A-F]{6}" stroke-width="2.5"/>', figure.svg)
    assert len(axes_lines) == len(rows)                        # one interval per model
    widths = sorted(float(b) - float(a) for a, b in axes_lines)
    spans = sorted((rows["ci_high"] - rows["ci_low"]).to_numpy())
    assert np.allclose(np.array(widths) / widths[0], np.array(spans) / spans[0], rtol=1e-2)


def test_the_grouping_gap_gets_its_plot():
    from engine.output.report.plots import grouping_gap_figure

    gap = pd.DataFrame({"model": ["a", "b"], "metric": ["roc_auc"] * 2,
                        "grouped_mean": [0.7, 0.8], "ungrouped_mean": [0.9, 0.82],
                        "gap": [0.2, 0.02]})
    figure = grouping_gap_figure({"grouping_gap.csv": gap}, "roc_auc")
    assert figure.title == "Grouped against ungrouped folds"
    assert figure.svg.count("<circle") == 4 and "groups kept whole" in figure.svg
    assert grouping_gap_figure({}, "roc_auc") is None


def test_the_shared_report_names_a_data_file_by_name_and_sha256(several):
    page = _page(several)
    data_folder = os.path.dirname(several)
    with open(os.path.join(data_folder, "moons.csv"), "rb") as stream:
        digest = hashlib.sha256(stream.read()).hexdigest()
    assert f"moons.csv (SHA-256 of the file {digest})" in page
    assert data_folder not in page
    assert extract_experiment(page)["datasets"][0]["csv"] == "moons.csv"


def test_full_paths_name_the_folder_only_when_asked(tmp_path):
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=60, noise=0.3, random_state=2)
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "label": y}).to_csv(tmp_path / "moons.csv",
                                                                  index=False)
    experiment = {**SEVERAL, "datasets": [SEVERAL["datasets"][0]],
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}}
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli([str(path), "--out", str(out), "--quiet", "--full-paths"]) == 0
    page = (out / REPORT_HTML).read_text(encoding="utf-8")
    full = os.path.abspath(tmp_path / "moons.csv")
    assert f"moons.csv (at {full}; SHA-256 of the file " in page
    assert extract_experiment(page)["datasets"][0]["csv"] == full


def test_no_number_is_printed_as_zero(folder):
    """Issue #38: no number of the report is a rounded zero (a non-zero table value shown
    as 0.000), and no p-value reads p = 0; with several data sets, report.md too."""
    from tests.helpers import report_prose, rounded_zeros

    assert rounded_zeros(report_prose(_page(folder))) == []
    markdown = os.path.join(folder, "report.md")
    if os.path.exists(markdown):
        with open(markdown, encoding="utf-8") as stream:
            assert rounded_zeros(stream.read()) == []


def test_the_zero_check_finds_rounded_zeros():
    from tests.helpers import rounded_zeros

    assert rounded_zeros("p < 0.001; 0.000 after Bonferroni, gap +0.00, p = 0 and 1.0.0") == [
        "0.000", "+0.00", "p = 0"]
    assert rounded_zeros("p = 0.003, mean 0.956667, version 2.0.0, 0") == []


@pytest.mark.parametrize("correction, several, words", [
    ("holm", False, "Every decision on a pair of models is adjusted for the m pairs decided at "
                    "once: the p-values by Holm's step-down method"),
    ("bonferroni", True, "alike within each data set (pairs of models on its folds) and across "
                         "the data sets"),
    ("none", False, "No decision was adjusted for deciding on several pairs"),
])
def test_the_methods_state_one_multiplicity_rule(correction, several, words):
    from engine.output.report.methods import multiplicity_sentence

    text = multiplicity_sentence(0.05, correction, several)
    assert words in text
    assert ("1 − 0.05/m" in text) == (correction != "none")
    assert ("Friedman" in text) == (several and correction != "none")


def test_the_calibration_sentence_names_only_the_methods_run():
    from types import SimpleNamespace

    from engine.output.report.methods import calibration_sentence

    sigmoid = calibration_sentence(SimpleNamespace(calibration=SimpleNamespace(
        methods=("sigmoid",))))
    assert "by Platt's sigmoid scaling." in sigmoid[0] and "isotonic" not in sigmoid[0]
    assert sigmoid[1] == ["platt"]
    both = calibration_sentence(SimpleNamespace(calibration=SimpleNamespace(
        methods=("isotonic", "sigmoid"))))
    assert "by isotonic regression and by Platt's sigmoid scaling" in both[0]
    assert both[1] == ["zadrozny", "platt"]
