"""The report's sections about one data set's run, as blocks of a
:class:`engine.output.document.Document`: the data, the models, the cross-validation design
and the verdicts.

Every user string (model, class, column, file and data set names, notes) is a
:class:`~engine.output.document.Name` (or a sentence holding one), escaped by the renderer
for HTML and for Markdown, so nothing a data file holds can become markup.
"""
from __future__ import annotations

import hashlib
import json
import os

import numpy as np

from engine.runs.fingerprint import data_fingerprint
from engine.evaluation.costs import COST_METRIC, is_threshold_free
from engine.evaluation.coverage_record import level_words
from engine.evaluation.stats import corrected_interval
from engine.evaluation.verdict import (bayes_level, fixed, metric_label, model_health,
                                       pair_differences, pair_verdict)
from engine.output.document import (BulletList, Code, DefinitionList, Figure, Name,
                                    Paragraph, Strong, Styled, spans)
from engine.output.report.intervals import coverage_sentence
from engine.output.report.plots import class_counts_figure
from engine.output.report.svg import CLIP

#: Words for an outcome of :func:`engine.evaluation.verdict.pair_verdict`.
OUTCOME_WORDS = {"better": "practically better", "worse": "practically worse",
                 "equivalent": "practically equivalent", "undecided": "undecided",
                 "insufficient": "not enough folds"}


def items(rows) -> DefinitionList:
    """``[(term, description)]`` as a definition list (a description a run of spans)."""
    return DefinitionList(tuple(((term,), spans(value)) for term, value in rows))


def joined(values, *, between: str = ", ") -> tuple:
    """``values`` from data as a run of names apart by ``between``."""
    out: list = []
    for value in values:
        out += [between, Name(value)] if out else [Name(value)]
    return tuple(out)


def source_name(dataset, base_dir: str, *, full_paths: bool = False) -> str:
    """The data's source as a reader would name it: the file's name and the SHA-256 of
    its bytes (with ``full_paths``, where it is too: a shared report names no folder of
    the user's unless asked), or the built-in data set's name."""
    source = dataset.source
    path = source.get("file", source.get("csv"))
    if path is None:
        return f"built-in data set {source.get('builtin', dataset.name)} (scikit-learn)"
    full = os.path.abspath(os.path.join(base_dir, str(path)))
    sheet = f", sheet {source['sheet']}" if source.get("sheet") else ""
    digest = file_sha256(full)
    hashed = (f"SHA-256 of the file {digest}" if digest
              else "the file could not be read again to hash it")
    where = f"at {full}; " if full_paths else ""
    return f"{os.path.basename(full)}{sheet} ({where}{hashed})"


#: Bytes read at once when a data file is hashed.
HASH_CHUNK = 1 << 20


def file_sha256(path: str):
    """SHA-256 (hex) of the file's bytes, read in chunks of :data:`HASH_CHUNK`; None when
    it is not a regular file or cannot be read."""
    try:
        if not os.path.isfile(path):
            return None
        digest = hashlib.sha256()
        with open(path, "rb") as stream:
            for chunk in iter(lambda: stream.read(HASH_CHUNK), b""):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None


def class_counts(dataset) -> dict:
    """Class label -> rows."""
    counts = np.bincount(dataset.y, minlength=len(dataset.classes))
    return {str(label): int(n) for label, n in zip(dataset.classes, counts)}


def data_section(result, *, anchor: str = "1", full_paths: bool = False) -> list:
    """What data was used: source, fingerprint, rows, classes (and a bar plot of them),
    columns left out and why, groups, missing values, and how the data was read (its
    notes), as blocks. ``anchor`` makes the plot's ids unique in the page; ``full_paths``
    names the data file's folder (:func:`source_name`)."""

    dataset, base_dir = result.dataset, result.experiment.base_dir
    counts = class_counts(dataset)
    positive = (dataset.classes[dataset.pos_label] if dataset.pos_label is not None
                else None)
    classes: list = []
    for label, n in counts.items():
        classes += [", "] * bool(classes) + [Name(label), f" ({n:,})"]
    rows = [("source", Name(source_name(dataset, base_dir, full_paths=full_paths))),
            ("fingerprint (SHA-256 of the prepared data)", Code(data_fingerprint(dataset))),
            ("rows", f"{dataset.n_rows:,}"),
            ("target column", Name(dataset.target)),
            ("classes (rows)", classes),
            ("features", f"{dataset.X.shape[1]} ({len(dataset.numeric_columns)} numeric, "
                         f"{len(dataset.categorical_columns)} categorical)"),
            ("missing values", f"{dataset.n_missing:,} cells" if dataset.n_missing
             else "none")]
    if positive is not None:
        rows.insert(5, ("positive class", Name(positive)))
    excluded = list(dataset.source.get("exclude") or [])
    if excluded:
        rows.append(("columns left out by the experiment", joined(excluded)))
    groups = dataset.source.get("groups")
    if groups is not None and dataset.groups is not None:
        rows.append(("groups (rows that belong together)",
                     spans(_group_columns(groups), f": {len(np.unique(dataset.groups)):,} "
                           "groups; no group is split between training and test rows")))
    figure = class_counts_figure(counts, positive=positive)
    bars = [Figure(figure.svg.replace(CLIP, "clip-classes-" + anchor),
                   (Name(figure.caption),))] if figure else []
    notes = tuple((Name(note),) for note in dataset.notes)
    read = ([Paragraph(("How the data was read (what was left out, and why):",)),
             BulletList(notes)] if notes
            else [Paragraph(("The data was read as it is: nothing was left out.",))])
    return [items(rows), *bars, *read]


