"""No import circle among the project's modules, function-level imports included
(resources/dev/import_cycles.py), and the script finds the circles it should."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "resources" / "dev" / "import_cycles.py"


@pytest.fixture(scope="module")
def cycles():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import import_cycles
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return import_cycles


def test_the_project_has_no_import_circle():
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("no import circle among ")


def _tree(root: Path, files: dict) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for package in ("engine", "gui"):
        (root / package).mkdir(exist_ok=True)
        (root / package / "__init__.py").touch()
    return root


def test_a_circle_hidden_in_a_function_is_found(tmp_path, cycles):
    root = _tree(tmp_path, {
        "engine/a.py": "from .b import x\n",
        "engine/b.py": "def f():\n    from engine import c\n",
        "engine/c.py": "import engine.a\n",
        "engine/d.py": "from engine.a import x\n",            # not in the circle
        "gui/v.py": "from engine.d import x\n"})
    graph = cycles.import_graph(root)
    assert graph["engine.b"] == {"engine.c"} and graph["gui.v"] == {"engine.d"}
    found = cycles.strongly_connected(graph)
    assert found == [["engine.a", "engine.b", "engine.c"]]
    assert cycles.closed_path(graph, found[0]) == ["engine.a", "engine.b", "engine.c",
                                                   "engine.a"]


def test_relative_imports_and_type_checking_blocks(tmp_path, cycles):
    root = _tree(tmp_path, {
        "engine/sub/__init__.py": "from .m import y\n",
        "engine/sub/m.py": "from ..top import z\n",
        "engine/top.py": ("from typing import TYPE_CHECKING\n"
                          "if TYPE_CHECKING:\n    from engine.sub import m\n")})
    graph = cycles.import_graph(root)
    assert graph["engine.sub"] == {"engine.sub.m"}
    assert graph["engine.sub.m"] == {"engine.top"}
    assert graph["engine.top"] == set()                 # never runs: no edge
    assert cycles.strongly_connected(graph) == []
