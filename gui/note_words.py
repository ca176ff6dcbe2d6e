"""Words for people: the engine's notes and messages as the window says them.

The engine's sentences are written for the headless runner and name experiment-file keys
(``add "scale": true``, ``"compare_ungrouped" is on``) and scorer ids (``roc_auc_ovr``).
The window says the same with its own controls and the metrics' display names:
:func:`note_words` decides on a note's ``code`` and ``fields`` (never on its text), and
:func:`plain_ids` writes any scorer id left in a message (a fold's error, a note the window
has no words of its own for) as its display name.
"""
from __future__ import annotations

import re
from functools import lru_cache

from engine.evaluation.metrics import CLASSIFICATION_SCORERS
from engine.foundation.notes import note_code, note_fields
from engine.evaluation.verdict import metric_label

#: A fold problem's fix (``fix`` field of ``folds_failed`` / ``folds_warned``) in the
#: words of the window; fixes not listed keep the engine's advice (it names no key).
FIX_WORDS = {
    "not_converged": "the solver stopped before converging: tick \"Scale features\" for it on "
                     "the Models tab, or raise max_iter",
    "no_probabilities": "this model gives no probabilities: compare on a metric computed from "
                        "labels (accuracy, balanced accuracy, F1) on the Cross-validation tab, "
                        "or use a model with probabilities",
    "few_rows": "a class has very few rows: choose fewer folds on the Cross-validation tab, "
                "or add data",
}


@lru_cache(maxsize=1)
def _scorer_pattern():
    """A regular expression matching every scorer id the engine knows, longest first."""
    names = sorted(set(CLASSIFICATION_SCORERS), key=len, reverse=True)
    return re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?![\w])")


def plain_ids(text: str) -> str:
    """``text`` with every scorer id (``roc_auc_ovr``) written as its display name."""
    return _scorer_pattern().sub(lambda match: metric_label(match.group(1)), str(text))


def metric_words(metric) -> str:
    """A scorer id as its display name."""
    return metric_label(str(metric))


def joined(names) -> str:
    """``a, b and c``."""
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _unscaled(fields) -> str:
    models = list(fields["models"])
    verb = "depends" if len(models) == 1 else "depend"
    return (f"{joined(models)} {verb} on the scale of the features but run without scaling: "
            "tick \"Scale features\" for them on the Models tab unless the columns share one "
            "unit")


def _folds(fields, failed: bool) -> str:
    what = "failed" if failed else "raised warnings"
    example = str(fields.get("example", ""))
    example = example.split(": ", 1)[-1] if example.count(": ") else example
    if len(example) > 110:
        example = example[:109].rstrip() + "…"
    advice = FIX_WORDS.get(fields.get("fix", "")) or fields.get("advice", "")
    sentence = (f"{fields['model']} {what} on {fields['n_folds_hit']} of {fields['n_folds']} "
                f"folds ({plain_ids(example)})")
    return sentence + (f": {plain_ids(advice)}." if advice else ".")


def _imbalanced(fields) -> str:
    where = f" in data set {fields['dataset']!r}" if fields.get("dataset") else ""
    metrics = list(fields["metrics"])
    return (f"the classes are imbalanced{where} (class {fields['class']!r}: "
            f"{100 * fields['share']:.1f}% of the rows): {metric_words(metrics[-1])} is reported "
            f"beside {metric_words(metrics[0])}, which stays the metric the models are compared "
            "on; Results, Per class gives every class's recall")


def _decimal(fields) -> str:
    return (f"decimal comma: read {fields['example']!r} in column {fields['column']!r} as "
            f"{fields['value']}")


def _auto_stopped(fields) -> str:
    """``repeats_auto_stopped`` in the words of the repeats box."""
    n, most = fields["n_repeats"], fields["max_repeats"]
    why = {"precision": f"one more would have narrowed no interval by "
                        f"{fields['precision']:.0%} of its width",
           "max_repeats": "the most repeats were reached"}[fields["reason"]]
    return (f"Repeats \"auto\" stopped after {n} of at most {most}: {why}. The results are "
            f"those of {n} repeats; set the repeats to {n} to run the same again.")


WORDS = {
    "unscaled_models": _unscaled,
    "repeats_auto_stopped": _auto_stopped,
    "folds_failed": lambda f: _folds(f, True),
    "folds_warned": lambda f: _folds(f, False),
    "default_metric": lambda f: (f"no metric chosen: comparing on {metric_words(f['metric'])} "
                                 f"({f['n_classes']} classes)"),
    "default_metric_datasets": lambda f: (
        "no metric chosen and the data sets differ in their number of classes: comparing on "
        f"{metric_words(f['metric'])} on every data set (on two classes it is the plain ROC "
        "AUC)"),
    "default_metric_imbalanced": _imbalanced,
    "random_state_given": lambda f: (
        f"the cross-validation's random seed ({f['random_state']}) given to "
        f"{joined(f['models'])}, so every run gives the same numbers"),
    "grouping_gap_no_groups": lambda f: (
        "\"Also run without groups\" is on, but this data set has no column of rows that "
        "belong together: choose one on the Dataset tab, or turn the comparison off"),
    "decimal_comma": _decimal,
    "decimal_comma_as_text": lambda f: (
        f"column {f['column']!r} looks like numbers written with a decimal comma but was kept "
        "as text"),
}


def note_words(note) -> str:
    """An engine note as the window says it (see the module's docstring)."""
    words = WORDS.get(note_code(note))
    if words is not None:
        try:
            return words(note_fields(note))
        except (KeyError, TypeError, ValueError, IndexError):
            pass                                  # fields of another shape: the sentence
    return plain_ids(str(note))
