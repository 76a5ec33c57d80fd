"""``cardsim play``: a person plays one seat in a terminal against built-in, plug-in or search
strategies (issue 43).

Everything runs through the step API (``sim.step``), the product's one rules engine: the deal
and every draw are its chance outcomes, drawn with ``numpy``'s ``default_rng(seed)``; the other
seats play as the batch seats them (``StepState.table_action`` at the table's
``sim.step.Table``, on the play stream of ``seed``): a built-in strategy's choice
(``strategy_action``), a plug-in's ``decide`` (its base's where it leaves the decision), a
search's; the person's options are ``legal_actions`` in the game's own words
(``action_string``). The screen is made only of what the person's seat may see: its observation
(``observation_string``, one field a ``·``-separated part, packed into lines of at most 80
columns) and the lines its perfect-recall log gained since the last screen (the others' moves as
the seat saw them; the cards dealt are left out, the hand shows them).

The hint (``?``) is ``action_values`` (the determinized evaluation of ``cardsim critique``):
each legal action's mean payout with a 95 % interval. After each deal (a change of the
observation's deal / hand / game number, or the end) the person's decisions of that deal are
valued the same way, quietly, at ``critique_worlds`` worlds, and the three costliest are shown
with the better action. A game whose adapter does not evaluate yet says so.

The engine (``PlaySession``) is plain Python, testable without a terminal; ``run_terminal`` is
the thin prompt_toolkit layer (the ``play`` extra). A game is saved as a small JSON document
(``PlaySession.document``): the table and every action applied, chance outcomes included;
``cardsim replay FILE`` plays it again through the step API (``replay_lines``).
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import re
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cardsim.sim.errors import UsageError

WIDTH = 80
FORMAT = "cardsim-play"
VERSION = 1
HINTS_SHOWN = 16        # hint lines at most (the best first; one line says what the rest are worth)
MOVES_SHOWN = 8            # the others' moves shown on a screen at most (the latest)
CRITIQUE_TOP = 3
_DEALT = re.compile(r"^(seat \d+|the widow) is dealt ")
_DEAL_KEY = re.compile(r"^(?:deal|hand|game|games) [\d-]+(?: |$)")
_OWN = re.compile(r"^(hand|holding) ")
PLAY_HELP = "a number plays that action · ? hint · q quit · Enter shows the screen again"


def install_hint() -> str:
    return "cardsim play needs prompt_toolkit: pip install 'cardsim[play]'"


def wrap(text: str, width: int = WIDTH, indent: str = "    ") -> list[str]:
    """``text`` as lines of at most ``width`` columns (continuations indented)."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def pack(fields: list[str], width: int = WIDTH, lead: str = "  ") -> list[str]:
    """Fields joined by `` · `` into as few lines of at most ``width`` columns as fit."""
    lines: list[str] = []
    cur = ""
    for f in fields:
        if cur and len(cur) + 3 + len(f) <= width:
            cur += " · " + f
            continue
        if cur:
            lines.append(cur)
        if len(lead) + len(f) <= width:
            cur = lead + f
        else:
            lines.extend(wrap(lead + f, width, lead + "    "))
            cur = ""
    if cur:
        lines.append(cur)
    return lines


def option_pairs(option: list[str] | None) -> dict[str, str]:
    """``["NAME=VALUE", ...]`` (as ``--option`` takes them) -> ``{NAME: VALUE}``."""
    out: dict[str, str] = {}
    for text in option or []:
        name, eq, value = str(text).partition("=")
        if not eq or not name.strip():
            raise UsageError(f"--option {text!r}: write NAME=VALUE (see `cardsim options GAME`)")
        out[name.strip()] = value.strip()
    return out


def _signed(x: float) -> str:
    return f"{x:+.2f}"


class HintError(RuntimeError):
    """The game's evaluation (``action_values``) failed: shown in one line, the game goes on."""


@dataclass
class Decision:
    """One decision of the person: the state before it (a clone), the action taken, its deal."""
    state: object
    action: int
    deal: tuple
    values: list | None = None          # action_values, when computed (a hint, or the critique)
    worlds: int = 0


