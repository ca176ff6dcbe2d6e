"""QDA's advice names the real cause (issue 26, item 6): a class with fewer training rows than
features cannot have a covariance of its own, whatever the features are; only when every
class is large enough is a collinearity failure blamed on copied features. On the wine
data (Forina et al., UCI; scikit-learn's copy), real measurements."""
import pandas as pd
import pytest
from sklearn.datasets import load_wine

from engine.evaluation.advice import small_class_advice
from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end

MODELS = [{"name": "qda", "estimator": "QuadraticDiscriminantAnalysis"},
          {"name": "nb", "estimator": "GaussianNB"}]


def _wine(tmp_path, small_class_rows=None, copy_a_column=False):
    wine = load_wine(as_frame=True)
    frame = wine.frame.assign(target=wine.target_names[wine.target])
    if small_class_rows:
        small = frame[frame["target"] == "class_2"].head(small_class_rows)
        frame = pd.concat([frame[frame["target"] != "class_2"], small], ignore_index=True)
    if copy_a_column:
        frame.insert(1, "alcohol_again", frame["alcohol"] * 2)
    path = tmp_path / "wine.csv"
    frame.to_csv(path, index=False)
    return path


def _failure_note(path):
    experiment = parse_experiment({"dataset": {"csv": str(path), "target": "target"},
                                   "models": MODELS, "metrics": ["accuracy"],
                                   "cv": {"n_splits": 5, "n_repeats": 1, "random_state": 0}})
    result = run_to_end(run_experiment(experiment))
    # scikit-learn 1.8 and later refuse to fit ("LinAlgError: ... not full rank"), 1.7
    # fits with a warning ("LinAlgWarning: ... not full rank"): the advice is the same
    return next(n for n in result.notes if n.code in ("folds_failed", "folds_warned")
                and n.fields["model"] == "qda")


def test_a_ten_row_class_is_named_as_the_cause(tmp_path):
    note = _failure_note(_wine(tmp_path, small_class_rows=10))
    advice = note.fields["advice"]
    assert "'class_2' has only 10 rows (about 8 in a training fold)" in advice
    assert "13 features" in advice and "reg_param" in advice
    assert "copies" not in advice


def test_copied_features_are_blamed_only_when_every_class_is_large(tmp_path):
    note = _failure_note(_wine(tmp_path, copy_a_column=True))
    assert "copies of each other" in note.fields["advice"]
    assert "class_2" not in note.fields["advice"]


@pytest.mark.parametrize("message", ["UserWarning: Variables are collinear",
                                     "LinAlgError: The covariance matrix of class 4 is not "
                                     "full rank."])
def test_the_class_size_rule(message):
    counts = {"WinF": 70, "Tabl": 9, "Head": 29}
    assert "'Tabl' has only 9 rows (about 7" in small_class_advice(message, counts, 9, 5)
    assert small_class_advice(message, {"a": 70, "b": 40}, 9, 5) == ""
    assert small_class_advice("ConvergenceWarning", counts, 9, 5) == ""
