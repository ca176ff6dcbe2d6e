"""The coverage study: does each 95% interval the app prints cover its estimand 95% of the time?

Usage::

    python tests/benchmarks/coverage_study.py [--quick] [--reps N] [--jobs N]
        [--populations a,b] [--sizes 100,300] [--store FILE]
        [--intervals main,subgroup,nested] [--results DIR]
        [--write-record] [--write-docs]
    python tests/benchmarks/coverage_study.py --pack STORE [STORE ...]

(``--quick``, or the environment variable ``HONEST_EVAL_BENCH_QUICK=1``: sizes 100 and
300, 10 repetitions per cell, 20 draws per truth: a few CPU minutes, a check that it
runs, its Monte Carlo error far too large to judge an interval.)

For each population (:mod:`tests.benchmarks.coverage.populations`, at least five real
tables of 5,000+ rows), sample size and repetition, n rows are drawn and the app's own
computations run on them through the engine's public functions
(:mod:`tests.benchmarks.coverage.repetition`); each 95% interval is checked against its
estimand computed on the rest of the population. The default, ``--reps 500``, keeps the
Monte Carlo error of a 95% coverage at about 1 point (``sqrt(.95 · .05 / 500)`` = 0.97).

Every finished piece goes into the store (default the cache folder's ``study.jsonl``) at
once; rerunning the same command resumes where a killed run stopped.
``--write-record`` writes ``engine/evaluation/measured_coverage.csv`` (one row per
interval id, its cells' smallest, largest and mean coverage) and ``--write-docs`` the
table of ``docs/coverage.md``, both from everything in the store for the chosen cells.

``--intervals subgroup,nested`` runs the pieces of ``subgroup_score`` and ``nested_cv``
(:mod:`tests.benchmarks.coverage.extra`), kinds of their own beside the main
repetitions (``main``, the default). The committed folder of packed stores
(``tests/benchmarks/coverage/results/``, ``--results``) is read as done work and counted;
``--pack SRC...`` writes stores into it. ``across_tests_null`` is the across-data-set tests' error rate under the null
(:mod:`tests.benchmarks.coverage.across`; ``--across-n``, one cell of all populations).
``--intervals auto`` runs the ``auto`` pieces (:mod:`tests.benchmarks.coverage.auto`):
``"n_repeats": "auto"`` against the fixed 10 x 10 on the same sample and folds; their
paired table goes into ``docs/coverage.md`` and ``docs/repeats.md`` with ``--write-docs``.
Dask (``--cluster``) is not offered: the pieces are independent, so ``--jobs`` on each
computer with a shared store file is as simple.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.coverage import populations as pops  # noqa: E402 (after the path)
from tests.benchmarks.coverage import tables  # noqa: E402 (after the path)
from tests.benchmarks.coverage.auto import markdown_paired, paired_table  # noqa: E402
from tests.benchmarks.coverage.runner import ACROSS, KINDS, Study, run_study  # noqa: E402 (after the path)
from tests.benchmarks.coverage.store import (RESULTS, pack, read_lines,  # noqa: E402
                                             results_stores, unique_lines)

RECORD = ROOT / "engine" / "evaluation" / "measured_coverage.csv"
DOCS = ROOT / "docs" / "coverage.md"
START, END = "<!-- study table: start -->", "<!-- study table: end -->"
#: The table of the extra pieces (``--intervals subgroup,nested``), a section of its own.
EXTRA_START, EXTRA_END = "<!-- extra table: start -->", "<!-- extra table: end -->"
EXTRA_IDS = {"subgroup": "subgroup_score", "nested": "nested_cv"}
#: The ``auto`` piece's paired table ("auto" against the fixed 10 x 10), in both docs.
AUTO_START, AUTO_END = "<!-- auto table: start -->", "<!-- auto table: end -->"
AUTO_DOCS = (DOCS, ROOT / "docs" / "repeats.md")
AUTO_IDS = ("summary_mean_10x10", "summary_mean_auto", "pairwise_difference_10x10",
            "pairwise_difference_auto")
NOT_MEASURED: dict = {}


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reps", type=int, default=500)
    parser.add_argument("--truth-draws", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--populations", default="")
    parser.add_argument("--sizes", default="100,300,1000")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--across-n", type=int, default=300,
                        help="sample size of the across-data-set null (0: not run)")
    parser.add_argument("--store", default=str(pops.cache_dir() / "study.jsonl"))
    parser.add_argument("--across-only", action="store_true",
                        help="run only the across-data-set null's repetitions")
    parser.add_argument("--also-read", nargs="*", default=[],
                        help="other stores whose lines count as done and are counted "
                        "(another process's or machine's)")
    parser.add_argument("--shard", default="0/1",
                        help="i/m: run only repetitions i modulo m (several processes)")
    parser.add_argument("--limit", type=int, default=None,
                        help="run at most this many pieces, then stop (resume later)")
    parser.add_argument("--intervals", default="main",
                        help="piece kinds to run, comma-separated: main (every interval "
                        "of a repetition), subgroup (subgroup_score), nested (nested_cv), "
                        "auto (\"n_repeats\": \"auto\" against the fixed 10x10)")
    parser.add_argument("--results", default=str(RESULTS),
                        help="folder of packed stores (*.jsonl.gz) read as done and counted "
                        "('' for none)")
    parser.add_argument("--pack", nargs="+", metavar="SRC",
                        help="write these stores' lines into --results (gzipped, "
                        "deduplicated, sorted) and stop")
    parser.add_argument("--write-record", action="store_true")
    parser.add_argument("--record-min-reps", type=int, default=100,
                        help="cells with fewer repetitions stay out of the record")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args(argv)
    if args.quick or os.environ.get("HONEST_EVAL_BENCH_QUICK") == "1":
        args.quick, args.reps, args.truth_draws = True, min(args.reps, 10), 20
        args.sizes = "100,300" if args.sizes == "100,300,1000" else args.sizes
    return args


def load(names: list) -> dict:
    """``{name: (frame, target)}`` of the populations that can be read; a line for each
    that cannot."""
    loaded = {}
    for population in pops.POPULATIONS:
        if names and population.name not in names:
            continue
        frame = pops.load_population(population)
        if frame is None:
            print(f"skipped: population {population.name} ({population.package} is not "
                  f"installed: {population.install})")
            continue
        loaded[population.name] = (frame, population.target)
        print(f"population {population.name}: {len(frame):,} rows, target "
              f"{population.target}")
    return loaded


def study_of(args, loaded: dict) -> Study:
    sizes = () if args.across_only else tuple(int(s) for s in args.sizes.split(","))
    intervals = tuple(k for k in args.intervals.split(",") if k)
    unknown = sorted(set(intervals) - set(KINDS))
    if unknown:
        raise SystemExit(f"error: --intervals: unknown kind {unknown[0]!r}; choose from "
                         f"{', '.join(KINDS)}")
    return Study(loaded, sizes, args.reps,
                 args.truth_draws, args.folds, args.repeats, version=version("honest-eval"),
                 across_n=args.across_n if len(loaded) > 1 and "main" in intervals else 0,
                 intervals=intervals)


def chosen_lines(study: Study, stores: list) -> list:
    """The stored lines of the study's cells (from every store given, each key once)."""
    cells = {study.cell(p, n) for p in study.populations for n in study.sizes}
    cells |= {study.nested_cell(p, n) for p in study.populations for n in study.sizes}
    cells.add(study.cell(ACROSS, study.across_n))
    lines = []
    for path in stores:
        lines += read_lines(path)
    return [line for line in unique_lines(lines) if line["cell"] in cells
            and (line["kind"].endswith("truth") or line["rep"] < study.reps)]


