"""Curves from the out-of-fold predictions (the experiment's ``curves`` block).

:mod:`engine.evaluation.curves.predictions` gives ``predictions.csv``; the curve modules compute
from exactly that table, so anyone can recompute them elsewhere.
"""
from engine.evaluation.curves.predictions import predictions_table

__all__ = ["predictions_table"]
