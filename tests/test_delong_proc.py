"""DeLong's interval and paired test equal R's pROC (ci.auc and roc.test, "delong").

pROC's ``direction="auto"`` would flip a score whose AUC is below one half; every call
here sets ``levels`` and ``direction="<"`` (higher score = the positive class), which is
what :mod:`engine.evaluation.curves.delong` assumes.
"""
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from engine.evaluation.curves.delong import delong_interval, delong_test
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


def test_wine_one_vs_rest_intervals_and_tests(tmp_path):
    """A real three-class set: each class against the rest, two models, via auc_tables."""
    from sklearn.datasets import load_wine

    from engine.evaluation.curves.auc_tables import auc_tables

    x, y = load_wine(return_X_y=True)
    classes = ["class_0", "class_1", "class_2"]
    folds = StratifiedKFold(5, shuffle=True, random_state=1)
    models = {"logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.01)),
              "nb": GaussianNB()}
    frame = pd.DataFrame({"model": "logistic", "repeat": 1, "row": range(len(y)),
                          "true_class": [classes[k] for k in y]})
    frame["fold"] = 0
    for k, (_, test) in enumerate(folds.split(x, y)):
        frame.loc[test, "fold"] = k + 1
    tables = []
    for name, model in models.items():
        proba = cross_val_predict(model, x, y, cv=folds, method="predict_proba")
        part = frame.assign(model=name)
        for k, label in enumerate(classes):
            part[f"p_{label}"] = proba[:, k]
        tables.append(part)
    predictions = pd.concat(tables, ignore_index=True)
    path = tmp_path / "wine.csv"
    predictions.to_csv(path, index=False, float_format="%.17g")
    result = auc_tables(predictions, classes)
    for label in classes:
        source = (f"x <- read.csv('{path.as_posix()}'); "
                  f"d <- data.frame(y = as.integer(x$true_class[x$model == 'logistic'] == "
                  f"'{label}'), a = x$p_{label}[x$model == 'logistic'], "
                  f"b = x$p_{label}[x$model == 'nb'])\n")
        theirs = _proc(source)
        rows = result.intervals[(result.intervals["positive_class"] == label)
                                & (result.intervals["method"] == "delong")
                                & result.intervals["repeat"].notna()].set_index("model")
        for model, key in (("logistic", "a"), ("nb", "b")):
            if key == "a":                       # _PROC_NUMBERS asks level 0.95 for a
                ours = tuple(rows.loc[model, ["ci_low", "auc", "ci_high"]])
                assert ours == pytest.approx(
                    (theirs["low_a"], theirs["auc_a"], theirs["high_a"]), abs=1e-9)
            else:
                assert rows.loc[model, "auc"] == pytest.approx(theirs["auc_b"], abs=1e-12)
        test = result.tests[(result.tests["positive_class"] == label)
                            & result.tests["repeat"].notna()].iloc[0]
        assert (test["z"], test["p_value"]) == pytest.approx((theirs["z"], theirs["p"]),
                                                             abs=1e-9)
