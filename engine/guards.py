"""Resource guards: refuse runs that cannot finish, ask before runs that take very long.

Before anything is computed, :func:`check_run` counts a run's fits and estimates its
memory from the loaded data; :func:`estimate_seconds` times a few fits on the real data
to say how long it would take.  The headless runner (:mod:`engine.cli`) refuses with one
line, or asks for ``--yes``; the GUI calls the same two functions::

    assessment = check_run(experiment, dataset, n_jobs)        # fast, no fitting
    if assessment.refuse: show it and stop
    if assessment.ask:                                           # on a worker thread:
        seconds = estimate_seconds(experiment, dataset, n_jobs)  # at most a few seconds
        if the user says yes to question(assessment, seconds): run

Earlier checks: :func:`check_builtin_request` (generated data sets, before generating),
:func:`check_regular_file` (FIFOs, devices and folders are not read),
:func:`check_experiment_file` (a regular file of modest size) and
:func:`check_models` (absurd size parameters).

Limits, and why
---------------
* :data:`ASK_FITS` = 20,000 fits.  The seed example makes 400, ten models under 10 x 10
  cross-validation 1,000, and the same with both calibration methods 11,000.  Twenty
  thousand is well beyond a careful comparison; at a typical 10 to 100 ms per fit it is
  3 to 30 minutes on one core, at a second per fit (a forest on a few thousand rows)
  5.5 hours, so it deserves a question.
* :data:`ASK_PAIRS` = 500,000 pairs of models (1,000 models): every pair gets a t-test
  and a Bayesian posterior, measured at 0.75 ms and 1.5 KB a pair: 6 minutes and
  0.75 GB, and a pairwise table no one can read.
* :data:`engine.catalogue.MAX_MODELS` = 20,000 models after grid expansion: 200 million pairs, about 40
  hours and 300 GB at the rates above; refused before the grid is even expanded.
* :data:`PARAM_CAPS`: 100,000 trees (``n_estimators``, and ``max_iter`` of histogram
  gradient boosting, which counts trees) -- scikit-learn's default is 100 and forest
  scores stop changing after a few hundred to a few thousand trees, while 100,000 trees
  take gigabytes and hours per fit; 1,000,000 solver iterations (``max_iter``), ten
  thousand times the usual default -- a solver that has not converged by then will not;
  100,000 units in a hidden layer; ``n_jobs`` of a model above 4 threads per core (at
  least 64).  ``n_neighbors`` above the rows of a training fold cannot be fitted at all.
* Memory: the data counts ``rows x columns x 8`` bytes (one-hot columns counted), held
  twice (the table and the matrix the folds are cut from) plus once per worker (the
  training fold each fit copies), plus :data:`WORKER_BYTES` per worker process; the
  kept out-of-fold predictions ``rows x repeats x models x (classes + 6) x 8`` bytes
  times 2 (each fit's arrays until the run ends, the table they are copied into);
  calibration as many per method plus one; comparisons :data:`BYTES_PER_PAIR` a pair.
  Measured peak memory above the idle runner (about 200 MB): 600 MB for 1,000,000
  rows x 20 features x 2 models x 2 repeats (estimate 990 MB; the estimate keeps room
  for tables that are not plain decimals, which are held twice;
  ``tests/benchmarks/bench_memory.py``).  A run whose total exceeds the available
  memory (:func:`available_memory`) is refused.
"""
from __future__ import annotations

import math
import os
import stat
import time
from dataclasses import dataclass, replace
from typing import Optional


