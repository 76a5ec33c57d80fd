"""The ``cardsim`` command line (typer). ``python -m cardsim`` runs the same app.

Bad input exits with code 2 and one line naming the problem and the accepted values;
a failed ``--check`` exits with code 1 and prints the offending deal's trace.
"""
from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import os
import sys
import threading
import time
from typing import Annotated, Optional

import typer
import typer.core
from typer.exceptions import TyperException
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from cardsim.sim import interrupt
from cardsim.sim.errors import CLI_CALL, CheckError, OutputError, UsageError
from cardsim.sim.notes import point_notes
from cardsim.sim.tables import Col, fit, fmt_num, fmt_pct, fmt_pm
from cardsim.sim.textsafe import plain, term



class OneLineErrors(typer.core.TyperGroup):
    """Turns the usage errors typer/click detect themselves (``--deals abc``, unknown flags)
    into one ``Error:`` line and exit code 2, like the errors the commands raise."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        readable_help(self)
        token = CLI_CALL.set(True)             # the API's errors name flags, as the user typed them
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except TyperException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":
                err.print(exc.format_message(), markup=False)
            else:
                err.print(f"Error: {exc.format_message()}", markup=False)
            sys.exit(exc.exit_code)
        except typer.Abort:
            err.print("Aborted.")
            sys.exit(130)
        finally:
            CLI_CALL.reset(token)
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv


# what a value of a flag is, by the flag's parameter name; other values by their type
METAVARS = {"strategy": "LABEL", "field": "LABEL", "option": "NAME=VALUE", "param": "NAME=VALUES",
            "option_grid": "NAME=VALUES", "preset": "NAME", "plugin": "FILE.py:NAME", "scheduler": "tcp://HOST:PORT",
            "cluster": "local:N", "out": "PATH", "out_file": "PATH", "out_dir": "DIR", "save": "FILE",
            "policy": "NAME", "hand": "CARDS", "cards": "CARDS"}
TYPE_METAVARS = {"int": "N", "float": "X", "str": "TEXT"}


def _paragraphs(text: str) -> str:
    """A docstring's help as typer prints it best: each paragraph one line (the terminal wraps
    it; a paragraph whose lines are indented, or start with ``\b``, kept as written), ``code``
    in single backticks."""
    import inspect
    out = []
    for para in inspect.cleandoc(text).replace("``", "`").split("\n\n"):
        lines = para.split("\n")
        keep = para.startswith("\b") or any(ln.startswith((" ", "-", "*")) for ln in lines[1:])
        out.append(para if keep else " ".join(ln.strip() for ln in lines))
    return "\n\n".join(out)


def _flag_help(make):
    """``--help`` as the flag it is (no value name)."""
    def help_option(ctx):
        opt = make(ctx)
        if opt is not None:
            opt.metavar = ""
        return opt
    return help_option


def readable_help(group) -> None:
    """Once per app: commands' and options' help rewrapped (``_paragraphs``), and readable
    value names: GAME for an argument, LABEL, NAME=VALUE, PATH, N, X for values (``METAVARS``),
    none for an on/off flag (typer would print ``<bool>``, ``<list[str]>``, ``{game}``)."""
    if getattr(group, "_readable", False):
        return
    group._readable = True
    for cmd in [group, *group.commands.values()]:
        if cmd.help:
            cmd.help = _paragraphs(cmd.help)
        cmd.get_help_option = _flag_help(cmd.get_help_option)
        for prm in cmd.params:
            if getattr(prm, "help", None):
                prm.help = _paragraphs(prm.help)
            if isinstance(prm, typer.core.TyperArgument):
                name = prm.metavar = prm.metavar or prm.name.upper()
                prm._usage_display_name = lambda name=name, req=prm.required: name if req else f"[{name}]"
                prm.display_type_rich = lambda ctx: None        # the name says what it is
            elif prm.metavar is not None:
                continue
            elif getattr(prm, "is_flag", False):
                prm.metavar = ""
            else:
                bare = prm.display_type(None).strip("<>") if hasattr(prm, "display_type") else ""
                bare = bare.removeprefix("list[").removesuffix("]")
                prm.metavar = METAVARS.get(prm.name) or TYPE_METAVARS.get(bare) or bare.upper() or "VALUE"


app = typer.Typer(cls=OneLineErrors, add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="cardsim: Monte Carlo simulator for card games (`cardsim games` lists them).")
def _piped_width() -> int | None:
    """The width of stdout's text: a terminal's own; piped, ``COLUMNS`` where it is set (a whole
    number), else 200 (a log keeps the widest tables whole)."""
    cols = os.environ.get("COLUMNS", "").strip()
    if sys.stdout.isatty() or (cols.isdigit() and int(cols) > 0):
        return None                                   # rich reads the terminal, or COLUMNS
    return 200


out = Console(highlight=False, width=_piped_width())
err = Console(stderr=True, highlight=False, soft_wrap=True)

def version_text() -> str:
    """``cardsim VERSION`` (the installed package's; a checkout that is not installed: its pyproject's)."""
    from importlib import metadata
    try:
        return f"cardsim {metadata.version('cardsim')}"
    except metadata.PackageNotFoundError:
        import re
        from pathlib import Path
        try:
            text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
            found = re.search(r'^version = "([^"]+)"', text, re.M)
            return f"cardsim {found.group(1)}"
        except (OSError, AttributeError):
            return "cardsim (version unknown: not installed)"


def _print_version(value: bool) -> None:
    if value:
        print(version_text())
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", help="print cardsim's version and exit", callback=_print_version, is_eager=True)] = False):
    """cardsim: Monte Carlo simulator for Tonk, Telefunken, Contract Rummy (Liverpool, May I?), Marafon,
    Trionfo and Tripoli. Shell completion: --install-completion (or --show-completion)."""


GameArg = Annotated[str, typer.Argument(help="game name (see `cardsim games`)")]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", help="number of players (game default if omitted)")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="run seed; with the deal index it fixes every card")]
StrategyOpt = Annotated[Optional[list[str]], typer.Option(
    "--strategy", help="NAME[:param=value,...]; once for all seats or once per seat (default greedy)")]
OptionOpt = Annotated[Optional[list[str]], typer.Option("--option", "-o", help="rule option NAME=VALUE (repeatable)")]
PresetOpt = Annotated[Optional[str], typer.Option("--preset", help="named rule set (see `cardsim options GAME`)")]
CheckOpt = Annotated[bool, typer.Option("--check", help="verify the rules' invariants after every action (slower)")]


def handle_errors(fn):
    """UsageError -> one line and exit 2; CheckError -> message, trace, exit 1; OutputError
    (writing failed: a full disk) -> one line naming what was removed and kept, exit 1."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            if not kwargs.get("as_json"):
                return fn(*args, **kwargs)
            _JSON_OUT.append(sys.stdout)        # --json: stdout is the document only; anything
            try:                                # else printed meanwhile (a plug-in's print) goes to stderr
                with contextlib.redirect_stdout(sys.stderr):
                    return fn(*args, **kwargs)
            finally:
                _JSON_OUT.pop()
        except UsageError as exc:
            err.print(f"Error: {term(exc)}", markup=False)    # term: a message may quote a file's text
            raise typer.Exit(2) from None
        except CheckError as exc:
            err.print(f"Error: {term(exc)}", markup=False)
            err.print("\n".join(map(term, exc.trace.splitlines())), markup=False)
            if getattr(exc, "cleanup", None):           # what a failed run with --out removed and kept
                err.print(term(exc.cleanup[0].upper() + exc.cleanup[1:] + "."), markup=False)
            raise typer.Exit(1) from None
        except OutputError as exc:                      # writing failed (a full disk): nothing half-written
            err.print(f"Error: {term(exc)}", markup=False)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            resumable = kwargs.get("out_file") or kwargs.get("out_dir")
            err.print("Interrupted." + (" Finished shards are kept: rerun with --resume to continue."
                                        if resumable else ""), markup=False)
            if interrupt.abandoned():       # a kernel that does not return (a plug-in's loop): end now
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(130)
            raise typer.Exit(130) from None
    return wrapper


