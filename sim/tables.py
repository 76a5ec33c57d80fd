"""Terminal tables that fit the console: numbers are never cut, labels wrap.

A table is laid out at its natural width when that fits. Otherwise the headers of the number
columns break onto two lines, the label columns (strategy labels, sweep points) take the
width left and wrap after their commas, and if even then a label would get fewer than
``MIN_LABEL`` characters the columns marked optional (figures ``--json`` also gives) are
left out, the caller names them. Number cells are never wrapped, folded or abbreviated; should
the numbers alone be wider than the console, the table is printed wider (the terminal wraps
it) rather than cut.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from rich import box
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

GAP = 2            # characters between two columns (collapsed padding of 1 on each side)
MIN_LABEL = 16     # narrowest label column worth keeping before optional columns go
LEAST_LABEL = 8    # narrowest label column at all (narrower: the table is printed wider than the console)


@dataclass(frozen=True)
class Col:
    header: str
    label: bool = False          # wraps (strategy labels, point labels); every other column never does
    optional: bool = False       # may be left out when the console is too narrow
    justify: str | None = None   # default: left for labels, right for numbers
    short: str | None = None     # the header on a narrow console (default: the header on two lines)


def fmt_pct(x: float | None) -> str:
    """A rate as a percentage: two decimals, or two significant digits below 0.1 %
    (``0.0012%``), so that a small rate never prints as ``0.00%``; 0 is ``0.00%``."""
    if x is None or math.isnan(x):
        return "nan"
    v = 100 * x
    if abs(v) < 1e-10:              # floating-point dust (a Wilson bound of no successes)
        return "0.00%"
    if abs(v) < 0.1:
        return f"{v:.{1 - math.floor(math.log10(abs(v)))}f}%"
    return f"{v:.2f}%"


def fmt_num(x: float | None, digits: int = 4) -> str:
    return "nan" if x is None or math.isnan(x) else f"{x:+.{digits}f}"


def fmt_pm(half: float | None, digits: int = 4) -> str:
    """The half-width of a symmetric interval: ``±0.0986``."""
    return "nan" if half is None or math.isnan(half) else f"±{half:.{digits}f}"


def split_header(text: str) -> str:
    """``"mean payout"`` -> ``"mean\\npayout"``: the break at the space nearest the middle."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces or "\n" in text:
        return text
    mid = len(text) / 2
    i = min(spaces, key=lambda s: (max(s, len(text) - s - 1), abs(s - mid)))
    return text[:i] + "\n" + text[i + 1:]


def _pieces(text: str, breaks: str) -> list[str]:
    pieces, cur = [], ""
    for ch in text:
        cur += ch
        if ch in breaks:
            pieces.append(cur)
            cur = ""
    return pieces + ([cur] if cur else [])


def wrap_label(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` characters, broken after a comma (or at a space);
    a piece longer than a line is broken after its ``=``, ``:`` or ``_``, and cut only if
    still too long (the characters are all kept)."""
    if width < 1 or len(text) <= width:
        return text
    pieces = []
    for piece in _pieces(text, ", "):
        if len(piece.rstrip(" ")) <= width:
            pieces.append(piece)
            continue
        for breaks in ("=:", "=:_"):
            parts = _pieces(piece, breaks)
            if all(len(x) <= width for x in parts):
                break
        pieces += parts
    lines, line = [], ""
    for piece in pieces:
        if len(line) + len(piece.rstrip(" ")) <= width:
            line += piece
            continue
        if line:
            lines.append(line.rstrip(" "))
        line = ""
        while len(piece.rstrip(" ")) > width:
            lines.append(piece[:width])
            piece = piece[width:]
        line = piece
    if line.rstrip(" "):
        lines.append(line.rstrip(" "))
    return "\n".join(lines)


def _widths(heads: list[str], rows: list[list[str]]) -> list[int]:
    return [max([max(cell_len(x) for x in h.split("\n"))] + [max(cell_len(x) for x in r[i].split("\n")) for r in rows])
            for i, h in enumerate(heads)]


def fit(cols: list[Col], rows: list[list[str]], width: int) -> tuple[Table, int, list[str]]:
    """(table, its width, headers left out) for a console ``width`` characters wide. The
    cells are plain strings (``textsafe.term`` already applied to anything read from a file)."""
    keep = list(range(len(cols)))
    while True:
        cs = [cols[i] for i in keep]
        rs = [[r[i] for i in keep] for r in rows]
        heads = [c.header for c in cs]
        nat = _widths(heads, rs)
        gaps = GAP * (len(cs) - 1)
        if sum(nat) + gaps <= width:
            return _table(cs, heads, rs), sum(nat) + gaps, [cols[i].header for i in range(len(cols)) if i not in keep]
        heads = [h if c.label else split_header(c.short or h) for c, h in zip(cs, heads)]
        nat = _widths(heads, rs)
        labels = [i for i, c in enumerate(cs) if c.label]
        room = width - gaps - sum(w for i, w in enumerate(nat) if i not in labels)
        share = room // len(labels) if labels else room
        optional = [i for i in keep if cols[i].optional]
        if labels and share < min(MIN_LABEL, min(nat[i] for i in labels)) and optional:
            keep.remove(optional[-1])
            continue
        if labels:
            # narrow labels keep their width; the others share what is left
            given = {}
            left, todo = room, sorted(labels, key=lambda i: nat[i])
            while todo:
                fair = max(1, left // len(todo))
                i = todo.pop(0)
                given[i] = max(min(nat[i], fair), min(LEAST_LABEL, nat[i]))
                left -= given[i]
            rs = [[wrap_label(v, given[i]) if i in given else v for i, v in enumerate(r)] for r in rs]
        used = sum(_widths(heads, rs)) + gaps
        return _table(cs, heads, rs), used, [cols[i].header for i in range(len(cols)) if i not in keep]


def _table(cols: list[Col], heads: list[str], rows: list[list[str]]) -> Table:
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), collapse_padding=True)
    for c, h in zip(cols, heads):
        t.add_column(h, justify=c.justify or ("left" if c.label else "right"), no_wrap=True)
    for r in rows:
        t.add_row(*(Text(v) for v in r))          # cells are text, never markup
    return t
