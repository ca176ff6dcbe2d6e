"""Worker processes never oversubscribe the cores with BLAS / OpenMP threads: with
``--jobs N`` (joblib's loky workers) and on ``--cluster local:N`` (Dask's nannies) each
worker runs at most ``cores // N`` threads (at least 1). Both libraries set the cap
themselves; these tests keep it from being lost (the Dask one is in test_cluster.py, on
its module's cluster)."""
import os

from engine.evaluation.parallel import run_calls


def pool_threads(_index=0) -> int:
    """The most threads any BLAS or OpenMP pool of this process may use."""
    import numpy  # noqa: F401 - loads the BLAS
    import sklearn.ensemble  # noqa: F401 - loads OpenMP
    from threadpoolctl import threadpool_info

    return max(pool["num_threads"] for pool in threadpool_info())


def test_joblib_workers_run_at_most_their_share_of_the_cores():
    cap = max(1, (os.cpu_count() or 1) // 2)
    found = [threads for _, threads in run_calls(pool_threads, [(0,), (1,)], n_jobs=2)]
    assert found and all(1 <= threads <= cap for threads in found)
