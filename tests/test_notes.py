"""Tests for engine.foundation.notes: the codes and fields of the main kinds of note, pickling, and
``str(note)`` giving exactly the sentence the engine always wrote.

Also the calibration's fold-by-fold test (engine.evaluation.calibration.fold_test) against an
independent computation with scipy.
"""
from __future__ import annotations

import ast
import json
import os
import pickle
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.foundation.notes import CODES, Fields, Note, note_code, note_fields

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --------------------------------------------------------------------------- the Note type
def test_str_is_the_message_and_fields_are_read_only():
    note = Note("crowded_buckets", "nb: 62% of ...", {"model": "nb", "share": 0.62,
                                                       "rows": [1, 2]})
    assert str(note) == "nb: 62% of ..." and f"{note}" == note.message
    assert note.code == "crowded_buckets" and note.fields["share"] == 0.62
    assert note.fields["rows"] == (1, 2)                   # lists are kept as tuples
    with pytest.raises(TypeError):
        note.fields["share"] = 0.1
    with pytest.raises(AttributeError):
        note.message = "other"


def test_notes_pickle_and_hash_as_values():
    inner = Note("alo_best_at_max_c", "ALO keeps improving ...", {"C_max": 1000.0})
    note = Note("alo_optimum", "lr: ALO keeps improving ...",
                {"model": "lr", "notes": (inner,), "nested": {"a": [1]}})
    again = pickle.loads(pickle.dumps(note))
    assert again == note and hash(again) == hash(note) and str(again) == str(note)
    assert isinstance(again.fields, Fields) and again.fields["notes"][0].code == inner.code
    assert again.fields["nested"]["a"] == (1,)
    assert len({note, again, inner}) == 2                  # hashable: sets, dict keys


def test_an_unknown_code_is_refused():
    with pytest.raises(ValueError, match="unknown note code"):
        Note("no_such_code", "text")


def test_plain_strings_have_no_code():
    assert note_code("some text") == "" and dict(note_fields("some text")) == {}


def test_every_code_is_snake_case_with_a_meaning():
    for code, meaning in CODES.items():
        assert re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", code), code
        assert isinstance(meaning, str) and len(meaning) > 10, code


#: Calls that make a note from a code: ``Note`` and the pre-run check's ``_problem``
#: (engine.runs.preflight: a Problem is a Note with fixes).
NOTE_MAKERS = ("Note", "_problem")


def _codes_used_in(folder: str) -> set:
    """Codes of every ``Note("code", ...)`` written in the Python files of ``folder`` and
    its subpackages."""
    used = set()
    paths = [os.path.join(top, name) for top, _, names in os.walk(folder) for name in names]
    for path in paths:
        if not path.endswith(".py"):
            continue
        with open(path, encoding="utf-8") as stream:
            tree = ast.parse(stream.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in NOTE_MAKERS \
                    and node.args and isinstance(node.args[0], ast.Constant):
                used.add(node.args[0].value)
            if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Constant) \
                    and node.body.value in CODES:              # Note("a" if ... else "b", ...)
                used.update({node.body.value, node.orelse.value})
    return used


def test_the_engine_uses_every_listed_code_and_no_other():
    used = _codes_used_in(os.path.join(ROOT, "engine"))
    assert used <= set(CODES), used - set(CODES)
    assert set(CODES) <= used, set(CODES) - used


