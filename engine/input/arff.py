"""ARFF files, Weka's own format, read as Weka reads them.

A header (``@relation``, one ``@attribute`` per column, ``@data``) and one row per line,
either dense (``5.1,3.5,'Iris setosa'``) or sparse (``{0 5.1, 4 'Iris setosa'}``: the
values not listed are 0, which for a nominal attribute means its first value, as in
Weka), optionally followed by an instance weight (``{2.5}``). Keywords are
case-insensitive; ``%`` starts a comment; values are separated by commas or spaces and
may be quoted with ``'`` or ``"`` (inside quotes a backslash escapes as in Java:
``\\'``, ``\\n``, ``\\t``, ``\\\\``); an unquoted ``?`` is a missing value.

Columns: numeric (``numeric``, ``real``, ``integer``) become numbers; nominal
(``{a, b, c}``) text categories, every value checked against the declared ones; string
text; date numbers, seconds since 1970-01-01 00:00 UTC (:mod:`engine.input.java_dates`).
Relational attributes are refused. The file is read line by line in chunks, so its
size costs time in proportion only.

Why not a library: ``scipy.io.arff`` reads no string attributes and no sparse rows, and
``liac-arff`` (unmaintained since 2020) no dates and holds every value as a Python
object; Weka's quoting, sparse defaults and weights take a page of code here.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Optional

import numpy as np
import pandas as pd

from engine.input.csv_values import choose_encoding
from engine.foundation.errors import EngineError
from engine.input.file_checks import check_file_fits, check_regular_file, check_values_fit
from engine.foundation.machine import available_memory
from engine.input.java_dates import DatePattern, compile_pattern, parse_dates
from engine.foundation.notes import Note

CHUNK_ROWS = 20_000
#: At most this many values in a chunk of rows (a chunk of a wide file has fewer rows).
CHUNK_VALUES = 2_000_000
#: The table is held about this many times while it is read (the rows' values, each
#: column's parts and joined column, the frame).
COPIES_WHILE_READ = 3
NUMERIC_TYPES = ("numeric", "real", "integer")


class _Brace(str):
    """``{`` or ``}`` outside quotes (a value ``'{'`` is a plain str)."""


OPEN, CLOSE = _Brace("{"), _Brace("}")
_ZERO = object()            # a value left out of a sparse row

_NEEDS_TOKENIZER = re.compile(r"['\"%{}\\\x00-\x08\x0e-\x1b]")   # else str.split will do
_TOKEN = re.compile(r"""
    (?P<space>[\x00-\x20,]+)
  | '(?P<single>(?:[^'\\]|\\.)*)'
  | "(?P<double>(?:[^"\\]|\\.)*)"
  | (?P<brace>[{}])
  | (?P<comment>%.*)
  | (?P<word>[^\x00-\x20,'"{}%]+)
  | (?P<open_quote>['"])
""", re.VERBOSE | re.DOTALL)
_ESCAPE = re.compile(r"\\([0-3][0-7]{0,2}|[4-7][0-7]?|.)", re.DOTALL)
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


@dataclass(frozen=True)
class Attribute:
    """One ``@attribute``: its name, kind (``numeric``, ``nominal``, ``string`` or
    ``date``), declared values (nominal) and date pattern (date)."""

    name: str
    kind: str
    values: tuple = ()
    date_format: Optional[str] = None


@dataclass(frozen=True)
class ArffTable:
    """An ARFF file as read: the relation's name, its attributes and the table."""

    relation: str
    attributes: tuple
    frame: pd.DataFrame
    notes: tuple

    @property
    def nominal_values(self) -> dict:
        """Declared values of each nominal attribute, in declared order."""
        return {a.name: list(a.values) for a in self.attributes if a.kind == "nominal"}


def read_arff(path: str, *, encoding: Optional[str] = None) -> ArffTable:
    """Read an ARFF file.

    Parameters
    ----------
    path : str
        The file.
    encoding : str, optional
        Its text encoding; detected when not given (a byte order mark, else UTF-8 unless
        the file is not valid UTF-8, then latin-1, with a note).

    Returns
    -------
    ArffTable
        ``frame`` has one column per attribute: float for numeric and date attributes
        (dates as seconds since 1970-01-01 00:00 UTC), object (text, NaN when missing)
        for nominal and string ones. ``notes`` say what was converted or ignored.

    Raises
    ------
    ValueError
        One line naming the line of the file and what to change: not a regular file,
        too large, binary, not ARFF, a relational attribute, a value that is not a
        number, not a declared nominal value or not a date of the pattern, a row with
        the wrong number of values, unequal instance weights.
    """
    check_file_fits(path, check_regular_file(path, what="an ARFF file"))
    with open(path, "rb") as handle:
        head = handle.read(64 * 1024)
    chosen, notes = choose_encoding(path, head, encoding=encoding, what="an ARFF text file")
    try:
        return _read(path, chosen, notes)
    except UnicodeDecodeError as exc:
        if encoding is not None or chosen != "utf-8":
            raise EngineError("arff_not_encoding", {"path": str(path), "encoding": chosen,
                                                    "detail": str(exc.reason)}) from None
    note = Note("encoding", fields={"encoding": "latin-1", "how": "not_utf8"})
    return _read(path, "latin-1", [note])


def _read(path: str, encoding: str, notes: list) -> ArffTable:
    with open(path, encoding=encoding, newline=None) as handle:
        lines = _Numbered(handle)
        relation, attributes = _read_header(path, lines)
        check_table_fits(path, _count_lines(path) - lines.number, len(attributes))
        frame, more = _read_data(path, lines, attributes)
    relation = relation or os.path.splitext(os.path.basename(path))[0]
    return ArffTable(relation, attributes, frame, tuple(notes + more + _kind_notes(attributes)))


class _Numbered:
    """``enumerate(handle, start=1)`` that remembers the number of the last line read."""

    def __init__(self, handle):
        self.lines, self.number = enumerate(handle, start=1), 0

    def __iter__(self):
        return self

    def __next__(self) -> tuple:
        number, line = next(self.lines)
        self.number = number
        return number, line


def _count_lines(path: str) -> int:
    """Lines of the file, counted in bytes without decoding them (line feeds, or
    carriage returns in a file that ends its lines with them alone)."""
    feeds, returns, last = 0, 0, b"\n"
    with open(path, "rb") as raw:
        for block in iter(lambda: raw.read(1 << 20), b""):
            feeds, returns = feeds + block.count(b"\n"), returns + block.count(b"\r")
            last = block[-1:]
    return max(feeds, returns) + (last not in (b"\n", b"\r"))


def check_table_fits(path: str, n_rows: int, n_attributes: int,
                     *, available: Optional[int] = None) -> None:
    """Refuse an ARFF file whose declared attributes times its rows would not fit in
    memory as a table, before its rows are read (a sparse file of a few MB can declare
    200,000 attributes: every row then takes them all).

    Parameters
    ----------
    path : str
    n_rows : int
        At most this many rows (the lines after ``@data``).
    n_attributes : int
        The declared attributes.
    available : int, optional
        Bytes of memory available (measured when not given).

    Raises
    ------
    ValueError
        Saying the table's size, the memory available and what to change.
    """
    check_values_fit(path, n_rows * n_attributes, COPIES_WHILE_READ,
                     "remove attributes (Weka's Remove or AttributeSelection filter) or rows "
                     "before reading it",
                     available=available_memory() if available is None else available,
                     how=f"it declares {n_attributes:,} attributes and has up to {n_rows:,} rows")


# ----------------------------------------------------------------------------- errors

def _line_error(where: Optional[dict], problem: str, **fields) -> EngineError:
    """The error ``problem`` of the line ``where`` (its ``path`` and ``line``)."""
    where = where or {}
    return EngineError("arff_line", {"path": where.get("path"), "line": where.get("line"),
                                     "problem": problem, **fields})


def _place_text(where: dict) -> str:
    """``path, line N`` (for the date parser's messages)."""
    return f"{where['path']}, line {where['line']}"


# ----------------------------------------------------------------------------- tokens

def tokenize(line: str, *, where: Optional[dict] = None) -> list:
    """The tokens of one line: values as str (quoted ones unescaped), an unquoted ``?``
    as None, braces as :data:`OPEN` / :data:`CLOSE`; a ``%`` comment ends the line
    (``where``: the ``path`` and ``line`` an error names)."""
    tokens, position = [], 0
    while position < len(line):
        match = _TOKEN.match(line, position)
        if match is None:                      # never: every character starts a token
            raise _line_error(where, "split")
        kind, position = match.lastgroup, match.end()
        if kind == "word":
            tokens.append(None if match.group() == "?" else match.group())
        elif kind in ("single", "double"):
            text = match.group(kind)
            tokens.append(_ESCAPE.sub(_unescape, text) if "\\" in text else text)
        elif kind == "brace":
            tokens.append(OPEN if match.group() == "{" else CLOSE)
        elif kind == "comment":
            break
        elif kind == "open_quote":
            raise _line_error(where, "open_quote", quote=match.group())
    return tokens


def _unescape(match) -> str:
    code = match.group(1)
    if code[0] in "01234567":
        return chr(int(code, 8))
    return _ESCAPES.get(code, code)


# ----------------------------------------------------------------------------- header

def _read_header(path: str, lines) -> tuple:
    relation, attributes, names = None, [], set()
    for number, line in lines:
        where = {"path": str(path), "line": number}
        tokens = tokenize(line, where=where)
        if not tokens:
            continue
        keyword = tokens[0].lower() if isinstance(tokens[0], str) else ""
        if relation is None and keyword != "@relation":
            raise _line_error(where, "no_relation", found=_shown(line))
        if keyword == "@relation":
            relation = tokens[1] if len(tokens) > 1 and _is_text(tokens[1]) else ""
        elif keyword == "@attribute":
            attribute = _attribute(tokens, where)
            if attribute.name in names:
                raise _line_error(where, "attribute_twice", name=attribute.name)
            names.add(attribute.name)
            attributes.append(attribute)
        elif keyword == "@data":
            if not attributes:
                raise _line_error(where, "data_first")
            return relation, tuple(attributes)
        else:
            raise _line_error(where, "unexpected", found=_shown(line))
    raise EngineError("arff_no_data", {"path": str(path)})


def _attribute(tokens: list, where: dict) -> Attribute:
    if len(tokens) < 3 or not _is_text(tokens[1]):
        raise _line_error(where, "attribute_form")
    name, kind = tokens[1], tokens[2]
    if kind is OPEN:
        if tokens[-1] is not CLOSE:
            raise _line_error(where, "nominal_brace", name=name)
        values = tokens[3:-1]
        if not values or not all(_is_text(v) for v in values):
            raise _line_error(where, "nominal_values", name=name)
        if len(set(values)) < len(values):
            raise _line_error(where, "nominal_twice", name=name)
        return Attribute(name, "nominal", tuple(values))
    kind = kind.lower() if _is_text(kind) else ""
    if kind in NUMERIC_TYPES:
        return Attribute(name, "numeric")
    if kind == "string":
        return Attribute(name, "string")
    if kind == "date":
        pattern = tokens[3] if len(tokens) > 3 and _is_text(tokens[3]) else None
        try:
            compile_pattern(pattern)
        except ValueError as exc:
            raise _line_error(where, "date_format", name=name, detail=str(exc)) from None
        return Attribute(name, "date", date_format=pattern)
    if kind == "relational":
        raise _line_error(where, "relational", name=name)
    raise _line_error(where, "unknown_type", name=name, kind=tokens[2])


def _is_text(token) -> bool:
    return isinstance(token, str) and not isinstance(token, _Brace)


def _shown(line: str, width: int = 40) -> str:
    text = line.strip()
    return repr(text if len(text) <= width else text[: width - 3] + "...")


# ----------------------------------------------------------------------------- data

def _read_data(path: str, lines, attributes: tuple) -> tuple:
    converters = [_Column(a) for a in attributes]
    n_columns = len(attributes)
    rows, numbers, weights, n_rows, n_sparse = [], [], [], 0, 0
    chunk_rows = max(1, min(CHUNK_ROWS, CHUNK_VALUES // max(1, n_columns)))
    for number, line in lines:
        if line.isascii() and not _NEEDS_TOKENIZER.search(line):
            tokens = line.replace(",", " ").split()         # the common case, fast
            if "?" in line:
                tokens = [None if t == "?" else t for t in tokens]
            plain = True
        else:
            tokens, plain = tokenize(line, where={"path": str(path), "line": number}), False
        if not tokens:
            continue
        if not plain or len(tokens) != n_columns:
            tokens, weight, sparse = _row(tokens, attributes,
                                          {"path": str(path), "line": number})
            n_sparse += sparse
            if weight is not None:
                weights.append(weight)
        rows.append(tokens)
        numbers.append(number)
        n_rows += 1
        if len(rows) == chunk_rows:
            _convert(path, converters, rows, numbers)
            rows, numbers = [], []
    if rows:
        _convert(path, converters, rows, numbers)
    if not n_rows:
        raise EngineError("data_no_rows", {"path": str(path), "kind": "arff"})
    frame = pd.DataFrame({a.name: c.values() for a, c in zip(attributes, converters)})
    notes = _weight_notes(path, weights, n_rows)
    if n_sparse:
        notes.append(Note("sparse_rows", fields={"n_rows": n_sparse}))
    return frame, notes


def _row(tokens: list, attributes: tuple, where: dict) -> tuple:
    """(values, weight or None, 1 if sparse else 0) of one row's tokens."""
    weight = None
    if len(tokens) >= 3 and tokens[-1] is CLOSE and tokens[-3] is OPEN:
        weight = _weight(tokens[-2], where)
        tokens = tokens[:-3]
    if tokens and tokens[0] is OPEN:
        return _sparse(tokens, attributes, where), weight, 1
    if any(isinstance(t, _Brace) for t in tokens):
        raise _line_error(where, "dense_brace")
    if len(tokens) != len(attributes):
        raise _line_error(where, "n_values", n_values=len(tokens),
                          n_attributes=len(attributes))
    return tokens, weight, 0


def _weight(token, where: dict) -> float:
    try:
        weight = float(token)
    except (TypeError, ValueError):
        weight = np.nan
    if not np.isfinite(weight) or weight < 0:
        raise _line_error(where, "weight", weight=token)
    return weight


def _sparse(tokens: list, attributes: tuple, where: dict) -> list:
    if tokens[-1] is not CLOSE or any(isinstance(t, _Brace) for t in tokens[1:-1]):
        raise _line_error(where, "sparse_form")
    inner = tokens[1:-1]
    if len(inner) % 2:
        raise _line_error(where, "sparse_pairs")
    values = [_ZERO] * len(attributes)
    seen = set()
    for index, value in zip(inner[0::2], inner[1::2]):
        if index is None or not index.isdigit() or int(index) >= len(attributes):
            raise _line_error(where, "sparse_index", index=index, last=len(attributes) - 1)
        if int(index) in seen:
            raise _line_error(where, "sparse_twice", index=index)
        seen.add(int(index))
        values[int(index)] = value
    return values


def _weight_notes(path: str, given: list, n_rows: int) -> list:
    if not given:
        return []
    if len(given) < n_rows and any(w != 1.0 for w in given) or len(set(given)) > 1:
        shown = sorted(set(given) | ({1.0} if len(given) < n_rows else set()))[:4]
        raise EngineError("arff_weights", {"path": str(path), "weights": shown})
    return [Note("instance_weights_ignored", fields={"weight": given[0], "n_rows": len(given)})]


def _convert(path: str, converters: list, rows: list, numbers: list) -> None:
    for converter, column in zip(converters, zip(*rows)):
        converter.add(column, lambda i: {"path": str(path), "line": numbers[i]})


class _Column:
    """One attribute's values, converted a chunk at a time."""

    def __init__(self, attribute: Attribute):
        self.attribute = attribute
        self.parts: list = []
        self.codes = {v: i for i, v in enumerate(attribute.values)}
        self.pattern: Optional[DatePattern] = None
        if attribute.kind == "date":
            self.pattern = compile_pattern(attribute.date_format)

    def add(self, column: tuple, where) -> None:
        kind = self.attribute.kind
        if kind == "numeric":
            self.parts.append(self._numbers(column, where))
        elif kind == "nominal":
            self.parts.append(self._codes(column, where))
        elif kind == "date" and self.pattern is not None:
            texts = [None if v is _ZERO else v for v in column]
            seconds = parse_dates(texts, self.pattern, where=lambda i: _place_text(where(i))
                                  + f": attribute {self.attribute.name!r}")
            seconds[[v is _ZERO for v in column]] = 0.0
            self.parts.append(seconds)
        else:
            self.parts.append(np.array([np.nan if v is None or v is _ZERO else v
                                        for v in column], dtype=object))

    def _numbers(self, column: tuple, where) -> np.ndarray:
        texts = ["nan" if v is None else "0" if v is _ZERO else v for v in column]
        try:
            return np.array(texts, dtype=float)
        except ValueError:
            pass
        for i, text in enumerate(texts):
            try:
                float(text)
            except ValueError:
                raise _line_error(where(i), "not_number", name=self.attribute.name,
                                  value=text) from None
        raise AssertionError("unreachable")

    def _codes(self, column: tuple, where) -> np.ndarray:
        codes = np.array([-1 if v is None else 0 if v is _ZERO else self.codes.get(v, -2)
                          for v in column], dtype=np.int32)
        bad = np.flatnonzero(codes == -2)
        if bad.size:
            i = int(bad[0])
            raise _line_error(where(i), "not_declared", name=self.attribute.name,
                              value=column[i], declared=list(self.attribute.values[:11]))
        return codes

    def values(self) -> np.ndarray:
        joined = np.concatenate(self.parts) if self.parts else np.array([])
        if self.attribute.kind != "nominal":
            return joined
        labels = np.array([*self.attribute.values, np.nan], dtype=object)
        return labels[joined]                     # code -1 -> the last entry, NaN


def _kind_notes(attributes: tuple) -> list:
    notes = []
    strings = [a.name for a in attributes if a.kind == "string"]
    if strings:
        notes.append(Note("string_attributes", fields={"columns": strings}))
    dates = [a.name for a in attributes if a.kind == "date"]
    if dates:
        notes.append(Note("dates_as_numbers", fields={
            "columns": dates, "unit": "seconds", "origin": "1970-01-01T00:00:00Z"}))
    return notes
