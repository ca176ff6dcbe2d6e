"""Where the window's thread spends a stall: a watchdog thread samples its stack.

Used by ``bench_gui_responsiveness.py --sample``: every 5 ms a daemon thread reads the
window thread's frame (``sys._current_frames``); while the stall meter's last tick is
older than 30 ms, the innermost frames of the stack are counted. At the end the most
frequent stacks are printed (each sample is ~5 ms of the stall).
"""
from __future__ import annotations

import collections
import sys
import threading
import time
import traceback


class StallSampler:
    """Count the window thread's stacks while it has not ticked for ``late_s``."""

    def __init__(self, meter, late_s: float = 0.03, depth: int = 14):
        self.meter, self.late_s, self.depth = meter, late_s, depth
        self.target = threading.get_ident()
        self.counts: collections.Counter = collections.Counter()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()

    def watch(self) -> None:
        while not self.stopping.wait(0.005):
            last = self.meter.last_tick
            if last is None or time.perf_counter() - last < self.late_s:
                continue
            frame = sys._current_frames().get(self.target)
            if frame is not None:
                self.counts[self.stack_of(frame)] += 1

    def stack_of(self, frame) -> tuple:
        summary = traceback.extract_stack(frame)[-self.depth:]
        return tuple(f"{each.filename.rsplit('/', 2)[-2:][-1]}:{each.lineno} {each.name}"
                     for each in summary)

    def report(self, top: int = 8) -> None:
        for stack, count in self.counts.most_common(top):
            print(f"  {count} samples (~{5 * count} ms):")
            for line in stack:
                print(f"      {line}")