def _spec(meta: dict):
    """The game of a summary's metadata, or None (a file of a game this cardsim does not know)."""
    try:
        from cardsim.sim.registry import get_game
        return get_game(meta["game"])
    except Exception:  # noqa: BLE001 - a summary of an unknown game still prints
        return None


def _units(meta: dict, count: int | None = None) -> str:
    """What a record is, plural ("deals", "games", "matches", "sessions"); singular for count 1."""
    spec = _spec(meta)
    one, many = spec.record_unit if spec is not None else ("deal", "deals")
    return one if count == 1 else many


def _mean_label(meta: dict) -> str:
    """'mean payout', or the game's own name for what payout_{p} holds."""
    spec = _spec(meta)
    label = spec.payout_label if spec is not None else "payout (chips)"
    return "mean payout" if label == "payout (chips)" else f"mean {label.split(' (')[0]}"


def _compiled(timing: dict) -> str:
    """``; compiled first in N s`` where the kernels compiled before the run (not in its time)."""
    c = timing.get("compile_s")
    return f"; compiled first in {c:.0f} s" if c and c >= 0.5 else ""


def _meta_labels(meta: dict) -> list[str]:
    """Every strategy label a result's tables show (its seats, points, lineups and field): a
    label is shortened beside these (``registry.short_labels``)."""
    found = []
    for s in meta.get("seats") or []:
        found.append(s["label"] if isinstance(s, dict) else s)
    for p in meta.get("points") or []:
        if isinstance(p, dict):
            found += [p.get("label")] + [lab for u in p.get("lineups") or [] for lab in u.get("seats", [])]
    if meta.get("field"):
        found.append(meta["field"])
    return [str(x) for x in found if x]


def _label(meta: dict, label: str) -> str:
    from cardsim.sim.registry import short_labels
    return term(short_labels(meta["game"], [*_meta_labels(meta), str(label)])[str(label)])


def _print_table(title: str, cols: list, rows: list, note_dropped: bool = True) -> None:
    """A table fitted to the console (``sim.tables``), its title on the line above."""
    table, used, dropped = fit(cols, rows, out.width)
    out.print(title, markup=False)
    if used <= out.width:
        out.print(table)
    else:                           # the numbers alone are wider than the console: never cut them
        wide = Console(file=io.StringIO(), width=used, highlight=False, color_system=None)
        wide.print(table)
        out.print(wide.file.getvalue().rstrip("\n"), markup=False, soft_wrap=True)
    if dropped and note_dropped:
        out.print(f"(left out at this width: {', '.join(h.replace(chr(10), ' ') for h in dropped)}; --json has "
                  "every figure)", markup=False)


def _interval_words(seq: dict | None, kinds: str) -> tuple[str, str]:
    """(the words a table's title gives its intervals, the header of their columns)."""
    if not seq:
        return f"95% intervals: {kinds}", "95% CI"
    return (f"sequential intervals of --until-ci, valid where the run stopped: z = {seq['z']:.3f} at look "
            f"{seq['looks']} of the alpha-spending rule", "seq. CI")


def _rate_ci(r: dict, n: int, seq: dict | None, k: float = 1) -> str:
    """A rate's interval: the summary's 95% one, or Wilson at the sequential z (the rate is
    ``successes / (k n)``, k = seats of a strategy)."""
    from cardsim.sim.stats import wilson
    lo, hi = r["win_lo"], r["win_hi"]
    if seq and n and r.get("win_rate") is not None and not math.isnan(r["win_rate"]):
        _, lo, hi = wilson(round(r["win_rate"] * k * n), n, seq["z"])
        lo, hi = lo / k, hi / k
    return f"{fmt_pct(lo)} – {fmt_pct(hi)}"


def _half(r: dict, key: str, seq: dict | None) -> float:
    """The half-width of a mean's interval: the summary's 95% (t) one, or z x se."""
    if seq:
        se = r.get(f"{key}_se")
        return float("nan") if se is None else seq["z"] * se
    hi, mean = r.get(f"{key}_hi"), r.get({"payout": "mean_payout", "win": "win_rate"}.get(key, key))
    return float("nan") if hi is None or mean is None else hi - mean


def print_summary(summary: dict, meta: dict, timing: dict | None = None) -> None:
    """Per-seat (per-side in a partnership game), per-strategy and outcome tables with their
    intervals, fitted to the console. Strings from the metadata (a file's, for summarize) are
    escaped (``sim.textsafe``); labels show only their non-default parameters."""
    n = summary["deals"]
    units = _units(meta)
    head = term(f"{meta['game']} · {meta['players']} players · {n:,} {_units(meta, n)} · seed {meta['seed']}"
                f" · rules v{meta['rules_version']}")
    if timing and timing.get("deals_per_s") and "wall_time_s" in timing:
        head += f" · {timing['wall_time_s']:.2f} s ({timing['deals_per_s']:,.0f} {units}/s{_compiled(timing)})"
    out.print(head, markup=False)
    seq = summary.get("sequential")
    words, ci = _interval_words(seq, "Wilson for rates, t for means")
    mean = _mean_label(meta)
    shortened = False

    def lab(x):
        nonlocal shortened
        s = _label(meta, x)
        shortened |= s != term(x)
        return s

    sides = summary.get("sides")
    if sides:
        rows = [[str(r["side"]), "+".join(map(str, r["seats"])),
                 " + ".join(dict.fromkeys(lab(x) for x in r["strategies"])), fmt_pct(r["win_rate"]),
                 _rate_ci(r, n, seq), fmt_num(r["mean_payout"]), fmt_pm(_half(r, "payout", seq))] for r in sides]
        _print_table(f"per side ({units} won by the side; {words})",
                     [Col("side"), Col("seats"), Col("strategy", label=True), Col("win rate"), Col(ci), Col(mean),
                      Col(ci)], rows)
    else:
        rows = [[str(r["seat"]), lab(r["strategy"]), fmt_pct(r["win_rate"]), _rate_ci(r, n, seq),
                 fmt_num(r["mean_payout"]), fmt_pm(_half(r, "payout", seq))] for r in summary["seats"]]
        _print_table(f"per seat ({words})",
                     [Col("seat"), Col("strategy", label=True), Col("win rate"), Col(ci), Col(mean), Col(ci)], rows)
    rows = [[lab(r["strategy"]), ",".join(map(str, r["seats"])), fmt_pct(r["win_rate"]),
             _rate_ci(r, n, seq, 1 if sides else len(r["seats"])),
             fmt_num(r["mean_payout"]), fmt_pm(_half(r, "payout", seq))] for r in summary["strategies"]]
    _print_table(f"per strategy ({words}" + ("; win rate: its seats' sides)" if sides else ")"),
                 [Col("strategy", label=True), Col("seats"), Col("win rate"), Col(ci), Col(mean), Col(ci)], rows)
    rows = [[term(r["end_reason"]), f"{r['count']:,}", fmt_pct(r["rate"]),
             _rate_ci({"win_rate": r["rate"], "win_lo": r["lo"], "win_hi": r["hi"]}, n, seq)]
            for r in summary["outcomes"]]
    _print_table("outcomes", [Col("end reason", justify="left"), Col(units), Col("share"), Col(ci)], rows)
    out.print(f"mean turns {summary['mean_turns']:.2f} · truncated {units} {summary['truncated']:,}"
              f" ({fmt_pct(summary.get('truncated_share', float('nan')))}, stopped by a turn cap)", markup=False)
    if shortened:
        out.print("labels omit default parameters (--json and the metadata list them all)", markup=False)
    _print_checked(meta, n, units)


