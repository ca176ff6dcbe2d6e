"""The budget's answer for a job on a run's result (calibration, ALOOCV), as the Run
gives it: a refused job is a warning, a large one asks first; and a failed job's
error as a dialog.

The check itself is the engine's (:func:`engine.run_service.check_calibration`,
:func:`engine.run_service.check_aloocv`); nothing here reads the engine's words: a
refusal and an error are shown as they are, in plain text.
"""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from engine import run_service
from engine.foundation.errors import error_code
from engine.runs import guards

from .jobs import Job, sentence
from .plain_text import ask, warn

#: What to do after a coded error of a job on a run's result, by code.
AFTER = {"calibration_models_missing": "Run the cross-validation again, then calibrate.",
         "calibration_result_mismatch": "Run the cross-validation again, then calibrate.",
         "calibration_inner_too_few": "Change the folds on the Cross-validation tab and run "
                                      "it again, then calibrate.",
         "calibration_no_method": "Tick isotonic or sigmoid above.",
         "aloocv_no_model": "Add a LogisticRegression model on the Models tab."}


def budget_allows(parent, assessment, what: str, seconds=None) -> bool:
    """Whether to start a job of ``assessment`` (an :class:`engine.runs.guards.Assessment`):
    a refused one is said in a warning (False), one above the run's
    :data:`engine.runs.guards.ASK_FITS` fits asks first (True on Yes), with its estimated
    ``seconds`` when measured (:func:`estimate_job`); ``what`` names the job in the
    titles ("calibration", "ALOOCV")."""
    if assessment.refuse:
        warn(parent, f"Cannot run the {what}", sentence(assessment.refuse))
        return False
    if not assessment.ask:
        return True
    answer = ask(parent, f"Start a large {what}?",
                 f"{sentence(guards.question(assessment, seconds=seconds))}.\n\nStart it anyway? (Cancel "
                 "stops it at any time; fewer models or methods make it shorter.)",
                 QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
    return answer == QMessageBox.Yes


def needs_estimate(assessment) -> bool:
    """True when the job will ask first: its time is estimated before the question."""
    return not assessment.refuse and bool(assessment.ask)


def estimate_job(checked) -> Job:
    """The time estimate of a job that asks first
    (:func:`engine.run_service.estimate_job_seconds`: a few real fits, or the job's first
    steps) as a job in a child process, like the Run's: the fits never hold the window's
    process."""
    return Job.in_process(run_service.estimate_job_seconds, (checked,), name="job-estimate")


def show_failure(parent, title: str, message: str, error=None) -> None:
    """A job's failure as a warning: its ``message`` (plain text), and for a coded
    ``error`` what to do next."""
    after = AFTER.get(error_code(error)) if error is not None else None
    warn(parent, title, sentence(message) + (f"\n\n{after}" if after else ""))
