"""The engine never imports Qt, the headless path imports no Qt or plotting library, and
the tests reach the code through public names only."""
import ast
import json
import os
import pathlib
import pkgutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "gui", "matplotlib")


def _imported_after(code: str) -> set:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _forbidden(modules: set) -> list:
    """The modules of Qt, plotting or the ``gui`` package among ``modules``."""
    return sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)


@pytest.mark.parametrize("argv, prints", [
    (["run", "{tmp}/missing.json", "--out", "{tmp}/o"], "error: "),
    (["predict", "{tmp}/missing.skops", "{tmp}/missing.csv", "--out", "{tmp}/p.csv"], "error: "),
    (["run", "--help"], "usage: honest-eval run"),
    (["predict", "--help"], "usage: honest-eval predict"),
])
def test_run_and_predict_import_no_gui_module(tmp_path, argv, prints):
    """main.py, like the installed command, reaches engine.cli without the gui package (a
    headless install has no Qt): checked in a fresh process, through sys.modules."""
    argv = [arg.format(tmp=tmp_path) for arg in argv]
    code = (f"import sys, contextlib, io\nsys.argv = ['main.py'] + {argv!r}\n"
            "import main\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
            "    try:\n        rc = main.main()\n"
            "    except SystemExit as exc:\n        rc = exc.code\n"
            f"assert rc in (0, 2) and {prints!r} in out.getvalue(), (rc, out.getvalue())")
    modules = _imported_after(code)
    assert {"engine.cli", "resources.command"} <= modules
    assert _forbidden(modules) == []


@pytest.mark.slow
def test_every_engine_module_is_qt_free():
    import engine

    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
    assert len(names) >= 8
    modules = _imported_after("\n".join(f"import {n}" for n in names))
    assert _forbidden(modules) == []


@pytest.mark.slow
def test_headless_run_imports_no_qt(tmp_path):
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({"dataset": {"builtin": "iris"},
                               "models": [{"estimator": "GaussianNB"}],
                               "cv": {"n_splits": 3, "n_repeats": 1}, "metrics": ["accuracy"]}))
    code = ("import sys; sys.argv = ['main.py', 'run', %r, '--out', %r, '--quiet']\n"
            "import main\nrc = main.main()\nassert rc == 0, rc" % (str(exp), str(tmp_path / "o")))
    modules = _imported_after(code)
    assert _forbidden(modules) == []
    assert "sklearn.ensemble" not in modules  # only what the experiment uses


@pytest.mark.slow
def test_headless_run_needs_no_display(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM",
                                                            "WAYLAND_DISPLAY")}
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({"dataset": {"builtin": "moons"},
                               "models": [{"estimator": "SVC"}],
                               "cv": {"n_splits": 3, "n_repeats": 1}}))
    done = subprocess.run([sys.executable, os.path.join(ROOT, "main.py"), "run", str(exp),
                           "--out", str(tmp_path / "o")], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------------- tests use public names
#: Private names of other libraries that tests may use (none of the project's).
#: os._exit: a child process that ends without cleaning up; autorank._util: where the peer
#: keeps the groups of its critical-difference diagram (tests/test_across.py compares them);
#: sys._current_frames: the documented way to read another thread's stack (the GUI bench's
#: stall sampler)
FOREIGN_PRIVATE = {"_exit", "autorank._util", "_current_frames"}
#: Calls that take an attribute's name (or a dotted path) as a string.
NAMING_CALLS = {"getattr", "setattr", "hasattr", "delattr", "patch", "object"}


def _is_private(name: str) -> bool:
    return any(part.startswith("_") and not (part.startswith("__") and part.endswith("__"))
               for part in name.split("."))


def _is_dict_of(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "__dict__"


def _strings(nodes) -> list:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def private_uses(tree) -> list:
    """``(line, name)`` of every private name a test reaches: attributes (``x._name``),
    private names imported, and private names handed over as strings (``getattr(x,
    "_name")``, ``monkeypatch.setattr("module._name", ...)``, ``x.__dict__["_name"]``)."""
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Attribute) and node.attr not in FOREIGN_PRIVATE:
            names = [node.attr]
        elif isinstance(node, ast.ImportFrom):
            names = [alias.name for alias in node.names] + \
                [module for module in [node.module or ""] if module not in FOREIGN_PRIVATE]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called in NAMING_CALLS or (_is_dict_of(getattr(func, "value", None))):
                names = _strings(node.args)
        elif isinstance(node, ast.Subscript) and _is_dict_of(node.value):
            names = _strings([node.slice])
        elif isinstance(node, ast.Compare) and any(_is_dict_of(c) for c in node.comparators):
            names = _strings([node.left])
        found += [(node.lineno, name) for name in names if _is_private(name)]
    return found


def test_the_private_name_check_finds_them():
    code = ("x._a\nfrom m import _b\ngetattr(x, '_c')\nmonkeypatch.setattr('m._d', 1)\n"
            "x.__dict__['_e']\n'_f' in x.__dict__\nx.__dict__.get('_g')\nimport m._h\n"
            "os._exit(0)\nx.__class__\ngetattr(x, 'public')\n'_vs_' in name\n")
    assert sorted(name for _, name in private_uses(ast.parse(code))) == [
        "_a", "_b", "_c", "_e", "_f", "_g", "m._d", "m._h"]


def test_tests_use_only_public_names():
    """Tests drive the app through its public names (widgets, signals, documented
    accessors), so that the code behind them can change without breaking them."""
    found = []
    for path in sorted(pathlib.Path(ROOT, "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"{path.relative_to(ROOT)}:{line}: {name}" for line, name in private_uses(tree)]
    assert found == []


def _contracts() -> list:
    tomllib = pytest.importorskip("tomllib")      # Python 3.11+

    with open(pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as stream:
        return tomllib.load(stream)["tool"]["importlinter"]["contracts"]


def _layer_contract() -> list:
    layers, = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    return [{name.strip() for name in layer.replace("|", ":").split(":")} for layer in layers]


def test_every_engine_module_has_a_layer():
    """The layers contract (pyproject.toml, checked by lint-imports) names every module and
    subpackage of the engine once: a new module must join a layer."""
    import engine

    named = [name for layer in _layer_contract() for name in layer]
    assert len(named) == len(set(named))
    found = {f"engine.{info.name}" for info in pkgutil.iter_modules(engine.__path__)}
    assert found == set(named)


def _protected_contract() -> set:
    protected, = [c for c in _contracts() if c["type"] == "protected"]
    assert protected["allowed_importers"] == ["engine"]
    return set(protected["protected_modules"])


def _engine_modules() -> set:
    import engine

    found = {"engine"}
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        found.add(info.name)
    return found


def test_every_engine_module_is_public_or_internal_on_purpose():
    """Each module of the engine is in ``engine.PUBLIC_MODULES`` (the app may import it) or
    protected by the import contract (internal), never both; a package is left out of both
    only when a public module lies inside it."""
    import engine

    public, protected = set(engine.PUBLIC_MODULES), _protected_contract()
    assert not public & protected
    unplaced = {name for name in _engine_modules() - public - protected
                if not any(other.startswith(name + ".") for other in public)}
    assert not unplaced, f"place these in engine.PUBLIC_MODULES or the contract: {unplaced}"
    assert (public | protected) <= _engine_modules()
