"""Running the study's cells: truths first, then repetitions in rounds, resuming.

Work is ordered in rounds (repetition 0 of every cell, then 1, ...) so a study stopped
early has about as many repetitions in each cell. Each finished piece is one line of the
store (:mod:`tests.benchmarks.coverage.store`); pieces already there are skipped. With
``jobs`` > 1 the pieces run in a process pool whose workers use one BLAS/OpenMP thread
each (threadpoolctl), and with one job this process does too; the store is written by
this process only.
"""
from __future__ import annotations

import time
import zlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from .across import across_null_rows
from .auto import auto_rows
from .extra import (NESTED_FOLDS, NESTED_REPEATS, SUBGROUP_COLUMNS, nested_rows,
                    subgroup_expected, subgroup_rows)
from .repetition import one_repetition
from .store import append, cell_key, done_keys, read_lines
from .truth import expected_scores

__all__ = ["ACROSS", "LEARNERS", "Study", "pending", "run_piece", "run_study", "seed_of"]

#: The learners of every cell (their difference is the pairwise interval's).
LEARNERS = [{"name": "logistic_regression", "estimator": "LogisticRegression", "scale": True,
             "params": {"max_iter": 1000}},
            {"name": "naive_bayes", "estimator": "GaussianNB", "params": {}}]
#: The across-data-set null's cell (all populations at once).
ACROSS = "all_populations"
#: ``--intervals`` names -> the piece kinds they run (``main``: every interval of
#: :mod:`.repetition`; ``subgroup`` and ``nested``: :mod:`.extra`; ``auto``: :mod:`.auto`,
#: whose intervals are counted against the main piece's truths).
KINDS = {"main": ("truth", "rep"), "subgroup": ("subgroup_truth", "subgroup"),
         "nested": ("nested",), "auto": ("truth", "auto")}


@dataclass(frozen=True)
class Study:
    """What to run: populations (name -> (frame, target)), sizes, repetitions, design."""

    populations: dict
    sizes: tuple = (100, 300, 1000)
    reps: int = 500
    truth_draws: int = 200
    folds: int = 10
    repeats: int = 2
    rest_cap: int = 20_000
    version: str = "0"
    thresholds: dict = field(default_factory=dict)
    across_n: int = 0                  # sample size of the across-data-set null; 0: none
    across_folds: int = 5
    intervals: tuple = ("main",)       # keys of KINDS
    subgroup_columns: dict = field(default_factory=lambda: dict(SUBGROUP_COLUMNS))
    nested_folds: int = NESTED_FOLDS
    nested_repeats: int = NESTED_REPEATS

    def design(self, population: str) -> dict:
        return {"folds": self.folds, "repeats": self.repeats, "rest_cap": self.rest_cap,
                "threshold": self.thresholds.get(population, 0.2)}

    def cell(self, population: str, n: int) -> str:
        if population == ACROSS:
            return cell_key(ACROSS, n, "forest_seeds", f"{self.across_folds}x1", self.version)
        return cell_key(population, n, "lr+gnb", f"{self.folds}x{self.repeats}", self.version)

    def nested_cell(self, population: str, n: int) -> str:
        """The nested interval's cell (its own design: one learner, K folds, R repeats)."""
        return cell_key(population, n, "lr",
                        f"nested{self.nested_folds}x{self.nested_repeats}", self.version)

    def cell_of(self, kind: str, population: str, n: int) -> str:
        """The cell of a piece of ``kind``."""
        return self.nested_cell(population, n) if kind == "nested" else self.cell(population, n)


def seed_of(*parts) -> int:
    """A fixed seed for a piece of work (the same on every machine and run)."""
    return zlib.crc32("|".join(map(str, parts)).encode())


def pending(study: Study, done: set) -> list:
    """Pieces not yet in the store: every cell's truths, then repetitions in rounds."""
    kinds = [k for name in study.intervals for k in KINDS[name]]
    grouped = [p for p in study.populations if p in study.subgroup_columns]
    pieces = [("truth", p, n, study.truth_draws) for p in study.populations
              for n in study.sizes] if "truth" in kinds else []
    pieces += [("subgroup_truth", p, n, study.truth_draws) for p in grouped
               for n in study.sizes] if "subgroup_truth" in kinds else []
    for r in range(study.reps):
        if "rep" in kinds:
            pieces += [("rep", p, n, r) for p in study.populations for n in study.sizes]
            pieces += [("rep", ACROSS, study.across_n, r)] if study.across_n else []
        pieces += [("subgroup", p, n, r) for p in grouped
                   for n in study.sizes] if "subgroup" in kinds else []
        pieces += [("nested", p, n, r) for p in study.populations
                   for n in study.sizes] if "nested" in kinds else []
        pieces += [("auto", p, n, r) for p in study.populations
                   for n in study.sizes] if "auto" in kinds else []
    return [piece for piece in pieces
            if (study.cell_of(*piece[:3]), piece[0], piece[3]) not in done]