@dataclass
class PlaySession:
    """One game at one table: ``seat`` is the person's; the others play ``strategies`` (built-in,
    plug-in or search labels)."""
    game: str
    players: int | None = None
    preset: str | None = None
    options: dict = field(default_factory=dict)
    strategies: list = field(default_factory=list)
    seat: int = 0
    seed: int = 0
    worlds: int = 32
    critique_worlds: int = 8
    replaying: bool = False     # a saved game replayed: its bots are only named (``_bots``)

    def __post_init__(self):
        from cardsim.kernels.rng import STREAM_PLAY, seed_stream
        from cardsim.sim.registry import game_names, get_game, short_label
        from cardsim.sim.step import new_game, step_games, whole
        name = str(self.game).strip().lower()
        if name not in game_names():
            raise UsageError(f"unknown game {self.game!r}; games: {', '.join(step_games())}")
        self.game = name
        self.spec = get_game(name)
        if not 0 <= self.seed < 2 ** 63:
            raise UsageError(f"--seed {self.seed} is out of range (0 .. 2**63-1)")
        if self.worlds < 1 or self.critique_worlds < 0:
            raise UsageError("--worlds must be at least 1 (and the critique's worlds at least 0)")
        self.g = new_game(name, self.players, self.preset, self.options)
        self.players = n = self.g.players
        self.seat = whole(self.seat, "seat")
        if not 0 <= self.seat < n:
            raise UsageError(f"--seat {self.seat} is not a seat of this {n}-player game (0..{n - 1})")
        self.labels, self.sids, self.params = self._bots(list(self.strategies or []))
        self.short = ["you" if q == self.seat else short_label(self.spec, lab) for q, lab in enumerate(self.labels)]
        self.rng = np.random.default_rng(self.seed)
        self.gplay = np.zeros(2, np.uint64)
        seed_stream(self.gplay, self.seed, 0, np.int64(STREAM_PLAY))
        self.state = self.g.new_state()
        self.actions: list[int] = []
        self.decisions: list[Decision] = []
        self._seen_lines = 1                      # the log's first line is "seat N"
        self._deal = None
        self.critiqued: set = set()

    # ---- the table ---------------------------------------------------------------------------
    def _bots(self, labels: list[str]):
        """Each seat's label (the person's: ``human``), the kernels' strategy ids and parameters.
        ``--strategy`` once: every other seat; once per other seat; or once per seat (the
        person's entry then must be a strategy too, and is not played). A bot is a built-in
        strategy, a plug-in (``FILE.py:NAME``; one plug-in per table, as in a run) or a search:
        ``table`` (``sim.step.Table``) seats them as the batch does. A replayed file
        (``replaying``) only names its bots: its plug-ins are not loaded (their moves are in it)."""
        from cardsim.sim import plugin as P
        from cardsim.sim.registry import parse_seat, seat_table
        from cardsim.sim.step import Table
        n, me = self.players, self.seat
        if not labels:
            labels = ["greedy"]
        if len(labels) == 1:
            labels = labels * n
        elif len(labels) == n - 1:
            labels = labels[:me] + [labels[0]] + labels[me:]
        elif len(labels) != n:
            raise UsageError(f"{len(labels)} strategies given for the {n - 1} other seats; give one for all of them "
                             f"or one per other seat")
        if self.replaying:
            out = [str(x) for x in labels]
            for q, lab in enumerate(out):
                if q != me and P.split(lab) is None:
                    parse_seat(self.spec, lab)            # a built-in (or installed) strategy: checked
            out[me] = "human"
            self.table = None
            return out, None, None
        seats = seat_table(self.spec, labels, n)
        bots = [s for q, s in enumerate(seats) if q != me]
        seats[me] = next((s for s in bots if not s.plugin and s.strategy.kernel_row is None),
                         parse_seat(self.spec, next(iter(self.spec.strategies))))   # not played: a plain stand-in
        self.table = Table.of(self.spec, seats)
        out = [s.label for s in seats]
        out[me] = "human"
        return out, self.table.sids, self.table.params

    def searching(self) -> list[int]:
        """The bot seats that search (their decisions take a while)."""
        t = self.table
        return [] if t is None else [q for q in range(self.players) if q != self.seat and t.searches(q)]

    def notes(self) -> list[str]:
        """What the person is told before the game: that a search bot thinks a while."""
        seats = self.searching()
        if not seats:
            return []
        who = ", ".join(str(q) for q in seats)
        return wrap(f"seat{'s' if len(seats) > 1 else ''} {who} search{'' if len(seats) > 1 else 'es'} "
                    f"each decision: a move may take a while")

    # ---- playing -----------------------------------------------------------------------------
    def over(self) -> bool:
        return self.state.is_terminal()

    def my_turn(self) -> bool:
        s = self.state
        return not s.is_terminal() and not s.is_chance() and s.current_player() == self.seat

    def _apply(self, a: int) -> None:
        self.state.apply(int(a))
        self.actions.append(int(a))

    def advance(self) -> None:
        """Chance and the other seats play until the person's decision or the end."""
        s = self.state
        while not s.is_terminal():
            if s.is_chance():
                outs = s.chance_outcomes()
                p = np.array([pr for _, pr in outs], np.float64)
                self._apply(outs[int(self.rng.choice(len(outs), p=p / p.sum()))][0])
            elif s.current_player() == self.seat:
                return
            else:
                self._apply(s.table_action(self.table, self.gplay))

    def legal(self) -> list[tuple[int, str]]:
        """The person's legal actions and their words, in ``legal_actions`` order."""
        s = self.state
        return [(a, s.action_string(a)) for a in s.legal_actions()]

    def deal_key(self) -> tuple:
        """The observation's deal / hand / game numbers (a new deal when they change)."""
        parts = self.state.observation_string(self.seat).split(" · ")
        return tuple(p for p in parts if _DEAL_KEY.match(p))

    def choose(self, index: int) -> str:
        """The person plays their ``index``-th legal action (from 1); its words."""
        legal = self.legal()
        if not 1 <= index <= len(legal):
            raise UsageError(f"choose 1 to {len(legal)}")
        a, text = legal[index - 1]
        d = Decision(self.state.clone(), a, self.deal_key())
        pending = getattr(self, "_hinted", None)
        if pending is not None and pending[0] == len(self.actions):
            d.values, d.worlds = pending[1], self.worlds
        self.decisions.append(d)
        self._apply(a)
        return text

    # ---- what the seat sees ------------------------------------------------------------------
    def events(self) -> list[str]:
        """The lines the person's log gained since the last call (the cards dealt left out)."""
        lines = self.state.information_state_string(self.seat).split("\n")
        new = lines[self._seen_lines:]
        self._seen_lines = len(lines)
        return [x for x in new if not _DEALT.match(x)]

    def header(self) -> list[str]:
        """The game and its seats: one line, two where the bots' labels are long (a plug-in's); a
        seat's number and label stay on one line."""
        seats = [f"{q} {lab}" for q, lab in enumerate(self.short)]
        lines = [f"{self.spec.title} · seats {seats[0]}"]
        for text in seats[1:]:
            if len(lines[-1]) + 3 + len(text) <= WIDTH:
                lines[-1] += " · " + text
            else:
                lines.append("    " + text)
        return [x if len(x) <= WIDTH else x[:WIDTH - 3] + "..." for x in lines[:2]]

    def screen(self, events: list[str] | None = None) -> list[str]:
        """The person's screen: the table as their seat sees it, the others' latest moves, the
        legal actions numbered (or the result at the end). Every line at most 80 columns."""
        s = self.state
        out = self.header() + ["-" * WIDTH]
        parts = s.observation_string(self.seat).split(" · ")
        fields = [p for p in parts[1:] if not p.startswith("to act ")]
        own = [p for p in fields if _OWN.match(p)][:1]
        rest = [p for p in fields if p not in own]
        out += pack(rest)
        for p in own:
            out += wrap("  your " + p, WIDTH, "      ")
        if events:
            out.append("-" * WIDTH)
            if len(events) > MOVES_SHOWN:
                out.append(f"  ... {len(events) - MOVES_SHOWN} earlier")
            for e in events[-MOVES_SHOWN:]:
                out += wrap("  " + e, WIDTH, "      ")
        out.append("-" * WIDTH)
        if s.is_terminal():
            out += self.result_lines()
            return out
        if self.my_turn():
            out += action_columns([t for _, t in self.legal()])
        return out

    def result_lines(self) -> list[str]:
        r = self.state.returns()
        return wrap("game over, payouts: " + " · ".join(f"{q} {self.short[q]} {_num(r[q])}" for q in range(self.players)))

    # ---- hint and critique -------------------------------------------------------------------
    def values(self, state, worlds: int, seed: int):
        """``action_values`` of ``state``, or None where the game does not evaluate (yet)."""
        fn = getattr(state, "action_values", None)
        if fn is None:
            return None
        try:
            return fn(worlds=worlds, policy="strong", seed=seed)
        except Exception as exc:        # an adapter's evaluation failing must not end the game
            raise HintError(f"{self.game}'s evaluation failed: {type(exc).__name__}: {exc}") from exc

    def hint(self) -> list[str]:
        """The hint screen: each legal action's value with its 95 % interval, best first."""
        vals = self.values(self.state, self.worlds, self.seed + len(self.actions))
        if vals is None:
            return [f"no hints for {self.game} yet (its step adapter does not evaluate actions)"]
        self._hinted = (len(self.actions), vals)
        legal = self.legal()
        index = {a: i + 1 for i, (a, _) in enumerate(legal)}
        text = dict(legal)
        best = max(v.mean for v in vals)
        lines = [f"hint: each action's value to you in {self._unit()}, 95% interval ({self.worlds} worlds)"[:WIDTH]]
        width = min(40, max(len(text[v.action]) for v in vals))
        ranked = sorted(vals, key=lambda v: (-v.mean, v.action))
        shown = ranked if len(ranked) <= HINTS_SHOWN else ranked[:HINTS_SHOWN - 1]
        for v in shown:
            half = 1.96 * v.se
            mark = "  best" if v.mean == best else ""
            lines.append(f" {index[v.action]:>2}  {text[v.action][:width]:<{width}}  {_signed(v.mean)} ± "
                         f"{half:.2f}{mark}"[:WIDTH])
        if len(shown) < len(ranked):          # a screen's worth: the rest in one line
            rest = ranked[len(shown):]
            lines.append(f"  ... {len(rest)} more, from {_signed(rest[0].mean)} down to {_signed(rest[-1].mean)}"[:WIDTH])
        return lines

    def _unit(self) -> str:
        """What the evaluation's values are (the game's critique value, its first words: chips,
        points of the hand, hand points, stakes, points)."""
        from cardsim.sim.registry import get_game
        value = (get_game(self.game).critique or {}).get("value", "payout")
        return value.split(" (")[0].split(":")[0]

    def finished_deals(self) -> list[tuple]:
        """Deals whose decisions are all made and not critiqued yet (the deal changed, or the end)."""
        now = None if self.over() else self.deal_key()
        keys = list(dict.fromkeys(d.deal for d in self.decisions))
        return [k for k in keys if k != now and k not in self.critiqued]

    def critique(self, deal: tuple) -> list[str]:
        """The person's costliest decisions of ``deal`` (at most 3): the better action and the
        cost with its 95 % interval; [] where the game does not evaluate (yet) or it was off."""
        self.critiqued.add(deal)
        if self.critique_worlds <= 0:
            return []
        rows = []
        for i, d in enumerate(self.decisions):
            if d.deal != deal or len(d.state.legal_actions()) < 2:
                continue
            if d.values is None:
                d.values = self.values(d.state, self.critique_worlds, self.seed + 7919 * (i + 1))
                d.worlds = self.critique_worlds
                if d.values is None:
                    return [f"no critique for {self.game} yet (its step adapter does not evaluate actions)"]
            by = {v.action: v for v in d.values}
            best = max(d.values, key=lambda v: (v.mean, -v.action))
            mine = by.get(d.action)
            if mine is None or best.action == d.action:
                continue
            cost = best.mean - mine.mean
            if cost <= 0:
                continue
            half = 1.96 * math.sqrt(best.se ** 2 + mine.se ** 2)
            rows.append((cost, half, i, d, best))
        name = " ".join(deal) or "the deal"
        if not rows:
            return [f"after {name}: none of your decisions cost anything measurable"]
        rows.sort(key=lambda r: -r[0])
        out = [f"after {name}: your costliest decisions (of {sum(d.deal == deal for d in self.decisions)})"]
        for cost, half, i, d, best in rows[:CRITIQUE_TOP]:
            out += wrap(f"  decision {i + 1}: you chose '{d.state.action_string(d.action)}'; better "
                        f"'{d.state.action_string(best.action)}', cost {cost:.2f} ± {half:.2f}", WIDTH, "      ")
        return out

    # ---- saving ------------------------------------------------------------------------------
    def document(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
                "preset": self.preset, "options": {k: str(v) for k, v in self.options.items()},
                "seat": self.seat, "strategies": self.labels, "seed": self.seed, "actions": self.actions,
                "finished": bool(self.over()), "returns": [float(x) for x in self.state.returns()] if self.over() else None}

    def save(self, path: str) -> None:
        save_document(self.document(), path)


