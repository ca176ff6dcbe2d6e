"""A thin bar across the top of the Cross-validation tab's run view: a message about the
result store (a run to resume, a file that cannot be used) with one action button."""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QToolButton

from ..plain_text import plain_label

STYLES = {
    "offer": "QFrame#storeBar { background: #e8f1fb; border: 1px solid #9cc2e8; "
             "border-radius: 4px; }",
    "problem": "QFrame#storeBar { background: #fdf0e6; border: 1px solid #e8b48c; "
               "border-radius: 4px; }",
}


class StoreBar(QFrame):
    """Hidden until :meth:`show_message`; the close button hides it again."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("storeBar")
        self.label = plain_label("", self)
        self.label.setWordWrap(True)
        self.action_button = QPushButton(self)
        self.action_button.setStyleSheet("font-weight: bold; padding: 3px 12px;")
        self.action_button.clicked.connect(self._act)
        self.close_button = QToolButton(self)
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Hide this message")
        self.close_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.action_button)
        layout.addWidget(self.close_button)
        self.kind: Optional[str] = None
        self._action: Optional[Callable] = None
        self.hide()

    def show_message(self, kind: str, text: str, button: str, action: Callable) -> None:
        """Show ``text`` with a button ``button`` that calls ``action`` (and hides the
        bar); ``kind`` is ``"offer"`` or ``"problem"``."""
        self.kind, self._action = kind, action
        self.setStyleSheet(STYLES[kind])
        self.label.setText(text)
        self.action_button.setText(button)
        self.show()

    def dismiss(self) -> None:
        self.kind, self._action = None, None
        self.hide()

    def _act(self) -> None:
        action = self._action
        self.dismiss()
        if action is not None:
            action()
