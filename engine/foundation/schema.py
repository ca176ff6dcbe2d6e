"""The declared schema of experiment files, and its errors in plain words.

``engine/experiment.schema.json`` (JSON Schema, draft 2020-12, shipped as package data)
says which keys an experiment file may hold and what type and range each value has;
docs/experiment-schema.md describes it. :func:`check_experiment_schema` enforces it with
the ``jsonschema`` library and turns the most relevant failure into one line that names
the place in the file and what was expected::

    models[0].scale: expected true or false, got "no"

Stricter than plain JSON Schema: an integer is written without a fraction (``5``, not
``5.0``), every number is finite (no ``NaN`` or ``Infinity``, which Python's JSON reader
accepts) and at most :data:`MAX_INTEGER`, and nothing is nested deeper than
:data:`MAX_DEPTH` levels (checked before the schema is applied).
"""
from __future__ import annotations

import functools
import json
import math
import numbers
import re
from importlib.resources import files
from typing import Any, Iterable

from engine.foundation.errors import EngineError

SCHEMA_FILE = "experiment.schema.json"
#: No experiment needs more than a few levels; deeper values are refused up front.
MAX_DEPTH = 32
#: Larger integers are refused: none is meaningful in an experiment, and beyond 2**53 a
#: float cannot hold them (numpy and math then raise errors other than ValueError).
MAX_INTEGER = 2 ** 53
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SHOWN = 60      # characters of a value shown in a message


@functools.lru_cache(maxsize=None)
def experiment_schema() -> dict:
    """The JSON Schema of experiment files, as shipped in the ``engine`` package.

    Returns
    -------
    dict
        A fresh parse is cached; do not modify it.
    """
    return json.loads(files("engine").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))


def _is_integer(checker, value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_array(checker, value) -> bool:
    return isinstance(value, (list, tuple))


@functools.lru_cache(maxsize=None)
def _validator():
    """A draft 2020-12 validator of the schema: integers without a fraction, lists or
    tuples as arrays, and an empty registry so that no reference is ever fetched."""
    from jsonschema import Draft202012Validator, validators
    from referencing import Registry

    checker = Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_integer, "array": _is_array})
    strict = validators.extend(Draft202012Validator, type_checker=checker)
    return strict(experiment_schema(), registry=Registry())


def prepare_validator() -> None:
    """Build the schema's validator now (importing ``jsonschema`` and its dependencies
    takes about 0.2 s), e.g. on a background thread when a program starts, so that the
    first check is instant."""
    _validator()


def check_experiment_schema(data) -> None:
    """Check the JSON object of an experiment file against the schema.

    Parameters
    ----------
    data : object
        The parsed JSON (or an equivalent Python value: tuples count as lists).

    Raises
    ------
    ValueError
        One line naming where the file is wrong and what was expected there.
    """
    check_shape(data)
    from jsonschema.exceptions import best_match

    errors = list(_validator().iter_errors(data))
    if not errors:
        return
    try:
        error = best_match(errors)
    except TypeError:          # keys of mixed types (from Python callers) do not sort
        error = errors[0]
    place, problem = error_parts(error)
    raise EngineError("experiment_invalid", {"place": place, "keyword": error.validator,
                                             "problem": problem})


