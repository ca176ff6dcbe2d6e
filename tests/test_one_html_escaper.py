"""One HTML escaper (engine.foundation.html_text.html_text) for the report and the app:
no other module calls ``html.escape``; the spreadsheet and message escapers keep their
own jobs."""
import ast
import pathlib

from engine.foundation.html_text import html_text
from engine.foundation.schema import printable
from engine.output.tables import safe_cell

ROOT = pathlib.Path(__file__).resolve().parents[1]


def html_escape_calls():
    for package in ("engine", "gui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "escape"
                        and getattr(node.func.value, "id", None) == "html"):
                    yield path.relative_to(ROOT).as_posix()


def test_html_escape_is_called_in_the_one_escaper_only():
    assert sorted(set(html_escape_calls())) == ["engine/foundation/html_text.py"]


def test_the_three_escapers_do_three_jobs():
    name = "=1+2 <b>\"a\" & 'b'</b>\n"
    assert html_text(name) == "=1+2 &lt;b&gt;&quot;a&quot; &amp; &#x27;b&#x27;&lt;/b&gt;\n"
    assert html_text(3.5) == "3.5"
    assert safe_cell(name) == "'=1+2 <b>\"a\" & 'b'</b>\\n"
    assert printable(name) == "=1+2 <b>\"a\" & 'b'</b>\\n"
