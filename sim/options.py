"""Generic machinery for per-game rule options: one frozen dataclass per game.

Each field carries ``metadata={"help": ..., "choices": (...), "range": (lo, hi)}``. Values
given as text on the command line (``--option name=value``) are parsed according to the
field's type; whole numbers are written with ASCII digits only. ``range`` is the allowed
span of a whole-number option (of each number of a list option); ``check_ranges`` enforces
it (each game's ``__post_init__`` calls it first), so no value outside it reaches a kernel
or a record column (the record dtypes are chosen for these spans: see the game modules).
"""
from __future__ import annotations

import dataclasses
import re
import typing

from cardsim.sim.errors import UsageError

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


def opt(default, help: str, choices=None, lo: int | None = None, hi: int | None = None):
    """A dataclass field with help text (and allowed values for strings; ``lo``..``hi``, both
    inclusive, for whole numbers)."""
    meta = {"help": help, "choices": choices}
    if lo is not None or hi is not None:
        if lo is None or hi is None:
            raise ValueError("opt: give both lo and hi")
        meta["range"] = (lo, hi)
    return dataclasses.field(default=default, metadata=meta)


def option_range(f: dataclasses.Field) -> tuple[int, int] | None:
    """(lo, hi) of a whole-number option (None if it has no range)."""
    return f.metadata.get("range")


def check_ranges(options) -> None:
    """Every whole number of an options object (a list option: each of its numbers) within
    its field's range; UsageError naming the option and the range otherwise."""
    for f in dataclasses.fields(options):
        span = option_range(f)
        if span is None:
            continue
        v = getattr(options, f.name)
        values = v if isinstance(v, (tuple, list)) else (v,)
        for x in values:
            if isinstance(x, bool) or not isinstance(x, int):
                continue                     # None, "random", ...: the game's own checks
            if not span[0] <= x <= span[1]:
                raise UsageError(f"option {f.name}: must be a whole number >= {span[0]} and <= {span[1]} (got {x})")


_INT = re.compile(r"[+-]?[0-9]+")


def ascii_only(what: str, text: str) -> None:
    """Refuse digits other than ASCII 0-9 (full-width ``１２``, Arabic-Indic, ...), which
    Python's int() and float() would silently read as numbers."""
    bad = [c for c in text if c.isdigit() and not "0" <= c <= "9"]
    if bad:
        raise UsageError(f"{what}: {text!r} has a digit that is not ASCII ({bad[0]!r}); write numbers with 0-9")


def option_fields(cls) -> list[dataclasses.Field]:
    return list(dataclasses.fields(cls))


def _parse_value(f: dataclasses.Field, hint, text: str):
    t = text.strip()
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)) and type(None) in args:
        if t.lower() in ("none", "null", ""):
            return None
        inner = next(a for a in args if a is not type(None))
        return _parse_value(f, inner, t)
    if hint is bool:
        if t.lower() in _TRUE:
            return True
        if t.lower() in _FALSE:
            return False
        raise UsageError(f"option {f.name}: {text!r} is not a boolean (use true/false)")
    if hint is int:
        if not _INT.fullmatch(t):
            raise UsageError(f"option {f.name}: {text!r} is not an integer (a whole number)")
        return int(t)
    if origin is tuple:
        items = [x.strip() for x in t.replace("{", "").replace("}", "").split(",") if x.strip()]
        if not all(_INT.fullmatch(x) for x in items):
            raise UsageError(f"option {f.name}: {text!r} is not a comma-separated list of integers")
        return tuple(int(x) for x in items)
    if hint is str:
        return t
    # str | int (e.g. first_dealer: "random" or a seat)
    return int(t) if _INT.fullmatch(t) else t


def parse_overrides(cls, pairs: list[str]) -> dict:
    """``["a=1", "b=none"]`` -> typed dict, validating the names against ``cls``."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in option_fields(cls)}
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"option {pair!r} must be NAME=VALUE; options: {', '.join(fields)}")
        name, value = pair.split("=", 1)
        name = name.strip().replace("-", "_")
        if name not in fields:
            raise UsageError(f"unknown option {name!r}; options: {', '.join(fields)}")
        if name in out:
            raise UsageError(f"option {name} is given twice; give it once")
        ascii_only(f"option {name}", value)
        out[name] = _parse_value(fields[name], hints[name], value)
    return out


def build_options(cls, presets: dict[str, dict], preset: str | None, pairs: list[str]):
    """Options = defaults, then the preset, then the explicit overrides; validated."""
    base: dict = {}
    if preset is not None:
        if preset not in presets:
            raise UsageError(f"unknown preset {preset!r}; presets: {', '.join(presets)}")
        base.update(presets[preset])
    base.update(parse_overrides(cls, pairs))
    try:
        return cls(**base)
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def check_choice(name: str, value, choices):
    if value not in choices:
        raise UsageError(f"option {name}: {value!r} is not one of {', '.join(map(str, choices))}")


def options_dict(options) -> dict:
    """JSON-friendly dict of an options dataclass."""
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(options).items()}


def option_text(value) -> str:
    """An option's value as ``-o NAME=VALUE`` writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)
