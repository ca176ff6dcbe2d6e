"""Pressing Run on a setup that would fail: the pre-run check's list, each one-click fix
driven through the real widgets (the dialog's ``exec`` patched), and nothing started until
the user chooses."""
import numpy as np

from engine.input.data import load_builtin
from engine.evaluation.experiment import parse_experiment
from gui.views.preflight_dialog import PreflightDialog

CV = {"n_splits": 2, "n_repeats": 1, "random_state": 0}


def set_up(tab, models, metrics, dataset="wine", cv=CV):
    experiment = parse_experiment({"dataset": {"builtin": dataset}, "models": models,
                                   "metrics": metrics, "cv": cv})
    tab.state.apply_experiment(experiment, load_builtin(dataset))


class Chooser:
    """A patched ``PreflightDialog.exec``: presses the fix buttons whose text starts with
    one of ``fixes`` (in the rows shown), records what was shown, then Run or Cancel."""

    def __init__(self, fixes=(), run=True):
        self.fixes, self.run, self.shown, self.run_enabled = list(fixes), run, [], []

    def __call__(self, dialog):
        self.shown.append([(row.problem.code, row.problem.blocking) for row in dialog.rows])
        self.run_enabled.append(dialog.run_button.isEnabled())
        for row in dialog.rows:
            for button in row.buttons:
                if button.isEnabled() and any(button.text().startswith(f) for f in self.fixes):
                    button.click()
        self.run_enabled.append(dialog.run_button.isEnabled())
        if self.run and dialog.run_button.isEnabled():
            dialog.run_button.click()
            return PreflightDialog.Accepted
        dialog.cancel_button.click()
        return PreflightDialog.Rejected


def run_with(tab, qtbot, monkeypatch, chooser, timeout=120000):
    monkeypatch.setattr(PreflightDialog, "exec", lambda dialog: chooser(dialog))
    with qtbot.waitSignal(tab.run_succeeded, timeout=timeout):
        tab.run_button.click()
    return tab.state.result


def test_turn_on_probabilities_then_the_run_scores_every_fold(tab, qtbot, monkeypatch):
    set_up(tab, [{"name": "svc", "estimator": "SVC", "scale": True,
                  "params": {"random_state": 0}}], ["roc_auc_ovr"])
    chooser = Chooser(["Turn on probabilities"])
    result = run_with(tab, qtbot, monkeypatch, chooser)
    assert chooser.shown == [[("no_probabilities", True)]]
    assert chooser.run_enabled == [False, True]
    assert tab.state.model_entries[0]["params"]["probability"] is True
    scores = result.cv.scores.query("metric == 'roc_auc_ovr'")["score"]
    assert len(scores) == 2 and np.isfinite(scores).all()


def test_switch_the_metric_and_add_scaling(tab, qtbot, monkeypatch):
    set_up(tab, [{"name": "svc", "estimator": "SVC", "params": {"random_state": 0}}],
           ["roc_auc_ovr"])
    chooser = Chooser(["Compare on balanced accuracy", "Scale the features"])
    result = run_with(tab, qtbot, monkeypatch, chooser)
    assert chooser.shown == [[("no_probabilities", True), ("unscaled_model", False)]]
    assert tab.state.metrics == ("balanced_accuracy",)
    assert tab.primary_combo.currentData() == "balanced_accuracy"
    assert tab.state.model_entries[0]["scale"] is True
    assert result.experiment.metrics[0] == "balanced_accuracy"
    assert result.cv.failures.empty


def test_use_the_usual_threshold_on_three_classes(tab, qtbot, monkeypatch):
    set_up(tab, [{"name": "nb", "estimator": "GaussianNB",
                  "threshold": {"cost": [[0, 1], [5, 0]]}}], ["accuracy"])
    chooser = Chooser(["Use the usual threshold"])
    result = run_with(tab, qtbot, monkeypatch, chooser)
    assert chooser.shown == [[("threshold_many_classes", True)]]
    assert "threshold" not in tab.state.model_entries[0]
    assert list(result.summary["model"]) == ["nb"]


def test_fewer_folds_when_a_class_is_too_small(tab, qtbot, monkeypatch):
    set_up(tab, [{"name": "nb", "estimator": "GaussianNB"}], ["accuracy"], dataset="iris",
           cv={"n_splits": 60, "n_repeats": 1, "random_state": 0})
    chooser = Chooser(["Use 50 folds"])
    result = run_with(tab, qtbot, monkeypatch, chooser)
    assert tab.folds_box.value() == 50 and result.experiment.cv.n_splits == 50
    assert len(result.cv.scores.query("metric == 'accuracy'")) == 50


def test_cancel_starts_nothing(tab, qtbot, monkeypatch):
    set_up(tab, [{"name": "svc", "estimator": "SVC", "scale": True}], ["roc_auc_ovr"])
    chooser = Chooser(run=False)
    monkeypatch.setattr(PreflightDialog, "exec", lambda dialog: chooser(dialog))
    started = []
    tab.run_started.connect(lambda: started.append(True))
    tab.run_button.click()
    qtbot.waitUntil(lambda: bool(chooser.shown), timeout=60000)
    qtbot.waitUntil(lambda: not tab.running, timeout=10000)
    assert not started and tab.state.result is None
    assert tab.state.model_entries[0].get("params", {}).get("probability") is None
    assert tab.time_label.text().startswith("Not started")


def test_the_marks_are_glyphs_the_common_fonts_have():
    from PySide6.QtGui import QFont, QFontMetrics

    from gui.views.preflight_dialog import BLOCKING_MARK, WARNING_MARK
    for family in ("DejaVu Sans", QFont().family()):
        metrics = QFontMetrics(QFont(family))
        assert all(metrics.inFontUcs4(ord(mark)) for mark in (BLOCKING_MARK, WARNING_MARK))
    assert not QFontMetrics(QFont("DejaVu Sans")).inFontUcs4(ord("⛔"))   # the empty box
