"""`pip install .` gives a working app: the wheel holds every package and every shipped file,
declares the ``honest-eval`` command, and its code finds the shipped files where it is
installed (importlib.resources), not in the source checkout. Also the command's own
options: ``--help``, ``--install-desktop``, ``--smoke-test``.

The wheel is built offline (``pip wheel --no-build-isolation``) from a copy of the
checkout: a few seconds. ``.ci/wheel`` goes further: a real install into a fresh virtual
environment, every shipped example runs headless and the app started offscreen.
"""
import configparser
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: What the build leaves out of the copy of the checkout (not part of any package).
NOT_COPIED = {".git", "build", "dist", "tests", "docs", ".hypothesis", ".pytest_cache",
              ".benchmarks", ".venv", "out", "results", "layout_gallery"}
#: The folders of shipped files, every file in them; resources/ holds developer tools
#: too (dev/: screenshots.py, layout_gallery.py; bundle/), which the app does not need.
SHIPPED_FOLDERS = ("resources/help", "resources/examples", "resources/icons")
SHIPPED_FILES = {"resources/__init__.py", "resources/command.py", "resources/honest-eval.desktop",
                 "engine/experiment.schema.json", "engine/evaluation/measured_coverage.csv"}
DEVELOPER_FOLDERS = ("resources/dev", "resources/bundle")


def _ignore(folder, names):
    top = os.path.abspath(folder) == ROOT
    return [n for n in names if n == "__pycache__" or n.endswith((".pyc", ".egg-info"))
            or (top and n in NOT_COPIED)]


