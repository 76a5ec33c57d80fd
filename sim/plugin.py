"""Plug-in strategies (issue 17): a strategy written in a user's own ``.py`` file (or an
installed package's entry point, group ``cardsim.strategies``), seated like a built-in one.

A plug-in file defines a ``cardsim.plugin.Strategy`` (see ``cardsim/plugin.py``): the game,
a numba function ``decide(view, legal, n, prm) -> int`` and a built-in ``base`` that takes
every decision ``decide`` leaves to it (by returning -1), plus parameters with defaults,
ranges and help. ``--strategy path/to/file.py:NAME:param=value`` seats it; the registry
parses it like a built-in (``sim.registry.parse_seat``), and the kernels call ``decide`` for
that seat's decisions (``kernels.tonk.plugin_pick``), stopping a deal whose ``decide``
returns anything but -1 or a legal action's index (reported with the deal's id).

Everything that can be wrong with a plug-in is a UsageError of one line: a missing file, a
file that does not import, a missing name, an object that is no Strategy, another game, a
``decide`` that is not a numba function of (view, legal, n, prm), one numba cannot compile
(numba's first error line), an unknown base, parameters that do not fit.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path

from cardsim.sim.errors import UsageError

PLUGIN_TEXT = re.compile(r"^(?P<source>.+?\.py):(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?::(?P<params>.*))?$")
ENTRY_GROUP = "cardsim.strategies"


def split(text: str) -> tuple[str, str, str] | None:
    """``"dir/file.py:NAME:a=1"`` -> (``"dir/file.py"``, ``"NAME"``, ``"a=1"``); None for a
    label that names no plug-in file."""
    m = PLUGIN_TEXT.match(text.strip())
    return (m["source"], m["name"], m["params"] or "") if m else None


@functools.lru_cache(maxsize=None)
def _module_of(path: str):
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"plug-in file {path!r} does not exist")
    key = "cardsim_plugin_" + hashlib.sha256(str(p.resolve()).encode()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(key, p)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[key] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:  # noqa: BLE001 - whatever the user's file raises: one line
        del sys.modules[key]
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise UsageError(f"plug-in file {path!r} does not import: {type(exc).__name__}: {first}") from None
    return mod


@functools.lru_cache(maxsize=None)
def _entry_points() -> dict:
    from importlib.metadata import entry_points
    return {ep.name: ep for ep in entry_points(group=ENTRY_GROUP)}


def entry_point_names() -> list[str]:
    return sorted(_entry_points())


def load(source: str, name: str, game):
    """The plug-in Strategy ``name`` of file ``source`` (or of the entry point ``name`` when
    ``source`` is empty), checked against ``game`` (a GameSpec) and compiled once."""
    from cardsim.sim.spec import PluginStrategy as Strategy
    if source:
        mod = _module_of(source)
        if not hasattr(mod, name):
            found = [k for k, v in vars(mod).items() if isinstance(v, Strategy)]
            raise UsageError(f"plug-in file {source!r} has no strategy {name!r}; it defines: "
                             f"{', '.join(found) or 'none'}")
        obj = getattr(mod, name)
        where = f"{source}:{name}"
    else:
        try:
            obj = _entry_points()[name].load()
        except Exception as exc:  # noqa: BLE001
            raise UsageError(f"entry point {name!r} ({ENTRY_GROUP}) does not load: {type(exc).__name__}: {exc}") \
                from None
        where = f"entry point {name}"
    if not isinstance(obj, Strategy):
        raise UsageError(f"{where} is a {type(obj).__name__}, not a cardsim.plugin.Strategy")
    if obj.game != game.name:
        raise UsageError(f"{where} is a strategy for {obj.game}, not {game.name}")
    if game.plugin is None:
        raise UsageError(f"{game.name} does not take plug-in strategies yet")
    bad = [k for k in obj.kinds if k not in game.plugin["kinds"]]
    if bad:
        raise UsageError(f"{where}: kinds {bad} are not {game.name} decision kinds "
                         f"({', '.join(f'{k}: {v}' for k, v in game.plugin['kinds'].items())})")
    _compile(obj, where, game)
    return obj


_COMPILED: dict = {}


def compiled(obj):
    """The C callback (``kernels.jit.plug_cfunc``) of a loaded plug-in's ``decide``: what the
    kernels call."""
    return _COMPILED[id(obj.decide)][1]


def _compile(obj, where: str, game) -> None:
    """Check decide's signature and compile it for the kernels' argument types, once."""
    key = id(obj.decide)
    if key in _COMPILED:
        return
    d = obj.decide
    if not hasattr(d, "py_func") or not hasattr(d, "compile"):
        raise UsageError(f"{where}: decide must be a numba function (@numba.njit), got {type(d).__name__}")
    params = list(inspect.signature(d.py_func).parameters)
    if len(params) != 4:
        raise UsageError(f"{where}: decide must take (view, legal, n, prm); it takes ({', '.join(params)})")
    from cardsim.kernels.jit import plug_cfunc
    try:
        fn = plug_cfunc(d)
    except Exception as exc:  # noqa: BLE001 - numba's typing / lowering errors: their first line
        lines = [ln for ln in str(exc).splitlines() if ln.strip()]
        first = lines[0] if lines else type(exc).__name__
        raise UsageError(f"{where}: numba cannot compile decide: {first}") from None
    _COMPILED[key] = (d, fn)          # d kept: the id stays its own
