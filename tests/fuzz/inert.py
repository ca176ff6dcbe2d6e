"""What an inert text is, written independently of ``engine.input.csv_values.visible``.

The fuzz tests compare what the writers wrote with :func:`expected_visible`, a plain
per-character rewrite of the rule (every character of the Unicode categories Cc, Cf,
Zl, Zp and Cs written out as a Python escape), and look for survivors with
:func:`invisible_in`.
"""
import unicodedata

INVISIBLE = ("Cc", "Cf", "Zl", "Zp", "Cs")
#: Characters the campaign of issue 31 found raw in written files, and their kin: line
#: breaks Python's ``splitlines`` knows, C1 controls, bidirectional overrides, zero-width
#: characters, a byte order mark, an escape sequence's start.
SPECIAL = ("\x00", "\t", "\n", "\r", "\x0b", "\x0c", "\x1b", "\x1c", "\x1d", "\x1e", "\x7f",
           "\x85", "\x9b", "\xad", "\u061c", "\u200b", "\u200d", "\u200e", "\u202a",
           "\u202e", "\u2028", "\u2029", "\u2066", "\ufeff", "\U000e0001", "\ud800")


def _escape(char: str) -> str:
    named = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
    if char in named:
        return named[char]
    code = ord(char)
    if code <= 0xFF:
        return "\\x%02x" % code
    return "\\u%04x" % code if code <= 0xFFFF else "\\U%08x" % code


def expected_visible(text: str) -> str:
    """``text`` with every character of :data:`INVISIBLE` written out."""
    return "".join(_escape(c) if unicodedata.category(c) in INVISIBLE else c for c in text)


def invisible_in(text: str) -> list:
    """The characters of :data:`INVISIBLE` in ``text`` (line ends of a file excluded:
    pass its lines)."""
    return [c for c in text if unicodedata.category(c) in INVISIBLE]


def expected_cell(text: str) -> str:
    """What a text cell of a result table must read back as: written out, and a leading
    ``'`` when a spreadsheet would take it for a formula (as ``engine.output.tables`` states)."""
    shown = expected_visible(text)
    if shown[:1] in ("=", "+", "-", "@"):
        try:
            float(shown)
        except ValueError:
            return "'" + shown
    return shown
