"""Write a run's kept final models ("Keep the final models") when the run ends.

The run makes the model files in its child process (``HeldoutResult.files``); when it
ends, :class:`KeptModelsWriter` writes them on a worker thread into a new run folder beside
the experiment's result store (:func:`engine.output.kept_models.write_kept_models`), and
records where in the state (:meth:`gui.state.AppState.set_kept_models`): the Held-out view
says where they are and File → Predict proposes them. Export still writes them into the
result folder.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject

from engine.output.kept_models import KeptModels, models_root, write_kept_models

from .jobs import Job, JobSlot


@dataclass(frozen=True)
class KeptRecord:
    """Where the models of one run went, or why they did not.

    Attributes
    ----------
    files : dict
        The run's ``HeldoutResult.files`` (the very object: :func:`kept_for` finds the
        record of a result by it, also after the result was replaced by a copy).
    kept : KeptModels or None
        Where they were written (None when writing failed).
    problem : str
        Why they were not written ("" when they were).
    """

    files: dict
    kept: KeptModels | None = None
    problem: str = ""


def run_files(result) -> dict:
    """The model files a finished run keeps: its held-out ``files`` when the experiment
    keeps the final models, else empty (a run over several data sets keeps none)."""
    heldout = getattr(result, "heldout", None)
    experiment = getattr(result, "experiment", None)
    if heldout is None or not getattr(experiment, "save_models", False):
        return {}
    return heldout.files


def kept_for(state, result) -> KeptRecord | None:
    """The state's record of ``result``'s kept models (None: not that run's, or none)."""
    record = state.kept_models
    heldout = getattr(result, "heldout", None)
    if record is None or heldout is None or heldout.files is not record.files:
        return None
    return record


class KeptModelsWriter(QObject):
    """Writes a finished run's kept models on a worker thread.

    Parameters
    ----------
    state : AppState
        Told where the models went (:meth:`AppState.set_kept_models`).
    store_file : callable
        The result store file of the run that ended (its folder holds the models).
    """

    def __init__(self, state, store_file: Callable[[], str], parent=None):
        super().__init__(parent)
        self.state, self.store_file = state, store_file
        self._job = JobSlot()
        self._files: dict = {}

    def write(self, result) -> None:
        """Write ``result``'s kept models (nothing when the run keeps none)."""
        files = run_files(result)
        if not files:
            return
        if self._job.running:
            self._job.job.wait()              # the previous run's files: a short write
        root = models_root(self.store_file())
        self._files = files
        job = Job(lambda: write_kept_models(dict(files), root), name="keep-models")
        job.succeeded.connect(self._on_written)         # slots of this object: on the
        job.failed.connect(self._on_failed)             # GUI thread
        self._job.start(job)

    def _on_written(self, kept) -> None:
        self._done(KeptRecord(self._files, kept))

    def _on_failed(self, message: str) -> None:
        self._done(KeptRecord(self._files, problem=message))

    def _done(self, record: KeptRecord) -> None:
        self.state.set_kept_models(record)
        if record.kept is not None:
            self.state.status_message.emit(
                f"Kept {len(record.kept.models)} model file(s) in {record.kept.folder}")
        else:
            self.state.status_message.emit(f"The models were not kept: {record.problem}")

    @property
    def running(self) -> bool:
        return self._job.running

    def wait(self, msecs: int = 30000) -> bool:
        """Wait for a write under way (on quit); True when none is left."""
        if self._job.running:
            return self._job.job.wait(msecs)
        return True
