"""Earlier runs: the runs kept in the experiment's result store, newest first.

Each row is one data set's run: when it started, the data, the models, the metric compared
on, its status as recorded when it happened ("complete", "cancelled after N of M fits",
"complete; resumed from run X": :func:`gui.store_runs.status_text`), and how many fits it
found in the store. A
complete run's results open again without any fit (:func:`gui.store_runs.open_results`,
on a worker thread: the fits are read back, ALOOCV and calibration computed again); a
stopped one resumes. The store is read on a worker thread, never on the GUI thread.
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from .. import store_runs
from ..jobs import Job, JobSlot
from ..plain_text import plain_label, plain_tip, warn
from ..table_panel import TablePanel

RESUME_TIP = ("Run the experiment again: the fits kept are reused, only the missing ones "
              "are computed")
OTHER_SETUP_TIP = ("This stopped run is not of the experiment as it is set up now (other "
                   "data, models, folds or metrics): set that up again to resume it")
EMPTY_TEXT = "No run of this experiment is kept yet: the runs you start appear here."


class RunsView(QWidget):
    """The Runs list with Open results and Resume.

    Parameters
    ----------
    state : AppState
    store_path : callable
        Returns the current store file (it follows the experiment's file).
    prepare : callable, optional
        Applied to every reopened data set's result (as a fresh run's is in its process).
    """

    loaded = Signal(object)            # a StoreSnapshot
    load_failed = Signal(str, object)  # the store's path, the error (why it cannot be read)
    resume_requested = Signal()
    opened = Signal(object)            # the result (or BenchmarkResult) shown

    def __init__(self, state, store_path: Callable, prepare=None, parent=None):
        super().__init__(parent)
        self.state, self.store_path, self.prepare = state, store_path, prepare
        self.snapshot: Optional[store_runs.StoreSnapshot] = None
        self._read_job, self._open_job = JobSlot(), JobSlot()
        self._again = False
        self._fingerprints: dict = {}
        #: The last run's id before a Run the window cancelled, until the next read
        #: records its runs as cancelled.
        self.cancelled_after: Optional[int] = None
        self.table = TablePanel("Runs kept in the result store", "runs.csv", self,
                                key_column="Run", digits=None)
        self.table.view.setSelectionMode(self.table.view.SelectionMode.SingleSelection)
        self.table.rows_selected.connect(lambda _keys: self._update_buttons())
        self.table.view.doubleClicked.connect(lambda _index: self.open_selected())
        self.where = plain_label("", self)
        self.where.setWordWrap(True)
        self.where.setStyleSheet("color: #555;")
        self.open_button = QPushButton("Open results", self)
        self.open_button.setToolTip("Show the selected run's results again, read from the "
                                    "store: no fit is computed")
        self.open_button.clicked.connect(self.open_selected)
        self.resume_button = QPushButton("Resume", self)
        self.resume_button.setToolTip(RESUME_TIP)
        self.resume_button.clicked.connect(self.resume_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.where, 1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.resume_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(300)
        self._timer.timeout.connect(self.refresh)
        self._update_buttons()

    # ------------------------------------------------------------------ reading
    def schedule_refresh(self) -> None:
        """Read the store again soon (many changes in a row read it once)."""
        self._timer.start()

    def refresh(self) -> None:
        """Read the store's runs (and the resume offer for the current setup) on a worker
        thread; ``loaded`` fires with them."""
        if self._read_job.running:
            self._again = True
            return
        path, setup, datasets = self.store_path(), self._setup(), list(self.state.datasets)
        fingerprints, after, self.cancelled_after = self._fingerprints, self.cancelled_after, None
        job = Job(lambda: store_runs.read_store(path, setup, datasets, fingerprints, after),
                  name="store-read")
        job.succeeded.connect(self._on_read)
        job.failed_with.connect(lambda _message, error: self._on_read_failed(path, error))
        self._read_job.start(job)

    def _setup(self) -> Optional[dict]:
        try:
            return self.state.experiment_setup() if self.state.dataset is not None else None
        except ValueError:
            return None

    def _on_read(self, snapshot) -> None:
        self._read_job.job.wait()
        self.snapshot = snapshot
        self.table.set_frame(store_runs.runs_frame(snapshot.runs))
        self.where.setText(f"Kept in {snapshot.path}" if snapshot.runs else EMPTY_TEXT)
        self.where.setToolTip(plain_tip(snapshot.path))
        self._update_buttons()
        self.loaded.emit(snapshot)
        self._read_again()

    def _on_read_failed(self, path: str, error) -> None:
        self._read_job.job.wait()
        self.snapshot = None
        self.table.set_frame(store_runs.runs_frame(()))
        self.where.setText(f"The result store {path} cannot be read.")
        self._update_buttons()
        self.load_failed.emit(path, error)
        self._read_again()

    def _read_again(self) -> None:
        if self._again:
            self._again = False
            self.refresh()

    # ------------------------------------------------------------------ selection
    def selected_run(self):
        keys = self._selected_keys()
        if not keys or self.snapshot is None:
            return None
        return next((run for run in self.snapshot.runs if run.id == int(keys[0])), None)

    def _selected_keys(self) -> list:
        frame = self.table.frame()
        rows = sorted({index.row() for index in self.table.view.selectionModel().selectedRows()})
        if "Run" not in frame.columns:
            return []
        return [int(frame["Run"].iloc[row]) for row in rows if row < len(frame)]

    def select_run(self, run_id: int) -> None:
        frame = self.table.frame()
        rows = [i for i, value in enumerate(frame["Run"]) if int(value) == run_id]
        if rows:
            self.table.view.selectRow(rows[0])
        self._update_buttons()

    def _update_buttons(self) -> None:
        run = self.selected_run()
        busy = self._open_job.running
        self.open_button.setEnabled(run is not None and run.complete and not busy)
        offer = self.snapshot.offer if self.snapshot is not None else None
        resumable = (run is not None and not run.complete and offer is not None
                     and run.id in offer.run_ids)
        self.resume_button.setEnabled(resumable and not busy)
        self.resume_button.setToolTip(
            RESUME_TIP if resumable or run is None or run.complete else OTHER_SETUP_TIP)

    # ------------------------------------------------------------------ opening
    def open_selected(self) -> None:
        """Rebuild the selected complete run's results (its whole batch for a run of several
        data sets) on a worker thread, then show them as a fresh run's."""
        run = self.selected_run()
        if run is None or not run.complete or self._open_job.running:
            return
        batch = store_runs.batch_of(self.snapshot.runs, run.id)
        ids = ([each.id for each in batch] if len(batch) > 1
               and all(each.complete for each in batch) else [run.id])
        path, datasets, prepare = self.snapshot.path, list(self.state.datasets), self.prepare
        job = Job(lambda: store_runs.open_results(path, ids, datasets, prepare),
                  name="store-open")
        job.succeeded.connect(self._on_opened)
        job.failed.connect(self._on_open_failed)
        self.where.setText(f"Reading run {run.id} from the store…")
        self._open_job.start(job)
        self._update_buttons()

    def _on_opened(self, result) -> None:
        self._open_job.job.wait()
        self._update_buttons()
        if hasattr(result, "results"):
            self.state.set_benchmark(result)
        else:
            self.state.set_result(result)
        self.where.setText("Opened from the store (no fit computed): see the Results tab.")
        self.state.status_message.emit("Earlier run opened; see the Results tab.")
        self.opened.emit(result)

    def _on_open_failed(self, message: str) -> None:
        self._open_job.job.wait()
        self._update_buttons()
        self.where.setText("The run could not be opened.")
        warn(self, "Cannot open the earlier run",
             f"{message[:1].upper()}{message[1:]}\n\nRun the experiment again "
             "to get its results.")

    @property
    def running(self) -> bool:
        return self._read_job.running or self._open_job.running

    def shutdown(self, msecs: int = 30000) -> bool:
        self._timer.stop()
        return self._read_job.wait(msecs) and self._open_job.wait(msecs)