# --------------------------------------------------------------------------- data notes
def test_leak_note_codes_fields_and_old_text():
    from engine.input.data import dataset_from_frame

    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 30)
    frame = pd.DataFrame({"x": rng.normal(size=60), "code": y, "y": y})
    ds = dataset_from_frame(frame, "y")
    leak = next(n for n in ds.notes if n.code == "possible_leak")
    assert dict(leak.fields) == {"column": "code", "target": "y", "share": 100.0,
                                 "rule": "each of its 2 values goes with one class in nearly "
                                         "every row", "rows_judged": 60, "n_rows": 60,
                                 "left_out": False}
    assert str(leak) == ("possible leak: column 'code' alone predicts 'y' for 100.0% of rows "
                         "(each of its 2 values goes with one class in nearly every row); if "
                         "it is recorded after the outcome or computed from it, exclude it "
                         "(\"exclude\": [\"code\"])")
    positive = next(n for n in ds.notes if n.code == "positive_class")
    assert positive.fields["reason"] == "same_size" and positive.fields["label"] == "b"
    assert str(positive) == ("positive class: 'b' (the classes are the same size; set "
                             "\"pos_label\" to change)")


def test_column_notes_name_their_columns():
    from engine.input.data import dataset_from_frame

    n = 210
    frame = pd.DataFrame({"empty": [np.nan] * n, "id": [f"r{i}" for i in range(n)],
                          "town": [f"t{i % 55}" for i in range(n)],
                          "x": [np.inf, -np.inf] + list(np.arange(n - 2.0)),
                          "label": ["p", "q", None] * 70})
    ds = dataset_from_frame(frame)
    by_code = {n.code: n for n in ds.notes}
    assert by_code["target_chosen"].fields["column"] == "label"
    assert by_code["target_chosen"].fields["problem"] is None
    assert str(by_code["target_chosen"]) == ("target column not given; using 'label', the one "
                                             "column named as a target (name the target to "
                                             "choose another)")
    assert dict(by_code["rows_dropped"].fields) == {"n_rows": 70, "target": "label",
                                                    "test_file": False}
    assert str(by_code["rows_dropped"]) == "dropped 70 row(s) with no value in 'label'"
    assert by_code["empty_columns_left_out"].fields["columns"] == ("empty",)
    assert str(by_code["empty_columns_left_out"]) == "left out empty column(s): empty"
    assert by_code["identifier_columns_left_out"].fields["columns"] == ("id",)
    assert dict(by_code["many_categories"].fields) == {"column": "town", "n_categories": 55}
    assert str(by_code["many_categories"]) == ("column 'town' has 55 categories: one-hot "
                                               "encoding makes many columns; consider dropping "
                                               "it")
    assert dict(by_code["infinite_values"].fields) == {"column": "x", "n_values": 2}
    assert by_code["one_hot_encoded"].fields["columns"] == ("town",)


def test_csv_reading_notes(tmp_path):
    from engine.input.data import load_csv

    path = tmp_path / "d.csv"
    rows = ["x;z;label"] + [f"{i},5;{i};{'ab'[i % 2]}" for i in range(30)]
    rows[5] = "oops;4;a"
    path.write_text("\n".join(rows) + "\n", encoding="latin-1")
    ds = load_csv(str(path))
    by_code = {n.code: n for n in ds.notes}
    assert dict(by_code["separator"].fields) == {"separator": ";", "name": "semicolon"}
    assert str(by_code["separator"]) == "separator detected: semicolon"
    decimal = by_code["decimal_comma"]
    assert decimal.fields["certain"] is True and decimal.fields["column"] == "x"
    assert str(decimal) == (f"decimal comma detected: read {decimal.fields['example']!r} in "
                            f"column 'x' as {decimal.fields['value']}; set \"decimal\" to "
                            "\".\" if that is wrong")
    stray = by_code["stray_cells_missing"]
    assert stray.fields["lines"] == ((6, "oops"),) and stray.fields["n_bad"] == 1
    assert str(stray) == ("column 'x' holds numbers; 1 cell(s) that are not numbers count as "
                          "missing: line 6 'oops'")


