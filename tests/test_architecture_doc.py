"""docs/architecture.md's module map against the tree: every module of engine/ and gui/
named once, under the floor or package it belongs to, marked public exactly when it is in
``engine.PUBLIC_MODULES``; and every module the page names exists (issue #40)."""
import pathlib
import re

import pytest

import engine

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
ENTRY = re.compile(r"^- `((?:engine|gui)(?:\.\w+)*)`( \*\(public\)\*)? — \S")
DOTTED = re.compile(r"`((?:engine|gui)\.[\w.]+)")


def tree_modules(root: pathlib.Path = ROOT) -> set:
    """Every module and package under engine/ and gui/ of ``root``, by its dotted name."""
    found = set()
    for package in ("engine", "gui"):
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def module_map() -> list:
    """``(heading names, module, public mark)`` for every entry of the module map."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## The module map\n", 1)[1].split("\n## ", 1)[0]
    entries, heading = [], ()
    for line in section.splitlines():
        if line.startswith("### "):
            heading = tuple(re.findall(r"`([\w.]+)`", line))
        elif line.startswith("- `"):
            match = ENTRY.match(line)
            assert match, f"not a module map entry: {line!r}"
            entries.append((heading, match.group(1), bool(match.group(2))))
    return entries


def group_of(module: str, groups: set) -> str:
    """The longest heading name that is ``module`` or a package holding it."""
    owners = [g for g in groups if module == g or module.startswith(g + ".")]
    return max(owners, key=len) if owners else ""


def test_the_map_names_every_module_once_and_only_real_ones():
    named = [module for _, module, _ in module_map()]
    assert len(named) == len(set(named)), "a module is named twice"
    modules = tree_modules()
    assert len(modules) > 200                       # the walk found the tree
    assert sorted(modules - set(named)) == [], "modules missing from docs/architecture.md"
    assert sorted(set(named) - modules) == [], "the map names modules that do not exist"


def test_each_module_sits_under_its_own_floor_or_package():
    entries = module_map()
    groups = {name for heading, _, _ in entries for name in heading}
    misplaced = [(module, heading) for heading, module, _ in entries
                 if group_of(module, groups) not in heading]
    assert misplaced == []


def test_the_floors_follow_the_layers_contract():
    tomllib = pytest.importorskip("tomllib")      # Python 3.11+
    with open(ROOT / "pyproject.toml", "rb") as stream:
        contracts = tomllib.load(stream)["tool"]["importlinter"]["contracts"]
    layers, = [c["layers"] for c in contracts if c["type"] == "layers"]
    expected = [tuple(part.strip() for part in layer.split(":")) for layer in layers]
    floors = []
    for heading, _, _ in module_map():
        if heading and heading[0].startswith("engine.") and heading not in floors:
            floors.append(heading)
    assert floors == expected


def test_public_marks_are_engine_public_modules():
    marked = {module for _, module, public in module_map() if public}
    assert marked == set(engine.PUBLIC_MODULES)


def test_every_module_the_page_names_exists():
    """A dotted name in backticks anywhere on the page (``engine.runs.store.ResultStore``)
    starts with a module that exists, so a renamed or removed module shows up here."""
    modules = tree_modules()
    text = DOC.read_text(encoding="utf-8")
    unknown = sorted({name for name in DOTTED.findall(text)
                      if not any(".".join(name.split(".")[:n]) in modules
                                 for n in range(2, name.count(".") + 2))
                      and not hasattr(engine, name.split(".")[1])})   # engine.PUBLIC_MODULES
    assert unknown == []


def test_the_walk_names_packages_and_modules(tmp_path):
    """A package is named by its folder, a module by its file; both are found at any depth,
    so a new module or subpackage is one the map must name."""
    (tmp_path / "engine" / "newfloor").mkdir(parents=True)
    (tmp_path / "engine" / "__init__.py").write_text("")
    (tmp_path / "engine" / "newfloor" / "__init__.py").write_text("")
    (tmp_path / "engine" / "newfloor" / "thing.py").write_text("")
    (tmp_path / "gui").mkdir()
    (tmp_path / "gui" / "window.py").write_text("")
    assert tree_modules(tmp_path) == {"engine", "engine.newfloor", "engine.newfloor.thing",
                                      "gui.window"}
