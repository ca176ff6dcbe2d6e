"""The headless runner on experiments with several data sets, and unchanged on one."""
import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import load_experiment
from engine.foundation.progress import run_to_end
from engine.output.result_folder import write_tables
from tests.helpers import MAIN, ROOT, assert_one_error_line, results, run_main

EXAMPLE = os.path.join(ROOT, "resources", "examples", "five_models_six_datasets.json")
PER_DATASET = ["confusion.csv", "correlation.csv", "credible_intervals.csv", "fold_scores.csv",
               "pairwise.csv", "per_class.csv", "summary.csv"]
ACROSS = ["dataset_scores.csv", "friedman.csv", "nemenyi.csv", "ranks.csv", "signed_rank.csv",
          "wilcoxon.csv"]
#: the header of every table of a single-data-set run, as the app wrote them before data
#: sets could be several (commit de9a49b)
HEADERS = {
    "fold_scores.csv": "model,repeat,fold,metric,score,n_train,n_test,fit_seconds",
    "summary.csv": "model,metric,mean,std,rank,n_folds,n_failed,n_warned,rank_mean,"
                   "rank_n_folds,rank_note,ci_low,ci_high,estimand",
    "correlation.csv": "model,logistic,nb,tree",
    "pairwise.csv": "model_1,model_2,mean_difference,t_stat,p_value_two_sided,"
                    "p_value_two_sided_adjusted,p_value_one_sided,p_value_one_sided_adjusted,"
                    "t_stat_uncorrected,p_value_uncorrected,p_mu_positive,p_better,"
                    "p_equivalent,p_worse,n_folds,p_value,p_value_adjusted,estimand",
    "credible_intervals.csv": "model_1,model_2,level,lower,upper,estimand",
    "confusion.csv": "model,true_class,predicted_class,count",
    "per_class.csv": "model,class,precision,recall,f1,support",
    "aloocv_curve.csv": "model,C,alo_log_likelihood,loo_log_likelihood,alo_reliable",
    "aloocv_optimum.csv": "model,C,alo_log_likelihood,at_bound,message",
    "calibration_curve.csv": "model,method,bin,mean_predicted,fraction_positive,count,class,"
                             "bin_low,bin_high,ci_low,ci_high,interval,estimand",
    "calibration_scores.csv": "model,method,brier,log_loss,ece,n_predictions,ece_top_label",
    "calibration_map.csv": "model,method,bucket_low,bucket_high,calibrated,class,count,"
                           "fraction_positive",
}
RUN_KEYS = ["command", "data", "exit_status", "experiment", "experiment_file", "removed",
            "store", "tables", "versions", "written", "written_by"]   # "data": the data read


@pytest.mark.slow
def test_the_example_runs_end_to_end(tmp_path):
    out = tmp_path / "out"
    done = run_main(EXAMPLE, "--out", out)
    assert done.returncode == 0, done.stderr
    assert results(out) == sorted(PER_DATASET + ACROSS + ["notes.txt", "report.md",
                                                          "report.html", "run.json"])
    names = ["moons", "moons, noisy", "circles", "circles, close", "linear, 10 columns",
             "linear, 20 columns"]
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert [d["name"] for d in manifest["datasets"]] == names
    assert [d["n_rows"] for d in manifest["datasets"]] == [200, 200, 200, 200, 300, 300]
    assert [b["name"] for b in manifest["experiment"]["datasets"]] == names
    assert manifest["tables"] == [n for n in results(out) if n != "run.json"]
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary.columns[:3]) == ["dataset", "model", "metric"]
    assert list(dict.fromkeys(summary["dataset"])) == names and len(summary) == 6 * 5 * 2
    scores = pd.read_csv(out / "dataset_scores.csv")
    assert len(scores) > 0 and (out / "report.md").read_text(encoding="utf-8").strip()
    notes = (out / "notes.txt").read_text(encoding="utf-8").splitlines()
    assert "moons, noisy: positive class: 1 (the second class)" in notes
    err = done.stderr
    assert "note: circles, close: A large circle containing a smaller one" in err
    assert err.index("note: linear, 20 columns: ") > err.index("data set 5 of 6: linear, 10")
    assert "300/300 100%" in err and "data set 6 of 6: linear, 20 columns — " in err
    assert err.rstrip().endswith(f"wrote 13 tables, report.md, report.html and notes.txt to "
                                 f"{out} "
                                 "(run.json lists them)")


