"""Writes resources/examples/repeated_subjects.csv: the worked example of grouped rows.

    python resources/dev/make_repeated_subjects.py [OUT.csv]

Forty subjects, each seen on 5 to 10 visits (about 300 rows). Whether a subject has the
condition is fixed per subject; one marker carries a modest true signal. Every subject
also has a fingerprint: age, weight and resting heart rate that barely change between
visits and say nothing about the condition, and a personal offset of the markers. With
ordinary folds a model meets the same subject in training and test and can recognise
them by the fingerprint (the label comes with them); with the subject's rows kept
together it must learn the marker's pattern, which is harder. Seeded: the same file
every time.
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd

SEED = 14
N_SUBJECTS = 40
VISITS = (5, 10)


def repeated_subjects(seed: int = SEED) -> pd.DataFrame:
    """The table: subject, visit, age, weight_kg, resting_hr, marker_a, marker_b, condition."""
    rng = np.random.default_rng(seed)
    rows = []
    sick = rng.permutation(np.arange(N_SUBJECTS) % 2 == 0)
    for s in range(N_SUBJECTS):
        age = int(rng.integers(25, 75))
        weight, heart = rng.normal(75, 12), rng.normal(66, 8)
        offset_a, offset_b = rng.normal(0, 1.0, size=2)
        for visit in range(1, int(rng.integers(*VISITS, endpoint=True)) + 1):
            rows.append({
                "subject": f"P{s + 1:03d}", "visit": visit, "age": age,
                "weight_kg": round(weight + rng.normal(0, 0.6), 1),
                "resting_hr": round(heart + rng.normal(0, 1.5), 1),
                "marker_a": round(1.6 * sick[s] + offset_a + rng.normal(0, 0.6), 3),
                "marker_b": round(offset_b + rng.normal(0, 0.6), 3),
                "condition": "yes" if sick[s] else "no"})
    return pd.DataFrame(rows)


def main(argv) -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    out = argv[1] if len(argv) > 1 else os.path.join(here, "..", "examples",
                                                     "repeated_subjects.csv")
    repeated_subjects().to_csv(out, index=False, lineterminator="\n")
    print(f"wrote {os.path.normpath(out)}")


if __name__ == "__main__":
    main(sys.argv)