def model_line(spec) -> tuple:
    """One model and how it is prepared, in words (a run of spans)."""
    params = json.dumps(spec.params, sort_keys=True, default=str) if spec.params else "defaults"
    parts: list = [Strong((Name(spec.name),)), ": ", Name(spec.estimator),
                   " (scikit-learn) with ", Code(params)]
    if spec.scale:
        parts.append("; features standardised (StandardScaler) on each training fold")
    if spec.tune:
        grid = json.dumps(dict(spec.tune).get("grid", {}), default=str)
        parts += ["; tuned by a grid search inside every outer training fold over ",
                  Code(grid)]
    if spec.threshold:
        parts.append("; its decision threshold chosen inside every outer training fold")
    if spec.resample:
        parts += ["; training rows resampled (", Name(spec.resample), ") within each fold"]
    return tuple(parts)


def models_section(result) -> list:
    """The models and how they were prepared, as blocks."""
    lines = tuple(model_line(spec) for spec in result.experiment.models)
    return [BulletList(lines), Paragraph((
        "Every model is a fresh scikit-learn pipeline fitted on each training fold only: "
        "missing numbers are filled with the training fold's median, missing categories "
        "with its most frequent value, and categories are one-hot encoded, so nothing of a "
        "test fold is seen before it is scored.",))]


def design_section(result) -> DefinitionList:
    """The cross-validation design and the comparison's settings."""
    config, settings = result.cv.config, result.experiment.comparison
    metric = result.cv.primary_metric
    scheme = {"sklearn": "scikit-learn's RepeatedStratifiedKFold",
              "weka": "Weka 3's randomised, stratified folds (repeat i seeded "
                      "random_state + i)"}[config.scheme]
    if result.dataset.groups is not None:
        scheme = "scikit-learn's StratifiedGroupKFold (repeat i seeded random_state + i)"
    metrics = ", ".join(metric_label(m) for m in result.cv.metrics)
    times = "not repeated" if config.n_repeats == 1 else f"repeated {config.n_repeats} times"
    folds = (f"{config.n_splits} folds, {times}: {config.n_splits * config.n_repeats} fits "
             f"per model ({scheme}, random_state ", Name(config.random_state), ")")
    rows: list = [
        ("folds", folds),
        ("metrics", f"{metrics}; the first, {metric_label(metric)}, ranks and compares the "
                    "models"),
        ("region of practical equivalence (ROPE)",
         f"±{settings.rope_for(metric):g} on {metric_label(metric)}"),
        ("significance level", (f"{settings.alpha:g}, ", Name(settings.correction),
                                " correction over all pairs")),
        ("credible levels", ", ".join(f"{level:g}" for level in settings.credible_levels))]
    stop = result.cv.auto_stop
    if stop is not None:
        rows.insert(1, ("repeats", Name(str(stop.note()))))
    return items(rows)


def verdicts(result) -> list:
    """``[(model_1, model_2, Verdict)]`` for every pair of the comparison
    (:func:`engine.evaluation.verdict.pair_verdict`), the better-ranked model first."""
    settings, metric = result.experiment.comparison, result.cv.primary_metric
    n_folds = result.cv.config.n_splits * result.cv.config.n_repeats
    health = model_health(result.summary, metric, n_folds)
    found = []
    rows = result.comparison.pairwise.to_dict("records")
    for row in rows:
        verdict = pair_verdict(row, row["model_1"], row["model_2"], settings.rope_for(metric),
                               settings.alpha, correction=settings.correction, health=health,
                               n_pairs=len(rows))
        found.append((row["model_1"], row["model_2"], verdict))
    return found


