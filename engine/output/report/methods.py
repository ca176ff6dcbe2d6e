"""The report's methods paragraph with references, its TRIPOD+AI section and what it
takes to reproduce the run (versions, the experiment file embedded).

The methods named are those the run used, read from its tables and settings: a test is
cited only when its numbers are in the report.
"""
from __future__ import annotations

import json
import os
import platform

from engine.output.document import (BulletList, Cell, Code, Data, Heading, Name, Paragraph,
                                    Preformatted, Table)
from engine.output.report.subgroups import tripod_subgroup_rows
from engine.output.result_folder import versions
from engine.output.report.intervals import intervals_list
from engine.output.report.sections import class_counts, source_name

#: The works cited, by key.
REFERENCES = {
    "nadeau": "Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. "
              "Machine Learning 52(3), 239–281.",
    "benavoli": "Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a "
                "change: a tutorial for comparing multiple classifiers through Bayesian "
                "analysis. Journal of Machine Learning Research 18(77), 1–36.",
    "corani": "Corani, G. and Benavoli, A. (2015). A Bayesian approach for comparing "
              "cross-validated algorithms on multiple data sets. Machine Learning 100, "
              "285–304.",
    "holm": "Holm, S. (1979). A simple sequentially rejective multiple test procedure. "
            "Scandinavian Journal of Statistics 6(2), 65–70.",
    "demsar": "Demšar, J. (2006). Statistical comparisons of classifiers over multiple data "
              "sets. Journal of Machine Learning Research 7, 1–30.",
    "platt": "Platt, J. (1999). Probabilistic outputs for support vector machines and "
             "comparisons to regularized likelihood methods. In Advances in Large Margin "
             "Classifiers, MIT Press, 61–74.",
    "zadrozny": "Zadrozny, B. and Elkan, C. (2002). Transforming classifier scores into "
                "accurate multiclass probability estimates. Proceedings of KDD 2002, 694–699.",
    "rad": "Rad, K. R. and Maleki, A. (2020). A scalable estimate of the out-of-sample "
           "prediction error via approximate leave-one-out cross-validation. Journal of the "
           "Royal Statistical Society B 82(4), 965–996.",
    "sklearn": "Pedregosa, F. et al. (2011). Scikit-learn: machine learning in Python. "
               "Journal of Machine Learning Research 12, 2825–2830.",
    "delong": "DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the "
              "areas under two or more correlated receiver operating characteristic curves: "
              "a nonparametric approach. Biometrics 44(3), 837–845.",
    "ledell": "LeDell, E., Petersen, M. and van der Laan, M. (2015). Computationally "
              "efficient confidence intervals for cross-validated area under the ROC curve "
              "estimates. Electronic Journal of Statistics 9(1), 1583–1607.",
    "vickers": "Vickers, A. J. and Elkin, E. B. (2006). Decision curve analysis: a novel "
               "method for evaluating prediction models. Medical Decision Making 26(6), "
               "565–574.",
    "bates": "Bates, S., Hastie, T. and Tibshirani, R. (2024). Cross-validation: what does "
             "it estimate and how well does it do it? Journal of the American Statistical "
             "Association 119(546), 1434–1445.",
    "tripod": "Collins, G. S. et al. (2024). TRIPOD+AI statement: updated guidance for "
              "reporting clinical prediction models that use regression or machine learning "
              "methods. BMJ 385, e078378.",
}


def folds_words(experiment) -> str:
    """How the folds were made, in words: scikit-learn's repeated stratified k-fold,
    Weka's folds, or stratified group k-fold when a data set names groups."""
    config = experiment.cv
    grouped = any(block.get("groups") for block in experiment.dataset_blocks)
    if grouped:
        kind = ("stratified group k-fold (scikit-learn's StratifiedGroupKFold: the rows of "
                "one group never split between training and test)")
    elif config.scheme == "weka":
        kind = "Weka 3's randomised, stratified k-fold"
    else:
        kind = "repeated stratified k-fold cross-validation (scikit-learn)"
    repeats = "1 repeat" if config.n_repeats == 1 else f"{config.n_repeats} repeats"
    return f"{kind}, k = {config.n_splits}, {repeats}"


