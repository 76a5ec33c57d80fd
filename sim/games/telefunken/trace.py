"""Telefunken's play-by-play: a replayed game's trace as text and as structured events
(``sim.trace``), holdings and melds as text, an action's text, and what a seat sees at a critiqued
decision (``_position``)."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels import telefunken as K
from cardsim.kernels.cards import RANK_NAMES, SUIT_NAMES
from cardsim.sim.games.telefunken.options import TRACE_ROWS_CAP
from cardsim.sim.notation import fmt_card
from cardsim.sim.trace import event, lines


def fmt_holding(p1: int, p2: int, jokers: int, twos: int = 0) -> str:
    """Double-deck holding -> ``7C 7C 9D 2S JK`` (suit then rank, both copies; wild twos,
    then jokers, last)."""
    text = " ".join(holding_cards(p1, p2, jokers, twos))
    return text or "-"


def holding_cards(p1: int, p2: int, jokers: int, twos: int = 0) -> list[str]:
    """The cards of a holding (planes, jokers, wild twos packed 2 bits per suit) as text."""
    p1, p2 = int(p1), int(p2)
    cards = [fmt_card(c) for c in range(52) if p1 >> c & 1 for _ in range(1 + (p2 >> c & 1))]
    return cards + _twos(twos) + ["JK"] * int(jokers)


def _twos(packed: int) -> list[str]:
    """Wild twos of a packed field (2 bits per suit), as text."""
    return [f"2{SUIT_NAMES[s]}" for s in range(4) for _ in range((int(packed) >> (2 * s)) & 3)]


def _pos_name(suit: int, pos: int) -> str:
    return RANK_NAMES[(pos + 12) % 13] + SUIT_NAMES[suit] if 0 <= suit < 4 else f"position {pos}"


def _card(c: int) -> str:
    try:
        return fmt_card(c)
    except ValueError:
        return f"card {c}"


def meld_cards(packed: int, jpos: int, p1: int, p2: int) -> tuple[int, list[str]]:
    """(table index, cards) of a T_MELD row. A run lists its positions low to high, a wild
    card as the card it stands for (``JK(8D)``, a wild two ``2S(8D)``; a run's wild cards are
    shown jokers first, then its twos by suit, in position order: the engine treats the wild
    cards of one meld as interchangeable); a group lists its naturals, then its wild cards."""
    packed, jpos = int(packed), int(jpos)
    i, kind, key, lo, hi, wild, _, twos_code = K.meld_code_fields(packed)
    twos = _twos(twos_code)
    wilds = ["JK"] * (wild - len(twos)) + twos
    if kind == M.MK_GROUP:
        return i, holding_cards(p1, p2, 0) + wilds
    out = []
    for pos in range(lo, hi + 1):
        name = _pos_name(key, pos)
        out.append(f"{wilds.pop(0)}({name})" if jpos >> pos & 1 else name)
    return i, out


class _Table:
    """What the trace says is where: holdings' sizes, stock and pile, table melds."""

    def __init__(self, n: int):
        self.n = n
        self.held = [0] * n
        self.stock = 0
        self.pile: list[str] = []
        self.melds: dict[int, list[str]] = {}

    def state(self) -> dict:
        return {"held": list(self.held), "stock": self.stock, "pile": len(self.pile),
                "top": self.pile[-1] if self.pile else None}


