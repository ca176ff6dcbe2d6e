"""The app's file jobs and special files (issue 31): a FIFO or ``/dev/zero`` given to the
Dataset tab or to Open experiment gives a message instead of a blocked job, and the next
file opens normally; a read that hangs does not block the next Open experiment."""
import os
import threading

import pytest

pytestmark = pytest.mark.skipif(not (hasattr(os, "mkfifo") and os.path.exists("/dev/zero")),
                                reason="POSIX special files")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.csv"
    os.mkfifo(path)
    return str(path)


def write_csv(path):
    rows = ["x1,x2,label"] + [f"{i % 7},{(i * 3) % 5},{'a' if i % 3 else 'b'}" for i in range(60)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_dataset_tab_refuses_special_files_then_opens_the_next(window, qtbot, warnings_shown,
                                                               fifo, special, tmp_path):
    tab = window.dataset_tab
    path = fifo if special == "fifo" else special
    tab.open_file(path)
    qtbot.waitUntil(lambda: len(warnings_shown) == 1, timeout=20000)
    title, text = warnings_shown[0]
    kind = "a named pipe (FIFO)" if special == "fifo" else "a character device"
    assert title == "Cannot use this data" and text.startswith(f"Cannot open {path}: it is {kind}")
    good = write_csv(tmp_path / "good.csv")
    with qtbot.waitSignal(tab.view_ready, timeout=20000):
        tab.open_file(good)
    assert tab.state.dataset.n_rows == 60 and list(tab.state.dataset.classes) == ["a", "b"]
    assert len(warnings_shown) == 1


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_open_experiment_refuses_special_files_then_opens_the_next(window, qtbot,
                                                                    warnings_shown, fifo,
                                                                    special):
    path = fifo if special == "fifo" else special
    window.open_experiment(path)
    qtbot.waitUntil(lambda: len(warnings_shown) == 1, timeout=20000)
    title, text = warnings_shown[0]
    kind = "a named pipe (FIFO)" if special == "fifo" else "a character device"
    assert title == "Cannot open the experiment"
    assert text.startswith(f"Cannot open {path}: it is {kind}, not an experiment file")
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=30000):
        window.open_experiment(SEED)
    assert window.state.experiment_path == SEED and window.state.dataset.n_rows > 0


def test_a_read_that_hangs_does_not_block_the_next(window, qtbot, monkeypatch, warnings_shown):
    """Opening another experiment stops waiting for a read that hangs (a slow network
    folder); what the abandoned read still returns is ignored."""
    import gui.main_window as main_window

    real, release, started = main_window.load_experiment_and_data, threading.Event(), []

    def load(path):
        if path == "hangs.json":
            started.append(path)
            release.wait(60)
            raise ValueError("the abandoned read ends")
        return real(path)

    monkeypatch.setattr(main_window, "load_experiment_and_data", load)
    window.open_experiment("hangs.json")
    qtbot.waitUntil(lambda: started == ["hangs.json"], timeout=10000)
    try:
        with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                               timeout=30000):
            window.open_experiment(SEED)
        assert window.state.experiment_path == SEED
    finally:
        release.set()
    qtbot.wait(200)
    assert warnings_shown == [] and window.state.experiment_path == SEED


def test_a_data_read_that_hangs_does_not_block_the_next_file(window, qtbot, monkeypatch,
                                                             warnings_shown, tmp_path):
    import gui.tabs.dataset_tab as dataset_tab

    real, release, started = dataset_tab.file_dataset, threading.Event(), []

    def read(source, name=None, cached=None, **options):
        if source.get("csv", "").endswith("hangs.csv"):
            started.append(source["csv"])
            release.wait(60)
            raise ValueError("the abandoned read ends")
        return real(source, name, cached, **options)

    monkeypatch.setattr(dataset_tab, "file_dataset", read)
    tab = window.dataset_tab
    tab.open_file(str(tmp_path / "hangs.csv"))
    qtbot.waitUntil(lambda: len(started) == 1, timeout=10000)
    good = write_csv(tmp_path / "good.csv")
    try:
        with qtbot.waitSignal(tab.view_ready, timeout=20000):
            tab.open_file(good)
        assert tab.state.dataset.n_rows == 60
    finally:
        release.set()
    qtbot.wait(200)
    assert warnings_shown == [] and tab.state.dataset.n_rows == 60
