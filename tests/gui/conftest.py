"""GUI test fixtures: offscreen Qt, and no test may leave a worker thread running."""
import threading

import pytest

pytest.importorskip("PySide6")


@pytest.fixture(autouse=True)
def no_threads_left_behind(qapp):
    from PySide6.QtCore import QThread

    before = set(threading.enumerate())
    yield
    qapp.processEvents()
    alive = [t for t in qapp.findChildren(QThread) if t.isRunning()]
    for thread in alive:
        thread.wait(5000)
    still = [t for t in alive if t.isRunning()]
    assert not still, f"worker threads left running: {still}"
    extra = [t for t in set(threading.enumerate()) - before
             if t.is_alive() and not t.daemon and t.name != "QueueFeederThread"]
    assert not extra, f"Python threads left running: {extra}"
