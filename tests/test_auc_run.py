"""A headless run with a ``curves`` block writes auc_intervals.csv and auc_tests.csv whose
DeLong numbers equal R's pROC on the run's own predictions.csv."""
import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t
from sklearn.metrics import roc_auc_score

from tests.peers import r_package_skip, run_r
from tests.test_cli import run_main, write_experiment


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("auc-run")
    models = [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
               "params": {"C": 0.05, "max_iter": 1000}},
              {"name": "nb", "estimator": "GaussianNB"},
              {"name": "ridge", "estimator": "RidgeClassifier", "scale": True,
               "params": {"alpha": 10.0}}]
    exp = write_experiment(folder / "exp.json", dataset={"builtin": "breast_cancer"},
                           models=models, cv={"n_splits": 5, "n_repeats": 2, "random_state": 0},
                           metrics=["accuracy"], curves={"pr": False, "decision": False},
                           comparison={"alpha": 0.1})
    done = run_main(exp, "--out", folder / "out")
    assert done.returncode == 0, done.stderr
    return folder / "out"


def test_tables_written_and_listed(run_folder):
    listed = json.loads((run_folder / "run.json").read_text())["tables"]
    assert {"auc_intervals.csv", "auc_tests.csv", "predictions.csv"} <= set(listed)
    intervals = pd.read_csv(run_folder / "auc_intervals.csv")
    assert set(intervals["method"]) == {"corrected_t", "delong", "ledell"}
    assert (intervals["level"] == 0.9).all()                 # 1 - comparison alpha
    # models × (corrected t + 2 methods × (2 repeats + all))
    assert len(intervals) == 3 * (1 + 2 * 3)
    assert "DeLong's test of two AUCs" in (run_folder / "notes.txt").read_text()


def test_corrected_t_uses_the_runs_fold_sizes(run_folder):
    """The corrected-t row: the mean of the 10 fold AUCs of predictions.csv, its interval
    with the n_train and n_test of fold_scores.csv, as summary.csv's interval."""
    intervals = pd.read_csv(run_folder / "auc_intervals.csv")
    row = intervals.query("model == 'logistic' and method == 'corrected_t'").iloc[0]
    predictions = pd.read_csv(run_folder / "predictions.csv")
    scores = pd.read_csv(run_folder / "fold_scores.csv").drop_duplicates(["repeat", "fold"])
    part = predictions[predictions["model"] == "logistic"]
    positive = row["positive_class"]
    aucs = np.array([roc_auc_score(f["true_class"] == positive, f[f"p_{positive}"])
                     for _, f in part.groupby(["repeat", "fold"])])
    half = student_t.ppf(0.95, 9) * np.sqrt(
        (0.1 + scores["n_test"].mean() / scores["n_train"].mean()) * aucs.var(ddof=1))
    assert (row["auc"], row["ci_low"], row["ci_high"]) == pytest.approx(
        (aucs.mean(), aucs.mean() - half, min(1.0, aucs.mean() + half)), abs=1e-12)
    assert row["estimand"] == "expected_score_at_training_size" and row["n_folds"] == 10


@pytest.mark.slow
def test_roc_off_writes_no_auc_tables(tmp_path):
    exp = write_experiment(tmp_path / "exp.json", curves={"roc": False})
    assert run_main(exp, "--out", tmp_path / "out").returncode == 0
    assert not (tmp_path / "out" / "auc_intervals.csv").exists()


@r_package_skip("pROC", reason="parity with R's pROC needs R and pROC")
def test_equal_to_proc_on_the_runs_predictions(run_folder):
    """pROC reads predictions.csv itself: each repeat's pooled rows, the positive class's
    probability (or the decision value, which grows with the second class)."""
    intervals = pd.read_csv(run_folder / "auc_intervals.csv", keep_default_na=True)
    positive = intervals["positive_class"].iloc[0]
    classes = sorted(pd.read_csv(run_folder / "predictions.csv")["true_class"].unique())
    sign = "-" if positive == "malignant" else ""
    script = f"""
    suppressMessages(library(pROC))
    d <- read.csv(  # the column repeat (a word R reserves) reads as repeat.
        '{(run_folder / 'predictions.csv').as_posix()}')
    score <- function(m, r) {{
      x <- d[d$model == m & d$repeat. == r, ]
      x <- x[order(x$row), ]
      s <- if (m == 'ridge') {sign}x$decision else x[['p_{positive}']]
      list(y = as.integer(x$true_class == '{positive}'), s = s)
    }}
    out <- c()
    for (r in 1:2) for (m in c('logistic', 'nb', 'ridge')) {{
      p <- score(m, r)
      out <- c(out, as.numeric(ci.auc(roc(p$y, p$s, levels = c(0, 1), direction = '<',
                                          quiet = TRUE), conf.level = 0.9, method = 'delong')))
    }}
    for (r in 1:2) for (pair in list(c('logistic', 'nb'), c('logistic', 'ridge'),
                                     c('nb', 'ridge'))) {{
      a <- score(pair[1], r); b <- score(pair[2], r)
      t <- roc.test(roc(a$y, a$s, levels = c(0, 1), direction = '<', quiet = TRUE),
                    roc(b$y, b$s, levels = c(0, 1), direction = '<', quiet = TRUE),
                    method = 'delong', paired = TRUE)
      out <- c(out, unname(t$statistic), t$p.value)
    }}
    cat(sprintf('%.17g', out), sep = '\\n')
    """
    assert set(classes) == {"malignant", "benign"}
    numbers = [float(v) for v in run_r(script).split()]
    delong = intervals[(intervals["method"] == "delong") & intervals["repeat"].notna()]
    ours = [v for _, row in delong.sort_values(["repeat"], kind="stable").iterrows()
            for v in (row["ci_low"], row["auc"], row["ci_high"])]
    assert ours == pytest.approx(numbers[:18], abs=1e-9)
    tests = pd.read_csv(run_folder / "auc_tests.csv")
    per_repeat = tests[tests["repeat"].notna()].sort_values(["repeat"], kind="stable")
    ours = [v for _, row in per_repeat.iterrows() for v in (row["z"], row["p_value"])]
    assert ours == pytest.approx(numbers[18:], abs=1e-9)