def _print_checked(meta: dict, n: int, units: str) -> None:
    """Under --check, what was checked and how much (a violation stops the run with an error,
    so a result printed is a clean check)."""
    if meta.get("check"):
        out.print(f"checked (--check): the rules' invariants after every action, and every record, of all "
                  f"{n:,} {units}: no violation", markup=False)



_JSON_OUT: list = []      # the real stdout while a --json command runs (handle_errors)


def _print_json(obj) -> None:
    """The --json document on the command's real stdout."""
    f = _JSON_OUT[-1] if _JSON_OUT else sys.stdout
    f.write(_json_dump(obj) + "\n")
    f.flush()


def _json_dump(obj) -> str:
    from cardsim.sim.stats import json_clean
    return json.dumps(json_clean(obj), indent=2, default=_json_scalar)


def _json_scalar(x):
    """numpy scalars (and arrays) in JSON output as plain numbers (lists)."""
    import numpy as np
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not JSON serializable")


PROGRESS_AFTER_S = 2.0      # a run expected to take longer shows its progress bar


class LiveProgress:
    """The progress bar of a long run (stderr): shown once the run has taken PROGRESS_AFTER_S
    or is expected to (its rate so far x what is left), with the rate in the record's unit,
    the ETA and, under --until-ci, the live interval. ``progress(done, total, note)`` is what
    the API calls; ``within_shards`` asks the runner for updates inside long shards too.
    ``clock`` and ``timer`` are for tests (a fake clock, no background timer)."""

    within_shards = True

    def __init__(self, total: int, unit: str = "deals", console: Console | None = None, clock=time.perf_counter,
                 after: float = PROGRESS_AFTER_S, timer: bool = True, what: str = "playing"):
        self.total, self.unit, self.clock, self.after, self.timer = total, unit, clock, after, timer
        self.bar = Progress(TextColumn(f"[bold]{what}"), BarColumn(), TextColumn("{task.completed:,.0f}/{task.total:,.0f}"),
                            TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), TextColumn("{task.fields[note]}"),
                            console=console or err, transient=True, get_time=clock)
        self.task = self.bar.add_task(unit, total=total, rate="-", note="")
        self.started = False
        self.t0 = clock()
        self._lock = threading.Lock()
        self._timer = None

    def __enter__(self):
        self.t0 = self.clock()
        if self.timer:
            self._timer = threading.Timer(self.after, self.start)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc):
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            if self.started:
                self.bar.stop()
        return False

    def start(self) -> None:
        with self._lock:
            if not self.started:
                self.started = True
                self.bar.start()

    def __call__(self, done: int, total: int | None = None, note: str = "") -> None:
        total = self.total if total is None else total
        dt = self.clock() - self.t0
        if not self.started and (dt >= self.after or (done and dt / done * total >= self.after)):
            self.start()
        rate = f"{done / dt:,.0f} {self.unit}/s" if dt > 0 and done else "-"
        self.bar.update(self.task, completed=done, total=total, rate=rate, note=note)


def _progress(total: int, quiet: bool, unit: str = "deals", what: str = "playing"):
    """(context, progress callback): a LiveProgress, or nothing when quiet (--quiet, --json)."""
    if quiet:
        return contextlib.nullcontext(), None
    bar = LiveProgress(total, unit, what=what)
    return bar, bar


UntilCiOpt = Annotated[Optional[float], typer.Option(
    "--until-ci", help="play until the headline 95% half-width is at most this (alpha-spending rule)")]
MaxDealsOpt = Annotated[Optional[int], typer.Option("--max-deals", help="cap for --until-ci (default 100 x --deals)")]
ResumeOpt = Annotated[bool, typer.Option("--resume", help="continue an interrupted run into the same --out")]
OverwriteOpt = Annotated[bool, typer.Option(
    "--overwrite", help="replace an existing --out if it is a previous cardsim output of the same kind "
                        "(anything else is refused)")]
SchedulerOpt = Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler tcp://HOST:PORT")]
ClusterOpt = Annotated[Optional[str], typer.Option("--cluster", help="start a local Dask cluster: local:N")]
WorkersOpt = Annotated[Optional[int], typer.Option("--workers", "-w", help="threads (default: all cores)")]
FirstDealOpt = Annotated[int, typer.Option("--first-deal", help="index of the first deal")]
ShardOpt = Annotated[Optional[int], typer.Option(
    "--shard-size", help="deals per shard (memory, resume and cluster granularity; results do not depend on it)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the summary as JSON")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]


@app.command()
@handle_errors
def run(game: GameArg,
        players: PlayersOpt = None,
        deals: Annotated[int, typer.Option("--deals", "--games", "-n", help="number of records to play: deals, or games, matches or sessions where a record is one (`cardsim games`)")] = 100_000,
        seed: SeedOpt = 0,
        strategy: StrategyOpt = None,
        option: OptionOpt = None,
        preset: PresetOpt = None,
        workers: WorkersOpt = None,
        out_file: Annotated[Optional[str], typer.Option("--out", help="Parquet file, one row per deal (game, match, session)")] = None,
        check: CheckOpt = False,
        first_deal: FirstDealOpt = 0,
        shard_size: ShardOpt = None,
        until_ci: UntilCiOpt = None,
        max_deals: MaxDealsOpt = None,
        resume: ResumeOpt = False,
        overwrite: OverwriteOpt = False,
        scheduler: SchedulerOpt = None,
        cluster: ClusterOpt = None,
        as_json: JsonOpt = False,
        quiet: QuietOpt = False):
    """Play DEALS records and print win rates and payouts with 95% intervals.

    A record is the game's unit: a deal (Tonk, Tripoli), a game of all its hands (Telefunken,
    Contract Rummy), a match (Marafon, reported per side) or a session (Trionfo)."""
    from cardsim import api
    _show(lambda **ui: api.run(game, players=players, deals=deals, strategies=strategy or [], options=option or [],
                               preset=preset, seed=seed, workers=workers, check=check, first_deal=first_deal,
                               until_ci=until_ci, max_deals=max_deals, out=out_file, overwrite=overwrite,
                               keep_records=False, resume=resume, shard_size=shard_size, scheduler=scheduler,
                               cluster=cluster, **ui),
          print_summary, game, deals, until_ci, max_deals, as_json, quiet)


