"""The app collects Python's reference cycles on the GUI thread only (gui.app)."""
import gc
import threading

from gui import app as app_module


class Witness:
    """In a reference cycle; says on which thread the cycle collector freed it."""

    freed_on: list = []

    def __init__(self):
        self.me = self

    def __del__(self):
        Witness.freed_on.append(threading.current_thread().name)


def make_cyclic_garbage() -> None:
    """On a worker thread: garbage enough to trigger an automatic collection there."""
    Witness()
    for _ in range(2000):
        cycle = []
        cycle.append(cycle)


def test_cycles_made_on_a_worker_thread_are_collected_on_the_gui_thread(qtbot):
    Witness.freed_on.clear()
    collector = None
    try:
        collector = app_module.collect_garbage_on_gui_thread(interval_s=0.01)
        qtbot.wait(20)                   # the start-up freeze happens first
        assert not gc.isenabled()
        worker = threading.Thread(target=make_cyclic_garbage, name="worker")
        worker.start()
        worker.join()
        assert Witness.freed_on == []    # with automatic collection it would be ["worker"]
        qtbot.waitUntil(lambda: bool(Witness.freed_on), timeout=60000)
        assert Witness.freed_on == [threading.main_thread().name]
    finally:
        if collector is not None:
            collector.timer.stop()
        gc.unfreeze()
        gc.enable()
