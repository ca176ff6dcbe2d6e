"""Names from the whole Unicode range through every writer: nothing invisible survives.

Hypothesis draws labels, model names and column names from every code point (lone
surrogates included), with the characters the campaign of issue 31 found raw in the
result files drawn often (:data:`tests.fuzz.inert.SPECIAL`), and runs them in-process
through the table writer (``engine.output.tables.write_csv``), the result folder
(``engine.output.result_folder.write_result_folder``: tables, ``notes.txt``, ``report.md``) and
the across-data-set report (``engine.runs.across``).  Each written file must have exactly
one line per row plus the header (``str.splitlines``, which also splits on U+0085,
U+2028 ...), no character of the categories Cc, Cf, Zl, Zp (or Cs) on any line, and
read back (Python's ``csv``) as the independent rewrite of the rule
(:func:`tests.fuzz.inert.expected_cell`).  The report is rendered by the app's own
Markdown reader (Qt's): no link, image or HTML comes out of a name.

Bounded for CI: 620 examples in all (``max_examples`` below), no deadline.
"""
import csv
import io
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.runs.across import compare_across
from engine.runs.across.report import across_report
from engine.input.csv_values import visible
from engine.output.result_folder import write_result_folder
from engine.output.tables import write_csv
from tests.fuzz.inert import SPECIAL, expected_cell, expected_visible, invisible_in

pytestmark = pytest.mark.fuzz

FUZZ = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                  HealthCheck.function_scoped_fixture])
#: Any code point, surrogates and unassigned ones included, or one of the known culprits.
CHARACTERS = st.one_of(st.characters(exclude_categories=()), st.sampled_from(SPECIAL),
                       st.sampled_from("=+-@,\"'|<>[]()!`*_&\\ "))
NAMES = st.text(CHARACTERS, min_size=1, max_size=12)


def read_lines(path) -> list:
    with open(path, encoding="utf-8", newline="") as stream:
        return stream.read().splitlines()


def read_rows(path) -> list:
    with open(path, encoding="utf-8", newline="") as stream:
        return list(csv.reader(stream))


def assert_inert_lines(lines) -> None:
    for line in lines:
        assert not invisible_in(line), ascii(line)


@pytest.mark.slow
@settings(max_examples=250, **FUZZ)
@given(names=st.lists(NAMES, min_size=1, max_size=6), cells=st.lists(NAMES, min_size=1,
                                                                       max_size=15))
def test_a_table_has_one_line_per_row_and_reads_back_as_written_out(tmp_path, names, cells):
    frame = pd.DataFrame({f"c{i}": [cells[(i + r) % len(cells)] for r in range(len(cells))]
                          for i in range(len(names))})
    frame.columns = names
    frame["score"] = np.linspace(0, 1, len(cells))
    path = tmp_path / "table.csv"
    write_csv(frame, str(path))
    lines = read_lines(path)
    assert len(lines) == len(frame) + 1
    assert_inert_lines(lines)
    rows = read_rows(path)
    assert rows[0] == [expected_cell(n) for n in names] + ["score"]
    for r, row in enumerate(rows[1:]):
        assert row[:-1] == [expected_cell(frame.iloc[r, i]) for i in range(len(names))]
        assert float(row[-1]) == frame["score"].iloc[r]


@pytest.mark.slow
@settings(max_examples=150, **FUZZ)
@given(labels=st.lists(NAMES, min_size=2, max_size=5, unique=True),
       models=st.lists(NAMES, min_size=1, max_size=3, unique=True),
       notes=st.lists(NAMES, max_size=4),
       report=st.lists(NAMES, min_size=1, max_size=5))
