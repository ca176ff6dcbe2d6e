"""File → Predict (issue 37): "Write to" follows the data field until the user edits it,
is never proposed at the filesystem's root, and a missing folder is made only when the
user says yes."""
import os

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from sklearn.naive_bayes import GaussianNB

from engine.input.data import dataset_from_frame
from engine.runs.heldout.saved import model_record
from gui.predicting import PredictDialog, predictions_path
from tests.peers import peer


@pytest.fixture
def dialog(qtbot):
    shown = PredictDialog()
    qtbot.addWidget(shown)
    return shown


def type_into(qtbot, edit, text: str) -> None:
    qtbot.keyClicks(edit, text)


def test_typing_a_data_path_never_proposes_the_root_and_follows_it(dialog, qtbot):
    out = dialog.out_row.edit
    type_into(qtbot, dialog.data_row.edit, "/")
    assert out.text() == ""
    type_into(qtbot, dialog.data_row.edit, "data.csv")
    assert out.text() == ""                           # a data file at the root: nothing
    dialog.data_row.edit.clear()
    type_into(qtbot, dialog.data_row.edit, "/home/ann/new.csv")
    assert out.text() == os.path.join("/home/ann", "new_predictions.csv")
    qtbot.keyClick(dialog.data_row.edit, Qt.Key_Backspace)
    assert out.text() == os.path.join("/home/ann", "new_predictions.csv")   # "new.cs"
    type_into(qtbot, dialog.data_row.edit, "v2")
    assert out.text() == os.path.join("/home/ann", "new_predictions.csv")   # "new.csv2"
    dialog.data_row.edit.setText("/home/ann/rows.xlsx")
    assert out.text() == os.path.join("/home/ann", "rows_predictions.csv")


def test_once_edited_write_to_stays_as_the_user_left_it(dialog, qtbot):
    dialog.data_row.edit.setText("/home/ann/new.csv")
    dialog.out_row.edit.clear()
    type_into(qtbot, dialog.out_row.edit, "/home/ann/mine.csv")
    dialog.data_row.edit.setText("/home/bob/other.csv")
    assert dialog.out_row.path() == "/home/ann/mine.csv"


def test_a_file_chosen_for_write_to_stays(dialog, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("/x/chosen.csv", ""))
    dialog.data_row.edit.setText("/home/ann/new.csv")
    dialog.out_row.button.click()
    dialog.data_row.edit.setText("/home/bob/other.csv")
    assert dialog.out_row.path() == "/x/chosen.csv"


@pytest.mark.parametrize("data, proposed", [
    ("", ""), ("/", ""), ("/data.csv", ""), ("data.csv", ""), ("/a/", ""),
    ("/a/b.c.csv", "/a/b.c_predictions.csv")])
def test_the_proposal(data, proposed):
    assert predictions_path(data) == proposed


@pytest.fixture
def saved(tmp_path):
    peer("skops")
    import skops.io as sio

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=40), "b": rng.normal(size=40)})
    frame["t"] = np.where(frame.a > 0, "yes", "no")
    train = dataset_from_frame(frame, "t")
    model = GaussianNB().fit(train.X.to_numpy(float), train.y)
    (tmp_path / "model_nb.skops").write_bytes(sio.dumps(model_record("nb", model, train)))
    frame.drop(columns="t").to_csv(tmp_path / "new.csv", index=False)
    return tmp_path


def test_a_missing_folder_is_not_made_when_the_user_says_no(dialog, saved):
    asked = []
    dialog.ask_folder = lambda folder: asked.append(folder) or False
    out = saved / "new" / "deeper" / "p.csv"
    dialog.set_paths(str(saved / "model_nb.skops"), str(saved / "new.csv"), str(out))
    dialog.start()
    assert asked == [str(saved / "new" / "deeper")]
    assert not (saved / "new").exists() and not dialog.running()
    assert "does not exist" in dialog.message.text()


def test_a_missing_folder_is_made_when_the_user_says_yes(dialog, qtbot, saved):
    dialog.ask_folder = lambda folder: True
    out = saved / "new" / "p.csv"
    dialog.set_paths(str(saved / "model_nb.skops"), str(saved / "new.csv"), str(out))
    with qtbot.waitSignal(dialog.predicted, timeout=60000):
        dialog.start()
    assert len(pd.read_csv(out)) == 40
    assert "Wrote 40 predictions" in dialog.message.text()
    dialog.close()


def test_a_refusal_is_shown_in_the_dialog(dialog, qtbot, saved):
    dialog.set_paths(str(saved / "model_nb.skops"), str(saved / "new.csv"),
                     str(saved / "new.csv"))
    dialog.start()
    qtbot.waitUntil(lambda: "Could not predict" in dialog.message.text(), timeout=60000)
    assert "it is the data file" in dialog.message.text()
    assert pd.read_csv(saved / "new.csv").shape == (40, 2)
    dialog.close()