@pytest.mark.slow
def test_a_bad_second_dataset_fails_at_once_naming_it(tmp_path):
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({
        "datasets": [{"builtin": "breast_cancer"}, {"csv": "gone.csv", "name": "survey"}],
        "models": [{"estimator": "RandomForestClassifier", "params": {"n_estimators": 300}}],
        "cv": {"n_splits": 10, "n_repeats": 10}}))
    out = tmp_path / "out"
    started = time.monotonic()
    done = run_main(exp, "--out", out)          # no --quiet: a fit would print progress
    assert_one_error_line(done, 'error: data set "survey" (datasets[1]): ', "does not exist")
    assert time.monotonic() - started < 60 and not out.exists()
    exp.write_text(json.dumps({"datasets": [{"builtin": "moons"}, {"builtin": "wine"}],
                               "models": [{"estimator": "GaussianNB"}],
                               "metrics": ["roc_auc"]}))
    assert_one_error_line(run_main(exp, "--out", out), "the metric ROC AUC (roc_auc) works "
                          "for two classes only, and the data set 'wine' has 3")
    exp.write_text(json.dumps({"datasets": [{"builtin": "moons"}, {"builtin": "moons"}],
                               "dataset": {"builtin": "moons"},
                               "models": [{"estimator": "GaussianNB"}]}))
    assert_one_error_line(run_main(exp, "--out", out),
                          'the experiment: give "dataset" or "datasets", not both')


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT semantics")
def test_ctrl_c_in_the_second_dataset_exits_130_and_writes_nothing(tmp_path):
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({
        "datasets": [{"builtin": "iris"}, {"builtin": "breast_cancer"}],
        "models": [{"name": "forest", "estimator": "RandomForestClassifier",
                    "params": {"n_estimators": 50, "random_state": 0}}],
        "cv": {"n_splits": 10, "n_repeats": 10}}))
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, MAIN, "run", str(exp), "--out", str(out)],
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    line = ""
    while time.time() < deadline and "data set 2 of 2" not in line:
        line = proc.stderr.readline()
    assert "data set 2 of 2: breast_cancer — " in line
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted: no result table was written" in err
    assert not out.exists() or not results(out)


@pytest.mark.slow
def test_one_dataset_writes_exactly_the_tables_it_always_wrote(tmp_path):
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({
        "dataset": {"builtin": "moons", "n_samples": 120, "noise": 0.3, "random_state": 1},
        "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
                   {"name": "nb", "estimator": "GaussianNB"},
                   {"name": "tree", "estimator": "DecisionTreeClassifier",
                    "params": {"max_depth": 3}}],
        "cv": {"n_splits": 4, "n_repeats": 2, "random_state": 0},
        "metrics": ["roc_auc", "accuracy"], "aloocv": {"n_C": 6},
        "calibration": {"map_buckets": 10}}))
    out = tmp_path / "out"
    done = run_main(exp, "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr
    result = run_to_end(run_experiment(load_experiment(str(exp))))
    write_tables(result.tables(), str(tmp_path / "engine"), manifest={}, notes=result.notes)
    assert results(out) == sorted([*HEADERS, "notes.txt", "report.html", "report.md", "run.json"])
    for name, header in HEADERS.items():
        text = (out / name).read_text(encoding="utf-8")
        assert text.split("\n", 1)[0] == header, name
        expected = (tmp_path / "engine" / name).read_text(encoding="utf-8")
        if name == "fold_scores.csv":                 # every column but the fit's seconds
            text, expected = (pd.read_csv(tmp_path / folder / name).drop(
                columns="fit_seconds").to_csv() for folder in ("out", "engine"))
        assert text == expected, name
    assert (out / "notes.txt").read_bytes() == (tmp_path / "engine" / "notes.txt").read_bytes()
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert sorted(manifest) == RUN_KEYS and "datasets" not in manifest["experiment"]