def _print_sequential(summary: dict, meta: dict | None = None) -> None:
    seq = summary.get("sequential")
    if seq:
        state = "reached" if seq["reached"] else "NOT reached (hit --max-deals)"
        units = _units(meta or {"game": ""}, summary["deals"])
        name = seq["headline"]
        if meta and meta.get("game"):                  # labels as the tables show them (non-default parameters)
            name = " - ".join(_label(meta, part) for part in str(name).split(" - "))
        out.print(term(f"precision target ± {seq['target']:g} {state}: {name} {seq['estimate']:+.4f} ± "
                       f"{seq['half_width']:.4g} after {summary['deals']:,} {units} in {seq['looks']} "
                       f"look{'s' if seq['looks'] != 1 else ''} "
                       f"(z = {seq['z']:.3f}, alpha-spending rule; see sim/sequential.py)"), markup=False)


def truncation_line(points: list, units: str = "deals") -> str:
    """How many lineup-deals a turn cap stopped, per point (one figure when all points agree)."""
    if not points or any(p.get("truncated_share") is None for p in points):
        return f"truncated {units}: not recorded"
    shares = {(p["truncated"], fmt_pct(p["truncated_share"])) for p in points}
    if len(shares) == 1:
        (count, share), = shares
        return f"truncated {units} (stopped by a turn cap): {count:,} ({share}) at every point"
    return f"truncated {units} (stopped by a turn cap): " + " · ".join(
        f"point {p['point']} {p['truncated']:,} ({fmt_pct(p['truncated_share'])})" for p in points)


def print_points(summary: dict, meta: dict, timing: dict | None = None) -> None:
    """Table of a comparison or sweep: per point mean, win rate, paired difference (fitted to
    the console: the win rate's interval and se are left out first), then what the figures
    say: a variance reduction below 1, options that changed nothing, a best point on the edge."""
    n = summary["deals"]
    units = _units(meta)
    head = term(f"{meta['kind']} · {meta['game']} · {meta['players']} players · {n:,} duplicate "
                f"{_units(meta, n)} · seed {meta['seed']}" + (f" · field {_label(meta, meta['field'])}"
                                                              if meta.get("field") else " · table rotation"))
    if timing and timing.get("wall_time_s"):
        head += f" · {timing['wall_time_s']:.2f} s"
        if timing.get("deals_per_s"):
            head += f" ({timing['deals_per_s']:,.0f} {units}/s{_compiled(timing)})"
    out.print(head, markup=False)
    seq = summary.get("sequential")
    words, ci = _interval_words(seq, "t")
    sweep = meta["kind"] == "sweep"
    pts = summary["points"]
    rows = []
    for r in pts:
        first = r["point"] == 0
        vr = r.get("variance_reduction")
        rows.append([str(r["point"]), term(r["label"]) if sweep else _label(meta, r["label"]),
                     fmt_num(r["mean_payout"]), fmt_pm(_half(r, "payout", seq)), fmt_pct(r["win_rate"]),
                     "±" + fmt_pct(_half(r, "win", seq)),
                     "-" if first else fmt_num(r["diff"]), "-" if first else fmt_pm(_half(r, "diff", seq)),
                     "-" if first or r.get("diff_se") is None else f"{r['diff_se']:.4f}",
                     "-" if first or vr is None or math.isnan(vr) else f"{vr:.2f}x"])
    _print_table(f"per point ({words}; diff vs point 0 paired on the same {units} and seats)",
                 [Col("point"), Col("label", label=True), Col(_mean_label(meta)), Col(ci),
                  Col("win rate"), Col(ci, optional=True), Col("diff vs point 0"), Col(ci), Col("se", optional=True),
                  Col("variance reduction", short="var. red.")], rows)
    out.print(truncation_line(pts, units), markup=False)
    _print_checked(meta, n, units)
    out.print(f"variance reduction (var. red.) = unpaired variance var(X_c) + var(X_0) over the paired variance "
              f"var(X_c - X_0): how many times more {units} unpaired play would need for the same precision.",
              markup=False)
    for line in point_notes(summary, meta):
        out.print(term(line), markup=False)


def _notice(quiet: bool):
    """The API's first-compile notice as one line on stderr (a terminal or not: a log says why the
    first run waits); None when quiet or under --json."""
    return None if quiet else (lambda line: err.print(line, markup=False))


def _show(call, printer, game, deals, until_ci, max_deals, as_json, quiet):
    """run / compare / sweep: the progress bar round the API call, then its result printed."""
    from cardsim.api import precision_cap
    cap = precision_cap(until_ci, max_deals, deals)
    bar, update = _progress(cap or deals, quiet or as_json, _units({"game": game}))
    with bar:
        result = call(progress=update, notice=_notice(quiet or as_json))
    if as_json:
        _print_json({"summary": result.raw, "meta": result.meta, "timing": result.timing,
                     "path": result.path})
    else:
        printer(result.raw, result.meta, result.timing)
        _print_sequential(result.raw, result.meta)
        if result.path:
            out.print(f"wrote {result.path}", markup=False)


@app.command()
@handle_errors
def compare(game: GameArg,
            strategy: StrategyOpt = None,
            field: Annotated[Optional[str], typer.Option("--field", help="strategy of the other seats (default greedy)")] = None,
            players: PlayersOpt = None,
            deals: Annotated[int, typer.Option("--deals", "--games", "-n", help="duplicate deals (games) to play")] = 100_000,
            seed: SeedOpt = 0,
            option: OptionOpt = None,
            preset: PresetOpt = None,
            workers: WorkersOpt = None,
            out_dir: Annotated[Optional[str], typer.Option("--out", help="Parquet dataset directory (a point-K folder per point)")] = None,
            check: CheckOpt = False,
            first_deal: FirstDealOpt = 0,
            shard_size: ShardOpt = None,
            until_ci: UntilCiOpt = None,
            max_deals: MaxDealsOpt = None,
            resume: ResumeOpt = False,
            overwrite: OverwriteOpt = False,
            scheduler: SchedulerOpt = None,
            cluster: ClusterOpt = None,
            as_json: JsonOpt = False,
            quiet: QuietOpt = False):
    """Compare strategies on duplicate deals, with paired differences.

    Each strategy sits at every seat against the field on the very same cards (or, with one
    strategy per seat and no --field, they rotate round the table)."""
    from cardsim import api
    _show(lambda **ui: api.compare(game, strategy or [], field=field, players=players, deals=deals, options=option or [],
                                   preset=preset, seed=seed, workers=workers, check=check, first_deal=first_deal,
                                   until_ci=until_ci, max_deals=max_deals, out=out_dir, overwrite=overwrite,
                                   keep_records=False, resume=resume, shard_size=shard_size, scheduler=scheduler,
                                   cluster=cluster, **ui),
          print_points, game, deals, until_ci, max_deals, as_json, quiet)


