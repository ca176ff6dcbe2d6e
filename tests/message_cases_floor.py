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
