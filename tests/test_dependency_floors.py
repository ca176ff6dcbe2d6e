"""The floors pyproject.toml declares are the versions .ci/oldest installs and tests."""
import os
import re

import pytest

try:
    import tomllib
except ImportError:                     # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def version(text: str) -> tuple:
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (4 - len(parts)))


def declared_floors() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as handle:
        project = tomllib.load(handle)["project"]
    floors = {}
    for requirement in project["dependencies"]:
        match = re.match(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", requirement)
        assert match, f"{requirement}: every dependency has a floor"
        floors[match.group(1).lower()] = version(match.group(2))
    return floors


def pinned() -> dict:
    pins = {}
    with open(os.path.join(ROOT, ".ci", "oldest-constraints.txt"), encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#")[0].strip()
            if line:
                name, _, value = line.partition("==")
                pins[name.strip().lower()] = version(value.strip())
    return pins


def test_every_declared_floor_is_the_version_the_oldest_ci_step_tests():
    floors, pins = declared_floors(), pinned()
    assert set(floors) <= set(pins), sorted(set(floors) - set(pins))
    assert {name: pins[name] for name in floors} == floors