ASK_FITS = 20_000
ASK_PAIRS = 500_000
BYTES_PER_VALUE = 8
WORKER_BYTES = 150_000_000
BYTES_PER_PAIR = 1_500
PAIR_SECONDS = 0.75e-3
PREDICTION_COPIES = 2
GENERATION_COPIES = 4
INNER_SPLITS = 5
MAX_EXPERIMENT_BYTES = 20_000_000
#: parameter -> (cap, what it counts); :data:`TREE_ITERATIONS` count trees instead
PARAM_CAPS = {
    "n_estimators": (100_000, "trees"),
    "max_iter": (1_000_000, "solver iterations"),
    "max_fun": (10_000_000, "function calls"),
}
#: estimator -> its parameter that counts trees (besides ``n_estimators``)
TREE_ITERATIONS = {"HistGradientBoostingClassifier": "max_iter"}
#: experiment setting -> (cap, what it counts): the settings of ``tune``, ``threshold``,
#: ``calibration`` and ``aloocv`` that size a search or a table (checked by
#: :func:`setting_problem`, the same path as :data:`PARAM_CAPS`)
SETTING_CAPS = {
    "inner_splits": (100, "inner folds"),
    "n_C": (10_000, "values of C"),
    "n_bins": (1_000, "bins"),
    "map_buckets": (100_000, "buckets"),
}
#: Longest text of a class label, a column name or a model name (characters).
MAX_NAME_CHARS = 1_000
#: Longest model name (characters): it is written in every row of the result tables.
MAX_MODEL_NAME_CHARS = 200
#: Longest text of one cell of a data file (characters): Excel's own limit per cell.
MAX_CELL_CHARS = 32_767
TIMING_TREES = 10
TIMING_START_ROWS = 256
TIMING_BUDGET = 3.0


@dataclass(frozen=True)
class Assessment:
    """What a run would take, and whether to refuse it or ask first.

    Attributes
    ----------
    n_models, n_fits, n_cv_fits, n_calibration_fits, n_aloocv_fits, n_pairs : int
        Models after grid expansion; fits in all (cross-validation, calibration with its
        inner folds, ALOOCV's one fit per C), and pairs of models compared.
    data_bytes, predictions_bytes, needed_bytes : int
        The data as a matrix of floats, the kept out-of-fold predictions (with
        overhead), and the whole run's estimate.
    available_bytes : int or None
        Memory available now (None when unknown: nothing is refused for memory).
    n_jobs : int
        Worker processes the estimate assumes.
    n_datasets : int
        Data sets the run fits the models on (fits and memory count them all).
    plan : engine.run_plan.RunPlan
        The run's fits and progress steps, per data set (the one count the app shows).
    refuse : str or None
        Why the run cannot finish and what to change (one line), or None.
    ask : str or None
        Why to ask before starting (one line, without the time), or None.
    """

    n_models: int
    n_fits: int
    n_cv_fits: int
    n_calibration_fits: int
    n_aloocv_fits: int
    n_pairs: int
    data_bytes: int
    predictions_bytes: int
    needed_bytes: int
    available_bytes: Optional[int]
    n_jobs: int
    refuse: Optional[str] = None
    ask: Optional[str] = None
    n_datasets: int = 1
    plan: Optional[object] = None


# ----------------------------------------------------------------------------- machine

def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity; ``os.cpu_count()`` elsewhere)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cap_jobs(n_jobs: int, option: str = "--jobs ") -> tuple:
    """``(n_jobs, note)``: more workers than cores capped to the cores (note says so).

    Parameters
    ----------
    n_jobs : int
        Worker processes asked for; -1 means every core and is kept.
    option : str
        How the note names the option, before the number (``"--jobs "``; the cluster's
        local workers: ``"--cluster local:"``).

    Returns
    -------
    (int, str or None)
    """
    cores = usable_cores()
    if n_jobs > cores:
        return cores, (f"{option}{n_jobs} is more than the {cores} core(s) of this computer: "
                       f"using {cores}")
    return n_jobs, None


def workers_for(n_jobs: int) -> int:
    """The number of processes ``n_jobs`` gives (-1: every core)."""
    return usable_cores() if n_jobs < 0 else max(1, min(int(n_jobs), usable_cores()))


def available_memory() -> Optional[int]:
    """Bytes of memory available now: ``MemAvailable`` (``SC_AVPHYS_PAGES`` where there is
    no ``/proc/meminfo``), or less under a cgroup limit or an address-space limit
    (``ulimit -v``).

    Returns
    -------
    int or None
        None when the system does not say.
    """
    found = _meminfo_available()
    if found is None:
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            found = None
    for limit in (_cgroup_room(), _address_space_room()):
        if limit is not None:
            found = limit if found is None else min(found, limit)
    return found


