"""Test configuration: Qt renders offscreen; engine tests never need a display."""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


import pytest  # noqa: E402


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