def _files_under(*folders) -> set:
    """Every file under ``folders`` of the checkout, as a wheel's relative path."""
    found = set()
    for folder in folders:
        for base, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                if not name.endswith(".pyc"):
                    found.add(os.path.relpath(os.path.join(base, name), ROOT).replace(os.sep, "/"))
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The path of a wheel built from a copy of the checkout."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "src"
    shutil.copytree(ROOT, source, ignore=_ignore)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist")]
    if (importlib.util.find_spec("setuptools.command.bdist_wheel") is not None
            or importlib.util.find_spec("wheel") is not None):
        command.append("--no-build-isolation")      # offline: setuptools>=70.1 (test extra)
    done = subprocess.run(command + [str(source)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    wheels = list((tmp / "dist").glob("honest_eval-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def names(wheel) -> set:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """The wheel unpacked as pip would lay it out in site-packages."""
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def _dist_info(names: set, wheel, name: str) -> str:
    path = next(n for n in names if n.endswith(".dist-info/" + name))
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(path).decode("utf-8")


# ---------------------------------------------------------------------- the wheel's contents
def test_every_module_of_engine_and_gui_is_in_the_wheel(names):
    modules = {p for p in _files_under("engine", "gui") if p.endswith(".py")}
    packages = {os.path.dirname(p) for p in modules}         # every folder with .py files
    assert {"engine", "gui", "gui/tabs", "gui/plots", "gui/views"} <= packages
    assert sorted(modules - names) == []


def test_every_shipped_file_is_in_the_wheel(names):
    shipped = _files_under(*SHIPPED_FOLDERS) | SHIPPED_FILES
    assert {"resources/icons/honest-eval.png", "resources/icons/honest-eval.svg",
            "resources/help/index.html", "resources/help/style.css",
            "resources/examples/svc_kernels_moons.json",
            "resources/examples/breast_cancer_calibration.json",
            "resources/examples/five_models_six_datasets.json",
            "resources/examples/repeated_subjects.json",
            "resources/examples/repeated_subjects.csv"} <= shipped
    assert sorted(shipped - names) == []


def test_the_wheel_holds_nothing_else(names):
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"engine", "gui", "resources"}          # no top-level main.py, no tests
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)


def test_the_wheel_has_the_apps_resources_and_no_developer_scripts(names):
    developer = _files_under(*DEVELOPER_FOLDERS)
    assert {"resources/dev/screenshots.py", "resources/dev/layout_gallery.py",
            "resources/bundle/build_bundle.py"} <= developer
    assert sorted(developer & names) == []
    # resources/ in the wheel: exactly the files the app reads, and its own module
    shipped = {n for n in _files_under(*SHIPPED_FOLDERS) | SHIPPED_FILES
               if n.startswith("resources/")}
    assert sorted(n for n in names if n.startswith("resources/")) == sorted(shipped)
    # every resource the app asks for by name is one of them
    import resources

    asked = [resources.example_path(), resources.icon_path("png"), resources.icon_path("svg"),
             resources.desktop_file_path(), os.path.join(resources.help_dir(), "index.html")]
    for path in asked:
        assert os.path.relpath(path, ROOT).replace(os.sep, "/") in names, path


def test_the_command_is_declared(names, wheel):
    entry_points = configparser.ConfigParser()
    entry_points.read_string(_dist_info(names, wheel, "entry_points.txt"))
    assert dict(entry_points["console_scripts"]) == {"honest-eval": "resources.command:main"}
    metadata = _dist_info(names, wheel, "METADATA").splitlines()
    # Qt is the app extra's, not a dependency: a headless install has none of it
    qt = [line for line in metadata if line.startswith("Requires-Dist: PySide6-Essentials")]
    app = re.compile(r"""extra\s*==\s*["']app["']$""")       # older setuptools: 'app'
    assert len(qt) == 1 and app.search(qt[0]), qt
    assert any(line.startswith("Requires-Dist: pyqtgraph") and app.search(line)
               for line in metadata)
    assert "Provides-Extra: app" in metadata


# ---------------------------------------------------------------------- installed, not the checkout
def test_the_installed_code_finds_the_installed_files(installed, tmp_path):
    needs_the_gui()                                      # the probe imports gui.app
    probe = r"""
import json, os, sys
import resources, gui.launch
from gui import app, file_dialogs, help
example = resources.example_path()
print(json.dumps({
    "modules": [resources.__file__, gui.launch.__file__, app.__file__],
    "example": example, "default": app.DEFAULT_EXPERIMENT, "help": help.HELP_DIR,
    "pages": sorted(os.listdir(help.HELP_DIR)), "names": resources.example_names(),
    "shipped": [file_dialogs.is_shipped(example),
                file_dialogs.is_shipped(resources.example_path("breast_cancer_calibration.json")),
                file_dialogs.is_shipped(os.path.join(os.getcwd(), "mine.json"))],
    "icon": resources.icon_path(), "desktop": resources.desktop_file_path(),
    "schema": os.path.isfile(os.path.join(os.path.dirname(__import__("engine").__file__),
                                          "experiment.schema.json"))}))
"""
    env = {**os.environ, "PYTHONPATH": str(installed), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    base = str(installed)
    for path in (*found["modules"], found["example"], found["help"], found["icon"],
                 found["desktop"]):
        assert os.path.realpath(path).startswith(os.path.realpath(base)), path
    assert found["default"] == found["example"]
    assert found["example"].endswith(os.path.join("examples", "svc_kernels_moons.json"))
    assert {"index.html", "style.css", "dataset.html", "results.html"} <= set(found["pages"])
    assert found["names"] == ["breast_cancer_calibration.json",
                              "five_models_six_datasets.json", "repeated_subjects.json",
                              "svc_kernels_moons.json", "svc_kernels_nested_moons.json"]
    assert found["shipped"] == [True, True, False]
    assert found["schema"]


def test_the_icon_is_a_256_pixel_png():
    import resources

    with open(resources.icon_path("png"), "rb") as handle:
        header = handle.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    assert struct.unpack(">II", header[16:24]) == (256, 256)
    with open(resources.icon_path("svg"), encoding="utf-8") as handle:
        assert "<svg" in handle.read()


def test_the_desktop_entry():
    import resources

    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(resources.desktop_file_path(), encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    assert section["Exec"].split()[0] == "honest-eval"
    assert section["Icon"] == "honest-eval"
    assert section["Categories"] == "Science;Education;"


# ---------------------------------------------------------------------- the command's options
def _main(args, env=None, cwd=None, timeout=120):
    return subprocess.run([sys.executable, os.path.join(ROOT, "main.py"), *args], cwd=cwd,
                          env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=timeout)


def test_the_launcher_imports_no_qt():
    code = ("import sys, json, resources.command, gui.launch\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('PySide6', 'shiboken6', 'pyqtgraph', 'gui', 'resources', 'engine'))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["gui", "gui.launch", "gui.usage", "resources",
                                       "resources.command"]


def test_the_app_without_qt_says_what_to_install(tmp_path):
    """An install without the app extra: one error line naming it, exit status 2."""
    fake = tmp_path / "no_qt" / "PySide6"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('raise ImportError("no Qt in this test")\n')
    env = {"PYTHONPATH": os.pathsep.join([str(fake.parent), ROOT]),
           "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    for args in ([], ["some_experiment.json"], ["--smoke-test"]):
        done = _main(args, env=env, cwd=tmp_path)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: the app needs PySide6"), lines
        assert 'pip install "honest-eval[app]"' in lines[0] and "no Qt in this test" in lines[0]
    # what needs no Qt still works there
    assert _main(["--help"], env=env, cwd=tmp_path).returncode == 0


def test_help_names_the_command():
    done = _main(["--help"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: honest-eval [EXPERIMENT.json]")
    for option in ("honest-eval run", "--install-desktop", "--uninstall-desktop",
                   "--smoke-test", "python main.py"):
        assert option in done.stdout
    run_help = _main(["run", "--help"])
    assert run_help.returncode == 0 and run_help.stdout.startswith("usage: honest-eval run")


def test_install_desktop_into_xdg_data_home(tmp_path, monkeypatch):
    import resources
    from gui import launch

    share = tmp_path / "share"
    environ = {"XDG_DATA_HOME": str(share)}
    command = tmp_path / "venv dir" / "bin" / "honest-eval"   # a virtual environment's command
    command.parent.mkdir(parents=True)
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(command)])
    written = launch.install_desktop(environ)
    entry = share / "applications" / "honest-eval.desktop"
    png = share / "icons" / "hicolor" / "256x256" / "apps" / "honest-eval.png"
    svg = share / "icons" / "hicolor" / "scalable" / "apps" / "honest-eval.svg"
    assert sorted(written) == sorted(map(str, (entry, png, svg)))
    assert png.read_bytes() == open(resources.icon_path("png"), "rb").read()
    assert svg.read_bytes() == open(resources.icon_path("svg"), "rb").read()
    lines = entry.read_text(encoding="utf-8").splitlines()
    assert "Icon=honest-eval" in lines and "Categories=Science;Education;" in lines
    # not the honest-eval on PATH (if any): the full path of the command that is running
    assert [line for line in lines if line.startswith("Exec=")] == [f'Exec="{command}" %f']
    assert sorted(launch.uninstall_desktop(environ)) == sorted(written)
    assert not entry.exists() and not png.exists() and not svg.exists()
    assert launch.uninstall_desktop(environ) == []


def test_install_desktop_defaults_to_the_home_folder(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": ""}
    done = _main(["--install-desktop"], env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entry = tmp_path / ".local" / "share" / "applications" / "honest-eval.desktop"
    assert entry.is_file()
    assert (tmp_path / ".local/share/icons/hicolor/256x256/apps/honest-eval.png").is_file()
    exec_line = next(line for line in entry.read_text().splitlines() if line.startswith("Exec="))
    assert os.path.join(ROOT, "main.py") in exec_line and exec_line.endswith(" %f")
    assert str(entry) in done.stdout
    done = _main(["--uninstall-desktop"], env=env, cwd=tmp_path)
    assert done.returncode == 0 and not entry.exists()
    assert _main(["--install-desktop", "extra"], env=env).returncode == 2


@pytest.mark.parametrize("folder, quoted", [
    ("plain", lambda path: path),
    ("a b", lambda path: f'"{path}"'),                       # a space: quoted
    ("100%", lambda path: path.replace("%", "%%")),          # a field code: doubled
    ('a "b"', lambda path: '"' + path.replace('"', '\\\\"') + '"'),   # escaped twice
])
def test_the_menu_entry_quotes_the_command_path(tmp_path, monkeypatch, folder, quoted):
    """A virtual environment's command in the Exec line, quoted by the .desktop rules."""
    from gui import launch

    command = tmp_path / folder / "bin" / "honest-eval"
    command.parent.mkdir(parents=True)
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(command)])
    assert launch.exec_command() == quoted(str(command))


def test_the_menu_entry_of_python_m_runs_the_entry_point(tmp_path, monkeypatch):
    """``python -m resources.command`` (argv[0] is its file): the menu entry runs the
    module with this Python, never the file as a script, when no honest-eval is on PATH."""
    import resources
    from gui import launch

    script = os.path.join(os.path.dirname(resources.__file__), "command.py")
    monkeypatch.setattr(sys, "argv", [script])
    monkeypatch.setenv("PATH", str(tmp_path))
    assert launch.exec_command().endswith(" -m resources.command")


def needs_the_gui():
    """Skip where the GUI's libraries are not installed (e.g. .ci/oldest without --gui)."""
    pytest.importorskip("PySide6")
    pytest.importorskip("pyqtgraph")


@pytest.mark.slow
@pytest.mark.gui
def test_smoke_test_opens_the_example_and_closes(tmp_path):
    needs_the_gui()
    env = {"QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = _main(["--smoke-test"], env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "smoke test: opened" in done.stdout and "svc_kernels_moons.json" in done.stdout


@pytest.mark.slow
@pytest.mark.gui
def test_smoke_test_fails_on_a_broken_experiment(tmp_path):
    needs_the_gui()
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    env = {"QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = _main(["--smoke-test", str(broken)], env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 1
    assert "error: smoke test: a dialog opened" in done.stderr
