"""The floors pyproject.toml declares (the dependencies, the ``app``, ``test`` and ``cluster``
extras) are the versions .ci/oldest installs and tests: the one check of pins against floors.
.ci/oldest runs this file first, with ``HONEST_EVAL_OLDEST`` set, so it also checks that the
environment it built holds exactly those versions."""
import os
import re
from importlib import metadata

import pytest

try:
    import tomllib
except ImportError:                     # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Pins .ci/oldest installs only with --gui (HONEST_EVAL_OLDEST=gui).
GUI_ONLY = ("pyside6", "shiboken6", "pyqtgraph", "pytest-qt")


def version(text: str) -> tuple:
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (4 - len(parts)))


def floors(requirements: list) -> dict:
    """``{name: floor}`` of requirements such as ``"numpy>=1.23.2,<3"``."""
    found = {}
    for requirement in requirements:
        match = re.match(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*>=\s*([0-9.]+)", requirement)
        assert match, f"{requirement}: every dependency has a floor"
        found[match.group(1).lower()] = version(match.group(2))
    return found


def project() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as handle:
        return tomllib.load(handle)["project"]


def declared_floors() -> dict:
    """The floors of the dependencies and of the ``app``, ``test`` and ``cluster`` extras."""
    declared = project()
    extras = declared["optional-dependencies"]
    runtime, test = floors(declared["dependencies"]), floors(extras["test"])
    assert not set(runtime) & set(test), "a package is both a dependency and a test tool"
    return {**runtime, **floors(extras["app"]), **test, **floors(extras["cluster"])}


def pinned() -> dict:
    pins = {}
    with open(os.path.join(ROOT, ".ci", "oldest-constraints.txt"), encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#")[0].strip()
            if line:
                name, _, value = line.partition("==")
                name = name.split("[")[0]            # dask[distributed]: its extra's pins too
                pins[name.strip().lower()] = version(value.strip())
    return pins


def test_every_declared_floor_is_the_version_the_oldest_ci_step_tests():
    declared, pins = declared_floors(), pinned()
    assert {"numpy", "scikit-learn", "referencing", "pytest", "hypothesis",
            "setuptools"} <= set(declared)
    assert pins == declared


@pytest.mark.skipif(not os.environ.get("HONEST_EVAL_OLDEST"),
                    reason="checks the environment .ci/oldest builds (HONEST_EVAL_OLDEST)")
def test_the_oldest_environment_holds_exactly_the_pins():
    with_gui = os.environ["HONEST_EVAL_OLDEST"] == "gui"
    wanted = {name: pin for name, pin in pinned().items()
              if with_gui or not name.startswith(GUI_ONLY)}
    installed = {}
    for name in wanted:
        try:
            installed[name] = version(metadata.version(name))
        except metadata.PackageNotFoundError:
            installed[name] = None
    assert installed == wanted