def _num(x: float) -> str:
    return f"{x:+g}" if x else "0"


def action_columns(texts: list[str], width: int = WIDTH) -> list[str]:
    """The actions numbered from 1, in as many columns as fit in ``width``."""
    items = [f"{i + 1:>2}  {t}" for i, t in enumerate(texts)]
    w = max(len(x) for x in items) + 2 if items else 1
    cols = max(1, min(4, width // w)) if w <= width else 1
    rows = math.ceil(len(items) / cols) if items else 0
    if len(items) <= 6:
        cols, rows = 1, len(items)
    out = []
    for r in range(rows):
        row = [items[c * rows + r] for c in range(cols) if c * rows + r < len(items)]
        line = "".join(x.ljust(w) for x in row[:-1]) + row[-1]
        out += wrap(line, width, "      ")
    return out


def check_save_path(path: str, overwrite: bool) -> None:
    p = Path(path)
    if not str(path).strip():
        raise UsageError("--save is empty; give the file to save the game to")
    if p.is_dir():
        raise UsageError(f"--save {path}: is a directory")
    if p.exists() and not overwrite:
        raise UsageError(f"--save {path}: the file exists (give --overwrite to replace a saved play file)")
    if p.exists() and load_document(path, quiet=True) is None:
        raise UsageError(f"--save {path}: the file exists and is not a cardsim play file; not replaced")
    if not p.resolve().parent.is_dir():
        raise UsageError(f"--save {path}: no such directory {str(p.parent)!r}")


def save_document(doc: dict, path: str) -> None:
    """``doc`` written to ``path`` atomically (a temporary file beside it, renamed into place)."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.partial-", dir=str(p.resolve().parent))
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---- replay ------------------------------------------------------------------------------------
def load_document(path: str, quiet: bool = False) -> dict | None:
    """The play document in ``path``, or None where the file is not one (a Parquet file, another
    JSON file, no file): the caller treats it as something else."""
    p = Path(path)
    try:
        if not p.is_file():
            return None
        with open(p, "rb") as f:
            head = f.read(1)
            if head != b"{":
                return None
            doc = json.loads(head + f.read())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == FORMAT else None


def is_play_file(source: str) -> bool:
    from cardsim.sim.registry import game_names
    return str(source).strip().lower() not in game_names() and load_document(source) is not None


def _session_of(doc: dict, path: str) -> PlaySession:
    try:
        labels = [x for q, x in enumerate(doc["strategies"]) if q != doc["seat"]]
        s = PlaySession(doc["game"], doc["players"], doc.get("preset"), dict(doc.get("options") or {}), labels,
                        int(doc["seat"]), int(doc["seed"]), critique_worlds=0, replaying=True)
        actions = [int(a) for a in doc["actions"]]
    except UsageError as exc:
        raise UsageError(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError):
        raise UsageError(f"{path}: not a readable cardsim play file") from None
    s._replay = actions
    return s


def replay_document(path: str) -> dict:
    """The saved game of ``path`` played again through the step API: its events (one per
    decision; the chance outcomes of a stretch in one) and the returns. Refused (UsageError,
    one line) where an action is not legal where the file applies it."""
    doc = load_document(path)
    if doc is None:
        raise UsageError(f"{path}: not a cardsim play file")
    s = _session_of(doc, path)
    st = s.state
    events: list[dict] = []
    chance: list[str] = []
    deal = None
    for k, a in enumerate(s._replay):
        if st.is_terminal() or a not in st.legal_actions():
            raise UsageError(f"{path}: action {k} ({a}) is not legal there; the file does not replay")
        if st.is_chance():
            chance.append(st.action_string(a))
            st.apply(a)
            continue
        if chance:
            events.append({"seat": None, "text": "chance: " + ", ".join(chance)})
            chance = []
        key = tuple(p for p in st.observation_string(s.seat).split(" · ") if _DEAL_KEY.match(p))
        if key != deal:
            deal = key
            events.append({"seat": None, "text": (" ".join(key) or "the deal") + ":\n" + str(st)})
        q = st.current_player()
        events.append({"seat": q, "action": a, "text": f"seat {q} ({s.short[q]}): {st.action_string(a)}"})
        st.apply(a)
    if chance:
        events.append({"seat": None, "text": "chance: " + ", ".join(chance)})
    return {"game": s.game, "players": s.players, "preset": s.preset, "options": s.options, "seat": s.seat,
            "strategies": s.labels, "seed": s.seed, "finished": bool(st.is_terminal()),
            "returns": st.returns() if st.is_terminal() else None, "events": events,
            "result": s.result_lines() if st.is_terminal() else ["the game was not finished"]}


def replay_lines(path: str) -> list[str]:
    """``cardsim replay FILE`` of a play file: the game move by move."""
    r = replay_document(path)
    who = ", ".join(f"seat {q} {lab}" for q, lab in enumerate(r["strategies"]))
    lines = wrap(f"{r['game']} · {r['players']} players · {who} · seed {r['seed']}", WIDTH, "    ")
    for e in r["events"]:
        for i, part in enumerate(e["text"].split("\n")):
            lines += wrap(("  " if i else "") + part, WIDTH, "    ")
    return lines + r["result"]


# ---- the terminal ------------------------------------------------------------------------------
def run_terminal(s: PlaySession, save: str | None = None, echo=print, prompt=None) -> int:
    """The game in a terminal: screens printed as plain lines, input read by prompt_toolkit's
    ``PromptSession`` (``prompt``: a function of the prompt text, for tests). Returns 0."""
    if prompt is None:
        try:
            from prompt_toolkit import PromptSession
        except ImportError:
            raise UsageError(install_hint()) from None
        session = PromptSession()

        def prompt(text):
            return session.prompt(text)

    def show(lines):
        for line in lines:
            echo(line)

    def ask(text):
        try:
            return prompt(text).strip()
        except (EOFError, KeyboardInterrupt):
            return "q"

    def guarded(fn, *args):
        try:
            return fn(*args)
        except HintError as exc:
            return wrap(str(exc)[:2 * WIDTH - 8])

    def saved():
        if save:
            s.save(save)
            echo(f"saved to {save}")
            echo(f"replay it: cardsim replay {save}")

    echo(PLAY_HELP)
    show(s.notes())
    while True:
        s.advance()
        events = s.events()
        for deal in s.finished_deals():
            show(guarded(s.critique, deal))
        show(s.screen(events))
        if s.over():
            saved()
            return 0
        while True:
            answer = ask(f"your move (1-{len(s.legal())}, ?, q)> ")
            if answer == "":
                show(s.screen(events))
            elif answer == "?":
                show(guarded(s.hint))
            elif answer.lower() in ("q", "quit"):
                if save and ask(f"save the game so far to {save}? [y/n]> ").lower().startswith("y"):
                    saved()
                echo("bye")
                return 0
            elif answer.isdigit() and 1 <= int(answer) <= len(s.legal()):
                echo(f"you: {s.choose(int(answer))}")
                break
            else:
                echo(f"type 1 to {len(s.legal())}, ? for a hint, q to quit")


def replay_output(path: str, as_json: bool = False, **given):
    """``cardsim replay FILE`` of a play file: its text (or, ``as_json``, its document). The
    table options of a batch replay (``given``: name -> value) are refused: the file has the table."""
    named = [f"--{k.replace('_', '-')}" for k, v in given.items() if v not in (None, False, [], ())]
    if named:
        raise UsageError(f"{', '.join(named)} cannot be given with a play file ({path}): it holds the whole game")
    if as_json:
        return replay_document(path)
    return "\n".join(replay_lines(path))


def start(game: str, players: int | None = None, strategy: list[str] | None = None, seat: int = 0, seed: int = 0,
          option: list[str] | None = None, preset: str | None = None, worlds: int = 32, critique_worlds: int = 8,
          save: str | None = None, overwrite: bool = False, notice=None) -> int:
    """``cardsim play``: every input checked (UsageError, one line) before the game starts, then
    the game in the terminal (``run_terminal``; a plain line reader where the input is no terminal)."""
    import sys
    s = PlaySession(game, players, preset, option_pairs(option), list(strategy or []), seat, seed, worlds,
                    critique_worlds)
    if save is not None:
        check_save_path(save, overwrite)
    try:
        import prompt_toolkit  # noqa: F401
    except ImportError:
        raise UsageError(install_hint()) from None
    if notice is not None:
        from cardsim.sim.warm import notice as compile_notice
        line = compile_notice(s.game, search=bool(s.searching()))
        for part in wrap(line) if line else []:
            notice(part)
    prompt = None
    if not sys.stdin.isatty():                 # piped input (a script): plain lines, no terminal control

        def prompt(text):
            print(text, end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            print(line.rstrip("\n"))
            return line
    return run_terminal(s, save, prompt=prompt)