def command_text(argv) -> str:
    kept = [a for a in argv if a not in ("--write-record", "--write-docs")]
    return " ".join(["python tests/benchmarks/coverage_study.py", *kept])


def refused_text(lines: list) -> str:
    """Which cells had samples the app refuses (with how many), in words."""
    counts = {}
    for line in lines:
        if line.get("refused"):
            key = f"{line['population']} n={line['n']}"
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return "The app ran on every sample drawn."
    return ("Samples the app refuses (too few rows of a class for the folds; such a "
            "repetition has no interval and is not counted): "
            + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) + ".")


def docs_section(table, lines, command: str, date: str, min_reps: int) -> str:
    cpu = sum(line.get("cpu", 0.0) for line in lines)
    reps = sorted({int(r) for r in table["reps"]}) if len(table) else [0]
    truth_draws = sorted({line["draws"] for line in lines if line["kind"] == "truth"})
    missing = "\n" + "".join(f"\n- `{k}`: not measured ({v})."
                              for k, v in NOT_MEASURED.items())
    return (f"{START}\n\nProduced by `{command}` on {date}, machine: {platform.machine()}, "
            f"{os.cpu_count()} logical CPUs ({platform.platform()}); CPU time of the pieces "
            f"in the store: {cpu / 60:.1f} minutes. Repetitions per cell: {reps[0]} to "
            f"{reps[-1]} (a 95% coverage measured on r repetitions has a Monte Carlo "
            f"standard error of about sqrt(0.0475 / r): 6.9 points at 10, 2.2 at 100, 1.0 "
            f"at 500). Draws per `expected_score_at_training_size` truth: "
            f"{', '.join(map(str, truth_draws))}.\n\nAn estimand in parentheses is not the "
            f"interval's own: it shows what the interval would cover if read as being about "
            f"that target. ⚠ marks a coverage outside 93-97% (for `across_tests_null`, an "
            f"error rate above 5%). {refused_text(lines)} Only cells of at least "
            f"{min_reps} repetitions go into `engine/evaluation/measured_coverage.csv`; "
            f"an interval without such a cell has no row there (not measured).{missing}\n\n"
            f"### Each interval against its own estimand\n\n"
            f"{tables.markdown_table(table[table['main']])}\n\n"
            f"### The same intervals read as being about another target\n\n"
            f"{tables.markdown_table(table[~table['main']])}\n\n{END}")