@app.command()
@handle_errors
def sweep(game: GameArg,
          strategy: Annotated[str, typer.Option("--strategy", help="the swept strategy NAME[:fixed=params]")],
          param: Annotated[Optional[list[str]], typer.Option("--param", help="NAME=LO:HI:STEP or NAME=A,B,C (repeatable)")] = None,
          option_grid: Annotated[Optional[list[str]], typer.Option("--option-grid", help="rule option NAME=A,B (repeatable)")] = None,
          field: Annotated[Optional[str], typer.Option("--field", help="strategy of the other seats (default greedy)")] = None,
          players: PlayersOpt = None,
          deals: Annotated[int, typer.Option("--deals", "--games", "-n", help="duplicate deals (games) per point")] = 100_000,
          seed: SeedOpt = 0,
          option: OptionOpt = None,
          preset: PresetOpt = None,
          workers: WorkersOpt = None,
          out_dir: Annotated[Optional[str], typer.Option("--out", help="Parquet dataset directory (a point-K folder per point)")] = None,
          check: CheckOpt = False,
          first_deal: FirstDealOpt = 0,
          shard_size: ShardOpt = None,
          until_ci: UntilCiOpt = None,
          max_deals: MaxDealsOpt = None,
          resume: ResumeOpt = False,
          overwrite: OverwriteOpt = False,
          scheduler: SchedulerOpt = None,
          cluster: ClusterOpt = None,
          as_json: JsonOpt = False,
          quiet: QuietOpt = False):
    """Sweep a grid of strategy parameters (and rule options) on duplicate deals.

    Every point plays the same deals against the same field, seats rotated."""
    from cardsim import api
    _show(lambda **ui: api.sweep(game, strategy, param or [], option_grid=option_grid or [], field=field,
                                 players=players, deals=deals, options=option or [], preset=preset, seed=seed,
                                 workers=workers, check=check, first_deal=first_deal, until_ci=until_ci,
                                 max_deals=max_deals, out=out_dir, overwrite=overwrite, keep_records=False,
                                 resume=resume, shard_size=shard_size, scheduler=scheduler, cluster=cluster, **ui),
          print_points, game, deals, until_ci, max_deals, as_json, quiet)


@app.command()
@handle_errors
def tune(game: GameArg,
         strategy: Annotated[str, typer.Option("--strategy", help="the tuned strategy NAME[:fixed=params]")],
         param: Annotated[Optional[list[str]], typer.Option(
             "--param", help="a tuned parameter NAME=LO:HI (or LO:HI:STEP), within its range (repeatable)")] = None,
         field: Annotated[Optional[str], typer.Option(
             "--field", help="strategy of the other seats (default greedy; with --self the start point, default "
                             "--strategy)")] = None,
         players: PlayersOpt = None,
         budget: Annotated[int, typer.Option("--budget", help="duplicate deals (games) the search may play, per "
                                                              "round")] = 100_000,
         seed: SeedOpt = 0,
         self_play: Annotated[bool, typer.Option(
             "--self", help="iterated best response: each round's field is the previous round's best point")] = False,
         rounds: Annotated[int, typer.Option("--rounds", help="--self: at most this many rounds")] = 6,
         step: Annotated[float, typer.Option(
             "--step", help="--self: the next field moves this share of the way to the best response (1: all "
                            "of it; below 1 damps an iteration that overshoots)")] = 1.0,
         sampler: Annotated[str, typer.Option("--sampler", help="optuna sampler: tpe, cmaes or random")] = "tpe",
         rung: Annotated[Optional[int], typer.Option(
             "--rung", help="deals of a trial's first measurement (default budget/300, at least 100)")] = None,
         eta: Annotated[int, typer.Option("--eta", help="successive halving: keep the top 1/eta, measure eta times "
                                                        "longer")] = 3,
         rungs: Annotated[int, typer.Option("--rungs", help="successive halving: promotions to a full "
                                                            "measurement (rung x eta^rungs deals)")] = 2,
         top: Annotated[int, typer.Option("--top", help="best points re-measured on fresh deals")] = 3,
         remeasure: Annotated[Optional[int], typer.Option(
             "--remeasure", help="fresh deals of the re-measurement (default twice a full measurement)")] = None,
         max_trials: Annotated[int, typer.Option("--max-trials", help="at most this many trials a round")] = 1000,
         option: OptionOpt = None,
         preset: PresetOpt = None,
         workers: WorkersOpt = None,
         out_dir: Annotated[Optional[str], typer.Option(
             "--out", help="directory for evaluations.parquet (every evaluation) and _summary.json")] = None,
         check: CheckOpt = False,
         overwrite: OverwriteOpt = False,
         as_json: JsonOpt = False,
         quiet: QuietOpt = False):
    """Find the parameters of a strategy that maximise its mean payout against a field.

    Trials proposed by optuna (needs the tune extra) are raced by successive halving on
    duplicate deals, seats rotated; the best points are re-measured on fresh deals, and the
    interval printed is the re-measurement's. --self repeats the search against each round's
    winner until nobody in the family beats the field (or a cycle, or --rounds)."""
    from cardsim import api
    from cardsim.sim.tune import make_tune
    cfg = make_tune(game, strategy, param or [], field, players, budget, seed, option, preset, sampler, rung, eta,
                    rungs, top, remeasure, self_play, rounds, max_trials, workers, check, step)   # the bar's total
    total = cfg.budget * (cfg.rounds if cfg.self_play else 1)
    bar, update = _progress(total, quiet or as_json, _units({"game": cfg.game_name}), "tuning")
    t0 = time.perf_counter()
    say = None if as_json else (lambda line: out.print(term(line), markup=False))
    with bar:
        result = api.tune(game, strategy, param or [], field=field, players=players, budget=budget, seed=seed,
                          self_play=self_play, rounds=rounds, step=step, sampler=sampler, rung=rung, eta=eta,
                          rungs=rungs, top=top, remeasure=remeasure, max_trials=max_trials, options=option or [],
                          preset=preset, workers=workers, check=check, out=out_dir, overwrite=overwrite,
                          keep_records=False, say=say, progress=update, notice=_notice(quiet or as_json))
    s = result.raw
    if as_json:
        _print_json({"summary": s, "meta": result.meta, "path": result.path})
        return
    print_tune(s, result.meta, f" · {time.perf_counter() - t0:.1f} s")
    if result.path:
        out.print(f"wrote {result.path}", markup=False)


def tune_summary(path: str) -> tuple[dict, dict] | None:
    """(summary, meta) of a ``tune --out`` folder (``tune_report.load_tune``, which checks it),
    or None where ``path`` is not one (``store.recognise``)."""
    from pathlib import Path

    from cardsim.sim.store import recognise
    from cardsim.sim.tune_report import load_tune
    p = Path(path)
    if not p.is_dir() or recognise(p)[0] != "tune":
        return None
    return load_tune(p)


def print_tune(s: dict, meta: dict, took: str = "") -> None:
    """A tuning's verdict (``tune``, ``summarize`` of a tune folder): how it ended, the best (or
    strong) point with its re-measured interval, edge warnings, the line to paste."""
    unit = _spec(meta).payout_unit if _spec(meta) else "chips"
    one, many = _units(meta, 1), _units(meta)
    remeasure = meta.get("remeasure") or 0
    words = {"single": "", "converged": "converged: nobody in the family beats this field (at this budget)",
             "cycle": "stopped: a cycle (the best point was an earlier round's field)",
             "not_converged": f"NOT converged after {meta.get('rounds')} rounds (--rounds)"}
    self_play = bool(meta.get("self"))
    if s["status"] in ("cycle", "not_converged") and self_play:
        words[s["status"]] += (f"; the strong point is the least exploitable field met (round {s['strong_round']}: its "
                               f"best response gains {s['gain']:+.4f} {unit} a {one} [{s['gain_lo']:+.4f}, "
                               f"{s['gain_hi']:+.4f}])")
    if words.get(s["status"]):
        out.print(words[s["status"]], markup=False)
    took = f"{s['search_deals']:,} search {many}{took}"
    if self_play:
        out.print(term(f"strong point: {s['best']} · the best response found, {s['best_response']}, gains "
                       f"{s['gain']:+.4f} {unit} a {one} against it [{s['gain_lo']:+.4f}, {s['gain_hi']:+.4f}] (95% "
                       f"interval, re-measured on {remeasure:,} fresh {many}) · {took}"), markup=False)
    else:
        out.print(term(f"best: {s['best']} · {s['best_mean']:+.4f} {unit} a {one} against {s['field']} "
                       f"[{s['best_lo']:+.4f}, {s['best_hi']:+.4f}] (95% interval, re-measured on {remeasure:,} "
                       f"fresh {many}); gain over the field {s['gain']:+.4f} [{s['gain_lo']:+.4f}, "
                       f"{s['gain_hi']:+.4f}] · {took}"), markup=False)
    for e in s["edges"]:
        out.print(f"Warning: {e}", markup=False)
    out.print(term(f"paste: --strategy {s['best']}   (or --field {s['best']})"), markup=False)


