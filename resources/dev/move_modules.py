"""Group the engine's flat modules into subpackages, one per layer, and rewrite every reference.

The engine's layers (the import-linter "layers" contract in ``pyproject.toml``, the picture in
``docs/architecture.md``) become packages: ``foundation`` below ``input`` below
``evaluation`` below ``runs`` and ``output``.  The script

1. rewrites every engine-internal relative import (``from .x import``, ``from ..x import``)
   as an absolute ``engine.`` import, computed from the file's present location;
2. splits ``from engine import a, b`` when ``a`` and ``b`` go to different packages;
3. moves each module or package with ``git mv`` and gives each new package an ``__init__``;
4. rewrites dotted names (``engine.cv`` -> ``engine.evaluation.cv``) and paths
   (``engine/cv.py`` -> ``engine/evaluation/cv.py``) in every tracked text file: code, test
   strings (``monkeypatch.setattr("engine.x.y", ...)``), preload lists, docs, the bundle spec
   and ``pyproject.toml``;
5. rewraps the ``from engine... import`` statements step 4 made longer than 100 characters
   or left with unaligned continuation lines.

What it does not do: the import-linter layers contract in ``pyproject.toml`` and the layer
pictures in ``docs/architecture.md`` and ``docs/contributing.md`` were rewritten by hand
afterwards (they name packages now, not modules).

It is idempotent: modules already moved are skipped, and no old name is left to rewrite.

Usage::

    python resources/dev/move_modules.py            # move and rewrite
    python resources/dev/move_modules.py --dry-run  # print the moves only
"""
from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = "engine"

#: New package -> (its one-line docstring, the modules and packages it holds).
PACKAGES = {
    "foundation": (
        "The machine and the words every layer uses: notes, errors, progress, processes.",
        ["machine", "param_caps", "notes", "schema", "progress", "processes", "errors",
         "columns", "lazy"]),
    "input": (
        "Files, readers and data: CSV, ARFF, Excel, built-in sets, checks of what was read.",
        ["readers", "data", "arff", "excel", "csv_values", "csv_pieces", "data_checks",
         "index_columns", "java_dates", "dataset_names", "groups", "imbalance",
         "text_lengths", "file_checks", "text_values"]),
    "evaluation": (
        "Models, splits, scores and statistics: the experiment, CV, metrics, tests, curves.",
        ["experiment", "cv", "catalogue", "tuning", "metrics", "costs", "verdict", "stats",
         "advice", "per_class", "weka_folds", "parallel", "cluster", "aloocv", "calibration",
         "curves"]),
    "runs": (
        "Plan, check, run and store: preflight, guards, the runner, the result store, "
        "held-out tests, comparisons across datasets.",
        ["preflight", "benchmark", "analysis", "guards", "run_plan", "store", "fingerprint",
         "fit_rows", "grouping_gap", "runner", "across", "heldout"]),
    "output": (
        "What a run writes: the result folder, its tables and the HTML report.",
        ["result_folder", "folder_entries", "tables", "report"]),
}
#: Old module name (below ``engine``) -> its package.
MOVES = {name: package for package, (_, names) in PACKAGES.items() for name in names}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".spec", ".txt", ".html", ".json", ".cfg", ".ini",
                 ".rst", ".yml", ".yaml", ""}
SKIP = {Path(__file__).resolve()}

_NAMES = "|".join(sorted(MOVES, key=len, reverse=True))
_DOTTED = re.compile(rf"\b{TOP}\.({_NAMES})\b(?![\w/])")
_PATH = re.compile(rf"\b{TOP}/({_NAMES})(?=\.py\b|/)")
_FROM = re.compile(r"^from\s+[.\w]+\s+import\b")


def tracked_files() -> list:
    """Every tracked text file of the checkout (by suffix), as absolute paths."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.split()
    files = [ROOT / name for name in out]
    return [p for p in files if p.suffix in TEXT_SUFFIXES and p.is_file()
            and p.resolve() not in SKIP]


def _package_of(path: Path) -> list:
    """The dotted package a module file lives in, as parts."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts.pop()                      # the module itself, or __init__
    return parts


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    if node.level == 0:
        return node.module or ""
    base = _package_of(path)
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _alias_text(alias: ast.alias) -> str:
    return alias.name + (f" as {alias.asname}" if alias.asname else "")


