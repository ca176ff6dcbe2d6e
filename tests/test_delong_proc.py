"""DeLong's interval and paired test equal R's pROC (ci.auc and roc.test, "delong").

pROC's ``direction="auto"`` would flip a score whose AUC is below one half; every call
here sets ``levels`` and ``direction="<"`` (higher score = the positive class), which is
what :mod:`engine.curves.delong` assumes.
"""
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from engine.curves.delong import delong_interval, delong_test
from tests.peers import r_package_skip, run_r

pytestmark = r_package_skip("pROC", reason="parity with R's pROC needs R and pROC")

#: Reads d (columns y = 0/1, a, b) and prints pROC's numbers, one per line.
_PROC_NUMBERS = r"""
suppressMessages(library(pROC))
ra <- roc(d$y, d$a, levels = c(0, 1), direction = "<", quiet = TRUE)
rb <- roc(d$y, d$b, levels = c(0, 1), direction = "<", quiet = TRUE)
t <- roc.test(ra, rb, method = "delong", paired = TRUE)
out <- c(as.numeric(ci.auc(ra, conf.level = 0.95, method = "delong")),
         as.numeric(ci.auc(rb, conf.level = 0.9, method = "delong")),
         unname(t$statistic), t$p.value)
cat(sprintf("%.17g", out), sep = "\n")
"""


def _proc(frame_source: str) -> dict:
    numbers = [float(v) for v in run_r(frame_source + _PROC_NUMBERS).split()]
    keys = ["low_a", "auc_a", "high_a", "low_b", "auc_b", "high_b", "z", "p"]
    return dict(zip(keys, numbers))


def _ours(y, a, b) -> dict:
    auc_a, low_a, high_a = delong_interval(y, a, level=0.95)
    auc_b, low_b, high_b = delong_interval(y, b, level=0.9)
    _, _, _, z, p = delong_test(y, a, b)
    return dict(low_a=low_a, auc_a=auc_a, high_a=high_a, low_b=low_b, auc_b=auc_b,
                high_b=high_b, z=z, p=p)


def _assert_equal(ours: dict, theirs: dict):
    for key, value in theirs.items():
        assert ours[key] == pytest.approx(value, abs=1e-6, rel=0), key
        assert ours[key] == pytest.approx(value, abs=1e-12, rel=1e-10), key


def test_asah_s100b_against_ndka(tmp_path):
    """pROC's own example: outcome Poor vs Good, s100b vs ndka."""
    path = tmp_path / "asah.csv"
    run_r(f"library(pROC); data(aSAH); write.csv(aSAH, '{path.as_posix()}', row.names=FALSE)")
    asah = pd.read_csv(path)
    y = (asah["outcome"] == "Poor").to_numpy()
    source = (f"d <- read.csv('{path.as_posix()}'); "
              "d <- data.frame(y = as.integer(d$outcome == 'Poor'), a = d$s100b, b = d$ndka)\n")
    theirs = _proc(source)
    assert theirs["auc_a"] == pytest.approx(0.7313686, abs=1e-7)   # pROC's documented AUC
    _assert_equal(_ours(y, asah["s100b"].to_numpy(), asah["ndka"].to_numpy()), theirs)


def test_breast_cancer_out_of_fold_predictions(tmp_path):
    """Pooled out-of-fold probabilities of two models on a real two-class set."""
    x, y = load_breast_cancer(return_X_y=True)
    folds = StratifiedKFold(10, shuffle=True, random_state=0)
    models = [make_pipeline(StandardScaler(), LogisticRegression(C=0.05)), GaussianNB()]
    a, b = (cross_val_predict(m, x, y, cv=folds, method="predict_proba")[:, 1] for m in models)
    path = tmp_path / "predictions.csv"
    pd.DataFrame({"y": y, "a": a, "b": b}).to_csv(path, index=False, float_format="%.17g")
    frame = pd.read_csv(path)
    theirs = _proc(f"d <- read.csv('{path.as_posix()}')\n")
    _assert_equal(_ours(frame["y"].to_numpy(), frame["a"].to_numpy(), frame["b"].to_numpy()),
                  theirs)
    assert theirs["p"] < 0.05 and theirs["auc_a"] > theirs["auc_b"]
