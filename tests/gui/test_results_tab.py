"""The Results tab driven offscreen on the scikit-learn example's real result.

The numbers asserted are the example's (corrected t 0.750, p 0.227 for rbf vs linear;
P(rbf > linear) 0.773; P(equivalent) 0.432 with a ROPE of 0.01) and, after the user
changes a setting, the engine's own numbers for the new setting.
"""
import os

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QToolButton

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import load_experiment
from engine.foundation.progress import run_to_end
from engine.evaluation.stats import adjust_pvalues, posterior
from engine.evaluation.verdict import pair_differences
from gui.help import ALIASES
from gui.state import AppState
from gui.tabs.results_tab import BAYESIAN_PAGE, NAIVE_ONLY, SIGNIFICANT, ResultsTab

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "examples",
                       "svc_kernels_moons.json")


@pytest.fixture(scope="module")
def seed_result():
    return run_to_end(run_experiment(load_experiment(EXAMPLE)))


@pytest.fixture
def state(qapp):
    app_state = AppState()
    yield app_state
    app_state.deleteLater()


@pytest.fixture
def tab(qtbot, state, seed_result):
    widget = ResultsTab(state)
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    state.set_result(seed_result)
    state.renderer.flush()
    return widget


def pair_row(frame, a, b):
    hit = frame[(frame.model_1 == a) & (frame.model_2 == b)]
    assert len(hit) == 1
    return hit.index[0], hit.iloc[0]


def shown(panel, row, column):
    model = panel.model
    index = model.index(row, list(panel.frame().columns).index(column))
    return model.data(index, Qt.DisplayRole), model.data(index, Qt.BackgroundRole)


def background(panel, row, column):
    brush = shown(panel, row, column)[1]
    return None if brush is None else brush.color().name()


# ---------------------------------------------------------------------------- no result
def test_without_a_result_the_tab_shows_a_hint(qtbot, state, seed_result):
    widget = ResultsTab(state)
    qtbot.addWidget(widget)
    assert widget.stack.currentWidget() is widget.hint
    assert "Run a cross-validation to see results here" in widget.hint.text()
    state.set_result(seed_result)
    state.renderer.flush()
    assert widget.stack.currentWidget() is widget.content
    state.set_result(None)
    assert widget.stack.currentWidget() is widget.hint


# ---------------------------------------------------------------------------- the numbers
def test_tables_hold_the_engine_numbers(tab, seed_result):
    pairwise = tab.pairwise_panel.frame()
    row, values = pair_row(pairwise, "rbf", "linear")
    assert values.t_stat == pytest.approx(0.750, abs=5e-4)
    assert values.p_value == pytest.approx(0.227, abs=5e-4)
    assert values.t_stat_uncorrected == pytest.approx(2.611, abs=5e-4)
    assert values.p_value_uncorrected == pytest.approx(0.005, abs=5e-4)
    assert shown(tab.pairwise_panel, row, "t_stat")[0] == "0.7503"
    assert shown(tab.pairwise_panel, row, "p_value")[0] == "0.2274"
    bayes = tab.bayes_panel.frame()
    row, values = pair_row(bayes, "rbf", "linear")
    assert values.p_mu_positive == pytest.approx(0.773, abs=5e-4)
    assert values.p_equivalent == pytest.approx(0.432, abs=5e-4)
    assert shown(tab.bayes_panel, row, "p_mu_positive")[0] == "0.7726"
    summary = tab.summary_panel.frame()
    assert list(summary.model) == ["rbf", "linear", "3_poly", "2_poly"]
    assert summary.loc[0, "mean"] == pytest.approx(0.94)
    pd.testing.assert_frame_equal(tab.intervals_panel.frame(), seed_result.comparison.intervals)
    corr = tab.correlation_panel.frame()
    assert corr.columns[0] == "model"
    assert corr.set_index("model").loc["rbf", "linear"] == pytest.approx(0.882561, abs=1e-6)


def test_each_pairwise_view_shows_its_own_columns(tab):
    def visible(panel):
        header, columns = panel.view.horizontalHeader(), panel.frame().columns
        shown = [i for i in range(len(columns)) if not panel.view.isColumnHidden(i)]
        return [columns[i] for i in sorted(shown, key=header.visualIndex)]

    assert visible(tab.pairwise_panel) == ["model_1", "model_2", "mean_difference", "t_stat",
                                           "p_value_two_sided", "p_value_two_sided_adjusted",
                                           "p_value", "p_value_adjusted", "t_stat_uncorrected",
                                           "p_value_uncorrected", "n_folds"]
    assert visible(tab.bayes_panel) == ["model_1", "model_2", "p_mu_positive", "p_better",
                                        "p_equivalent", "p_worse"]


