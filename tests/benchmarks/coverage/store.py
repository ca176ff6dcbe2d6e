"""The study's own store: one JSON line per finished repetition or cell truth.

A line is written (and flushed) as soon as its work is done, so a killed study restarts
where it stopped: :func:`done_keys` tells which repetitions are in the store. A key names
the population, the sample size, the learners, the design (folds x repeats), the
repetition, its seed and the engine's version; a line whose version differs is not
reused. A torn last line (a kill mid-write) is ignored.
"""
from __future__ import annotations

import json
from pathlib import Path

__all__ = ["append", "cell_key", "done_keys", "read_lines"]


def cell_key(population: str, n: int, learners: str, design: str, version: str) -> str:
    """The key of a cell (every repetition of it shares it)."""
    return f"{population}|n={n}|{learners}|{design}|v{version}"


def read_lines(path: Path) -> list:
    """Every complete line of the store (none when it does not exist)."""
    path = Path(path)
    if not path.exists():
        return []
    lines = []
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:          # a line cut short by a kill
            continue
    return lines


def line_key(line: dict) -> tuple:
    """``(cell, kind, rep)`` of a line; a truth's "rep" is its number of draws, so a
    truth of more draws is computed anew rather than taken from a quick run."""
    return (line["cell"], line["kind"],
            line.get("draws") if line["kind"] == "truth" else line.get("rep"))


def done_keys(lines: list) -> set:
    """The keys (:func:`line_key`) of every stored line (kind ``"rep"`` or ``"truth"``)."""
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