@example(labels=["\x00", "\t"], models=["\ud800\udc00"], notes=[], report=["\x00"])
def test_a_result_folder_is_inert_file_by_file(tmp_path, labels, models, notes, report):
    confusion = pd.DataFrame([(m, t, p, 1) for m in models for t in labels for p in labels],
                             columns=["model", "true_class", "predicted_class", "count"])
    text = "# report\n\n" + "\n".join(f"- {line}" for line in report) + "\n"
    folder = tmp_path / "out"
    write_result_folder({"confusion.csv": confusion}, str(folder), {"models": models},
                        notes, texts={"report.md": text})
    lines = read_lines(folder / "confusion.csv")
    assert len(lines) == len(confusion) + 1
    assert_inert_lines(lines)
    assert [row[1] for row in read_rows(folder / "confusion.csv")[1:]] == \
        [expected_cell(t) for t in confusion["true_class"]]
    if notes:
        written = read_lines(folder / "notes.txt")
        assert written == [expected_visible(n) for n in notes]
    written = (folder / "report.md").read_bytes().decode("utf-8")
    assert written == "\n".join(expected_visible(line) for line in text.split("\n"))
    assert len(written.splitlines()) == text.count("\n")
    for name in ("report.md", "run.json"):
        assert_inert_lines(read_lines(folder / name))
    # (JSON's own rule: two surrogates that make a pair are written as two \u escapes and
    # read back as the one character they pair to, so the names compare after a round trip)
    assert json.loads((folder / "run.json").read_text("utf-8"))["models"] == \
        json.loads(json.dumps(models))


def comparison(models: list, datasets: int = 4):
    rng = np.random.default_rng(0)
    values = rng.uniform(0.6, 0.9, (datasets, len(models)))
    means = pd.DataFrame([(f"data{i}", m, values[i, j]) for i in range(datasets)
                          for j, m in enumerate(models)], columns=["dataset", "model", "mean"])
    return compare_across(means, metric="accuracy", n_samples=2000)


def hashable_by_pandas(name: str) -> bool:
    """No NUL and no lone surrogate: pandas' string hashing ends a text at NUL and takes
    "0\ud800" and "\ud800" for one value, so such names are one model to compare_across's
    duplicate check; experiment files refuse both (they are invisible characters)."""
    return "\x00" not in name and not any(0xD800 <= ord(c) <= 0xDFFF for c in name)


@pytest.mark.slow
@settings(max_examples=60, **FUZZ)
@given(models=st.lists(NAMES.filter(hashable_by_pandas), min_size=2, max_size=4,
                       unique_by=visible))
def test_report_names_cannot_add_lines_or_markup(qapp, models):
    from PySide6.QtGui import QTextDocument

    report = across_report(comparison(models))
    plain = across_report(comparison([f"m{j}" for j in range(len(models))]))
    lines = report.splitlines()
    assert len(lines) == len(plain.splitlines())
    assert_inert_lines(lines)
    document = QTextDocument()
    document.setMarkdown(report)
    assert "<img" not in document.toHtml() and "href" not in document.toHtml()
    shown = document.toPlainText()          # (Qt gives a no-break space as a plain one)
    for model in models:
        assert expected_visible(model).replace("\xa0", " ").strip() in shown


@settings(max_examples=160, **FUZZ)
@given(text=st.text(CHARACTERS, max_size=40))
def test_visible_matches_the_stated_rule(text):
    shown = visible(text)
    assert shown == expected_visible(text)
    assert len(shown.splitlines()) <= 1 and not invisible_in(shown)
    shown.encode("utf-8")                       # lone surrogates written out too


def test_the_campaign_s_seventeen_lines_are_nine():
    """The case of issue 31: 8 rows whose labels hold U+0085, U+009B, U+2028, U+2029 and
    U+202E were 17 lines to ``splitlines``; now 9, each label written out."""
    labels = ["a\x85b", "c\x9bd", "e\u2028f", "g\u2029h", "i\u202ej", "k\x1b[31m", "l\u200bm",
              "n\ufeffo"]
    frame = pd.DataFrame({"label": labels, "count": range(8)})
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, lineterminator="\n")
    assert len(buffer.getvalue().splitlines()) > 9           # raw, as before
    from engine.output.tables import csv_text

    text = csv_text(frame)
    assert len(text.splitlines()) == 9
    assert text.splitlines()[1:] == [
        "a\\x85b,0", "c\\x9bd,1", "e\\u2028f,2", "g\\u2029h,3", "i\\u202ej,4", "k\\x1b[31m,5",
        "l\\u200bm,6", "n\\ufeffo,7"]
