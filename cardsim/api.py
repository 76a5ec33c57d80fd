"""cardsim's Python API: the functions the ``cardsim`` command line runs, for notebooks.

Each function validates its arguments as the command line does (a bad one raises
``cardsim.UsageError`` with the accepted values), plays through the same code
(``sim.runner``, ``sim.experiment``, ``sim.tune``) and returns a result object:

* ``.summary``: a pandas DataFrame with 95 % intervals (``.tables`` holds every table);
* ``.records``: the records as a DataFrame (end reasons and the other code columns, such as
  Marafon's ``h{h}_end`` or Tripoli's ``pay_suit``, as categoricals with their names; the
  unplayed hand slots as missing values: ``columns(game)`` describes every column);
* ``.meta``: the metadata the output files carry;
* ``.report(dir)``: the Markdown report with its plots (the ``report`` extra).

Without ``out=`` the records go to a temporary directory that lives as long as the result
(``keep_records=False``: none are kept). The ``cardsim`` command line is a thin layer over these
functions: it parses its options, calls them, and prints their results.
Rule options are a dict (``{"caught_lowest_bonus": "none", "stock_exhaustion": "reshuffle"}``),
strategies the command line's labels (``"knocker:threshold=8"``).

Every argument of every public function (and of ``Result.report``) is checked before a game is
loaded, a kernel compiled, a deal played or a file written, and refused with one message naming
the argument, the value given (its repr, shortened, and its type) and what is accepted::

    deals must be a whole number (int), got 'x' (str)

* ``UsageTypeError`` (``cardsim.sim.errors``; a ``UsageError`` that is also a ``TypeError``)
  where the type is wrong, a call with an unknown or missing argument included:

  - counts and ids (``deals``, ``seed``, ``players``, ``hand``, ``deal``, ``workers``, ...): an
    ``int`` or a numpy integer, never a ``bool`` nor a float (``100.5``, ``2.0``); None only
    where the default is None;
  - numbers (``until_ci``, ``step``): an int or a float (numpy ones too), not a bool;
  - flags (``overwrite``, ``resume``, ``keep_records``, ``check``, ``force``, ...): ``True`` or
    ``False`` only (``overwrite="no"`` is refused, not taken as true);
  - names (``game``, ``strategy``, ``field``, ``preset``, ``sampler``, ...): a ``str``; paths
    (``out``, ``out_dir``, ``replay``'s file): a ``str`` or an ``os.PathLike``;
  - lists of labels (``strategies``, ``plugins``, option or grid texts): a ``list`` or
    ``tuple`` of ``str``; a single ``str`` is refused (it is never read letter by letter:
    write ``["knocker"]``);
  - ``options``: a dict with ``str`` keys whose values are a str, a number, a bool, None, a
    list or tuple of those (``deal_tonk_totals``) or a dict of numbers (``exchange_rounds``);
    or a list of ``"NAME=VALUE"`` texts;
  - grids (``sweep``'s ``params`` and ``option_grid``): a dict with ``str`` keys whose values
    are the values to sweep (a list, tuple, range or numpy array; one number is one value) or
    a ``"LO:HI:STEP"`` / ``"A,B,C"`` text; ``tune``'s ``params``: a ``(lo, hi)`` or
    ``(lo, hi, step)`` box of numbers (a tuple or list) or a ``"LO:HI"`` text;
  - callbacks (``progress``, ``notice``, ``say``, ``warn``): a callable or None; ``progress``
    also ``True`` (a progress bar: tqdm's, a notebook widget where ipywidgets is installed, or
    rich's without tqdm) or ``False`` (none). Every ``progress`` callable is called as
    ``progress(done, total, note)``: two ints and a str (``""`` when there is nothing to add).

* ``UsageError`` (a ``ValueError``) where the type is right but the value is not: a NaN or
  infinite number, then everything the command line checks (ranges, names, paths, outputs)
  with the command line's own one-line message.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import math
import os
import re
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from cardsim.sim.errors import CLI_CALL, UsageError, UsageTypeError
from cardsim.sim.spec import StrategySpec

__all__ = ["Result", "run", "compare", "sweep", "tune", "critique", "odds", "replay", "load",
           "summarize", "games", "strategies", "options", "presets", "rules", "columns"]

DEALS = 100_000   # run, compare and sweep's default deals: the command line's --deals default too

# ---- argument types ---------------------------------------------------------------------------

Whole = int | np.integer[Any]                             # a count or an id (a bool is refused)
Real = float | int | np.floating[Any] | np.integer[Any]   # a finite number (a bool is refused)
PathArg = str | os.PathLike[str]                          # an output or input path
Labels = list[str] | tuple[str, ...]                      # strategy labels, option texts (not one str)
Scalar = str | float | int | np.floating[Any] | np.integer[Any]   # bool is an int here
OptionValue = Scalar | None | list[Scalar] | tuple[Scalar, ...] | Mapping[int, int]
Options = Mapping[str, OptionValue] | Labels | None      # {"stake": 2} or ["stake=2"]
GridValues = Scalar | Sequence[Scalar] | np.ndarray[Any, Any]   # the values a sweep axis takes
Grid = Mapping[str, GridValues] | Labels                  # {"threshold": range(0, 21, 2)} or ["threshold=0:20:2"]
Box = str | tuple[Real, Real] | tuple[Real, Real, Real] | list[Real]   # a tuning box (lo, hi[, step])
Boxes = Mapping[str, Box] | Labels                        # {"threshold": (0, 20)} or ["threshold=0:20"]
Progress = Callable[[int, int, str], None]   # progress(done, total, note) while deals are played
Notice = Callable[[str], None]     # notice(line): the one line said before kernels compile the first time
Validator = Callable[[str, Any, bool], Any]   # (argument name, value, None allowed) -> the value normalised
F = TypeVar("F", bound=Callable[..., Any])


# ---- validators: each checks one argument and gives it back normalised ------------------------

def _shown(value: object) -> str:
    """``'x' (str)``: a value for a message, its repr shortened (never a huge number's digits)."""
    if isinstance(value, int) and value.bit_length() > 128:
        text = f"<a {value.bit_length()}-bit integer>"
    else:
        try:
            text = repr(value)
        except Exception:  # noqa: BLE001 - a hostile __repr__ still gets a message
            text = f"<a {type(value).__name__}>"
    return f"{text if len(text) <= 60 else text[:57] + '...'} ({type(value).__name__})"


def _wrong(name: str, accepted: str, value: object, nullable: bool = False) -> UsageTypeError:
    return UsageTypeError(f"{name} must be {accepted}{' or None' if nullable else ''}, got {_shown(value)}")


def _is_whole(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _is_real(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _whole(name: str, value: Any, nullable: bool) -> int | None:
    if value is None and nullable:
        return None
    if not _is_whole(value):
        raise _wrong(name, "a whole number (int)", value, nullable)
    if abs(int(value)).bit_length() > 1024:    # no count or id nears 2**63: refused before a message prints its digits
        raise UsageError(f"{name} is out of range (every count and id is below 2**63), got {_shown(value)}")
    return int(value)


def _any_real(name: str, value: Any, nullable: bool) -> float | None:
    """A number of any value (NaN too: the caller checks it with the command line's words)."""
    if value is None and nullable:
        return None
    if not _is_real(value):
        raise _wrong(name, "a number (int or float)", value, nullable)
    return float(value)


def _real(name: str, value: Any, nullable: bool) -> float | None:
    number = _any_real(name, value, nullable)
    if number is not None and not math.isfinite(number):
        raise UsageError(f"{name} must be a finite number, got {_shown(value)}")
    return number


def _flag(name: str, value: Any, nullable: bool) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise _wrong(name, "True or False (bool)", value)
    return bool(value)


def _text(what: str) -> Validator:
    """A validator of a name: a str (``what`` says which)."""
    def check(name: str, value: Any, nullable: bool) -> str | None:
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            raise _wrong(name, f"{what} (str)", value, nullable)
        return str(value)
    return check


def _path(name: str, value: Any, nullable: bool) -> str | None:
    if value is None and nullable:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise _wrong(name, "a path (str or os.PathLike)", value, nullable)
    return str(value)


def _source(name: str, value: Any, nullable: bool) -> str:
    """``replay``'s first argument: a game name or the path of an output."""
    if not isinstance(value, (str, os.PathLike)) or not isinstance(os.fspath(value), str):
        raise _wrong(name, "a game name or an output's path (str or os.PathLike)", value)
    return str(os.fspath(value))


def _callable(name: str, value: Any, nullable: bool) -> Callable[..., Any] | None:
    if value is None or callable(value):
        return value
    raise _wrong(name, "a callable", value, True)


def _progress_arg(name: str, value: Any, nullable: bool) -> Callable[..., Any] | bool | None:
    """``progress``: a callable, True (a progress bar), False or None (none)."""
    if value is None or value is False:
        return None
    if value is True or callable(value):
        return value
    if isinstance(value, np.bool_):
        return bool(value) or None
    raise _wrong(name, "a callable, True (a progress bar) or False", value, True)


def _labels(name: str, value: Any, nullable: bool, what: str = "labels") -> list[str] | None:
    """A list or tuple of str; a single str is refused (never read letter by letter)."""
    if value is None and nullable:
        return None
    if isinstance(value, str):
        raise UsageTypeError(f"{name} must be a list of {what} (a list or tuple of str), got {_shown(value)}: "
                             f"write [{value[:40]!r}] for one")
    if not isinstance(value, (list, tuple)):
        raise _wrong(name, f"a list of {what} (a list or tuple of str)", value, nullable)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise _wrong(f"{name}[{i}]", f"one of the {what} (str)", item)
    return [str(x) for x in value]


def _plain(name: str, value: Any, what: str = "a str, a number or a bool") -> str | int | float | bool:
    """One value of an option or of a grid as a Python str, int, float or bool (numpy ones
    converted; NaN and infinities refused)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        raise UsageError(f"{name} must be a finite number, got {_shown(value)}")
    if not isinstance(value, (str, int, float)):       # bool is an int
        raise _wrong(name, what, value)
    return value


def _word(value: str | float) -> str:
    """A value as the command line writes it (booleans as true/false)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _keys(name: str, value: Any, nullable: bool, what: str) -> list[str] | None | Mapping[str, Any]:
    """None, a mapping with str keys (returned as it is), or a list of texts."""
    if value is None and nullable:
        return None
    if isinstance(value, Mapping):
        for k in value:
            if not isinstance(k, str):
                raise _wrong(f"{name} keys", "names (str)", k)
        return value
    if isinstance(value, (list, tuple, str)):
        return _labels(name, value, False, f"'{what}' texts")
    raise _wrong(name, f"a dict {{name: value}} or a list of '{what}' texts", value, nullable)


def _option_texts(options: Any, name: str = "options", nullable: bool = True) -> list[str]:
    """``{"name": value}`` -> ``["name=value"]`` as ``--option`` takes them (booleans as
    true/false, None as none, sequences comma-joined, a dict of numbers as ``{6: 1}``); a
    list of texts passes unchanged. UsageError naming a bad key or value."""
    given = _keys(name, options, nullable, "NAME=VALUE")
    if not isinstance(given, Mapping):
        return list(given or [])
    return [f"{k}={_option_value(f'{name}[{k!r}]', v)}" for k, v in given.items()]


def _option_value(name: str, v: Any) -> str:
    accepted = "a str, a number, a bool, None, a list of those or a dict of numbers"
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return ",".join(_word(_plain(f"{name}[{i}]", x)) for i, x in enumerate(v)) if v else "{}"
    if isinstance(v, Mapping):
        pairs = [(_plain(f"{name} keys", k, "a number"), _plain(f"{name}[{k!r}]", x, "a number")) for k, x in v.items()]
        return "{" + ", ".join(f"{_word(k)}: {_word(x)}" for k, x in pairs) + "}"
    return _word(_plain(name, v, accepted))


def _grid_texts(grid: Any, name: str = "params", nullable: bool = True) -> list[str]:
    """``{"threshold": range(0, 21, 2)}`` (the values: any list, tuple, range or array; one
    number is one value) or ``{"threshold": "0:20:2"}`` -> ``["threshold=..."]``."""
    given = _keys(name, grid, nullable, "NAME=VALUES")
    if not isinstance(given, Mapping):
        return list(given or [])
    return [f"{k}={_grid_value(f'{name}[{k!r}]', v)}" for k, v in given.items()]


def _grid_value(name: str, v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple, range, np.ndarray)):
        return ",".join(_word(_plain(f"{name}[{i}]", x)) for i, x in enumerate(np.asarray(v).tolist()
                                                                               if isinstance(v, np.ndarray) else v))
    return _word(_plain(name, v, "a list, tuple or range of values, one value or a 'LO:HI:STEP' text"))


def _box_texts(boxes: Any, name: str = "params", nullable: bool = False) -> list[str]:
    """``{"threshold": (0, 20)}`` (or ``(lo, hi, step)``) or ``{"threshold": "0:20"}`` ->
    ``["threshold=0:20"]`` as ``tune --param`` takes them."""
    given = _keys(name, boxes, nullable, "NAME=LO:HI")
    if not isinstance(given, Mapping):
        return list(given or [])
    return [f"{k}={_box_value(f'{name}[{k!r}]', v)}" for k, v in given.items()]


def _box_value(name: str, v: Any) -> str:
    if isinstance(v, str):
        return v
    if not (isinstance(v, (list, tuple)) and len(v) in (2, 3) and all(_is_real(x) for x in v)):
        raise _wrong(name, "a (lo, hi) or (lo, hi, step) tuple of numbers or a 'LO:HI' text", v)
    return ":".join(_word(_plain(f"{name}[{i}]", x)) for i, x in enumerate(v))


def _checked_texts(convert: Callable[[Any, str, bool], list[str]]) -> Validator:
    """A validator that checks (and converts) an options dict or a grid by ``convert``."""
    def check(name: str, value: Any, nullable: bool) -> Any:
        convert(value, name, nullable)
        return value
    return check


# Every public argument, by name, with its validator (a name means the same in every function).
_ARGS: dict[str, Validator] = {
    **dict.fromkeys(("players", "deals", "seed", "workers", "first_deal", "max_deals", "shard_size", "budget",
                     "rounds", "rung", "eta", "rungs", "top", "remeasure", "max_trials", "hand", "cards", "samples",
                     "decisions", "worlds", "until_decision", "infer",
                     "deal", "point", "lineup"), _whole),
    **dict.fromkeys(("until_ci", "step", "rate", "threshold"), _real),
    **dict.fromkeys(("check", "overwrite", "keep_records", "resume", "self_play", "verbose", "force", "dataset"),
                    _flag),
    **dict.fromkeys(("out", "out_dir", "path"), _path),
    **dict.fromkeys(("notice", "say", "warn"), _callable), "progress": _progress_arg,
    "game": _text("a game name"), "strategy": _text("a strategy label"), "field": _text("a strategy label"),
    "preset": _text("a preset name"), "sampler": _text("a sampler name"), "policy": _text("a policy name"),
    "scheduler": _text("a scheduler address"), "cluster": _text("'local' or 'local:N'"),
    "strategies": _labels, "plugins": _labels,
    "options": _checked_texts(_option_texts), "option_grid": _checked_texts(_grid_texts),
}


_FLAG = re.compile(r"--([a-z][a-z0-9-]*)")
_PLURAL = {"strategy": "strategies", "option": "options", "param": "params"}   # a repeated flag's list argument


def api_words(text: str, names) -> str:
    """An error message written with command-line flags (``--max-deals caps --until-ci``) in the
    words of a Python call whose arguments are ``names`` (``max_deals caps until_ci``); a flag
    with no such argument stays as it is."""
    def word(m: re.Match) -> str:
        name = m.group(1).replace("-", "_")
        name = _PLURAL.get(name, name) if _PLURAL.get(name) in names else name
        return name if name in names else m.group(0)
    return _FLAG.sub(word, text)


def _validated(nullable: tuple[str, ...] = (), **special: Validator) -> Callable[[F], F]:
    """Check every argument of the decorated function by its name (``_ARGS``, or ``special``)
    before its body runs; the body gets the values normalised (numpy numbers as Python ones,
    paths as str). None passes where the default is None or the name is in ``nullable``. A
    call Python cannot bind (an unknown or missing argument) is a UsageTypeError too."""
    def decorate(fn: F) -> F:
        sig = inspect.signature(fn)
        checks = {name: (special.get(name) or _ARGS[name], p.default is None or name in nullable)
                  for name, p in sig.parameters.items() if name != "self"}   # KeyError: an argument unchecked

        @functools.wraps(fn)
        def checked(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError as exc:
                raise UsageTypeError(f"{fn.__name__}(): {exc}") from None
            for name, value in bound.arguments.items():
                if name in checks:
                    check, none_ok = checks[name]
                    bound.arguments[name] = check(name, value, none_ok)
            try:
                return fn(*bound.args, **bound.kwargs)
            except UsageError as exc:        # a Python caller reads its own argument names
                if not CLI_CALL.get() and exc.args and isinstance(exc.args[0], str):
                    exc.args = (api_words(exc.args[0], sig.parameters),) + exc.args[1:]
                raise
        return checked  # type: ignore[return-value]
    return decorate


@dataclass
class Result:
    """What a run, comparison, sweep or tuning gives back."""
    kind: str                                   # run, compare, sweep or tune
    summary: pd.DataFrame                       # the main table, with 95 % intervals
    meta: dict[str, Any]
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # every table of the summary, as DataFrames
    raw: dict[str, Any] = field(default_factory=dict)     # the summary as the command line's --json gives it
    path: str | None = None                     # the output written (a file or a dataset directory)
    _keep: Any = field(default=None, repr=False)  # the temporary directory holding ``path``
    timing: dict[str, Any] = field(default_factory=dict)  # wall time, deals/s
    config: Any = field(default=None, repr=False)  # what was played (sim.runner.RunConfig, Experiment, TuneConfig)

    @property
    def records(self) -> pd.DataFrame:
        """The records: one row per record unit (run: a deal, or a game, match or session where
        the game's record is one: ``cardsim.games()``'s ``record_unit``), per unit, point and
        lineup (compare, sweep), or per evaluation (tune)."""
        import pyarrow.dataset as ds
        if self.path is None:
            raise ValueError("this result kept no records")
        p = Path(self.path)
        from cardsim.sim.columns import decode
        if self.kind == "tune":
            return pd.read_parquet(p / "evaluations.parquet")
        if p.is_dir():
            return _labelled(ds.dataset(p, format="parquet", partitioning="hive").to_table().to_pandas(),
                             self.meta)
        from cardsim.sim.registry import get_game
        return decode(pd.read_parquet(p), get_game(self.meta["game"]).columns)

    @property
    def notes(self) -> list[str]:
        """What a comparison's or sweep's figures mean where they could mislead (a variance
        reduction below 1, an axis that changes nothing, a best point on the grid's edge): the
        lines the command line prints under its table. Empty for a run or a tuning."""
        if self.kind not in ("compare", "sweep") or not self.raw.get("points"):
            return []
        from cardsim.sim.notes import point_notes
        return list(point_notes(self.raw, self.meta))

    @_validated()
    def report(self, out_dir: PathArg, overwrite: bool = False) -> Path:
        """Write the Markdown report and its PNG plots into ``out_dir`` (a str or a path);
        returns report.md. ``overwrite`` (a bool) replaces a previous report there."""
        from cardsim.sim.report import write_report
        if self.path is None:
            raise ValueError("this result kept no records to report on")
        return Path(write_report(self.path, str(out_dir), overwrite))

    def __repr__(self) -> str:             # a header line and the main table's key columns
        return f"{_headline(self)}\n{_table_text(self.summary, _SHOWN.get(self.kind, []))}"

    def _repr_html_(self) -> str:          # a notebook shows the header and the summary table
        from html import escape
        return f"<p><b>{escape(_headline(self))}</b></p>{self.summary._repr_html_()}"


_SHOWN = {      # the columns a result's repr shows of its main table (all of them: .summary)
    "run": ["seat", "strategy", "win_rate", "win_lo", "win_hi", "mean_payout", "payout_lo", "payout_hi"],
    "compare": ["label", "win_rate", "mean_payout", "payout_lo", "payout_hi", "diff", "diff_lo", "diff_hi"],
    "sweep": ["label", "win_rate", "mean_payout", "payout_lo", "payout_hi", "diff", "diff_lo", "diff_hi"],
    "tune": ["round", "field", "best", "best_mean", "best_lo", "best_hi", "gain", "gain_lo", "gain_hi"],
    "critique": ["name", "decisions", "evaluated", "not_best", "regret", "regret_ci", "loss_per_deal", "loss_ci"],
}


def _table_text(df: pd.DataFrame, columns: Sequence[str], rows: int = 10) -> str:
    """A few rows and columns of ``df`` as text, numbers to 4 significant digits."""
    shown = df[[c for c in columns if c in df.columns]] if any(c in df.columns for c in columns) else df
    text = shown.head(rows).to_string(index=False, float_format=lambda x: f"{x:.4g}", max_colwidth=32)
    hidden_rows, hidden_cols = len(df) - rows, len(df.columns) - len(shown.columns)
    more = [f"{hidden_rows} more row{'s' * (hidden_rows > 1)}"] * (hidden_rows > 0) + \
           [f"{hidden_cols} more column{'s' * (hidden_cols > 1)}"] * (hidden_cols > 0)
    return text + (f"\n({', '.join(more)}: .summary)" if more else "")


def _headline(res: Any) -> str:
    """One line saying what a result is: kind, game, table, size."""
    meta, raw = res.meta or {}, res.raw if isinstance(getattr(res, "raw", None), dict) else {}
    game, n = meta.get("game", "?"), meta.get("players")
    players = f", {n} players" if n else ""
    deals = raw.get("deals", meta.get("deals"))
    unit = _unit(game, deals) if isinstance(game, str) else "deals"
    size = f", {deals:,} {unit}" if isinstance(deals, int) else ""
    if res.kind == "run":
        return f"cardsim run: {game}{players}{size}, seed {meta.get('seed')}"
    if res.kind in ("compare", "sweep"):
        points = len(meta.get("points") or [])
        field_ = f", field {meta['field']}" if meta.get("field") else ""
        return f"cardsim {res.kind}: {game}{players}, {points} points{size} each{field_}, seed {meta.get('seed')}"
    if res.kind == "tune":
        return f"cardsim tune: {game}{players}, {meta.get('strategy')} against {meta.get('field')}; " \
               f"best {raw.get('best')}"
    return f"cardsim {res.kind}: {game}{players}"


def _labelled(records: pd.DataFrame, meta: dict[str, Any]) -> pd.DataFrame:
    """A compare/sweep dataset's records with the point's label (a categorical) after ``point``."""
    labels = [p.get("label", str(i)) for i, p in enumerate(meta.get("points") or [])]
    if "point" in records.columns and "label" not in records.columns and labels and len(set(labels)) == len(labels):
        codes = records["point"].to_numpy()
        if len(codes) == 0 or (codes.min() >= 0 and codes.max() < len(labels)):
            records.insert(records.columns.get_loc("point") + 1, "label",
                           pd.Categorical.from_codes(codes.astype(np.int64), categories=labels))
    return records


@functools.cache
def _critique_type() -> Any:
    """``Critique``: ``sim.critique.CritiqueResult`` with a compact repr (made on first use, so
    that ``import cardsim`` does not load the critique's engine)."""
    from cardsim.sim.critique import CritiqueResult

    @dataclass(repr=False)
    class Critique(CritiqueResult):
        """What ``critique`` finds (``sim.critique.CritiqueResult``): ``.decisions`` (one row per
        decision), ``.summary`` (per kind), ``.phases``, ``.total``, ``.worst``, ``.text()``."""
        kind = "critique"

        @classmethod
        def of(cls, res: Any) -> Any:
            return cls(**{f.name: getattr(res, f.name) for f in dataclasses.fields(res)})

        @property
        def raw(self) -> dict[str, Any]:
            from cardsim.sim.critique import summary_json
            return summary_json(self)

        def __repr__(self) -> str:
            return f"{self._headline()}\n{_table_text(self.summary, _SHOWN['critique'])}"

        def _repr_html_(self) -> str:
            from html import escape
            return f"<p><b>{escape(self._headline())}</b></p>{self.summary._repr_html_()}"

        def _headline(self) -> str:
            t, meta = self.total, self.meta
            units = int(t.get("units", 0))
            return (f"cardsim critique: {meta.get('game')}, {meta.get('players')} players, {meta.get('strategy')}: "
                    f"{t.get('evaluated', 0):,} decisions evaluated in {units:,} {_unit(str(meta.get('game')), units)}"
                    f"; loss per {_unit(str(meta.get('game')), 1)} {t.get('loss_per_deal', float('nan')):+.3g} "
                    f"± {t.get('loss_ci', float('nan')):.2g}")

    Critique.__module__, Critique.__qualname__ = __name__, "Critique"
    return Critique


def __getattr__(name: str) -> Any:
    if name == "Critique":
        return _critique_type()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _where(out: PathArg | None, kind: str) -> tuple[str, tempfile.TemporaryDirectory[str] | None]:
    """(path to write, temporary directory to keep alive or None)."""
    if out is not None:
        return str(out), None
    tmp = tempfile.TemporaryDirectory(prefix="cardsim-")
    return str(Path(tmp.name) / ("run.parquet" if kind == "run" else kind)), tmp


@_validated(nullable=("until_ci", "max_deals"), until_ci=_any_real)
def precision_cap(until_ci: Real | None, max_deals: Whole | None, deals: Whole) -> int | None:
    """The most deals an ``until_ci`` run may play (None without ``until_ci``), checked (the
    command line's ``--until-ci`` message for a NaN or a number <= 0)."""
    if until_ci is None:
        if max_deals is not None:
            raise UsageError("--max-deals caps --until-ci; without --until-ci, --deals gives the number of deals")
        return None
    if not math.isfinite(until_ci) or until_ci <= 0:
        raise UsageError(f"--until-ci must be a number > 0 (got {until_ci})")
    cap = int(max_deals if max_deals is not None else 100 * deals)
    if cap < 1:
        raise UsageError(f"--max-deals must be >= 1 (got {cap})")
    return cap


def _check_cluster(cluster: str | None) -> None:
    """``cluster="local:N"`` starts N worker processes here: at most one per core."""
    from cardsim.sim.executor import host_cores
    kind, _, n = (cluster or "").partition(":")
    if kind == "local" and n.isascii() and n.isdigit() and int(n) > host_cores():
        raise UsageError(f"--cluster local:{n} asks for {n} worker processes but this machine has "
                         f"{host_cores()} cores; give local:1..{host_cores()} (or local)")


def _told(notice: Notice | None, progress: Any) -> Notice | None:
    """``notice``; with ``progress=True`` and no ``notice``, the first-compile line goes to stderr
    above the bar (a notebook's first run otherwise waits without a word)."""
    if notice is None and progress is True:
        import sys
        return lambda line: print(line, file=sys.stderr, flush=True)
    return notice


def _compile_notice(game: str, entry: str, notice: Notice | None, search: bool = False) -> None:
    from cardsim.sim.warm import notice as line_of
    line = line_of(game, entry, search) if notice is not None else None
    if line and notice is not None:
        notice(line)


def _compile_first(game: str, search: bool) -> float | None:
    """Compile the game's kernels (and the search's, for a search seat) before the run's clock
    starts, where they are not in the cache yet, so that a run's speed is its play's: the seconds
    it took, or None when everything was cached."""
    import time

    from cardsim.sim.warm import is_compiled, warm
    todo = [e for e in ["play"] + ["search"] * search if not is_compiled(game, e)]
    if not todo:
        return None
    t0 = time.perf_counter()
    for entry in todo:
        warm(game, entry)
    return time.perf_counter() - t0


def _in_notebook() -> bool:
    """True in a Jupyter kernel (IPython's kernel app), where a widget can show a bar."""
    import sys
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None   # type: ignore[attr-defined]
        return shell is not None and "IPKernelApp" in shell.config
    except Exception:  # noqa: BLE001 - an odd shell is no notebook
        return False


class _Bar:
    """``progress=True``: a bar on stderr that a notebook and a terminal both show. tqdm's where
    tqdm is installed (in a notebook with ipywidgets its widget, else its text bar, which a
    notebook's output updates in place), else rich's. Called as ``progress(done, total, note)``;
    ``close()`` ends it (the finished bar stays)."""

    within_shards = True          # the runner reports inside long shards too

    def __init__(self, total: int, unit: str, what: str) -> None:
        self.total, self.done = int(total), 0
        self._tqdm: Any = None
        self._rich: Any = None
        try:
            from tqdm.std import tqdm as bar
            if _in_notebook():
                try:
                    import ipywidgets  # noqa: F401
                    from tqdm.notebook import tqdm as bar
                except ImportError:
                    pass
        except ImportError:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
            self._rich = Progress(TextColumn(f"[bold]{what}"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn(unit), TimeRemainingColumn(), TextColumn("{task.fields[note]}"),
                                  console=Console(stderr=True))
            self._task = self._rich.add_task(what, total=self.total, note="")
            self._rich.start()
        else:
            self._tqdm = bar(total=self.total, desc=what, unit=f" {unit}", unit_scale=self.total >= 100_000,
                             dynamic_ncols=True, leave=True, mininterval=0.2)

    def __call__(self, done: int, total: int, note: str = "") -> None:
        done, total = int(done), int(total)
        if self._tqdm is not None:
            if total != self._tqdm.total:
                self._tqdm.total = total
            if note:
                self._tqdm.set_postfix_str(note, refresh=False)
            self._tqdm.update(done - self._tqdm.n)
        elif self._rich is not None:
            self._rich.update(self._task, completed=done, total=total, note=note)
        self.done, self.total = done, total

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self._rich is not None:
            self._rich.stop()


class _Called:
    """A caller's ``progress`` callable, always called as documented: ``progress(done, total,
    note)`` with two ints and a str (the engine's calls that give no note pass ``""``)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.within_shards = bool(getattr(fn, "within_shards", False))

    def __call__(self, done: int, total: int, note: str = "") -> None:
        self.fn(int(done), int(total), str(note or ""))

    def close(self) -> None:
        pass


@contextlib.contextmanager
def _reporting(progress: Progress | bool | None, total: int, unit: str = "deals",
               what: str = "playing") -> Iterator[Callable[..., None] | None]:
    """The callback the engine gets for ``progress`` (None, True or a callable): None, a bar
    (closed when the block ends) or the caller's callable called as documented."""
    if progress is None or progress is False:
        yield None
        return
    bar = _Bar(total, unit, what) if progress is True else _Called(progress)
    try:
        yield bar
    finally:
        bar.close()


def _unit(game: str, count: int | None = None) -> str:
    """What a record of ``game`` is: deals, games, matches or sessions (singular for 1)."""
    from cardsim.sim.registry import get_game
    try:
        one, many = get_game(game).record_unit
    except Exception:  # noqa: BLE001 - the engine refuses a bad game name itself, later
        one, many = "deal", "deals"
    return str(one if count == 1 else many)


def _play(play: Callable[..., Any], kind: str, game: str, deals: Whole, out: PathArg | None, keep_records: bool,
          until_ci: Real | None, max_deals: Whole | None, resume: bool, overwrite: bool, scheduler: str | None,
          cluster: str | None, progress: Progress | bool | None, notice: Notice | None,
          seats: Sequence[Any] = ()) -> Any:
    """The common part of run / compare / sweep: checks, output place, executor, the
    first-compile notices (``seats``: every seat played, for the search's); ``play(path,
    update, until_ci, cap, resume, executor)`` plays."""
    from cardsim.sim.executor import make_executor
    from cardsim.sim.store import check_output
    from cardsim.sim.warm import mark_compiled, seats_search
    cap = precision_cap(until_ci, max_deals, deals)
    notice = _told(notice, progress)
    if out is not None and not str(out).strip():
        raise UsageError("--out is empty; give a file or directory name")
    if resume and not out:
        raise UsageError("--resume needs --out (the run to continue)")
    if overwrite and not out:
        raise UsageError("--overwrite needs --out (the output to replace)")
    if out:
        if kind == "run":
            from cardsim.sim.io import check_output_path
            check_output_path(out)
        check_output(out, kind, overwrite)              # refused before anything is played
    _check_cluster(cluster)
    local = scheduler is None and cluster is None
    searching = seats_search(seats)
    compile_s = None
    if local:
        _compile_notice(game, "play", notice, searching)
        compile_s = _compile_first(game, searching)
    path, keep = _where(out, kind) if (out or keep_records) else (None, None)
    ex = make_executor(scheduler, cluster)
    try:
        with _reporting(progress, cap or deals, _unit(game)) as update:
            res = play(path, update, until_ci, cap, resume, ex)
    finally:
        ex.close()
    if compile_s is not None and isinstance(res.timing, dict):
        res.timing["compile_s"] = round(compile_s, 3)     # before the clock: wall time and speed are play only
    if local:
        mark_compiled(game, "play")
        if searching:
            mark_compiled(game, "search")
    return res, keep


@_validated()
def run(game: str, *, players: Whole | None = None, deals: Whole = DEALS, strategies: Labels | None = None,
        options: Options = None, preset: str | None = None, seed: Whole = 0, workers: Whole | None = None,
        check: bool = False, first_deal: Whole = 0, until_ci: Real | None = None, max_deals: Whole | None = None,
        out: PathArg | None = None, overwrite: bool = False, keep_records: bool = True, resume: bool = False,
        shard_size: Whole | None = None, scheduler: str | None = None, cluster: str | None = None,
        progress: Progress | bool | None = None, notice: Notice | None = None) -> Result:
    """Play ``deals`` deals (default ``DEALS``, 100,000, as ``cardsim run``): per-seat and
    per-strategy win rates and payouts with 95 % intervals. ``strategies``: a list of labels, one
    for all seats (``["knocker"]``) or one per seat. ``scheduler`` (``tcp://HOST:PORT``) or
    ``cluster`` (``local:N``) play on Dask; ``resume`` continues an interrupted ``out``;
    ``progress(done, total, note)`` is called as deals finish (``progress=True``: a progress bar).
    Arguments are checked as the module's docstring says."""
    from cardsim.sim.runner import DEFAULT_SHARD, make_config, run as run_batch
    cfg = make_config(game, players, deals, seed, list(strategies or []), _option_texts(options), preset, workers,
                      check, first_deal, DEFAULT_SHARD if shard_size is None else shard_size)
    res, keep = _play(lambda *args: run_batch(cfg, *args, overwrite=overwrite), "run", cfg.game.name, deals, out,
                      keep_records, until_ci, max_deals, resume, overwrite, scheduler, cluster, progress, notice,
                      cfg.seats)
    tables = {k: pd.DataFrame(res.summary[k]) for k in ("seats", "strategies", "outcomes")}
    return Result("run", tables["seats"], res.meta, tables, res.summary, res.path, keep, res.timing, cfg)


def _experiment(exp: Any, deals: Whole, out: PathArg | None, overwrite: bool, until_ci: Real | None,
                max_deals: Whole | None, keep_records: bool, resume: bool, scheduler: str | None,
                cluster: str | None, progress: Progress | bool | None, notice: Notice | None) -> Result:
    from cardsim.sim.experiment import run_experiment
    res, keep = _play(lambda *args: run_experiment(exp, deals, *args, overwrite=overwrite), exp.kind, exp.game_name,
                      deals, out, keep_records, until_ci, max_deals, resume, overwrite, scheduler, cluster, progress,
                      notice, [s for p in exp.points for seats, _ in p.lineups for s in seats])
    points = pd.DataFrame(res.summary["points"])
    return Result(exp.kind, points, res.meta, {"points": points}, res.summary, res.path, keep, res.timing, exp)


@_validated()
def compare(game: str, strategies: Labels, *, field: str | None = None, players: Whole | None = None,
            deals: Whole = DEALS, options: Options = None, preset: str | None = None, seed: Whole = 0,
            workers: Whole | None = None, check: bool = False, until_ci: Real | None = None,
            max_deals: Whole | None = None, out: PathArg | None = None, overwrite: bool = False,
            keep_records: bool = True, first_deal: Whole = 0, resume: bool = False, shard_size: Whole | None = None,
            scheduler: str | None = None, cluster: str | None = None, progress: Progress | bool | None = None,
            notice: Notice | None = None) -> Result:
    """Strategies (a list of at least two labels) on duplicate deals, each at every seat against
    ``field`` (default greedy), or rotating round the table with one strategy per seat and no
    field (``cardsim compare``; ``deals`` per point, default ``DEALS`` as there). ``.summary``: one
    row per point, with the paired difference to the first; ``.records`` the rows with each
    point's ``label``."""
    from cardsim.sim.experiment import EXPERIMENT_SHARD, make_compare
    exp = make_compare(game, list(strategies), players, field, seed, deals, _option_texts(options), preset, workers,
                       check, first_deal, EXPERIMENT_SHARD if shard_size is None else shard_size)
    return _experiment(exp, deals, out, overwrite, until_ci, max_deals, keep_records, resume, scheduler, cluster,
                       progress, notice)


@_validated(params=_checked_texts(_grid_texts))
def sweep(game: str, strategy: str, params: Grid | None = None, *, option_grid: Grid | None = None,
          field: str | None = None, players: Whole | None = None, deals: Whole = DEALS, options: Options = None,
          preset: str | None = None, seed: Whole = 0, workers: Whole | None = None, check: bool = False,
          until_ci: Real | None = None, max_deals: Whole | None = None, out: PathArg | None = None,
          overwrite: bool = False, keep_records: bool = True, first_deal: Whole = 0, resume: bool = False,
          shard_size: Whole | None = None, scheduler: str | None = None, cluster: str | None = None,
          progress: Progress | bool | None = None, notice: Notice | None = None) -> Result:
    """A grid of strategy parameters (and rule options) on duplicate deals (``cardsim sweep``;
    ``deals`` per point, default ``DEALS`` as there).
    ``params``: ``{"threshold": range(0, 21, 2)}`` (any list, tuple, range or array of values;
    a tuple is values here, not a box), ``{"threshold": "0:20:2"}`` or a list of texts
    (``["threshold=0:20:2"]``); ``option_grid`` alike (``{"stock_exhaustion": ["reshuffle",
    "end"]}``)."""
    from cardsim.sim.experiment import EXPERIMENT_SHARD, make_sweep
    exp = make_sweep(game, strategy, _grid_texts(params), _grid_texts(option_grid, "option_grid"), players, field,
                     seed, deals, _option_texts(options), preset, workers, check, first_deal,
                     EXPERIMENT_SHARD if shard_size is None else shard_size)
    return _experiment(exp, deals, out, overwrite, until_ci, max_deals, keep_records, resume, scheduler, cluster,
                       progress, notice)


@_validated(params=_checked_texts(_box_texts))
def tune(game: str, strategy: str, params: Boxes, *, field: str | None = None, players: Whole | None = None,
         budget: Whole = 100_000, seed: Whole = 0, self_play: bool = False, rounds: Whole = 6, step: Real = 1.0,
         sampler: str = "tpe", rung: Whole | None = None, eta: Whole = 3, rungs: Whole = 2, top: Whole = 3,
         remeasure: Whole | None = None, max_trials: Whole = 1000, options: Options = None,
         preset: str | None = None, workers: Whole | None = None, check: bool = False, out: PathArg | None = None,
         overwrite: bool = False, keep_records: bool = True, verbose: bool = False,
         say: Callable[[str], None] | None = None, progress: Progress | bool | None = None,
         notice: Notice | None = None) -> Result:
    """The parameters of ``strategy`` that maximise its mean payout against ``field``
    (``cardsim tune``; the ``tune`` extra). ``params``: ``{"threshold": (0, 20)}`` boxes
    (``(lo, hi)`` or ``(lo, hi, step)``, a tuple or list of numbers) or ``["threshold=0:20"]``
    texts. ``.summary``: one row per round; ``.raw["best"]`` is the point to seat
    (``strategies=[...]`` or ``field=...``). ``say(line)`` gets each round's line
    (``verbose``: print them)."""
    from cardsim.sim.store import check_output
    from cardsim.sim.tune import make_tune, run_tune, write_tune
    from cardsim.sim.warm import mark_compiled
    cfg = make_tune(game, strategy, _box_texts(params), field, players, budget, seed, _option_texts(options),
                    preset, sampler, rung, eta, rungs, top, remeasure, self_play, rounds, max_trials, workers, check,
                    step)
    if out is not None and not str(out).strip():
        raise UsageError("--out is empty; give a directory name")
    if out:
        check_output(out, "tune", overwrite)          # refused before anything is played
    _compile_notice(cfg.game_name, "play", _told(notice, progress))
    total = cfg.budget * (cfg.rounds if cfg.self_play else 1)
    with _reporting(progress, total, _unit(cfg.game_name), "tuning") as update:
        result = run_tune(cfg, (lambda done: update(done, total, "")) if update else None,
                          say if say is not None else (print if verbose else None))
    mark_compiled(cfg.game_name, "play")
    path, keep = _where(out, "tune") if (out or keep_records) else (None, None)
    if path:
        result.path = write_tune(result, path, overwrite)
    rounds_df = pd.DataFrame([{k: v for k, v in r.items() if k not in ("remeasured", "best_params", "edges")}
                              for r in result.summary["rounds"]])
    remeasured = pd.DataFrame([dict(p, round=r["round"]) for r in result.summary["rounds"] for p in r["remeasured"]])
    return Result("tune", rounds_df, result.meta, {"rounds": rounds_df, "remeasured": remeasured},
                  result.summary, result.path, keep, {}, cfg)


@_validated(nullable=("hand",))
def odds(game: str, hand: Whole | None, *, cards: Whole | None = None, samples: Whole = 1_000_000, seed: Whole = 0,
         players: Whole | None = None, preset: str | None = None, workers: Whole | None = None,
         progress: Progress | bool | None = None, notice: Notice | None = None) -> dict[str, Any]:
    """P(random cards hold a hand's contract) with a 95 % interval (``cardsim odds``);
    ``progress(done, total, note)`` hears the samples drawn so far (the result is the same;
    ``True``: a progress bar);
    ``notice(line)`` the one line said before its kernels compile the first time."""
    import numba
    from cardsim.sim.odds import contract_odds
    from cardsim.sim.runner import max_workers
    w = max_workers() if workers is None else workers
    if not 1 <= w <= max_workers():
        raise UsageError(f"--workers must be 1..{max_workers()} on this machine (got {w})")
    numba.set_num_threads(w)
    from cardsim.sim.odds import odds_games
    from cardsim.sim.registry import get_game
    from cardsim.sim.warm import mark_compiled
    spec = get_game(game)
    name = spec.name
    if name not in odds_games():                 # the game first: a hand of a game without odds means nothing
        raise UsageError(f"contract odds exist for: {', '.join(odds_games())} (got {game!r})")
    if hand is None:
        raise UsageError("--hand (or --deal) is required")
    notice = _told(notice, progress)
    told: list[bool] = []

    def heard(done: int, total: int) -> None:        # the first call comes once the arguments are checked:
        if not told:                                 # the compile notice then, never before an Error line
            told.append(True)
            _compile_notice(name, "odds", notice)
        if update is not None:
            update(done, total, "")
    with _reporting(progress, samples, "samples", "sampling") as update:
        res = dict(contract_odds(game, hand, cards, samples, seed, players, preset,
                                 heard if notice is not None else update))
    mark_compiled(name, "odds")
    return res


def _replay_output(arg: str) -> str | None:
    """None when ``arg`` names a game; else the path of the output to replay from (UsageError,
    naming the games, when it is neither)."""
    from cardsim.sim.registry import game_names, get_game
    if arg.strip().lower() in game_names():
        return None
    if Path(arg).exists():
        return arg
    if "/" in arg or "\\" in arg or arg.lower().endswith((".parquet", ".pq")):
        raise UsageError(f"no such file: {arg!r} (replay takes a game name or an existing run file)")
    try:
        get_game(arg)
    except UsageError as exc:
        raise UsageError(f"{exc}; or give an existing run file or compare/sweep dataset") from None
    return None


@_validated()
def critique(game: str, strategies: Labels, *, field: str | None = None, players: Whole | None = None,
             decisions: Whole | None = None, deals: Whole | None = None, worlds: Whole | None = None,
             policy: str = "strong", rate: Real = 1.0, threshold: Real = 0.0, top: Whole = 3,
             options: Options = None, preset: str | None = None, seed: Whole = 0, first_deal: Whole = 0,
             workers: Whole | None = None, out: PathArg | None = None, overwrite: bool = False, resume: bool = False,
             progress: Progress | bool | None = None, notice: Notice | None = None, infer: Whole = 0) -> Any:
    """Where a strategy loses, decision by decision (``cardsim critique``): ``strategies`` is one
    label (the critiqued strategy, against ``field``, default itself) or one per seat (the first
    is critiqued; the lineup rotates). Plays until ``decisions`` are evaluated (default 1,000) or
    ``deals`` record units are played; values each legal action of the critiqued seat's
    decisions (a share ``rate`` of them) with the game's search (``worlds``, rollouts by
    ``policy``). Returns a ``Critique`` (a ``sim.critique.CritiqueResult``): ``.decisions`` (one
    row per decision), ``.summary`` (per kind), ``.phases``, ``.total``, ``.worst``, ``.text()``;
    with ``out`` a directory holding the decisions (``part-0.parquet``), the report and its plot
    (``load(out)`` reads it back). ``progress(done, total, note)`` hears the decisions evaluated
    (the record units played when ``deals`` is given); ``True``: a progress bar. ``notice(line)``
    hears the one line said before its kernels compile the first time. ``infer`` > 0 (Tonk): each
    world is kept of ``infer`` deals consistent with the play so far, in proportion to how well
    the rollout policy explains the rivals' actions (a uniform deal of the hidden cards otherwise)."""
    from cardsim.sim.critique import make_critique, play
    if isinstance(strategies, str):
        strategies = [strategies]
    cfg = make_critique(game, list(strategies), field, players, preset, _option_texts(options), decisions, deals,
                        worlds, policy, rate, threshold, top, seed, first_deal, workers, infer)
    total = cfg.decisions if cfg.decisions is not None else cfg.deals        # what play() counts
    from cardsim.sim.warm import mark_compiled
    _compile_notice(cfg.game.name, "critique", _told(notice, progress))
    with _reporting(progress, total, "decisions" if cfg.decisions is not None else _unit(cfg.game.name),
                    "critiquing") as update:
        res = play(cfg, None if out is None else str(out), resume, overwrite, update)
    mark_compiled(cfg.game.name, "critique")
    return _critique_type().of(res)


@_validated()
def load(path: PathArg) -> Any:
    """Any output cardsim wrote, read back into the object its function returns: a run file
    (``run(out=...)``, ``cardsim run --out``), a compare, sweep or tune directory (a ``Result``),
    or a critique directory (a ``Critique``). ``path`` is a str or a path. The tables of a run,
    comparison or sweep are recomputed from its records (``cardsim summarize``); a tuning's and a
    critique's are the ones stored with them (their records: ``.records``, ``.decisions``).
    Anything else (a report, a file cardsim did not write) is a ``UsageError`` saying what it is."""
    from cardsim.sim.store import recognise
    p = Path(path)
    if not p.exists():
        raise UsageError(f"no such file or directory: {str(path)!r}")
    kind, why = recognise(p)
    if kind is None:
        raise UsageError(f"{str(path)!r} is not a cardsim output: {why}")
    if kind == "run":
        from cardsim.sim.runner import summarize_file
        res = summarize_file(str(p))
        tables = {k: pd.DataFrame(res.summary[k]) for k in ("seats", "strategies", "outcomes")}
        return Result("run", tables["seats"], res.meta, tables, res.summary, str(p), None, res.timing)
    if kind in ("compare", "sweep"):
        from cardsim.sim.datasets import summarize_dataset
        stats = summarize_dataset(str(p))
        points = pd.DataFrame(stats.summary["points"])
        return Result(kind, points, stats.meta, {"points": points}, stats.summary, str(p), None, stats.timing)
    if kind == "tune":
        from cardsim.sim.tune_report import load_tune
        summary, meta = load_tune(p)
        rounds = pd.DataFrame([{k: v for k, v in r.items() if k not in ("remeasured", "best_params", "edges")}
                               for r in summary["rounds"]])
        remeasured = pd.DataFrame([dict(x, round=r["round"]) for r in summary["rounds"] for x in r["remeasured"]])
        return Result("tune", rounds, meta, {"rounds": rounds, "remeasured": remeasured}, summary, str(p))
    if kind == "critique":
        from cardsim.sim.critique import DECISIONS_FILE, summarize as critique_summary
        from cardsim.sim.io import load_json
        try:
            doc = load_json((p / "_summary.json").read_text(encoding="utf-8"))
            meta, stored = doc["meta"], doc["summary"]
            decisions = pd.read_parquet(p / DECISIONS_FILE)
            found = critique_summary(decisions, meta, int(meta["deals"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{str(path)!r} is not a readable cardsim critique ({exc.__class__.__name__})") from None
        found.worst, found.timing = list(stored.get("worst") or []), dict(stored.get("timing") or {})
        found.path = str(p)
        return _critique_type().of(found)
    raise UsageError(f"{str(path)!r} is a cardsim {kind}, not an output to load: give the run file or the "
                     "directory it was written from")


@_validated()
def summarize(path: PathArg) -> Any:
    """The statistics of an output, as ``cardsim summarize PATH`` prints them: the same object as
    ``load(path)`` (a ``Result``, or a ``Critique`` for a critique directory)."""
    return load(path)


@_validated(game=_source)
def replay(game: PathArg, deal: Whole | None = None, *, seed: Whole | None = None, players: Whole | None = None,
           strategies: Labels | None = None, options: Options = None, preset: str | None = None,
           check: bool = False, point: Whole | None = None, lineup: Whole | None = None, force: bool = False,
           until_decision: Whole | None = None, warn: Callable[[str], None] | None = None,
           notice: Notice | None = None) -> dict[str, Any]:
    """One deal exactly as the batch plays it (``cardsim replay --json``): the table, every
    event with the cards it concerns, and the payouts; ``"text"`` holds the play-by-play.
    ``game`` is a game name (the table from the other arguments; ``strategies`` a list of
    labels, one for all seats or one per seat) or an output to replay a deal of (a run file;
    a compare/sweep dataset with ``point`` and ``lineup``; a str or a path), whose metadata
    gives the table; ``force`` replays a file of another rules version (``warn`` gets the
    warning). ``until_decision`` K stops the play-by-play before the deal's decision K (any
    seat's, counted from 0: what ``cardsim critique`` prints) and shows the view of the seat to act."""
    from cardsim.sim.runner import (DEAL_LIMIT, make_config, open_replay_source, raise_check_error,
                                    replay as replay_state, replay_document, replay_lines)
    from cardsim.sim.warm import mark_compiled, seats_search
    if deal is not None and not 0 <= deal < DEAL_LIMIT:
        raise UsageError(f"--deal must be >= 0 and <= 2**63-2 (got {deal})")
    path = _replay_output(str(game))
    source = None
    if path is not None:
        given = [flag for flag, v in (("--seed", seed is not None), ("--players", players is not None),
                                      ("--strategy", bool(strategies)), ("--option", bool(options)),
                                      ("--preset", preset is not None)) if v]
        if given:
            raise UsageError(f"{', '.join(given)} cannot be given with a file: replay FILE takes the table from "
                             "the file's metadata (replay GAME ... chooses it yourself)")
        source = open_replay_source(path, point, lineup, force, check)
        cfg = source.cfg
        deal = cfg.first_deal if deal is None else deal
        source.check_deal(deal)
        if source.warning and warn is not None:
            warn(source.warning)
    else:
        given = [flag for flag, v in (("--point", point is not None), ("--lineup", lineup is not None),
                                      ("--force", force)) if v]
        if given:
            raise UsageError(f"{', '.join(given)}: only for replaying a deal of a file (replay FILE --deal N)")
        deal = 0 if deal is None else deal
        cfg = make_config(str(game), players, 1, 0 if seed is None else seed, list(strategies or []),
                          _option_texts(options), preset, None, check, deal)
    searching = seats_search(cfg.seats)
    _compile_notice(cfg.game.name, "replay", notice, searching)
    if check:
        st, _ = replay_state(cfg, deal)
        code = cfg.game.state_error(st)
        if code:
            raise_check_error(cfg, deal, code)
    if until_decision is not None:
        from cardsim.sim.critique import replay_until
        from cardsim.sim.runner import replay_head
        from cardsim.sim.trace import lines as event_lines
        if until_decision < 0:
            raise UsageError(f"--until-decision must be >= 0 (got {until_decision})")
        events, view = replay_until(cfg, deal, until_decision)
        doc = replay_document(cfg, deal, source)
        doc["events"] = events
        doc["until_decision"] = until_decision
        doc["text"] = "\n".join([replay_head(cfg, deal)] + event_lines(events[:-1]) + view)
        return doc
    doc: dict[str, Any] = replay_document(cfg, deal, source)
    lines = replay_lines(cfg, deal)
    if source is not None and source.kind != "run":
        lines.insert(1, f"{source.kind} point {source.point} ({source.point_label}), lineup {source.lineup}: "
                        f"the point's result is seat {source.counted_seat}'s")
    mark_compiled(cfg.game.name, "replay")
    if searching:
        mark_compiled(cfg.game.name, "search")
    doc["text"] = "\n".join(lines)
    return doc


@_validated()
def games() -> pd.DataFrame:
    """The games, their player counts and rules documents (``cardsim games``)."""
    from cardsim.sim.registry import games as all_games
    return pd.DataFrame([{"game": g.name, "title": g.title, "players_min": g.players[0], "players_max": g.players[1],
                          "players_default": g.players[2], "rules": g.rules, "rules_version": g.rules_version}
                         for g in all_games().values()])


@_validated()
def strategy_specs(game: str, plugins: Labels = (), warn: Callable[[str], None] | None = None) -> list[StrategySpec]:
    """The strategies of ``game`` (``StrategySpec``: name, parameters, help): the built-in ones,
    the plug-ins named (a list of ``FILE.py:NAME`` labels) and the installed entry points of
    this game. An installed one that does not load is left out and named to ``warn`` (default:
    ``warnings.warn``)."""
    from cardsim.sim.plugin import installed_labels
    from cardsim.sim.registry import get_game, parse_seat
    g = get_game(game)
    specs = list(g.strategies.values())
    for label in plugins:
        specs.append(parse_seat(g, label).strategy)
    if g.plugin:
        for label in installed_labels(g, warn or (lambda text: warnings.warn(text, stacklevel=3))):
            specs.append(parse_seat(g, label).strategy)
    return specs


@_validated()
def strategies(game: str, plugins: Labels = (), warn: Callable[[str], None] | None = None) -> pd.DataFrame:
    """One row per strategy parameter (strategies without any: one row, no parameter); the
    plug-ins named (a list of ``FILE.py:NAME`` labels) and installed ones included
    (``cardsim strategies``)."""
    rows = []
    for s in strategy_specs(game, plugins, warn):
        for p in s.params or (None,):
            rows.append({"strategy": s.name, "parameter": p.name if p else None, "default": p.default if p else None,
                         "lo": p.lo if p else None, "hi": p.hi if p else None,
                         "integer": p.integer if p else None, "help": p.help if p else s.help,
                         "strategy_help": s.help})
    return pd.DataFrame(rows)


@_validated()
def options(game: str) -> pd.DataFrame:
    """The rule options of ``game`` with their defaults, help, choices and ranges
    (``cardsim options``; the presets: ``presets``)."""
    import dataclasses
    from cardsim.sim.registry import get_game
    return pd.DataFrame([{"option": f.name, "default": f.default, "help": f.metadata.get("help", ""),
                          "choices": f.metadata.get("choices"), "range": f.metadata.get("range")}
                         for f in dataclasses.fields(get_game(game).options_cls)], dtype=object)


@_validated()
def presets(game: str) -> dict[str, dict[str, Any]]:
    """The named option sets of ``game``: preset -> {option: value}."""
    from cardsim.sim.registry import get_game
    return {name: dict(values) for name, values in get_game(game).presets.items()}


@_validated()
def columns(game: str, dataset: bool = False) -> pd.DataFrame:
    """The record columns of ``game`` (``cardsim columns``): one row per column or family
    (``h{h}_end``: one per hand), its type, description and code names (``codes``: value ->
    name, for the columns ``Result.records`` gives as categoricals). ``dataset``: the columns of
    its compare/sweep datasets instead."""
    from cardsim.sim.columns import dataset_columns, rows
    from cardsim.sim.registry import get_game
    g = get_game(game)
    return pd.DataFrame(rows(dataset_columns(g) if dataset else g.columns))


@_validated()
def rules(game: str) -> str:
    """Where ``game``'s rules document is (``docs/rules/GAME.md`` in the repository)."""
    from cardsim.sim.registry import get_game
    return str(get_game(game).rules)
