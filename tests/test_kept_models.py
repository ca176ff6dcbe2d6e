"""Kept models written beside the result store when a run ends (issue 37):
engine.output.kept_models."""
import os
from datetime import datetime

import pytest

from engine.foundation.errors import EngineError
from engine.output.kept_models import (
    KEEP_RUNS,
    models_root,
    prune_runs,
    run_folders,
    write_kept_models,
)

FILES = {"model_nb.skops": b"nb-bytes", "model_lr.skops": b"lr-bytes",
         "models_README.txt": b"read me\n"}
NOON = datetime(2026, 11, 27, 12, 0, 0)


def test_the_root_is_beside_the_store():
    assert models_root("/a/b/exp.store.sqlite") == "/a/b/exp.models"
    assert models_root("/a/b/unsaved-work.store.sqlite") == "/a/b/unsaved-work.models"


def test_the_files_go_into_a_new_run_folder(tmp_path):
    root = str(tmp_path / "exp.models")
    kept = write_kept_models(FILES, root, now=NOON)
    assert kept.folder == os.path.join(root, "run-20261127-120000")
    assert sorted(os.listdir(kept.folder)) == sorted(FILES)
    assert (tmp_path / "exp.models" / "run-20261127-120000" / "model_nb.skops").read_bytes() \
        == b"nb-bytes"
    assert kept.models == (os.path.join(kept.folder, "model_lr.skops"),
                           os.path.join(kept.folder, "model_nb.skops"))
    again = write_kept_models(FILES, root, now=NOON)          # the same second: a new folder
    assert again.folder == kept.folder + "-2"
    assert os.listdir(kept.folder) and os.listdir(again.folder)


def test_a_name_the_app_does_not_write_is_refused_before_anything(tmp_path):
    with pytest.raises(EngineError) as raised:
        write_kept_models({"../evil.skops": b"x", **FILES}, str(tmp_path / "m"), now=NOON)
    assert raised.value.code == "kept_models_name"
    assert not (tmp_path / "m").exists() and not (tmp_path / "evil.skops").exists()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_linked_models_folder_is_never_written_through(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, tmp_path / "exp.models")
    with pytest.raises(EngineError) as raised:
        write_kept_models(FILES, str(tmp_path / "exp.models"), now=NOON)
    assert raised.value.code == "kept_models_folder"
    assert "symbolic link" in str(raised.value)
    assert os.listdir(elsewhere) == []


def test_a_file_in_place_of_the_folder_is_refused(tmp_path):
    (tmp_path / "exp.models").write_text("mine")
    with pytest.raises(EngineError) as raised:
        write_kept_models(FILES, str(tmp_path / "exp.models"), now=NOON)
    assert raised.value.code == "kept_models_folder"
    assert (tmp_path / "exp.models").read_text() == "mine"


def test_only_the_last_runs_are_kept_and_only_the_apps_folders_removed(tmp_path):
    root = tmp_path / "exp.models"
    for minute in range(KEEP_RUNS):
        write_kept_models(FILES, str(root), now=NOON.replace(minute=minute))
    theirs = root / "run-20261127-115900"             # the oldest, with a file of the user
    theirs.mkdir()
    (theirs / "notes.txt").write_text("mine")
    kept = write_kept_models(FILES, str(root), now=NOON.replace(minute=30))
    assert kept.removed == (str(root / "run-20261127-120000"),)
    names = [os.path.basename(path) for path in run_folders(str(root))]
    assert names == ["run-20261127-115900", "run-20261127-120100", "run-20261127-120200",
                     "run-20261127-120300", "run-20261127-120400", "run-20261127-123000"]
    assert (theirs / "notes.txt").read_text() == "mine"
    assert prune_runs(str(root)) == []                # the user's folder stays
