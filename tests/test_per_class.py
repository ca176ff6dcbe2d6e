"""Per-class results from the out-of-fold predicted labels, against scikit-learn."""
import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, precision_recall_fscore_support
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_predict
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from engine.evaluation.catalogue import ModelSpec
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.data import load_builtin
from engine.evaluation.per_class import confusion_table, per_class_table
from engine.foundation.progress import run_to_end


@pytest.fixture(scope="module")
def wine_cv():
    data = load_builtin("wine")
    models = [ModelSpec("knn", "KNeighborsClassifier", {}, True),
              ModelSpec("svc", "SVC", {"probability": True, "random_state": 0}, True),
              ModelSpec("tree", "DecisionTreeClassifier", {"random_state": 0})]
    return data, run_to_end(run_cv(data, models, CVConfig(5, 2, 0), ["roc_auc_ovr"]))


@pytest.mark.filterwarnings("ignore:The `probability` parameter:FutureWarning")
def test_predicted_labels_equal_predict(wine_cv):
    data, cv = wine_cv
    X, y = data.X.to_numpy(), data.y
    splits = list(RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0).split(X, y))
    for name, estimator in (("knn", make_pipeline(StandardScaler(), KNeighborsClassifier())),
                            ("svc", make_pipeline(StandardScaler(),
                                                  SVC(probability=True, random_state=0)))):
        preds = cv.predictions[(cv.predictions.model == name) & (cv.predictions.repeat == 1)]
        expected = cross_val_predict(estimator, X, y, cv=splits[:5])
        got = preds.sort_values("row")["predicted"].to_numpy()
        np.testing.assert_array_equal(got, expected)


def test_confusion_and_per_class_equal_scikit_learn(wine_cv):
    data, cv = wine_cv
    confusion = confusion_table(cv.predictions, cv.models, data.classes)
    per_class = per_class_table(confusion, data.classes)
    for name in cv.models:
        preds = cv.predictions[cv.predictions.model == name]
        expected = confusion_matrix(preds["y"], preds["predicted"], labels=[0, 1, 2])
        mine = confusion[confusion.model == name]["count"].to_numpy().reshape(3, 3)
        np.testing.assert_array_equal(mine, expected)
        assert mine.sum() == 2 * len(data.y)              # every row once per repeat
        p, r, f, s = precision_recall_fscore_support(preds["y"], preds["predicted"],
                                                     labels=[0, 1, 2], zero_division=np.nan)
        rows = per_class[per_class.model == name]
        np.testing.assert_allclose(rows["precision"], p, rtol=1e-12)
        np.testing.assert_allclose(rows["recall"], r, rtol=1e-12)
        np.testing.assert_allclose(rows["f1"], f, rtol=1e-12)
        np.testing.assert_array_equal(rows["support"], s)
    assert list(confusion.columns) == ["model", "true_class", "predicted_class", "count"]


def test_two_class_svc_labels_equal_predict():
    data = load_builtin("breast_cancer")
    X, y = data.X.to_numpy(), data.y
    cv = run_to_end(run_cv(data, [ModelSpec("svc", "SVC", {"kernel": "linear"}, True)],
                           CVConfig(5, 1, 0), ["roc_auc"]))
    splits = list(RepeatedStratifiedKFold(n_splits=5, n_repeats=1, random_state=0).split(X, y))
    expected = cross_val_predict(make_pipeline(StandardScaler(), SVC(kernel="linear")), X, y,
                                 cv=splits)
    got = cv.predictions.sort_values("row")["predicted"].to_numpy()
    np.testing.assert_array_equal(got, expected)
