"""Test configuration: Qt renders offscreen; engine tests never need a display."""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


import pytest  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true",
                     help="run the slow tests too (by default they are left out; -m slow "
                          "runs only them)")


def pytest_collection_modifyitems(config, items):
    """Leave out the tests marked ``slow`` unless ``--slow`` is given or ``-m`` names the
    marker (``-m slow`` runs only them; CI runs both sets)."""
    if config.getoption("--slow") or "slow" in (config.getoption("markexpr") or ""):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


@pytest.fixture(scope="module")
def one_blas_thread():
    """One BLAS thread: numpy's and scipy's pools fight when both use several (see the
    ALOOCV notes).  Use with ``pytestmark = pytest.mark.usefixtures("one_blas_thread")``."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        yield


def _standardized(name: str):
    from sklearn import datasets
    from sklearn.preprocessing import StandardScaler

    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.fixture(scope="session")
def cancer():
    """Standardized breast cancer (569 x 30), as in the ALOOCV seed."""
    return _standardized("breast_cancer")


@pytest.fixture(scope="session")
def iris():
    return _standardized("iris")


@pytest.fixture(scope="session")
def wine():
    return _standardized("wine")


@pytest.fixture
def family():
    """The processes a test watches (append their ids); any still running at the end are
    killed, so that a failing test leaves nothing behind either."""
    import signal

    from engine.foundation.processes import is_running

    pids = []
    yield pids
    for pid in pids:
        if is_running(pid):
            os.kill(pid, signal.SIGKILL)


#: The fuzz campaign's child peaks (tests/fuzz/conftest.py) gathered from pytest-xdist's
#: workers; the controlling process never runs a test, so they arrive here.
WORKER_FUZZ_PEAKS: list = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """In pytest-xdist's controlling process: gather a finished worker's fuzz peaks."""
    WORKER_FUZZ_PEAKS.extend(getattr(node, "workeroutput", {}).get("fuzz_peaks", ()))


def pytest_terminal_summary(terminalreporter):
    """The fuzz campaign's line when it ran in pytest-xdist's workers."""
    if WORKER_FUZZ_PEAKS:
        terminalreporter.write_line(
            f"fuzz: {len(WORKER_FUZZ_PEAKS)} headless runs, largest child peak memory "
            f"{max(WORKER_FUZZ_PEAKS) / 1024 ** 2:.0f} MiB (cap 4 GiB)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In a pytest-xdist worker, a failure whose text holds a lone surrogate (the Unicode
    fuzz tests draw them) is sent with it written out (``\\ud800``): the channel to the
    controlling process takes only UTF-8, and the unsendable report would end the whole
    run with an internal error instead of showing one failed test."""
    outcome = yield
    report = outcome.get_result()
    if not hasattr(item.config, "workerinput"):
        return
    if report.longrepr is not None and not _utf8(str(report.longrepr)):
        report.longrepr = _written_out(str(report.longrepr))
    report.sections = [(title, text if _utf8(text) else _written_out(text))
                       for title, text in report.sections]


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _written_out(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
