"""How responsive the GUI stays while cross-validating and when the results arrive, and
how fast Cancel takes effect.

    python tests/benchmarks/bench_gui_responsiveness.py [--quick] [--jobs N]

Opens the main window offscreen (1280 x 800) and runs three experiments:

* breast cancer with the preset "Six common classifiers";
* the seed example (SVC kernels on the moons data, resources/examples/svc_kernels_moons.json);
* breast cancer with 20 models (logistic regressions over 20 values of C).

Each runs a 10 x 10-fold CV (--quick: the seed example keeps 10 x 10, the others 5 x 2). A
QTimer fires every 5 ms on the GUI thread; the longest gap between two ticks is the longest
event-loop stall (target: < 50 ms), measured from pressing Run until every view of the
Results tab shows the new results (the render queue is idle and the last paint is done).
A last run of the six models is cancelled after a few folds; the time from Cancel to
idle (no thread running, Run enabled) is compared with the median fold fit time (target:
below one fold's time).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.app import collect_garbage_on_gui_thread, make_application  # noqa: E402  (PySide6 first)

from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402

PRESET = "Six common classifiers"
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
TWENTY_MODELS = [{"name": f"logistic C={10 ** (i / 5 - 2):.3g}", "estimator": "LogisticRegression",
                  "scale": True, "params": {"C": 10 ** (i / 5 - 2), "max_iter": 1000}}
                 for i in range(20)]
SETTLE_S = 0.3   # after the render queue is idle: the last paints


class StallMeter:
    """Longest gap between ticks of a 5 ms timer on the GUI thread."""

    def __init__(self, interval_ms: int = 5):
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.tick)
        self.gaps: list = []
        self.after: list = []
        self.while_running = None
        self.last_tick = None

    def start(self) -> None:
        self.gaps, self.after, self.last_tick = [], [], time.perf_counter()
        self.started, self.longest_at = self.last_tick, 0.0
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def tick(self) -> None:
        now = time.perf_counter()
        gap = now - self.last_tick
        if gap > max(self.gaps + self.after, default=0.0):
            self.longest_at = self.last_tick - self.started   # when the longest stall began
        (self.gaps if self.counting() else self.after).append(gap)
        self.last_tick = now

    def counting(self) -> bool:
        """Gaps count while folds are still running (``while_running``), or always."""
        return self.while_running is None or self.while_running()

    def report(self) -> dict:
        gaps = sorted(self.gaps) or [0.0]
        return {"max_ms": 1000 * gaps[-1], "p99_ms": 1000 * gaps[int(0.99 * (len(gaps) - 1))],
                "over_50ms": sum(g > 0.05 for g in gaps), "ticks": len(gaps),
                "arrival_ms": 1000 * max(self.after, default=0.0),
                "longest_at_s": self.longest_at}


def wait_for(signal, timeout_s: float) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    signal.disconnect(loop.quit)


def wait_until(condition, timeout_s: float) -> None:
    loop = QEventLoop()
    timer = QTimer()
    timer.timeout.connect(lambda: condition() and loop.quit())
    timer.start(5)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    timer.stop()


def open_window(settings_path: str):
    from gui.main_window import MainWindow

    window = MainWindow(settings=QSettings(settings_path, QSettings.IniFormat))
    window.resize(1280, 800)
    window.show()
    collect_garbage_on_gui_thread()           # as gui.app.main does
    return window


def load_breast_cancer(window, models=None) -> None:
    tab = window.dataset_tab
    tab.load_builtin("breast_cancer")
    wait_for(tab.view_ready, 30)
    if models is None:
        window.models_tab.apply_preset(PRESET)
    else:
        window.state.set_model_entries(models)


def load_seed(window) -> None:
    window.open_experiment(SEED)
    wait_for(window.experiment_loaded, 30)
    wait_until(lambda: window.state.dataset is not None, 30)


def timed_run(window, folds: int, repeats: int, n_jobs: int) -> tuple:
    """Run, measuring stalls from pressing Run until every results view is drawn."""
    cv = window.cv_tab
    cv.folds_box.setValue(folds)
    cv.repeats_box.setValue(repeats)
    cv.jobs_box.setValue(n_jobs)
    window.tabs.setCurrentWidget(cv)
    pause(SETTLE_S)           # the tab is on screen before Run is pressed, as for a user
    meter = StallMeter()
    meter.while_running = lambda: cv.running
    started = time.perf_counter()
    meter.start()
    cv.run_button.click()
    wait_for(cv.run_succeeded, 3600)
    seconds = time.perf_counter() - started
    wait_until(lambda: not window.state.renderer.busy, 60)
    pause(SETTLE_S)
    meter.stop()
    return seconds, meter.report()


def pause(seconds: float) -> None:
    """Let the event loop run for ``seconds``."""
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def cancel_timing(window, n_jobs: int) -> float:
    cv = window.cv_tab
    cv.folds_box.setValue(10)
    cv.repeats_box.setValue(10)
    cv.jobs_box.setValue(n_jobs)
    window.tabs.setCurrentWidget(cv)
    cv.start_run()
    wait_until(lambda: cv.progress_bar.value() >= 15, 120)
    clicked = time.perf_counter()
    cv.cancel_button.click()
    wait_until(lambda: not cv.running and cv.run_button.isEnabled(), 120)
    return time.perf_counter() - clicked


def fold_fit_times(result):
    fits = result.cv.scores.drop_duplicates(["model", "repeat", "fold"])
    return fits["fit_seconds"].dropna(), fits


def report(title: str, seconds: float, stalls: dict, n_fits: int) -> None:
    print(title)
    print(f"  run time                       {seconds:8.2f} s ({n_fits} fits)")
    print(f"  longest stall while running    {stalls['max_ms']:8.1f} ms (target < 50 ms; "
          f"99th percentile {stalls['p99_ms']:.1f} ms, {stalls['over_50ms']} of "
          f"{stalls['ticks']} ticks over 50 ms; the longest began "
          f"{stalls['longest_at_s']:.2f} s after Run)")
    print(f"  longest stall as results arrive{stalls['arrival_ms']:8.1f} ms (target < 50 ms: "
          "from the last fold until every view is drawn)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="5 folds x 2 repeats (the seed example keeps 10 x 10)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel jobs (default 1)")
    parser.add_argument("--only", choices=["seed", "twenty"],
                        help="only this run (seed example, or 20 models), no cancel timing")
    args = parser.parse_args(argv)
    app = make_application([])
    folds, repeats = (5, 2) if args.quick else (10, 10)
    with tempfile.TemporaryDirectory() as folder:
        window = open_window(os.path.join(folder, "settings.ini"))
        if args.only in (None, "seed"):
            load_seed(window)
            seconds, stalls = timed_run(window, 10, 10, args.jobs)
            report("seed example: SVC kernels on moons, 4 models, 10 folds x 10 repeats",
                   seconds, stalls, len(fold_fit_times(window.state.result)[0]))
        if args.only in (None, "twenty"):
            load_breast_cancer(window, TWENTY_MODELS)
            seconds, stalls = timed_run(window, folds, repeats, args.jobs)
            report(f"breast cancer, 20 logistic regressions, {folds} folds x {repeats} "
                   "repeats", seconds, stalls, len(fold_fit_times(window.state.result)[0]))
        if args.only is not None:
            window.shutdown()
            window.deleteLater()
            app.processEvents()
            return 0
        load_breast_cancer(window)
        seconds, stalls = timed_run(window, folds, repeats, args.jobs)
        fits, table = fold_fit_times(window.state.result)
        report(f"breast cancer, {PRESET}, {folds} folds x {repeats} repeats",
               seconds, stalls, len(fits))
        per_model = fits.groupby(table["model"]).median()
        cancel_seconds = cancel_timing(window, args.jobs)
        window.shutdown()          # no "unsaved changes?" question in a benchmark
        window.deleteLater()
    app.processEvents()
    print(f"cancel (n_jobs={args.jobs})")
    print(f"  Cancel -> idle                 {1000 * cancel_seconds:8.1f} ms")
    print(f"  median fold fit time           {1000 * statistics.median(fits):8.1f} ms (target: "
          "Cancel below one fold's time)")
    print("  median fit per model (ms):     " + ", ".join(f"{m} {1000 * v:.0f}"
                                                        for m, v in per_model.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
