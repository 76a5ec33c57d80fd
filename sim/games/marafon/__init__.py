"""Marafon on the Python side: options, presets, strategies, records and replay events.

Rules: ``docs/rules/marafon.md`` Part A; the kernels are ``kernels/marafon/`` (its
docstring lists the choices made where the spec leaves room) on ``kernels/tricks.py``.

One record row is one **match** (one game by default, ``games_per_match``). Partnerships are
seats 0+2 (side 0) and 1+3 (side 1). ``payout_{p}`` is the match result of seat p's side:
+1 won, -1 lost (0 for both sides if a capped game ended level), so a seat's mean payout is
2 x (its side's win rate) - 1 and the row sums to 0. ``winner`` must name one seat, while two
seats win together: it names the winning side's seat ``side + 2 x (deal_id mod 2)``, i.e.
each partner is credited on alternate matches, so a seat's win rate in the generic tables is
half its side's win rate and the paired comparisons of ``cardsim compare`` stay unbiased;
``win_side`` gives the side itself.

Cards use the 40-card ids of ``kernels.tricks``; ``parse40`` and ``fmt40`` translate the
usual notation (``3C 2C AC KD QH JS 7D 4D``) through ``sim.notation``.

Plug-in strategies (issue 17, ``cardsim.plugin``): a user's numba ``decide`` may take a seat's
trump naming, optional marafona declarations, claims and card play (``cardsim.marafon`` gives
the view layout, the kinds and the legal-action encodings; ``examples/marafon_save_trumps.py``
is a worked example).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.kernels import marafon as K
from cardsim.kernels.tricks import STRENGTH_OF_RANK52, SUIT_NAMES40
from cardsim.sim.errors import UsageError
from cardsim.sim.games.marafon.tools import TOOLS
from cardsim.sim.notation import fmt40, fmt40_card, fmt40_mask, parse as parse52  # noqa: F401 - re-exported
from cardsim.sim.options import check_choice, check_ranges, opt
from cardsim.sim.spec import (Column, GameSpec, ParamSpec, StrategySpec, kernel_fields, plugin_fields, record_fields,
                              search_strategy, tuned, with_defaults)
from cardsim.sim.trace import event, lines

DECLARER = ("any_player", "battitore_only")
SECOND_DEALER = ("four_of_coins_holder", "rotate")
BOTH_REACH = ("extra_hand_cumulative", "extra_hand_points", "higher_total")
CLAIM_TIMING = ("trick_boundaries", "every_card")
TRACE_ROWS_CAP = 2_000_000      # a replay shows at most this many trace rows (96 MB)


# ---- 40-card notation -------------------------------------------------------------------
def parse40(text: str) -> list[int]:
    """``"3C 2C AC 4D"`` -> 40-card ids ``[9, 8, 7, 10]`` (8, 9 and 10 do not exist)."""
    out = []
    for c52 in parse52(text):
        if c52 >= 52 or STRENGTH_OF_RANK52[c52 % 13] < 0:
            raise ValueError(f"not a card of the 40-card Italian deck: {text!r}")
        out.append(10 * (c52 // 13) + STRENGTH_OF_RANK52[c52 % 13])
    return out


def mask40(text: str) -> int:
    m = 0
    for c in parse40(text):
        m |= 1 << c
    return m


# ---- options ----------------------------------------------------------------------------
@dataclass(frozen=True)
class MarafonOptions:
    """Rule options of ``docs/rules/marafon.md`` section C (defaults = the seed's rules)."""
    marafona_trump_only: bool = opt(True, "only the 3-2-A of trumps is a marafona (C1); false: any suit")
    marafona_declarer: str = opt("any_player", "who may declare the marafona (C2)", DECLARER)
    marafona_auto_declare: bool = opt(True, "the engine declares every marafona (C3); false: the strategy decides")
    marafona_points: int = opt(3, "bonus points of a marafona (C4)", lo=0, hi=20)
    first_dealer: str | int = opt("random", "first dealer: random or a seat number 0..3 (C5)")
    second_dealer: str = opt("four_of_coins_holder", "dealer of hand 2 (C6); later the deal passes right",
                             SECOND_DEALER)
    both_reach_target: str = opt("extra_hand_cumulative", "both sides reach the target in one hand (C7)",
                                 BOTH_REACH)
    target_thirds: int = opt(123, "target in thirds (C8): 123 = 41, 93 = 31, 94 = 31 1/3", lo=1, hi=3000)
    claim_timing: str = opt("trick_boundaries", "claim windows (C9)", CLAIM_TIMING)
    claims_enabled: bool = opt(True, "players may claim the game (C11)")
    allow_lead_signals: bool = opt(False, "reserved by the rules (C13); no semantics: only false")
    games_per_match: int = opt(1, "games in a match (C14): 1, or 3 = best of three (a record is a match)",
                               lo=1, hi=99)
    max_hands: int = opt(60, "hand cap per game (not in the rules; flagged truncated)", lo=1, hi=10_000)

    def __post_init__(self):
        check_ranges(self)
        check_choice("marafona_declarer", self.marafona_declarer, DECLARER)
        check_choice("second_dealer", self.second_dealer, SECOND_DEALER)
        check_choice("both_reach_target", self.both_reach_target, BOTH_REACH)
        check_choice("claim_timing", self.claim_timing, CLAIM_TIMING)
        if self.allow_lead_signals:
            raise UsageError("option allow_lead_signals: reserved by the rules without semantics; only false")
        if not isinstance(self.marafona_points, int) or not 0 <= self.marafona_points <= 20:
            raise UsageError(f"option marafona_points: must be 0..20 (got {self.marafona_points!r})")
        if not isinstance(self.target_thirds, int) or not 1 <= self.target_thirds <= 3000:
            raise UsageError(f"option target_thirds: must be 1..3000 (got {self.target_thirds!r})")
        for name, hi in (("games_per_match", 99), ("max_hands", 10_000)):
            v = getattr(self, name)
            if not isinstance(v, int) or not 1 <= v <= hi:
                raise UsageError(f"option {name}: must be a whole number 1..{hi} (got {v!r})")
        if self.first_dealer != "random" and not (isinstance(self.first_dealer, int) and 0 <= self.first_dealer < 4):
            raise UsageError(f"option first_dealer: must be random or a seat number 0..3 (got {self.first_dealer!r})")

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see the table in ``kernels/marafon/``)."""
        if n_players != 4:
            raise UsageError(f"marafon takes 4 players (got {n_players})")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_TRUMP_ONLY] = self.marafona_trump_only
        a[K.O_DECLARER] = DECLARER.index(self.marafona_declarer)
        a[K.O_AUTO_DECLARE] = self.marafona_auto_declare
        a[K.O_MARAF_POINTS] = self.marafona_points
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        a[K.O_SECOND_DEALER] = SECOND_DEALER.index(self.second_dealer)
        a[K.O_BOTH_REACH] = BOTH_REACH.index(self.both_reach_target)
        a[K.O_TARGET] = self.target_thirds
        a[K.O_CLAIM_TIMING] = CLAIM_TIMING.index(self.claim_timing)
        a[K.O_CLAIMS] = self.claims_enabled
        a[K.O_GAMES] = self.games_per_match
        a[K.O_MAX_HANDS] = self.max_hands
        return a


PRESETS = {
    "seed": {},
    "target31": {"target_thirds": 93},
    "target31_third": {"target_thirds": 94},
    "italian": {"marafona_declarer": "battitore_only", "marafona_auto_declare": False,
                "both_reach_target": "extra_hand_points"},
    "best_of_three": {"games_per_match": 3},
    "no_claims": {"claims_enabled": False, "both_reach_target": "higher_total"},
    "any_cricca": {"marafona_trump_only": False, "claim_timing": "every_card", "second_dealer": "rotate"},
}

_MARGIN = ParamSpec("claim_margin", 0.0, 0.0, 30.0, "claim only when the count is this many thirds past the target",
                    integer=True)
_NOISE = ParamSpec("memory_noise", 0.0, 0.0, 12.0, "count off by up to this many thirds (uniform), per window",
                   integer=True)
STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (
        ParamSpec("claim_prob", 0.0, 0.0, 1.0, "chance of a claim at each window (a fuzzer of wrong claims)"),
        ParamSpec("claim_due", 0.0, 0.0, 1.0, "chance of a claim at a window where the side's count has reached "
                                              "the target (a fuzzer of correct claims)"),
    ), "uniformly random trump and legal card; declares optional marafone on a coin toss; the fuzzer "
       "(random:claim_prob=0.0005,claim_due=0.05 reaches every end reason the options allow)"),
    StrategySpec("greedy", K.S_GREEDY, (),
                 "longest-suit trump (the suit of a marafona first); wins each trick with its cheapest winning card, else throws its "
                 "cheapest card; claims exactly when the count reaches the target"),
    StrategySpec("heuristic", K.S_HEURISTIC, (
        _MARGIN, _NOISE,
        ParamSpec("honour_min", 3.0, 0.0, 12.0, "spend the 3 or 2 of trump only on a trick worth this many thirds",
                  integer=True),
        ParamSpec("marafona_weight", 100.0, 0.0, 1000.0,
                  "how much a suit holding the 3-2-A counts more as trump when only the trump cricca scores, in "
                  "trump-score units (10 = one more trump); 100 always names it, 0 ignores it"),
    ), "club player: trump by length and the 3, 2, A (the suit of a marafona first); leads masters of plain suits (counting the "
       "cards played), else low from the longest suit; gives points to a partner who holds the trick "
       "safely; wins cheaply and keeps the 3 and 2 of trump; claims on a noisy count with a margin"),
]
# issue 41: the expert plays as heuristic (its four parameters, strong's values by default) plus
# card-play rules a good player keeps (kernels/marafon/: ``expert_card``)
_HEURISTIC = STRATEGIES[-1].params
_STRONG_START = {"honour_min": 4.0, "marafona_weight": 100.0}
STRATEGIES.append(StrategySpec("expert", K.S_EXPERT, with_defaults(_HEURISTIC, _STRONG_START) + (
    ParamSpec("draw_trumps", 4.0, 1.0, 11.0, "lead trumps while holding at least this many and an opponent may hold "
              "one (the master trump if held, else the lowest); 11 never draws", integer=True),
    ParamSpec("ruff_risk", 0.5, 0.0, 1.0, "a master card on top of a trick stands (a partner's gets points, ours "
              "wins at once) when the chance that the trick's last opponent is void in its suit (1 once shown "
              "void; 0 when it can hold no trump) is at most this; 0: only masters no one can ruff"),
    ParamSpec("bank", 2.0, 0.0, 2.0, "a sure win takes the card of most bank x 10 x thirds - keep cost: 0 the "
              "cheapest winner, 2 an ace before a figure before a scartino (the trump 3 and 2 last)"),
    ParamSpec("clinch", 3.0, 0.0, 123.0, "at most this many thirds short of the target (a trick won lets the side "
              "claim), play a sure trick: lead the richest master (a trump first), follow with the cheapest master "
              "trump that wins (fourth hand: any winner); 0 never", integer=True),
    ParamSpec("plain_first", 1.0, 0.0, 1.0, "1: lead a plain-suit master that counts (the richest) before any "
              "other lead, trumps drawn after it; 0 never", integer=True),
), "heuristic that reads the table (issue 41): draws trumps from length, trusts a master (its partner's: gives "
   "points; its own: wins with it) unless the last opponent is likely void in its suit (the odds from the cards "
   "unseen, the hand sizes and the voids shown), wins a sure trick with its points (an ace first), cashes "
   "counting plain masters first and takes a sure trick at game point"))


def _record_columns(rec: np.ndarray, n: int) -> dict:
    win_side = rec[:, K.RC_WIN_SIDE]
    cols = record_fields(rec, (("dealer", K.RC_DEALER, np.int8), ("end_reason", K.RC_REASON, np.int8),
                               ("winner", K.RC_WINNER, np.int8), ("win_side", K.RC_WIN_SIDE, np.int8),
                               ("turns", K.RC_TRICKS, np.int32), ("hands", K.RC_HANDS, np.int32),
                               ("games", K.RC_GAMES, np.int8), ("claims", K.RC_CLAIMS, np.int8),
                               ("extra_hands", K.RC_EXTRA, np.int32), ("truncated", K.RC_TRUNC, bool)))
    for p in range(n):
        cols[f"payout_{p}"] = np.where(win_side < 0, 0, np.where(win_side == p % 2, 1, -1)).astype(np.int8)
    cols.update(record_fields(rec, (("score_{s}", K.RC_SCORE, np.int32), ("games_won_{s}", K.RC_GAMES_WON, np.int8)),
                              2, each="s"))
    for h in range(1, K.HAND_SLOTS + 1):
        cols.update(record_fields(rec, _HAND_FIELDS, 2, K.RC_HAND + (h - 1) * K.HB_SIZE, each="s", h=h))
    return cols


_HAND_FIELDS = (("h{h}_game", K.HB_GAME, np.int8), ("h{h}_battitore", K.HB_BATT, np.int8),
                ("h{h}_trump", K.HB_TRUMP, np.int8), ("h{h}_holder", K.HB_HOLDER, np.int8),
                ("h{h}_end", K.HB_END, np.int8), ("h{h}_extra", K.HB_EXTRA, bool),
                ("h{h}_pts_{s}", K.HB_PTS, np.int8), ("h{h}_thirds_{s}", K.HB_THIRDS, np.int8),
                ("h{h}_marafone_{s}", K.HB_MARAF, np.int8))


def _unplayed(cols: dict) -> dict:
    """The hand slots after a match's last hand (h > hands): nulls in the written records, not
    zeros that look like a hand (seat 0 battitore, coins trump, a scored hand of 0 points)."""
    hands = cols["hands"]
    return {name.format(h=h, s=s): hands < h for h in range(1, K.HAND_SLOTS + 1)
            for name, _, _ in _HAND_FIELDS for s in (range(2) if "{s}" in name else (0,))}


SUITS = dict(enumerate(SUIT_NAMES40))
HAND_ENDS = {0: "scored", 1: "claim_correct", 2: "claim_wrong"}

# "{p}" = seat, "{s}" = side (0 = seats 0+2, 1 = seats 1+3), "{h}" = hand 1..16 of the match
COLUMNS = [
    Column("deal_id", "int64", "match index in the run; with the seed it replays the match alone"),
    Column("dealer", "int8", "dealer of the first hand (seat 0..3)"),
    Column("end_reason", "category", "how the (last) game of the match ended: target (a side reached the target "
                                     "at a hand's end), claim_correct, claim_wrong (a claim ended it), extra_hand "
                                     "(both sides reached the target: decided by extra hands), higher_total (both "
                                     "reached it: the higher total won), hand_cap (max_hands reached)"),
    Column("winner", "int8", "a seat of the winning side: side + 2 x (deal_id mod 2), partners credited on "
                             "alternate matches; -1 if no side won (capped, level)"),
    Column("win_side", "int8", "side that won the match: 0 = seats 0+2, 1 = seats 1+3, -1 none"),
    Column("turns", "int32", "tricks played in the match"),
    Column("hands", "int32", "hands played in the match (the h{h}_* columns of later hands are null)"),
    Column("games", "int8", "games played in the match"),
    Column("claims", "int8", "claims made (a claim ends its game)"),
    Column("extra_hands", "int32", "extra hands played after both sides reached the target"),
    Column("truncated", "bool", "a game hit the hand cap max_hands"),
    Column("payout_{p}", "int8", "+1 if seat p's side won the match, -1 if it lost (0: capped level game); "
                                 "the row sums to 0"),
    Column("score_{s}", "int32", "final game score of side s (0 = seats 0+2, 1 = seats 1+3) in the last game, "
                                 "in whole points"),
    Column("games_won_{s}", "int8", "games won by side s in the match"),
    Column("h{h}_game", "int8", "game of the match that hand h belongs to (0-based); the h{h}_* columns are null "
                                "for h > hands (not played) and exist for hands 1..16 only"),
    Column("h{h}_battitore", "int8", "seat (0..3) that named trump and led in hand h"),
    Column("h{h}_trump", "int8", "trump suit of hand h", SUITS),
    Column("h{h}_holder", "int8", "seat holding the 3-2-A of trump (the marafona) in hand h, -1 none"),
    Column("h{h}_end", "int8", "how hand h ended", HAND_ENDS),
    Column("h{h}_extra", "bool", "hand h was an extra hand (both sides had reached the target)"),
    Column("h{h}_pts_{s}", "int8", "points side s added to its game score in hand h (card points and marafona "
                                   "bonus; 0 if a claim ended the hand)"),
    Column("h{h}_thirds_{s}", "int8", "thirds of a point side s won in hand h (35 in all for a scored hand, the "
                                      "last trick's 3 included; so far, if a claim ended it)"),
    Column("h{h}_marafone_{s}", "int8", "marafone (3-2-A of a suit) declared by side s in hand h"),
]


def _cards40(mask: int) -> list[str]:
    """A 40-card mask as card strings, by suit, strongest first (as ``fmt40_mask``)."""
    mask = int(mask)
    return [fmt40_card(c) for s in range(4) for c in range(10 * s + 9, 10 * s - 1, -1) if mask >> c & 1]


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The events of a replayed match (``sim.trace``), in the order they happen.

    Actions: ``game`` (a game of the match starts: ``game`` 1-based), ``hand`` (``hand``
    number in the game, ``dealer``, ``battitore``, ``four_coins`` = the seat dealt 4D),
    ``deal`` (a seat's ten ``cards``), ``trump`` (the battitore names ``suit``), ``declare``
    (a marafona: ``suits`` of the 3-2-A declared, ``cards`` their cards), ``play`` (one card),
    ``trick`` (``seat`` = the winner; ``cards`` = the trick in play order, ``thirds`` = its
    value, the last trick's 3 included), ``claim`` (``correct``, the side's ``count`` in
    thirds), ``score`` (the hand's ``points`` per side and the game ``scores``), ``end`` (the
    game's ``reason``, winning ``side`` or None, ``scores``) and one ``result`` per seat (its
    ``side``, ``games`` won by that side, ``payout``).

    ``state`` (every event but ``result``), public facts after the event, per side (side 0 =
    seats 0 and 2, side 1 = seats 1 and 3): ``thirds`` won in this hand (the last trick's 3
    included; a point is 3 thirds), ``tricks`` won in this hand, ``score`` of the game so far
    (whole points), ``games`` won in the match.
    """
    events = []
    thirds, tricks, score, games = [0, 0], [0, 0], [0, 0], [0, 0]
    trick: list[str] = []

    def state():
        return {"thirds": list(thirds), "tricks": list(tricks), "score": list(score), "games": list(games)}

    for code, seat, a, b, c, d in trace[: st[K.TR_LEN]]:
        code, seat, a, b, c, d = (int(x) for x in (code, seat, a, b, c, d))
        who = f"seat {seat} ({seat_names[seat]})" if 0 <= seat < len(seat_names) else ""
        if code == K.T_GAME:
            score = [0, 0]
            events.append(event("game", f"=== game {a + 1}", game=a + 1, state=state()))
        elif code == K.T_HAND:
            thirds, tricks, trick = [0, 0], [0, 0], []
            events.append(event("hand", f"== hand {a}: dealer seat {b}, battitore seat {c} (4D dealt to seat {d})",
                                hand=a, dealer=b, battitore=c, four_coins=d, state=state()))
        elif code == K.T_DEAL:
            events.append(event("deal", f"deal  {who}: {fmt40_mask(a)}", seat, cards=_cards40(a), state=state()))
        elif code == K.T_TRUMP:
            events.append(event("trump", f"trump {SUIT_NAMES40[a]} named by {who}", seat, suit=SUIT_NAMES40[a],
                                state=state()))
        elif code == K.T_DECLARE:
            suits = [SUIT_NAMES40[s] for s in range(4) if a >> s & 1]
            cricche = [fmt40_card(10 * s + k) for s in range(4) if a >> s & 1 for k in (9, 8, 7)]
            events.append(event("declare", f"      {who} declares the marafona ({' '.join(suits)})", seat,
                                suits=suits, cards=cricche, state=state()))
        elif code == K.T_PLAY:
            trick.append(fmt40_card(a))
            events.append(event("play", f"      {who}: {fmt40_card(a)}", seat, cards=[fmt40_card(a)],
                                state=state()))
        elif code == K.T_TRICK:
            thirds = [b, c]
            tricks[seat & 1] += 1
            events.append(event("trick", f"    trick to {who}: {a} thirds (sides {b} / {c})", seat,
                                cards=trick, thirds=a, state=state()))
            trick = []
        elif code == K.T_CLAIM:
            events.append(event("claim", f"claim by {who} on {b} thirds: " + ("correct" if a else "wrong"), seat,
                                correct=bool(a), count=b, state=state()))
        elif code == K.T_SCORE:
            score = [c, d]
            events.append(event("score", f"hand scored: side 0 +{a}, side 1 +{b}; game {c} - {d}",
                                points=[a, b], scores=[c, d], state=state()))
        elif code == K.T_END:
            if b >= 0:
                games[b] += 1
            side = f"side {b} (seats {b} and {b + 2}) wins" if b >= 0 else "no winner"
            events.append(event("end", f"end of game: {K.REASON_NAMES[a]}, {side}; scores {c} - {d}",
                                reason=K.REASON_NAMES[a], side=b if b >= 0 else None, scores=[c, d],
                                state=state()))
    pays = _payouts(st, 4)
    for p in range(4):
        won = int(st[K.GAMES + p % 2])
        events.append(event("result", f"  seat {p}: side {p % 2} games won {won} payout {pays[p]:+d}", p,
                            side=p % 2, games=won, payout=pays[p]))
    return events


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed match: the text of its ``trace_events``."""
    return lines(trace_events(trace, st, seat_names))


def _payouts(st, n):
    g0, g1 = int(st[K.GAMES]), int(st[K.GAMES + 1])
    side = 0 if g0 > g1 else (1 if g1 > g0 else -1)
    return [0 if side < 0 else (1 if p % 2 == side else -1) for p in range(n)]


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: games won within the games played, at most the match's games."""
    games = cols["games"].astype(np.int64)
    for s in range(2):
        bad = np.flatnonzero(cols[f"games_won_{s}"] > games)
        if len(bad):
            return int(bad[0]), f"games_won_{s} exceeds games"
    bad = np.flatnonzero(games > int(opts[K.O_GAMES]))
    if len(bad):
        return int(bad[0]), "more games than games_per_match"
    return None