def methods_used(experiment, tables: dict, several: bool) -> list:
    """``[(sentence, [reference keys])]``: what the run did, each with its sources."""
    settings = experiment.comparison
    used = [(f"The models were compared by {folds_words(experiment)}; every model was fitted "
             "on the same training folds and scored on the same test folds.", ["sklearn"]),
            ("Pairs of models were compared on the primary metric by the corrected paired "
             "t-test, which widens the variance of the mean difference from 1/n (n folds) to "
             "1/n + n_test/n_train because the folds share training rows, and by the "
             "Bayesian correlated t-test "
             "with a region of practical equivalence (ROPE), whose posterior gives the "
             "probabilities that one model is practically better, that they are practically "
             "equivalent, or worse, and the credible intervals.",
             ["nadeau", "corani", "benavoli"])]
    used.append((multiplicity_sentence(settings.alpha, settings.correction, several),
                 ["holm"] if settings.correction == "holm" else []))
    if "calibration_scores.csv" in tables:
        used.append(calibration_sentence(experiment))
    if "aloocv_curve.csv" in tables:
        used.append(("The regularisation path of the logistic regressions was scored by "
                     "approximate leave-one-out cross-validation (ALO).", ["rad"]))
    if "auc_intervals.csv" in tables or "auc_tests.csv" in tables:
        used.append(("The AUC's interval is the corrected t over the AUCs of all folds, "
                     "which takes in how the fold models vary; DeLong's method (intervals "
                     "and tests) and LeDell et al.'s influence-curve interval are given "
                     "beside it and cover only the mean of the fold models at hand.",
                     ["nadeau", "delong", "ledell"]))
    if "nested_intervals.csv" in tables:
        used.append(("Each model's score was also given Bates, Hastie and Tibshirani's "
                     "nested cross-validation interval with its bias correction, for the "
                     "model fitted on all rows (the formulas of mlr3inferr's ci.ncv).",
                     ["bates"]))
    if "decision_curve.csv" in tables:
        used.append(("Clinical utility was assessed by decision curve analysis (net "
                     "benefit over threshold probabilities).", ["vickers"]))
    if several:
        used.append(("Across data sets the models were ranked per data set and compared by "
                     "the Friedman test (Iman and Davenport's F) with Nemenyi's post-hoc "
                     "test, Wilcoxon signed-rank tests of pairs, and the Bayesian signed-rank "
                     "test with a ROPE.", ["demsar", "benavoli"]))
    return used


#: The calibration methods in words, with the works that describe them.
CALIBRATION_METHODS = {"sigmoid": ("Platt's sigmoid scaling", "platt"),
                       "isotonic": ("isotonic regression", "zadrozny")}


def calibration_sentence(experiment) -> tuple:
    """The calibration sentence, naming only the methods the run refitted."""
    settings = experiment.calibration
    chosen = [m for m in (settings.methods if settings is not None else ())
              if m in CALIBRATION_METHODS]
    sentence = ("Calibration was assessed on the pooled out-of-fold probabilities "
                "(reliability diagram, Brier score, log loss, expected calibration error)")
    if not chosen:
        return sentence + ".", []
    names = " and by ".join(CALIBRATION_METHODS[m][0] for m in chosen)
    variants = "variants were" if len(chosen) > 1 else "variant was"
    return (f"{sentence}, and calibrated {variants} refitted inside each training fold by "
            f"{names}.", [CALIBRATION_METHODS[m][1] for m in chosen])


def multiplicity_sentence(alpha: float, correction: str, several: bool) -> str:
    """The one statement of which decisions are adjusted for deciding on several pairs,
    and how: the same rule within a data set and across data sets."""
    where = (", alike within each data set (pairs of models on its folds) and across the "
             "data sets (pairs of models over the data sets)" if several else "")
    if correction == "none":
        return (f"No decision was adjusted for deciding on several pairs (correction: none)"
                f"{where}: each pair's p-values are read against alpha = {alpha:g} and its "
                f"Bayesian probabilities against 1 − {alpha:g}.")
    how = ("Holm's step-down method" if correction == "holm"
           else "the Bonferroni correction (multiplied by the number of pairs m, capped at 1)")
    text = (f"Every decision on a pair of models is adjusted for the m pairs decided at "
            f"once{where}: the p-values by {how}, read against alpha = {alpha:g}, and a "
            f"Bayesian outcome needs a posterior probability of at least 1 − {alpha:g}/m "
            "(Bonferroni's share of alpha for each pair; 1 − alpha for a single pair).")
    if several:
        text += (" The Friedman test is one test of all models and is not adjusted; "
                 "Nemenyi's critical difference allows for every pair by its studentized "
                 "range.")
    return text


def methods_section(experiment, tables: dict, several: bool) -> list:
    """The methods paragraph and the reference list of the works it cites, as blocks."""
    used = methods_used(experiment, tables, several)
    cited = list(dict.fromkeys(key for _, keys in used for key in keys)) + ["tripod"]
    number = {key: i for i, key in enumerate(cited, 1)}
    sentences = " ".join(
        sentence + ("" if not keys else " [" + ", ".join(str(number[k]) for k in keys) + "]")
        for sentence, keys in used)
    references = BulletList(tuple((REFERENCES[key],) for key in cited), ordered=True,
                            ids=tuple(f"ref-{key}" for key in cited))
    listed = intervals_list(tables, 1.0 - experiment.comparison.alpha)
    estimands = [Heading(3, ("What each interval estimates",)), listed] if listed.items else []
    return [Paragraph((sentences,)), *estimands, Heading(3, ("References",)), references]


