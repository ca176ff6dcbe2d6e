"""The Results tab's "All views" button: every view is one click away, also those the
tab bar has no room for on a laptop-sized window."""
from PySide6.QtCore import Qt

from gui.main_window import make_results_tab
from gui.state import AppState


def test_every_view_is_listed_and_one_click_away(qtbot):
    state = AppState()
    tab = make_results_tab(state, None)
    qtbot.addWidget(tab)
    tab.resize(1280, 760)
    tab.show()
    views = tab.views
    button = tab.all_views
    assert views.cornerWidget(Qt.TopRightCorner) is button
    button.menu().aboutToShow.emit()
    titles = [views.tabText(i) for i in range(views.count())]
    assert button.titles() == titles and len(titles) >= 12
    assert {"Held-out test", "Decision curve", "Learning curve"} <= set(titles)
    last = titles[-1]
    next(a for a in button.menu().actions() if a.text() == last).trigger()
    assert views.currentIndex() == len(titles) - 1
    button.menu().aboutToShow.emit()                   # the tick follows the current view
    ticked = [a.text() for a in button.menu().actions() if a.isChecked()]
    assert ticked == [last]