@app.command()
@handle_errors
def odds(game: GameArg,
         hand: Annotated[Optional[int], typer.Option("--hand", "--deal", help="hand (deal) number whose contract is asked for")] = None,
         cards: Annotated[Optional[int], typer.Option("--cards", "-k", help="cards drawn (default: the dealt holding)")] = None,
         players: Annotated[Optional[int], typer.Option("--players", "-p", help="players, for a game whose pack depends on them (3..5, default 4)")] = None,
         preset: PresetOpt = None,
         samples: Annotated[int, typer.Option("--samples", "-n", help="random holdings to sample")] = 1_000_000,
         seed: SeedOpt = 0,
         workers: WorkersOpt = None,
         as_json: JsonOpt = False):
    """Probability (95% interval) that random cards hold a hand's contract.

    CARDS cards are drawn from the full deck; for Telefunken hand 7 the contract is a group of
    exactly 3 and a run of 7+ (going out is not needed). Contract Rummy (``--deal D --players
    N --preset P``): the pack of that preset and player count, K = the deal's hand size; deal 7
    of contract/liverpool means three runs of all K cards."""
    from cardsim import api
    bar, update = _progress(samples, as_json, "samples", "sampling")
    with bar:
        r = api.odds(game, hand, cards=cards, samples=samples, seed=seed, players=players, preset=preset,
                     workers=workers, progress=update, notice=_notice(as_json))
    if as_json:
        _print_json(r)
    else:
        which = (f"deal {r['deal']} ({r['players']} players, {r['preset']}, {r['pack']}-card pack)"
                 if "deal" in r else f"hand {r['hand']}")
        out.print(f"{r['game']} {which}: P(contract in {r['cards']} random cards) = "
                  f"{fmt_pct(r['probability'])} (95% CI {fmt_pct(r['lo'])} – {fmt_pct(r['hi'])}; "
                  f"{r['hits']:,} of {r['samples']:,} samples, seed {r['seed']})", markup=False)


@app.command()
@handle_errors
def critique(game: GameArg,
             strategy: Annotated[Optional[list[str]], typer.Option(
                 "--strategy", help="the strategy to critique (against --field), or one label per seat (the "
                                    "first is critiqued; the lineup rotates)")] = None,
             field: Annotated[Optional[str], typer.Option("--field", help="strategy of the other seats (default: "
                                                                          "the critiqued one)")] = None,
             players: PlayersOpt = None,
             decisions: Annotated[Optional[int], typer.Option(
                 "--decisions", help="evaluate this many decisions (whole deals; default 1,000 unless --deals)")] = None,
             deals: Annotated[Optional[int], typer.Option("--deals", "--games", "-n",
                                                          help="play this many deals (games, matches) at most")] = None,
             worlds: Annotated[Optional[int], typer.Option(
                 "--worlds", help="worlds (deals of the unseen cards) of the select stage; the measure stage "
                                  "plays as many fresh ones (default 32)")] = None,
             policy: Annotated[str, typer.Option("--policy", help="the built-in strategy of the rollouts")] = "strong",
             infer: Annotated[int, typer.Option(
                 "--infer", help="keep each world of this many deals consistent with the play so far, by how "
                                 "well --policy explains the rivals' actions (0: uniform worlds; the games that have them)")] = 0,
             rate: Annotated[float, typer.Option("--rate", help="share of the decisions evaluated (0..1]")] = 1.0,
             threshold: Annotated[float, typer.Option(
                 "--threshold", help="a blunder: regret above this (in the game's unit) and significant")] = 0.0,
             top: Annotated[int, typer.Option("--top", help="worst decisions shown per kind")] = 3,
             seed: SeedOpt = 0,
             option: OptionOpt = None,
             preset: PresetOpt = None,
             workers: WorkersOpt = None,
             first_deal: FirstDealOpt = 0,
             out_dir: Annotated[Optional[str], typer.Option(
                 "--out", help="directory for the decisions (Parquet), the report and its plot")] = None,
             resume: ResumeOpt = False,
             overwrite: OverwriteOpt = False,
             as_json: JsonOpt = False,
             quiet: QuietOpt = False):
    """Where a strategy loses, decision by decision: regret per decision kind, the worst positions.

    At the critiqued seat's decisions every legal action is valued by the game's no-peeking
    search (worlds of the unseen cards, rollouts with --policy); the regret is the best
    action's value minus the chosen one's, measured on fresh worlds, with 95% intervals."""
    from cardsim import api
    from cardsim.sim.critique import report_lines, summary_json
    bar, progress = _progress(decisions or deals or 1000, quiet or as_json, "decisions" if deals is None else "deals",
                              "critiquing")
    with bar:
        res = api.critique(game, strategy or [], field=field, players=players, decisions=decisions, deals=deals,
                           worlds=worlds, policy=policy, rate=rate, threshold=threshold, top=top,
                           options=option or [], preset=preset, seed=seed, first_deal=first_deal, workers=workers,
                           out=out_dir, overwrite=overwrite, resume=resume, progress=progress,
                           notice=_notice(quiet or as_json), infer=infer)
    if as_json:
        _print_json({"meta": res.meta, **summary_json(res), "path": res.path})
        return
    for line in report_lines(res):
        out.print(term(line), markup=False)
    if res.path:
        out.print(f"decisions and report: {term(res.path)}", markup=False)


@app.command()
@handle_errors
def report(source: Annotated[str, typer.Argument(
               help="a run file (cardsim run --out) or an experiment dataset directory (compare/sweep --out)")],
           out_dir: Annotated[str, typer.Option("--out", help="directory for report.md and its PNG plots")],
           overwrite: OverwriteOpt = False):
    """Markdown report with PNG plots of a run file or an experiment dataset.

    Win rate / mean payout with 95% intervals, sweep curves, payout distribution, outcomes
    (needs the report extra: matplotlib)."""
    from cardsim.sim.report import write_report  # lazy: matplotlib loads only for this command
    if not out_dir.strip():
        raise UsageError("--out is empty; give the report's directory name")
    bar, update = _progress(1, False, "stages", "reporting")     # the records read, then each plot
    with bar:
        path = write_report(source, out_dir, overwrite, progress=update)
    out.print(f"wrote {path}", markup=False)