def trace_rows(opts: np.ndarray) -> int:
    return min(TRACE_ROWS_CAP, int(opts[K.O_GAMES]) * (int(opts[K.O_MAX_HANDS]) * 80 + 4) + 16)


def _replay(seed, game_id, opts, sids, params, check, plug=None, pprm=None):
    trace = np.zeros((trace_rows(opts), K.TRACE_W), dtype=np.int64)
    st = K.replay_match(seed, game_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


# ---- critique (issue 40) -----------------------------------------------------------------

def _action_text(code: int) -> str:
    """A critique action code (``kernels.marafon.act_code``: kind and legal action) as text."""
    kind, v = int(code) >> K.ACT_SHIFT, int(code) & K.ACT_MASK
    if kind == K.K_TRUMP:
        return f"trump {SUIT_NAMES40[v]}"
    if kind == K.K_DECLARE:
        return "declare the marafona" if v else "no declaration"
    if kind == K.K_CLAIM:
        return "claim" if v else "no claim"
    return fmt40_card(v)


def _suits(mask: int) -> str:
    return " ".join(SUIT_NAMES40[s] for s in range(4) if int(mask) >> s & 1)


def _position(st: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued decision (``cardsim critique``'s worst positions): its
    hand, the trump, the scores and the count, the trick on the table, and per other seat the
    public facts (cards held and played, voids shown, cricche declared). Nothing hidden from it."""
    seat = int(seat)
    side = seat % 2
    trump = int(st[K.TRUMP])
    count = [3 * int(st[K.SCORE + s]) + int(st[K.THIRDS + s]) + 3 * int(opts[K.O_MARAF_POINTS]) * int(st[K.MARAF + s])
             for s in range(2)]
    out = [f"seat {seat} (side {side}), game {int(st[K.GAME_NO]) + 1} hand {int(st[K.HAND_NO])}"
           + (" (extra hand)" if st[K.EXTRA] else "") + f", dealer seat {int(st[K.DEALER])}, battitore seat "
           f"{int(st[K.BATT])}, trump " + (SUIT_NAMES40[trump] if trump >= 0 else "not named yet"),
           f"game score {int(st[K.SCORE])} - {int(st[K.SCORE + 1])} (side 0 - side 1), games won "
           f"{int(st[K.GAMES])} - {int(st[K.GAMES + 1])}; the side's count {count[side]} thirds of "
           f"{int(opts[K.O_TARGET])}",
           f"hand: {fmt40_mask(int(st[K.HAND + seat]))}"]
    if trump >= 0:
        out.append(f"this hand: {int(st[K.TRICK_NO])} tricks played, thirds {int(st[K.THIRDS])} - "
                   f"{int(st[K.THIRDS + 1])}, tricks {int(st[K.TRICKS_WON])} - {int(st[K.TRICKS_WON + 1])}, "
                   f"marafone {int(st[K.MARAF])} - {int(st[K.MARAF + 1])}")
        k = int(st[K.NCARDS])
        lead = int(st[K.LEADER])
        if st[K.TRICK_NO] < K.TRICKS:
            out.append("trick on the table: " + (", ".join(f"seat {(lead + i) % 4} {fmt40_card(int(st[K.TRICK + i]))}"
                                                           for i in range(k)) if k else f"empty (seat {lead} leads)"))
    for q in range(4):
        if q == seat:
            continue
        parts = [f"{int(st[K.HAND + q]).bit_count()} cards"]
        if st[K.PLAYED_BY + q]:
            parts.append("played " + fmt40_mask(int(st[K.PLAYED_BY + q])))
        if st[K.VOID + q]:
            parts.append("void in " + _suits(int(st[K.VOID + q])))
        if st[K.DECL + q]:
            parts.append("declared the 3-2-A of " + _suits(int(st[K.DECL + q])))
        out.append(f"seat {q} ({'partner' if q % 2 == side else 'opponent'}): " + ", ".join(parts))
    return out


def _max_rows(opts: np.ndarray, n: int) -> int:
    """Rows of a match at most: per hand the trump, a declaration, ten cards and the claim windows
    (one a trick, four with every_card, and one after each declaration)."""
    windows = (44 if opts[K.O_CLAIM_TIMING] == 1 else 14) if opts[K.O_CLAIMS] else 0
    return min(int(opts[K.O_GAMES]) * int(opts[K.O_MAX_HANDS]) * (12 + windows), 1024)


CRITIQUE = {
    "run": K.critique,
    "max_rows": _max_rows,
    "max_acts": K.MAX_ACTS,
    "state_size": K.ST_SIZE,
    "trace": lambda opts: np.zeros((trace_rows(opts), K.TRACE_W), dtype=np.int64),
    "phase": ("trick", "tricks completed in the hand (0: the trump and trick 1; 10: the window after the last trick)"),
    "detail": ("count", "the seat's side's claim count in thirds (game score x 3 + thirds won in the hand + "
                        "marafone), against the target target_thirds"),
    "action_text": _action_text,
    "position": _position,
    "value": "hand points (the hand's point difference of the seat's side, +- the search's game_weight, 20, for "
             "a game won or lost in the hand)",
}


# issue 41: the self-consistent field of the committed `cardsim tune --self` run of the expert
# family (`python scripts/tools/tune_strong.py marafon`, results/tune/marafon/; tests/test_strong.py checks
# the two agree). Issue 16's strong was heuristic:claim_margin=0,memory_noise=0,honour_min=4,
# marafona_weight=125.6 (at 100 and above the marafona weight plays alike).
STRONG = "expert:claim_margin=0,memory_noise=0,honour_min=4,marafona_weight=100,draw_trumps=4,ruff_risk=0.5,bank=2,clinch=3,plain_first=1"
STRATEGIES.append(tuned(next(s for s in STRATEGIES if s.name == "expert"), STRONG,
                        "`python scripts/tools/tune_strong.py marafon` (results/tune/marafon/)"))
STRATEGIES.append(search_strategy(
    K.S_SEARCH, STRATEGIES, ("strong", "heuristic", "greedy", "random", "expert"), worlds=16, budget=0,
    extra=(ParamSpec("game_weight", 20.0, 0.0, 1000.0, "a game won in a rollout's hand counts this many hand "
                     "points (a game lost: minus); 0 = the hand's points alone"),
           ParamSpec("trump", 0.0, 0.0, 1.0, "1: the battitore names trump by search too (each suit rolled out); "
                     "0: as the rollout policy (default: measured better, results/search/marafon.md)", integer=True)),
    help="determinized Monte Carlo search: at each card it deals the three hidden hands again (hand sizes, "
         "the voids shown, the declared cricche, the battitore's 4D in a game's first hand) and plays every "
         "legal card out to the end of the hand with the rollout policy at every seat; takes the best mean of "
         "the hand's point difference (+- game_weight where the game ends in the hand); claims and "
         "declarations as the policy"))


GAME = GameSpec(
    name="marafon",
    title="Marafon (Beccaccino)",
    rules="docs/rules/marafon.md",
    players=(4, 4, 4),
    options_cls=MarafonOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    unplayed=_unplayed,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K, compile_search=lambda: K.plugged_cfunc()),
    plugin={**plugin_fields(K),
            "kinds": {K.K_TRUMP: "the battitore names trump (legal: the suits 0..3)",
                      K.K_DECLARE: "declare a marafona when declaring is optional (legal: 0 no, 1 yes)",
                      K.K_CLAIM: "a claim window (legal: 0 no claim, 1 claim the game)",
                      K.K_CARD: "play a card (legal: the playable cards' 40-card ids)"},
            "bench": {"builtin": "greedy", "plugin": "examples/marafon_save_trumps.py:save_trumps:min_thirds=0",
                      "players": 4, "other": "heuristic"}},
    state_payouts=_payouts,
    payout_label="match result (+1 won, -1 lost)",
    payout_unit="result points",
    record_unit=("match", "matches"),
    sides=((0, 2), (1, 3)),
    seat_extras=(("hands", "hands"), ("win_side", "win_side")),
    zero_sum=True,
    record_check=_record_check,
    critique=CRITIQUE,
    order=2,
    step=f"{__name__}.step",
    compile_seconds=15,
    search_seconds=25,
    tools=TOOLS,
)
