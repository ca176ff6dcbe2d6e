"""Text from data and files shown as text, never as markup (issue 36).

Qt guesses whether a label's, a message box's or a tooltip's text is rich text
(``Qt.mightBeRichText``: a first line that starts a known HTML tag), so a column or model
named ``<b>x</b>`` or ``<img src=…>`` would be drawn bold or as an image file. Every label of
the app is made here with its format said (:func:`plain_label`, or :func:`rich_label` for
the app's own markup, its data parts put through :func:`escape`); message boxes are plain
(:func:`warn`, :func:`ask`, :func:`message_box`); a tooltip or an input dialog's label
that holds data goes through :func:`plain_tip` / :func:`as_written`. pyqtgraph draws
legends, axis labels and titles as HTML: names in them go through :func:`escape`.
``tests/test_plain_text.py`` checks the gui source, ``tests/gui/test_plain_text_gui.py``
the window.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QMessageBox

from engine.foundation.html_text import html_text


def escape(text) -> str:
    """``text`` (any value, as ``str``) made safe as text inside the app's rich text: the
    engine's one HTML escaper (:func:`engine.foundation.html_text.html_text`), quotes left
    as they are (never put the result inside an attribute)."""
    return html_text(text, quotes=False)


def plain_label(text: str = "", parent=None) -> QLabel:
    """A label that shows its text as it is, whatever it looks like."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.PlainText)
    return label


def rich_label(text: str = "", parent=None) -> QLabel:
    """A label for the app's own markup; every part of ``text`` that comes from data or a
    file must be put through :func:`escape` by the caller."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.RichText)
    return label


def set_plain(label: QLabel, text: str) -> None:
    """Show ``text`` in ``label`` as it is (the label becomes a plain-text one)."""
    label.setTextFormat(Qt.PlainText)
    label.setText(text)


def as_written(text: str) -> str:
    """``text`` made to read as written where Qt guesses the format and none can be set
    (a tooltip, the label of a ``QInputDialog``).

    Returned unchanged when Qt would take it for plain text anyway (so most texts keep
    their plain wrapping); otherwise escaped inside ``<qt>``, line breaks kept.
    """
    text = str(text)
    if not GuiQt.mightBeRichText(text):
        return text
    return "<qt>" + escape(text).replace("\n", "<br>") + "</qt>"


#: A tooltip that shows its text as written (:func:`as_written`).
plain_tip = as_written


def message_box(icon, title: str, text: str, buttons, parent=None) -> QMessageBox:
    """A message box (not yet shown) whose title and text are shown as they are."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.PlainText)
    return box


def warn(parent, title: str, text: str) -> None:
    """Show a modal warning with an OK button; ``text`` is shown as it is."""
    message_box(QMessageBox.Warning, title, text, QMessageBox.Ok, parent).exec()


def ask(parent, title: str, text: str, buttons, default):
    """Ask a modal question with standard ``buttons``; the button chosen
    (``QMessageBox.StandardButton``; ``NoButton`` when the box was closed unanswered)."""
    box = message_box(QMessageBox.Question, title, text, buttons, parent)
    box.setDefaultButton(default)
    return QMessageBox.StandardButton(box.exec())
