"""Issue 36 as fuzz cases in the window: column, class, file and model names written as
HTML (``<b>…</b>``, ``<i>…</i>``, ``<img src=…>``) are shown as the characters they are,
on every label, tooltip and message box of the four tabs and the dialogs.

What a person reads is the label's text when it is plain, and the text of the HTML when
it is rich (:func:`shown`); a name is shown literally when that reading holds the whole
name, tags included. An ``<img>`` drawn would leave an object character instead, a
``<b>`` drawn would leave the bare word, and a name escaped into a plain label would
show its entities.
"""
import html
import json
import re
import types

import numpy as np
import pandas as pd
import pyqtgraph as pg
import pytest
from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QGraphicsTextItem, QLabel, QMessageBox, QWidget

from gui import plain_text
from gui.frame_model import DataFrameModel
from gui.predicting import PredictDialog
from gui.views.preflight_dialog import BLOCKING_MARK, PreflightDialog
from gui.views.widgets import ElidingLabel
from tests.gui.waiting import run_succeeds

pytestmark = pytest.mark.fuzz

#: Each name with a word of it that tells where it is, drawn as markup or not.
COLUMN_BOLD, COLUMN_IMAGE = "<b>Zork</b>", "<img src=zap.png>"
TARGET, POSITIVE = "<i>Fnord</i>", "<b>Quux</b>"
MODEL_BOLD, MODEL_IMAGE = "<b>Blorb</b>", "<img src=blip.png>"
FILE_STEM = "<img src=frob.png>"        # a file name holds no "/"
TELLTALES = {COLUMN_BOLD: "Zork", COLUMN_IMAGE: "zap.png", TARGET: "Fnord", POSITIVE: "Quux",
             MODEL_BOLD: "Blorb", MODEL_IMAGE: "blip.png", FILE_STEM: "frob.png"}


def shown(text: str, rich: bool) -> str:
    """What a person reads of ``text``: itself, or the text of the HTML."""
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def label_reading(label: QLabel) -> str:
    return shown(label.text(), label.textFormat() == Qt.RichText)


def tip_reading(tip: str) -> str:
    """A tooltip is rich text when Qt's guess says so."""
    return shown(tip, QtGui.Qt.mightBeRichText(tip))


def misread(text: str, rich: bool) -> list:
    """The names that ``text`` holds but a person does not read as written: drawn as
    markup (the name in rich text, its tags taken as tags), or shown as entities (the
    escaped name in plain text)."""
    reading = shown(text, rich)
    drawn = [f"drew {name}" for name in TELLTALES if name in text and name not in reading]
    return drawn + [f"showed {name} escaped" for name in TELLTALES
                    if html.escape(name, quote=False) in text and not rich]


#: The app's own markup: in a plain label it would show as text.
APP_MARKUP = re.compile(r"</?(b|i|p|br|span|a|ul|li|table|tr|td|h\d|code|qt)\b[^>]*>")


def shows_markup(text: str) -> bool:
    """True when ``text`` holds a tag of the app's once the names are taken out."""
    for name in TELLTALES:
        text = text.replace(name, "")
    return bool(APP_MARKUP.search(text))


def labels_problems(window: QWidget) -> tuple:
    """``(labels holding a name, problems)``: a problem is a label holding a name whose
    format is left to Qt's guess (the labels a QFormLayout makes of the app's own words
    do), one that draws a name as markup, or a plain one showing the app's own markup;
    and a tooltip that draws a name as markup or shows it escaped."""
    holding, problems = 0, []
    for label in window.findChildren(QLabel):
        holds = any(word in label.text() for word in TELLTALES.values())
        if holds and label.textFormat() not in (Qt.PlainText, Qt.RichText):
            problems.append(f"guessed format: {label.text()[:80]!r}")
        holding += holds
        if label.textFormat() == Qt.PlainText and shows_markup(label.text()):
            problems.append(f"plain label shows markup: {label.text()[:80]!r}")
        problems += [f"label {label.text()[:80]!r} {what}"
                     for what in misread(label.text(), label.textFormat() == Qt.RichText)]
    for widget in window.findChildren(QWidget):
        tip = widget.toolTip()
        problems += [f"tooltip {tip[:80]!r} {what}"
                     for what in misread(tip, QtGui.Qt.mightBeRichText(tip))]
    return holding, problems


def plot_problems(window: QWidget) -> tuple:
    """``(plot texts holding a name, problems)``: pyqtgraph draws legends, axis labels and
    titles as HTML; a problem is one that holds a name's word but not the whole name, or
    that draws a name's image."""
    holding, problems = 0, []
    for view in window.findChildren(pg.GraphicsView):
        for item in view.scene().items():
            if not isinstance(item, QGraphicsTextItem):
                continue
            reading, markup = item.toPlainText(), item.toHtml()
            holding += any(word in reading for word in TELLTALES.values())
            problems += [f"plot text {reading[:80]!r} drew {name}"
                         for name, word in TELLTALES.items()
                         if (word in reading and name not in reading)
                         or re.search(f"<img[^>]*{re.escape(word)}", markup)]
    return holding, problems


