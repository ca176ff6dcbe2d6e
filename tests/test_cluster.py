"""The Dask cluster backend (engine.evaluation.cluster): the same tables as ``--jobs 1``, the data sent
once, a cancel that leaves nothing on the scheduler, clear errors."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import expand_models
from engine.evaluation.cluster import (IN_FLIGHT, INSTALL, ClusterSpec, check_workers,
                                       import_distributed, open_cluster, opening_cluster,
                                       shared_arguments)
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.data import load_builtin
from engine.evaluation.experiment import parse_experiment
from engine.evaluation.parallel import run_calls
from engine.foundation.progress import run_to_end
from tests.peers import peer
from tests.test_worker_threads import pool_threads
from tests.helpers import (MAIN, assert_one_error_line, run_main, slow_experiment,
                           write_experiment)

distributed = peer("distributed")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def cluster():
    """One LocalCluster of two worker processes for the module (starting one takes seconds)."""
    with open_cluster(ClusterSpec.parse("local:2")) as opened:
        yield opened


def scheduler_tasks(cluster) -> int:
    return cluster.client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))


def where_is(x, index):
    """(worker process, identity of the ``x`` it received, index)."""
    return os.getpid(), id(x), index


EXPERIMENT = {"dataset": {"builtin": "wine"},
              "models": [{"name": "forest", "estimator": "RandomForestClassifier",
                          "params": {"n_estimators": 20, "random_state": 0}},
                         {"name": "lda", "estimator": "LinearDiscriminantAnalysis"},
                         {"name": "broken", "estimator": "GaussianNB",
                          "params": {"priors": [0.5, 0.5, 0.5]}}],
              "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
              "metrics": ["accuracy", "neg_log_loss"],
              "calibration": {"methods": ["sigmoid"]}}


@pytest.mark.slow
def test_an_experiment_on_the_cluster_gives_the_tables_of_one_job(cluster):
    experiment = parse_experiment(EXPERIMENT)
    serial = run_to_end(run_experiment(experiment, n_jobs=1))
    records = []
    remote = run_to_end(run_experiment(experiment, cluster=cluster), on_progress=records.append)
    ours, theirs = serial.tables(), remote.tables()
    assert set(ours) == set(theirs) and "failures.csv" in ours
    assert any(name.startswith("calibration") for name in ours)
    for name, table in ours.items():
        drop = [c for c in ("fit_seconds",) if c in table]
        pd.testing.assert_frame_equal(table.drop(columns=drop),
                                      theirs[name].drop(columns=drop), obj=name)
    pd.testing.assert_frame_equal(serial.cv.predictions, remote.cv.predictions)
    fits = [r for r in records if "repeat" in r.label and "model" in r.label]
    assert [r.done for r in fits[:18]] == list(range(1, 19))      # progress per fit
    assert scheduler_tasks(cluster) == 0


def test_the_shared_data_go_to_the_workers_once(cluster):
    X = np.arange(200_000, dtype=float)
    calls = [(X, i) for i in range(12)]
    assert list(shared_arguments(calls)) == [id(X)]
    found = dict((i, (pid, ident)) for i, (pid, ident, _) in
                 run_calls(where_is, calls, cluster=cluster))
    assert sorted(found) == list(range(12))
    per_worker = {}
    for pid, ident in found.values():
        per_worker.setdefault(pid, set()).add(ident)
    # one copy of X per worker process, not one per call
    assert all(len(identities) == 1 for identities in per_worker.values())


def test_small_fits_go_several_to_a_task_with_the_tables_of_one_job(cluster, monkeypatch):
    dataset = load_builtin("breast_cancer")
    specs = expand_models([{"name": "nb", "estimator": "GaussianNB"},
                           {"name": "tree", "estimator": "DecisionTreeClassifier",
                            "params": {"max_depth": 2, "random_state": 0}}])
    config, metrics = CVConfig(5, 8, 0), ["roc_auc", "accuracy"]
    submitted = []
    submit = cluster.client.submit
    monkeypatch.setattr(cluster.client, "submit",
                        lambda *a, **k: submitted.append(len(a[2])) or submit(*a, **k))
    records = []
    remote = run_to_end(run_cv(dataset, specs, config, metrics, cluster=cluster),
                        on_progress=records.append)
    here = run_to_end(run_cv(dataset, specs, config, metrics, n_jobs=1))
    pd.testing.assert_frame_equal(here.scores.drop(columns="fit_seconds"),
                                  remote.scores.drop(columns="fit_seconds"))
    pd.testing.assert_frame_equal(here.predictions, remote.predictions)
    assert sum(submitted) == 80 and submitted[:4] == [2, 2, 2, 2]     # nb, tree untimed
    assert max(submitted) > 1 and len(submitted) < 40                  # fits share tasks
    assert [r.done for r in records] == list(range(1, 81))             # progress per fit
    assert scheduler_tasks(cluster) == 0


def test_closing_the_run_cancels_everything_at_once(cluster):
    dataset = load_builtin("breast_cancer")
    specs = expand_models([{"name": "forest", "estimator": "RandomForestClassifier",
                            "params": {"n_estimators": 30, "random_state": 0}}])
    job = run_cv(dataset, specs, CVConfig(10, 10, 0), ["accuracy"], cluster=cluster)
    record = next(job)
    keys = cluster.client.run_on_scheduler(
        lambda dask_scheduler: [str(key) for key in dask_scheduler.tasks])
    fit_tasks = [key for key in keys if key.startswith("run_batch")]
    # at most IN_FLIGHT tasks per worker queued (and the one just returned); the data and
    # the 100 splits' rows are one bundle: one key besides the fit tasks
    assert record.done == 1 and 1 <= len(fit_tasks) <= IN_FLIGHT * 2 + 1
    assert len(keys) - len(fit_tasks) == 1
    start = time.perf_counter()
    job.close()
    assert time.perf_counter() - start < 30          # no waiting for the 100 fits (minutes)
    # The finished tasks the closed generator held are released by messages the client
    # sends after it returns: wait for them (a busy machine delays them), never for a fit.
    for _ in range(200):
        if scheduler_tasks(cluster) == 0:
            break
        time.sleep(0.1)
    assert scheduler_tasks(cluster) == 0
    assert all(not keys for keys in cluster.client.processing().values())


def test_a_local_cluster_runs_without_profiler_or_work_stealing(cluster):
    # cluster.LOCAL_CONFIG: the workers' profiler sampled the fits' stacks every 10 ms
    callbacks = cluster.client.run(lambda dask_worker: sorted(dask_worker.periodic_callbacks))
    assert len(callbacks) == 2 and all("profile" not in names for names in callbacks.values())
    assert not cluster.client.run_on_scheduler(
        lambda dask_scheduler: "stealing" in dask_scheduler.extensions)
    import dask

    assert dask.config.get("distributed.scheduler.work-stealing")     # set for the cluster only


def test_unreachable_scheduler_and_bad_addresses_are_clear_errors():
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9 "
                                         "within 1 s.*check that the scheduler is running"):
        with open_cluster(ClusterSpec("tcp://127.0.0.1:9", timeout=1)):
            pass
    for text in ("local:0", "local", "127.0.0.1:8786", "tcp://host", "http://a:1"):
        with pytest.raises(ValueError, match="give local:N .* tcp://HOST:PORT"):
            ClusterSpec.parse(text)
    assert ClusterSpec.parse(" local:3 ") == ClusterSpec(n_workers=3)
    assert str(ClusterSpec.parse("tcp://10.0.0.2:8786")) == "tcp://10.0.0.2:8786"


def test_dask_workers_run_at_most_their_share_of_the_cores(cluster):
    cap = max(1, (os.cpu_count() or 1) // 2)
    found = cluster.client.run(pool_threads)
    assert len(found) == 2 and all(1 <= threads <= cap for threads in found.values())


def test_workers_with_another_scikit_learn_are_refused():
    import sklearn

    class Client:
        def wait_for_workers(self, n, timeout):
            pass

        def run(self, function):
            return {"tcp://a:1": sklearn.__version__, "tcp://b:2": "1.0.2"}

    with pytest.raises(ValueError, match=f"scikit-learn {sklearn.__version__}.*tcp://b:2 has "
                                         "1.0.2; install the same versions"):
        check_workers(Client(), "tcp://s:8786")


def test_without_distributed_the_message_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ValueError, match="pip install \"honest-eval\\[cluster\\]\""):
        import_distributed()
    assert "[cluster]" in INSTALL


@pytest.mark.slow
def test_the_runner_refuses_jobs_with_a_cluster_and_bad_addresses(tmp_path):
    exp = write_experiment(tmp_path / "exp.json")
    both = run_main(exp, "--out", tmp_path / "o", "--jobs", "2", "--cluster", "local:2")
    assert both.returncode == 2 and both.stderr.count("\n") == 1
    assert both.stderr.startswith("error: the options --jobs and --cluster cannot be combined")
    bad = run_main(exp, "--out", tmp_path / "o", "--cluster", "192.168.1.1")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "give local:N" in bad.stderr and not (tmp_path / "o").exists()


@pytest.mark.slow
def test_the_runner_on_a_local_cluster_writes_the_tables_of_one_job(tmp_path):
    exp = write_experiment(tmp_path / "exp.json",
                           models=[{"name": "nb", "estimator": "GaussianNB"},
                                   {"name": "lda", "estimator": "LinearDiscriminantAnalysis"}])
    one = run_main(exp, "--out", tmp_path / "one", "--quiet")
    two = run_main(exp, "--out", tmp_path / "two", "--cluster", "local:2")
    assert one.returncode == 0 and two.returncode == 0, two.stderr
    assert "Traceback" not in two.stderr and "6/6" in two.stderr
    for name in sorted(os.listdir(tmp_path / "one")):
        if name.endswith(".csv"):
            ours, theirs = (pd.read_csv(tmp_path / d / name) for d in ("one", "two"))
            drop = [c for c in ("fit_seconds",) if c in ours]
            pd.testing.assert_frame_equal(ours.drop(columns=drop), theirs.drop(columns=drop))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM semantics")
def test_sigterm_during_a_cluster_run_exits_143_and_closes_the_cluster(tmp_path):
    exp = slow_experiment(tmp_path / "exp.json")
    proc = subprocess.Popen([sys.executable, MAIN, "run", str(exp), "--out", str(tmp_path / "o"),
                             "--cluster", "local:2"], stderr=subprocess.PIPE, text=True)
    deadline, line = time.time() + 120, ""
    while time.time() < deadline and "/100" not in line:     # the first fit came back
        line = proc.stderr.readline()
    assert "/100" in line
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "terminated: no result table was written" in err


def test_the_opening_runs_in_a_thread_and_closes_what_it_opened(monkeypatch):
    import contextlib
    import threading

    from engine.evaluation import cluster as module

    started, go, events = threading.Event(), threading.Event(), []

    @contextlib.contextmanager
    def fake_open(spec):
        started.set()
        go.wait(10)
        events.append(("opened", spec.n_workers, threading.current_thread().name))
        yield "the cluster"
        events.append(("closed", threading.current_thread().name))

    monkeypatch.setattr(module, "open_cluster", fake_open)
    with module.opening_cluster(ClusterSpec(n_workers=3)) as opening:
        assert started.wait(10) and events == []     # this thread goes on meanwhile
        go.set()
        assert opening.result() == "the cluster"
        assert events == [("opened", 3, "open-cluster")]
    assert events[-1] == ("closed", threading.current_thread().name)


def test_an_opening_that_fails_raises_its_error_in_the_caller():
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        with opening_cluster(ClusterSpec("tcp://127.0.0.1:9", timeout=1)) as opening:
            opening.result()


def test_the_workers_import_the_fitting_code_when_checked():
    code = ("import sys; from engine.evaluation.cluster import worker_versions; "
            "import sklearn; assert 'engine.evaluation.cv' not in sys.modules; "
            "assert worker_versions() == sklearn.__version__; "
            "print('engine.evaluation.cv' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr


@pytest.mark.slow
def test_bad_data_with_a_local_cluster_is_one_error_line(tmp_path):
    # read after the cluster starts opening: the error waits for it and closes it
    (tmp_path / "d.csv").write_text("a,b\n" + "1,2\n3,4\n" * 20)
    exp = write_experiment(tmp_path / "exp.json", dataset={"csv": "d.csv", "target": "label"})
    done = run_main(exp, "--out", tmp_path / "o", "--cluster", "local:2", "--quiet")
    assert_one_error_line(done, "label")
    assert not (tmp_path / "o").exists()


OUTLIVE = """
import os, sys
from multiprocessing import forkserver

