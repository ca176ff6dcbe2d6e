"""The Cross-validation tab's "Run on" choice: this computer (its parallel jobs) or a Dask
scheduler (``engine.evaluation.cluster``; needs the ``[cluster]`` extra). The address is checked on
the run check's worker thread (:func:`checked_on`); the run's child process connects
(:class:`engine.evaluation.cluster.OnCluster`)."""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QWidget

from engine.evaluation.cluster import ClusterSpec, OnCluster, check_cluster

THIS_COMPUTER, SCHEDULER = "This computer", "A Dask scheduler"


class RunOn(QWidget):
    """A combo box (this computer / a Dask scheduler) and the scheduler's address."""

    def __init__(self, jobs_box, parent=None):
        super().__init__(parent)
        self.jobs_box = jobs_box
        self.combo = QComboBox(self)
        self.combo.addItems([THIS_COMPUTER, SCHEDULER])
        self.combo.setToolTip("Where the fits run: this computer's cores, or the workers of a "
                              "Dask cluster (same numbers; every worker needs the same "
                              "honest-eval and scikit-learn)")
        self.address = QLineEdit(self)
        self.address.setPlaceholderText("tcp://HOST:8786")
        self.address.setToolTip("The Dask scheduler's address, as `dask scheduler` prints it")
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addRow("Run on", self.combo)
        layout.addRow("Scheduler", self.address)
        self.combo.currentIndexChanged.connect(lambda _: self.setEnabled(self.isEnabled()))
        self.setEnabled(True)

    def cluster(self) -> Optional[str]:
        """The scheduler's address, or None for this computer."""
        return self.address.text().strip() if self.combo.currentIndex() == 1 else None

    def setEnabled(self, enabled: bool) -> None:  # noqa: N802 - Qt's name
        super().setEnabled(enabled)
        remote = self.combo.currentIndex() == 1
        self.address.setEnabled(enabled and remote)
        self.jobs_box.setEnabled(enabled and not remote)


def checked_on(cluster: Optional[str], check: Callable) -> tuple:
    """On a worker thread: ``check()`` (the run check), then, with a scheduler address,
    the cluster reached and its workers checked (a ValueError says what to change)."""
    checked = check()
    if cluster is not None:
        if not cluster:
            raise ValueError("give the Dask scheduler's address (tcp://HOST:PORT, as "
                             "`dask scheduler` prints it), or run on this computer")
        # not local:N here: Cancel ends the run's process, which would orphan its workers
        if ClusterSpec.parse(cluster).address is None:
            raise ValueError("give a Dask scheduler's address (tcp://HOST:PORT); to run "
                             "on this computer, choose \"This computer\" and its parallel "
                             "jobs")
        check_cluster(cluster)
    return checked


def on_cluster(function, cluster: Optional[str]):
    """``function`` (a run), on the cluster ``cluster`` names when there is one."""
    if cluster is None:
        return function
    return OnCluster(function, cluster)
