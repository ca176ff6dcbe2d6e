"""The experiment's ``"subgroups"`` list as the app keeps it: a column name, or
``{"column": NAME, "cuts": [40, 65]}`` for a numeric column cut at given points.

The app holds the list as the experiment file writes it (plain JSON values), so saving,
the run's setup and the unsaved-changes snapshot all see the same thing. Typed cut points
are read here, with one sentence saying what is wrong.
"""
from __future__ import annotations

import math

#: The most cut points of one column (the schema's; 20 subgroups at most, as the engine's).
MAX_CUTS = 19


def block_column(block) -> str:
    """The column of a ``"subgroups"`` entry (a name or a ``{"column": ...}`` block)."""
    return str(block["column"]) if isinstance(block, dict) else str(block)


def block_cuts(block) -> tuple:
    """The cut points of an entry (``()`` when it has none)."""
    if isinstance(block, dict) and block.get("cuts") is not None:
        return tuple(float(c) for c in block["cuts"])
    return ()


def make_block(column: str, cuts=()):
    """The entry for ``column``: its name alone, or with ``cuts`` a ``{"column", "cuts"}``
    block (whole numbers written as integers)."""
    if not cuts:
        return str(column)
    return {"column": str(column), "cuts": [int(c) if float(c).is_integer() else float(c)
                                            for c in cuts]}


def subgroup_blocks(value) -> tuple:
    """An experiment's subgroups (None, a list of names and blocks, or of objects with
    ``column`` and ``cuts`` attributes) as the experiment file's entries."""
    blocks = []
    for entry in value or ():
        if isinstance(entry, (str, dict)):
            blocks.append(make_block(block_column(entry), block_cuts(entry)))
        else:
            blocks.append(make_block(entry.column, getattr(entry, "cuts", None) or ()))
    return tuple(blocks)


def cuts_text(cuts) -> str:
    """``40, 65`` for the cut points (as few digits as they need)."""
    return ", ".join(f"{c:g}" for c in cuts)


def parse_cuts(text: str) -> tuple:
    """The cut points typed (commas, semicolons or spaces between them), increasing.

    Raises
    ------
    ValueError
        A sentence saying what is wrong.
    """
    words = [w for w in text.replace(";", ",").replace(" ", ",").split(",") if w]
    if len(words) > MAX_CUTS:
        raise ValueError(f"type at most {MAX_CUTS} cut points")
    try:
        values = tuple(float(w) for w in words)
    except ValueError:
        raise ValueError("type numbers separated by commas, such as 40, 65") from None
    if not all(math.isfinite(v) for v in values):
        raise ValueError("cut points must be ordinary numbers")
    if any(b <= a for a, b in zip(values, values[1:])):
        raise ValueError("type the cut points from smallest to largest, each once")
    return values


def with_subgroups(data: dict, subgroups) -> dict:
    """``data`` (an experiment file's object) with its ``"subgroups"`` list when there is
    one (none: the key left out, as a file without subgroups has it)."""
    if subgroups:
        data["subgroups"] = [dict(b, cuts=list(b["cuts"])) if isinstance(b, dict) else b
                             for b in subgroups]
    return data