def test_significance_is_highlighted_at_alpha(qtbot, tab, state):
    panel = tab.pairwise_panel
    row, _ = pair_row(panel.frame(), "rbf", "linear")
    # significance is two-sided: the one-sided seed p-value 0.227 is 0.455 two-sided
    assert background(panel, row, "p_value_two_sided") is None
    assert background(panel, row, "p_value") is None
    assert background(panel, row, "p_value_uncorrected") == NAIVE_ONLY  # naive test fooled
    strong, _ = pair_row(panel.frame(), "rbf", "2_poly")
    assert background(panel, strong, "p_value_two_sided_adjusted") == SIGNIFICANT
    with qtbot.waitSignal(state.result_changed):
        tab.controls.alpha_spin.setValue(0.25)
    assert state.result.comparison.settings.alpha == 0.25
    assert background(panel, row, "p_value_two_sided") is None   # 0.455 > 0.25
    with qtbot.waitSignal(state.result_changed):
        tab.controls.alpha_spin.setValue(0.5)
    assert background(panel, row, "p_value_two_sided") == SIGNIFICANT


def _header(panel, column):
    model = panel.model
    return model.headerData(list(panel.frame().columns).index(column), Qt.Horizontal)


def test_summary_shows_each_models_interval_at_alpha(qtbot, tab, state):
    """summary.csv's ci_low / ci_high in the Summary table, their level in the headers;
    a new alpha redraws them (the scores stay the same)."""
    summary = tab.summary_panel.frame().set_index(["model", "metric"])
    engine = state.result.summary.set_index(["model", "metric"])
    for column in ("ci_low", "ci_high"):
        pd.testing.assert_series_equal(summary[column], engine.loc[summary.index, column])
    from engine.evaluation.coverage_record import level_words

    # "95%", or the coverage the study measured when it left 93-97% (the shipped record)
    assert _header(tab.summary_panel, "ci_low") == f"{level_words('summary_mean', 0.95)} interval, low"
    width = (summary["ci_high"] - summary["ci_low"]).to_numpy()
    with qtbot.waitSignal(state.result_changed):
        tab.controls.alpha_spin.setValue(0.2)
    state.renderer.flush()
    assert _header(tab.summary_panel, "ci_high") == "80% interval, high"
    again = tab.summary_panel.frame().set_index(["model", "metric"]).loc[summary.index]
    assert ((again["ci_high"] - again["ci_low"]).to_numpy() < width).all()


def test_the_rope_shows_its_unit_and_the_defaults_reason(tab, state):
    from engine.evaluation.stats import default_rope

    metric = state.result.comparison.metric
    assert tab.controls.rope_unit.text() == default_rope(metric).unit
    assert default_rope(metric).reason in tab.controls.rope_unit.toolTip()


# ---------------------------------------------------------------------------- the chosen pair
def test_the_best_two_models_are_compared_first(tab):
    assert (tab.model_a_combo.currentText(), tab.model_b_combo.currentText()) == ("rbf", "linear")
    text = tab.verdict_label.text()
    assert "rbf and linear are practically equivalent with probability 0.43" in text
    assert "no significant difference (two-sided p = 0.455" in text
    strip = tab.posterior.strip
    assert "0.773" in strip.positive_label.text()
    assert strip.equivalent_label.text() == "practically equivalent: 0.432"
    assert strip.better_label.text() == "rbf better: 0.500"
    assert tab.posterior.rope_band.getRegion() == pytest.approx((-0.01, 0.01))


def test_posterior_curve_is_the_engine_posterior(tab, seed_result):
    comparison = seed_result.comparison
    differences = pair_differences(seed_result.cv.score_matrix(), "rbf", "linear")
    expected = posterior(differences, comparison.n_train, comparison.n_test)
    x, y = tab.posterior.curve.getData()
    assert len(x) > 100
    np.testing.assert_allclose(y, expected.pdf(x))
    low, high = expected.interval(0.95)
    bars_x = [bar.getData()[0] for bar in tab.posterior.interval_bars]
    assert any(np.nanmin(b) == pytest.approx(low) and np.nanmax(b) == pytest.approx(high)
               for b in bars_x)


