"""The independent peers that parity tests compare with, skipped only where allowed.

On a developer's machine a missing peer skips its test (``pytest.importorskip``). In CI,
``.ci/run`` installs the ``peers`` extra and sets ``HONEST_EVAL_PEERS=required``: a
missing peer then fails the test, so a claim such as "equal to baycomp" is never skipped
where it counts.
"""
import importlib
import os
import shutil

import pytest

REQUIRED = os.environ.get("HONEST_EVAL_PEERS") == "required"


def peer(module: str):
    """Import the peer ``module``; skip the test without it, unless peers are required."""
    if REQUIRED:
        return importlib.import_module(module)
    return pytest.importorskip(module)


def program_skip(*programs: str, reason: str):
    """A skip mark for tests that run the given programs (Weka's Java, R); never a skip
    when peers are required."""
    missing = [name for name in programs if not shutil.which(name)]
    return pytest.mark.skipif(bool(missing) and not REQUIRED,
                              reason=f"{reason} ({', '.join(missing)} not found)")
