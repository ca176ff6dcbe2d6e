"""Issue 31, item 6, as regressions through the headless runner: raw control, format and
separator characters and Markdown markup never reach what a run writes or prints.

Each case starts ``python main.py run`` as a user would, under the suite's memory cap
(``tests.fuzz.conftest.headless``), and reads every file written back.
"""
import csv
import json

import pytest

from tests.fuzz.conftest import headless
from tests.fuzz.inert import expected_cell, expected_visible, invisible_in

pytestmark = pytest.mark.fuzz

#: Labels of the campaign's case: 17 lines to ``splitlines`` where 9 were written.
LABELS = ["a\x85b", "c\x9bd", "e\u2028f", "g\u2029h", "i\u202ej", "k\x1b[31m", "=l\u200bm"]


def experiment(folder, dataset, models=None, **more):
    data = {"dataset": dataset,
            "models": models or [{"name": "nb", "estimator": "GaussianNB"}],
            "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
            "metrics": ["accuracy"], **more}
    path = folder / "exp.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def labelled_csv(path, labels, rows_per_label=6):
    lines = ["x1,x2,label"]
    for i in range(rows_per_label * len(labels)):
        lines.append(f"{(i * 37 % 101) / 101:.3f},{(i * 53 % 97) / 97:.3f},"
                     f"{labels[i % len(labels)]}")
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))


def assert_inert_output(done) -> None:
    for line in done.stderr.splitlines() + done.stdout.splitlines():
        assert not invisible_in(line), ascii(line)


def assert_inert_folder(folder) -> dict:
    """Every CSV has one line per row and no invisible character; the rows by file."""
    tables = {}
    for path in folder.iterdir():
        if path.suffix not in (".csv", ".txt", ".md", ".json"):
            continue
        text = path.read_bytes().decode("utf-8")
        lines = text.splitlines()
        for line in lines:
            assert not invisible_in(line), (path.name, ascii(line))
        if path.suffix == ".csv":
            with open(path, encoding="utf-8", newline="") as stream:
                rows = list(csv.reader(stream))
            assert len(lines) == len(rows), path.name
            tables[path.name] = rows
    return tables


@pytest.mark.slow
def test_labels_and_the_out_path_are_written_out(tmp_path):
    labelled_csv(tmp_path / "data.csv", LABELS)
    exp = experiment(tmp_path, {"csv": "data.csv", "target": "label"})
    out = tmp_path / "out\x1b[31m\u202e"
    done = headless(exp, "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_inert_output(done)
    assert "out\\x1b[31m\\u202e" in done.stderr             # the path, written out
    tables = assert_inert_folder(out)
    confusion = tables["confusion.csv"]
    assert len(confusion) == 1 + len(LABELS) ** 2           # header + every pair
    assert sorted({row[1] for row in confusion[1:]}) == \
        sorted(expected_cell(label) for label in LABELS)
    notes = (out / "notes.txt").read_text("utf-8")
    assert expected_visible("a\x85b") in notes and "\x85" not in notes


@pytest.mark.slow
def test_a_model_name_with_an_invisible_character_is_refused(tmp_path):
    exp = experiment(tmp_path, {"builtin": "iris"},
                     [{"name": "nb\u2028x", "estimator": "GaussianNB"}])
    done = headless(exp, "--out", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "nb\\u2028x" in lines[0]
    assert_inert_output(done)


MARKUP = ["<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "**bold** `code`"]


@pytest.mark.slow
def test_model_names_are_text_in_report_md(tmp_path, qapp):
    from PySide6.QtGui import QTextDocument

    datasets = [{"name": f"moons {seed}", "builtin": "moons", "n_samples": 60, "noise": 0.3,
                 "random_state": seed} for seed in range(3)]
    models = [{"name": MARKUP[0], "estimator": "GaussianNB"},
              {"name": MARKUP[1], "estimator": "KNeighborsClassifier",
               "params": {"n_neighbors": 5}},
              {"name": MARKUP[2], "estimator": "LogisticRegression"}]
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({"datasets": datasets, "models": models,
                               "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                               "metrics": ["accuracy"]}), encoding="utf-8")
    out = tmp_path / "out"
    done = headless(exp, "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_inert_folder(out)
    report = (out / "report.md").read_text("utf-8")
    assert "\\<img src=x onerror=alert(1)\\>" in report
    assert "\\[x\\](javascript:alert(1))" in report
    document = QTextDocument()
    document.setMarkdown(report)
    html = document.toHtml()
    assert "<img" not in html and "href" not in html
    assert "<b>bold</b>" not in html and "font-weight:700;\">bold" not in html
    shown = document.toPlainText()
    for name in MARKUP:
        assert name in shown
