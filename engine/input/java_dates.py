"""Dates written as a Java ``SimpleDateFormat`` pattern says (ARFF's ``date`` attributes).

Weka parses the values of a ``@attribute NAME date [PATTERN]`` with
``java.text.SimpleDateFormat(PATTERN)``, not lenient (a 13th month is an error), and
stores milliseconds since 1970-01-01 00:00 UTC. This module reads the same patterns:
the letters ``y M d H k K h m s S a E D z Z X`` (``L`` as ``M``), quoted text (``'T'``,
``''`` for a quote) and other characters as themselves. Numbers take any count of digits
unless the next field is a number too (``yyyyMMdd``: then exactly as many as letters);
a two-digit year for ``yy`` falls within 80 years before and 20 after today, as in Java.
A value without a time zone is taken as UTC (Weka takes the computer's own zone, so the
same file gives other numbers on another computer).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Iterable, Optional

import numpy as np

from engine.foundation.caller_errors import DetailError, detail_of
from engine.foundation.errors import EngineError, error_code

#: Weka's pattern when an ARFF date attribute gives none (ISO 8601).
DEFAULT_PATTERN = "yyyy-MM-dd'T'HH:mm:ss"

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMERIC = set("yMdHkKhmsSD")
_TEXT_MONTH = "|".join(sorted([m for m in MONTHS] + [m[:3] for m in MONTHS], key=len,
                              reverse=True))
_TEXT_DAY = "|".join(sorted([d for d in DAYS] + [d[:3] for d in DAYS], key=len, reverse=True))
_ZONE = r"Z|[+-]\d{2}(?::?\d{2})?|(?:GMT|UTC)(?:[+-]\d{1,2}(?::?\d{2})?)?"
_RANGES = {"h": (1, 12), "K": (0, 11), "k": (1, 24), "S": (0, 999), "D": (1, 366)}
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class DatePattern:
    """A compiled ``SimpleDateFormat`` pattern (see :func:`compile_pattern`)."""

    pattern: str
    regex: re.Pattern
    fields: tuple            # (group name, letter, count), in order

    def seconds(self, text: str) -> float:
        """Seconds since 1970-01-01 00:00 UTC of ``text``; a ValueError if it does not
        fit the pattern or names a day that does not exist."""
        match = self.regex.fullmatch(text.strip())
        if match is None:
            raise EngineError("date_unfit", {"text": text, "pattern": self.pattern})
        values = {letter: (match.group(group), count) for group, letter, count in self.fields}
        try:
            moment = _moment(values)
        except (ValueError, OverflowError) as exc:
            raise EngineError("date_invalid", {"text": text, "pattern": self.pattern,
                                               "detail": detail_of(exc)}) from None
        return (moment - _EPOCH).total_seconds()


def compile_pattern(pattern: Optional[str] = None) -> DatePattern:
    """Compile a Java ``SimpleDateFormat`` pattern.

    Parameters
    ----------
    pattern : str, optional
        Such as ``"yyyy-MM-dd HH:mm"``; by default :data:`DEFAULT_PATTERN`.

    Returns
    -------
    DatePattern

    Raises
    ------
    ValueError
        A pattern letter this reader does not know (``w``, ``W``, ``F``, ``u``, ``G``,
        ``Y``), or a quote that never closes.
    """
    pattern = DEFAULT_PATTERN if pattern is None else pattern
    parts = _split_pattern(pattern)
    regex, fields = [], []
    for i, (kind, value, count) in enumerate(parts):
        if kind == "text":
            regex.append(re.escape(value))
            continue
        following = parts[i + 1] if i + 1 < len(parts) else None
        abutting = following is not None and following[0] == "field" and \
            _is_number(following[1], following[2])
        group = f"f{i}"
        regex.append(f"(?P<{group}>{_field_regex(value, count, abutting)})")
        fields.append((group, value, count))
    return DatePattern(pattern, re.compile("".join(regex), re.IGNORECASE), tuple(fields))


def _split_pattern(pattern: str) -> list:
    """[(``'text'``, literal, 0) or (``'field'``, letter, count)]."""
    parts, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "'":
            if pattern[i + 1: i + 2] == "'":
                parts.append(("text", "'", 0))
                i += 2
                continue
            end = pattern.find("'", i + 1)
            while end != -1 and pattern[end + 1: end + 2] == "'":
                end = pattern.find("'", end + 2)
            if end == -1:
                raise EngineError("date_pattern_quote", {"pattern": pattern})
            parts.append(("text", pattern[i + 1: end].replace("''", "'"), 0))
            i = end + 1
        elif char.isascii() and char.isalpha():
            count = len(pattern[i:]) - len(pattern[i:].lstrip(char))
            letter = "M" if char == "L" else char
            if letter not in _NUMERIC | set("aEzZX"):
                raise EngineError("date_pattern_letter", {"pattern": pattern, "letter": char})
            parts.append(("field", letter, count))
            i += count
        else:
            parts.append(("text", char, 0))
            i += 1
    return parts


def _is_number(letter: str, count: int) -> bool:
    return letter in _NUMERIC and not (letter == "M" and count >= 3)


def _field_regex(letter: str, count: int, abutting: bool) -> str:
    if _is_number(letter, count):
        return rf"\d{{{count}}}" if abutting else r"\d+"
    return {"M": _TEXT_MONTH, "E": _TEXT_DAY, "a": "AM|PM"}.get(letter, _ZONE)


def _moment(values: dict) -> datetime:
    number = {k: int(v) for k, (v, _) in values.items() if k in _NUMERIC and v.isdigit()}
    for letter, (low, high) in _RANGES.items():
        if letter in number and not low <= number[letter] <= high:
            # internal: the detail of "date_invalid" (seconds() catches it)
            raise DetailError(f"{letter} must be from {low} to {high}")
    year = _year(*values["y"]) if "y" in values else 1970
    if "M" in values and "M" not in number:
        month = _month_number(values["M"][0])
    else:
        month = number.get("M", 1)
    if "D" in number and "M" not in values and "d" not in number:
        day0 = datetime(year, 1, 1) + timedelta(days=number["D"] - 1)
        if day0.year != year:
            # internal: the detail of "date_invalid" (seconds() catches it)
            raise DetailError("the day of the year is past the year's end")
        month, day = day0.month, day0.day
    else:
        day = number.get("d", 1)
    moment = datetime(year, month, day, _hour(values, number), number.get("m", 0),
                      number.get("s", 0), number.get("S", 0) * 1000,
                      tzinfo=_zone(values))
    return moment


def _year(text: str, count: int) -> int:
    year = int(text)
    if count <= 2 and len(text) == 2 and text.isdigit():
        start = datetime.now().year - 80          # Java: 80 years before, 20 after today
        year += start - start % 100 + (100 if year < start % 100 else 0)
    if year < 1:
        # internal: the detail of "date_invalid" (seconds() catches it)
        raise DetailError("the year must be 1 or later")
    return year


def _month_number(text: str) -> int:
    text = text.lower()
    return next(i for i, name in enumerate(MONTHS, start=1) if text in (name, name[:3]))


def _hour(values: dict, number: dict) -> int:
    pm = values.get("a", ("AM", 0))[0].upper() == "PM"
    if "H" in number:
        return number["H"]
    if "k" in number:
        return number["k"] % 24
    if "K" in number:
        return number["K"] + 12 * pm
    if "h" in number:
        return number["h"] % 12 + 12 * pm
    return 0


def _zone(values: dict) -> timezone:
    text = next((values[k][0] for k in "zZX" if k in values), None)
    if text is None or text.upper() in ("Z", "GMT", "UTC"):
        return timezone.utc
    offset = re.sub(r"^(?i:GMT|UTC)", "", text)
    sign = -1 if offset.startswith("-") else 1
    digits = offset[1:].replace(":", "")
    if len(digits) <= 2:
        hours, minutes = int(digits), 0
    else:
        hours, minutes = int(digits[:-2]), int(digits[-2:])
    if hours > 23 or minutes > 59:
        # internal: the detail of "date_invalid" (seconds() catches it)
        raise DetailError(f"the time zone {text!r} is out of range")
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def parse_dates(texts: Iterable, pattern: DatePattern, *, where=None) -> np.ndarray:
    """Seconds since 1970-01-01 00:00 UTC of each text (NaN for None); each different
    text is parsed once.

    Parameters
    ----------
    texts : iterable of str or None
    pattern : DatePattern
    where : callable, optional
        ``where(i)`` -> words placing the i-th text (``"line 12"``) for a message.

    Raises
    ------
    ValueError
        The first text that does not fit, with its place.
    """
    texts = list(texts)
    seen: dict = {None: np.nan}
    out = np.empty(len(texts), dtype=float)
    for i, text in enumerate(texts):
        value = seen.get(text)
        if value is None:
            try:
                value = seen[text] = pattern.seconds(text)
            except ValueError as exc:
                if where is None:
                    raise
                raise EngineError("date_at", {"place": where(i), "detail": str(exc),
                                              "cause": error_code(exc),
                                              "text": text}) from None
        out[i] = value
    return out
