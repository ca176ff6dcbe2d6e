"""Cell values as people write them in spreadsheets: missing markers, decimal commas,
thousands separators, stray text in number columns, invisible control characters.

:func:`engine.input.data.read_csv_table` reads a file with pandas first (so a clean file's
numbers are parsed exactly as pandas parses them), then hands the columns pandas left as
text to :func:`parse_text_columns`, which turns number columns written in other
conventions into numbers and says in plain words what it did.

Rules
-----
* Missing: empty or blank cells and :data:`MISSING_MARKERS` (``?`` as Weka writes it,
  ``NA``, ``N/A``, ``null``, ``-`` ...), compared after stripping surrounding spaces.
* Decimal mark: ``.`` unless given, or detected as ``,`` when the separator is not a
  comma and a text column is made of numbers written with a decimal comma (``39,1``).
  A column whose comma cells all look like groups of three (``1,234``) is ambiguous:
  any column with a plain decimal comma (``39,1``) decides for the comma; without one, a
  semicolon file (Excel's European CSV) reads the comma as decimal mark and other files
  read it as a thousands separator. The note says which, and ``decimal`` overrides it.
* Thousands separators are removed only where they group digits in threes from the
  first, non-zero, group of one to three digits: ``12,345`` and ``1,234,567`` (decimal
  point), ``1.234,5`` (decimal comma), ``1 234`` (space, no-break space) and ``1'234``.
* Stray cells: a text column whose non-missing cells are numbers except at most
  :data:`STRAY_MAX_FRACTION` of them and at most :data:`STRAY_MAX_CELLS` becomes a
  number column with the stray cells missing; the note lists them by line of the file
  (the header is line 1, the first data row line 2; blank lines skipped by the reader and
  cells spanning several lines shift the count). A column with more stray cells
  stays text, with a warning when at least half of its cells are numbers.

Files
-----
:func:`choose_encoding`, :func:`check_text` and :func:`read_or_explain` decide, before and
while pandas reads a file, what it is and say in one line what is wrong with it:
byte order marks (UTF-8, UTF-16, UTF-32) and UTF-16 without one are recognised, a
file that is not UTF-8 is read as Shift-JIS, Windows-1252 or latin-1 by a stated rule
(:func:`_not_utf8`), a given encoding is used as given, binary files are named by their signature (a PNG image,
a ZIP archive or Excel workbook ...), comment lines (``#``) and rows with more cells
than the header are pointed at by line.  Every message is one line that starts with a
word.
"""
from __future__ import annotations

import codecs
import re
import unicodedata
import warnings
from typing import Callable, NoReturn, Optional

import numpy as np
import pandas as pd

from engine.input.csv_bounds import Bound, BoundedFile, ReadStopped
from engine.input.csv_pieces import read_csv_pieces
from engine.foundation.errors import EngineError
from engine.foundation.messages import ENCODINGS_LISTED
from engine.foundation.notes import Note
from engine.input.text_values import contains, distinct_texts, per_row
from engine.input.text_values import stripped as stripped_texts

#: Cell texts read as missing values (besides empty and blank cells).
MISSING_MARKERS = frozenset({"?", "NA", "N/A", "n/a", "na", "NaN", "nan", "null", "NULL",
                             "None", "-", "--", "#N/A", "<NA>"})
#: Markers to add to pandas' own list of missing values when reading.
PANDAS_EXTRA_NA = ["?", "na", "-", "--"]
#: A number column may hold at most this fraction of stray (non-number) cells ...
STRAY_MAX_FRACTION = 0.05
#: ... and at most this many.
STRAY_MAX_CELLS = 20
#: Thousands separators tried when none is given (besides the comma or the dot).
SPACE_SEPARATORS = (" ", "\u00a0", "\u202f", "'")

_PLAIN = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_INFINITE = re.compile(r"[+-]?(?:inf|infinity)", re.IGNORECASE)
_COMMA_GROUPS = re.compile(r"[+-]?[1-9]\d{0,2}(?:,\d{3})+")
_CONTROL_NAMES = {"\r": "\\r", "\n": "\\n", "\t": "\\t"}
#: Unicode categories written out by :func:`visible`: control (C0, DEL, C1), format
#: (bidirectional overrides, zero-width characters, soft hyphen, byte order mark ...),
#: line and paragraph separators, and lone surrogates (which no file can hold).
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_NOT_PLAIN_ASCII = re.compile(r"[^\x20-\x7e]")