@pytest.fixture
def marked(tmp_path):
    """``<img src=frob.png>.csv`` (150 rows; columns and a class named as HTML) and an
    experiment on it whose models are named as HTML."""
    rng = np.random.default_rng(0)
    y = np.repeat([POSITIVE, "0 no"], 75)             # the second class is the positive
    shift = np.where(y == POSITIVE, 1.0, 0.0)
    frame = pd.DataFrame({COLUMN_BOLD: rng.normal(size=150) + shift,
                          COLUMN_IMAGE: rng.normal(size=150) - shift,
                          "x3": rng.normal(size=150), TARGET: y})
    frame.to_csv(tmp_path / f"{FILE_STEM}.csv", index=False)
    experiment = {"dataset": {"file": f"{FILE_STEM}.csv", "target": TARGET},
                  "models": [{"name": MODEL_BOLD, "estimator": "GaussianNB"},
                             {"name": MODEL_IMAGE, "estimator": "LogisticRegression"}],
                  "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
                  "metrics": ["accuracy"]}
    (tmp_path / "exp.json").write_text(json.dumps(experiment), encoding="utf-8")
    return tmp_path


@pytest.fixture
def no_questions(monkeypatch):
    """Closing the window discards unsaved changes without asking."""
    monkeypatch.setattr("gui.saving.ask_choice",
                        lambda parent, title, text, choices, default: "discard")


def visit_every_page(window, qtbot) -> None:
    """Show each tab, each model's parameters and each Results view, as a person would."""
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        qtbot.wait(20)
    for row in range(window.models_tab.entry_list.count()):
        window.models_tab.entry_list.setCurrentRow(row)
    views = window.results_tab.views
    for index in range(views.count()):
        views.setCurrentIndex(index)
        qtbot.wait(20)


@pytest.mark.slow
def test_names_written_as_html_read_as_written_on_every_tab(window, qtbot, marked,
                                                            no_questions):
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=30000):
        window.open_experiment(str(marked / "exp.json"))
    holding, problems = labels_problems(window)
    assert problems == []
    summary = label_reading(window.dataset_tab.summary)
    assert window.dataset_tab.summary.textFormat() == Qt.RichText
    assert FILE_STEM in summary and TARGET in summary and POSITIVE in summary
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.start_run()
    visit_every_page(window, qtbot)
    after, problems = labels_problems(window)
    assert problems == []
    drawn, problems = plot_problems(window)
    assert problems == [] and drawn >= 4        # legends, axis labels, titles
    assert after >= holding + 4                 # the results name the models and the class
    verdict = window.results_tab.verdict_label
    assert verdict.textFormat() == Qt.PlainText
    assert MODEL_BOLD in verdict.text() and MODEL_IMAGE in verdict.text()
    editor_title = label_reading(window.models_tab.editor_title)
    assert editor_title.startswith(f"Parameters of {MODEL_IMAGE} — LogisticRegression")
    tips = [window.results_tab.model_a_combo.toolTip(), window.results_tab.model_b_combo.toolTip()]
    assert sorted(tip_reading(tip).split(": ", 1)[1].split(" (")[0] for tip in tips) == \
        sorted([MODEL_BOLD, MODEL_IMAGE])


def test_a_data_file_named_as_html_is_named_as_written_in_the_warning(dataset_tab, qtbot,
                                                                      tmp_path, monkeypatch):
    path = tmp_path / f"{COLUMN_IMAGE}.csv"
    path.write_text("", encoding="utf-8")                       # no rows: refused
    boxes = []

    def record(box):
        boxes.append((box.icon(), box.textFormat(), box.windowTitle(), box.text()))
        return QMessageBox.Ok

    monkeypatch.setattr(QMessageBox, "exec", record)
    with qtbot.waitSignal(dataset_tab.load_failed, timeout=30000):
        dataset_tab.open_file(str(path))
    qtbot.waitUntil(lambda: bool(boxes), timeout=5000)
    (icon, text_format, title, text), = boxes
    assert (icon, text_format, title) == (QMessageBox.Warning, Qt.PlainText,
                                          "Cannot use this data")
    assert COLUMN_IMAGE in text


def test_the_preflight_list_reads_a_column_named_as_html_as_written(qtbot):
    words = f"the column {COLUMN_BOLD} is the answer written out: leave it out"
    problem = types.SimpleNamespace(code="leak", blocking=True, fixes=[],
                                    words=lambda: words)
    dialog = PreflightDialog([problem], lambda fix: None)
    qtbot.addWidget(dialog)
    row, = dialog.rows
    assert row.label.textFormat() == Qt.PlainText
    assert label_reading(row.label) == f"{BLOCKING_MARK} The column {COLUMN_BOLD} is the answer written " \
                                       "out: leave it out."
    assert labels_problems(dialog)[1] == []


