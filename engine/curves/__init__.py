"""Curves from out-of-fold predictions."""
