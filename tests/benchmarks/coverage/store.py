"""The study's own store: one JSON line per finished repetition or cell truth.

A line is written (and flushed) as soon as its work is done, so a killed study restarts
where it stopped: :func:`done_keys` tells which repetitions are in the store. A key names
the population, the sample size, the learners, the design (folds x repeats), the
repetition, its seed and the engine's version; a line whose version differs is not
reused. A torn last line (a kill mid-write) is ignored.

Stores accumulate across sessions in a committed folder (:data:`RESULTS`) of gzipped
stores (``*.jsonl.gz``, read like plain ones); :func:`pack` writes lines into it, one file
per population, deduplicated and sorted, the same bytes for the same lines.
"""
from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path

__all__ = ["RESULTS", "append", "cell_key", "done_keys", "pack", "read_lines",
           "results_stores"]

#: The committed folder of packed stores, read by default.
RESULTS = Path(__file__).resolve().parent / "results"


def cell_key(population: str, n: int, learners: str, design: str, version: str) -> str:
    """The key of a cell (every repetition of it shares it)."""
    return f"{population}|n={n}|{learners}|{design}|v{version}"


def read_lines(path: Path) -> list:
    """Every complete line of the store, plain or gzipped (``.gz``; none when it does not
    exist)."""
    path = Path(path)
    if not path.exists():
        return []
    if path.name.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            content = handle.read()
    else:
        content = path.read_text(encoding="utf-8")
    lines = []
    for text in content.splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:          # a line cut short by a kill
            continue
    return lines


def line_key(line: dict) -> tuple:
    """``(cell, kind, rep)`` of a line; a truth's (kind ``truth`` or ``subgroup_truth``)
    "rep" is its number of draws, so a truth of more draws is computed anew rather than
    taken from a quick run."""
    return (line["cell"], line["kind"],
            line.get("draws") if line["kind"].endswith("truth") else line.get("rep"))


def done_keys(lines: list) -> set:
    """The keys (:func:`line_key`) of every stored line."""
    return {line_key(line) for line in lines}


def unique_lines(lines: list) -> list:
    """The first line of each key (two runs sharing work may both have stored it)."""
    seen, kept = set(), []
    for line in lines:
        if line_key(line) not in seen:
            seen.add(line_key(line))
            kept.append(line)
    return kept


def append(path: Path, line: dict) -> None:
    """Add one line, flushed to disk."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line, allow_nan=True) + "\n")
        handle.flush()


def results_stores(folder: Path = RESULTS) -> list:
    """The packed stores of ``folder`` (``*.jsonl.gz``, by name; none without the folder)."""
    folder = Path(folder)
    return sorted(folder.glob("*.jsonl.gz")) if folder.is_dir() else []


def _order(line: dict) -> tuple:
    cell, kind, rep = line_key(line)
    return (cell, kind, -1 if rep is None else rep)


def pack(sources: list, folder: Path = RESULTS) -> dict:
    """Write the lines of ``folder``'s stores and of ``sources`` into ``folder``: one
    gzipped file per population (``<population>.jsonl.gz``), each key once (a line already
    packed wins), sorted by key, each line's keys sorted, gzip without a time stamp, so the
    same lines give the same bytes. Returns ``{file name: lines}``."""
    folder = Path(folder)
    lines = [line for path in (*results_stores(folder), *sources) for line in read_lines(path)]
    by_population = {}
    for line in unique_lines(lines):
        by_population.setdefault(line["population"], []).append(line)
    counts = {}
    folder.mkdir(parents=True, exist_ok=True)
    for population, own in sorted(by_population.items()):
        if not re.fullmatch(r"[a-z0-9_]{1,64}", str(population)):
            raise ValueError(f"pack: a line's population {population!r} is not a name")
        text = "".join(json.dumps(line, sort_keys=True, allow_nan=True) + "\n"
                       for line in sorted(own, key=_order))
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0,
                           compresslevel=9) as handle:
            handle.write(text.encode("utf-8"))
        name = f"{population}.jsonl.gz"
        (folder / name).write_bytes(buffer.getvalue())
        counts[name] = len(own)
    return counts
