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
            raise ValueError(f"cannot read {path}: it is not {chosen} text ({exc.reason}); "
                             "give its encoding (\"encoding\": \"latin-1\")") from None
    note = Note("encoding", "the file is not UTF-8; read it as latin-1",
                {"encoding": "latin-1", "how": "not_utf8"})
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


# ----------------------------------------------------------------------------- tokens

def tokenize(line: str, *, where: str = "") -> list:
    """The tokens of one line: values as str (quoted ones unescaped), an unquoted ``?``
    as None, braces as :data:`OPEN` / :data:`CLOSE`; a ``%`` comment ends the line."""
    tokens, position = [], 0
    while position < len(line):
        match = _TOKEN.match(line, position)
        if match is None:                      # never: every character starts a token
            raise ValueError(f"{where}cannot split this line into values")
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
            raise ValueError(f"{where}a quote ({match.group()}) never closes on this line; "
                             "close it, or write a quote inside a value as \\' or \\\"")
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
        where = f"{path}, line {number}: "
        tokens = tokenize(line, where=where)
        if not tokens:
            continue
        keyword = tokens[0].lower() if isinstance(tokens[0], str) else ""
        if relation is None and keyword != "@relation":
            raise ValueError(f"{where}an ARFF file starts with '@relation NAME' (comments "
                             f"with % before it); found {_shown(line)}: is it an ARFF file?")
        if keyword == "@relation":
            relation = tokens[1] if len(tokens) > 1 and _is_text(tokens[1]) else ""
        elif keyword == "@attribute":
            attribute = _attribute(tokens, where)
            if attribute.name in names:
                raise ValueError(f"{where}a second attribute named {attribute.name!r}; "
                                 "attribute names must differ")
            names.add(attribute.name)
            attributes.append(attribute)
        elif keyword == "@data":
            if not attributes:
                raise ValueError(f"{where}@data comes before any @attribute: the file "
                                 "declares no columns")
            return relation, tuple(attributes)
        else:
            raise ValueError(f"{where}expected @attribute or @data, found {_shown(line)}")
    raise ValueError(f"cannot read {path}: no '@data' line; an ARFF file lists its "
                     "attributes, then '@data' and the rows")


def _attribute(tokens: list, where: str) -> Attribute:
    if len(tokens) < 3 or not _is_text(tokens[1]):
        raise ValueError(f"{where}write an attribute as '@attribute NAME TYPE' (TYPE: "
                         "numeric, a list of values in braces, string or date)")
    name, kind = tokens[1], tokens[2]
    if kind is OPEN:
        if tokens[-1] is not CLOSE:
            raise ValueError(f"{where}the values of nominal attribute {name!r} need a "
                             "closing brace '}'")
        values = tokens[3:-1]
        if not values or not all(_is_text(v) for v in values):
            raise ValueError(f"{where}nominal attribute {name!r}: list its values in braces, "
                             "{a, b, c} (quote a value that holds ? or braces)")
        if len(set(values)) < len(values):
            raise ValueError(f"{where}nominal attribute {name!r} lists a value twice")
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
            raise ValueError(f"{where}attribute {name!r}: {exc}") from None
        return Attribute(name, "date", date_format=pattern)
    if kind == "relational":
        raise ValueError(f"{where}attribute {name!r} is relational (multi-instance data), "
                         "which this app does not read; flatten it in Weka first "
                         "(filter MultiInstanceToPropositional)")
    raise ValueError(f"{where}attribute {name!r} has the unknown type {tokens[2]!r}; use "
                     "numeric, real, integer, string, date or a list of values in braces")


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
            tokens, plain = tokenize(line, where=f"{path}, line {number}: "), False
        if not tokens:
            continue
        if not plain or len(tokens) != n_columns:
            tokens, weight, sparse = _row(tokens, attributes, f"{path}, line {number}: ")
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
        raise EngineError("data_no_rows", {"path": str(path)},
                          f"cannot read {path}: it has no rows of data after '@data'")
    frame = pd.DataFrame({a.name: c.values() for a, c in zip(attributes, converters)})
    notes = _weight_notes(path, weights, n_rows)
    if n_sparse:
        notes.append(Note("sparse_rows", f"{n_sparse} row(s) written sparsely: the values "
                          "they leave out are 0 (for a nominal attribute its first value, "
                          "for a string attribute missing)", {"n_rows": n_sparse}))
    return frame, notes


