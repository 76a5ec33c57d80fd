"""Plug-in strategies (issue 17): a strategy written in a user's own ``.py`` file (or an
installed package's entry point, group ``cardsim.strategies``), seated like a built-in one.

A plug-in file defines a ``cardsim.plugin.Strategy`` (see ``cardsim/plugin.py``): the game,
a numba function ``decide(view, legal, n, prm) -> int`` and a built-in ``base`` that takes
every decision ``decide`` leaves to it (by returning -1), plus parameters with defaults,
ranges and help. ``--strategy path/to/file.py:NAME:param=value`` seats it; the registry
parses it like a built-in (``sim.registry.parse_seat``), and the kernels call ``decide`` for
that seat's decisions (``kernels.tonk.plugin_pick``), stopping a deal whose ``decide``
returns anything but -1 or a legal action's index (reported with the deal's id).

Everything that can be wrong with a plug-in is a UsageError of one line, at load: a missing
file, a file that does not import (any exception, SystemExit too), a missing name, an object that
is no Strategy, another game, a ``decide`` that is not a numba function of (view, legal, n, prm),
one numba cannot compile (the telling line of numba's error), one writing into its read-only
arguments, one whose answer is not an integer, an unknown base, parameters that do not fit
(``check_params``). At run time the kernels call ``decide`` through ``kernels.jit.guarded``:
read-only views of the arrays, and an exception answered as PLUG_RAISED, which stops the deal
like an illegal answer; ``explain_stop`` replays that deal with a recording callback and asks
``decide`` the decision again in Python, so the PluginError names the exception, the decision
kind and the deal. ``code_digest`` puts the plug-in's code into the run's identity.
"""
from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.util
import inspect
import math
import re
import sys
from pathlib import Path

import numba
import numpy as np
from numba.core import types

from cardsim.sim.errors import UsageError
from cardsim.sim.spec import num_text

PLUGIN_TEXT = re.compile(r"^(?P<source>.+?\.py):(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?::(?P<params>.*))?$")
ENTRY_GROUP = "cardsim.strategies"


def split(text: str) -> tuple[str, str, str] | None:
    """``"dir/file.py:NAME:a=1"`` -> (``"dir/file.py"``, ``"NAME"``, ``"a=1"``); None for a
    label that names no plug-in file."""
    m = PLUGIN_TEXT.match(text.strip())
    return (m["source"], m["name"], m["params"] or "") if m else None


def _module_of(path: str):
    """The plug-in file's module, imported once per content: the same file (resolved path)
    with the same bytes is not imported again; an edited one is (a notebook that edits its
    plug-in between runs plays the new code, as the run's metadata says)."""
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"plug-in file {path!r} does not exist")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise UsageError(f"plug-in file {path!r} cannot be read: {exc.strerror or exc}") from None
    resolved = str(p.resolve())
    key = "cardsim_plugin_" + hashlib.sha256(resolved.encode() + b"\0" + data).hexdigest()[:16]
    if key not in _MODULES:
        _MODULES[key] = _import(key, p, path)
    return _MODULES[key]


_MODULES: dict = {}         # module name (the file's resolved path and bytes) -> module


def _import(key: str, p: Path, path: str):
    spec = importlib.util.spec_from_file_location(key, p)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[key] = mod
    try:
        with contextlib.redirect_stdout(sys.stderr):      # its prints never reach --json output
            spec.loader.exec_module(mod)
    except BaseException as exc:  # noqa: BLE001 - whatever the user's file raises (SystemExit too): one line
        del sys.modules[key]
        raise UsageError(f"plug-in file {path!r} does not import: {_exception_text(exc)}") from None
    return mod


def _exception_text(exc: BaseException) -> str:
    """``TypeName: first line of the message`` (the type alone for an empty message)."""
    text = str(exc).strip()
    first = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


@functools.lru_cache(maxsize=None)
def _entry_points() -> dict:
    from importlib.metadata import entry_points
    return {ep.name: ep for ep in entry_points(group=ENTRY_GROUP)}


def entry_point_names() -> list[str]:
    return sorted(_entry_points())