# --------------------------------------------------------------------------- experiment, CV
def test_experiment_notes():
    from engine.evaluation.experiment import parse_experiment

    experiment = parse_experiment({
        "dataset": {"builtin": "moons"},
        "models": [{"name": "knn", "estimator": "KNeighborsClassifier"},
                   {"name": "forest", "estimator": "RandomForestClassifier"}],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 7}})
    by_code = {n.code: n for n in experiment.notes}
    assert dict(by_code["random_state_given"].fields) == {"random_state": 7,
                                                          "models": ("forest",)}
    assert dict(by_code["unscaled_models"].fields) == {"models": ("knn",)}
    filled = experiment.with_metrics_for(3)
    note = filled.notes[-1]
    assert note.code == "default_metric" and dict(note.fields) == {"metric": "roc_auc_ovr",
                                                                   "n_classes": 3}


def test_failure_notes():
    from engine.evaluation.advice import failure_notes

    failures = pd.DataFrame({"model": ["lr", "lr", "nb"], "repeat": [1, 1, 1],
                             "fold": [1, 2, 1], "kind": ["warning", "warning", "error"],
                             "message": ["ConvergenceWarning: lbfgs failed to converge",
                                         "ConvergenceWarning: lbfgs failed to converge",
                                         "ValueError: Input contains NaN"]})
    warned, failed = failure_notes(failures, 10)
    assert warned.code == "folds_warned" and failed.code == "folds_failed"
    assert warned.fields["model"] == "lr" and warned.fields["n_folds_hit"] == 2
    assert warned.fields["n_folds"] == 10 and warned.fields["fix"] == "not_converged"
    assert warned.fields["example"] == "ConvergenceWarning: lbfgs failed to converge"
    assert failed.fields["example"] == "ValueError: Input contains NaN"