@app.command()
@handle_errors
def summarize(file: Annotated[str, typer.Argument(
                  help="a Parquet file written by `cardsim run --out`, or a compare/sweep/tune --out directory")],
              as_json: Annotated[bool, typer.Option("--json", help="print the statistics as JSON")] = False):
    """Statistics of a run file (per seat, per strategy, outcomes) or of a compare/sweep dataset
    (per point, with the paired differences), recomputed from its records; a tune folder's
    rounds and verdict, as tune printed them."""
    from pathlib import Path
    tuned = tune_summary(file)
    if tuned is not None:
        s, meta = tuned
        if as_json:
            _print_json({"summary": s, "meta": meta})
            return
        from cardsim.sim.tune import round_line
        spec = _spec(meta)
        for rec in s["rounds"]:
            out.print(term(round_line(rec, spec.payout_unit, spec.record_unit) if spec else str(rec)), markup=False)
        print_tune(s, meta)
        return
    if Path(file).is_dir():
        from cardsim.sim.datasets import summarize_dataset
        result, printer = summarize_dataset(file), print_points
    else:
        from cardsim.sim.runner import summarize_file
        result, printer = summarize_file(file), print_summary
    if as_json:
        _print_json({"summary": result.summary, "meta": result.meta, "timing": result.timing})
    else:
        printer(result.summary, result.meta, result.timing)
        if printer is print_points:
            _print_sequential(result.summary, result.meta)


ReplaySourceArg = Annotated[str, typer.Argument(
    metavar="GAME|FILE",
    help="a game name (see `cardsim games`), or an output to replay a deal of: a run file "
         "(cardsim run --out) or a compare/sweep --out directory; or a game saved by `cardsim play --save`")]


@app.command()
@handle_errors
def replay(game: ReplaySourceArg,
           seed: Annotated[Optional[int], typer.Option(
               "--seed", "-s", help="run seed (default 0); not with a FILE, whose seed is in its metadata")] = None,
           deal: Annotated[Optional[int], typer.Option(
               "--deal", "-d", help="deal index to replay (default 0; with a FILE its first deal)")] = None,
           players: PlayersOpt = None,
           strategy: StrategyOpt = None,
           option: OptionOpt = None,
           preset: PresetOpt = None,
           check: CheckOpt = False,
           point: Annotated[Optional[int], typer.Option(
               "--point", help="compare/sweep dataset: the point (its rows' point column)")] = None,
           lineup: Annotated[Optional[int], typer.Option(
               "--lineup", help="compare/sweep dataset: the lineup (its rows' lineup column)")] = None,
           force: Annotated[bool, typer.Option(
               "--force", help="replay a FILE written under another rules version (warns: not what was played)")] = False,
           until_decision: Annotated[Optional[int], typer.Option(
               "--until-decision", help="stop before the deal's decision K (any seat's, from 0; cardsim critique "
                                        "prints it) and show the view of the seat to act")] = None,
           as_json: Annotated[bool, typer.Option(
               "--json", help="print the deal as one JSON document, one event per action")] = False):
    """Play-by-play of one deal, exactly as the batch run played it.

    replay GAME --seed S --deal N [--players, --strategy, --option, --preset] chooses the table.

    replay FILE --deal N takes it from the metadata of a run file (or, with --point K --lineup L, of a compare/sweep dataset), so the replayed deal is that row; a file written under another rules version is refused unless --force. A name that is both a game and a file is the game (write ./tonk for the file).

    replay FILE of a game saved by `cardsim play --save FILE` prints that game move by move."""
    from cardsim.sim import play as played
    if played.is_play_file(game):           # a game saved by `cardsim play --save`: the file has the table
        res = played.replay_output(game, as_json, seed=seed, deal=deal, players=players, strategy=strategy,
                                   option=option, preset=preset, check=check, point=point, lineup=lineup,
                                   force=force, until_decision=until_decision)
        if as_json:
            _print_json(res)
        else:
            print(res)
        return
    tuned = tune_summary(game)
    if tuned is not None:
        raise UsageError(f"{game!r} is a tune output: its evaluations are of strategy parameters, it records no "
                         f"deals to replay; replay a deal of its best point with `cardsim replay {tuned[1]['game']} "
                         f"--strategy {tuned[0]['best']}` (or summarize/report the folder)")
    from cardsim import api
    doc = api.replay(game, deal, seed=seed, players=players, strategies=strategy or [], options=option or [],
                     preset=preset, check=check, point=point, lineup=lineup, force=force,
                     until_decision=until_decision, warn=lambda w: err.print(f"Warning: {w}", markup=False),
                     notice=_notice(as_json))
    text = doc.pop("text")
    if as_json:
        _print_json(doc)
        return
    for line in text.split("\n"):
        print(line)          # plain text: long lines are not wrapped at the terminal width


@app.command()
@handle_errors
def play(game: GameArg,
         players: PlayersOpt = None,
         strategy: Annotated[Optional[list[str]], typer.Option(
             "--strategy", help="the other seats' strategies (built-in, search or a plug-in FILE.py:NAME): once "
                                "for all of them, or once per other seat in seat order (default greedy)")] = None,
         seat: Annotated[int, typer.Option("--seat", help="your seat, from 0")] = 0,
         seed: Annotated[int, typer.Option("--seed", "-s", help="seed of the cards and the bots' draws")] = 0,
         option: OptionOpt = None,
         preset: PresetOpt = None,
         worlds: Annotated[int, typer.Option("--worlds", help="worlds of the ? hint's evaluation")] = 32,
         critique_worlds: Annotated[int, typer.Option(
             "--critique-worlds", help="worlds per decision of the critique after each deal (0: none)")] = 8,
         save: Annotated[Optional[str], typer.Option(
             "--save", help="save the game to this file (JSON) at its end or on q; `cardsim replay FILE` shows it")] = None,
         overwrite: Annotated[bool, typer.Option(
             "--overwrite", help="replace an existing --save file if it is a saved game (anything else is "
                                 "refused)")] = False):
    """Play one seat in the terminal against built-in, search or plug-in strategies (needs the play extra).

    The screen shows what your seat sees and your legal actions, numbered: type a number to play
    one, ? for a hint (each action's value with its 95% interval, the evaluation of cardsim
    critique), q to quit, Enter to show the screen again. After each deal, your costliest
    decisions and the better action."""
    from cardsim.sim import play as played
    played.start(game, players, strategy, seat, seed, option, preset, worlds, critique_worlds, save, overwrite,
                 notice=_notice(False))


@app.command()
@handle_errors
def warmup(game: Annotated[str, typer.Argument(help="a game name, or all")] = "all",
           jobs: Annotated[Optional[int], typer.Option(
               "--jobs", "-j", help="games compiled at once, each in its own process (default: one per "
                                    "core; 1: in this process)")] = None,
           quiet: QuietOpt = False):
    """Compile GAME's kernels (batch play, replay, search, critique, and odds where it has them) into the numba cache now, with a
    progress bar, so that the first run starts at once (a Dockerfile, a cluster worker image).
    With all, the games compile side by side, one process per core."""
    from cardsim.sim.registry import game_names, get_game
    from cardsim.sim.warm import WarmupError, cache_dir, default_jobs, entries_of, is_compiled, warm, warm_in_processes
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    names = list(game_names()) if game.strip().lower() == "all" else [get_game(game).name]
    steps = [(g, e) for g in names for e in entries_of(g)]
    todo = [g for g in names if not all(is_compiled(g, e) for e in entries_of(g))]   # a cached game loads at once here
    jobs = min(jobs or default_jobs(), len(todo))
    t0 = time.perf_counter()
    bar = Progress(TextColumn("[bold]compiling"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[what]}"),
                   console=err, transient=True, disable=quiet)
    with bar:
        task = bar.add_task("warmup", total=len(steps), what="")
        if jobs > 1:
            bar.update(task, what=f"{len(todo)} games, {jobs} at a time",
                       advance=len(steps) - sum(len(entries_of(g)) for g in todo))
            try:
                warm_in_processes(todo, None, jobs, lambda g, e: bar.advance(task))
            except WarmupError as exc:
                err.print(f"Error: {term(exc)}", markup=False)
                raise typer.Exit(1) from None
        else:
            for g, e in steps:
                bar.update(task, what=f"{g} {e}{' (cached)' if is_compiled(g, e) else ''}")
                warm(g, e)
                bar.advance(task)
    if not quiet:
        out.print(f"{', '.join(names)}: kernels compiled in {time.perf_counter() - t0:.1f} s"
                  f"{f' ({jobs} processes at a time)' if jobs > 1 else ''}, cached in {plain(cache_dir())}",
                  markup=False)


