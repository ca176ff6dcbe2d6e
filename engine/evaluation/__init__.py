"""Models, splits, scores and statistics: the experiment, CV, metrics, tests, curves."""
