"""Issue 37: the models a run keeps are written when it ends (beside the result store, on
a worker thread), the Held-out view says where, and File → Predict proposes them."""
import os
import types

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt

from engine.runs.heldout.saved import load_model
from gui.kept_models import KeptModelsWriter, kept_for
from tests.gui.test_heldout_view import (  # noqa: F401
    FEATURES,
    choose_test_file,
    files,
    heldout_view,
    no_questions,
    opened,
)
from tests.gui.waiting import run_succeeds
from tests.peers import peer


def fake_result(files_, keep=True):
    """What the writer reads of a result: ``heldout.files`` and ``experiment.save_models``."""
    return types.SimpleNamespace(heldout=types.SimpleNamespace(files=files_),
                                 experiment=types.SimpleNamespace(save_models=keep))


def test_the_writer_records_where_and_predict_proposes_it(window, qtbot, tmp_path):
    files_ = {"model_a.skops": b"a", "model_b.skops": b"b", "models_README.txt": b"r"}
    writer = KeptModelsWriter(window.state, lambda: str(tmp_path / "exp.store.sqlite"))
    writer.write(fake_result(files_, keep=False))           # not kept: nothing written
    assert not writer.running and not (tmp_path / "exp.models").exists()
    with qtbot.waitSignal(window.state.kept_models_changed, timeout=30000) as changed:
        writer.write(fake_result(files_))
    record = changed.args[0]
    assert record.problem == "" and os.path.dirname(record.kept.folder) == \
        str(tmp_path / "exp.models")
    assert sorted(os.listdir(record.kept.folder)) == sorted(files_)
    assert kept_for(window.state, fake_result(files_)) is record
    assert kept_for(window.state, fake_result(dict(files_))) is None   # another run's
    dialog = window.open_predict_dialog()
    assert [dialog.kept_combo.itemText(i) for i in range(dialog.kept_combo.count())] == \
        ["model_a.skops", "model_b.skops"]
    assert dialog.model_row.path() == os.path.join(record.kept.folder, "model_a.skops")
    dialog.kept_combo.activated.emit(1)
    assert dialog.model_row.path() == os.path.join(record.kept.folder, "model_b.skops")
    dialog.model_row.edit.setText("/mine/model_x.skops")    # the user's choice stays
    dialog.propose_kept(record)
    assert dialog.model_row.path() == "/mine/model_x.skops"
    dialog.close()


def test_a_linked_models_folder_is_a_message_not_a_write(window, qtbot, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, tmp_path / "exp.models")
    writer = KeptModelsWriter(window.state, lambda: str(tmp_path / "exp.store.sqlite"))
    with qtbot.waitSignal(window.state.kept_models_changed, timeout=30000) as changed:
        writer.write(fake_result({"model_a.skops": b"a"}))
    assert changed.args[0].kept is None and "symbolic link" in changed.args[0].problem
    assert os.listdir(elsewhere) == []
    dialog = window.open_predict_dialog()
    assert dialog.kept_combo.count() == 0 and dialog.model_row.path() == ""
    dialog.close()


@pytest.mark.slow
def test_a_run_keeping_models_lets_predict_use_them_at_once(window, qtbot, monkeypatch,
                                                            files, no_questions):  # noqa: F811
    peer("skops")
    opened(window, qtbot, files / "exp.json")
    choose_test_file(window, qtbot, monkeypatch, files / "test.csv")
    qtbot.mouseClick(window.dataset_tab.heldout_box.save_check, Qt.LeftButton)
    assert window.state.save_models
    with (qtbot.waitSignal(window.state.kept_models_changed, timeout=300000),
          run_succeeds(qtbot, window.cv_tab)):
        window.cv_tab.start_run()
    record = window.state.kept_models
    assert record.problem == "" and record.kept.folder.startswith(str(files / "exp.models"))
    assert sorted(os.listdir(record.kept.folder)) == [
        "model_logistic.skops", "model_nb.skops", "models_README.txt"]
    assert not (files / "out").exists()                     # no Export was needed
    view = heldout_view(window)
    qtbot.waitUntil(lambda: view.kept_label.isVisibleTo(view), timeout=10000)
    assert record.kept.folder in view.kept_label.text() and "Kept 2" in view.kept_label.text()
    dialog = window.open_predict_dialog()
    assert dialog.kept_combo.count() == 2
    logistic = os.path.join(record.kept.folder, "model_logistic.skops")
    dialog.kept_combo.activated.emit(dialog.kept_combo.findData(logistic))
    assert dialog.model_row.path() == logistic
    dialog.data_row.edit.setText(str(files / "test.csv"))
    with qtbot.waitSignal(dialog.predicted, timeout=60000):
        qtbot.mouseClick(dialog.predict_button, Qt.LeftButton)
    written = pd.read_csv(files / "test_predictions.csv", float_precision="round_trip")
    X = pd.read_csv(files / "test.csv")[FEATURES].to_numpy(float)
    np.testing.assert_array_equal(written[["p_benign", "p_malignant"]].to_numpy(),
                                  window.state.result.heldout.models["logistic"]
                                  .predict_proba(X))
    assert len(written) == 319 and "Wrote 319 predictions" in dialog.message.text()
    assert load_model(logistic)["name"] == "logistic"
    dialog.close()


def test_unsaved_work_keeps_its_models_in_the_users_store_folder(window, tmp_path):
    """Never a new folder beside the data: unsaved work's store is in the per-user folder
    (the tests' ``HONEST_EVAL_STORE_DIR``), and its models beside it."""
    from engine.output.kept_models import models_root
    from gui.store_location import UNSAVED_NAME, user_store_folder

    store = window.kept_models.store_file()
    assert store == os.path.join(user_store_folder(), UNSAVED_NAME)
    assert models_root(store) == os.path.join(user_store_folder(), "unsaved-work.models")