def ranking_sentence(result) -> tuple:
    """The models in rank order on the primary metric with their means and intervals
    (a run of spans)."""
    metric = result.cv.primary_metric
    summary = result.summary[result.summary["metric"] == metric].sort_values("rank")
    parts: list = []
    for row in summary.to_dict("records"):
        interval = ""
        if "ci_low" in row and np.isfinite(row["ci_low"]):
            interval = f" (interval {row['ci_low']:.4g} to {row['ci_high']:.4g})"
        parts += ["; "] * bool(parts) + [Name(row["model"]), f": {row['mean']:.4g}{interval}"]
    level = level_words("summary_mean", 1 - result.experiment.comparison.alpha)
    return spans(f"Mean {metric_label(metric)} over the folds, best first, with the "
                 f"corrected-t {level} interval of each mean: ", parts, ".")


def nested_sentence(result) -> str:
    """Each model's nested-CV interval (``nested_intervals.csv``) in one sentence (plain
    text holding the models' names), or ""."""
    nested = result.nested
    if nested is None or not len(nested.table):
        return ""
    rows = nested.table.to_dict("records")
    first = rows[0]
    parts = "; ".join(f"{row['model']}: {row['bias_corrected']:.4g} (interval "
                      f"{row['ci_low']:.4g} to {row['ci_high']:.4g})" for row in rows)
    low, high = nested.design[4] if nested.design else (-np.inf, np.inf)
    clamped = any(row["ci_low"] <= low or row["ci_high"] >= high for row in rows)
    return (f"Nested cross-validation (Bates et al.; {first['n_repeats']} repeat(s) of "
            f"{first['n_outer']} x {first['n_outer']} fits per model), bias-corrected "
            f"{metric_label(first['metric'])} of each model fitted on all "
            f"{len(result.dataset.y):,} rows with its "
            f"{level_words('nested_cv', first['level'])} interval: {parts}."
            + (" An end at the limit of the metric's range was cut there." if clamped else "")
            + " " + coverage_sentence("nested_cv"))


def in_short(found: list, alpha: float, *, correction: str = "none") -> str:
    """One sentence over every pair's outcome: which pairs are decided (at probability
    :func:`engine.evaluation.verdict.bayes_level`: ``1 - alpha``, or ``1 - alpha / m`` for
    m pairs under a correction) and how many are not."""
    decided = []
    for a, b, verdict in found:
        if verdict.outcome == "better":
            decided.append(f"{a} is practically better than {b}")
        elif verdict.outcome == "worse":
            decided.append(f"{b} is practically better than {a}")
        elif verdict.outcome == "equivalent":
            decided.append(f"{a} and {b} are practically equivalent")
    open_pairs = len(found) - len(decided)
    level = f"{bayes_level(alpha, correction, len(found)):.4g}"
    if not found:
        return "Only one model: nothing to compare."
    if not decided:
        return (f"In short: no pair of models is decided (no outcome reaches a probability "
                f"of {level}); these folds cannot say which model is better, nor that they "
                "are equivalent.")
    rest = (f"; {open_pairs} other pair{'s' if open_pairs > 1 else ''} "
            f"{'are' if open_pairs > 1 else 'is'} undecided" if open_pairs else "")
    return (f"In short (each with a probability of at least {level}): " + "; ".join(decided)
            + rest + ".")


def cost_headline(result) -> str:
    """What the run says about its costs, for the report's first lines ('' without
    costs): each model's expected cost per row with its interval (``summary.csv``'s
    ``neg_expected_cost`` rows, sign turned back), lowest first; when the models are
    compared on another metric, that the verdicts below are not about the costs, and why
    a threshold-free metric cannot tell thresholds apart."""
    metrics = list(result.cv.metrics)
    primary = result.cv.primary_metric
    typed = any(note.code == "costs_not_compared" for note in result.notes)
    if COST_METRIC not in metrics:
        return ("Costs were given, but the expected cost was not computed: add "
                f'"{COST_METRIC}" to the metrics to compare the models by them.'
                if typed else "")
    rows = result.summary[result.summary["metric"] == COST_METRIC]
    rows = rows.assign(cost=-rows["mean"]).sort_values("cost", kind="mergesort")
    level = level_words("summary_mean", 1 - result.experiment.comparison.alpha)
    parts = [f"{row['model']} {fixed(row['cost'])} ({level} interval "
             f"{fixed(-row['ci_high'])} to {fixed(-row['ci_low'])})"
             if np.isfinite(row["ci_low"]) else f"{row['model']} {fixed(row['cost'])}"
             for row in rows.to_dict("records")]
    text = ("At the run's costs, the expected cost per row (lower is better) is "
            + "; ".join(parts) + "." + cost_differences(result, rows["model"].tolist()))
    if primary != COST_METRIC:
        text += (f" The verdicts below compare the models on {metric_label(primary)}, not "
                 "on these costs")
        text += (f": {metric_label(primary)} does not depend on the decision threshold, so "
                 "models that differ only by their threshold score the same on it."
                 if is_threshold_free(primary) else ".")
    return text