def test_changing_the_rope_recomputes_without_new_cv(qtbot, tab, state, seed_result):
    with qtbot.waitSignal(state.result_changed):
        tab.controls.rope_spin.setValue(0.02)
    state.renderer.flush()
    result = state.result
    assert result.cv is seed_result.cv
    assert result.comparison.settings.rope == pytest.approx(0.02)
    comparison = result.comparison
    differences = pair_differences(result.cv.score_matrix(), "rbf", "linear")
    expected = posterior(differences, comparison.n_train, comparison.n_test).probabilities(0.02)
    _, values = pair_row(tab.bayes_panel.frame(), "rbf", "linear")
    for key in ("p_better", "p_equivalent", "p_worse"):
        assert values[key] == pytest.approx(expected[key])
    assert expected["p_equivalent"] > 0.432 + 0.1
    strip = tab.posterior.strip
    assert strip.equivalent_label.text() == f"practically equivalent: {expected['p_equivalent']:.3f}"
    assert f"{expected['p_equivalent']:.3f}" in tab.verdict_label.text()
    assert tab.posterior.rope_band.getRegion() == pytest.approx((-0.02, 0.02))


def test_changing_the_correction_adjusts_p_values(qtbot, tab, state):
    combo = tab.controls.correction_combo
    with qtbot.waitSignal(state.result_changed):
        combo.setCurrentIndex(combo.findData("holm"))
    state.renderer.flush()
    pairwise = tab.pairwise_panel.frame()
    np.testing.assert_allclose(pairwise.p_value_adjusted,
                               adjust_pvalues(pairwise.p_value.to_numpy(), method="holm"))
    assert "Holm" in tab.verdict_label.text()


def test_picking_two_models_updates_posterior_and_verdict(qtbot, tab, state):
    with qtbot.waitSignal(state.selection_changed):
        tab.model_b_combo.setCurrentText("3_poly")
    assert state.selection == ["rbf", "3_poly"]
    assert "rbf − 3_poly" in tab.posterior.title.text()
    assert tab.verdict_label.text().startswith("rbf and 3_poly")
    state.set_selection(["2_poly", "linear"])  # picked in another view, worse model first
    assert (tab.model_a_combo.currentText(), tab.model_b_combo.currentText()) == \
        ("2_poly", "linear")
    assert "linear is practically better than 2_poly" in tab.verdict_label.text()
    assert tab.posterior.strip.worse_label.text().startswith("linear better: 1.000")


def test_a_picked_pair_is_kept_on_this_data_only(qtbot, tab, state, seed_result):
    """Issue 37: the user's pair stays for new results of the same data; after File → New
    (even with the same data opened again) the best two are compared."""
    from engine.evaluation.stats import ComparisonSettings

    def pair():
        return tab.model_a_combo.currentText(), tab.model_b_combo.currentText()

    state.set_dataset(seed_result.dataset)
    state.set_result(seed_result)
    state.renderer.flush()
    tab.model_b_combo.setCurrentText("3_poly")                  # the user's pick
    state.set_result(seed_result.with_comparison(ComparisonSettings(rope=0.02)))
    state.renderer.flush()
    assert pair() == ("rbf", "3_poly")
    state.reset()                                               # File → New
    state.set_dataset(seed_result.dataset)
    state.set_result(seed_result)
    state.renderer.flush()
    assert pair() == ("rbf", "linear") and state.selection == []
    assert tab.verdict_label.text().startswith("rbf and linear")


def test_picking_the_same_model_on_both_sides_swaps_them(tab, state):
    tab.model_a_combo.setCurrentText("linear")
    assert (tab.model_a_combo.currentText(), tab.model_b_combo.currentText()) == \
        ("linear", "rbf")
    assert state.selection == ["linear", "rbf"]


def test_selecting_a_pair_row_opens_its_bayesian_comparison(tab, state):
    panel = tab.pairwise_panel
    row, _ = pair_row(panel.frame(), "3_poly", "2_poly")
    panel.view.selectRow(row)
    assert state.selection == ["3_poly", "2_poly"]
    assert tab.views.currentIndex() == BAYESIAN_PAGE
    assert "3_poly − 2_poly" in tab.posterior.title.text()
    intervals = tab.intervals_panel
    pair_rows = [i for i in range(len(intervals.frame()))
                 if set(intervals.frame().iloc[i][["model_1", "model_2"]]) == {"3_poly", "2_poly"}]
    assert all(background(intervals, i, "model_1") for i in pair_rows)


