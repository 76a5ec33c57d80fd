"""Text read from a file, made safe to print or to write into a report.

An output file's metadata (strategy labels, game and option names, reason names, ...) is
data, not text to pass through: printed raw, a label could move the cursor, set the
terminal title or send OSC 8 links (ANSI escapes), restyle the output (rich markup), or
inject HTML and Markdown into a report. Everything read from a file goes through one of
these before it is shown:

* ``term(x)``: control characters (C0, DEL, C1 such as ESC and the 8-bit CSI) and the
  invisible format characters that reorder or hide text (bidi overrides, zero-width
  marks) become visible escapes ``\\x1b``, ``\\u202e``; everything else is kept.
* ``plain(x)``: ``term`` for a rich table cell, as a ``rich.text.Text`` (never parsed as
  markup: ``[red]`` stays ``[red]``).
* ``md(x)``: ``term``, then every character Markdown or HTML would interpret is escaped
  with a backslash (``*``, ``_``, ``<``, ``[``, ...), so the text shows literally (``|``
  is escaped by the report's table writer, which knows where a cell is).
* ``md_code(x)``: ``term`` inside a code span whose backtick fence is longer than any run
  of backticks in the text (CommonMark), so nothing inside is interpreted.
* ``mpl(x)``: ``term`` with ``$`` escaped, so matplotlib does not read mathtext.
"""
from __future__ import annotations

import re
import unicodedata

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#!~&$^])")     # | is the table writer's (report._cell)


def _escape_char(c: str) -> str:
    o = ord(c)
    return f"\\x{o:02x}" if o < 0x100 else (f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}")


def _unsafe(c: str) -> bool:
    cat = unicodedata.category(c)
    return cat == "Cc" or cat == "Cf" or cat in ("Zl", "Zp")


def term(x) -> str:
    """``str(x)`` with every control and invisible format character as a visible escape."""
    s = str(x)
    if s.isprintable():
        return s
    return "".join(_escape_char(c) if _unsafe(c) else c for c in s)


def plain(x):
    """A rich Text of ``term(x)``: printed as is, never read as markup."""
    from rich.text import Text
    return Text(term(x))


def md(x) -> str:
    """``term(x)`` with Markdown and HTML punctuation backslash-escaped."""
    return _MD_SPECIAL.sub(r"\\\1", term(x))


def md_code(x) -> str:
    """``term(x)`` as a Markdown code span (fence longer than any backtick run inside)."""
    s = term(x)
    runs = [len(r) for r in re.findall(r"`+", s)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip() else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def mpl(x) -> str:
    """``term(x)`` for a matplotlib label: ``$`` escaped (no mathtext)."""
    return term(x).replace("$", r"\$")