@pytest.mark.slow
def test_the_predict_dialog_reads_a_failure_naming_html_as_written(qtbot, tmp_path):
    dialog = PredictDialog()
    qtbot.addWidget(dialog)
    model = tmp_path / f"{MODEL_IMAGE}.skops"                  # no such file
    dialog.set_paths(str(model), str(tmp_path / f"{COLUMN_BOLD}.csv"), str(tmp_path / "o.csv"))
    dialog.start()
    qtbot.waitUntil(lambda: "Could not predict" in dialog.message.text(), timeout=60000)
    assert dialog.wait()
    reading = label_reading(dialog.message)
    assert reading.startswith("Could not predict: ")
    assert MODEL_IMAGE in reading
    assert labels_problems(dialog)[1] == []


def test_warn_and_ask_show_the_text_as_it_is(monkeypatch):
    boxes = []

    def record(box):
        boxes.append((box.icon(), box.textFormat(), box.windowTitle(), box.text()))
        return QMessageBox.Yes

    monkeypatch.setattr(QMessageBox, "exec", record)
    parent = QWidget()
    plain_text.warn(parent, f"About {FILE_STEM}", f"{COLUMN_IMAGE} cannot be read.")
    answer = plain_text.ask(parent, "Go on?", f"{MODEL_BOLD} is slow.",
                            QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
    assert answer == QMessageBox.Yes
    assert boxes == [
        (QMessageBox.Warning, Qt.PlainText, f"About {FILE_STEM}",
         f"{COLUMN_IMAGE} cannot be read."),
        (QMessageBox.Question, Qt.PlainText, "Go on?", f"{MODEL_BOLD} is slow.")]


def test_ask_closed_unanswered_is_no_button(monkeypatch):
    monkeypatch.setattr(QMessageBox, "exec", lambda box: 0)
    answer = plain_text.ask(None, "Go on?", "Sure?", QMessageBox.Yes | QMessageBox.No,
                            QMessageBox.No)
    assert answer == QMessageBox.NoButton


def test_labels_and_tips_read_as_written(qtbot):
    plain = plain_text.plain_label(COLUMN_IMAGE)
    rich = plain_text.rich_label(f"<b>{plain_text.escape(COLUMN_IMAGE)}</b> & more")
    qtbot.addWidget(plain)
    qtbot.addWidget(rich)
    assert (plain.textFormat(), label_reading(plain)) == (Qt.PlainText, COLUMN_IMAGE)
    assert (rich.textFormat(), label_reading(rich)) == (Qt.RichText, f"{COLUMN_IMAGE} & more")
    plain_text.set_plain(rich, MODEL_BOLD)
    assert (rich.textFormat(), label_reading(rich)) == (Qt.PlainText, MODEL_BOLD)
    assert plain_text.escape("a < b & c > d") == "a &lt; b &amp; c &gt; d"
    quoted = plain_text.rich_label(plain_text.escape('Fisher\'s "LDA" <i>'))   # the one escaper:
    qtbot.addWidget(quoted)                                # quotes as entities, shown as quotes
    assert label_reading(quoted) == 'Fisher\'s "LDA" <i>'
    assert plain_text.plain_tip("a < b, no tag") == "a < b, no tag"       # left as it is
    for tip in (COLUMN_BOLD, f"{COLUMN_IMAGE} in x.csv", f"{TARGET}\n\nthe second line"):
        assert tip_reading(plain_text.plain_tip(tip)).replace("\u2028", "\n") == tip


def test_an_eliding_label_shortens_a_name_as_written(qtbot):
    plain = ElidingLabel(f"{COLUMN_BOLD} and a long tail of words after it")
    rich = ElidingLabel(f"<b>{plain_text.escape(MODEL_IMAGE)} and a long tail</b>", rich=True)
    for label in (plain, rich):
        qtbot.addWidget(label)
        label.resize(60, 20)
        label.show()
        qtbot.waitExposed(label)
        assert label.is_elided()
    assert plain.textFormat() == Qt.PlainText and rich.textFormat() == Qt.RichText
    assert tip_reading(plain.toolTip()) == f"{COLUMN_BOLD} and a long tail of words after it"
    assert tip_reading(rich.toolTip()) == f"{MODEL_IMAGE} and a long tail"


def test_table_tooltips_read_cells_and_column_names_as_written():
    model = DataFrameModel(pd.DataFrame({COLUMN_BOLD: [COLUMN_IMAGE, "plain"]}))
    model.show_headers_as({COLUMN_BOLD: "Words"})
    cell = model.data(model.index(0, 0), Qt.ToolTipRole)
    header = model.headerData(0, Qt.Horizontal, Qt.ToolTipRole)
    assert tip_reading(cell) == repr(COLUMN_IMAGE)
    assert tip_reading(header) == f"column {COLUMN_BOLD} in the CSV file"
    assert model.data(model.index(1, 0), Qt.ToolTipRole) == "'plain'"     # left as it is
