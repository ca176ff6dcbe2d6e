"""The names of an experiment's data sets (its ``"datasets"`` list).

Every data set of a several-data-set experiment has a name: the block's ``"name"``, or by
default the file's stem or the built-in data set's name, made unique ("moons",
"moons (2)"). A name is written in the tables' ``dataset`` column and may one day name a
file, so it must be safe in both: text of 1 to :data:`MAX_LENGTH` characters, nothing
invisible, none of the characters that a file name cannot hold on some system
(``/ \\ : * ? " < > |``), not starting with a character that a spreadsheet reads as a
formula (``= + - @``) or with a dot or a space, not ending with a dot or a space, and
not a name Windows reserves for devices (``CON``, ``NUL``, ``COM1`` ...). Names are
unique ignoring case (two files differing only in case are one file on Windows and macOS).
"""
from __future__ import annotations

import os
import re

from engine.foundation.errors import EngineError
from engine.foundation.schema import show

MAX_LENGTH = 100
FORBIDDEN = '/\\:*?"<>|'
FORMULA_START = "=+-@"
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?", re.IGNORECASE)


def name_problem(name) -> tuple | None:
    """Why ``name`` cannot name a data set, or None when it can.

    Returns
    -------
    tuple or None
        ``(problem, fields)``: the ``dataset_name_bad`` error's ``problem`` code
        (``"empty"``, ``"too_long"`` with ``length`` and ``max_length``, ``"forbidden"``
        with ``characters`` as shown, ``"formula"`` with ``first``, ``"dot_or_space"``,
        ``"reserved"``) and the fields its words need (the catalogue words them).
    """
    if not isinstance(name, str) or not name:
        return "empty", {}
    if len(name) > MAX_LENGTH:
        return "too_long", {"length": len(name), "max_length": MAX_LENGTH}
    bad = sorted({ch for ch in name if ch in FORBIDDEN or not (ch == " " or ch.isprintable())})
    if bad:
        return "forbidden", {"characters": [show(ch)[1:-1] for ch in bad]}
    if name[0] in FORMULA_START:
        return "formula", {"first": name[0]}
    if name[0] in ". " or name[-1] in ". ":
        return "dot_or_space", {}
    if _RESERVED.fullmatch(name):
        return "reserved", {}
    return None


def check_dataset_name(name, where: str) -> None:
    """Raise a ValueError naming ``where`` when ``name`` cannot name a data set.

    Parameters
    ----------
    name : object
        The ``"name"`` of a data set block.
    where : str
        Its place in the file (``datasets[2].name``).

    Raises
    ------
    ValueError
        ``datasets[2].name: "a/b" cannot name a data set: it holds /, which a file name
        cannot hold; ...``
    """
    found = name_problem(name)
    if found:
        problem, fields = found
        raise EngineError("dataset_name_bad", {"where": where, "name": show(name),
                                               "problem": problem, **fields})


def default_name(block: dict) -> str:
    """A data set block's name when it gives none: the file's stem (``"diabetes"`` for
    ``diabetes.csv``) or the built-in data set's name, made safe (see the module)."""
    path = block.get("csv") or block.get("file")
    text = (os.path.splitext(os.path.basename(str(path).replace("\\", "/")))[0]
            if path else str(block.get("builtin") or "data"))
    text = "".join("_" if ch in FORBIDDEN or not (ch == " " or ch.isprintable()) else ch
                   for ch in text)
    text = text.lstrip(FORMULA_START + ". ")[:MAX_LENGTH - 10].rstrip(". ") or "data"
    return text + "_" if _RESERVED.fullmatch(text) else text


def name_datasets(blocks) -> tuple:
    """The data set blocks of a ``"datasets"`` list, each with its ``"name"``.

    Given names are checked (:func:`check_dataset_name`) and must be unique (ignoring
    case); the others get :func:`default_name`, with `` (2)``, `` (3)`` ... added where
    a name is taken.

    Parameters
    ----------
    blocks : list of dict

    Returns
    -------
    tuple of dict
        Copies of the blocks, in order, each with ``"name"``.

    Raises
    ------
    ValueError
        A name that cannot name a data set, or one given twice.
    """
    taken: dict[str, int] = {}
    for index, block in enumerate(blocks):
        if block.get("name") is None:
            continue
        check_dataset_name(block["name"], f"datasets[{index}].name")
        key = block["name"].casefold()
        if key in taken:
            other = blocks[taken[key]]["name"]
            raise EngineError("dataset_name_taken", {
                "index": index, "name": show(block["name"]), "other_index": taken[key],
                "other": "" if other == block["name"] else show(other)})
        taken[key] = index
    named: list[dict] = []
    for block in blocks:
        name = block.get("name")
        if name is None:
            name = _unique(default_name(block), taken)
            taken[name.casefold()] = len(named)
        named.append({**block, "name": name})
    return tuple(named)


def _unique(name: str, taken: dict) -> str:
    candidate, number = name, 1
    while candidate.casefold() in taken:
        number += 1
        candidate = f"{name} ({number})"
    return candidate
