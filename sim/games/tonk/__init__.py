"""Tonk on the Python side: options, presets, strategies, records and replay events."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.kernels import tonk as K
from cardsim.kernels.cards import POINTS_TEN_CAP
from cardsim.sim.errors import UsageError
from cardsim.sim.games.tonk.tools import TOOLS
from cardsim.sim.notation import fmt_card, fmt_mask, mask_cards
from cardsim.sim.options import check_choice, check_ranges, opt
from cardsim.sim.spec import (Column, GameSpec, ParamSpec, StrategySpec, kernel_fields, plugin_fields, record_fields,
                              search_strategy, tuned, with_defaults)
from cardsim.sim.trace import event, lines, meld_text

MAX_STAKE = 1_000_000     # |payout| <= 3 (n - 1) x stake = 9,000,000: int32 columns
MAX_TURNS = 10_000        # turns (int16) and the replay trace stay small
CAUGHT_BONUS = ("all_others", "above_knocker_only", "none")
DRY_TIE = ("each_tied_collects", "void")


@dataclass(frozen=True)
class TonkOptions:
    """Rule options of ``docs/rules/tonk.md`` (defaults = the seed's rules)."""
    initial_upcard: bool = opt(True, "turn the first discard up at the deal (3.1)")
    deal_tonk_totals: tuple[int, ...] = opt((49, 50), "dealt totals that win 2S at once (3.2): 49,50 or 50")
    tonk_tie_redeal_same_dealer: bool = opt(False, "after two or more deal-tonks the same dealer redeals (3.3)")
    hit_own_spreads_only: bool = opt(False, "a player may hit only his own spreads (4)")
    allow_rediscard_of_taken_card: bool = opt(False, "the card just taken from the pile may be discarded again (5)")
    tonk_out_requires_new_spread: bool = opt(False, "going out by hits alone pays S, not 2S (6.1)")
    caught_lowest_bonus: str = opt("all_others", "who else pays the real lowest when a knocker is caught (6.3)",
                                   CAUGHT_BONUS)
    caught_knocker_also_pays_base: bool = opt(False, "a caught knocker also pays S to each real lowest (6.3)")
    dry_tie_rule: str = opt("each_tied_collects", "ties for lowest when the stock runs dry (6.4)", DRY_TIE)
    max_turns_after_stock_empty: int | None = opt(None, "dry loop guard in turns (6.4); none = 10 x players",
                                                  lo=1, hi=MAX_TURNS)
    must_spread: bool = opt(False, "a player may not keep a spread in hand (8.2)")
    three_aces_exception: bool = opt(True, "under must_spread, aces-only books may be kept (8.2)")
    hit_blocks_drop: bool = opt(False, "a player whose spread was hit may not knock at his next turn (8.4)")
    max_hits_per_turn: int | None = opt(None, "cap on hits per turn (8.5); none = unlimited", lo=0, hi=52)
    discard_pickup_must_be_used: bool = opt(False, "a card taken from the pile must be used that turn (8.6)")
    first_dealer: str | int = opt("random", "first dealer: random (from the seed) or a seat number (2)")
    stake: int = opt(1, "base stake S in chips (1)", lo=1, hi=MAX_STAKE)
    max_turns: int = opt(1000, "hard cap on turns in a hand (settled as dry, flagged truncated)", lo=1, hi=MAX_TURNS)

    def __post_init__(self):
        check_ranges(self)
        if not self.deal_tonk_totals or not set(self.deal_tonk_totals) <= {49, 50}:
            raise UsageError("option deal_tonk_totals: must be 49,50 or 50 or 49 "
                             f"(got {','.join(map(str, self.deal_tonk_totals)) or 'nothing'})")
        object.__setattr__(self, "deal_tonk_totals", tuple(sorted(set(self.deal_tonk_totals))))
        check_choice("caught_lowest_bonus", self.caught_lowest_bonus, CAUGHT_BONUS)
        check_choice("dry_tie_rule", self.dry_tie_rule, DRY_TIE)
        for name in ("max_turns_after_stock_empty", "max_turns", "stake"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 1):
                raise UsageError(f"option {name}: must be a whole number >= 1 (got {v!r})")
        if self.max_hits_per_turn is not None and self.max_hits_per_turn < 0:
            raise UsageError(f"option max_hits_per_turn: must be >= 0 or none (got {self.max_hits_per_turn})")
        if self.first_dealer != "random" and not (isinstance(self.first_dealer, int) and 0 <= self.first_dealer < 4):
            raise UsageError(f"option first_dealer: must be random or a seat number 0..3 (got {self.first_dealer!r})")

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see the table in ``kernels/tonk/``)."""
        if self.first_dealer != "random" and self.first_dealer >= n_players:
            raise UsageError(f"option first_dealer: seat {self.first_dealer} does not exist with {n_players} players")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_PLAYERS] = n_players
        a[K.O_INITIAL_UPCARD] = self.initial_upcard
        a[K.O_DT49] = 49 in self.deal_tonk_totals
        a[K.O_DT50] = 50 in self.deal_tonk_totals
        a[K.O_TIE_SAME_DEALER] = self.tonk_tie_redeal_same_dealer
        a[K.O_HIT_OWN_ONLY] = self.hit_own_spreads_only
        a[K.O_REDISCARD] = self.allow_rediscard_of_taken_card
        a[K.O_TONK_NEW_SPREAD] = self.tonk_out_requires_new_spread
        a[K.O_CAUGHT_BONUS] = CAUGHT_BONUS.index(self.caught_lowest_bonus)
        a[K.O_CAUGHT_PAYS_BASE] = self.caught_knocker_also_pays_base
        a[K.O_DRY_TIE] = DRY_TIE.index(self.dry_tie_rule)
        a[K.O_DRY_CAP] = self.max_turns_after_stock_empty or 10 * n_players
        a[K.O_MUST_SPREAD] = self.must_spread
        a[K.O_ACES_EXC] = self.three_aces_exception
        a[K.O_HIT_BLOCKS] = self.hit_blocks_drop
        a[K.O_MAX_HITS] = -1 if self.max_hits_per_turn is None else self.max_hits_per_turn
        a[K.O_PICKUP_USE] = self.discard_pickup_must_be_used
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        a[K.O_STAKE] = self.stake
        a[K.O_MAX_TURNS] = self.max_turns
        return a


PRESETS = {
    "seed": {},
    "english": {"deal_tonk_totals": (50,), "caught_lowest_bonus": "none"},
    "seed_variants": {"initial_upcard": False, "must_spread": True, "tonk_out_requires_new_spread": True},
    "house": {"hit_blocks_drop": True, "max_hits_per_turn": 1, "discard_pickup_must_be_used": True},
}

_THRESHOLD = ParamSpec("threshold", 8.0, 0.0, 50.0, "knock when the hand counts at most this many points")
_WATCH = (
    _THRESHOLD,
    ParamSpec("decay", 0.5, 0.0, 10.0, "the threshold falls by this much per round played"),
    ParamSpec("wary_cards", 2.0, 0.0, 5.0, "never knock while an opponent holds this many cards or fewer",
              integer=True),
)
STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (), "uniformly random legal action (baseline; knocks at once in most hands)"),
    StrategySpec("greedy", K.S_GREEDY, (),
                 "lays every spread and hit at once, takes the discard only when it completes or "
                 "extends something (with a dry stock also when it lowers the count; it ends a dry hand "
                 "only when no discard does), discards the highest card that helps no spread, never knocks"),
    StrategySpec("knocker", K.S_KNOCKER, (_THRESHOLD,), "greedy, and knocks when its count <= threshold"),
    StrategySpec("watcher", K.S_WATCHER, _WATCH,
                 "knocker that reads the table: lowers its threshold as the hand goes on and does not "
                 "knock into an opponent who is nearly out"),
    StrategySpec("fuzz", K.S_FUZZ, (
        ParamSpec("knock", 0.02, 0.0, 1.0, "chance of knocking at a turn start"),
        ParamSpec("take", 0.3, 0.0, 1.0, "chance of taking the discard instead of drawing from the stock"),
        ParamSpec("end_dry", 0.15, 0.0, 1.0, "stock dry: chance of ending the hand (else the discard is taken)"),
        ParamSpec("meld", 0.8, 0.0, 1.0, "chance of a (uniform) lay or hit when one is legal, else a uniform discard"),
    ), "the fuzzer: random legal actions drawn by kind with these chances; reaches every end reason"),
    StrategySpec("planner", K.S_PLANNER, _WATCH + (
        ParamSpec("dry_end", 0.0, 0.0, 50.0, "stock dry: end the hand at this count or below (above it, take a "
                                             "discard that lowers the count; end only when none does)"),
        ParamSpec("take_low", 0.0, 0.0, 10.0, "take a discard the hand cannot use when it is worth at most this "
                                              "many points and lowers the count (0 = only usable discards)"),
        ParamSpec("hold_spreads", 0.0, 0.0, 1.0, "1: hold spreads back in hand for a tonk out (lay one only when "
                                                 "the whole hand then goes this turn); 0: lay them at once",
                  integer=True),
        ParamSpec("hold_min_stock", 0.0, 0.0, 52.0, "hold spreads only while the stock holds more than this many "
                                                    "cards", integer=True),
    ), "watcher with the study choices of tonk.md §13: the dry-stock end, the discard as a draw source, "
       "holding spreads for a tonk out (all 0: plays as watcher)"),
]
# the expert's defaults (and round 0 of its tune run) are the point where a first tune of the whole
# family converged (from the planner's old tuned knocking with count-aware discards): there
# wary_cards went to 5, which switches the planner's threshold knock off (an opponent always
# holds 5 cards or fewer), so the expert knocks by the odds alone and threshold and decay are
# no longer tuned (they changed no record)
_EXPERT_START = {"threshold": 26.0, "decay": 0.5, "wary_cards": 5.0, "dry_end": 2.0, "take_low": 4.0}
STRATEGIES.append(StrategySpec("expert", K.S_EXPERT, with_defaults(STRATEGIES[-1].params, _EXPERT_START) + (
    ParamSpec("knock_odds", 0.92, 0.0, 1.0, "knock when the chance that no opponent counts as little (its known "
                                           "cards and the rest drawn from the unseen ones) is at least this (1: only "
                                           "knocks that cannot be caught)"),
    ParamSpec("pair_keep", 2.4, 0.0, 100.0, "a discard that breaks a pair counts this many points less for every "
                                            "two unseen cards that would make it a book"),
    ParamSpec("near_keep", 3.0, 0.0, 100.0, "a discard that breaks a possible run counts this many points less for "
                                            "every two unseen cards that would make a run of three"),
    ParamSpec("feed", 13.0, 0.0, 20.0, "a discard that extends a spread on the table or fits a card an opponent "
                                      "took from the pile counts this many points less"),
), "planner that reads the table (issue 41): knocks by the chance of not being caught, discards by count against the "
   "live chances of its pairs and runs (dead ones are dropped), and no discards an opponent can use"))


def _record_columns(rec: np.ndarray, n: int) -> dict:
    return record_fields(rec, (
        ("dealer", K.R_COL_DEALER, np.int8), ("end_reason", K.R_COL_REASON, np.int8),
        ("winner", K.R_COL_WINNER, np.int8), ("knocker", K.R_COL_KNOCKER, np.int8),
        ("turns", K.R_COL_TURNS, np.int16), ("stock_left", K.R_COL_STOCK, np.int8),
        ("redeals", K.R_COL_REDEALS, np.int8), ("truncated", K.R_COL_TRUNC, bool),
        ("payout_{p}", K.R_COL_PAY, np.int32), ("count_{p}", K.R_COL_COUNT, np.int16),
        ("cards_left_{p}", K.R_COL_LEFT, np.int8)), n)


COLUMNS = [
    Column("deal_id", "int64", "deal index in the run; with the seed it replays the deal alone"),
    Column("dealer", "int8", "dealer seat (seat 0..n-1; play starts at dealer + 1)"),
    Column("end_reason", "category", "how the hand ended: deal_tonk (one 49/50 hand at the deal), void_redeal (two "
                                     "or more), tonk_out (hand emptied without a discard: 2S each), hit_out (under "
                                     "tonk_out_requires_new_spread: emptied by hits alone, no new spread that turn: "
                                     "S each), out (emptied by the last discard: S each), knock_won, knock_caught, "
                                     "dry (stock exhausted), turn_cap"),
    Column("winner", "int8", "seat with the unique highest payout, -1 if none (void deal, tie)"),
    Column("knocker", "int8", "seat that knocked, -1 if nobody did"),
    Column("turns", "int16", "turns started in the hand (0 for a deal-tonk or a void deal)"),
    Column("stock_left", "int8", "cards left in the stock at the end"),
    Column("redeals", "int8", "void deals redealt inside this record (tonk_tie_redeal_same_dealer)"),
    Column("truncated", "bool", "a cap ended the hand (dry loop guard, max_turns, redeal cap)"),
    Column("payout_{p}", "int32", "chips won (+) or paid (-) by seat p; each row sums to 0 (at most 3 (n-1) x "
                                  "stake either way; stake is at most 1,000,000)"),
    Column("count_{p}", "int16", "point count of seat p's hand at the end (0 = empty hand)"),
    Column("cards_left_{p}", "int8", "cards in seat p's hand at the end"),
]


def _format_action(a: int) -> str:
    kind = K.action_kind(a)
    name = K.ACTION_NAMES[kind]
    if kind == K.A_LAY:
        return f"lay {fmt_mask(K.action_cards(a))}"
    if kind == K.A_HIT:
        target = "run" if K.action_on_run(a) else "book"
        return f"hit {fmt_card(K.action_card(a))} on seat {K.action_owner(a)}'s {target}"
    if kind == K.A_DISCARD:
        return f"discard {fmt_card(K.action_card(a))}"
    return name.replace("_", " ")


def _cards(mask: int) -> list[str]:
    return [fmt_card(c) for c in mask_cards(mask)]


def _count(mask: int) -> int:
    return sum(int(POINTS_TEN_CAP[c % 13]) for c in mask_cards(mask))


class _Table:
    """What the trace has shown so far: hands, stock size, discard pile, spreads."""

    def __init__(self, n: int):
        self.n = n
        self.hands = [0] * n
        self.stock = 0
        self.pile: list[int] = []
        self.spreads: list[dict] = []        # {"owner", "run", "cards": [card ids in table order]}

    def state(self) -> dict:
        return {"held": [h.bit_count() for h in self.hands], "stock": self.stock,
                "pile": fmt_card(self.pile[-1]) if self.pile else None}

    def lay(self, seat: int, mask: int) -> list[int]:
        cards = mask_cards(mask)
        self.hands[seat] &= ~mask
        run = len({c % 13 for c in cards}) > 1
        self.spreads.append({"owner": seat, "run": run, "cards": cards})
        return cards

    def hit(self, seat: int, card: int, owner: int, on_run: bool) -> list[int] | None:
        """Add ``card`` to the spread of ``owner`` it extends; returns that spread's cards
        before the hit (None if the trace showed no such spread)."""
        self.hands[seat] &= ~(1 << card)
        r, s = card % 13, card // 13
        for want_high in (True, False):                  # a gap card extends the run below it
            for sp in self.spreads:
                if sp["owner"] != owner or sp["run"] != on_run:
                    continue
                cs = sp["cards"]
                if on_run:
                    if cs[0] // 13 != s or not (cs[-1] % 13 + 1 == r if want_high else cs[0] % 13 - 1 == r):
                        continue
                elif cs[0] % 13 != r or len(cs) != 3:
                    continue
                before = list(cs)
                sp["cards"] = sorted(cs + [card])
                return before
        return None


def _action_event(tab: _Table, seat: int, who: str, a: int, drawn: int) -> dict:
    kind = K.action_kind(a)
    if kind == K.A_KNOCK:
        count = _count(tab.hands[seat])
        return event("knock", f"{who}: knocks with {count} point{'' if count == 1 else 's'} ({fmt_mask(tab.hands[seat])})", seat,
                     cards=_cards(tab.hands[seat]), count=count, state=tab.state())
    if kind in (K.A_DRAW_STOCK, K.A_DRAW_DISCARD):
        tab.hands[seat] |= 1 << drawn
        if kind == K.A_DRAW_STOCK:
            tab.stock -= 1
            return event("draw", f"{who}: draws {fmt_card(drawn)} from the stock", seat,
                         cards=[fmt_card(drawn)], state=tab.state())
        if tab.pile:
            tab.pile.pop()
        return event("take discard", f"{who}: takes {fmt_card(drawn)} from the discard pile", seat,
                     cards=[fmt_card(drawn)], state=tab.state())
    if kind == K.A_END_DRY:
        return event("end dry", f"{who}: does not take the discard: the dry hand ends", seat,
                     state=tab.state())
    if kind == K.A_LAY:
        cards = [fmt_card(c) for c in tab.lay(seat, K.action_cards(a))]
        return event("meld", f"{who}: spreads {meld_text(cards)}", seat, cards=cards, melds=[cards],
                     state=tab.state())
    card = K.action_card(a)
    if kind == K.A_HIT:
        owner, on_run = K.action_owner(a), bool(K.action_on_run(a))
        before = tab.hit(seat, card, owner, on_run)
        whose = "own" if owner == seat else f"seat {owner}'s"
        on = f"{meld_text([fmt_card(c) for c in before])} " if before else ""
        return event("lay off", f"{who}: hits {fmt_card(card)} on {on}({whose} {'run' if on_run else 'book'})",
                     seat, cards=[fmt_card(card)], target=[fmt_card(c) for c in before] if before else None,
                     owner=owner, state=tab.state())
    tab.hands[seat] &= ~(1 << card)
    tab.pile.append(card)
    return event("discard", f"{who}: discards {fmt_card(card)}", seat, cards=[fmt_card(card)], state=tab.state())


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The events of a replayed deal (``sim.trace``), in the order they happen.

    Actions: ``hand`` (a deal starts: dealer, redeal number), ``deal`` (a seat's five cards,
    with their ``points``), ``upcard`` (the first discard), ``void`` (two or more deal-tonks:
    cards reshuffled), ``knock`` (the knocker's ``cards`` and ``count``), ``draw`` (from the
    stock), ``take discard`` (the top discard; also the dry-stock take), ``end dry`` (the
    player does not take the discard of a dry stock), ``meld`` (one spread laid, its cards in
    table order: a run by rank, a book by suit), ``lay off`` (a hit: ``cards`` = the card,
    ``target`` = the spread's cards before the hit, ``owner`` = the seat the spread belongs
    to), ``discard``, ``end`` (``reason``, ``winner``, ``truncated``) and one ``result`` per seat
    (the ``cards`` left in hand, the ``count`` the settlement used, the ``payout``).

    ``state`` (every event but ``hand`` and ``result``), public facts after the event:
    ``held`` = cards held per seat, ``stock`` = cards left in the stock, ``pile`` = the top
    discard (None when the pile is empty).

    A hit onto a gap between two runs of one owner and suit (which the kernel's masks do not
    tell apart) is shown on the run below the card.
    """
    n = int(st[K.N])
    tab = _Table(n)
    events = []
    dealer = int(st[K.DEALER])
    deals = 0
    for code, seat, a, b in trace[: int(st[K.TR_LEN])]:
        code, seat, a, b = int(code), int(seat), int(a), int(b)
        who = f"seat {seat} ({seat_names[seat]})" if 0 <= seat < len(seat_names) else ""
        if code == K.T_DEAL:
            if seat == 0:
                tab = _Table(n)
                tab.stock = 52 - 5 * n
                redeal = f" (redeal {deals})" if deals else ""
                events.append(event("hand", f"hand: dealer seat {dealer}, seat {(dealer + 1) % n} plays first{redeal}",
                                    dealer=dealer, redeal=deals))
                deals += 1
            tab.hands[seat] = a
            events.append(event("deal", f"deal  {who}: {fmt_mask(a)}  [{_count(a)} points]", seat,
                                cards=_cards(a), points=_count(a), state=tab.state()))
        elif code == K.T_UPCARD:
            tab.pile.append(a)
            tab.stock -= 1
            events.append(event("upcard", f"upcard {fmt_card(a)}", cards=[fmt_card(a)], state=tab.state()))
        elif code == K.T_VOID:
            events.append(event("void", "two or more deal-tonks: void, cards reshuffled", state=tab.state()))
        elif code == K.T_ACTION:
            e = _action_event(tab, seat, f"      {who}", a, b)
            events.append(e)
        elif code == K.T_END:
            text = f"end: {K.REASON_NAMES[a]}" + (f", winner seat {b}" if b >= 0 else ", no single winner")
            events.append(event("end", text, reason=K.REASON_NAMES[a], winner=b if b >= 0 else None,
                                truncated=bool(st[K.TRUNC]), state=tab.state()))
    for p in range(n):
        hand, count, payout = int(st[K.HAND + p]), int(st[K.COUNT + p]), int(st[K.PAY + p])
        events.append(event("result", f"  seat {p}: hand {fmt_mask(hand)} count {count} payout {payout:+d}", p,
                            cards=_cards(hand), count=count, payout=payout))
    return events


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed deal: the text of its ``trace_events``."""
    return lines(trace_events(trace, st, seat_names))


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: every payout within 3 (n-1) x stake (the row's zero sum is
    checked for every zero-sum game)."""
    bound = 3 * (n - 1) * int(opts[K.O_STAKE])
    for p in range(n):
        bad = np.flatnonzero(np.abs(cols[f"payout_{p}"].astype(np.int64)) > bound)
        if len(bad):
            return int(bad[0]), f"payout_{p} is beyond 3 (n-1) x stake = {bound}"
    return None


