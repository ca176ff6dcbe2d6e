"""The engine never imports Qt, and the headless path imports no Qt or plotting library."""
import json
import os
import pkgutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "gui", "matplotlib")


def _imported_after(code: str) -> set:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


#: The command's entry point (gui.launch, pure standard library) is the one gui module the
#: headless path may load: ``honest-eval run`` starts there.
ENTRY = {"gui", "gui.launch"}


def _forbidden(modules: set) -> list:
    return sorted(m for m in modules if m.split(".")[0] in FORBIDDEN and m not in ENTRY)


def test_every_engine_module_is_qt_free():
    import engine

    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
    assert len(names) >= 8
    modules = _imported_after("\n".join(f"import {n}" for n in names))
    assert _forbidden(modules) == []


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
