"""Where the window's result store lives: beside a saved experiment, else per user."""
import os

from gui import store_location
from gui.store_location import store_path, user_store_folder


def test_unsaved_work_goes_to_the_user_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(store_location.ENVIRONMENT_VARIABLE, str(tmp_path / "stores"))
    assert user_store_folder() == str(tmp_path / "stores")
    assert store_path(None) == str(tmp_path / "stores" / "unsaved-work.store.sqlite")


def test_a_saved_experiment_keeps_its_store_beside_it(tmp_path):
    experiment = tmp_path / "kernels.json"
    experiment.write_text("{}")
    assert store_path(str(experiment)) == str(tmp_path / "kernels.store.sqlite")


def test_the_apps_own_examples_and_read_only_folders_go_to_the_user_folder(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv(store_location.ENVIRONMENT_VARIABLE, str(tmp_path / "stores"))
    example = os.path.join(store_location.RESOURCES, "examples", "svc_kernels_moons.json")
    first = store_path(example)
    assert os.path.dirname(first) == str(tmp_path / "stores")
    assert os.path.basename(first).startswith("svc_kernels_moons-")
    assert first == store_path(example)                       # the same file every time
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.json").write_text("{}")
    locked.chmod(0o555)
    try:
        if not os.access(locked, os.W_OK):                    # (root may write anyway)
            assert os.path.dirname(store_path(str(locked / "a.json"))) == \
                str(tmp_path / "stores")
    finally:
        locked.chmod(0o755)