def _old_record():
    import pandas as pd

    return pd.read_csv(RECORD, dtype=str, keep_default_na=False) if RECORD.exists() else None


def extra_section(table, lines, command: str, date: str, min_reps: int) -> str:
    """The docs' table of ``subgroup_score`` and ``nested_cv`` (between the extra markers)."""
    lines = [line for line in lines if line["kind"] in ("subgroup", "subgroup_truth", "nested")]
    cpu = sum(line.get("cpu", 0.0) for line in lines)
    draws = sorted({line["draws"] for line in lines if line["kind"] == "subgroup_truth"})
    return (f"{EXTRA_START}\n\nProduced by `{command}` on {date}, machine: "
            f"{platform.machine()}, {os.cpu_count()} logical CPUs; CPU time of these pieces: "
            f"{cpu / 60:.1f} minutes. Draws per subgroup truth: "
            f"{', '.join(map(str, draws)) or 'none'}. Cells of at least {min_reps} "
            f"repetitions go into the record. {refused_text(lines)}\n\n"
            f"{tables.markdown_table(table[table['main']])}\n\n{EXTRA_END}")


def auto_section(lines, command: str, date: str) -> str:
    """The docs' paired table of the ``auto`` pieces (between the auto markers)."""
    autos = [line for line in lines if line["kind"] == "auto"]
    cpu = [line.get("cpu", 0.0) for line in autos]
    stops = {}
    for line in autos:
        if "auto_repeats" in line:
            stops[line["auto_repeats"]] = stops.get(line["auto_repeats"], 0) + 1
    where = ", ".join(f"{k}: {v}" for k, v in sorted(stops.items())) or "none"
    per = sum(cpu) / len(cpu) if cpu else float("nan")
    table = paired_table(lines, tables.cell_truths(lines))
    return (f"{AUTO_START}\n\nProduced by `{command}` on {date}, machine: "
            f"{platform.machine()}, {os.cpu_count()} logical CPUs; CPU time of these pieces: "
            f"{sum(cpu) / 60:.1f} minutes, {per:.1f} s per repetition (one BLAS thread). "
            f"Repeats at which \"auto\" stopped (repeats: repetitions): {where}. "
            f"{refused_text(autos)}\n\n{markdown_paired(table)}\n\n{AUTO_END}")


def write_docs(section: str, start: str = START, end: str = END, path: Path = DOCS) -> None:
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    path.write_text(head + section + tail, encoding="utf-8")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.pack:
        for name, count in pack([Path(p) for p in args.pack], Path(args.results)).items():
            print(f"{args.results}/{name}: {count} lines")
        return 0
    loaded = load([n for n in args.populations.split(",") if n])
    if not loaded:
        print("error: no population could be read", file=sys.stderr)
        return 2
    for interval, why in NOT_MEASURED.items():
        print(f"skipped: {interval} ({why})")
    study = study_of(args, loaded)
    shard = tuple(int(x) for x in args.shard.split("/"))
    others = [*map(Path, args.also_read), *(results_stores(Path(args.results))
                                            if args.results else [])]
    run_study(study, Path(args.store), args.jobs, limit=args.limit, also=others,
              shard=shard)
    lines = chosen_lines(study, [Path(args.store), *others])
    table = tables.coverage_table(lines)
    if "main" not in study.intervals and not table.empty:   # only the chosen intervals
        ids = [EXTRA_IDS[k] for k in study.intervals if k in EXTRA_IDS]
        table = table[table["interval"].isin(ids + list(AUTO_IDS) * ("auto" in
                                                                   study.intervals))]
    if table.empty:
        print("nothing measured yet")
        return 0
    main_rows = table[table["main"]]
    print(main_rows[["population", "n", "interval", "model", "reps", "coverage", "mc_se",
                     "mean_width"]].to_string(index=False))
    date, command = datetime.date.today().isoformat(), command_text(argv)
    if "auto" in study.intervals:
        print(markdown_paired(paired_table(lines, tables.cell_truths(lines))))
    if args.write_record:
        record = tables.record_table(table, date, command, args.record_min_reps)
        record = tables.merged_record(record, _old_record())
        record.to_csv(RECORD, index=False)
        print(f"wrote {RECORD}")
    if args.write_docs and "main" in study.intervals:
        write_docs(docs_section(table, lines, command, date, args.record_min_reps))
        print(f"wrote {DOCS}")
    if args.write_docs and set(study.intervals) & set(EXTRA_IDS):
        ids = list(EXTRA_IDS.values())                   # the extra table shows both
        section = extra_section(table[table["interval"].isin(ids)], lines, command, date,
                                args.record_min_reps)
        write_docs(section, EXTRA_START, EXTRA_END)
        print(f"wrote {DOCS} (the extra table)")
    if args.write_docs and "auto" in study.intervals:
        section = auto_section(lines, command, date)
        for path in AUTO_DOCS:
            write_docs(section, AUTO_START, AUTO_END, path)
            print(f"wrote {path} (the auto table)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