def test_a_model_picked_in_a_table_is_highlighted_in_the_plots(tab, state):
    summary = tab.summary_panel
    summary.view.selectRow(list(summary.frame().model).index("3_poly"))
    assert state.selection == ["3_poly"]
    curves = tab.fold_plot.model_curves()
    widths = {name: curve.opts["pen"].widthF() for name, curve in curves.items()}
    assert widths["3_poly"] > widths["rbf"] == widths["linear"]
    assert curves["rbf"].opts["pen"].color().alpha() < 100  # others dimmed
    xs, _ = tab.heatmap.outline.getData()
    assert np.isfinite(xs).sum() == 5 * 4  # the model's row of 4 cells outlined


def test_clicking_a_line_selects_its_model(tab, state):
    curve = tab.fold_plot.model_curves()["linear"]
    curve.sigClicked.emit(curve, None)
    assert state.selection == ["linear"]


# ---------------------------------------------------------------------------- plots
def test_fold_scores_plot_shows_every_fold(tab, seed_result):
    plot = tab.fold_plot
    assert list(plot.model_curves()) == list(seed_result.cv.models)
    for curve in plot.model_curves().values():
        assert len(curve.getData()[0]) == 100
    (x_low, x_high), _ = plot.plot.vb.viewRange()
    assert x_low <= 1 and x_high >= 100
    assert "ROC AUC" in plot.plot.getAxis("left").labelText
    assert plot.legend.names == list(seed_result.cv.models)


def test_heatmap_writes_the_correlations_in_the_cells(tab):
    heatmap = tab.heatmap
    texts = heatmap.cells.shown_texts()
    assert len(texts) == 16 and texts[1] == "0.88"
    assert heatmap.cells.fits(80, 40) and not heatmap.cells.fits(10, 40)
    assert heatmap.axis_labels("bottom") == ["rbf", "linear", "3_poly", "2_poly"]


def test_hover_readouts_describe_the_values_under_the_cursor(tab):
    assert "repeat 1, fold 1" in tab.fold_plot.describe_point(1.1, 0.9)
    assert "rbf and linear: r = 0.883" == tab.heatmap.describe_point(1.5, 0.5)
    assert "P(μ > 0.0000) = 0.773" in tab.posterior.describe_point(0.0, 1.0)


def test_plots_save_images(qtbot, tab, tmp_path):
    for plot in (tab.fold_plot, tab.heatmap, tab.posterior):
        path = str(tmp_path / plot.export_name)
        with qtbot.waitSignal(plot.saved, timeout=60000):
            plot.save_image(path)
        assert plot.wait_for_save()
        assert os.path.getsize(path) > 1000


# ---------------------------------------------------------------------------- export
@pytest.mark.parametrize("panel_name, table", [
    ("pairwise_panel", "pairwise.csv"), ("bayes_panel", "pairwise.csv"),
    ("intervals_panel", "credible_intervals.csv"), ("summary_panel", "summary.csv"),
    ("correlation_panel", "correlation.csv"), ("fold_panel", "fold_scores.csv")])
def test_export_writes_the_contract_table(qtbot, tab, seed_result, tmp_path, panel_name, table):
    panel = getattr(tab, panel_name)
    assert panel.export_name == table
    path = str(tmp_path / table)
    with qtbot.waitSignal(panel.exported, timeout=60000):
        panel.export_to(path)
    assert panel.wait_for_export()
    written = pd.read_csv(path)
    expected = seed_result.tables()[table]
    if table == "correlation.csv":
        expected = expected.reset_index()
    assert list(written.columns) == [str(c) for c in expected.columns]
    assert len(written) == len(expected)
    numeric = expected.select_dtypes("number").columns
    if table == "summary.csv":
        written = written.set_index("model").loc[list(expected.model)].reset_index()
    np.testing.assert_allclose(written[numeric].to_numpy(dtype=float),
                               expected[numeric].to_numpy(dtype=float), rtol=1e-12)


# ---------------------------------------------------------------------------- hosting, help
def test_more_views_can_be_added(tab):
    extra = QLabel("ALOOCV curves")
    tab.add_view("ALOOCV", extra)
    assert tab.views.tabText(tab.views.count() - 1) == "ALOOCV"
    assert tab.views.widget(tab.views.count() - 1) is extra


def test_help_buttons_open_their_topics(qtbot, state, seed_result, monkeypatch):
    opened = []
    monkeypatch.setattr("gui.help.show_help", lambda topic, parent=None: opened.append(topic))
    widget = ResultsTab(state)
    qtbot.addWidget(widget)
    for topic in ("results", "corrected_ttest", "bayesian", "rope", "credible_intervals"):
        button = widget.findChild(QToolButton, f"help_{topic}")
        assert button is not None and not button.isHidden()
        button.click()
    assert opened == ["results", "corrected_ttest", "bayesian", "rope", "credible_intervals"]
    assert [ALIASES.get(topic, topic) for topic in opened] == [   # where the guide opens
        "results", "results#ttest", "results#rope", "results#rope", "results#intervals"]


