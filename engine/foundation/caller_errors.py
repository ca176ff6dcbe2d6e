"""Errors that are never the user's: a broken contract, and the detail of a coded error.

The engine has three kinds of ``ValueError``:

- :class:`engine.foundation.errors.EngineError`: the user's input cannot be used; a
  code of ``errors.CODES``, fields, and the catalogue's sentence.
- :class:`CallerError`: a caller broke a function's contract (an array of the wrong
  shape, a level outside (0, 1), a choice the function does not know). The app only
  calls these functions with values it checked, so a ``CallerError`` is a programming
  error -- a bug to report, never bad input to correct. It carries a code of
  :data:`CALLER_CODES` (disjoint from ``errors.CODES``) and a sentence for developers.
- :class:`DetailError`: why a stored value, a date or a model's output cannot be used,
  raised by a helper and caught by the function that raises the coded error
  (``store_damaged``, ``date_invalid``, ``model_failed``), which takes its ``detail``
  field from :func:`detail_of` instead of ``str(exc)``.

All three are ``ValueError``\\s, so every ``except ValueError`` keeps catching them; code
that tells the user what went wrong asks :func:`is_caller_error` first. This module
imports nothing of the project (:mod:`engine.foundation.notes` uses it).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Optional, TypeGuard

#: Every code of a :class:`CallerError`, with the contract it says was broken. Codes are
#: added, never renamed (like ``errors.CODES``).
CALLER_CODES = {
    "argument_value": "a number or count outside the function's bounds (a level outside "
                      "(0, 1), a negative rope, C <= 0, fewer than 2 folds ...)",
    "argument_choice": "a name the function does not know (a strategy, method, "
                       "correction, metric, start method, fix)",
    "argument_array": "arrays of the wrong shape, length, kind, or with missing or "
                      "infinite values, or empty",
    "argument_type": "an object of the wrong type, or a table without a needed column",
    "argument_missing": "an argument the function needs was not given (y, the costs, "
                        "the pairwise products, the outer splits)",
    "code_unregistered": "an error or note code not registered in its CODES",
    "name_not_own": "a file name that is not one of the app's own",
    "entry_point": "the wrong function for this input (an experiment of several data "
                   "sets to the one-data-set runner)",
}


class CallerError(ValueError):
    """A caller broke a function's contract: a programming error, never a user's input.

    Parameters
    ----------
    code : str
        Which contract: a key of :data:`CALLER_CODES`.
    message : str
        The sentence for the developer who called the function (``str(error)``).
    fields : mapping, optional
        Values the sentence was made from, by name.

    Examples
    --------
    >>> error = CallerError("argument_value", "level must lie in (0, 1), got 2", {"level": 2})
    >>> error.code, error.fields["level"], isinstance(error, ValueError)
    ('argument_value', 2, True)
    """

    def __init__(self, code: str, message: str, fields: Optional[Mapping] = None):
        if code not in CALLER_CODES:
            raise TypeError(f"unknown caller-error code {code!r}; add it to "
                            "engine.foundation.caller_errors.CALLER_CODES")
        super().__init__(message)
        self.code, self.message, self.fields = code, str(message), dict(fields or {})

    def __reduce__(self):
        return CallerError, (self.code, self.message, self.fields)

    def __repr__(self) -> str:
        return f"CallerError({self.code!r}, {self.message!r})"


class DetailError(ValueError):
    """Why a value cannot be used, for the coded error its caller raises.

    Parameters
    ----------
    detail : str
        The ``detail`` field of the coded error (``str(error)`` too).
    """

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = str(detail)

    def __reduce__(self):
        return DetailError, (self.detail,)


def detail_of(exc: BaseException) -> str:
    """The ``detail`` field for a coded error caused by ``exc``: a :class:`DetailError`'s
    detail, else the words of a foreign library's exception (``str(exc)``)."""
    return exc.detail if isinstance(exc, DetailError) else str(exc)


def is_caller_error(exc: BaseException) -> TypeGuard[CallerError]:
    """True for a :class:`CallerError`: a bug to report, not input to correct."""
    return isinstance(exc, CallerError)
