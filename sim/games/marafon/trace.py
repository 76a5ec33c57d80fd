"""Marafon's play-by-play: the 40-card notation, a replayed match's trace as text and as
structured events (``sim.trace``), a critique action's text, and what a seat sees at a critiqued
decision."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import marafon as K
from cardsim.kernels.tricks import STRENGTH_OF_RANK52, SUIT_NAMES40
from cardsim.sim.games.marafon.records import _payouts
from cardsim.sim.notation import fmt40, fmt40_card, fmt40_mask, parse as parse52  # noqa: F401 - re-exported
from cardsim.sim.trace import event, lines

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


def trace_rows(opts: np.ndarray) -> int:
    return min(TRACE_ROWS_CAP, int(opts[K.O_GAMES]) * (int(opts[K.O_MAX_HANDS]) * 80 + 4) + 16)


def _replay(seed, game_id, opts, sids, params, check, plug=None, pprm=None):
    trace = np.zeros((trace_rows(opts), K.TRACE_W), dtype=np.int64)
    st = K.replay_match(seed, game_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


# ---- critique (issue 40) -----------------------------------------------------------------

def _action_text(code: int) -> str:
    """A critique action code (``kernels.marafon.act_code``: kind and legal action) as text."""
    kind, v = int(K.decision_kind(code)), int(K.act_value(code))
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
