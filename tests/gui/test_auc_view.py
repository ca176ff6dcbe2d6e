"""The Results tab's "AUC intervals" view on a real run: the tables it shows are the run's
auc_intervals.csv and auc_tests.csv, whose AUCs equal scikit-learn's on the pooled
out-of-fold predictions; its "?" opens the guide's section on DeLong and LeDell."""
import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QToolButton
from sklearn.metrics import roc_auc_score

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from gui import help as guide
from gui.help import ALIASES
from gui.main_window import make_results_tab
from gui.state import AppState
from gui.views.auc_view import AucView


@pytest.fixture(scope="module")
def cancer_result():
    experiment = parse_experiment({
        "dataset": {"builtin": "breast_cancer"},
        "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
                    "params": {"C": 0.05, "max_iter": 1000}},
                   {"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0},
        "metrics": ["accuracy"], "curves": {"pr": False, "decision": False}})
    return run_to_end(run_experiment(experiment))


def test_shows_the_runs_tables(qtbot, cancer_result):
    state = AppState()
    view = AucView(state)
    qtbot.addWidget(view)
    assert view.stack.currentWidget() is view.hint
    state.set_result(cancer_result)
    assert view.stack.currentIndex() == 1
    shown = view.intervals.frame()
    assert len(shown) == 6 and shown["repeat"].isna().all()      # the summaries
    assert list(shown["method"][:1]) == ["corrected_t"]             # shown first
    assert view.intervals.model.data(view.intervals.model.index(
        0, list(shown.columns).index("method"))) == "corrected t (fold models vary)"
    predictions = cancer_result.tables()["predictions.csv"]
    nb = predictions[predictions["model"] == "nb"]
    expected = np.mean([roc_auc_score(part["true_class"] == "benign", part["p_benign"])
                        for _, part in nb.groupby("repeat")])
    row = shown[(shown["model"] == "nb") & (shown["method"] == "delong")].iloc[0]
    assert row["auc"] == pytest.approx(expected, abs=1e-14)
    assert view.intervals.model.data(view.intervals.model.index(0, 1)) == "—"
    qtbot.mouseClick(view.every_repeat, Qt.LeftButton,
                     pos=QPoint(6, view.every_repeat.height() // 2))
    assert len(view.intervals.frame()) == 14 and len(view.tests.frame()) == 3
    text = view.verdict.text()
    assert "logistic" in text and "nb vs" not in text and "approximate" in text
    assert "corrected t over 10 folds" in text and "DeLong, pooled" not in text
    labels = view.labels.text()
    assert labels.count("estimand: ") == 3
    assert "corrected t over the per-fold AUCs" in labels.split("<br>")[0]
    assert "the mean true score of the k fold models" in labels.split("<br>")[1]
    assert not view.caveat.isHidden()


def test_registered_with_help(qtbot, cancer_result):
    state = AppState()
    tab = make_results_tab(state, None)
    qtbot.addWidget(tab)
    titles = [tab.views.tabText(i) for i in range(tab.views.count())]
    view = tab.views.widget(titles.index("AUC intervals"))
    assert isinstance(view, AucView)
    assert ALIASES["auc"] == "results#auc"
    state.set_result(cancer_result)
    tab.views.setCurrentWidget(view)
    help_button = view.findChild(QToolButton, "help_auc")
    qtbot.mouseClick(help_button, Qt.LeftButton)
    dialog = next(w for w in QApplication.topLevelWidgets()
                  if isinstance(w, guide.HelpDialog) and w.isVisible())
    assert dialog.browser.source().fragment() == "auc"
    assert "DeLong" in dialog.browser.toPlainText()
    dialog.close()


def test_a_new_alpha_on_the_results_tab_moves_the_shown_intervals(qtbot, cancer_result):
    """α is a Results-tab control: the view's intervals follow it (level 1 − α), without a
    new run, and come back when it goes back."""
    state = AppState()
    tab = make_results_tab(state, None)
    qtbot.addWidget(tab)
    state.set_result(cancer_result)
    view = next(tab.views.widget(i) for i in range(tab.views.count())
                if isinstance(tab.views.widget(i), AucView))
    before = view.intervals.frame().copy()
    assert (before["level"] == 0.95).all()
    tab.controls.alpha_spin.setValue(0.01)
    qtbot.waitUntil(lambda: (view.intervals.frame()["level"] == 0.99).all(), timeout=10000)
    after = view.intervals.frame()
    assert (after["ci_high"] - after["ci_low"] > before["ci_high"] - before["ci_low"]).all()
    assert (view.tests.frame()["alpha"] == 0.01).all()
    tab.controls.alpha_spin.setValue(0.05)
    qtbot.waitUntil(lambda: (view.intervals.frame()["level"] == 0.95).all(), timeout=10000)
    assert np.allclose(view.intervals.frame()["ci_low"], before["ci_low"], rtol=0, atol=1e-12)
