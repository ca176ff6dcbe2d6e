"""Decision curves equal dcurves.dca on the same out-of-fold predictions (1e-9)."""
import numpy as np
import pandas as pd
import pytest

from engine.evaluation.catalogue import expand_models
from engine.evaluation.curves.decision import (THRESHOLDS, TREAT_ALL, TREAT_NONE, decision_analysis,
                                               decision_pairs, net_benefit)
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.data import load_builtin
from engine.foundation.progress import run_to_end
from tests.peers import peer

CONFIG = CVConfig(n_splits=5, n_repeats=3, random_state=0)


@pytest.fixture(scope="module")
def cancer_cv():
    dataset = load_builtin("breast_cancer")
    models = expand_models([
        {"name": "nb", "estimator": "GaussianNB"},
        {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
         "params": {"max_iter": 1000}},
        {"name": "svc", "estimator": "SVC", "scale": True, "params": {"random_state": 0}},
    ])
    cv = run_to_end(run_cv(dataset, models, CONFIG, ["roc_auc"]))
    return dataset, cv


def _oof(cv, name, repeat):
    preds = cv.predictions
    part = preds[(preds["model"] == name) & (preds["repeat"] == repeat)].sort_values("row")
    return part["y"].to_numpy(), part["score_1"].to_numpy()


@pytest.mark.slow
def test_net_benefit_equals_dcurves_per_repeat(cancer_cv):
    dcurves = peer("dcurves")
    dataset, cv = cancer_cv
    result = decision_analysis(cv, positive_code=1)
    for repeat in (1, 2, 3):
        frame = {}
        for name in ("nb", "logistic"):
            y, p = _oof(cv, name, repeat)
            frame[name] = p
        frame["y"] = y
        theirs = dcurves.dca(data=pd.DataFrame(frame), outcome="y", modelnames=["nb", "logistic"],
                             thresholds=list(THRESHOLDS))
        for ours_name, their_name in (("nb", "nb"), ("logistic", "logistic"),
                                      (TREAT_ALL, "all"), (TREAT_NONE, "none")):
            ours = result.curves[(result.curves["model"] == ours_name)
                                 & (result.curves["repeat"] == repeat)]
            peer_rows = theirs[theirs["model"] == their_name].sort_values("threshold")
            np.testing.assert_allclose(ours["threshold"], peer_rows["threshold"], atol=1e-12)
            np.testing.assert_allclose(ours["net_benefit"].to_numpy(),
                                       peer_rows["net_benefit"].to_numpy(dtype=float),
                                       rtol=0, atol=1e-9)


def test_model_without_probabilities_gets_a_note(cancer_cv):
    _, cv = cancer_cv
    result = decision_analysis(cv)
    assert "svc" not in set(result.curves["model"])
    assert [n.fields["model"] for n in result.notes
            if n.code == "decision_no_probabilities"] == ["svc"]
    assert result.positive_class == cv.classes[1]


def test_band_is_min_max_over_repeats(cancer_cv):
    _, cv = cancer_cv
    result = decision_analysis(cv)
    curves, summary = result.curves, result.summary
    at = summary[(summary["model"] == "nb") & (summary["threshold"] == 0.3)].iloc[0]
    values = [net_benefit(*_oof(cv, "nb", r), thresholds=[0.3])[0] for r in (1, 2, 3)]
    assert at["band_low"] == pytest.approx(min(values), abs=1e-15)
    assert at["band_high"] == pytest.approx(max(values), abs=1e-15)
    assert at["mean_net_benefit"] == pytest.approx(np.mean(values), abs=1e-15)
    assert at["n_repeats"] == 3 and at["band"] == "min-max"
    assert len(curves) == 3 * 4 * len(THRESHOLDS)


def test_pair_probability_is_a_paired_row_bootstrap(cancer_cv):
    _, cv = cancer_cv
    result = decision_analysis(cv, n_bootstrap=300, random_state=7)
    pairs = result.pairs
    assert set(zip(pairs["model_1"], pairs["model_2"])) == {("nb", "logistic")}
    t = 0.2
    row = pairs[pairs["threshold"] == t].iloc[0]
    # an independent loop: resample rows, average each model's NB over repeats, compare
    ys, pa, pb = {}, {}, {}
    for r in (1, 2, 3):
        ys[r], pa[r] = _oof(cv, "nb", r)
        _, pb[r] = _oof(cv, "logistic", r)
    n = len(ys[1])
    rng = np.random.default_rng(7)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=300)
    wins = losses = 0
    for c in counts:
        rows = np.repeat(np.arange(n), c)
        diff = np.mean([net_benefit(ys[r][rows], pa[r][rows], thresholds=[t])[0]
                        - net_benefit(ys[r][rows], pb[r][rows], thresholds=[t])[0] for r in (1, 2,
                                                                                             3)])
        wins += diff > 1e-12
        losses += diff < -1e-12
    assert row["p_more_benefit"] == pytest.approx(wins / 300, abs=1e-12)
    assert row["p_less_benefit"] == pytest.approx(losses / 300, abs=1e-12)
    mean_diff = np.mean([net_benefit(ys[r], pa[r], thresholds=[t])[0]
                         - net_benefit(ys[r], pb[r], thresholds=[t])[0] for r in (1, 2, 3)])
    assert row["mean_difference"] == pytest.approx(mean_diff, abs=1e-12)
    share = np.mean([net_benefit(ys[r], pa[r], thresholds=[t])[0] > net_benefit(ys[r], pb[r],
                                                                                thresholds=[t])[0]
                     for r in (1, 2, 3)])
    assert row["share_repeats_more"] == pytest.approx(share)


def test_multiclass_gives_a_note_and_no_curve():
    dataset = load_builtin("iris")
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(n_splits=3, n_repeats=1, random_state=0),
                           ["accuracy"]))
    result = decision_analysis(cv)
    assert result.tables() == {}
    assert [n.code for n in result.notes] == ["decision_two_class_only"]


def test_pairs_need_two_models():
    frame = pd.DataFrame({"model": "a", "repeat": 1, "row": [0, 1], "y": [0, 1], "p": [.2, .7]})
    assert decision_pairs(frame).empty


def test_recomputed_from_predictions_csv(cancer_cv):
    """Anyone can recompute the curves from predictions.csv alone."""
    from engine.evaluation.curves.decision import decision_curves
    from engine.evaluation.curves.predictions import predictions_table

    dataset, cv = cancer_cv
    table = predictions_table(cv, dataset)
    positive = dataset.classes[1]
    column = [c for c in table.columns if c == f"p_{positive}"][0]
    kept = table[table[column].notna()]
    frame = pd.DataFrame({"model": kept["model"], "repeat": kept["repeat"], "row": kept["row"],
                          "y": (kept["true_class"].astype(str) == str(positive)).astype(int),
                          "p": kept[column].astype(float)})
    again = decision_curves(frame, positive)
    ours = decision_analysis(cv).curves
    pd.testing.assert_frame_equal(again.reset_index(drop=True), ours.reset_index(drop=True),
                                  check_dtype=False, atol=1e-15)
