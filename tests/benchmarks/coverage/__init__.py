"""Helpers of the coverage study (``tests/benchmarks/coverage_study.py``)."""