def installed_labels(game, warn) -> list[str]:
    """The installed entry points (group ``cardsim.strategies``) that are strategies of ``game``:
    one of another game is left out; one that does not load (or is wrong) is left out and named
    to ``warn`` in one line, so that one broken package does not hide the others."""
    from cardsim.sim.spec import PluginStrategy as Strategy
    labels = []
    for name in entry_point_names():
        try:
            with contextlib.redirect_stdout(sys.stderr):
                obj = _entry_points()[name].load()
            if isinstance(obj, Strategy) and obj.game != game.name:
                continue
            load("", name, game)
        except BaseException as exc:  # noqa: BLE001 - a broken package: named, the others listed
            text = str(exc) if isinstance(exc, UsageError) else f"entry point {name!r} does not load: " \
                                                                  f"{_exception_text(exc)}"
            warn(f"installed plug-in {name} left out: {text}")
            continue
        labels.append(name)
    return labels


def loaded_params(source: str, name: str):
    """The parameters (ParamSpecs) of plug-in ``name`` of file ``source`` where that file is
    already imported in this process (nothing is imported here: a table's label never runs a
    user's file), else None."""
    try:
        resolved = str(Path(source).resolve())
    except OSError:
        return None
    for mod in _MODULES.values():
        if str(Path(getattr(mod, "__file__", "") or "").resolve()) == resolved:
            obj = getattr(mod, name, None)
            params = getattr(obj, "params", None)
            return tuple(params) if params is not None else None
    return None


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
            with contextlib.redirect_stdout(sys.stderr):
                obj = _entry_points()[name].load()
        except BaseException as exc:  # noqa: BLE001
            raise UsageError(f"entry point {name!r} ({ENTRY_GROUP}) does not load: {_exception_text(exc)}") \
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
    check_params(obj.params, where)
    _compile(obj, where)
    return obj


PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_params(params, where: str) -> None:
    """Every parameter a label can set and a run can use: a ``param(...)`` row, a name that
    ``NAME:key=value`` can write (letters, digits, _), given once, a finite range written low
    to high, a finite default inside it, whole numbers where ``integer``. UsageError naming the
    first that is not."""
    from cardsim.sim.spec import ParamSpec
    seen = set()
    for p in params:
        if not isinstance(p, ParamSpec):
            raise UsageError(f"{where}: a parameter must be a cardsim.plugin.param(...), got {type(p).__name__}")
        what = f"{where}: parameter {p.name!r}"
        if not isinstance(p.name, str) or not PARAM_NAME.fullmatch(p.name):
            raise UsageError(f"{what} cannot be written in a label NAME:key=value (use letters, digits and _, "
                             "not starting with a digit)")
        if p.name in seen:
            raise UsageError(f"{what} is declared twice")
        seen.add(p.name)
        for role, v in (("default", p.default), ("low end", p.lo), ("high end", p.hi)):
            if not math.isfinite(v):
                raise UsageError(f"{what}: its {role} {v} is not a finite number")
        if p.lo > p.hi:
            raise UsageError(f"{what}: its range [{num_text(p.lo)}, {num_text(p.hi)}] runs high to low "
                             f"(write param(name, default, low, high))")
        if not p.lo <= p.default <= p.hi:
            raise UsageError(f"{what}: its default {num_text(p.default)} is outside its range "
                             f"[{num_text(p.lo)}, {num_text(p.hi)}]")
        if p.integer and not all(float(v).is_integer() for v in (p.default, p.lo, p.hi)):
            raise UsageError(f"{what} is a whole number (integer=True) but its default or range is not")


