"""Issue 36 in the source: every label and message box of the app says its text format,
so that Qt never guesses rich text from a column's, a class's, a model's or a file's
name. Labels are made by ``gui.plain_text`` (``plain_label``, ``rich_label``), message
boxes by its ``message_box`` / ``warn`` / ``ask``, and a tooltip built from a formatted
string goes through ``plain_tip`` (or the app's own rich-tip helpers, which escape). The
labels a QFormLayout makes of ``addRow("words", widget)`` and a QInputDialog's label
guess; they hold the app's own words, or go through ``as_written``."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUI = ROOT / "gui"
HELPER = GUI / "plain_text.py"
#: Static QMessageBox calls that guess the text format of what they show.
GUESSING_STATICS = {"warning", "critical", "information", "question"}


def _called(node) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _of_message_box(node) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "QMessageBox")


def _fixed(node) -> bool:
    """True for text the app wrote: a string constant, an UPPER_CASE module constant, or
    an f-string, ``+`` or ``x if c else y`` of those."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id.isupper()
    if isinstance(node, ast.JoinedStr):
        return all(isinstance(part, ast.Constant) or _fixed(part.value)
                   for part in node.values)
    if isinstance(node, ast.BinOp):
        return _fixed(node.left) and _fixed(node.right)
    if isinstance(node, ast.IfExp):
        return _fixed(node.body) and _fixed(node.orelse)
    return False


def _of_input_dialog(node) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "QInputDialog")


def _formatted(node) -> bool:
    """True when ``node`` builds a string (an f-string, a ``+``) from values that are not
    all the app's own words; a call (``plain_tip(...)``, a helper that escapes) is not."""
    if isinstance(node, ast.IfExp):
        return _formatted(node.body) or _formatted(node.orelse)
    return isinstance(node, (ast.JoinedStr, ast.BinOp)) and not _fixed(node)


def _label_classes(trees: dict) -> set:
    """Names of the gui's classes that derive from QLabel (directly or through another)."""
    found, grew = {"QLabel"}, True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in found and any(
                        getattr(base, "id", getattr(base, "attr", "")) in found
                        for base in node.bases):
                    found.add(node.name)
                    grew = True
    return found


def _sets_format_in_init(node: ast.ClassDef) -> bool:
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            return any(isinstance(n, ast.Call) and _called(n) == "setTextFormat"
                       for n in ast.walk(item))
    return False


def text_format_problems(trees: dict) -> list:
    """``"path:line: what"`` for every label, message box or tooltip of ``trees`` (path ->
    parsed module) that leaves the text format to Qt's guess."""
    labels = _label_classes(trees)
    problems = []                   # (path, line, what)
    for path, tree in trees.items():
        helper = path == "gui/plain_text.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in labels - {"QLabel"} \
                    and not _sets_format_in_init(node):
                problems.append((path, node.lineno, f"{node.name} sets no text format"))
            if not isinstance(node, ast.Call):
                continue
            called = _called(node)
            if called in ("QLabel", "QMessageBox") and isinstance(node.func, ast.Name) \
                    and not helper:
                problems.append((path, node.lineno, f"{called}(...) outside gui.plain_text"))
            elif _of_message_box(node) and called in GUESSING_STATICS:
                problems.append((path, node.lineno, f"QMessageBox.{called} guesses rich text"))
            elif _of_message_box(node) and called == "about" and any(
                    not isinstance(arg, ast.Constant) for arg in node.args[2:]):
                problems.append((path, node.lineno, "QMessageBox.about with data"))
            elif called == "setToolTip" and node.args and _formatted(node.args[0]):
                problems.append((path, node.lineno, "a formatted tooltip without plain_tip"))
            elif _of_input_dialog(node) and len(node.args) > 2 and _formatted(node.args[2]):
                problems.append((path, node.lineno, "an input dialog's label without as_written"))
            elif called == "addRow" and node.args and _formatted(node.args[0]):
                problems.append((path, node.lineno, "a form row's label guesses its format"))
    return [f"{path}:{line}: {what}" for path, line, what in sorted(problems)]


def _gui_trees() -> dict:
    return {path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(GUI.rglob("*.py"))}


def test_the_check_finds_each_kind_of_guess():
    code = ("a = QLabel('x', self)\nb = QMessageBox(QMessageBox.Warning, 't', s)\n"
            "QMessageBox.warning(self, 't', s)\nQMessageBox.question(self, 't', s)\n"
            "QMessageBox.about(self, 't', name)\nw.setToolTip(f'{name} is here')\n"
            "w.setToolTip('a ' + name)\nw.setToolTip(x if y else f'{name}')\n"
            "form.addRow(f'{name}', box)\nQInputDialog.getItem(self, 't', f'{name}?', items)\n"
            "class Shown(QLabel):\n    def __init__(self):\n        super().__init__()\n"
            "class Shorter(Shown):\n    def __init__(self):\n        self.setTextFormat(1)\n")
    problems = text_format_problems({"gui/x.py": ast.parse(code)})
    assert [p.split(": ", 1)[0] for p in problems] == [
        "gui/x.py:1", "gui/x.py:2", "gui/x.py:3", "gui/x.py:4", "gui/x.py:5", "gui/x.py:6",
        "gui/x.py:7", "gui/x.py:8", "gui/x.py:9", "gui/x.py:10", "gui/x.py:11"]
    assert problems[-1].endswith("Shown sets no text format")


def test_the_check_lets_the_helpers_through():
    code = ("a = plain_label(name, self)\nb = rich_label('<b>x</b>', self)\n"
            "w.setToolTip(TIP)\nw.setToolTip(plain_tip(f'{name} is here'))\n"
            "w.setToolTip(rich_tip(f'{doc}'))\nQMessageBox.about(self, t, 'constant')\n"
            "w.setToolTip('plain ' 'words')\nw.setToolTip(f'{TIP} and ' + MORE)\n"
            "w.setToolTip(TIP + ('' if x else ' more'))\nform.addRow('Folds', box)\n"
            "QInputDialog.getItem(self, 't', as_written(f'{name}?'), items)\n"
            "class Shown(QLabel):\n"
            "    def __init__(self):\n        self.setTextFormat(Qt.PlainText)\n")
    assert text_format_problems({"gui/x.py": ast.parse(code)}) == []
    made = "label = QLabel(text, parent)\nbox = QMessageBox(icon, title, text)\n"
    assert text_format_problems({"gui/plain_text.py": ast.parse(made)}) == []


def test_every_label_box_and_formatted_tip_of_the_app_says_its_format():
    """No QLabel or QMessageBox is made outside gui/plain_text.py, no static QMessageBox
    call guesses, every QLabel subclass sets its format, and every tooltip built with an
    f-string or ``+`` goes through plain_tip (or a helper that escapes)."""
    trees = _gui_trees()
    assert len(trees) > 80 and "gui/plain_text.py" in trees
    assert text_format_problems(trees) == []
