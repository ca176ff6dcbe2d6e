"""The "All views" button in the corner of the Results tab's view bar.

The Results tab hosts a dozen views; on a laptop-sized window the tab bar shows about ten
and hides the rest behind its scroll arrows, where "Decision curve" or "Held-out test" are
easy to miss. The button lists every view by its title, the current one ticked, and
shows the one picked: every view is one click away at any width.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu, QTabWidget, QToolButton


class ViewsMenuButton(QToolButton):
    """A button whose menu lists every page of ``tabs`` and switches to the one picked."""

    def __init__(self, tabs: QTabWidget, text: str = "All views"):
        super().__init__(tabs)
        self.tabs = tabs
        self.setText(text)
        self.setToolTip("Every view of the results, also those the bar has no room for")
        self.setPopupMode(QToolButton.InstantPopup)
        self.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.setMenu(QMenu(self))
        self.menu().aboutToShow.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the menu from the tabs as they are now (views are added after start)."""
        menu = self.menu()
        menu.clear()
        for index in range(self.tabs.count()):
            action = menu.addAction(self.tabs.tabText(index).replace("&", "&&"))
            action.setCheckable(True)
            action.setChecked(index == self.tabs.currentIndex())
            action.setEnabled(self.tabs.isTabEnabled(index))
            action.triggered.connect(lambda _checked=False, i=index: self.tabs.setCurrentIndex(i))

    def titles(self) -> list:
        """The titles the menu offers, in order (for tests and screen readers)."""
        return [action.text().replace("&&", "&") for action in self.menu().actions()]