def code_digest(source: str, name: str) -> str:
    """sha256 of the code a plug-in runs: its file and the files it imports from its own folder
    (``import helper``, ``from helper import f``, ``from . import x``: ``helper.py`` or
    ``helper/__init__.py`` there, followed in turn), or, for an entry point, its module's file
    and what that imports from its folder. In a run's metadata (the seat's ``code``), so that
    ``--resume`` after an edit, or a replay of a file the old code wrote, is refused."""
    if source:
        first = Path(source)
    else:
        ep = _entry_points().get(name)
        spec = importlib.util.find_spec(ep.module) if ep is not None else None
        if spec is None or spec.origin is None:
            return ""
        first = Path(spec.origin)
    h = hashlib.sha256()
    for path in _local_files(first.resolve()):
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def _local_files(first: Path) -> list[Path]:
    """``first`` and every file of its folder it imports, directly or through another one."""
    folder, todo, found = first.parent, [first], []
    while todo:
        path = todo.pop()
        if path in found or not path.is_file():
            continue
        found.append(path)
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.module:
                    names = [node.module]
                if node.level or not node.module:
                    names += [f"{node.module}.{a.name}" if node.module else a.name for a in node.names]
            for mod in names:
                parts = mod.split(".")
                todo += [folder.joinpath(*parts).with_suffix(".py"), folder.joinpath(*parts, "__init__.py")]
    return sorted(found)


# decide, compiled: id(decide) -> {"decide", "guarded", "plain", "checked" (with bounds checks),
# "checked_decide"}; the entry keeps decide, so its id stays its own
_COMPILED: dict = {}


def compiled(obj, check: bool = False):
    """The C callback (``kernels.jit.plug_cfunc``) of a loaded plug-in's ``decide``: what the
    kernels call. ``check`` (``--check``): decide compiled again with bounds checking, so that
    an index out of range is an IndexError (reported with the deal) instead of a crash."""
    entry = _COMPILED[id(obj.decide)]
    if not check:
        return entry["plain"]
    if entry["checked"] is None:
        from cardsim.kernels.jit import guarded, plug_cfunc
        d = entry["decide"]
        options = {k: v for k, v in d.targetoptions.items() if k not in ("boundscheck", "nopython")}
        checked = numba.njit(boundscheck=True, **options)(d.py_func)
        entry["checked_guarded"] = guarded(checked)
        entry["checked_decide"] = checked
        entry["checked"] = plug_cfunc(entry["checked_guarded"])
    return entry["checked"]


def _compile(obj, where: str) -> None:
    """Check decide's signature, arguments and answer type; compile it for the kernels once."""
    key = id(obj.decide)
    if key in _COMPILED:
        return
    d = obj.decide
    if not hasattr(d, "py_func") or not hasattr(d, "compile"):
        raise UsageError(f"{where}: decide must be a numba function (@numba.njit), got {type(d).__name__}")
    params = list(inspect.signature(d.py_func).parameters)
    if len(params) != 4:
        raise UsageError(f"{where}: decide must take (view, legal, n, prm); it takes ({', '.join(params)})")
    from cardsim.kernels.jit import PLUG_ARGS, guarded, plug_cfunc
    try:
        with contextlib.redirect_stdout(sys.stderr):
            d.compile(PLUG_ARGS)
            answer = d.overloads[PLUG_ARGS].signature.return_type
            if not isinstance(answer, types.Integer):
                raise UsageError(f"{where}: decide must return an integer (an index of legal, or -1); it "
                                 f"returns {answer}")
            g = guarded(d)
            fn = plug_cfunc(g)
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - numba's typing / lowering errors: their telling line
        raise UsageError(f"{where}: numba cannot compile decide: {_numba_reason(exc, d)}") from None
    _COMPILED[key] = {"decide": d, "guarded": g, "plain": fn, "checked": None}


def _numba_reason(exc: Exception, fn=None) -> str:
    """The line of a numba compile error that says what is wrong (not "Failed in nopython mode
    pipeline": numba's own words, the signature it could not match), with where in decide
    (``fn``'s file and line, the line's code: numba's location, or the line naming an undefined
    name), and decide's arrays named as read-only where it writes into one."""
    text = str(exc)
    if "readonly array" in text and "setitem" in text:
        where = re.search(r'File "([^"]+)", line (\d+)', text)
        at = f" ({Path(where[1]).name}, line {where[2]})" if where else ""
        return ("decide writes into view, legal or prm, which are read-only (every seat and thread shares "
                f"them): copy what you change (np.copy){at}")
    if "No matching definition" in text or "Compilation is disabled" in text:
        return ("decide has explicit signatures that do not take read-only arrays: drop them "
                "(write @numba.njit without a signature)")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    useful = [ln for ln in lines if not ln.startswith(("Failed in ", "During: ", "- Resolution failure"))]
    head = (useful or lines or [type(exc).__name__])[0]
    sig = next((ln for ln in lines if ln.startswith(">>>")), None)
    if head.endswith(":") and sig:
        head = f"{head} {sig[3:].strip()}"
    return head + _code_at(text, fn)