def _format_action(a: int, table: _Table, melds: list, cur_melds: dict) -> tuple[str, str, dict]:
    """(event action, text, extra fields) of a T_ACTION row; ``melds`` = the T_MELD rows that
    follow it (index, cards)."""
    kind = K.action_kind(a)
    f1, f2, f3, f4, f5 = (K.field(a, i) for i in range(1, 6))
    laid = [cards for _, cards in melds]
    if kind in (K.A_GO_DOWN, K.A_MELD, K.A_GO_OUT7):
        name = {K.A_GO_DOWN: "go down", K.A_MELD: "meld", K.A_GO_OUT7: "go out"}[kind]
        new = [cards for i, cards in melds if i not in cur_melds]
        text = name + ": " + " + ".join(" ".join(m) for m in new)
        extra = {"melds": new}
        if kind == K.A_GO_DOWN and f1:
            old = cur_melds.get(f1 - 1, [])
            now = next((cards for i, cards in melds if i == f1 - 1), old)
            text += f" (exchanging {_card(f2)} for the joker of {' '.join(old)})"
            extra["exchange"] = {"card": _card(f2), "target": old, "result": now}
        return "meld", text, extra
    target = cur_melds.get(f2 if kind in (K.A_LAYOFF, K.A_SHIFT, K.A_TAKE_WILD) else f1, [])
    after = laid[0] if laid else []
    if kind == K.A_LAYOFF:
        return "lay off", f"lay off {_card(f1)} on {' '.join(target)}", {"cards": [_card(f1)], "target": target,
                                                                         "result": after}
    if kind == K.A_SHIFT:
        return "shift joker", f"shift joker: {_card(f1)} into {' '.join(target)}, now {' '.join(after)}", \
            {"cards": [_card(f1)], "target": target, "result": after}
    if kind == K.A_RETRIEVE:
        cards = [_card(f2)] + ([_card(f3 - 1)] if f3 else [])
        return "retrieve joker", f"retrieve a wild card from {' '.join(target)} with {' '.join(cards)}", \
            {"cards": cards, "target": target, "result": after}
    if kind == K.A_TAKE_WILD:
        return "take back wild", f"take back the wild card of {' '.join(target)} with {_card(f1)}", \
            {"cards": [_card(f1)], "target": target, "result": after}
    if kind in (K.A_DISCARD, K.A_EX_CARD):
        return ("discard" if kind == K.A_DISCARD else "pass card"), \
            f"{K.ACTION_NAMES[kind]} {_card(f1)}", {"cards": [_card(f1)]}
    if kind == K.A_BUY:
        return "buy", f"buy {table.pile[-1] if table.pile else '?'}", {"cards": table.pile[-1:]}
    if kind == K.A_CHOOSE:
        return "choose contract", f"choose contract {f1}", {"contract": f1}
    if kind == K.A_DRAW:
        return "decline discard", "draw", {}                 # the stock card follows as a draw event
    if kind == K.A_TAKE_UPCARD:
        return "take upcard", "take upcard", {}              # the card follows as a take-discard event
    name = K.ACTION_NAMES[kind] if 0 <= kind < len(K.ACTION_NAMES) else f"action {kind}"
    return name, name, {}


