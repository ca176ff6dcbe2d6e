"""The study's populations: real tables of 5,000+ rows from installable packages.

Each population is read once from its package (ISLP's CSV files on PyPI; the R data of
Debian's ``r-cran-cardata``, ``r-cran-aer`` and ``r-cran-mlbench`` through ``Rscript``)
and cached as CSV under the cache folder (default ``~/.cache/honest-eval/coverage``,
``HONEST_EVAL_COVERAGE_CACHE`` elsewhere). A population whose package is missing is
skipped by the study with a line saying what to install.
"""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

__all__ = ["POPULATIONS", "Population", "cache_dir", "load_population", "synthetic"]


@dataclass(frozen=True)
class Population:
    """One population: where it comes from, its target and what it needs.

    Attributes
    ----------
    name : str
        Short name (the store's key).
    target : str
        The column to predict.
    package : str
        ``"ISLP"`` (PyPI) or an R package (Debian ``r-cran-<name lowercased>``).
    dataset : str
        The data set's name in the package.
    install : str
        What to install when it is missing.
    drop : tuple of str
        Columns left out (identifiers, or a second copy of the target).
    """

    name: str
    target: str
    package: str
    dataset: str
    install: str
    drop: tuple = ()


POPULATIONS = (
    Population("default", "default", "ISLP", "Default", "pip install ISLP"),
    Population("arrests", "released", "carData", "Arrests",
               "apt-get install r-cran-cardata"),
    Population("health_insurance", "insurance", "AER", "HealthInsurance",
               "apt-get install r-cran-aer"),
    Population("satellite", "classes", "mlbench", "Satellite",
               "apt-get install r-cran-mlbench"),
    Population("caravan", "Purchase", "ISLP", "Caravan", "pip install ISLP"),
    Population("fertility", "morekids", "AER", "Fertility", "apt-get install r-cran-aer"),
)


def cache_dir() -> Path:
    """The folder the populations are cached in."""
    default = Path.home() / ".cache" / "honest-eval" / "coverage"
    return Path(os.environ.get("HONEST_EVAL_COVERAGE_CACHE", default))


def _from_islp(dataset: str) -> pd.DataFrame:
    from importlib.resources import files

    return pd.read_csv(files("ISLP").joinpath("data", f"{dataset}.csv"))


def _from_r(package: str, dataset: str, path: Path) -> None:
    script = (f'data("{dataset}", package = "{package}"); '
              f'write.csv({dataset}, "{path}", row.names = FALSE)')
    subprocess.run(["Rscript", "-e", script], check=True, capture_output=True, timeout=300)


def load_population(population: Population) -> pd.DataFrame | None:
    """The population's table (from the cache, else read from its package and cached),
    or None when its package is not installed."""
    path = cache_dir() / f"{population.name}.csv"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if population.package == "ISLP":
                _from_islp(population.dataset).to_csv(path, index=False)
            else:
                _from_r(population.package, population.dataset, path)
        except (ImportError, FileNotFoundError, OSError, subprocess.SubprocessError):
            return None
    frame = pd.read_csv(path)
    frame = frame.drop(columns=[c for c in population.drop if c in frame]
                       + [c for c in frame if c.startswith("Unnamed")])
    return frame.dropna(subset=[population.target]).reset_index(drop=True)


def synthetic(n_rows: int = 6000, seed: int = 0) -> pd.DataFrame:
    """A Gaussian two-class population (5 features, class 1 shifted by 0.5, 40% positive)
    for the fast test and for trying the study without the packages."""
    import numpy as np

    rng = np.random.default_rng(seed)
    y = (rng.random(n_rows) < 0.4).astype(int)
    x = rng.normal(size=(n_rows, 5)) + 0.5 * y[:, None]
    frame = pd.DataFrame(x, columns=[f"x{i}" for i in range(5)])
    frame["target"] = np.where(y == 1, "yes", "no")
    return frame
