"""The Dataset tab's scatter plot starts on the two features that best separate the
classes (scikit-learn's f_classif), never on a row-number or id column."""
import os

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import f_classif

from gui.plots.scatter_axes import identifier_like, informative_pair

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PENGUINS = os.path.join(ROOT, "tests", "data", "penguins.csv")


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def r_export(tmp_path):
    """The penguins sorted by species, written as R's write.csv writes them: a quoted,
    unnamed row-number column first, plus a numeric id; the species last (the column the
    app predicts when none is named)."""
    frame = pd.read_csv(PENGUINS).sort_values("species", kind="stable").reset_index(drop=True)
    frame = frame[[c for c in frame.columns if c != "species"] + ["species"]]
    frame.insert(0, "penguin_id", np.arange(1001, 1001 + len(frame)))
    frame.index = np.arange(1, len(frame) + 1).astype(str)
    path = tmp_path / "penguins_r.csv"
    frame.to_csv(path, index=True, index_label="", quoting=1)
    return path, frame


def expected_pair(frame):
    """The two numeric non-id columns with the largest F, computed here independently."""
    numeric = frame.drop(columns=["species", "penguin_id", "year"]).select_dtypes("number")
    numeric = numeric.fillna(numeric.mean())
    scores, _ = f_classif(numeric.to_numpy(), pd.factorize(frame["species"])[0])
    return list(numeric.columns[np.argsort(-scores)[:2]])


def test_identifiers_are_never_chosen():
    assert identifier_like(pd.Series([3, 1, 2, 7]))
    assert not identifier_like(pd.Series([1.5, 2.5, 3.5]))
    assert not identifier_like(pd.Series([1, 1, 2]))
    frame = pd.DataFrame({"row": np.arange(6), "x": [0, 0.1, 0.2, 5, 5.1, 5.2],
                          "noise": [1, 3, 2, 2, 1, 3.5]})
    assert informative_pair(frame, np.array([0, 0, 0, 1, 1, 1])) == ["x", "noise"]


def test_the_scatter_starts_on_the_two_best_features(window, qtbot, tmp_path):
    path, frame = r_export(tmp_path)
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=20000):
        window.dataset_tab.open_file(str(path))
    tab = window.dataset_tab
    chosen = [tab.x_combo.currentText(), tab.y_combo.currentText()]
    assert chosen == expected_pair(frame)
    assert not {"penguin_id", "rownames", "", "Unnamed: 0"} & set(chosen)
    assert tab.scatter_plot.points_shown() > 300
