"""Find import circles among the project's own modules.

Walks every import of every module under ``engine/`` and ``gui/`` — at module level and
inside functions alike, read with :mod:`ast`, so an import hidden in a function body
cannot hide a circle — builds the graph of project modules and prints every circle (one
line per strongly connected component, with one closed path through it). Imports under
``if TYPE_CHECKING:`` are left out: they never run.

Usage::

    python resources/dev/import_cycles.py          # exit 1 when there is a circle
    python resources/dev/import_cycles.py --edges  # also list every import edge

Exit status: 0 without circles, 1 with at least one.
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "gui")


def module_files(root: Path = ROOT) -> dict:
    """Map every project module name to its file.

    Parameters
    ----------
    root : Path
        The checkout holding ``engine/`` and ``gui/``.

    Returns
    -------
    dict
        ``{"engine.evaluation.cv": Path(...), "engine.evaluation.aloocv": Path(".../__init__.py"), ...}``.
    """
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST):
    """Every Import/ImportFrom node, at any depth, except under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module name of a (possibly relative) ``from ... import``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _known(name: str, modules: dict) -> str | None:
    """The longest project module that ``name`` is or lies in, else None."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, modules: dict) -> set:
    """The project modules that ``module`` imports anywhere in its file.

    ``from package import name`` counts as an import of ``package.name`` when that is a
    module, else of ``package``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            source = _absolute(module, is_package, node)
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                       else source for alias in node.names]
        found.update(filter(None, (_known(name, modules) for name in targets)))
    found.discard(module)
    return found


def import_graph(root: Path = ROOT) -> dict:
    """``{module: set of project modules it imports}`` for every project module."""
    modules = module_files(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: dict) -> list:
    """Tarjan's strongly connected components with more than one module, each sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(start):
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = counter[0]
                    counter[0] += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def closed_path(graph: dict, component: list) -> list:
    """One circle through the component's first module (breadth-first, shortest)."""
    members = set(component)
    start = component[0]
    previous = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & members):
            if target == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, start]
            if target not in previous:
                previous[target] = node
                queue.append(target)
    return component


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="list every import edge")
    args = parser.parse_args(argv)
    graph = import_graph()
    if args.edges:
        for module in sorted(graph):
            for target in sorted(graph[module]):
                print(f"{module} -> {target}")
    circles = strongly_connected(graph)
    for component in circles:
        print(f"circle of {len(component)} modules: {' -> '.join(closed_path(graph, component))}"
              f"  (all: {', '.join(component)})")
    if not circles:
        print(f"no import circle among {len(graph)} modules of {', '.join(PACKAGES)}")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
