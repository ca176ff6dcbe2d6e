"""engine.foundation.atomic_write: the one atomic write. A failure at any point leaves the
old file as it was and no temporary file behind."""
import os
import stat

import pytest

from engine.foundation import atomic_write
from engine.foundation.atomic_write import (
    FILE_MODE,
    TEMPORARY_PREFIX,
    replaced_atomically,
    write_atomically,
    write_bytes_atomically,
)


class Crash(Exception):
    pass


def leftovers(folder):
    return [name for name in os.listdir(folder) if name.startswith(TEMPORARY_PREFIX)]


@pytest.fixture
def old(tmp_path):
    path = tmp_path / "experiment.json"
    path.write_text('{"old": true}\n', encoding="utf-8")
    return path


def test_a_write_replaces_the_file_whole_with_the_users_permissions(old):
    assert write_atomically(str(old), lambda stream: stream.write("new\nlines\n")) == str(old)
    assert old.read_bytes() == b"new\nlines\n"
    assert stat.S_IMODE(os.stat(old).st_mode) == FILE_MODE
    assert write_bytes_atomically(str(old), b"\x00\xff") == str(old)
    assert old.read_bytes() == b"\x00\xff" and not leftovers(old.parent)


def test_a_failure_mid_write_leaves_the_old_file_and_no_temporary_file(old):
    def write(stream):
        stream.write("half a fi")
        stream.flush()
        assert len(leftovers(old.parent)) == 1          # the half is in the temporary file
        raise Crash()

    with pytest.raises(Crash):
        write_atomically(str(old), write)
    assert old.read_text(encoding="utf-8") == '{"old": true}\n'
    assert not leftovers(old.parent)


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failing_flush_or_rename_leaves_the_old_file_and_no_temporary_file(old, monkeypatch,
                                                                           step):
    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_write.os, step, fail)
    with pytest.raises(OSError, match="No space"):
        write_atomically(str(old), lambda stream: stream.write("new"))
    monkeypatch.undo()
    assert old.read_text(encoding="utf-8") == '{"old": true}\n'
    assert not leftovers(old.parent)


def test_a_named_temporary_file_is_renamed_only_when_the_block_ends_normally(old, monkeypatch):
    with pytest.raises(Crash), replaced_atomically(str(old)) as temporary:
        assert os.path.dirname(temporary) == str(old.parent)
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write("half")
        raise Crash()
    assert old.read_text(encoding="utf-8") == '{"old": true}\n' and not leftovers(old.parent)
    monkeypatch.setattr(atomic_write.os, "replace", lambda *a: (_ for _ in ()).throw(OSError()))
    with pytest.raises(OSError), replaced_atomically(str(old)) as temporary:
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write("whole")
    monkeypatch.undo()
    assert old.read_text(encoding="utf-8") == '{"old": true}\n' and not leftovers(old.parent)
    with replaced_atomically(str(old)) as temporary:
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write("whole")
    assert old.read_text(encoding="utf-8") == "whole" and not leftovers(old.parent)
    assert stat.S_IMODE(os.stat(old).st_mode) == FILE_MODE


def test_the_folder_is_flushed_after_the_rename(tmp_path, monkeypatch):
    flushed = []
    monkeypatch.setattr(atomic_write, "fsync_folder", flushed.append)
    write_atomically(str(tmp_path / "sub" / "a.csv"), lambda stream: stream.write("x"))
    assert flushed == [str(tmp_path / "sub")]
    assert (tmp_path / "sub" / "a.csv").read_text(encoding="utf-8") == "x"