def _group_rows(trace: np.ndarray, n_rows: int) -> list:
    """Trace rows, each with the T_MELD rows that follow it."""
    groups = []
    for row in trace[:n_rows]:
        row = [int(x) for x in row]
        if row[0] == K.T_MELD and groups:
            groups[-1][1].append(meld_cards(row[2], row[3], row[4], row[5]))
        else:
            groups.append((row, []))
    return groups


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The replayed game as events (sim.trace). ``state`` after each: ``held`` (cards per
    seat), ``stock`` and ``pile`` (cards in them) and ``top`` (the top discard)."""
    n = int(st[K.N])
    table = _Table(n)
    events = []
    for (code, seat, a, b, c, d), melds in _group_rows(trace, int(st[K.TR_LEN])):
        who = f"seat {seat} ({seat_names[seat]})" if 0 <= seat < len(seat_names) else ""
        ev = _trace_event(table, code, seat, a, b, c, d, melds, who)
        for i, cards in melds:
            table.melds[i] = cards
        if ev is not None:
            ev["state"] = table.state()
            events.append(ev)
    for p in range(n):
        events.append(event("result", f"  seat {p}: total {int(st[K.TOTAL + p])} score {-int(st[K.TOTAL + p]):+d} "
                                      f"chips {int(st[K.CHIPS + p])} buys {int(st[K.GBUYS + p])}", p,
                            total=int(st[K.TOTAL + p]), chips=int(st[K.CHIPS + p]), buys=int(st[K.GBUYS + p])))
    return events


def _trace_event(table: _Table, code, seat, a, b, c, d, melds, who):
    """One event of a trace row (None for rows that only update the table)."""
    if code == K.T_HAND:
        table.melds.clear()
        table.pile.clear()
        table.held = [0] * table.n
        table.stock = K.DECK_SIZE
        return event("hand", f"== hand {a}: dealer seat {b}", None, hand=a, dealer=b, contract=c)
    if code == K.T_CUT:
        return event("cut", f"cut by {who}: bottom portion {a}, jokers kept {b}" + (", exact" if c else ""),
                     seat, bottom=a, kept=b, exact=bool(c))
    if code in (K.T_DEAL, K.T_EXCHANGE):
        cards = holding_cards(a, b, c, d)
        if code == K.T_DEAL:
            table.stock -= len(cards)
        table.held[seat] = len(cards)
        name = "deal" if code == K.T_DEAL else "exchange"
        text = f"deal  {who}: " if code == K.T_DEAL else f"after the exchange {who}: "
        return event(name, text + (" ".join(cards) or "-"), seat, cards=cards)
    if code == K.T_UPCARD:
        table.stock -= 1
        table.pile.append(_card(a))
        return event("upcard", f"upcard {_card(a)}", None, cards=[_card(a)])
    if code == K.T_ACTION:
        return _action_event(table, seat, a, c, melds, who)
    if code in (K.T_DRAW, K.T_TAKE):
        if code == K.T_DRAW:
            table.stock -= 1
        else:
            table.pile.pop()
        table.held[seat] += 1
        verb = "draws" if code == K.T_DRAW else "takes the discard"
        return event("draw" if code == K.T_DRAW else "take discard", f"        {who} {verb} {_card(a)}", seat,
                     cards=[_card(a)])
    if code == K.T_RESHUFFLE:
        keep = len(table.pile) - a                  # 1 when the top discard stays (A20)
        table.pile = table.pile[-keep:] if keep > 0 else []
        table.stock = a
        return event("reshuffle", f"reshuffle: {a} cards in the new stock", None, cards_in_stock=a)
    if code == K.T_END:
        reason = K.HAND_REASONS[a] if 0 <= a < len(K.HAND_REASONS) else f"reason {a}"
        return event("end", f"end of hand: {reason}" + (f", seat {b} went out" if b >= 0 else ""), None,
                     reason=reason, out=b if b >= 0 else None)
    if code == K.T_SCORE:
        return event("score", f"  {who}: penalty {a}, total {b}", seat, penalty=a, total=b)
    return event("unknown", f"(trace code {code}: {seat} {a} {b} {c})", seat)


def _action_event(table: _Table, seat, a, chips, melds, who):
    action, text, extra = _format_action(a, table, melds, table.melds)
    kind = K.action_kind(a)
    if kind == K.A_BUY and table.pile:
        table.pile.pop()
        table.held[seat] += 1
    elif kind in (K.A_DISCARD, K.A_EX_CARD):
        table.held[seat] -= 1
        if kind == K.A_DISCARD:
            table.pile.append(extra["cards"][0])
    elif kind in (K.A_GO_DOWN, K.A_MELD, K.A_GO_OUT7, K.A_LAYOFF, K.A_SHIFT, K.A_RETRIEVE, K.A_TAKE_WILD):
        before = sum(len(table.melds.get(i, [])) for i, _ in melds)
        table.held[seat] -= sum(len(cards) for _, cards in melds) - before
    return event(action, f"      {who}: {text}  [chips {chips}]", seat, chips=chips, **extra)


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed game (the text of trace_events)."""
    return lines(trace_events(trace, st, seat_names))


def trace_rows(opts: np.ndarray) -> int:
    return min(TRACE_ROWS_CAP, int(opts[K.O_HANDS]) * (int(opts[K.O_MAX_TURNS]) * 16 + 200))


