"""The app's experiment save and its copy of a result store go through the engine's one
atomic write: a failure leaves the old file as it was and no temporary file behind."""
import os

import pytest

from engine.foundation import atomic_write
from engine.foundation.atomic_write import TEMPORARY_PREFIX
from gui.main_window import write_text_file
from gui.store_runs import copy_store, open_store


def no_leftovers(folder):
    return not [name for name in os.listdir(folder) if ".tmp" in name or
                name.startswith(TEMPORARY_PREFIX)]


def failing_replace(*args):
    raise OSError(28, "No space left on device")


def test_the_experiment_save_keeps_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    path = tmp_path / "exp.json"
    assert write_text_file(str(path), '{"v": 1}\n') == str(path)
    assert path.read_bytes() == b'{"v": 1}\n'
    monkeypatch.setattr(atomic_write.os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space"):
        write_text_file(str(path), '{"v": 2}\n')
    assert path.read_bytes() == b'{"v": 1}\n' and no_leftovers(tmp_path)


def test_the_store_copy_is_whole_or_absent(tmp_path, monkeypatch):
    source, target = str(tmp_path / "a.store.sqlite"), str(tmp_path / "b.store.sqlite")
    open_store(source).close()
    monkeypatch.setattr(atomic_write.os, "replace", failing_replace)
    assert copy_store(source, target) is False
    assert not os.path.exists(target) and no_leftovers(tmp_path)
    monkeypatch.undo()
    assert copy_store(source, target) is True
    open_store(target).close()                                   # a store the app accepts
    assert no_leftovers(tmp_path)
