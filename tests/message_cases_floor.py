"""The catalogue's examples of the codes worded on the evaluation floor
(engine.evaluation.messages_app.LONG_EVALUATION_FLOOR): (code, fields, long form), one or
more per code and per branch. The sentences are those the call sites wrote before the move
(engine.runs.grouping_gap.gap_sentence, with the metric's display name, as the run gives it).
"""
import math

#: The grouping gap's verdict (engine.runs.grouping_gap).
NOTE_CASES_FLOOR = [
    ("grouping_gap", {'metric': 'roc_auc_ovr',
     'groups_column': 'patient',
     'kind': 'optimistic',
     'model': 'a',
     'grouped_mean': 0.7,
     'ungrouped_mean': 0.9,
     'gap': 0.2,
     'best_grouped': 'b',
     'best_ungrouped': 'a',
     'grouped_half_width': math.nan},
     'with ordinary stratified folds, a scores 0.900 (ROC AUC, one vs rest); with the rows'
     " of each 'patient' kept together, 0.700: the ungrouped score is higher by 0.200 (the"
     ' grouped mean has no interval to measure it against); the best model changes too: a '
     "without groups, b with them. With ordinary folds, rows of one 'patient' are in both "
     'the training part and the test fold, so a model can score by recognising them rather'
     ' than by learning the pattern; for new ones, expect the grouped score'),
    ("grouping_gap", {'metric': 'roc_auc_ovr',
     'groups_column': 'patient',
     'kind': 'optimistic',
     'model': 'a',
     'grouped_mean': 0.7,
     'ungrouped_mean': 0.9,
     'gap': 0.2,
     'best_grouped': 'b',
     'best_ungrouped': 'a',
     'grouped_half_width': 0.01},
     'with ordinary stratified folds, a scores 0.900 (ROC AUC, one vs rest); with the rows'
     " of each 'patient' kept together, 0.700: the ungrouped score is optimistic by 0.200,"
     " more than the ±0.010 of the grouped mean's 95% interval; the best model changes "
     "too: a without groups, b with them. With ordinary folds, rows of one 'patient' are "
     'in both the training part and the test fold, so a model can score by recognising '
     'them rather than by learning the pattern; for new ones, expect the grouped score'),
    ("grouping_gap", {'metric': 'roc_auc_ovr',
     'groups_column': 'patient',
     'kind': 'optimistic',
     'model': 'a',
     'grouped_mean': 0.7,
     'ungrouped_mean': 0.9,
     'gap': 0.2,
     'best_grouped': 'b',
     'best_ungrouped': 'a',
     'grouped_half_width': 0.5},
     'with ordinary stratified folds, a scores 0.900 (ROC AUC, one vs rest); with the rows'
     " of each 'patient' kept together, 0.700: the ungrouped score is higher by 0.200, "
     "within the ±0.500 of the grouped mean's 95% interval, so these folds do not measure "
     'how optimistic it is; the best model changes too: a without groups, b with them. '
     "With ordinary folds, rows of one 'patient' are in both the training part and the "
     'test fold, so a model can score by recognising them rather than by learning the '
     'pattern; for new ones, expect the grouped score'),
    ("grouping_gap", {'metric': 'roc_auc_ovr',
     'groups_column': 'patient',
     'kind': 'optimistic',
     'model': 'b',
     'grouped_mean': 0.8,
     'ungrouped_mean': 1.0,
     'gap': 0.2,
     'best_grouped': 'b',
     'best_ungrouped': 'b',
     'grouped_half_width': 0.01},
     'with ordinary stratified folds, b scores 1.000 (ROC AUC, one vs rest); with the rows'
     " of each 'patient' kept together, 0.800: the ungrouped score is optimistic by 0.200,"
     " more than the ±0.010 of the grouped mean's 95% interval. With ordinary folds, rows "
     "of one 'patient' are in both the training part and the test fold, so a model can "
     'score by recognising them rather than by learning the pattern; for new ones, expect '
     'the grouped score'),
    ("grouping_gap", {'metric': 'roc_auc_ovr',
     'groups_column': 'patient',
     'kind': 'small',
     'model': 'a',
     'grouped_mean': 0.7,
     'ungrouped_mean': 0.704,
     'gap': 0.004},
     'with ordinary stratified folds, a scores 0.704 (ROC AUC, one vs rest); with the rows'
     " of each 'patient' kept together, 0.700: grouping changes little here (largest gap "
     "+0.004); rows of one 'patient' do not help the models much. The grouped score is "
     'still the honest one for new ones'),
    ("grouping_gap", {'metric': 'roc_auc_ovr',
     'groups_column': 'patient',
     'kind': 'lower',
     'model': 'a',
     'grouped_mean': 0.7,
     'ungrouped_mean': 0.67,
     'gap': -0.03},
     'with ordinary stratified folds, a scores 0.670 (ROC AUC, one vs rest); with the rows'
     " of each 'patient' kept together, 0.700: no model scores higher with ordinary folds "
     '(largest gap -0.030); the grouped score is the one to report'),
    ("grouping_gap", {'metric': 'roc_auc_ovr',
     'groups_column': 'patient',
     'kind': 'no_scores',
     'model': None,
     'grouped_mean': None,
     'ungrouped_mean': None,
     'gap': None},
     'the models could not be compared with and without groups on ROC AUC, one vs rest: no'
     ' model has scores both ways'),
]