def _replay(seed, deal_id, opts, sids, params, check, plug=None, pprm=None):
    trace = np.zeros((64 + 8 * (int(opts[K.O_MAX_TURNS]) + 2), 4), dtype=np.int64)
    st = K.replay_deal(seed, deal_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


def _position(st: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued decision (``cardsim critique``'s worst positions):
    its hand and count, the discard pile, the spreads, every seat's cards held and public takes,
    the stock. Nothing hidden from it."""
    n = int(st[K.N])
    hand = int(st[K.HAND + seat])
    pile = [int(c) for c in st[K.PILE:K.PILE + int(st[K.PILE_LEN])]]
    out = [f"seat {seat}, turn {int(st[K.TURNS])} (dealer seat {int(st[K.DEALER])}), stock {52 - int(st[K.STOCK_PTR])} "
           f"cards",
           f"hand: {fmt_mask(hand)}  [{_count(hand)} points]",
           "discard pile (top last): " + (" ".join(fmt_card(c) for c in pile[-8:]) or "empty")
           + (f"  (+{len(pile) - 8} below)" if len(pile) > 8 else "")]
    for q in range(n):
        books, runs = int(st[K.BOOK + q]), int(st[K.RUN + q])
        known = int(st[K.KNOWN + q]) & (int(st[K.HAND + q]) if q != seat else 0)
        parts = [f"{int(st[K.HAND + q]).bit_count()} cards"]
        if books or runs:
            parts.append("spreads " + fmt_mask(books | runs))
        if known:
            parts.append("took " + fmt_mask(known) + " from the pile")
        if q != seat:
            out.append(f"seat {q}: " + ", ".join(parts))
    return out


CRITIQUE = {
    "run": K.critique,
    "max_rows": lambda opts, n: min(4 * int(opts[K.O_MAX_TURNS]) // n + 64, 512),
    "max_acts": K.MAX_ACTS,
    "state_size": K.ST_SIZE,
    "trace": lambda opts: np.zeros((64 + 8 * (int(opts[K.O_MAX_TURNS]) + 2), 4), dtype=np.int64),
    "phase": ("round", "the round of the deal (turns started / players)"),
    "detail": ("count", "the point count of the seat's hand"),
    "action_text": lambda a: _format_action(int(a)),
    "position": _position,
    "value": "chips (the deal's payout)",
    "worlds": 128,                          # the search's own default: a Tonk rollout is cheap
}


# issue 41: the least exploitable field of the committed `cardsim tune --self` run of the expert
# family (`python scripts/tools/tune_strong.py tonk`, results/tune/tonk/; tests/test_strong.py checks the
# two agree). Issue 16's strong was the planner point planner:threshold=26.174,decay=0.5125,wary_cards=4,
# dry_end=2.077,take_low=5.082 (results/critique/tonk.md compares the two).
STRONG = ("expert:threshold=26,decay=0.5,wary_cards=5,dry_end=2,take_low=3.944,"
          "hold_spreads=0,hold_min_stock=0,knock_odds=0.8936,pair_keep=2.947,near_keep=3.725,feed=14.291")
STRATEGIES.append(tuned(next(s for s in STRATEGIES if s.name == "expert"), STRONG,
                        "`python scripts/tools/tune_strong.py tonk` (results/tune/tonk/)"))
STRATEGIES.append(search_strategy(
    K.S_SEARCH, STRATEGIES, ("strong", "planner", "watcher", "knocker", "greedy", "random", "expert"), worlds=128, budget=0,
    help="determinized Monte Carlo search: at each decision it deals the unseen cards again (other hands, "
         "keeping the cards they took from the discard pile, and the stock) and plays every legal action out "
         "to the end of the deal with the rollout policy at every seat; takes the best mean payout"))


GAME = GameSpec(
    name="tonk",
    title="Tonk (Tunk)",
    rules="docs/rules/tonk.md",
    players=(2, 4, 2),
    options_cls=TonkOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K, err_col=K.R_COL_ERR),
    plugin={**plugin_fields(K),
            "kinds": {K.K_START: "turn start: knock, draw from the stock, take the discard, end a dry hand",
                      K.K_MELD: "lay a spread, hit, or discard"},
            "bench": {"builtin": "knocker:threshold=5", "plugin": "examples/tonk_low_knock.py:low_knock:threshold=5",
                      "players": 3, "other": "greedy"}},
    state_payouts=lambda st, n: [int(st[K.PAY + p]) for p in range(n)],
    zero_sum=True,
    record_check=_record_check,
    critique=CRITIQUE,
    order=0,
    step=f"{__name__}.step",
    compile_seconds=15,
    search_seconds=15,
    tools=TOOLS,
)