def _row(tokens: list, attributes: tuple, where: str) -> tuple:
    """(values, weight or None, 1 if sparse else 0) of one row's tokens."""
    weight = None
    if len(tokens) >= 3 and tokens[-1] is CLOSE and tokens[-3] is OPEN:
        weight = _weight(tokens[-2], where)
        tokens = tokens[:-3]
    if tokens and tokens[0] is OPEN:
        return _sparse(tokens, attributes, where), weight, 1
    if any(isinstance(t, _Brace) for t in tokens):
        raise ValueError(f"{where}a brace in a dense row; a sparse row is written "
                         "{index value, ...} and a weight {w} at the end")
    if len(tokens) != len(attributes):
        raise ValueError(f"{where}{len(tokens)} value(s) where the header declares "
                         f"{len(attributes)} attributes; quote values that hold spaces or "
                         "commas, write ? for a missing one")
    return tokens, weight, 0


def _weight(token, where: str) -> float:
    try:
        weight = float(token)
    except (TypeError, ValueError):
        weight = np.nan
    if not np.isfinite(weight) or weight < 0:
        raise ValueError(f"{where}the instance weight {{{token}}} is not a number of 0 or "
                         "more")
    return weight


def _sparse(tokens: list, attributes: tuple, where: str) -> list:
    if tokens[-1] is not CLOSE or any(isinstance(t, _Brace) for t in tokens[1:-1]):
        raise ValueError(f"{where}a sparse row is written {{index value, index value, ...}} "
                         "on one line")
    inner = tokens[1:-1]
    if len(inner) % 2:
        raise ValueError(f"{where}a sparse row needs pairs of an index and a value")
    values = [_ZERO] * len(attributes)
    seen = set()
    for index, value in zip(inner[0::2], inner[1::2]):
        if index is None or not index.isdigit() or int(index) >= len(attributes):
            raise ValueError(f"{where}{index!r} is not an attribute index (0 to "
                             f"{len(attributes) - 1}) in a sparse row")
        if int(index) in seen:
            raise ValueError(f"{where}index {index} appears twice in a sparse row")
        seen.add(int(index))
        values[int(index)] = value
    return values


def _weight_notes(path: str, given: list, n_rows: int) -> list:
    if not given:
        return []
    if len(given) < n_rows and any(w != 1.0 for w in given) or len(set(given)) > 1:
        shown = sorted(set(given) | ({1.0} if len(given) < n_rows else set()))[:4]
        raise ValueError(f"cannot use {path}: its rows have different instance weights "
                         f"({', '.join(f'{w:g}' for w in shown)}, ...), which this app's "
                         "cross-validation does not apply; remove the {weight} at the end "
                         "of the rows (e.g. repeat each row as often as its weight says)")
    return [Note("instance_weights_ignored", f"every row has the same instance weight "
                 f"({given[0]:g}): weights that are all equal change nothing and are ignored",
                 {"weight": given[0], "n_rows": len(given)})]


def _convert(path: str, converters: list, rows: list, numbers: list) -> None:
    for converter, column in zip(converters, zip(*rows)):
        converter.add(column, lambda i: f"{path}, line {numbers[i]}")


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
            seconds = parse_dates(texts, self.pattern, where=lambda i: f"{where(i)}: attribute "
                                  f"{self.attribute.name!r}")
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
                raise ValueError(f"{where(i)}: attribute {self.attribute.name!r} is numeric "
                                 f"but the value is {text!r}; write a number, or ? when "
                                 "missing") from None
        raise AssertionError("unreachable")

    def _codes(self, column: tuple, where) -> np.ndarray:
        codes = np.array([-1 if v is None else 0 if v is _ZERO else self.codes.get(v, -2)
                          for v in column], dtype=np.int32)
        bad = np.flatnonzero(codes == -2)
        if bad.size:
            i = int(bad[0])
            declared = ", ".join(self.attribute.values[:10])
            raise ValueError(f"{where(i)}: {column[i]!r} is not a declared value of nominal "
                             f"attribute {self.attribute.name!r} ({{{declared}"
                             f"{', ...' if len(self.attribute.values) > 10 else ''}}}); add "
                             "it to the @attribute line or correct the value")
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
        notes.append(Note("string_attributes", "string attribute(s) " + ", ".join(
            map(repr, strings)) + " hold free text: read as text categories (one-hot "
            "encoded, or left out when every row differs); a word-count filter in Weka "
            "(StringToWordVector) makes features of text", {"columns": strings}))
    dates = [a.name for a in attributes if a.kind == "date"]
    if dates:
        notes.append(Note("dates_as_numbers", "date attribute(s) " + ", ".join(
            map(repr, dates)) + " read as numbers: seconds since 1970-01-01 00:00 UTC (a "
            "date without a time zone is taken as UTC; Weka stores milliseconds)",
            {"columns": dates, "unit": "seconds", "origin": "1970-01-01T00:00:00Z"}))
    return notes