#: The pre-run check's problems (engine.runs.preflight): (code, fields, long form, short
#: form), one per code and branch; the sentences are those preflight.py wrote before the move.
PROBLEM_CASES = [
    ("no_probabilities",
     {'dataset': 'wine',
      'model': 'svc',
      'entry': 0,
      'metric': 'roc_auc_ovr',
      'where': 'metric',
      'needs': 'proba',
      'datasets': ['wine']},
     "model 'svc' gives no probabilities, but ROC AUC, one vs rest (roc_auc_ovr) needs "
     'them: every fold would fail',
     "model 'svc' gives no probabilities, but ROC AUC, one vs rest needs them: every fold "
     'would fail'),
    ("threshold_many_classes",
     {'dataset': 'wine',
      'model': 'costly',
      'entry': 1,
      'n_classes': 3,
      'by': 'costs',
      'datasets': ['wine']},
     'model \'costly\' chooses a decision threshold by costs ("threshold"), which works for '
     "two classes only, and the data set 'wine' has 3: the run would stop there",
     "model 'costly' chooses a decision threshold by costs, which works for two classes "
     "only, and the data set 'wine' has 3: the run would stop there"),
    ("too_few_rows",
     {'dataset': 'small',
      'n_splits': 5,
      'possible': 3,
      'reason': 'the smallest class has only 3 row(s), but 5 folds need at least 5 rows in '
                'every class: lower the number of folds to 3 or fewer, or add data',
      'reason_code': 'folds_too_many_class',
      'datasets': ['small']},
     "the data set 'small': the smallest class has only 3 row(s), but 5 folds need at "
     'least 5 rows in every class: lower the number of folds to 3 or fewer, or add data',
     "the data set 'small': the smallest class has only 3 row(s), but 5 folds need at "
     'least 5 rows in every class: lower the number of folds to 3 or fewer, or add data'),
    ("tune_metric_not_for_target",
     {'dataset': 'wine',
      'model': 'lr',
      'entry': 0,
      'metric': 'f1',
      'n_classes': 3,
      'datasets': ['wine']},
     "model 'lr' is tuned on F1 (f1), which does not fit the 3 classes of the data set "
     "'wine'",
     "model 'lr' is tuned on F1, which does not fit the 3 classes of the data set 'wine'"),
    ("inner_folds_too_few",
     {'dataset': 'wine',
      'model': 'lr',
      'entry': 0,
      'block': 'tune',
      'inner_splits': 60,
      'rows': 32,
      'datasets': ['wine']},
     'model \'lr\' splits each training part into 60 inner folds ("tune"), but the smallest '
     "class of the data set 'wine' has only 32 rows there",
     "model 'lr' splits each training part into 60 inner folds, but the smallest class of "
     "the data set 'wine' has only 32 rows there"),
    ("unscaled_model",
     {'dataset': 'wine',
      'model': 'knn',
      'entry': 0,
      'estimator': 'KNeighborsClassifier',
      'ratio': 2530.3,
      'shown_ratio': 2530,
      'datasets': ['wine']},
     "model 'knn' (KNeighborsClassifier) depends on the scale of the features and runs "
     "unscaled, while the spreads of the features of the data set 'wine' differ up to "
     '2,530 times: its scores may say more about the units than about the model (scaling '
     'the features ("scale": true) fixes it)',
     "model 'knn' depends on the scale of the features and runs unscaled, while the "
     "spreads of the features of the data set 'wine' differ up to 2,530 times: its scores "
     'may say more about the units than about the model (scaling the features fixes it)'),
    ("metric_not_for_target",
     {'dataset': 'wine',
      'metric': 'roc_auc',
      'n_classes': 3,
      'suggested': 'roc_auc_ovr',
      'reason': 'two_classes_only',
      'datasets': ['wine']},
     "the metric ROC AUC (roc_auc) works for two classes only, and the data set 'wine' has"
     ' 3: use ROC AUC, one vs rest (roc_auc_ovr) instead',
     "the metric ROC AUC works for two classes only, and the data set 'wine' has 3: use "
     'ROC AUC, one vs rest instead'),
    ("metric_not_for_target",
     {'dataset': 'breast_cancer',
      'metric': 'top_k_accuracy',
      'n_classes': 2,
      'suggested': 'accuracy',
      'reason': 'always_one',
      'datasets': ['breast_cancer']},
     'the metric top-k accuracy (top_k_accuracy) is always 1 on two classes: use accuracy '
     '(accuracy) instead',
     'the metric top-k accuracy is always 1 on two classes: use accuracy instead'),
    ("metric_not_for_target",
     {'dataset': 'wine',
      'metric': 'roc_auc',
      'n_classes': 3,
      'suggested': 'roc_auc_ovr',
      'reason': 'two_classes_only',
      'datasets': ['wine', 'iris']},
     "the metric ROC AUC (roc_auc) works for two classes only, and the data set 'wine' has"
     " 3: use ROC AUC, one vs rest (roc_auc_ovr) instead (also on 'iris')",
     "the metric ROC AUC works for two classes only, and the data set 'wine' has 3: use "
     "ROC AUC, one vs rest instead (also on 'iris')"),
    ("no_probabilities",
     {'dataset': 'breast_cancer',
      'model': 's',
      'entry': 0,
      'metric': 'neg_log_loss',
      'where': 'tune',
      'needs': 'proba',
      'datasets': ['breast_cancer']},
     "model 's' gives no probabilities, but log loss (negated) (neg_log_loss), the metric "
     'it is tuned on, needs them: every fold would fail',
     "model 's' gives no probabilities, but log loss (negated), the metric it is tuned on,"
     ' needs them: every fold would fail'),
    ("threshold_many_classes",
     {'dataset': 'wine',
      'model': 't',
      'entry': 0,
      'n_classes': 3,
      'by': 'metric',
      'datasets': ['wine']},
     'model \'t\' chooses a decision threshold by a metric ("threshold"), which works for '
     "two classes only, and the data set 'wine' has 3: the run would stop there",
     "model 't' chooses a decision threshold by a metric, which works for two classes "
     "only, and the data set 'wine' has 3: the run would stop there"),
    ("threshold_many_classes",
     {'dataset': 'wine',
      'model': 't',
      'entry': 0,
      'n_classes': 3,
      'by': 'metric',
      'datasets': ['wine', 'iris']},
     'model \'t\' chooses a decision threshold by a metric ("threshold"), which works for '
     "two classes only, and the data set 'wine' has 3: the run would stop there (also on "
     "'iris')",
     "model 't' chooses a decision threshold by a metric, which works for two classes "
     "only, and the data set 'wine' has 3: the run would stop there (also on 'iris')"),
    ("metric_not_for_target",
     {'dataset': '',
      'metric': 'roc_auc',
      'n_classes': 3,
      'suggested': 'roc_auc_ovr',
      'reason': 'two_classes_only',
      'datasets': ['']},
     'the metric ROC AUC (roc_auc) works for two classes only, and the data has 3: use ROC'
     ' AUC, one vs rest (roc_auc_ovr) instead',
     'the metric ROC AUC works for two classes only, and the data has 3: use ROC AUC, one '
     'vs rest instead'),
    ("tune_metric_not_for_target",
     {'dataset': '',
      'model': 't',
      'entry': 1,
      'metric': 'roc_auc',
      'n_classes': 3,
      'datasets': ['']},
     "model 't' is tuned on ROC AUC (roc_auc), which does not fit the 3 classes of the "
     'data',
     "model 't' is tuned on ROC AUC, which does not fit the 3 classes of the data"),
    ("inner_folds_too_few",
     {'dataset': '',
      'model': 't',
      'entry': 1,
      'block': 'tune',
      'inner_splits': 60,
      'rows': 32,
      'datasets': ['']},
     'model \'t\' splits each training part into 60 inner folds ("tune"), but the smallest '
     'class of the data has only 32 rows there',
     "model 't' splits each training part into 60 inner folds, but the smallest class of "
     'the data has only 32 rows there'),
    ("unscaled_model",
     {'dataset': '',
      'model': 'knn',
      'entry': 0,
      'estimator': 'KNeighborsClassifier',
      'ratio': 2530.3,
      'shown_ratio': 2530,
      'datasets': ['']},
     "model 'knn' (KNeighborsClassifier) depends on the scale of the features and runs "
     'unscaled, while the spreads of the features of the data differ up to 2,530 times: '
     'its scores may say more about the units than about the model (scaling the features '
     '("scale": true) fixes it)',
     "model 'knn' depends on the scale of the features and runs unscaled, while the "
     'spreads of the features of the data differ up to 2,530 times: its scores may say '
     'more about the units than about the model (scaling the features fixes it)'),
    ("metric_not_for_target",
     {'dataset': 'bc',
      'metric': 'neg_expected_cost',
      'n_classes': 2,
      'suggested': 'balanced_accuracy',
      'reason': 'no_costs',
      'datasets': ['bc']},
     'the metric expected cost (negated; lower cost is better) (neg_expected_cost) needs '
     'the costs of the outcomes, and none were given: use balanced accuracy '
     '(balanced_accuracy) instead',
     'the metric expected cost (negated; lower cost is better) needs the costs of the '
     'outcomes, and none were given: use balanced accuracy instead'),
    ("no_probabilities",
     {'dataset': 'wine',
      'model': 'p',
      'entry': 0,
      'metric': 'roc_auc_ovr',
      'where': 'metric',
      'needs': 'score',
      'datasets': ['wine']},
     "model 'p' gives no probabilities or decision values, but ROC AUC, one vs rest "
     '(roc_auc_ovr) needs them: every fold would fail',
     "model 'p' gives no probabilities or decision values, but ROC AUC, one vs rest needs "
     'them: every fold would fail'),
]