def _code_at(text: str, fn) -> str:
    """`` (FILE, line N: CODE)`` of a numba error in ``fn``: numba's own location, or, for a name
    it does not know, the first line of ``fn`` naming it; "" where neither is found."""
    import inspect
    import linecache
    found = re.search(r'File "([^"]+)", line (\d+)', text)
    py = getattr(fn, "py_func", fn)
    path = line = None
    if found:
        line = int(found[2])
        path = getattr(getattr(py, "__code__", None), "co_filename", None) or found[1]
        if Path(path).name != Path(found[1]).name:
            path = found[1]
    else:
        name = re.search(r"name '(\w+)' is not defined", text)
        try:
            src, first = inspect.getsourcelines(py)
            path = inspect.getsourcefile(py)
        except (OSError, TypeError):
            return ""
        if name:
            line = next((first + i for i, ln in enumerate(src) if re.search(rf"\b{name[1]}\b", ln)
                         and not ln.lstrip().startswith("def ")), None)
    if path is None or line is None:
        return ""
    code = linecache.getline(path, line).split("  #")[0].strip()
    return f" ({Path(path).name}, line {line}" + (f": {code[:60]}" if code else "") + ")"


# ---- a stopped deal, explained --------------------------------------------------------------

V_KIND = 1          # the decision kind's slot in every game's view (kernels: V_KIND)
RECORD_INTS = 1 << 16
RECORD_FLOATS = 1 << 10


def explain_stop(obj, game, check: bool, replay) -> str:
    """Why the plug-in ``obj`` stopped a deal: ``replay(callback)`` plays that deal again with a
    callback that keeps the decision where decide's answer was not -1 or a legal index; decide
    is then asked that decision again here, in Python, where an exception it raises keeps its
    message. A phrase: "raised ZeroDivisionError: division by zero at decision kind 0 (turn
    start ...)" or "returned 7 (legal: 0..2 or -1) at decision kind ..."."""
    from cardsim.kernels.jit import PLUG_RAISED, recording_cfunc
    entry = _COMPILED[id(obj.decide)]
    ints = np.zeros(RECORD_INTS, dtype=np.int64)
    floats = np.zeros(RECORD_FLOATS, dtype=np.float64)
    g = entry["checked_guarded"] if check else entry["guarded"]
    replay(recording_cfunc(g, ints, floats))
    if not ints[0]:
        return "gave an answer that stopped the deal, which a replay of the deal does not repeat " \
               "(does decide depend on more than its arguments?)"
    answer, n, nv, npm = (int(x) for x in ints[1:5])
    view = _frozen(ints[5:5 + nv])
    legal = _frozen(ints[5 + nv:5 + nv + n])
    prm = _frozen(floats[:npm])
    kind = int(view[V_KIND]) if nv > V_KIND else -1
    text = game.plugin["kinds"].get(kind, "")
    at = f"at decision kind {kind}" + (f" ({_short(text)})" if text else "")
    if answer != PLUG_RAISED:
        legal_text = f"0..{n - 1} or -1" if n else "-1 only: no legal action was listed"
        return f"returned {answer} (legal: {legal_text}) {at}"
    target = entry["checked_decide"] if check else entry["decide"]
    try:
        with contextlib.redirect_stdout(sys.stderr):
            target(view, legal, n, prm)
    except Exception as exc:  # noqa: BLE001 - the user's exception, named
        return f"raised {_exception_text(exc)} {at}"
    return f"raised an exception {at} (asked again outside the kernel, decide did not raise)"


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a.copy())
    a.setflags(write=False)
    return a


def _short(text: str, width: int = 60) -> str:
    head = re.split(r"[:(]", text, maxsplit=1)[0].strip()
    return head if len(head) <= width else head[: width - 3] + "..."