def _replay(seed, game_id, opts, sids, params, check, plug=None, pprm=None):
    trace = np.zeros((trace_rows(opts), K.TRACE_WIDTH), dtype=np.int64)
    st = K.replay_game(seed, game_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


# ---- critique (issue 40) ----------------------------------------------------------------------

def _action_text(a: int) -> str:
    """A kernel action code in words, without the table's context (``cardsim critique``'s
    actions; melds are named by their index on the table, as the position lists them)."""
    a = int(a)
    if a >> 48 == K.CUT_CODE >> 48:
        return f"cut aimed at a bottom portion of {a & 0xFFFF}"
    if a >> 48 == K.KEEP_CODE >> 48:
        k = a & 0xFFFF
        return f"keep {k} inspected joker{'' if k == 1 else 's'}"
    kind = K.action_kind(a)
    f1, f2, f3, f4, f5 = (K.field(a, i) for i in range(1, 6))
    if kind == K.A_GO_DOWN:
        text = "go down" + (f" (alternative contract {f3})" if f3 else "")
        return text + (f", giving {_card(f2)} for the joker of meld {f1 - 1}" if f1 else "")
    if kind == K.A_MELD:
        if f1 == M.MK_GROUP:
            if f2 == M.WILD_TRIO_RANK:
                return "meld a trio of three wild cards"
            return f"meld a group of {RANK_NAMES[f2]}s" + (f" with {f3} wild card{'s' if f3 > 1 else ''}" if f3 else "")
        text = f"meld a run {_pos_name(f2, f3)}-{_pos_name(f2, f4)}"
        if f5 == K.RUN_FILL:
            return text + " (wild cards in its gaps)"
        return text + (f" (a wild card as {_pos_name(f2, f5)})" if f5 else "")
    if kind == K.A_LAYOFF:
        return f"lay off {_card(f1)} on meld {f2}" + (f" (position {f3})" if f3 else "")
    if kind == K.A_SHIFT:
        return f"put {_card(f1)} in meld {f2}, its joker to position {f3}"
    if kind == K.A_RETRIEVE:
        return f"retrieve the wild card of meld {f1} with {_card(f2)}" + (f" and {_card(f3 - 1)}" if f3 else "")
    if kind == K.A_TAKE_WILD:
        return f"take back the wild card of meld {f2} with {_card(f1)}"
    if kind == K.A_GO_OUT7:
        return "go out (lay the whole holding)"
    if kind in (K.A_DISCARD, K.A_EX_CARD):
        return f"{K.ACTION_NAMES[kind]} {_card(f1)}"
    if kind == K.A_CHOOSE:
        return f"choose contract {f1}"
    return K.ACTION_NAMES[kind] if 0 < kind < len(K.ACTION_NAMES) else f"action {a}"


def _contract_text(opts: np.ndarray, row: int) -> str:
    """Contracts-table row ``row`` (and its alternatives) as the ``contracts`` option writes it."""
    out = []
    while row:
        c = opts[K.O_CONTRACTS + row * K.C_STRIDE:K.O_CONTRACTS + (row + 1) * K.C_STRIDE]
        melds = [f"{int(c[M.C_GROUP_SIZE])}{'p' if i < int(c[M.C_PURE]) else ''}" for i in range(int(c[M.C_GROUPS]))]
        melds += [f"r{int(c[M.C_RUN_MIN])}"] * int(c[M.C_RUNS])
        out.append("+".join(melds))
        row = int(c[M.C_NEXT])
    return "|".join(out)


def _points(opts: np.ndarray, p1: int, p2: int, jokers: int, twos: int) -> int:
    rules = opts[K.O_RULES:]
    nat = sum(int(rules[M.R_POINTS + c % 13]) * ((p1 >> c & 1) + (p2 >> c & 1)) for c in range(52))
    return nat + jokers * int(rules[M.R_JOKER_POINTS]) + len(_twos(twos)) * int(rules[M.R_POINTS + 1])


def _position(snap: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued decision (``cardsim critique``'s worst positions;
    ``snap``: the kernel's SNAP_* snapshot, the state then the table): the hand and its
    contract, its own holding, the discard pile, the melds on the table, every seat's cards
    held, going down, chips, totals and the copies it is known to hold (taken from the pile);
    at a cut, the cutter's inspected cards. Never another holding, the stock or the cards
    others passed in an exchange."""
    st = [int(x) for x in snap[:K.ST_SIZE]]
    tab = np.asarray(snap[K.SNAP_TAB:K.SNAP_CUT], dtype=np.int64).reshape(K.MAX_MELDS, K.TW)
    n, h, dealer = st[K.N], st[K.HNO], st[K.DEALER]
    head = f"hand {h} of {int(opts[K.O_HANDS])}, contract {_contract_text(opts, st[K.CONTRACT])}, dealer seat {dealer}"
    seats = [f"seat {q}{' (you)' if q == seat else ''}: chips {st[K.CHIPS + q]}, total {st[K.TOTAL + q]}"
             for q in range(n)]
    cut = int(snap[K.SNAP_CUT])
    if cut:
        out = [head + f"; seat {seat} cuts before the deal (the rules' aim {int(opts[K.O_CUT_AIM])} +- "
                      f"{int(opts[K.O_CUT_SPREAD])}: an exact cut leaves the dealt cards"
                      + (" and the upcard" if not opts[K.O_DEALER_OPENS] else "") + " in the bottom portion)"]
        if cut == 2:
            insp = [_card(int(c)) for c in snap[K.SNAP_INSPECT:K.SNAP_INSPECT + 3]]
            out.append("inspected (lowest three of the top portion): " + " ".join(insp))
        return out + seats
    own = holding_cards(st[K.H1 + seat], st[K.H2 + seat], st[K.HJ + seat], st[K.HT + seat])
    pts = _points(opts, st[K.H1 + seat], st[K.H2 + seat], st[K.HJ + seat], st[K.HT + seat])
    pile = [_card(c) for c in st[K.PILE:K.PILE + st[K.PILE_LEN]]]
    out = [head + f", turn {st[K.TURN]}; stock {st[K.STOCK_HI] - st[K.STOCK_LO]} cards",
           f"holding: {' '.join(own) or '-'}  [{len(own)} cards, {pts} points]",
           "discard pile (top last): " + (" ".join(pile[-8:]) or "empty")
           + (f"  (+{len(pile) - 8} below)" if len(pile) > 8 else "")]
    ph = st[K.PHASE]
    if ph == K.P_BUY:
        out.append(f"on offer: {_card(st[K.DISCARD])}, discarded by seat {st[K.DISCARDER]}"
                   + (" (you play next)" if st[K.NEXTP] == seat and not st[K.WIN_SKIP] else ""))
    elif ph == K.P_UPCARD:
        out.append(f"free to take: {pile[-1] if pile else '?'} ("
                   + ("the upcard" if st[K.UP_OFFER] else "the discard") + "), or draw")
    elif ph == K.P_EXCHANGE:
        mine = st[K.POOL + st[K.POOL_LEN] - st[K.EXK + seat]:K.POOL + st[K.POOL_LEN]] if st[K.EXK + seat] else []
        out.append("exchange: you passed " + (" ".join(_card(c) for c in mine) or "nothing yet") + "; cards passed "
                   + ", ".join(f"seat {q} {st[K.EXK + q]}" for q in range(n) if q != seat))
    elif ph == K.P_CHOOSE:
        used = [k for k in range(1, int(opts[K.O_HANDS]) + 1) if st[K.USED] >> k & 1]
        out.append("contracts played: " + (", ".join(map(str, used)) or "none"))
    elif ph == K.P_ACT and st[K.TAKEN] >= 0:
        out.append(f"taken from the pile this turn: {_card(st[K.TAKEN])} (not to be discarded again)")
    for i in range(st[K.NMELDS]):
        r = tab[i]
        _, cards = meld_cards(K.meld_code(i, r), int(r[M.M_JPOS]), int(r[M.M_P1]), int(r[M.M_P2]))
        out.append(f"meld {i} (seat {int(r[K.T_OWNER])}{', contract' if r[K.T_CONTRACT] else ''}): {' '.join(cards)}")
    for q in range(n):
        held = (st[K.H1 + q].bit_count() + st[K.H2 + q].bit_count() + st[K.HJ + q]
                + len(_twos(st[K.HT + q])))
        line = seats[q] + f", {held} cards, " + (f"down (turn {st[K.DOWN_TURN + q]})" if st[K.DOWN + q] else "not down")
        line += f", buys this hand {st[K.BUYS + q]}"
        known = [_card(c) for c in range(K.KN_STRIDE) for _ in range(st[K.KN + K.KN_STRIDE * q + c])]
        if known and q != seat and not (ph == K.P_EXCHANGE and st[K.EXK + q]):
            line += ", known to hold " + " ".join(known)
        out.append(line)
    return out