def test_a_search_that_cannot_score_its_candidates_is_told_why():
    """A tuned SVC without probabilities on three classes (ROC AUC needs them): the inner
    search warns that scoring failed and that its scores are non-finite; the note gives
    the cause (no probabilities), not "NaN or infinite values"."""
    from engine.runs.analysis import run_experiment
    from engine.evaluation.experiment import parse_experiment
    from engine.foundation.progress import run_to_end

    experiment = parse_experiment({
        "dataset": {"builtin": "iris"},
        "models": [{"name": "svc tuned", "estimator": "SVC", "params": {"random_state": 0},
                    "tune": {"grid": {"C": [0.1, 1]}, "inner_splits": 3}},
                   {"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}})
    result = run_to_end(run_experiment(experiment))
    notes = {n.code: n for n in result.notes if n.fields.get("model") == "svc tuned"}
    assert "no probabilities" in notes["folds_warned"].fields["advice"]
    assert "no probabilities" in notes["folds_failed"].fields["advice"]


# --------------------------------------------------------------------------- ALOOCV
def test_alo_optimum_notes_and_message():
    from engine.evaluation.aloocv import optimize_alo

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    X[:, 0] += np.where(y == 1, 1.0, -1.0)                  # separable: best C at the bound
    X[:, 2] = 1.0                                          # a constant column
    opt = optimize_alo(X, y, C_max=100.0)
    assert [n.code for n in opt.notes] == ["alo_best_at_max_c", "alo_constant_columns"]
    assert opt.notes[0].fields["C_max"] == 100.0 and opt.notes[1].fields["columns"] == (2,)
    assert opt.message == " ".join(map(str, opt.notes))
    assert str(opt.notes[0]).startswith("ALO keeps improving up to C_max=100: the classes are "
                                        "(nearly) separable")
    assert str(opt.notes[1]) == ("constant column(s) [2]: the ridge keeps the Hessian positive "
                                 "definite; zero columns get coefficient 0.")
    hash(opt)                                              # still a hashable value


def test_aloocv_result_notes_name_their_model_and_pickle():
    from engine.evaluation.aloocv import run_aloocv
    from engine.evaluation.catalogue import expand_model
    from engine.input.data import load_builtin
    from engine.evaluation.experiment import AloocvSettings
    from engine.foundation.progress import run_to_end

    dataset = load_builtin("moons")
    models = [*expand_model({"name": "lr", "estimator": "LogisticRegression",
                             "params": {"C": 1.0}, "scale": True}),
              *expand_model({"name": "svc", "estimator": "SVC"}),
              *expand_model({"name": "l1", "estimator": "LogisticRegression",
                             "params": {"l1_ratio": 1.0, "solver": "saga"}})]
    result = run_to_end(run_aloocv(dataset, models, AloocvSettings(C_min=1e-3, C_max=1e-2,
                                                                   n_C=3)))
    by_model = {n.fields["model"]: n for n in result.notes}
    assert by_model["svc"].code == "alo_not_applicable"
    assert by_model["svc"].fields["reason"] == "estimator"
    assert str(by_model["svc"]) == "svc: ALO applies to LogisticRegression only"
    assert by_model["l1"].fields["reason"] == "l1_ratio"
    optimum = by_model["lr"]
    assert optimum.code == "alo_optimum"
    assert [n.code for n in optimum.fields["notes"]] == ["alo_best_at_max_c"]
    assert str(optimum) == "lr: " + result.optimum["message"].iloc[0]
    again = pickle.loads(pickle.dumps(result))
    assert again.notes == result.notes


# --------------------------------------------------------------------------- calibration
def _calibrated(dataset, estimator, settings, monkeypatch, outcome):
    """run_calibration of one model "m" (or "nb") after a 2-fold CV, every calibrated fold
    replaced by ``outcome(test, split)`` (a CalibratedFold)."""
    import engine.evaluation.calibration.analysis as calibration
    from engine.evaluation.catalogue import expand_models
    from engine.evaluation.cv import CVConfig, make_splits, run_cv
    from engine.foundation.progress import run_to_end

    specs = expand_models([{"name": "nb" if estimator == "GaussianNB" else "m",
                            "estimator": estimator}])
    cv = run_to_end(run_cv(dataset, specs, CVConfig(2, 1, 0), ["accuracy"]))
    tests = [test for _, test in make_splits(dataset.y, cv.config)]

    def calibrate_fold(estimator, X, y, train, test, *rest):
        return outcome(test, next(s for s, rows in enumerate(tests) if np.array_equal(rows, test)))
    monkeypatch.setattr(calibration, "calibrate_fold", calibrate_fold)
    return run_to_end(calibration.run_calibration(dataset, cv, specs, settings,
                                                  inner_splits=5))


def test_crowded_bucket_note(monkeypatch):
    from engine.evaluation.calibration import CalibratedFold
    from engine.input.data import dataset_from_frame
    from engine.evaluation.experiment import CalibrationSettings

    y = np.array([0, 1] * 50)                  # far apart: naive Bayes is all but certain
    frame = pd.DataFrame({"x": np.where(y == 1, 50.0, -50.0) + np.arange(100) % 7, "y": y})
    dataset = dataset_from_frame(frame, target="y")
    result = _calibrated(dataset, "GaussianNB", CalibrationSettings(methods=("isotonic",)),
                         monkeypatch, lambda test, _: CalibratedFold(np.full((len(test), 2), .5)))
    note = next(n for n in result.notes if n.code == "crowded_buckets")
    assert dict(note.fields) == {"model": "nb", "share": 1.0}
    assert str(note) == ("nb: 100% of the out-of-fold probabilities fall in the first or last "
                         "bucket of the uniform calibration map (extreme probabilities, as naive "
                         "Bayes gives): the map cannot resolve them; quantile buckets (strategy "
                         "'quantile') follow the data")


def test_calibration_warnings_keep_category_and_text_apart(monkeypatch):
    from engine.evaluation.calibration import CalibratedFold
    from engine.input.data import load_builtin
    from engine.evaluation.experiment import CalibrationSettings

    def outcome(test, split):                  # the first fold warns, the second fails
        if split == 0:
            return CalibratedFold(np.full((len(test), 2), 0.5),
                                  warnings=(("UserWarning", "something odd"),))
        return CalibratedFold(error="ValueError: bad")

    result = _calibrated(load_builtin("moons"), "SVC", CalibrationSettings(methods=("sigmoid",)),
                         monkeypatch, outcome)   # SVC: decision values, not probabilities
    by_code = {n.code: n for n in result.notes}
    assert by_code["calibration_method"].fields["inner_splits"] == 5
    assert str(by_code["calibration_method"]).startswith("calibrated variants: "
                                                         "CalibratedClassifierCV fitted inside "
                                                         "each outer training fold with an "
                                                         "inner 5-fold split")
    assert dict(by_code["calibration_decision_values"].fields) == {"model": "m",
                                                                   "transform": "logistic"}
    warned = by_code["calibration_warning"]
    assert dict(warned.fields) == {"model": "m", "method": "sigmoid", "category": "UserWarning",
                                   "text": "something odd"}
    assert str(warned) == "m sigmoid: UserWarning: something odd"
    failed = by_code["calibration_folds_failed"]
    assert failed.fields["n_failed"] == 1
    assert str(failed) == ("m sigmoid: 1 fold(s) failed, left out: repeat 1, fold 2: "
                           "ValueError: bad")
    assert pickle.loads(pickle.dumps(result)).notes == result.notes


def _fold_scores(before, after):
    n = len(before)
    rows = []
    for method, values in (("uncalibrated", before), ("isotonic", after)):
        for i, value in enumerate(values):
            rows.append(("nb", method, i // 5 + 1, i % 5 + 1, "neg_brier_score", value))
    return pd.DataFrame(rows, columns=["model", "method", "repeat", "fold", "metric", "score"]), n


def _calibration_with(fold_scores):
    from engine.evaluation.calibration import CalibrationResult

    empty = pd.DataFrame()
    return CalibrationResult(curve=empty, scores=empty, map=empty, fold_scores=fold_scores,
                             probabilities=empty)


def test_fold_test_matches_an_independent_corrected_t_test():
    from engine.evaluation.calibration import fold_test

    rng = np.random.default_rng(3)
    before = -0.20 + 0.02 * rng.normal(size=20)
    after = before + 0.01 + 0.01 * rng.normal(size=20)
    table, n = _fold_scores(before, after)
    cv = SimpleNamespace(train_test_sizes=lambda: (90.0, 10.0))
    test = fold_test(_calibration_with(table), cv, "nb", "isotonic", alpha=0.05)
    # Nadeau and Bengio, written out: variance times (1/J + n_test/n_train), t with J-1 df
    d = after - before
    t = d.mean() / np.sqrt(np.var(d, ddof=1) * (1 / n + 10.0 / 90.0))
    p = 2 * stats.t.sf(abs(t), n - 1)
    assert test.n_folds == n and test.mean_difference == pytest.approx(d.mean())
    assert test.t_stat == pytest.approx(t, rel=1e-12)
    assert test.p_value == pytest.approx(p, rel=1e-10)
    # the user's alpha decides: just above the p-value it improves, just below it does not
    assert fold_test(_calibration_with(table), cv, "nb", "isotonic", alpha=p * 1.01).improves
    assert not fold_test(_calibration_with(table), cv, "nb", "isotonic",
                         alpha=p * 0.99).improves


def test_fold_test_needs_both_variants_and_two_folds():
    from engine.evaluation.calibration import fold_test

    cv = SimpleNamespace(train_test_sizes=lambda: (90.0, 10.0))
    table, _ = _fold_scores([-0.2, -0.21], [-0.1, np.nan])
    assert fold_test(_calibration_with(table), cv, "nb", "isotonic") is None
    assert fold_test(_calibration_with(table), cv, "nb", "sigmoid") is None
    with pytest.raises(ValueError, match="alpha"):
        fold_test(_calibration_with(table), cv, "nb", "isotonic", alpha=1.5)
    worse, _ = _fold_scores([-0.1, -0.1, -0.12], [-0.2, -0.21, -0.2])
    result = fold_test(_calibration_with(worse), cv, "nb", "isotonic", alpha=0.5)
    assert result.mean_difference < 0 and not result.improves


# --------------------------------------------------------------------------- the GUI decides
def test_the_gui_reads_codes_and_fields_not_text():
    pytest.importorskip("PySide6")
    from gui.views.aloocv_view import optimum_notes, plain_message
    from gui.views.calibration_view import banner_text, crowded_models, plain_note
    from gui.views.dataset_notes import (leak_columns, left_out_reasons, many_category_columns,
                                         screen_note)

    # the message says nothing the GUI could parse: only codes and fields decide
    crowded = Note("crowded_buckets", "(text)", {"model": "nb", "share": 0.625})
    assert crowded_models([crowded]) == [("nb", 0.625)]
    warn, text = plain_note(crowded)
    assert warn and text.startswith("nb: 62% of its predicted probabilities")
    assert "nb (62%)" in banner_text([crowded])
    method = Note("calibration_method", "(text)", {"inner_splits": 4})
    assert "inner 4-fold split" in plain_note(method)[1]
    warned = Note("calibration_warning", "(text)", {"model": "nb", "method": "sigmoid",
                                                    "category": "UserWarning", "text": "odd"})
    assert plain_note(warned) == (False, "nb sigmoid: scikit-learn warned: odd")
    assert plain_note(Note("calibration_map_failed", "(text)"))[0]

    at_max = Note("alo_best_at_max_c", "(text)", {"C_max": 50.0})
    aloocv = SimpleNamespace(notes=(Note("alo_optimum", "(text)", {"model": "lr",
                                                                    "notes": (at_max,)}),))
    assert optimum_notes(aloocv, "lr") == (at_max,) and optimum_notes(aloocv, "x") == ()
    said = plain_message(optimum_notes(aloocv, "lr"), 0.001, 1000.0)
    assert len(said) == 1 and "C max = 50" in said[0]

    leak = Note("possible_leak", "(text)", {"column": "code", "target": "y", "share": 99.5,
                                            "rule": "a rule"})
    assert leak_columns([leak]) == {"code": screen_note(leak)}
    assert screen_note(leak).endswith("leave it out (untick it under Features)")
    assert many_category_columns([Note("many_categories", "(text)",
                                       {"column": "town", "n_categories": 80})]) == {"town": 80}
    assert left_out_reasons([Note("empty_columns_left_out", "(text)",
                                  {"columns": ["a, b", "c"]})]) == {
        "a, b": "it is empty (no value in any row)", "c": "it is empty (no value in any row)"}
    positive = Note("positive_class", "(text)", {"label": "yes", "reason": "smaller_class"})
    assert screen_note(positive) == ("positive class: 'yes' (the smaller class; pick another "
                                     "under Positive class)")
    assert screen_note(Note("positive_class", "as asked", {"label": "yes",
                                                           "reason": "asked"})) == "as asked"


def test_the_gui_parses_no_engine_text_with_regular_expressions():
    """The acceptance check of issue #11: no ``re.search / match / findall`` in the views
    that show the engine's notes."""
    for name in ("calibration_view.py", "aloocv_view.py", "dataset_notes.py"):
        with open(os.path.join(ROOT, "gui", "views", name), encoding="utf-8") as stream:
            text = stream.read()
        assert not re.search(r"\bre\.(search|match|findall|compile|sub|fullmatch)\b", text), name
        assert "import re\n" not in text, name


def test_a_result_folder_holds_the_old_note_texts(tmp_path):
    from engine.output.result_folder import write_result_folder

    notes = [Note("separator", "separator detected: semicolon", {"separator": ";"})]
    write_result_folder({"summary.csv": pd.DataFrame({"x": [1]})}, str(tmp_path / "out"),
                        {"run": 1}, notes)
    assert (tmp_path / "out" / "notes.txt").read_text() == "separator detected: semicolon\n"
    assert json.loads((tmp_path / "out" / "run.json").read_text())["run"] == 1
