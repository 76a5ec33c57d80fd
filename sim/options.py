"""Generic machinery for per-game rule options: one frozen dataclass per game.

Each field carries ``metadata={"help": ..., "choices": (...)}``. Values given as text on
the command line (``--option name=value``) are parsed according to the field's type.
"""
from __future__ import annotations

import dataclasses
import typing

from sim.errors import UsageError

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


def opt(default, help: str, choices=None):
    """A dataclass field with help text (and allowed values for strings)."""
    return dataclasses.field(default=default, metadata={"help": help, "choices": choices})


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
        try:
            return int(t)
        except ValueError:
            raise UsageError(f"option {f.name}: {text!r} is not an integer") from None
    if origin is tuple:
        try:
            return tuple(int(x) for x in t.replace("{", "").replace("}", "").split(",") if x.strip())
        except ValueError:
            raise UsageError(f"option {f.name}: {text!r} is not a comma-separated list of integers") from None
    if hint is str:
        return t
    # str | int (e.g. first_dealer: "random" or a seat)
    try:
        return int(t)
    except ValueError:
        return t


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