def cost_differences(result, order: list) -> str:
    """The lowest-cost model against each other one: the mean of the per-fold cost
    differences with its corrected-t interval (Nadeau and Bengio), as a sentence."""
    if len(order) < 2:
        return ""
    matrix = result.cv.score_matrix(COST_METRIC)
    n_train, n_test = result.cv.train_test_sizes()
    alpha = result.experiment.comparison.alpha
    best, words = order[0], []
    for other in order[1:]:
        saved = pair_differences(matrix, best, other)        # -cost(best) + cost(other)
        low, high = corrected_interval(saved, n_train, n_test, alpha=alpha)
        if not (np.isfinite(low) and np.isfinite(high)):
            continue
        words.append(f"{fixed(saved.mean())} less per row than {other} ({1 - alpha:.0%} "
                     f"corrected-t interval of the difference {fixed(low)} to {fixed(high)}, "
                     f"{len(saved)} folds{'' if low > 0 else '; it includes 0'})")
    if not words:
        return ""
    return f" Fold by fold, {best} costs " + "; ".join(words) + "."


def identical_pairs(result) -> set:
    """The pairs ``(model_1, model_2)`` whose primary-metric fold differences are all
    exactly 0 (on the folds both completed)."""
    matrix = result.cv.score_matrix(result.cv.primary_metric)
    found = set()
    for row in result.comparison.pairwise.to_dict("records"):
        a, b = row["model_1"], row["model_2"]
        differences = pair_differences(matrix, a, b)
        if len(differences) and not np.any(differences):
            found.add((a, b))
    return found


def verdict_section(result) -> list:
    """The verdicts first, as blocks: the cost result (with costs), one sentence in short,
    the ranking, each pair's verdict in words (a pair identical on every fold says so)."""
    found = verdicts(result)
    same = identical_pairs(result)
    metric = metric_label(result.cv.primary_metric)
    free = is_threshold_free(result.cv.primary_metric)
    same_words = identical_words(metric, threshold_free=free)
    rows = tuple((Styled(f"outcome {verdict.outcome}",
                         (Name(a), " vs ", Name(b), f": {OUTCOME_WORDS[verdict.outcome]}")),
                  " ", Name(verdict.text + same_words * ((a, b) in same)))
                 for a, b, verdict in found)
    settings = result.experiment.comparison
    cost, nested = cost_headline(result), nested_sentence(result)
    return [*([Paragraph((Name(cost),), "short")] if cost else []),
            Paragraph((Name(in_short(found, settings.alpha,
                                     correction=settings.correction)),), "short"),
            Paragraph(ranking_sentence(result)),
            *([Paragraph((Name(nested),))] if nested else []),
            BulletList(rows, css="verdicts")]


def identical_words(metric: str, *, threshold_free: bool = False) -> str:
    """The sentence for a pair whose fold differences are all exactly 0."""
    why = (f" (a decision threshold cannot change {metric})" if threshold_free else "")
    return (f" Every fold difference on {metric} is exactly 0: the two models score the same "
            f"on every fold, so this verdict says nothing about how else they differ{why}.")


def caveats() -> BulletList:
    """What a cross-validated comparison can and cannot say (always shown)."""
    return BulletList((
        ("These are estimates for models trained on data like this data set, of this size; "
         "they are not a test on new data from elsewhere (no external validation unless a "
         "held-out test table is shown below).",),
        ("The folds share training rows, so their scores are correlated: the tests used "
         "here correct for that (Nadeau and Bengio); a naive t-test would be too "
         "confident.",),
        ("\"Practically equivalent\" is relative to the ROPE chosen above; another ROPE can "
         "change the verdict.",),
        ("A difference can be real and still too small to matter, and no significant "
         "difference is not evidence of equivalence.",)))


def notes_list(notes) -> list:
    """Notes as a list, each sentence with its code (what it is about)."""
    if not notes:
        return [Paragraph(("No notes.",))]
    return [BulletList(tuple((Name(note), " ", Styled("code", ("[", Name(note.code), "]")))
                             for note in notes), css="notes")]


def _group_columns(groups) -> tuple:
    """``column subject``, or ``columns centre + id`` for a pair (ids restarting per centre)."""
    if isinstance(groups, str):
        return ("column ", Name(groups))
    return ("columns ", *joined(groups, between=" + "))
