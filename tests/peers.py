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


def r_package_skip(*packages: str, reason: str):
    """A skip mark for tests that run R with the given packages (``pROC``); never a skip
    when peers are required (CI installs ``r-base-core`` and ``r-cran-proc``)."""
    missing = [] if shutil.which("Rscript") else ["Rscript"]
    if not missing:
        missing = [name for name in packages if not _r_has(name)]
    return pytest.mark.skipif(bool(missing) and not REQUIRED,
                              reason=f"{reason} ({', '.join(missing)} not found)")


def _r_has(package: str) -> bool:
    """Whether R loads ``package`` (a 60-second bound; R starts in well under a second)."""
    import subprocess
    done = subprocess.run(["Rscript", "-e", f"library({package})"], capture_output=True,
                          timeout=60)
    return done.returncode == 0


def run_r(script: str, timeout: float = 120.0) -> str:
    """Run an R script with ``Rscript`` and return its standard output; fail on error."""
    import subprocess
    done = subprocess.run(["Rscript", "--vanilla", "-e", script], capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"Rscript failed: {done.stderr[-2000:]}")
    return done.stdout
