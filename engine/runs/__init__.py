"""Plan, check, run and store: preflight, guards, the runner, the result store, held-out tests, comparisons across datasets."""
