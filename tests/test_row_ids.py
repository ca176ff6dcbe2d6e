"""Issue 37: the data's IDs carried into ``predictions.csv`` and Predict's output.

The ids are the ``id_column`` named, else the row-name column left out (R's row names,
text or numbers), else the 1-based row of the file; rows without a target are dropped
and the ids stay with their rows, so every ``id`` of ``predictions.csv`` names the source
row whose true class the table says. Predict takes the id from the data file by the same
rule, the model's ``id_column`` first.
"""
import json
import os

import numpy as np
import pandas as pd
import pytest

from engine.evaluation.experiment import parse_experiment
from engine.foundation.errors import EngineError
from engine.foundation.progress import run_to_end
from engine.input.data import load_csv
from engine.input.readers import load_dataset
from engine.input.row_ids import predict_ids
from engine.runs.analysis import run_experiment
from engine.runs.heldout.model_record import check_record
from engine.runs.heldout.saved import (FORMAT, load_model, model_record, predict_file,
                                       predictions)
from tests.helpers import assert_one_error_line, run_main, write_experiment
from tests.peers import peer

N = 30


def source(seed: int = 0) -> pd.DataFrame:
    """30 rows: two features, a class, a sample number that is not in row order."""
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=N)
    return pd.DataFrame({"x1": x1, "sample": rng.permutation(N) * 7 + 500,
                         "x2": rng.normal(size=N),
                         "y": np.where(x1 + rng.normal(scale=0.5, size=N) > 0, "b", "a")})


def r_style(tmp_path, names) -> tuple:
    """An R ``write.csv`` file: row names under an empty header; row 4 has no class."""
    data = source().drop(columns="sample").set_axis(names)
    data.loc[names[3], "y"] = np.nan
    path = tmp_path / "r.csv"
    data.to_csv(path)
    return str(path), data


def run_predictions(spec: dict) -> tuple:
    exp = parse_experiment({"dataset": spec, "models": [
        {"name": "logistic", "estimator": "LogisticRegression", "scale": True}],
        "cv": {"n_splits": 5, "n_repeats": 1, "random_state": 0},
        "metrics": ["accuracy"], "curves": {}})
    result = run_to_end(run_experiment(exp))
    return result.tables()["predictions.csv"], result.dataset


def test_r_text_row_names_name_the_rows_of_predictions(tmp_path):
    names = [f"car {i}" for i in range(N)]
    path, data = r_style(tmp_path, names)
    table, dataset = run_predictions({"csv": path, "target": "y"})
    assert dataset.ids.name == "Unnamed: 0" and list(dataset.X.columns) == ["x1", "x2"]
    assert len(table) == N - 1 and "car 3" not in set(table["id"])     # its class is missing
    kept = data.drop(index="car 3")
    assert list(table.sort_values("row")["id"]) == list(kept.index)
    assert list(table["true_class"]) == list(kept.loc[table["id"], "y"])


def test_r_number_row_names_of_a_subset_are_the_ids(tmp_path):
    names = list(range(3, 3 + 2 * N, 2))                 # R row names kept after subset()
    path, data = r_style(tmp_path, names)
    table, dataset = run_predictions({"file": path, "target": "y"})
    assert dataset.ids.name == "Unnamed: 0" and list(dataset.X.columns) == ["x1", "x2"]
    assert sorted(table["id"]) == [n for n in names if n != 9]
    assert list(table["true_class"]) == list(data.loc[table["id"], "y"])


def test_a_chosen_id_column_is_not_a_feature_and_names_the_rows(tmp_path):
    data = source()
    data.loc[[5, 17], "y"] = np.nan
    path = tmp_path / "s.csv"
    data.to_csv(path, index=False)
    assert "sample" in load_csv(str(path), target="y").X.columns     # a feature unless chosen
    table, dataset = run_predictions({"csv": str(path), "target": "y", "id_column": "sample"})
    assert list(dataset.X.columns) == ["x1", "x2"] and dataset.source["id_column"] == "sample"
    kept = data.drop(index=[5, 17]).set_index("sample")
    assert list(dataset.ids) == list(kept.index)
    assert list(table["true_class"]) == list(kept.loc[table["id"], "y"])
    assert table["id"].nunique() == N - 2


def test_without_an_id_the_ids_are_the_1_based_rows_of_the_file(tmp_path):
    data = source().drop(columns="sample")
    data.loc[[0, 9], "y"] = np.nan
    path = tmp_path / "plain.csv"
    data.to_csv(path, index=False)
    dataset = load_csv(str(path), target="y")
    assert dataset.ids.name == "row"
    assert list(dataset.ids) == [i + 1 for i in range(N) if i not in (0, 9)]