def test_per_class_results_of_the_compared_pair(tab):
    from sklearn.metrics import confusion_matrix

    assert tab.views.tabText(3) == "Per class"
    a, b = tab.model_a_combo.currentText(), tab.model_b_combo.currentText()
    preds = tab.state.result.cv.predictions
    expected = confusion_matrix(preds[preds.model == a]["y"], preds[preds.model == a]["predicted"])
    matrix = tab.per_class.matrix_a.frame()
    assert list(matrix.columns) == ["true class", "predicted 0", "predicted 1"]
    assert matrix.iloc[:, 1:].to_numpy().tolist() == expected.tolist()
    assert a in tab.per_class.matrix_a.title.text() and b in tab.per_class.matrix_b.title.text()
    assert set(tab.per_class.scores.frame()["model"]) == {a, b}


def test_long_model_names_do_not_widen_the_window(qtbot, state, seed_result):
    from dataclasses import replace

    long_name = "rbf_" + "with_a_very_long_descriptive_name_" * 4
    renamed = {"rbf": long_name}
    cv = seed_result.cv
    scores = cv.scores.assign(model=cv.scores.model.replace(renamed))
    new_cv = replace(cv, scores=scores, models=tuple(renamed.get(m, m) for m in cv.models),
                     predictions=cv.predictions.assign(model=cv.predictions.model.replace(renamed)))
    from engine.runs.analysis import compare_cv
    from engine.evaluation.stats import summary_table

    result = replace(seed_result, cv=new_cv,
                     summary=summary_table(new_cv.scores, new_cv.models, new_cv.metrics),
                     comparison=compare_cv(new_cv, seed_result.comparison.settings))
    tab = ResultsTab(state)
    qtbot.addWidget(tab)
    state.set_result(result)
    state.renderer.flush()
    assert tab.model_a_combo.currentText() == long_name
    assert tab.minimumSizeHint().width() < 1280
    assert long_name in tab.model_a_combo.toolTip()


def test_probabilities_are_coloured_at_the_verdicts_level():
    """Issue #38: a cell is coloured as decided only at the level the verdict uses
    (1 - alpha/m for m pairs under a correction), not at 1 - alpha."""
    import pandas as pd

    from gui.tabs.results_tab import bayesian_style

    frame = pd.DataFrame({"model_1": ["a", "a", "b"], "model_2": ["b", "c", "c"],
                          "p_better": [0.97, 0.99, 0.5]})
    assert bayesian_style(frame, 0, "p_better", 0.97, 0.05, None, "bonferroni", 3) is None
    assert bayesian_style(frame, 1, "p_better", 0.99, 0.05, None, "bonferroni", 3) is not None
    assert bayesian_style(frame, 0, "p_better", 0.97, 0.05, None, "none", 3) is not None


def test_a_nested_run_shows_its_table_labelled_and_others_hide_the_tab(tab, state,
                                                                      seed_result):
    """The Nested CV tab beside Summary: hidden for a run without nested CV; with it,
    nested_intervals.csv as the engine made it, its interval columns' tooltips naming the
    method, the estimand and the study's coverage (or that none was measured)."""
    from engine.evaluation.coverage_record import interval_label
    from engine.evaluation.experiment import parse_experiment

    tables, panel = tab.score_tables, tab.nested_panel
    assert not tables.isTabVisible(tables.indexOf(panel))
    experiment = parse_experiment({"dataset": {"builtin": "iris"},
                                   "models": [{"name": "nb", "estimator": "GaussianNB"}],
                                   "cv": {"n_splits": 3, "n_repeats": 1,
                                          "interval": "nested", "nested_repeats": 1},
                                   "metrics": ["accuracy"]})
    nested = run_to_end(run_experiment(experiment))
    state.set_result(nested)
    state.renderer.flush()
    assert tables.isTabVisible(tables.indexOf(panel))
    pd.testing.assert_frame_equal(panel.frame(), nested.nested.table)
    column = list(panel.frame().columns).index("ci_low")
    tip = panel.model.headerData(column, Qt.Horizontal, Qt.ItemDataRole.ToolTipRole)
    label = interval_label("nested_cv", 0.95)
    assert label in tip and "the model fitted on all the rows" in label
    state.set_result(seed_result)
    state.renderer.flush()
    assert seed_result.nested is None and not tables.isTabVisible(tables.indexOf(panel))