def _split_engine_import(node: ast.ImportFrom, indent: str) -> str:
    """``from engine import a, b`` as one ``from engine.<package> import`` line per package."""
    groups: dict = {}
    for alias in node.names:
        package = MOVES.get(alias.name)
        module = f"{TOP}.{package}" if package else TOP
        groups.setdefault(module, []).append(_alias_text(alias))
    lines = [f"from {module} import {', '.join(names)}" for module, names in groups.items()]
    return ("\n" + indent).join(lines)


def rewrite_imports(path: Path, source: str) -> str:
    """Step 1 and 2 on one Python file: relative engine imports made absolute, split."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0 and node.module != TOP:
            continue
        module = _absolute(node, path)
        if not (module == TOP or module.startswith(TOP + ".")):
            continue
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        text = source[start:end]
        if module == TOP and any(a.name in MOVES for a in node.names):
            indent = lines[node.lineno - 1][:node.col_offset]
            new = _split_engine_import(node, indent)
        else:
            new = _FROM.sub(f"from {module} import", text, count=1)
        if new != text:
            edits.append((start, end, new))
    for start, end, new in sorted(edits, reverse=True):
        source = source[:start] + new + source[end:]
    return source


def rewrite_names(text: str) -> str:
    """Step 4: dotted names and paths of moved modules, in any text."""
    text = _DOTTED.sub(lambda m: f"{TOP}.{MOVES[m.group(1)]}.{m.group(1)}", text)
    return _PATH.sub(lambda m: f"{TOP}/{MOVES[m.group(1)]}/{m.group(1)}", text)


def wrap_imports(source: str, width: int = 100) -> str:
    """Step 5: ``from engine... import`` statements step 4 made too long or unaligned, rewrapped.

    Statements holding a comment are left alone (wrapping would lose it).
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.level == 0
                and (node.module or "").startswith(TOP + ".")):
            continue
        span = lines[node.lineno - 1:node.end_lineno]
        indent = lines[node.lineno - 1][:node.col_offset]
        head = f"from {node.module} import ("
        aligned = all(line.startswith(indent + " " * len(head))
                      and line[len(indent) + len(head)] != " " for line in span[1:])
        if max(len(line.rstrip("\n")) for line in span) <= width and aligned:
            continue
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        if "#" in source[start:end] or lines[node.end_lineno - 1][node.end_col_offset:].strip():
            continue
        names = [_alias_text(alias) for alias in node.names]
        out, line = [], indent + head
        for i, name in enumerate(names):
            piece = name + (")" if i == len(names) - 1 else ",")
            if len(line) + 1 + len(piece) > width and line.strip() != head.strip():
                out.append(line.rstrip())
                line = indent + " " * len(head) + piece
            else:
                line += ("" if line.endswith("(") else " ") + piece
        out.append(line)
        edits.append((start, end, "\n".join(out)[len(indent):]))
    for start, end, new in sorted(edits, reverse=True):
        source = source[:start] + new + source[end:]
    return source


def _old_path(name: str) -> Path:
    package = ROOT / TOP / name
    return package if package.is_dir() else ROOT / TOP / f"{name}.py"


def move(dry_run: bool) -> list:
    """Step 3: ``git mv`` every module still at its old place; new ``__init__`` files."""
    moved = []
    for package, (doc, names) in PACKAGES.items():
        folder = ROOT / TOP / package
        init = folder / "__init__.py"
        for name in names:
            old = _old_path(name)
            if not old.exists():
                continue
            new = folder / old.name
            moved.append((old, new))
            if dry_run:
                continue
            folder.mkdir(exist_ok=True)
            subprocess.run(["git", "mv", str(old), str(new)], cwd=ROOT, check=True)
        if not dry_run and not init.exists():
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
    return moved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    moved = move(dry_run=True)
    for old, new in moved:
        print(f"{old.relative_to(ROOT)} -> {new.relative_to(ROOT)}")
    if args.dry_run or not moved:
        return 0
    for path in tracked_files():
        if path.suffix == ".py":
            text = path.read_text(encoding="utf-8")
            new = rewrite_imports(path, text)
            if new != text:
                path.write_text(new, encoding="utf-8")
    move(dry_run=False)
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        new = rewrite_names(text)
        if path.suffix == ".py":
            new = wrap_imports(new)
        if new != text:
            path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
