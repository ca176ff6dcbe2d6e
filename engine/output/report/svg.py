"""A small SVG writer for the report's plots: axes, ticks, lines, points, error bars,
bars, bands and a legend, as inline ``<svg>`` text (no script, no external file).

The engine may not import a plotting library (import-linter contract), and the report
must open with no network and no script, so the plots are drawn here. Every text that
goes into the SVG (titles, labels, legend entries: model and class names) is escaped
with the one HTML escaper (:func:`engine.foundation.html_text.html_text`) after
:func:`engine.input.csv_values.visible`, so a name such as ``<script>`` is shown as
written, never run.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

from engine.foundation.html_text import html_text
from engine.input.csv_values import visible

#: Okabe and Ito's colour-blind-safe palette (black last).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000")
#: Stands for a picture's clip-path id until :func:`number_svgs` numbers it (a NUL, which
#: no escaped text can hold).
CLIP = "\0clip\0"
_MARGIN = {"left": 70, "right": 20, "top": 34, "bottom": 48}


def text(value) -> str:
    """``value`` as inert SVG/HTML text: invisible characters written out, markup escaped."""
    return html_text(visible(str(value)))


def colour(index: int) -> str:
    """The ``index``-th colour of :data:`PALETTE` (cycling)."""
    return PALETTE[index % len(PALETTE)]


def nice_ticks(low: float, high: float, *, count: int = 6) -> list:
    """About ``count`` round tick values (steps of 1, 2 or 5 times a power of ten) covering
    ``[low, high]``."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low] if math.isfinite(low) else []
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(s * power for s in (1, 2, 2.5, 5, 10) if s * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks, value = [], first
    while value <= high + step * 1e-9:
        ticks.append(0.0 if abs(value) < step * 1e-9 else value)
        value += step
    return ticks


def log_ticks(low: float, high: float) -> list:
    """The powers of ten within ``[low, high]`` (both positive)."""
    first, last = math.ceil(math.log10(low) - 1e-9), math.floor(math.log10(high) + 1e-9)
    return [10.0 ** k for k in range(first, last + 1)]


def tick_label(value: float) -> str:
    """A tick's label: ``0.25``, ``1``, ``1e-03``."""
    if value != 0 and (abs(value) >= 1e5 or abs(value) < 1e-3):
        return f"{value:.0e}"
    return f"{value:.6g}"


def padded(low: float, high: float, *, share: float = 0.05) -> tuple:
    """``(low, high)`` widened by ``share`` of the span on each side (a point span
    becomes one unit wide)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return 0.0, 1.0
    span = high - low
    if span <= 0:
        pad = abs(low) * 0.05 or 0.5
        return low - pad, high + pad
    return low - share * span, high + share * span


class Axes:
    """One plot: data coordinates mapped onto a ``width`` x ``height`` picture.

    Parameters
    ----------
    x_range, y_range : (float, float)
        The data ranges shown.
    title, x_label, y_label : str
    log_x : bool
        A logarithmic x axis (``x_range`` positive).
    y_categories : sequence of str, optional
        Category names drawn as y tick labels at 0, 1, ... (a strip plot's models);
        ``y_range`` is then ``(-0.5, n - 0.5)``.
    """

    def __init__(self, x_range, y_range, title: str = "", x_label: str = "",
                 y_label: str = "", width: int = 640, height: int = 360,
                 log_x: bool = False, y_categories: Optional[Sequence] = None,
                 left: Optional[int] = None):
        self.width, self.height, self.log_x = width, height, log_x
        self.margin = dict(_MARGIN, left=left or _MARGIN["left"])
        self.x_range, self.y_range = tuple(map(float, x_range)), tuple(map(float, y_range))
        self.title, self.x_label, self.y_label = title, x_label, y_label
        self.y_categories = list(y_categories) if y_categories is not None else None
        self.items: list = []
        self.legend_entries: list = []
        self._legend_room = False

    # coordinates -------------------------------------------------------------------
    def px(self, x: float) -> float:
        low, high = self.x_range
        if self.log_x:
            x, low, high = math.log10(x), math.log10(low), math.log10(high)
        inner = self.width - self.margin["left"] - self.margin["right"]
        return self.margin["left"] + (x - low) / (high - low) * inner

    def py(self, y: float) -> float:
        low, high = self.y_range
        inner = self.height - self.margin["top"] - self.margin["bottom"]
        return self.margin["top"] + (high - y) / (high - low) * inner

    # marks ---------------------------------------------------------------------------
    def line(self, xs, ys, colour_: str, width: float = 1.5, dash: str = "") -> None:
        """A polyline through the finite points (a gap where a value is missing)."""
        for run in _finite_runs(xs, ys):
            points = " ".join(f"{self.px(x):.1f},{self.py(y):.1f}" for x, y in run)
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            self.items.append(f'<polyline points="{points}" fill="none" stroke="{colour_}" '
                              f'stroke-width="{width}"{extra}/>')

    def points(self, xs, ys, colour_: str, radius: float = 2.5, opacity: float = 0.7) -> None:
        """Filled circles at the finite points."""
        for x, y in zip(xs, ys):
            if _finite(x, y):
                self.items.append(f'<circle cx="{self.px(x):.1f}" cy="{self.py(y):.1f}" '
                                  f'r="{radius}" fill="{colour_}" fill-opacity="{opacity}"/>')

    def segment(self, x0, y0, x1, y1, colour_: str, width: float = 1.5, dash: str = "") -> None:
        """A straight line between two data points."""
        if _finite(x0, y0) and _finite(x1, y1):
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            self.items.append(f'<line x1="{self.px(x0):.1f}" y1="{self.py(y0):.1f}" '
                              f'x2="{self.px(x1):.1f}" y2="{self.py(y1):.1f}" '
                              f'stroke="{colour_}" stroke-width="{width}"{extra}/>')

    def error_bar(self, x_low, x_high, y, colour_: str, width: float = 2.0) -> None:
        """A horizontal interval ``[x_low, x_high]`` at height ``y`` with end caps."""
        if not (_finite(x_low, y) and _finite(x_high, y)):
            return
        self.segment(x_low, y, x_high, y, colour_, width)
        for x in (x_low, x_high):
            px, py = self.px(x), self.py(y)
            self.items.append(f'<line x1="{px:.1f}" y1="{py - 4:.1f}" x2="{px:.1f}" '
                              f'y2="{py + 4:.1f}" stroke="{colour_}" stroke-width="1"/>')

    def rect(self, x0, y0, x1, y1, colour_: str, opacity: float = 1.0,
             stroke: str = "none") -> None:
        """A filled rectangle between two data corners (a bar, a box, a band)."""
        if not (_finite(x0, y0) and _finite(x1, y1)):
            return
        left, right = sorted((self.px(x0), self.px(x1)))
        top, bottom = sorted((self.py(y0), self.py(y1)))
        self.items.append(f'<rect x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" '
                          f'height="{bottom - top:.1f}" fill="{colour_}" '
                          f'fill-opacity="{opacity}" stroke="{stroke}"/>')

    def band(self, xs, lows, highs, colour_: str, opacity: float = 0.2) -> None:
        """A shaded area between two curves over the same x values."""
        triples = [(x, lo, hi) for x, lo, hi in zip(xs, lows, highs) if _finite(x, lo, hi)]
        if len(triples) < 2:
            return
        upper = [f"{self.px(x):.1f},{self.py(hi):.1f}" for x, _, hi in triples]
        lower = [f"{self.px(x):.1f},{self.py(lo):.1f}" for x, lo, _ in reversed(triples)]
        self.items.append(f'<polygon points="{" ".join(upper + lower)}" fill="{colour_}" '
                          f'fill-opacity="{opacity}" stroke="none"/>')

    def label(self, x, y, words: str, colour_: str = "#333", anchor: str = "start") -> None:
        """A short text at a data point."""
        if _finite(x, y):
            self.items.append(f'<text x="{self.px(x):.1f}" y="{self.py(y):.1f}" '
                              f'fill="{colour_}" font-size="11" text-anchor="{anchor}">'
                              f'{text(words)}</text>')

    def legend(self, name: str, colour_: str, kind: str = "line") -> None:
        """An entry of the legend (drawn at the top right, inside the plot)."""
        self.legend_entries.append((name, colour_, kind))

    # output --------------------------------------------------------------------------
    def svg(self, description: str = "") -> str:
        """The picture as an inline ``<svg>`` element (its ``<title>`` is the plot's title
        and ``description``, for screen readers)."""
        if self.legend_entries and not self._legend_room:
            self._legend_room = True            # a row below the axis label
            self.height += 20
            self.margin = dict(self.margin, bottom=self.margin["bottom"] + 20)
        clip = (f'<clipPath id="{CLIP}"><rect x="{self.margin["left"]}" '
                f'y="{self.margin["top"]}" width="{self._inner_width()}" '
                f'height="{self._inner_height()}"/></clipPath>')
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                 f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
                 'role="img" font-family="sans-serif">',
                 f"<title>{text(self.title)}{': ' + text(description) if description else ''}"
                 "</title>", "<defs>" + clip + "</defs>",
                 f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="white"/>',
                 *self._grid(), f'<g clip-path="url(#{CLIP})">', *self.items, "</g>",
                 *self._frame(), *self._legend(), "</svg>"]
        return "\n".join(parts)

    def _inner_width(self) -> float:
        return self.width - self.margin["left"] - self.margin["right"]

    def _inner_height(self) -> float:
        return self.height - self.margin["top"] - self.margin["bottom"]

    def _x_ticks(self) -> list:
        low, high = self.x_range
        return log_ticks(low, high) if self.log_x else nice_ticks(low, high)

    def _grid(self) -> list:
        top, bottom = self.margin["top"], self.height - self.margin["bottom"]
        left, right = self.margin["left"], self.width - self.margin["right"]
        lines = []
        for value in self._x_ticks():
            x = self.px(value)
            lines.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" '
                         'stroke="#e5e5e5"/>')
            lines.append(f'<text x="{x:.1f}" y="{bottom + 15}" font-size="11" '
                         f'text-anchor="middle" fill="#333">{tick_label(value)}</text>')
        for value, words in self._y_ticks():
            y = self.py(value)
            lines.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" '
                         'stroke="#e5e5e5"/>')
            lines.append(f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="11" '
                         f'text-anchor="end" fill="#333">{text(words)}</text>')
        return lines

    def _y_ticks(self) -> list:
        if self.y_categories is not None:
            return [(i, _short(name, 34)) for i, name in enumerate(self.y_categories)]
        low, high = self.y_range
        return [(v, tick_label(v)) for v in nice_ticks(low, high)]

    def _frame(self) -> list:
        left, top = self.margin["left"], self.margin["top"]
        parts = [f'<rect x="{left}" y="{top}" width="{self._inner_width()}" '
                 f'height="{self._inner_height()}" fill="none" stroke="#888"/>',
                 f'<text x="{left}" y="{top - 12}" font-size="13" font-weight="bold" '
                 f'fill="#111">{text(self.title)}</text>',
                 f'<text x="{left + self._inner_width() / 2:.1f}" '
                 f'y="{top + self._inner_height() + 36:.1f}" '
                 f'font-size="12" text-anchor="middle" fill="#111">{text(self.x_label)}</text>']
        if self.y_label:
            y = top + self._inner_height() / 2
            parts.append(f'<text x="14" y="{y:.1f}" font-size="12" text-anchor="middle" '
                         f'transform="rotate(-90 14 {y:.1f})" fill="#111">'
                         f"{text(self.y_label)}</text>")
        return parts

    def _legend(self) -> list:
        """The legend: one row of entries below the x axis's label (never over the data)."""
        parts, x = [], float(self.margin["left"])
        y = self.height - 6
        for name, colour_, kind in self.legend_entries:
            if kind == "box":
                parts.append(f'<rect x="{x:.1f}" y="{y - 9}" width="18" height="10" '
                             f'fill="{colour_}" fill-opacity="0.35"/>')
            else:
                dash = ' stroke-dasharray="5 3"' if kind == "dashed" else ""
                parts.append(f'<line x1="{x:.1f}" y1="{y - 4}" x2="{x + 18:.1f}" '
                             f'y2="{y - 4}" stroke="{colour_}" stroke-width="2"{dash}/>')
            label = _short(name, 40)
            parts.append(f'<text x="{x + 24:.1f}" y="{y}" font-size="11" '
                         f'fill="#111">{text(label)}</text>')
            x += 40 + 6.2 * len(label)
        return parts


def _short(name, width: int) -> str:
    name = str(name)
    return name if len(name) <= width else name[: width - 1] + "…"


def _finite(*values) -> bool:
    try:
        return all(math.isfinite(float(v)) for v in values)
    except (TypeError, ValueError):
        return False


def _finite_runs(xs, ys) -> list:
    """The runs of consecutive finite points of a curve."""
    runs, current = [], []
    for x, y in zip(xs, ys):
        if _finite(x, y):
            current.append((float(x), float(y)))
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return [run for run in runs if len(run) >= 2]


def number_svgs(svgs: Sequence[str], *, start: int = 1) -> list:
    """Give each picture's clip path its own id (``clip-1``, ``clip-2``, ... from
    ``start``), as ids must be unique in one page."""
    return [svg.replace(CLIP, f"clip-{i}") for i, svg in enumerate(svgs, start)]