def run_piece(study: Study, piece: tuple) -> dict:
    """One truth or repetition as a store line."""
    from engine.evaluation.catalogue import expand_models

    kind, population, n, rep = piece
    frame, target = study.populations.get(population, (None, None))
    specs = expand_models([dict(e) for e in LEARNERS])
    start = time.process_time()
    line = {"cell": study.cell_of(kind, population, n), "kind": kind,
            "rep": None if kind.endswith("truth") else rep,
            "population": population, "n": n}
    if kind.endswith("truth"):
        seed = seed_of(population, n, kind)
        line["values"] = _truth_values(study, kind, population, specs, n, seed)
        line["draws"] = study.truth_draws
    else:
        seed = seed_of(population, n, rep)
        try:
            if kind == "auto":
                line["rows"], stop = _auto(study, population, specs, n, seed)
                line["auto_repeats"], line["auto_reason"] = stop.n_repeats, stop.reason
            else:
                line["rows"] = _rows(study, kind, population, specs, n, seed)
        except ValueError as refused:       # the app refuses this sample (e.g. too few
            line["rows"], line["refused"] = [], str(refused)   # rows of a class for k folds)
    line["seed"], line["cpu"] = seed, time.process_time() - start
    return line


def _truth_values(study: Study, kind: str, population: str, specs, n: int, seed: int):
    frame, target = study.populations[population]
    args = (frame, target, specs, n, study.folds, study.truth_draws, study.rest_cap, seed)
    if kind == "truth":
        return expected_scores(*args)
    return subgroup_expected(*args, study.subgroup_columns[population])


def _rows(study: Study, kind: str, population: str, specs, n: int, seed: int) -> list:
    if population == ACROSS:
        return across_null_rows(study.populations, n, seed, study.across_folds)
    frame, target = study.populations[population]
    if kind == "subgroup":
        return subgroup_rows(frame, target, specs, n, seed, study.design(population),
                             study.subgroup_columns[population])
    if kind == "nested":
        return nested_rows(frame, target, specs[0], n, seed, study.rest_cap,
                           (study.nested_folds, study.nested_repeats))
    return one_repetition(frame, target, specs, n, seed, study.design(population))


def _auto(study: Study, population: str, specs, n: int, seed: int) -> tuple:
    frame, target = study.populations[population]
    return auto_rows(frame, target, specs, n, seed, study.design(population))


_STUDY = None


def _init_worker(study: Study) -> None:
    global _STUDY
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    _STUDY = study


def _work(piece: tuple) -> dict:
    return run_piece(_STUDY, piece)


def run_study(study: Study, store, jobs: int = 1, say=print, limit=None, also=(),
              shard=(0, 1)) -> int:
    """Run every pending piece (at most ``limit``), appending each to ``store``; the
    number of pieces run. Pieces in the stores ``also`` count as done too. ``shard``
    ``(i, m)``: only the repetitions whose number is i modulo m (truths in shard 0), so
    m processes with their own stores share a study."""
    lines = [line for path in (store, *also) for line in read_lines(path)]
    index, count = shard
    pieces = [p for p in pending(study, done_keys(lines))
              if (p[3] if p[0] == "rep" else 0) % count == index][:limit]
    say(f"{len(pieces)} pieces to run ({study.reps} repetitions per cell)")
    if jobs <= 1:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1):          # as the pool's workers: the same numbers, and
            for i, piece in enumerate(pieces):   # no BLAS threads fighting for the cores
                append(store, run_piece(study, piece))
                _progress(say, i, len(pieces), piece)
        return len(pieces)
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(study,)) as pool:
        futures = {pool.submit(_work, piece): piece for piece in pieces}
        for i, future in enumerate(as_completed(futures)):
            append(store, future.result())
            _progress(say, i, len(pieces), futures[future])
    return len(pieces)


def _progress(say, i: int, total: int, piece: tuple) -> None:
    if (i + 1) % 25 == 0 or i + 1 == total:
        say(f"  {i + 1}/{total} done (last: {piece[0]} {piece[1]} n={piece[2]} "
            f"rep={piece[3]})")
