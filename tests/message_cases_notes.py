"""The catalogue's examples of the notes of engine.input, engine.foundation and engine.runs
that moved in from their call sites (engine.foundation.messages_notes): (code, fields,
long form), one or more per code and per branch of its wording.

Shared by tests/test_messages_notes.py (which pins each sentence) and
tests/test_messages.py (which checks that every worded code has an example). The sentences
are those the call sites wrote before the move.
"""

#: Comparing across data sets (engine.runs.across.compare).
NOTE_CASES_ACROSS = [
    ("across_dataset_left_out", {"dataset": "a", "models": ["x"]},
     "data set 'a' is left out of the comparison across data sets: x has no valid mean on it "
     "(every fold failed); leaving out the data set loses fewer results than leaving out the "
     "model"),
    ("across_dataset_left_out", {"dataset": "a", "models": ["x", "y"]},
     "data set 'a' is left out of the comparison across data sets: x, y have no valid mean on "
     "it (every fold failed); leaving out the data set loses fewer results than leaving out "
     "those models"),
    ("across_model_left_out", {"model": "m1", "datasets": ["data0", "data2", "data4"],
                               "n_datasets": 6},
     "model 'm1' is left out of the comparison across data sets: it has no valid mean on data "
     "set(s) 'data0', 'data2', 'data4' (every fold failed); leaving out the model loses fewer "
     "results than leaving out those data sets"),
    ("across_model_left_out", {"model": "m1", "datasets": ["a", "b"], "n_datasets": 2},
     "model 'm1' is left out of the comparison across data sets: it has no valid mean on any "
     "data set (every fold failed); leaving out the model loses fewer results than leaving "
     "out those data sets"),
    ("across_failed_folds", {"models": ["flaky_nb", "svc"],
                             "datasets": {"flaky_nb": ["cats"], "svc": ["a", "b"]},
                             "folds": {"flaky_nb": [("cats", 3)], "svc": [("a", 1), ("b", 2)]}},
     "models failed on some folds: flaky_nb on 'cats' (3 folds); svc on 'a' (1 folds), 'b' "
     "(2 folds). On each such data set every model's mean is over the folds every model "
     "completed there (as the ranking within a data set), so a model that fails on hard folds "
     "is not flattered"),
    ("across_no_common_folds", {"datasets": ["a", "b"]},
     "no fold was completed by every model on 'a', 'b': there each model's mean is over its "
     "own folds, which can flatter a model that failed on hard folds"),
    ("across_too_few", {"n_models": 1, "n_datasets": 6},
     "1 model(s) on 6 data set(s) left to compare: a comparison across data sets needs at "
     "least 2 models and 2 data sets; only the ranks are given"),
    ("across_no_decision", {"n_datasets": 5, "min_datasets": 6, "alpha": 0.05},
     "only 5 data sets: nothing is decided (no model is called better and no pair "
     "significant) with fewer than 6 data sets. The exact two-sided Wilcoxon test cannot "
     "reach p < 0.05 with 5 data sets even when one model wins on every one, and the Bayesian "
     "signed-rank test weighs only these 5 differences, so its probabilities come close to 1 "
     "whenever they all lie on one side. The numbers are shown; compare the models on more "
     "data sets to decide"),
    ("across_two_models", {"models": ["a", "b"]},
     "two models: no Friedman or Nemenyi test (they compare three or more); the Wilcoxon "
     "signed-rank test and the Bayesian signed-rank test compare the pair"),
    ("across_few_datasets", {"n_datasets": 5, "min_wilcoxon_p": 0.0625, "alpha": 0.05},
     "only 5 data sets: the tests across data sets have little power; with 5 data sets no "
     "Wilcoxon p-value can be smaller than 0.0625, so no pair can be significant at alpha = "
     "0.05"),
    ("across_few_datasets", {"n_datasets": 6, "min_wilcoxon_p": 0.03125, "alpha": 0.05},
     "only 6 data sets: the tests across data sets have little power; with 6 data sets no "
     "Wilcoxon p-value can be smaller than 0.0312"),
    ("across_friedman_approximate", {"n_datasets": 14, "n_models": 4},
     "the Friedman and Iman-Davenport p-values use the chi-square and F approximations, which "
     "are rough with 14 data sets and 4 models (rule of thumb: more than 10 data sets and "
     "more than 5 models, Demšar 2006); read them as approximate"),
    ("across_posthoc_not_interpretable", {"iman_davenport_p_value": 0.2, "alpha": 0.05},
     "the Friedman test (Iman-Davenport) does not reject at alpha = 0.05, so the Nemenyi "
     "pairs are not read as differences (a post-hoc test is interpreted only after the "
     "omnibus test rejects)"),
    ("across_wilcoxon_multiplicity", {"n_datasets": 9, "n_pairs": 15, "correction": "holm",
                                      "min_adjusted_p": 15 * 2.0 / 2 ** 9, "alpha": 0.05},
     "with 9 data sets and 15 pairs, no Wilcoxon p-value can be below 0.05 after the holm "
     "correction (the smallest possible is 0.0586): compare fewer models or add data sets"),
    ("across_all_tied", {"datasets": ["a", "b"]},
     "every model has the same mean on every data set: the models cannot be told apart, and "
     "the Friedman test is undefined"),
    ("across_tied_ranks", {"datasets": ["iris", "lung cancer", "mushroom", "primary tumor"]},
     "models tie on 4 data set(s) ('iris', 'lung cancer', 'mushroom', 'primary tumor'): tied "
     "models share the average of their ranks"),
    ("across_tied_ranks", {"datasets": list("abcdef")},
     "models tie on 6 data set(s) ('a', 'b', 'c', 'd', 'e', ...): tied models share the "
     "average of their ranks"),
    ("across_wilcoxon_undefined", {"pairs": [("m0", "m2"), ("m1", "m3")]},
     "the Wilcoxon test is undefined for m0 and m2; m1 and m3: they have the same mean on "
     "every data set"),
    ("across_wilcoxon_method", {"exact": [("a", "b")], "permutation": [],
                                "asymptotic": [("a", "c"), ("b", "c")]},
     "Wilcoxon p-values: 1 pair exactly; 2 pairs by the normal approximation (ties, zero "
     "differences or more than 50 data sets) (the method column of the Wilcoxon table names "
     "each)"),
    ("across_wilcoxon_method", {"exact": [], "permutation": [("a", "b"), ("a", "c")],
                                "asymptotic": []},
     "Wilcoxon p-values: 2 pairs exactly, over all sign flips (ties or zero differences) (the "
     "method column of the Wilcoxon table names each)"),
]

NOTE_CASES_NOTES = NOTE_CASES_ACROSS
