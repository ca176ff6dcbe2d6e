"""Work moved off the turns a user waits for (issue #43): the window is polished and laid
out before its first show, and new data reaches the Dataset tab a piece per turn of the
event loop, complete when ``view_ready`` fires. No clock: the tests count turns and
events."""
from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtWidgets import QApplication, QWidget

from engine.input.data import load_builtin
from gui.dataset_loading import prepare_view


class PolishCounter(QObject):
    """Counts the Polish events the application delivers to widgets."""

    def __init__(self):
        super().__init__()
        self.polished = 0

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Polish and isinstance(watched, QWidget):
            self.polished += 1
        return False


def test_the_window_is_polished_and_laid_out_before_it_is_shown(qtbot, tmp_path):
    from gui.main_window import MainWindow

    window = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(window)
    widgets = window.findChildren(QWidget)
    assert len(widgets) > 500                        # every tab and Results view is built
    assert all(w.testAttribute(Qt.WA_WState_Polished) for w in widgets)
    counter = PolishCounter()
    app = QApplication.instance()
    app.installEventFilter(counter)
    try:
        window.show()
        app.processEvents()
    finally:
        app.removeEventFilter(counter)
    assert counter.polished < 10                     # a cold show polished ~2,100 widgets
    assert window.isVisible() and window.dataset_tab.isVisible()
    window.shutdown()


def shown_view(tab, qtbot, name: str):
    """``tab`` showing the built-in ``name`` (loaded and drawn)."""
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin(name)
    queue = tab.state.renderer
    qtbot.waitUntil(lambda: not queue.busy, timeout=10000)
    return queue


def test_new_data_is_shown_a_piece_per_turn_complete_at_view_ready(dataset_tab, qtbot):
    tab = dataset_tab
    queue = shown_view(tab, qtbot, "iris")
    ready = []
    tab.view_ready.connect(lambda: ready.append(tab.preview.model.rowCount()))
    view = prepare_view(load_builtin("wine"))
    tab.show_view(view)                             # as the view job's success does
    assert queue.busy and not ready
    assert tab.preview.model.rowCount() == 150       # iris until its turn comes
    turns = 0
    while queue.busy:
        queue.run_slice()
        turns += 1
    assert turns == 5                                # controls, counts, table, plot, done
    assert ready == [178]                            # every piece shown before view_ready
    assert tab.preview.model.columnCount() == 14     # 13 features + the target
    assert list(tab.counts_plot.bars.opts["height"]) == [59, 71, 48]
    assert tab.x_combo.count() == 13 and tab.sample_note.text() == "all 178 rows"


def test_file_new_drops_an_unfinished_view(dataset_tab, qtbot):
    tab = dataset_tab
    queue = shown_view(tab, qtbot, "iris")
    ready = []
    tab.view_ready.connect(lambda: ready.append(1))
    tab.show_view(prepare_view(load_builtin("wine")))
    queue.run_slice()                                # the controls of wine: one turn
    tab.state.set_datasets([])                       # File -> New before the rest
    assert not queue.busy and not ready
    assert tab.preview.model.rowCount() == 0 and tab.x_combo.count() == 0
    assert tab.shown_dataset is None