ListJsonOpt = Annotated[bool, typer.Option("--json", help="print the list as JSON")]


def _records(df) -> list[dict]:
    """A listing DataFrame as JSON-ready rows (tuples as lists, NaN as null)."""
    import pandas as pd
    return [{k: (list(v) if isinstance(v, tuple) else (None if not isinstance(v, (list, tuple, str, dict))
                                                      and pd.isna(v) else v)) for k, v in row.items()}
            for row in df.to_dict(orient="records")]


@app.command()
@handle_errors
def games(as_json: ListJsonOpt = False):
    """The games, their player counts and their rules documents (docs/rules/, in the repository)."""
    from cardsim import api
    from cardsim.sim.registry import games as all_games
    if as_json:
        rows = _records(api.games())
        for row, g in zip(rows, all_games().values()):
            row.update(record_unit=g.record_unit[0], payout=g.payout_label, sides=[list(s) for s in g.sides] or None)
        _print_json(rows)
        return
    rows = list(api.games().itertuples())
    t = Table(caption="players: the range (the default); ver: the rules version", caption_justify="left")
    t.add_column("game", no_wrap=True, min_width=max(len(g.game) for g in rows))   # ids and paths whole at
    t.add_column("title", ratio=1, min_width=10)                                   # 80 columns: titles wrap
    t.add_column("players", no_wrap=True)
    t.add_column("rules", no_wrap=True, min_width=max(len(g.rules) for g in rows))
    t.add_column("ver", no_wrap=True, justify="right")
    for g in rows:
        t.add_row(g.game, g.title, f"{g.players_min}-{g.players_max} ({g.players_default})", g.rules,
                  str(g.rules_version))
    out.print(t)


@app.command()
@handle_errors
def strategies(game: GameArg,
               plugin: Annotated[Optional[list[str]], typer.Option(
                   "--plugin", help="also list a plug-in strategy FILE.py:NAME (repeatable; installed entry "
                                    "points of group cardsim.strategies are listed by themselves)")] = None,
               as_json: ListJsonOpt = False):
    """Strategies of GAME with their parameters, defaults, ranges and help."""
    from cardsim import api
    specs = api.strategy_specs(game, plugin or [], warn=lambda w: err.print(f"Warning: {term(w)}", markup=False))
    if as_json:
        _print_json([{"strategy": s.name, "help": s.help,
                      "params": [{"name": p.name, "default": p.default, "lo": p.lo, "hi": p.hi,
                                  "integer": p.integer, "help": p.help,
                                  **({"choices": list(p.choices)} if p.choices else {})} for p in s.params]}
                     for s in specs])
        return
    t = Table()
    for col in ("strategy", "parameters", "help"):
        t.add_column(col, overflow="fold")
    for s in specs:
        params = "\n".join(f"{p.name}={p.show(p.default)} (one of {', '.join(p.choices)}): {p.help}" if p.choices else
                           f"{p.name}={p.default:g} [{p.lo:g}..{p.hi:g}]{' (whole number)' if p.integer else ''}: "
                           f"{p.help}" for p in s.params) or "-"
        t.add_row(s.name, params, s.help)
    out.print(t)


@app.command()
@handle_errors
def options(game: GameArg, as_json: ListJsonOpt = False):
    """Rule options of GAME (names, defaults, help) and its presets.

    The rules they change are in the game's rules document (docs/rules/GAME.md in the
    repository); the section numbers and IDs in the help (3.1, §9.2, A14, C7) refer to it."""
    from cardsim import api
    if as_json:
        from cardsim.sim.options import options_dict
        from cardsim.sim.registry import get_game
        spec = get_game(game)
        defaults = options_dict(spec.options_cls())
        rows = [dict(r, default=defaults.get(r["option"], r["default"])) for r in _records(api.options(game))]
        _print_json({"game": spec.name, "rules": api.rules(game), "options": rows,
                     "presets": api.presets(game)})
        return
    out.print(f"Rules: {api.rules(game)} (the section numbers and IDs in the help, such as 3.1, §9.2 or A14, "
              "refer to it)", markup=False)
    rows = list(api.options(game).itertuples())
    t = Table()                     # option names whole at 80 columns: defaults fold, the help wraps
    t.add_column("option", no_wrap=True, min_width=max(len(f.option) for f in rows))
    t.add_column("default", overflow="fold", max_width=18)
    t.add_column("help", ratio=1)
    for f in rows:
        help_text = f.help + (f" ({' | '.join(f.choices)})" if f.choices else "") + (
            f" [{f.range[0]}..{f.range[1]}]" if f.range else "")
        t.add_row(f.option, _fmt_value(f.default), help_text)
    out.print(t)
    p = Table(title="presets")
    p.add_column("preset", no_wrap=True)
    p.add_column("options", ratio=1)
    for name, values in api.presets(game).items():
        p.add_row(name, ", ".join(f"{k}={_fmt_value(v)}" for k, v in values.items()) or "(all defaults)")
    out.print(p)


@app.command()
@handle_errors
def columns(game: GameArg,
            dataset: Annotated[bool, typer.Option(
                "--dataset", help="the columns of GAME's compare/sweep datasets instead of its run records")] = False,
            as_json: Annotated[bool, typer.Option("--json", help="print the columns as JSON")] = False):
    """The record columns of GAME: name, type and meaning, the codes spelled out.

    {p} stands for a seat, {s} for a side, {h} for a hand, {d} for a deal. The same text is
    in the README's data dictionary and in each Parquet field's metadata (key description)."""
    from cardsim import api
    from cardsim.sim.registry import get_game
    name = get_game(game).name
    df = api.columns(name, dataset)
    if as_json:
        _print_json({"game": name, "kind": "dataset" if dataset else "run",
                     "columns": df.to_dict(orient="records")})
        return
    one = get_game(name).record_unit[0]
    t = Table(title=f"{name} {'compare/sweep dataset rows' if dataset else f'records (one row per {one})'}",
              title_justify="left")
    for col in ("column", "type", "meaning"):
        t.add_column(col, overflow="fold", no_wrap=col != "meaning")
    for r in df.itertuples():
        t.add_row(Text(r.column), r.type, Text(r.description))
    out.print(t)


def _fmt_value(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, tuple):
        return ",".join(map(str, v)) if v else "{}"      # {} is what --option takes for "none"
    return str(v).lower() if isinstance(v, bool) else str(v)


def main():
    app()


if __name__ == "__main__":
    main()