def _meminfo_available() -> Optional[int]:
    try:
        with open("/proc/meminfo", encoding="ascii") as stream:
            for line in stream:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_room() -> Optional[int]:
    """The cgroup's memory limit minus its usage (v2, then v1), or None without a limit."""
    for limit_file, usage_file in (("memory.max", "memory.current"),
                                   ("memory/memory.limit_in_bytes",
                                    "memory/memory.usage_in_bytes")):
        limit, usage = (_read_number(os.path.join("/sys/fs/cgroup", name))
                        for name in (limit_file, usage_file))
        if limit is not None and limit < 2 ** 60:
            return max(0, limit - (usage or 0))
    return None


def _address_space_room() -> Optional[int]:
    """Room left under this process's address-space limit (``ulimit -v``), or None."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    used = 0
    try:
        with open("/proc/self/status", encoding="ascii") as stream:
            for line in stream:
                if line.startswith("VmSize:"):
                    used = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return max(0, soft - used)


def _read_number(path: str) -> Optional[int]:
    try:
        with open(path, encoding="ascii") as stream:
            return int(stream.read().strip())
    except (OSError, ValueError):
        return None


# ----------------------------------------------------------------------------- words

def format_bytes(n: float) -> str:
    """``1.5 GB``, ``320 MB``, ``12 KB`` (powers of 1000)."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            value = n / size
            return f"{value:.1f} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{int(n)} bytes"


def format_seconds(seconds: float) -> str:
    """``about 40 seconds``, ``about 12 minutes``, ``about 3.5 hours``, ``about 4 days``."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} seconds"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} minutes"
    if seconds < 48 * 3600:
        return f"about {seconds / 3600:.1f} hours"
    return f"about {seconds / 86400:,.1f} days"


def _count(n: float) -> str:
    return f"{int(n):,}"


def _whole(value) -> Optional[float]:
    """A finite number (not a bool) as float, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