def check_shape(data) -> None:
    """Refuse values nested deeper than :data:`MAX_DEPTH`, numbers that are not finite and
    integers beyond :data:`MAX_INTEGER`, naming the place (an iterative walk: no
    recursion on deep values)."""
    stack: list[tuple[Any, tuple, int]] = [(data, (), 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            raise EngineError("experiment_not_finite", {"place": readable_path(path),
                                                        "value": show(value)})
        if _is_integer(None, value) and abs(value) > MAX_INTEGER:
            raise EngineError("experiment_huge_number", {
                "place": readable_path(path), "value": show(value), "limit": MAX_INTEGER})
        children: Iterable[tuple[Any, Any]]
        if isinstance(value, dict):
            children = value.items()
        elif isinstance(value, (list, tuple)):
            children = enumerate(value)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise EngineError("experiment_too_deep", {"place": _clip(readable_path(path)),
                                                      "depth": MAX_DEPTH})
        stack.extend((child, path + (key,), depth + 1) for key, child in children)


# ----------------------------------------------------------------------------- messages

def error_message(error) -> str:
    """One line for a ``jsonschema`` ValidationError: the place, then what was expected.

    Parameters
    ----------
    error : jsonschema.exceptions.ValidationError

    Returns
    -------
    str
        Such as ``dataset.csv: expected a file name (non-empty text), got 3``; no schema
        keywords or Python reprs.
    """
    where, text = error_parts(error)
    return f"{where}: {text}"


def error_parts(error) -> tuple:
    """(the place, what was expected there) of a ``jsonschema`` ValidationError (see
    :func:`error_message`)."""
    parent = error.parent
    if parent is not None and parent.validator in ("anyOf", "oneOf") \
            and _only_required(parent.validator_value):
        error = parent
    where, keyword = readable_path(error.absolute_path), error.validator
    schema, value = error.schema, error.instance
    handler = _HANDLERS.get(keyword)
    text = handler(error, schema, value) if handler else None
    if text is None:
        text = f"expected {describe(schema)}, got {show(value)}"
    return where, text


def _only_required(branches) -> bool:
    return all(isinstance(b, dict) and set(b) == {"required"} for b in branches)


def _required(error, schema, value):
    missing = [key for key in error.validator_value if key not in value]
    return "missing the key " + _or([_quoted(key) for key in missing], "and")


def _any_of(error, schema, value):
    if _only_required(error.validator_value):
        keys = [_quoted(branch["required"][0]) for branch in error.validator_value]
        return "missing the key " + _or(keys)
    return None


def _additional(error, schema, value):
    allowed = list(schema.get("properties", {}))
    extras = sorted((_key_text(k) for k in value if k not in allowed), key=str)
    context = f" {schema['title']}" if "then" in error.schema_path and "title" in schema else ""
    return (f"unknown key(s) {', '.join(extras)}; allowed{context}: "
            + ", ".join(_key_text(k) for k in allowed))


def _min_items(error, schema, value):
    got = "an empty list" if len(value) == 0 else f"{len(value)}"
    return f"expected at least {_items(schema, error.validator_value)}, got {got}"


def _max_items(error, schema, value):
    return f"expected at most {_items(schema, error.validator_value)}, got {len(value)}"


def _items(schema, count: int) -> str:
    """``one number`` / ``2 items``: ``count`` of what the list's ``items`` schema names."""
    noun = _resolve(schema.get("items", {})).get("title", "item") \
        if isinstance(schema.get("items"), dict) else "item"
    return f"one {noun}" if count == 1 else f"{count} {noun}s"


def _unique(error, schema, value):
    seen = []
    for item in value:
        if item in seen:
            return f"{show(item)} is listed twice"
        seen.append(item)
    return None


def _not(error, schema, value):
    keys = error.validator_value.get("required") if isinstance(error.validator_value, dict) \
        else None
    branches = error.validator_value.get("anyOf", []) \
        if isinstance(error.validator_value, dict) else []
    if isinstance(value, dict) and branches and _only_required(branches):   # exclusive keys
        keys = next((b["required"] for b in branches if set(b["required"]) <= set(value)), None)
    if keys:
        return f"give {_or([_quoted(k) for k in keys])}, not both"
    return f"{show(value)} is not allowed here"


def _enum(error, schema, value):
    if not _type_fits(schema, value) or "title" not in schema:
        return None
    return (f"unknown {schema['title']} {show(value)}; expected one of: "
            + ", ".join(_choice(v) for v in schema["enum"]))


_HANDLERS = {"required": _required, "anyOf": _any_of, "oneOf": _any_of,
             "additionalProperties": _additional, "minItems": _min_items,
             "maxItems": _max_items,
             "uniqueItems": _unique, "not": _not, "enum": _enum}


# ----------------------------------------------------------------------------- words

def describe(schema) -> str:
    """What a schema asks for, in words (``an integer from 2 to 1000``, ``true or
    false``, ``a file name (text)``)."""
    schema = _resolve(schema)
    if schema is True or schema == {}:
        return "any value"
    for combiner in ("anyOf", "oneOf"):
        if combiner in schema and "type" not in schema:
            return _or([describe(branch) for branch in schema[combiner]])
    if "const" in schema:
        return show(schema["const"])
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    title = schema.get("title")
    enum = [v for v in schema.get("enum", []) if v is not None]
    if enum and len(enum) <= 8:
        phrase = f"{_a(title)} ({_or([_choice(v) for v in enum])})" if title \
            else "one of " + _or([_choice(v) for v in enum])
    else:
        kinds = [t for t in types if t != "null"]
        if not kinds:
            return "null" if types else (_a(title) if title else "any value")
        phrase = _typed(kinds, schema)
    return phrase + (" or null" if "null" in types else "")


def _typed(kinds: list, schema: dict) -> str:
    title = schema.get("title")
    if len(kinds) > 1:
        plain = _or([word for k in kinds
                     for word in (["true", "false"] if k == "boolean" else [_KIND_WORDS[k]])])
        return f"{_a(title)} ({plain})" if title else plain
    kind = kinds[0]
    if kind in ("integer", "number"):
        return " ".join(filter(None, [_KIND_WORDS[kind], _bounds(schema)]))
    if kind == "boolean":
        return "true or false"
    if kind == "string":
        text = "non-empty text" if schema.get("minLength", 0) >= 1 else "text"
        if schema.get("maxLength") == 1:
            text = "one character"
        elif schema.get("maxLength"):
            text += f" of at most {_number(schema['maxLength'])} characters"
        return f"{_a(title)} ({text})" if title else text
    if kind == "object" and title and "object" not in title:
        return f"{_a(title)} (an object)"
    return _a(title) if title else _KIND_WORDS[kind]


_KIND_WORDS = {"integer": "an integer", "number": "a number", "string": "text",
               "boolean": "true or false", "array": "a list", "object": "an object",
               "null": "null"}


def _bounds(schema: dict) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"from {_number(low)} to {_number(high)}"
    parts = []
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"),
                      ("exclusiveMaximum", "<")):
        if key in schema:
            parts.append(f"{sign} {_number(schema[key])}")
    return " and ".join(parts)


def _number(value) -> str:
    return f"{value:,}" if isinstance(value, int) and abs(value) >= 100_000 else str(value)


def _resolve(schema):
    """A local ``$ref`` replaced by what it points to (its siblings kept)."""
    if not isinstance(schema, dict) or "$ref" not in schema:
        return schema
    target = experiment_schema()
    for part in schema["$ref"].lstrip("#/").split("/"):
        target = target[part]
    merged = {**_resolve(target), **{k: v for k, v in schema.items() if k != "$ref"}}
    return merged


def _type_fits(schema: dict, value) -> bool:
    types = schema.get("type")
    if types is None:
        return True
    types = [types] if isinstance(types, str) else types
    return any(_validator().is_type(value, kind) for kind in types)


def readable_path(path) -> str:
    """A place in the file as it reads in code: ``models[2].params.n_estimators``
    (``the experiment`` for the whole file)."""
    text = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text = (text or "the experiment") + f"[{part}]"
        elif isinstance(part, str) and _NAME.fullmatch(part):
            text = f"{text}.{part}" if text else part
        else:
            text = (text or "the key") + (f"[{_quoted(str(part))}]" if text else
                                          f" {_quoted(str(part))}")
    return text or "the experiment"


def show(value) -> str:
    """A value from the file as JSON writes it, explained when it is a list or object,
    shortened when long, with any invisible character written out."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        return _clip(_quoted(value))
    if isinstance(value, numbers.Integral) and abs(int(value)) >= 10 ** 30:
        return "an integer of more than 30 digits"
    if isinstance(value, numbers.Real):
        if isinstance(value, float) and not math.isfinite(value):
            return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        return _clip(str(value))
    if isinstance(value, (list, tuple)):
        return f"a list ({_clip(_json(value))})" if value else "an empty list"
    if isinstance(value, dict):
        return f"an object ({_clip(_json(value))})" if value else "an empty object"
    return f"a value of type {type(value).__name__}"


def printable(text: str) -> str:
    """``text`` with every character that is not printable written out (``\\n``,
    ``\\t``, ``\\u2028`` ...): one line, nothing invisible.

    The escaper of messages: a value quoted in a one-line message (an experiment file's
    key or value, a JSON pointer's part) shows what it holds, in the escapes of Python
    and JSON.  Not the HTML escaper (:func:`engine.foundation.html_text.html_text`: a
    message is plain text) nor the spreadsheet one (:func:`engine.output.tables.safe_cell`).
    """
    return "".join(ch if ch == " " or ch.isprintable() else _written_out(ch) for ch in text)


def _json(value) -> str:
    try:
        return printable(json.dumps(value, ensure_ascii=False, skipkeys=True, default=str))
    except (TypeError, ValueError, RecursionError):     # e.g. an integer of 5000 digits
        return "…"


def _quoted(text: str) -> str:
    return printable(json.dumps(text, ensure_ascii=False))


def _written_out(ch: str) -> str:
    """One character that is not printable as its Python/JSON escape."""
    code = ord(ch)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch)
    return named or (f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")


def _clip(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"


def _choice(value) -> str:
    return value if isinstance(value, str) and _NAME.fullmatch(value) else show(value)


def _key_text(key) -> str:
    return key if isinstance(key, str) and _NAME.fullmatch(key) else show(key)


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _or(words: list, last: str = "or") -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]