from engine.evaluation.cluster import ClusterSpec, open_cluster

if __name__ == "__main__":
    with open_cluster(ClusterSpec.parse("local:2")) as opened:
        found = opened.client.run(lambda: (os.getpid(), os.getppid(),
                                           "engine.evaluation.cv" in sys.modules,
                                           os.environ.get("OMP_NUM_THREADS")))
    print(forkserver._forkserver._forkserver_pid, *(v[0] for v in found.values()))
    print(*sorted({(v[1], v[2], v[3]) for v in found.values()}))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no forkserver: workers are spawned")
def test_forked_workers_start_with_the_engine_and_none_outlives_the_run(tmp_path):
    import psutil

    script = tmp_path / "outlive.py"
    script.write_text(OUTLIVE)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=180, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0, done.stderr
    pids, parents = done.stdout.splitlines()
    server, *workers = (int(p) for p in pids.split())
    # both forked from the forkserver, which imported the fitting code; one BLAS thread
    assert len(workers) == 2 and parents == f"({server}, True, '1')"
    deadline = time.monotonic() + 60           # the forkserver sees its parent gone
    while time.monotonic() < deadline and any(map(psutil.pid_exists, [server, *workers])):
        time.sleep(0.2)
    assert not any(map(psutil.pid_exists, [server, *workers]))


def test_workers_are_spawned_where_another_forkserver_runs(monkeypatch):
    # e.g. the run service's (engine.runs.runner), started without the workers'
    # environment (one BLAS thread each): its forks would inherit that server's
    from engine.evaluation import cluster as module

    monkeypatch.setattr(module, "OUR_FORKSERVER", {"pid": None})
    monkeypatch.setattr(module, "forkserver_pid", lambda: 99999999)
    assert module.forked_workers() == {}
    monkeypatch.setattr(module, "OUR_FORKSERVER", {"pid": 99999999})     # ours: reused
    assert module.forked_workers() == {"distributed.worker.multiprocessing-method":
                                       "forkserver"}