# ----------------------------------------------------------------------------- files

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def check_regular_file(path: str, what: str = "a CSV file") -> int:
    """Refuse, before opening it, anything but a regular file (a FIFO would block forever,
    ``/dev/zero`` never ends).

    Parameters
    ----------
    path : str
    what : str
        What the file should be, for the message (``"a CSV file"``).

    Returns
    -------
    int
        The file's size in bytes.

    Raises
    ------
    ValueError
        The file does not exist, is a folder, pipe, device or socket, or cannot be
        opened for reading (permissions).
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"cannot open {path}: the file does not exist") from None
    except OSError as exc:
        raise ValueError(f"cannot open {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
        raise ValueError(f"cannot open {path}: it is {kind}, not {what}; give the path of "
                         f"{what}")
    try:
        os.close(os.open(path, os.O_RDONLY))          # a regular file: opening cannot block
    except OSError as exc:
        raise ValueError(f"cannot open {path}: {exc.strerror or exc}; check that you may read "
                         "it (its permissions)") from None
    return info.st_size


def check_file_fits(path: str, size: int, available: Optional[int] = None) -> None:
    """Refuse a CSV file larger than the available memory (its table is larger still)."""
    available = available_memory() if available is None else available
    if available is not None and size > available:
        raise ValueError(f"cannot read {path}: the file is {format_bytes(size)} and its table "
                         f"would take more memory than the {format_bytes(available)} available; "
                         "use a sample of its rows or a computer with more memory")


def check_values_fit(path: str, n_values: float, copies: int, advice: str,
                     available: Optional[int] = None, how: str = "") -> None:
    """Refuse a data file whose table, ``n_values`` values of 8 bytes held ``copies``
    times while it is read, would not fit in the available memory -- what the reader
    will allocate, counted before it reads (the file's size can be far smaller: a sparse
    ARFF file, a padded sheet).

    Parameters
    ----------
    path : str
    n_values : float
        Values the table will hold (rows x columns, estimated or declared).
    copies : int
        Times the reader holds them at its peak.
    advice : str
        What to change, for the message.
    available : int, optional
        Bytes available (measured when not given).
    how : str
        Where the count comes from, for the message (``"200,001 attributes x 20,000
        rows"``).

    Raises
    ------
    ValueError
    """
    available = available_memory() if available is None else available
    need = int(n_values) * BYTES_PER_VALUE * copies
    if available is None or need <= available:
        return
    where = f" ({how})" if how else ""
    raise ValueError(f"cannot read {path}: its table of about {_count(n_values)} values{where} "
                     f"would take about {format_bytes(need)} of memory while it is read "
                     f"(8 bytes a value, {copies} copies), more than the "
                     f"{format_bytes(available)} available; {advice}")


def check_experiment_file(path: str) -> None:
    """Check an experiment file before it is read: a regular file of modest size.  (Its
    models are counted, grids unexpanded, by the parser: :func:`engine.catalogue.count_models`.)

    Raises
    ------
    ValueError
        What is wrong, in one line.
    """
    size = check_regular_file(path, "an experiment file")
    if size > MAX_EXPERIMENT_BYTES:
        raise ValueError(f"cannot open {path}: it is {format_bytes(size)}, far more than an "
                         "experiment file (a few KB of JSON); is it the right file?")


# ----------------------------------------------------------------------------- built-ins

def check_builtin_request(name: str, options: dict, available: Optional[int] = None) -> None:
    """Refuse a generated data set too large for memory, before generating it.

    Parameters
    ----------
    name : str
        ``moons``, ``circles`` or ``classification`` (others are fixed and small).
    options : dict
        The generator's options (``n_samples``, ``n_features``, ...), defaults filled in.
    available : int, optional
        Bytes available (measured when not given).

    Raises
    ------
    ValueError
        Saying how much memory it would take, how much is available and what to lower.
    """
    rows, columns = _builtin_shape(name, options)
    if rows is None or columns is None:
        return                               # not numbers: the generator says what is wrong
    available = available_memory() if available is None else available
    need = rows * columns * BYTES_PER_VALUE
    if available is None or need * GENERATION_COPIES <= available:
        return
    knob = "n_samples" if name != "classification" or rows >= columns else "n_features"
    most = available / (GENERATION_COPIES * BYTES_PER_VALUE * (columns if knob == "n_samples"
                                                                else rows))
    raise ValueError(
        f"built-in data set {name!r}: {_count(rows)} rows x {_count(columns)} columns would take "
        f"{format_bytes(need)} of memory (8 bytes a value), about {GENERATION_COPIES} times "
        f"that while it is generated, but {format_bytes(available)} is available: lower "
        f"{knob} to at most {_count(_round_down(most))}")


def _builtin_shape(name: str, options: dict) -> tuple:
    samples = options.get("n_samples")
    if isinstance(samples, (list, tuple)) and samples:
        parts = [_whole(s) for s in samples]
        rows = None if None in parts else sum(parts)
    else:
        rows = _whole(samples)
    if name in ("moons", "circles"):
        return rows, 2.0
    if name == "classification":
        return rows, _whole(options.get("n_features"))
    return None, None


def _round_down(value: float) -> int:
    """Down to two significant digits (367,123 -> 360,000)."""
    if value < 100:
        return max(0, int(value))
    scale = 10 ** (int(math.log10(value)) - 1)
    return int(value // scale * scale)


# ----------------------------------------------------------------------------- models

def check_models(models, min_train_rows: Optional[int] = None) -> Optional[str]:
    """Why a model's size parameters are absurd (one line), or None.

    Parameters
    ----------
    models : sequence of ModelSpec
        The experiment's models (after grid expansion).
    min_train_rows : int, optional
        Rows of the smallest training fold, to check ``n_neighbors``.
    """
    for spec in models:
        for pname, value in spec.params.items():
            problem = _param_problem(spec, pname, value, min_train_rows)
            if problem:
                return f"model {spec.name!r}: {problem}"
    return None


def _param_problem(spec, pname: str, value, min_train_rows) -> Optional[str]:
    number = _whole(value)
    if pname == "n_neighbors" and number is not None and min_train_rows is not None \
            and number > min_train_rows:
        return (f"n_neighbors = {_count(number)}, but the smallest training fold has only "
                f"{_count(min_train_rows)} rows: lower n_neighbors to at most "
                f"{_count(min_train_rows)}, or use more folds")
    return param_cap_problem(spec.estimator, pname, value)


def param_cap_problem(estimator: str, pname: str, value) -> Optional[str]:
    """Why a model parameter's value is above its cap (one line), or None.

    The one check of :data:`PARAM_CAPS` (trees, iterations, layer sizes, threads): every
    model's ``params``, each member of a ``grid`` and of a ``tune.grid`` go through it
    (:func:`engine.catalogue.validated`), and :func:`check_models` again before a run.

    Parameters
    ----------
    estimator : str
        The catalogue name (``"RandomForestClassifier"``).
    pname : str
    value
        The parameter's value as the experiment gives it.
    """
    if pname == "hidden_layer_sizes":
        value = list(value) if isinstance(value, (list, tuple)) else [value]
        big = [v for v in value if (_whole(v) or 0) > 100_000]
        if big or len(value) > 1_000:
            return ("hidden_layer_sizes is too large (at most 1,000 layers of at most 100,000 "
                    "units each): use smaller layers")
        return None
    number = _whole(value)
    if number is None:
        return None
    if pname == "n_jobs" and number > max(64, 4 * usable_cores()):
        return (f"n_jobs = {_count(number)} threads is far more than the {usable_cores()} "
                "core(s) of this computer: use -1 (every core) or a small number")
    cap, counts = _cap(estimator, pname)
    if cap is not None and number > cap:
        return (f"{pname} = {_count(number)} is more than {_count(cap)} {counts}, which no "
                f"model needs and which would not finish: lower {pname}")
    return None


def setting_problem(name: str, value, lowest: int = 2) -> Optional[str]:
    """Why an experiment setting of :data:`SETTING_CAPS` is not a whole number from
    ``lowest`` to its cap (one line, without its place), or None.

    Parameters
    ----------
    name : str
        ``inner_splits``, ``n_C``, ``n_bins`` or ``map_buckets``.
    value
        The value as given.
    lowest : int
        The smallest value allowed.
    """
    cap, counts = SETTING_CAPS[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return f"expected a whole number from {lowest} to {_count(cap)}, got {shown}"
    if value > cap:
        return (f"{_count(value)} is more than {_count(cap)} {counts}, which no result "
                f"needs and which would not finish or fit in memory: lower {name} to at "
                f"most {_count(cap)}")
    return None


def _cap(estimator: str, pname: str) -> tuple:
    if TREE_ITERATIONS.get(estimator) == pname:
        return PARAM_CAPS["n_estimators"][0], "trees"
    return PARAM_CAPS.get(pname, (None, None))


# ----------------------------------------------------------------------------- a run

def check_run(experiment, dataset, n_jobs: int = 1,
              available: Optional[int] = None) -> Assessment:
    """Count a run's fits and estimate its memory; say whether to refuse or to ask.

    Parameters
    ----------
    experiment : engine.experiment.Experiment
    dataset : engine.data.Dataset or sequence of them
        The loaded data; for an experiment with several data sets, all of them
        (:func:`engine.benchmark.load_datasets`): the fits of all are counted, and the
        memory is what all their kept results take plus the largest one's working copies.
    n_jobs : int
        Worker processes (-1: every core).
    available : int, optional
        Bytes of memory available (measured with :func:`available_memory` if not given).

    Returns
    -------
    Assessment
        ``refuse`` when the run cannot fit in memory or a model's parameters are absurd;
        otherwise ``ask`` above :data:`ASK_FITS` fits or :data:`ASK_PAIRS` pairs.
    """
    datasets = list(dataset) if isinstance(dataset, (list, tuple)) else [dataset]
    models, cv = list(experiment.models), experiment.cv
    workers = workers_for(n_jobs)
    from .run_plan import plan_run

    twice = [_runs_twice(experiment, d) for d in datasets]
    plan = plan_run(experiment, datasets)
    counts = list(plan.budget)
    n_pairs = len(models) * (len(models) - 1) // 2
    each = [_memory_parts(experiment, models, d, counts[1]) for d in datasets]
    data = sum(part["data"] for part in each)
    predictions = sum(part["predictions"] for part in each)
    parts = {"data": data + max(part["data"] for part in each) * (1 + workers)
             + (WORKER_BYTES * workers if workers > 1 else 0),
             "predictions": predictions,
             "calibration": sum(part["calibration"] for part in each),
             "comparisons": len(datasets) * (n_pairs * BYTES_PER_PAIR
                                             + 2 * len(models) ** 2 * BYTES_PER_VALUE)}
    needed = int(sum(parts.values()))
    available = available_memory() if available is None else available
    assessment = Assessment(
        n_models=len(models), n_fits=sum(counts), n_cv_fits=counts[0],
        n_calibration_fits=counts[1], n_aloocv_fits=counts[2], n_pairs=n_pairs,
        data_bytes=int(data), predictions_bytes=int(predictions), needed_bytes=needed,
        available_bytes=available, n_jobs=workers, n_datasets=len(datasets), plan=plan)
    smallest = min(int(d.n_rows) for d in datasets)
    refuse = check_models(models, _min_train_rows(smallest, cv))
    if refuse is None and available is not None and needed > available:
        refuse = _memory_refusal(parts, needed, available)
    if refuse:
        return replace(assessment, refuse=refuse)
    return replace(assessment, ask=_ask(assessment, cv, sum(twice)))


def _runs_twice(experiment, dataset) -> bool:
    """The models run a second time on ``dataset``, without its groups (``compare_ungrouped``
    with a groups column; without one nothing runs twice)."""
    return bool(getattr(experiment.cv, "compare_ungrouped", False)
                and getattr(dataset, "groups", None) is not None)


def _memory_parts(experiment, models, dataset, calibration_fits: int) -> dict:
    """One data set's bytes: the data as a matrix, its kept out-of-fold predictions and
    calibrated predictions."""
    n_rows, n_classes = int(dataset.n_rows), len(dataset.classes)
    per_row = (n_classes + 6) * BYTES_PER_VALUE * PREDICTION_COPIES
    predictions = n_rows * _whole_or(experiment.cv.n_repeats, 1) * len(models) * per_row
    return {"data": n_rows * _encoded_width(dataset) * BYTES_PER_VALUE,
            "predictions": predictions,
            "calibration": (predictions * (len(_methods(experiment)) + 1)
                            if calibration_fits else 0)}


def _whole_or(value, default) -> int:
    number = _whole(value)
    return int(number) if number is not None and number >= 1 else default


def _methods(experiment) -> list:
    settings = experiment.calibration
    return list(dict.fromkeys(settings.methods)) if settings is not None else []


def _encoded_width(dataset) -> int:
    """Columns after one-hot encoding (a categorical column gives one per level)."""
    width = len(dataset.numeric_columns)
    for column in dataset.categorical_columns:
        width += max(1, int(dataset.X[column].nunique(dropna=True)))
    return max(1, width)


def _min_train_rows(n_rows: int, cv) -> Optional[int]:
    splits = _whole(cv.n_splits)
    if splits is None or splits < 2:
        return None
    return n_rows - math.ceil(n_rows / splits)


_ADVICE = {"data": "use a sample of the rows, fewer columns or fewer --jobs",
           "predictions": "use fewer repeats or fewer models",
           "calibration": "use fewer calibration methods, repeats or models",
           "comparisons": "compare fewer models (every pair is compared)"}
_NAMES = {"data": "the data and its copies", "predictions": "out-of-fold predictions",
          "calibration": "calibrated predictions", "comparisons": "pairwise comparisons"}


def _memory_refusal(parts: dict, needed: int, available: int) -> str:
    biggest = max(parts, key=parts.get)
    listed = ", ".join(f"{_NAMES[k]} {format_bytes(v)}" for k, v in parts.items()
                       if v >= needed / 100)
    return (f"this run needs about {format_bytes(needed)} of memory ({listed}) but "
            f"{format_bytes(available)} is available: {_ADVICE[biggest]}")


def _ask(assessment: Assessment, cv, grouped: int = 0) -> Optional[str]:
    """The question to ask before a large run; ``grouped``: the data sets whose models run
    twice (with and without groups)."""
    if assessment.n_fits > ASK_FITS:
        how = (f"{_count(assessment.n_models)} models x {cv.n_splits} folds x "
               f"{cv.n_repeats} repeats")
        if assessment.n_datasets > 1:
            how = f"{assessment.n_datasets} data sets x {how}"
        plain = assessment.n_models * (assessment.n_datasets + grouped) * cv.n_splits \
            * cv.n_repeats
        if grouped:
            how += ", twice (with and without groups)"
        if assessment.n_cv_fits > plain:
            how += ", with the searches inside each fold (tune, threshold)"
        extra = [f"{_count(n)} {what} fits" for n, what in
                 ((assessment.n_calibration_fits, "calibration"),
                  (assessment.n_aloocv_fits, "ALOOCV")) if n]
        if extra:
            how = f"{_count(assessment.n_cv_fits)} from {how}, plus " + " and ".join(extra)
        return (f"this run makes {_count(assessment.n_fits)} fits ({how}), more than the "
                f"{_count(ASK_FITS)} that start without asking")
    if assessment.n_pairs > ASK_PAIRS:
        return (f"this run compares {_count(assessment.n_pairs)} pairs of models "
                f"({_count(assessment.n_models)} models), more than the {_count(ASK_PAIRS)} "
                "that start without asking")
    return None


def question(assessment: Assessment, seconds: Optional[float] = None) -> str:
    """The ask of ``assessment`` with the estimated time, as one sentence (no advice)."""
    text = assessment.ask or "this run is large"
    if seconds is None:
        return text
    workers = f"{assessment.n_jobs} workers" if assessment.n_jobs > 1 else "one worker"
    return f"{text}; it would take {format_seconds(seconds)} with {workers}"


# ----------------------------------------------------------------------------- time

def estimate_seconds(experiment, dataset, n_jobs: int = 1,
                     budget: float = TIMING_BUDGET) -> float:
    """Estimate a run's duration by timing a few fits on the real data, here and now.

    Each distinct estimator is fitted on growing random samples of the first training
    fold (256 rows, then doubling) until its share of ``budget`` is spent or the whole
    fold was fitted; the time is extrapolated to the full fold (growth exponent from the
    last two sizes, between 1 and 2).  Forests and boosting are timed with 10 trees and
    scaled to each model's count.  A calibrated fold counts 4 fold-fits (5 inner fits
    on 4/5 of it) plus the calibration's own cost, timed once per estimator on 256 rows;
    ALOOCV one full fit per C; comparisons a time per pair measured on 8 models.
    Measured against real runs (breast cancer, digits, make_classification; forests, SVC,
    boosting, calibrated logistic regression and naive Bayes): within a factor of 0.7 to
    1.9.  Meant for a worker thread; takes about ``budget`` seconds (a single very
    slow small fit can take longer).

    Parameters
    ----------
    experiment : engine.experiment.Experiment
    dataset : engine.data.Dataset or sequence of them
        With several data sets, each is timed on its share of ``budget`` and the
        estimates are added.
    n_jobs : int
        Worker processes of the run (-1: every core).
    budget : float
        Seconds to spend timing, in all.

    Returns
    -------
    float
        Estimated seconds of wall-clock time.
    """
    if isinstance(dataset, (list, tuple)):
        return sum(estimate_seconds(experiment, one, n_jobs, budget / len(dataset))
                   for one in dataset)
    from .cv import feature_matrix, make_splits
    from .tuning import fits_per_fold

    models = list(experiment.models)
    experiment = experiment.with_metrics_for(len(dataset.classes), dataset)
    cv = experiment.cv
    train, test = make_splits(dataset.y, replace(cv, n_repeats=1), dataset.groups)[0]
    X = feature_matrix(dataset)
    groups = {}
    for spec in models:
        groups.setdefault((spec.estimator, spec.scale, spec.resample), spec)
    share = budget / max(1, len(groups))
    methods = _methods(experiment)
    timed = {key: _time_group(spec, dataset, X, (train, test), list(experiment.metrics), share,
                              methods) for key, spec in groups.items()}
    folds = cv.n_splits * cv.n_repeats
    parallel, alo = 0.0, 0.0
    for spec in models:
        unit, calibration_overhead = timed[(spec.estimator, spec.scale, spec.resample)]
        seconds = unit * _work(spec) * fits_per_fold(spec)     # tuning: inner fits too
        parallel += folds * (seconds + len(methods) * (calibration_overhead + 4 * seconds))
        if experiment.aloocv is not None and spec.estimator == "LogisticRegression":
            alo += seconds * experiment.aloocv.n_C
    n_pairs = len(models) * (len(models) - 1) // 2
    return parallel / workers_for(n_jobs) + alo + n_pairs * _pair_seconds(folds)


def _work(spec) -> float:
    """How many trees a model grows (1 for models without a tree count)."""
    pname = TREE_ITERATIONS.get(spec.estimator, "n_estimators")
    value = _whole(spec.params.get(pname))
    if value is None:
        value = _default(spec.estimator, pname)
    return max(1.0, value) if value is not None else 1.0


def _default(estimator: str, pname: str) -> Optional[float]:
    from .catalogue import parameter_specs

    for param in parameter_specs(estimator):
        if param.name == pname:
            return _whole(param.default)
    return None


def _time_group(spec, dataset, X, split, metrics, share, methods) -> tuple:
    """(seconds of one fit on the full training fold per tree, or per fit; seconds a
    calibrated fold takes besides its 4 fold-fits)."""
    import numpy as np

    from .catalogue import make_pipeline

    timed = spec
    pname = TREE_ITERATIONS.get(spec.estimator, "n_estimators")
    if _work(spec) > TIMING_TREES:
        timed = replace(spec, params={**spec.params, pname: TIMING_TREES})
    estimator = make_pipeline(timed, dataset, inside_folds=False)
    train, test = split
    order = np.random.default_rng(0).permutation(train)
    fit = _fitter(estimator, X, dataset, test, metrics)
    points, start, n = [], time.perf_counter(), min(len(order), TIMING_START_ROWS)
    while True:
        points.append((n, fit(np.sort(order[:n]))))
        following = min(2 * n, len(order))
        spent = time.perf_counter() - start
        if n >= len(order) or spent + points[-1][1] * (following / n) ** 1.5 > share:
            break
        n = following
    overhead = 0.0
    if methods:
        small, seconds = points[0]
        overhead = max(0.0, _time_calibration(estimator, X, dataset.y, np.sort(order[:small]),
                                              test, methods[0]) - 4 * seconds)
    return _extrapolate(points, len(order)) / _work(timed), overhead


def _fitter(estimator, X, dataset, test, metrics):
    """A function timing one cross-validation fit (as the run makes it) on given rows."""
    from .cv import fit_and_score

    labels = list(range(len(dataset.classes)))
    pos_label = getattr(dataset, "pos_label", None)

    def fit(rows) -> float:
        began = time.perf_counter()
        fit_and_score(estimator, X, dataset.y, rows, test, metrics, labels, pos_label)
        return max(time.perf_counter() - began, 1e-6)
    return fit


def _time_calibration(estimator, X, y, train, test, method) -> float:
    from .calibration import calibrate_fold

    began = time.perf_counter()
    calibrate_fold(estimator, X, y, train, test, method, INNER_SPLITS, 0)
    return time.perf_counter() - began


def _extrapolate(points: list, n_full: int) -> float:
    n, seconds = points[-1]
    if n >= n_full:
        return seconds
    slope = 1.25
    if len(points) > 1:
        (n0, t0), (n1, t1) = points[-2], points[-1]
        slope = min(2.0, max(1.0, math.log(t1 / t0) / math.log(n1 / n0)))
    return seconds * (n_full / n) ** slope


def _pair_seconds(n_folds: int) -> float:
    """Seconds to compare one pair of models (measured on 8 random models)."""
    import numpy as np
    import pandas as pd

    from .stats import compare_models

    scores = pd.DataFrame(np.random.default_rng(0).random((8, max(2, n_folds))),
                          index=[f"m{i}" for i in range(8)])
    began = time.perf_counter()
    try:
        compare_models(scores, 90.0, 10.0)
    except Exception:  # noqa: BLE001 - an estimate never fails a run
        return PAIR_SECONDS
    return (time.perf_counter() - began) / 28
