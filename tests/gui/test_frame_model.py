"""Table cells read as people expect: whole numbers whole, missing ranks as a dash."""
import numpy as np
import pandas as pd

from gui.frame_model import DataFrameModel


def shown(model, row, column):
    return model.data(model.index(row, column))


def test_counts_are_whole_and_scores_keep_their_decimals(qapp):
    frame = pd.DataFrame({"model": ["a", "b"], "score": [1.0, 0.5],
                          "n_train": [90.0, np.nan], "n_folds": [100, 97],
                          "rank": pd.array([1, None], dtype="Int64")})
    model = DataFrameModel(frame)
    assert [shown(model, 0, c) for c in range(5)] == ["a", "1.0000", "90", "100", "1"]
    assert [shown(model, 1, c) for c in range(5)] == ["b", "0.5000", "—", "97", "—"]
    model.sort(2)
    assert shown(model, 0, 2) == "90"


def test_a_table_in_its_own_order_shows_no_sort_arrow(qtbot):
    from gui.table_panel import TablePanel

    panel = TablePanel("t", "t.csv")
    qtbot.addWidget(panel)
    panel.set_frame(pd.DataFrame({"model": ["b", "a"], "score": [0.9, 0.8]}))
    header = panel.view.horizontalHeader()
    assert header.sortIndicatorSection() == -1 or not header.isSortIndicatorShown()
    assert list(panel.frame()["model"]) == ["b", "a"]
    from PySide6.QtCore import Qt

    panel.view.sortByColumn(0, Qt.AscendingOrder)      # the user sorts: the arrow appears
    assert header.sortIndicatorSection() == 0 and list(panel.frame()["model"]) == ["a", "b"]
    panel.set_frame(pd.DataFrame({"model": ["z", "y"]}))
    assert header.sortIndicatorSection() == -1 and list(panel.frame()["model"]) == ["z", "y"]


def test_a_column_can_be_shown_in_words_while_the_table_keeps_its_values(qapp):
    from engine.evaluation.verdict import metric_label

    frame = pd.DataFrame({"metric": ["roc_auc_ovr", "jaccard_macro"], "mean": [0.9, 0.8]})
    model = DataFrameModel(frame)
    model.show_column_as("metric", metric_label)
    assert shown(model, 0, 0) == "ROC AUC, one vs rest"
    assert shown(model, 1, 0) == "Jaccard index, mean over classes"
    assert list(model.frame()["metric"]) == ["roc_auc_ovr", "jaccard_macro"]


def test_text_kept_per_block_follows_sorting_new_data_and_words(qapp):
    """Cells past the first block of rows read right, and the kept text is dropped when
    the rows are sorted, the frame replaced or a column shown in words."""
    from PySide6.QtCore import QModelIndex, Qt

    from gui.frame_model import BLOCK

    rows = 3 * BLOCK + 5
    frame = pd.DataFrame({"x": np.arange(rows, dtype=float) / 4, "name": [f"n{i}" for i in
                                                                       range(rows)]})
    model = DataFrameModel(frame, digits=2)
    last = rows - 1
    assert shown(model, last, 0) == f"{last / 4:.2f}" and shown(model, BLOCK, 1) == f"n{BLOCK}"
    align = Qt.ItemDataRole.TextAlignmentRole
    assert model.data(model.index(last, 0), align) & int(Qt.AlignRight)
    assert model.data(model.index(last, 1), align) & int(Qt.AlignLeft)
    model.sort(0, Qt.DescendingOrder)
    assert shown(model, 0, 0) == f"{last / 4:.2f}" and shown(model, last, 1) == "n0"
    model.show_column_as("name", lambda value: value.upper())
    assert shown(model, last, 1) == "N0"
    model.set_frame(frame.iloc[2:4])               # the words stay with the column's name
    assert [shown(model, r, 1) for r in range(2)] == ["N2", "N3"]
    assert model.data(QModelIndex()) is None
    assert model.data(model.index(0, 0), Qt.ItemDataRole.FontRole) is None