def test_csv_cells_of_ids_are_escaped_in_the_written_file(tmp_path):
    names = [f"car {i}" for i in range(N)]
    names[0] = "=HYPERLINK(1)"
    path, _ = r_style(tmp_path, names)
    exp = write_experiment(tmp_path / "exp.json", dataset={"csv": path, "target": "y"},
                           curves={"roc": False})
    done = run_main(exp, "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    written = pd.read_csv(tmp_path / "out" / "predictions.csv", keep_default_na=False)
    assert list(written.columns[:6]) == ["model", "repeat", "fold", "row", "id", "true_class"]
    assert "'=HYPERLINK(1)" in set(written["id"]) and "=HYPERLINK(1)" not in set(written["id"])
    assert set(written.loc[written["row"] == 5, "id"]) == {"car 6"}   # row 3 dropped


@pytest.mark.parametrize("spec, words", [
    ({"id_column": "y"}, "is the target"),
    ({"id_column": "sample", "features": ["sample"]}, 'also in "features"'),
    ({"id_column": "nope"}, "nope")])
def test_a_wrong_id_column_is_refused(tmp_path, spec, words):
    path = tmp_path / "s.csv"
    source().to_csv(path, index=False)
    with pytest.raises(ValueError, match=words):
        load_dataset({"csv": str(path), "target": "y", **spec})


def test_headless_wrong_id_column_is_one_error_line(tmp_path):
    path = tmp_path / "s.csv"
    source().to_csv(path, index=False)
    exp = write_experiment(tmp_path / "exp.json",
                           dataset={"file": str(path), "target": "y", "id_column": "y"})
    assert_one_error_line(run_main(exp, "--out", tmp_path / "out"), "is the target")


def test_schema_takes_id_column_for_files_only(tmp_path):
    exp = write_experiment(tmp_path / "exp.json",
                           dataset={"builtin": "iris", "id_column": "x"})
    assert_one_error_line(run_main(exp, "--out", tmp_path / "out"), "id_column")
    data = json.loads(write_experiment(tmp_path / "ok.json", dataset={
        "csv": "a.csv", "target": "y", "id_column": "sample"}).read_text())
    parsed = parse_experiment(data, base_dir=str(tmp_path))
    assert parsed.dataset["id_column"] == "sample"


# ----------------------------------------------------------------------------- Predict

def fitted_record(tmp_path, id_column=None):
    from sklearn.naive_bayes import GaussianNB

    data = source()
    path = tmp_path / "train.csv"
    data.to_csv(path, index=False)
    spec = {"csv": str(path), "target": "y"}
    if id_column:
        spec["id_column"] = id_column
    else:
        spec["exclude"] = ["sample"]
    dataset = load_dataset(spec)
    model = GaussianNB().fit(dataset.X.to_numpy(float), dataset.y)
    return model_record("nb", model, dataset)


def test_predict_takes_the_models_id_column_from_the_data_file(tmp_path):
    record = fitted_record(tmp_path, "sample")
    assert record["id_column"] == "sample"
    assert check_record(record, "m.skops", FORMAT) is record
    new = source(seed=1).drop(columns="y").iloc[::-1].reset_index(drop=True)
    table = predictions(record, new)
    assert list(table.columns[:3]) == ["row", "id", "predicted"]
    assert list(table["id"]) == list(new["sample"])
    assert list(table["row"]) == list(range(N))


def test_predict_falls_back_to_row_names_then_to_rows(tmp_path):
    record = fitted_record(tmp_path)
    assert "id_column" not in record and check_record(record, "m.skops", FORMAT) is record
    new = source(seed=2).drop(columns=["y", "sample"])
    named = new.set_axis([f"s{i}" for i in range(N)]).reset_index(names="Unnamed: 0")
    assert list(predictions(record, named)["id"]) == [f"s{i}" for i in range(N)]
    assert list(predictions(record, new)["id"]) == list(range(1, N + 1))
    ids = predict_ids(new.assign(sample=new.index + 100), "sample", ["x1", "x2"], "y")
    assert list(ids) == list(range(100, 100 + N))


@pytest.mark.parametrize("value", [3, None, "x" * 10_001])
def test_a_record_with_a_wrong_id_column_is_refused(tmp_path, value):
    record = {**fitted_record(tmp_path), "id_column": value}
    with pytest.raises(EngineError) as caught:
        check_record(record, "m.skops", FORMAT)
    assert caught.value.code == "model_record" and caught.value.fields["field"] == "id_column"


def test_dataset_ids_survive_naming_a_data_set(tmp_path):
    path, data = r_style(tmp_path, [f"p{i}" for i in range(N)])
    dataset = load_dataset({"name": "cars", "file": os.path.basename(path), "target": "y"},
                           base_dir=str(tmp_path))
    assert dataset.name == "cars" and list(dataset.ids) == list(data.drop(index="p3").index)


def test_a_record_with_an_id_column_round_trips_through_a_model_file(tmp_path):
    sio = peer("skops.io")
    model_path = tmp_path / "model_nb.skops"
    model_path.write_bytes(sio.dumps(fitted_record(tmp_path, "sample")))
    assert load_model(str(model_path))["id_column"] == "sample"
    new = source(seed=3).drop(columns="y")
    new.to_csv(tmp_path / "new.csv", index=False)
    predict_file(str(model_path), str(tmp_path / "new.csv"), str(tmp_path / "p.csv"))
    written = pd.read_csv(tmp_path / "p.csv")
    assert list(written.columns[:3]) == ["row", "id", "predicted"]
    assert list(written["id"]) == list(new["sample"])


def test_an_id_column_name_over_1000_characters_is_one_error_line(tmp_path):
    path = tmp_path / "s.csv"
    source().to_csv(path, index=False)
    exp = write_experiment(tmp_path / "exp.json",
                           dataset={"csv": str(path), "target": "y", "id_column": "x" * 1001})
    assert_one_error_line(run_main(exp, "--out", tmp_path / "out"), "dataset.id_column")