def _written_out(match) -> str:
    char = match.group()
    if unicodedata.category(char) not in INVISIBLE_CATEGORIES:
        return char
    code = ord(char)
    if char in _CONTROL_NAMES:
        return _CONTROL_NAMES[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every invisible control character written out: ``\\t``, ``\\x00``,
    ``\\x85``, ``\\u2028``, ``\\u202e`` ...

    Written out are the Unicode categories :data:`INVISIBLE_CATEGORIES`: control
    characters (C0, DEL and C1, such as ESC and U+0085 NEXT LINE), format characters
    (U+202E RIGHT-TO-LEFT OVERRIDE, zero-width spaces and joiners, U+FEFF), the line and
    paragraph separators U+2028 and U+2029, and lone surrogates.  What is left cannot
    break a line (``str.splitlines`` splits on none of it), reorder a terminal's text or
    send it a command.  This is the one place text is made visible: CSV cells and
    names (:mod:`engine.output.tables`), ``notes.txt``, ``report.md`` and every printed line
    use it.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        The same text when it holds no such character.
    """
    if text.isprintable():                # holds none of them (the usual case, fast)
        return text
    return _NOT_PLAIN_ASCII.sub(_written_out, text)


def plain_number(cell: str, *, decimal: str = ".", thousands=None) -> Optional[str]:
    """The text of a number cell in plain form (``-1234.5``), or None if not a number.

    Parameters
    ----------
    cell : str
        The cell as written (``'1.234,5'``, ``'12,345'``, ``' 39,1 '``, ``'inf'``).
    decimal : {'.', ','}
        The decimal mark.
    thousands : str or sequence of str, optional
        Thousands separator(s) allowed; by default the comma (decimal point) or the dot
        (decimal comma), the space, the no-break spaces and the apostrophe.

    Returns
    -------
    str or None
    """
    text = str(cell).strip().replace("\u2212", "-")
    if _INFINITE.fullmatch(text):
        return text
    for sep in _separators(decimal, thousands):
        if sep in text and _grouped(sep, decimal).fullmatch(text):
            text = text.replace(sep, "")
            break
    if decimal == ",":
        if "." in text:
            return None
        text = text.replace(",", ".")
    return text if _PLAIN.fullmatch(text) else None


_SIMPLE = {".": _PLAIN, ",": re.compile(r"[+-]?\d+(?:,\d+)?")}


def _plain_numbers(cells: pd.Series, decimal: str, thousands, give_up: bool = False):
    """:func:`plain_number` of each (stripped) cell, missing where not a number; None
    when ``give_up`` and a long column plainly holds text (saves time on big files)."""
    uniques = pd.Series(cells.unique(), dtype=object)
    if give_up and len(uniques) > 200 and \
            not any(plain_number(c, decimal=decimal, thousands=thousands) for c in uniques[:50]):
        return None
    simple = uniques.str.fullmatch(_SIMPLE[decimal]).to_numpy(dtype=bool)
    plain = uniques.where(simple, None)
    if decimal == ",":
        plain[simple] = uniques[simple].str.replace(",", ".", regex=False)
    plain[~simple] = [plain_number(c, decimal=decimal,
                                   thousands=thousands) for c in uniques[~simple]]
    return cells.map(dict(zip(uniques, plain)))


def _separators(decimal: str, thousands) -> tuple:
    if thousands is None:
        return ("," if decimal == "." else ".",) + SPACE_SEPARATORS
    if isinstance(thousands, str):
        return (thousands,) if thousands else ()
    return tuple(thousands)


_GROUPED: dict[tuple[str, str], object] = {}


def _grouped(sep: str, decimal: str):
    key = (sep, decimal)
    if key not in _GROUPED:
        s, d = re.escape(sep), re.escape(decimal)
        _GROUPED[key] = re.compile(rf"[+-]?[1-9]\d{{0,2}}(?:{s}\d{{3}})+(?:{d}\d+)?")
    return _GROUPED[key]


def _text_columns(frame: pd.DataFrame) -> list:
    dtypes = frame.dtypes.tolist()          # by position: names may repeat
    return [i for i, dtype in enumerate(dtypes)
            if not pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)]


def _cells(column: pd.Series) -> pd.Series:
    """Non-missing cells as stripped text, missing markers left out."""
    rows, texts = distinct_texts(column)
    texts = stripped_texts(texts)
    keep = per_row(rows, np.array([t != "" and t not in MISSING_MARKERS for t in texts],
                                  dtype=bool), False)
    return pd.Series(texts[rows[keep]], index=column.index[keep], dtype=object,
                     name=column.name)


def _detect_decimal(text_cells: dict, sep: str) -> tuple:
    if sep == ",":
        return ".", None
    certain, ambiguous = None, None
    for name, cells in text_cells.items():
        commas = cells[contains(cells, ",")]
        if commas.empty:
            continue
        fits = _plain_numbers(cells, ",", None).notna()
        if (~fits).sum() > _stray_allowance(len(cells)):
            continue
        groups = commas.str.fullmatch(_COMMA_GROUPS)
        if not groups.all():
            certain = certain or (name, commas[~groups].iloc[0])
        else:
            ambiguous = ambiguous or (name, commas.iloc[0])
    if certain:
        column, example = certain
        value = plain_number(example, decimal=',')
        return ",", Note("decimal_comma", fields={"column": column, "example": example,
                                                  "value": value, "certain": True})
    if ambiguous and sep == ";":
        column, example = ambiguous
        value = plain_number(example, decimal=',')
        return ",", Note("decimal_comma", fields={"column": column, "example": example,
                                                  "value": value, "certain": False})
    return ".", None


def _stray_allowance(n_cells: int) -> int:
    return int(min(STRAY_MAX_CELLS, np.floor(STRAY_MAX_FRACTION * n_cells + 1e-9)))


def parse_text_columns(frame: pd.DataFrame, sep: str, *, decimal: Optional[str] = None,
                       thousands: Optional[str] = None,
                       raw_text: Optional[Callable[[], pd.DataFrame]] = None) -> tuple:
    """Turn the number columns pandas left as text into numbers.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as pandas read it (its index numbers the data rows from 0).
    sep : str
        The file's separator (a decimal comma is detected only when it is not a comma).
    decimal : {'.', ','}, optional
        The decimal mark; detected when not given.
    thousands : str, optional
        The only thousands separator to accept (``''`` for none); by default the ones
        listed in :func:`plain_number`.
    raw_text : callable, optional
        Returns the same table read as text, column by column in the same order; used
        in decimal-comma files to check the columns pandas read as numbers with a
        decimal point (``3.750`` is 3750 there).

    Returns
    -------
    (frame, notes) : (pandas.DataFrame, list of Note)
        A new frame: numbers where the rules allow, missing markers as missing values,
        other text cells stripped of surrounding spaces.
    """
    notes = []
    frame = frame.copy(deep=False)          # columns are replaced whole, never written into
    text_cells = {i: _cells(frame.iloc[:, i]) for i in _text_columns(frame)}
    if decimal is None:
        decimal, note = _detect_decimal({frame.columns[i]: cells
                                         for i, cells in text_cells.items()}, sep)
        if note:
            notes.append(note)
    pandas_floats = [i for i, dtype in enumerate(frame.dtypes.tolist())
                     if pd.api.types.is_float_dtype(dtype)]
    stripped = []
    for i, cells in text_cells.items():
        name = frame.columns[i]
        column = frame.iloc[:, i]
        parsed, more = _parse_column(name, cells, column.index, decimal, thousands)
        notes.extend(more)
        if parsed is not None:
            frame.isetitem(i, parsed)
            continue
        if column.index.is_unique:
            text = cells.reindex(column.index)
        else:
            text = pd.Series(np.nan, index=column.index, dtype=object)
            text.loc[cells.index] = cells.to_numpy(dtype=object)
        if _cells_changed(column, cells):
            stripped.append(name)
        # pandas takes a Series here; pandas-stubs 3.1 lists none
        frame.isetitem(i, text)  # type: ignore[arg-type]
    if stripped:
        notes.append(Note("spaces_removed", fields={"columns": stripped}))
    if decimal == "," and raw_text is not None and pandas_floats and thousands in (None, "."):
        notes.extend(_dot_thousands(frame, pandas_floats, raw_text))
    return frame, notes


def _plainly_text(uniques, decimal: str, thousands) -> bool:
    """True when a column of few distinct texts has no number among them and, with a
    decimal point, no comma (the rules of :func:`_parse_column` then keep it as text
    without a note); judged on the distinct texts only."""
    if len(uniques) > 200:
        return False
    return not any(plain_number(text, decimal=decimal,
                                thousands=thousands) is not None for text in uniques) \
        and not (decimal == "." and any("," in text for text in uniques))


def _cells_changed(column: pd.Series, cells: pd.Series) -> bool:
    """True when a present cell of ``column`` is not in ``cells`` as it is (its spaces
    removed, read as missing, or not a text); judged once per distinct text."""
    values = column.to_numpy(dtype=object)
    if pd.api.types.infer_dtype(values, skipna=True) not in ("string", "empty"):
        return len(cells) < column.notna().sum() or bool((cells != column.loc[cells.index]).any())
    return any(text != text.strip() or text == "" or text in MISSING_MARKERS
               for text in pd.factorize(values)[1])


def _parse_column(name, cells: pd.Series, index, decimal: str, thousands) -> tuple:
    """(numbers as a Series over ``index`` or None, notes) for one text column."""
    if cells.empty or _plainly_text(cells.unique(), decimal, thousands):
        return None, []
    plain = _plain_numbers(cells, decimal, thousands, give_up=True)
    if plain is None:
        return None, []
    good = plain.notna()
    n_good, n_bad = int(good.sum()), int((~good).sum())
    allowance = _stray_allowance(len(cells))
    if n_bad > allowance:
        shown = list(cells[~good].unique()[:3])
        if decimal == "." and contains(cells, ",").any() and \
                _plain_numbers(cells, ",", None).isna().sum() <= allowance:
            return None, [Note("decimal_comma_as_text",
                               fields={"column": name, "examples": shown})]
        if n_good >= 0.5 * len(cells):
            return None, [Note("numbers_as_text", fields={
                "column": name, "n_bad": n_bad, "n_cells": len(cells), "examples": shown})]
        return None, []
    numbers = pd.to_numeric(plain[good], errors="coerce")
    if numbers.dtype == object or numbers.isna().any():
        numbers = pd.to_numeric(plain[good].astype(float), errors="coerce")
    complete = n_bad == 0 and len(cells) == len(index)
    out = pd.Series(np.nan, index=index, dtype=float)
    out.loc[numbers.index] = numbers.astype(float)
    if complete and pd.api.types.is_integer_dtype(numbers):
        out = numbers.reindex(index)
    notes = []
    grouped = cells[good & cells.map(lambda c: plain_number(c, decimal=decimal,
                                                            thousands=()) is None)]
    if not grouped.empty:
        example, value = grouped.iloc[0], plain[grouped.index[0]]
        notes.append(Note("thousands_grouped", fields={
            "column": name, "example": example, "value": value, "separator": None}))
    if n_bad:
        lines = [(int(row) + 2, cells[row]) for row in cells.index[~good]]
        notes.append(Note("stray_cells_missing",
                          fields={"column": name, "n_bad": n_bad, "lines": lines}))
    return out, notes


def _dot_thousands(frame: pd.DataFrame, floats: list, raw_text) -> list:
    """In a decimal-comma file, re-read the columns pandas read as numbers with a decimal
    point (``floats``: their positions) when each dot groups digits in threes (``3.750``
    is 3750 there)."""
    raw = raw_text()
    notes = []
    grouped = _grouped(".", ",")
    for i in floats:
        cells = _cells(raw.iloc[:, i])
        dotted = cells[contains(cells, ".")]
        if dotted.empty or not dotted.map(lambda c: bool(grouped.fullmatch(c))).all():
            continue
        numbers = pd.to_numeric(cells.str.replace(".", "", regex=False), errors="coerce")
        if numbers.isna().any():
            continue
        out = pd.Series(np.nan, index=frame.index, dtype=float)
        out.loc[numbers.index] = numbers.astype(float)
        # pandas takes a Series here; pandas-stubs 3.1 lists none
        frame.isetitem(i, out)  # type: ignore[arg-type]
        example, value = dotted.iloc[0], dotted.iloc[0].replace('.', '')
        notes.append(Note("thousands_grouped", fields={
            "column": frame.columns[i], "example": example, "value": value, "separator": "."}))
    return notes


# ----------------------------------------------------------------------------- files

def one_line(text: str) -> str:
    """``text`` on one line: line breaks and runs of spaces become one space, trimmed,
    other control characters written out (:func:`visible`)."""
    return visible(" ".join(str(text).split()))


#: File signatures: leading bytes -> (what the file is, what to do instead).
#: (signature, kind, fix): the fix is the ``fix`` field of ``file_binary_kind`` (worded
#: in the catalogue), "" to give the kind of file wanted.
_SPREADSHEET, _ARCHIVE = "spreadsheet", "archive"
SIGNATURES = (
    (b"\x89PNG", "a PNG image", ""), (b"\xff\xd8\xff", "a JPEG image", ""),
    (b"GIF8", "a GIF image", ""), (b"%PDF", "a PDF document", ""),
    (b"PK\x03\x04", "a ZIP archive", _ARCHIVE),
    (b"\xd0\xcf\x11\xe0", "an Excel 97-2003 workbook (or another old Office file)", _SPREADSHEET),
    (b"\x1f\x8b", "a gzip-compressed file", _ARCHIVE),
    (b"BZh", "a bzip2-compressed file", _ARCHIVE),
    (b"\xfd7zXZ", "an xz-compressed file", _ARCHIVE), (b"7z\xbc\xaf", "a 7-Zip archive", _ARCHIVE),
    (b"SQLite format 3\x00", "an SQLite database", ""), (b"PAR1", "a Parquet file", ""),
    (b"\x93NUMPY", "a NumPy array file", ""), (b"\x89HDF", "an HDF5 file", ""),
    (b"\x7fELF", "a program", ""),
)
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"),
         (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
_ENCODINGS = ENCODINGS_LISTED


def check_read_options(sep, encoding) -> None:
    """Refuse a ``sep`` or ``encoding`` that cannot be used, saying which would do."""
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in "\r\n\"'"):
        raise EngineError("sep_option", {"sep": sep})
    if encoding is None:
        return
    if not isinstance(encoding, str):
        raise EngineError("encoding_option", {"encoding": encoding})
    try:
        # getattr: codecs' CodecInfo
        usable = getattr(codecs.lookup(encoding), "_is_text_encoding", True)
        "a,b\n".encode(encoding).decode(encoding, errors="replace")
    except (LookupError, UnicodeError, ValueError, TypeError):
        usable = False
    if not usable:
        raise EngineError("encoding_unknown", {"encoding": encoding})


def choose_encoding(path: str, head: bytes, *, encoding: Optional[str] = None,
                    what: str = "a CSV text file") -> tuple:
    """The encoding to read a file with, from its first bytes, and a note when unusual.

    Parameters
    ----------
    path : str
        The file (for messages).
    head : bytes
        Its first bytes (64 KB).
    encoding : str, optional
        Given by the user: used as given (only a binary signature is refused).
    what : str
        What the file should be, for the messages (``"a CSV text file"``).

    Returns
    -------
    (encoding, notes) : (str, list of Note)
        A byte order mark decides; zero bytes in every other place mean UTF-16 without
        one; else UTF-8 when the bytes are UTF-8, else Shift-JIS (``cp932``),
        Windows-1252 (``cp1252``) or latin-1 by the rule of :func:`_not_utf8`, checked
        on the whole file (a file that does not decode as the choice throughout is read
        as latin-1).  The note (code ``encoding``) names the encoding used (``encoding``,
        ``name``) and, when the bytes also fit another, that one (``alternative``).

    Raises
    ------
    ValueError
        A binary file, named when its signature is known.
    """
    _refuse_signature(path, head, what)
    if encoding is not None:
        if "\x00" in head.decode(encoding, errors="replace").lstrip("\ufeff"):
            _refuse_binary(path, encoding, what)
        return encoding, []
    for bom, name in _BOMS:
        if head.startswith(bom):
            notes = [] if name == "utf-8-sig" else [
                Note("encoding", fields={"encoding": name, "how": "bom"})]
            return name, notes
    if b"\x00" in head:
        utf16 = _utf16_without_bom(head)
        if utf16 is None:
            _refuse_binary(path, None, what)
        return utf16, [Note("encoding", fields={"encoding": utf16, "how": "no_bom"})]
    encoding, notes = _utf8_or_latin1(head)
    if encoding in ("cp1252", "cp932"):
        encoding, notes = _whole_file_fits(path, encoding, notes)
    return encoding, notes


def _whole_file_fits(path: str, encoding: str, notes: list) -> tuple:
    """``(encoding, notes)`` unchanged when the whole file decodes as ``encoding`` (the
    choice was made on its first bytes; one pass, a megabyte at a time); else latin-1,
    which reads every byte."""
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        with open(path, "rb") as stream:
            while True:
                block = stream.read(1 << 20)
                decoder.decode(block, final=not block)
                if not block:
                    return encoding, notes
    except OSError:
        return encoding, notes          # not a file here (a test's sample): the sample decides
    except UnicodeDecodeError:
        name = NOT_UTF8_NAMES[encoding]
        return "latin-1", [Note("encoding",
                                fields={"encoding": "latin-1", "how": "not_utf8", "name": "latin-1",
                                 "ambiguous": False, "alternative": None,
                                 "starts_like": name})]


def _utf8_or_latin1(head: bytes) -> tuple:
    """UTF-8, else the single- or double-byte encoding the bytes fit (:func:`_not_utf8`)."""
    try:
        head.decode("utf-8")
        return "utf-8", []
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data" and exc.start >= len(head) - 3:
            return "utf-8", []          # a character cut at the end of the sample
    return _not_utf8(head)


#: The encodings a file that is not UTF-8 is read with, by their codec names: what the
#: notes call them.
NOT_UTF8_NAMES = {"cp1252": "Windows-1252 (cp1252)", "cp932": "Shift-JIS (cp932)",
                  "latin-1": "latin-1"}
_C1_BYTES = re.compile(rb"[\x80-\x9f]")
_JAPANESE_MARKS = re.compile(r"[\u3000-\u30ff\uff01-\uff5e]")   # kana, 、。「」, full width
_NOT_JAPANESE = re.compile(r"[\x80-\x9f\ue000-\uf8ff]")          # C1 and private use
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def _not_utf8(head: bytes) -> tuple:
    """``(encoding, [note])`` of a sample that is not UTF-8 (the stated rule).

    * Shift-JIS (Windows' ``cp932``) when the sample decodes as it, without C1 control
      or private-use characters, and either Windows-1252 cannot decode it or its
      Shift-JIS reading looks Japanese: it holds kana or Japanese punctuation, or at
      least half of its characters beyond ASCII are common two-byte ones (lead byte
      0x81-0x9F: the first level of kanji), two of them in a row somewhere
      (:func:`_looks_japanese`).
    * else Windows-1252 (``cp1252``) when the sample holds a byte 0x80-0x9F (``€``,
      smart quotes, dashes: C1 control characters in latin-1) and decodes as it;
    * else latin-1, which reads every byte (and is identical to Windows-1252 on files
      without bytes 0x80-0x9F).

    When Shift-JIS and one of the others both decode the sample, the note says so
    (``ambiguous``, ``alternative``).
    """
    western = "cp1252" if _C1_BYTES.search(head) and _decodes(head, "cp1252") else "latin-1"
    japanese = _decodes(head, "cp932")
    if japanese is not None and _NOT_JAPANESE.search(japanese):
        japanese = None
    western_fits = western == "cp1252" or not _C1_BYTES.search(head)
    if japanese is not None and (not western_fits or _looks_japanese(japanese)):
        return "cp932", [_encoding_note("cp932", western if western_fits else None)]
    return western, [_encoding_note(western, "cp932" if japanese is not None else None)]


def _decodes(head: bytes, encoding: str) -> Optional[str]:
    """The sample decoded (a character cut at its end left out), or None if it cannot be."""
    try:
        return codecs.getincrementaldecoder(encoding)().decode(head, final=False)
    except UnicodeDecodeError:
        return None


def _looks_japanese(text: str) -> bool:
    """Kana or Japanese punctuation, or mostly common two-byte characters (lead byte
    0x81-0x9F: kana, punctuation, the first level of kanji) with two in a row somewhere;
    Western text read as Shift-JIS gives rare kanji (accented letters are lead bytes
    0xE0-0xEF) or half-width katakana, one at a time."""
    if _JAPANESE_MARKS.search(text):
        return True
    total = common = longest = 0
    for run in _NON_ASCII_RUN.findall(text):
        streak = 0
        for char in run:
            total += 1
            if 0x81 <= char.encode("cp932")[0] <= 0x9F:
                common, streak = common + 1, streak + 1
                longest = max(longest, streak)
            else:
                streak = 0
    return longest >= 2 and common >= total / 2


def _encoding_note(encoding: str, alternative: Optional[str]) -> Note:
    name = NOT_UTF8_NAMES[encoding]
    return Note("encoding", fields={"encoding": encoding, "how": "not_utf8", "name": name,
                                   "ambiguous": alternative is not None,
                                   "alternative": alternative, "alternative_name":
                                   None if alternative is None
                                   else NOT_UTF8_NAMES[alternative]})


def _utf16_without_bom(head: bytes) -> Optional[str]:
    """``'utf-16-le'`` or ``'utf-16-be'`` when every other byte is zero, else None."""
    sample = head[: len(head) // 2 * 2][:8192]
    evens, odds = sample[0::2], sample[1::2]
    if not evens:
        return None
    for name, zeros, others in (("utf-16-le", odds, evens), ("utf-16-be", evens, odds)):
        if zeros.count(0) > 0.6 * len(zeros) and others.count(0) == 0:
            text = sample.decode(name, errors="replace")
            if "\x00" not in text and text.count("\ufffd") <= 1:
                return name
    return None


def _refuse_signature(path: str, head: bytes, what: str = "a CSV text file") -> None:
    for signature, kind, fix in SIGNATURES:
        if head.startswith(signature):
            if signature == b"PK\x03\x04" and b"xl/" in head[:4096]:
                kind, fix = "an Excel workbook (.xlsx)", "workbook"
            raise EngineError("file_binary_kind", {"path": str(path), "kind": kind,
                                                   "what": what, "fix": fix})


def _refuse_binary(path: str, encoding: Optional[str],
                   what: str = "a CSV text file") -> NoReturn:
    """Refuse a file with zero bytes (``encoding``: the one it was read as, if given)."""
    raise EngineError("file_binary", {"path": str(path), "encoding": encoding, "what": what})


def check_text(path: str, text: str) -> None:
    """Refuse a file whose first lines are comments (``#``): the header must come first.

    A first line that starts with ``#`` but splits into as many cells as the next line
    (``#id,x,y``) is a header, not a comment.

    Parameters
    ----------
    path : str
    text : str
        The decoded start of the file.
    """
    lines = [(number, line) for number, line in
             enumerate(text.lstrip("\ufeff").splitlines(), start=1) if line.strip()]
    if not lines or not lines[0][1].lstrip().startswith("#"):
        return
    number, first = lines[0]
    if len(lines) > 1 and not lines[1][1].lstrip().startswith("#") and \
            _same_cells(first, lines[1][1]):
        return
    raise EngineError("csv_comment_first", {"path": str(path), "line": number,
                                            "text": _shorten(first)})


def _same_cells(line: str, other: str) -> bool:
    """Whether two lines split into the same number (at least 2) of cells by a separator."""
    return any(line.count(sep) == other.count(sep) > 0 for sep in ",;\t|")


def _shorten(text: str, width: int = 40) -> str:
    text = one_line(text)
    return text if len(text) <= width else text[: width - 3] + "..."


_RAGGED = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_OPEN_QUOTE = re.compile(r"EOF inside string starting at row (\d+)")


def read_or_explain(path: str, options: dict, *, notes: Optional[list] = None,
                    bound: Optional[Bound] = None, **more):
    """``pandas.read_csv(path, **options, **more)``, with every reading problem a one-line
    ValueError that says what to change (pandas' warnings silenced).

    The first column is never taken as the index: pandas does that silently when the
    data rows have one cell more than the header, shifting every value one column to the
    right.  Rows with more cells than the header are refused (:func:`extra_cells` names
    the first), unless the extra cells are empty (a separator at the end of the lines):
    those are dropped, with a note.

    Parameters
    ----------
    path : str
    options : dict
        ``sep``, ``encoding``, ``nrows``, ``skipinitialspace``.
    notes : list, optional
        Receives the note about dropped empty cells.
    bound : engine.input.csv_bounds.Bound, optional
        Rows times columns and the longest row, checked while the file is read
        (:class:`engine.input.csv_bounds.BoundedFile`); a read past them is refused.
    **more
        Further ``read_csv`` arguments.

    A large file is read in pieces (:func:`engine.input.csv_pieces.read_csv_pieces`: the same
    table, about half the memory at the peak).
    """
    import pandas as pd

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = read_csv_pieces(path, opener=_opener(path, bound), index_col=False, **options,
                                    **more)
    except ReadStopped as exc:
        raise EngineError("read_stopped", {"path": str(path), **exc.fields}) from None
    except UnicodeError as exc:
        raise EngineError("csv_not_encoding", {"path": str(path),
                                               "encoding": options.get("encoding"),
                                               "detail": one_line(str(exc))}) from None
    except pd.errors.EmptyDataError:
        raise EngineError("csv_empty", {"path": str(path)}) from None
    except (pd.errors.ParserError, ValueError, OverflowError, IndexError) as exc:
        raise _parse_problem(path, options.get("sep"), str(exc)) from None
    if any("does not match length of data" in str(item.message) for item in caught):
        sep = options.get("sep")            # csv's reader needs one (pandas may sniff it)
        found = extra_cells(path, sep, options.get("encoding")) if sep else None
        if found is not None:
            line, saw, expected = found
            raise _parse_problem(path, options.get("sep"), f"Expected {expected} "
                                 f"fields in line {line}, saw {saw}")
        if notes is not None:
            notes.append(Note("trailing_separator"))
    return frame


def _opener(path: str, bound: Optional[Bound]) -> Optional[Callable]:
    """Opens ``path`` bounded by ``bound`` for each read (None without a bound)."""
    return None if bound is None else (lambda: BoundedFile(path, bound))


def extra_cells(path: str, sep: str, encoding: Optional[str]) -> Optional[tuple]:
    """``(line, cells, header cells)`` of the first row with a non-empty cell beyond the
    header's columns, or None (Python's csv reader; blank lines skipped as pandas does)."""
    import csv

    with open(path, encoding=encoding, errors="replace", newline="") as stream:
        reader = csv.reader(stream, delimiter=sep, skipinitialspace=True)
        header = None
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if header is None:
                header = len(row)
            elif len(row) > header and any(cell.strip() for cell in row[header:]):
                return reader.line_num, len(row), header
    return None


def _parse_problem(path: str, sep, message: str) -> EngineError:
    """The error of pandas' parser ``message``: a ragged line, an open quote or else."""
    ragged = _RAGGED.search(message)
    if ragged:
        expected, line, saw = ragged.groups()
        return EngineError("csv_ragged", {"path": str(path), "sep": sep, "line": int(line),
                                          "saw": int(saw), "expected": int(expected)})
    quote = _OPEN_QUOTE.search(message)
    if quote:
        return EngineError("csv_open_quote", {"path": str(path),
                                              "line": int(quote.group(1)) + 1})
    return EngineError("csv_unparsed", {"path": str(path), "sep": sep,
                                        "detail": one_line(message).rstrip(".")})
