"""A default run sized to the machine: as many repeats as fit in about two minutes here.

The published default, 10 folds x 10 repeats, is 4,000 fits for five models with
calibration and a learning curve: about a quarter of an hour on two cores for 200 rows.
For the user's own data the app proposes instead the most repeats (of the folds asked
for, at most the repeats asked for) whose estimated time, from fits timed once on the
data (:mod:`engine.runs.fit_timing`, medians under the run's thread cap), stays within
:data:`TARGET_SECONDS`; never fewer than :data:`MIN_REPEATS` repeats, or, when even those
take longer, the 5 x 2 design (Dietterich's 5x2cv) as the smallest. The user can always
ask for more.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from engine.evaluation.cv import CVConfig
from engine.runs import fit_timing

#: Seconds the default run aims at.
TARGET_SECONDS = 120.0
#: The fewest repeats of the folds asked for.
MIN_REPEATS = 3
#: The smallest design, when even :data:`MIN_REPEATS` repeats take longer: folds, repeats.
SMALLEST = (5, 2)
#: Seconds spent timing fits, in all.
BUDGET = 3.0


@dataclass(frozen=True)
class SizedRun:
    """The proposed cross-validation and what it would take.

    Attributes
    ----------
    cv : engine.evaluation.cv.CVConfig
        The experiment's, with the proposed folds and repeats.
    seconds : float
        Estimated seconds of the proposed run.
    asked_seconds : float
        Estimated seconds of the run as asked (its own folds and repeats).
    """

    cv: CVConfig
    seconds: float
    asked_seconds: float

    @property
    def smaller(self) -> bool:
        """True when fewer fits than asked for are proposed."""
        return self.seconds < self.asked_seconds


def sized_run(experiment, datasets, *, n_jobs: int = 1, target: float = TARGET_SECONDS,
              budget: float = BUDGET) -> SizedRun:
    """Time a few fits of ``experiment`` on ``datasets`` (a Dataset or a list) and size
    its repeats to ``target`` seconds (see the module's docstring). Takes about
    ``budget`` seconds; meant for a worker thread."""
    datasets = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]
    timed = [fit_timing.time_fits(experiment, one, budget / len(datasets)) for one in datasets]
    return size_from(experiment, datasets, timed, n_jobs, target=target)


def size_from(experiment, datasets: list, timed: list, n_jobs: int,
              *, target: float = TARGET_SECONDS) -> SizedRun:
    """The sizing of :func:`sized_run` from fits already timed (one ``timed`` per data
    set, :func:`engine.runs.fit_timing.time_fits`)."""
    def seconds(cv) -> float:
        return sum(fit_timing.seconds_for(experiment, one, times, n_jobs=n_jobs, cv=cv)
                   for one, times in zip(datasets, timed))

    asked = experiment.cv
    asked_seconds = seconds(asked)
    cv, estimate = asked, asked_seconds
    for cv in candidates(asked):
        estimate = seconds(cv)
        if estimate <= target:
            break
    return SizedRun(cv, estimate, asked_seconds)


def candidates(asked: CVConfig) -> list:
    """The designs tried, largest first: the folds asked for with the repeats asked for
    down to :data:`MIN_REPEATS`, then :data:`SMALLEST` (when it is smaller)."""
    repeats = range(asked.n_repeats, min(MIN_REPEATS, asked.n_repeats) - 1, -1)
    designs = [replace(asked, n_repeats=r) for r in repeats]
    folds, fewest = SMALLEST
    if folds * fewest < asked.n_splits * designs[-1].n_repeats:
        designs.append(replace(asked, n_splits=folds, n_repeats=fewest))
    return designs