def tripod_rows(result, tables: dict, *, full_paths: bool = False) -> list:
    """``[(TRIPOD+AI topic, what this run reports or "not assessed")]`` for one data set
    (``full_paths``: the data file's folder named, :func:`source_name`)."""
    dataset, experiment = result.dataset, result.experiment
    counts = class_counts(dataset)
    missing = dataset.n_missing
    smallest = min(counts.values()) if counts else 0
    rows = [
        ("Data source", source_name(dataset, experiment.base_dir, full_paths=full_paths)),
        ("Participants / rows", f"{dataset.n_rows:,} rows"
         + (f" in {len(set(dataset.groups.tolist())):,} groups" if dataset.groups is not None
            else "")),
        ("Outcome", f"column {dataset.target}; classes "
         + ", ".join(f"{k} ({v:,})" for k, v in counts.items())),
        ("Predictors", f"{dataset.X.shape[1]} features as read"
         + (f"; left out: {', '.join(map(str, dataset.source.get('exclude')))}"
            if dataset.source.get("exclude") else "")),
        ("Sample size", f"{dataset.n_rows:,} rows; smallest class {smallest:,} rows, "
         f"{smallest / max(dataset.X.shape[1], 1):.3g} per feature (no formal sample-size "
         "calculation)"),
        ("Missing data", (f"{missing:,} missing cells, imputed inside each training fold "
                          "(median; most frequent category)") if missing
         else "no missing values"),
        ("Model types and building", "; ".join(f"{s.name}: {s.estimator}"
                                               for s in experiment.models)),
        ("Internal validation", folds_words(experiment)),
        ("Performance with intervals", "summary.csv: mean of every metric with its corrected-t "
         "interval (ci_low, ci_high)"
         + ("; auc_intervals.csv" if "auc_intervals.csv" in tables else "")),
        ("Calibration", "calibration_curve.csv and calibration_scores.csv"
         if "calibration_scores.csv" in tables else "not assessed"),
        ("Clinical utility (decision curves)", "decision_curve.csv"
         if "decision_curve.csv" in tables else "not assessed"),
        ("Held-out test", "test_scores.csv (external validation only if the test file "
         "comes from another source, such as another site or period; rows split off the "
         "same data are internal validation)" if "test_scores.csv" in tables
         else "not assessed"),
        *tripod_subgroup_rows(result),
    ]
    return rows


def tripod_section(result, tables: dict, *, full_paths: bool = False) -> list:
    """The TRIPOD+AI items a cross-validated comparison can fill, as a table (blocks)."""
    rows = tuple(((topic,), Cell((Name(value),), "na" if value == "not assessed" else ""))
                 for topic, value in tripod_rows(result, tables, full_paths=full_paths))
    return [Paragraph(("The reporting items of TRIPOD+AI (Collins et al., 2024) that a "
                       "cross-validated comparison can fill; \"not assessed\" where this run "
                       "does not answer them.",)),
            Table((("item",), ("this run",)), (False, False), rows, css="tripod",
                  row_headers=True)]


def versions_section() -> Table:
    """Python's and every numerical library's version, and the platform."""
    found = versions()
    for key, dist in (("baycomp", "baycomp"), ("joblib", "joblib")):
        found.setdefault(key, _version(dist))
    rows: list = [((Name(k),), (Name(v or "not installed"),)) for k, v in found.items()]
    rows.append((("platform",), (Name(platform.platform()),)))
    return Table((("library",), ("version",)), (False, False), tuple(rows), css="versions",
                 row_headers=True, show_header=False)


def _version(dist: str):
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def embedded_experiment(experiment, *, full_paths: bool = False) -> dict:
    """The experiment as a file to run again: its data files (and held-out test file)
    named by their file names, to be put beside it; with ``full_paths``, by their
    absolute paths, so that it runs anywhere on this computer."""
    data = experiment.to_json()

    def placed(block: dict) -> dict:
        key = "csv" if "csv" in block else "file"
        path = block.get(key)
        if not isinstance(path, str):
            return block
        full = os.path.abspath(os.path.join(experiment.base_dir, path))
        return {**block, key: full if full_paths else os.path.basename(full)}

    if "datasets" in data:
        data["datasets"] = [placed(dict(block)) for block in data["datasets"]]
    else:
        data["dataset"] = placed(dict(data["dataset"]))
    if isinstance(data.get("test"), dict):
        data["test"] = placed(dict(data["test"]))
    return data


def experiment_block(experiment, *, full_paths: bool = False) -> list:
    """The experiment embedded twice (:func:`embedded_experiment`): as data for tools (a
    :class:`~engine.output.document.Data` block, in HTML a ``<script
    type="application/json" id="experiment">``, never run) and as text for readers."""
    data = embedded_experiment(experiment, full_paths=full_paths)
    where = ("" if full_paths else
             " Put the data files named in it beside it (they are named without their "
             "folders).")
    return [Data("experiment", data),
            Paragraph(("Save the text below as ", Code("experiment.json"), " and run ",
                       Code("python main.py run experiment.json --out results"),
                       " to compute these tables again (the data file must be the one whose "
                       f"fingerprint is shown above).{where}")),
            Preformatted(json.dumps(data, indent=2, ensure_ascii=False), "experiment")]


def extract_experiment(page: str) -> dict:
    """The experiment embedded in a report's text (:func:`experiment_block`)."""
    start_tag = '<script type="application/json" id="experiment">'
    start = page.index(start_tag) + len(start_tag)
    return json.loads(page[start:page.index("</script>", start)])
