"""Contract Rummy's play-by-play: a replayed game's trace (rows code, seat, a, b, c, d: the ``T_*``
codes of ``kernels/contract_rummy/``, their packed fields read with its codecs) as structured events
(``sim.trace``) and as text, the replay itself, and for the critique (issue 40) what a seat sees at a
question (``_position``) and an action's text (``action_text``, ``_action_text``)."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.cards import RANK_NAMES, SUIT_NAMES
from cardsim.sim.games.contract_rummy.options import DEALS
from cardsim.sim.notation import fmt_card
from cardsim.sim.trace import event, lines

TRACE_ROWS_CAP = 2_000_000


# ``trace_events`` reads the kernel trace (rows code, seat, a, b, c, d: see the T_* codes in
# kernels/contract_rummy/) into sim.trace events. It keeps its own copy of the table (each
# meld as the kernel logged it, updated by every lay-off and swap with the windows the kernel
# logs), so that every meld can be shown card by card.
def _card(c: int) -> str:
    return "JK" if c == K.JK else fmt_card(int(c))


class _TableMeld:
    """A meld on the table as the trace shows it: a set (rank ``key``, copies per suit, jokers)
    or a run (suit ``key``, non-ace positions, aces, jokers, window lo..hi)."""

    def __init__(self, packed: int, p1: int):
        self.kind = K.row_kind(packed)                  # the kernel's codec (``K.pack_row``)
        self.key = K.row_key(packed)
        self.jokers = K.row_jokers(packed)
        self.p2 = K.row_p2(packed)
        self.lo = K.row_lo(packed)
        self.hi = K.row_hi(packed)
        self.p1 = p1

    def add(self, c: int) -> None:
        if c == K.JK:
            self.jokers += 1
        elif self.kind == M.MK_GROUP:
            self.p1 += 1 << (4 * (c // 13))
            self.p2 += 1
        elif c % 13 == 0:
            self.p2 += 1
        else:
            self.p1 |= 1 << (c % 13 + 1)

    def window(self, w: int) -> None:
        if self.kind == M.MK_RUN:
            self.lo, self.hi = K.window_lo(w), K.window_hi(w)

    def cards(self) -> list[str]:
        """The meld in table order, each joker as the card it stands for: a run's window
        position; in a set, the suits the set lacks first (C, D, H, S), then C, D, H, S again."""
        rank = RANK_NAMES
        if self.kind == M.MK_GROUP:
            counts = [(self.p1 >> (4 * s)) & 15 for s in range(4)]
            out = [rank[self.key] + SUIT_NAMES[s] for s in range(4) for _ in range(counts[s])]
            suits = [s for s in range(4) if counts[s] == 0] + [0, 1, 2, 3] * self.jokers
            return out + [f"JK({rank[self.key]}{SUIT_NAMES[suits[i]]})" for i in range(self.jokers)]
        aces = self.p2
        out = []
        for p in range(self.lo, self.hi + 1):
            name = rank[(p - 1) % 13] + SUIT_NAMES[self.key]
            if p in (1, 14):
                natural = aces > 0
                aces -= natural
            else:
                natural = bool(self.p1 >> p & 1)
            out.append(name if natural else f"JK({name})")
        return out


def _text(cards: list[str]) -> str:
    return " ".join(cards)


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The replayed game as sim.trace events, in the order things happen.

    Actions: ``hand`` (a deal starts: ``deal``, ``dealer``, ``cut``), ``deal`` (a seat's
    dealt cards), ``upcard``, ``draw`` (``out_of_turn`` true for an out-of-turn play's draw),
    ``take discard``, ``penalty card`` (the May-I penalty card), ``may i`` (a seat volunteers
    to discard out of turn), ``buy`` (under may_i_model = buy; its penalty card follows),
    ``meld`` (the contract meld: ``melds``, ``ids`` their table indices), ``lay off``
    (``target``, ``meld_id``), ``swap`` (``cards`` = the natural put in, ``target`` = the
    run before, ``meld_id``; ``joker``: ``laid`` on ``joker_target`` (that meld before,
    ``joker_meld_id``), ``kept`` for this turn's discard, or ``meld``: into the contract meld
    that follows), ``discard`` (``out_of_turn``), ``reshuffle``, ``end`` (``reason``,
    ``out``), ``score`` (``penalty``, ``total``: after the deal, ``points``: the holding's
    points, also for the seat out and in a void deal), ``result`` (``total``, ``mayi``,
    ``oot`` of the game).

    Cards: ``"7C"``, ``"JK"`` in a hand; on the table a joker is ``"JK(8D)"``, the card it
    stands for: in a run, its position in the run's window (the assignment the engine keeps:
    the contract search's window, moved by the fewest positions at each lay-off or swap; under
    joker_position = fixed the places never move); in a set, the suits the set lacks first.

    ``state`` (every event but ``result``), after the event: ``held`` (cards held per seat),
    ``stock`` (cards in the stock), ``pile`` (cards in the discard pile).
    """
    n = int(st[K.N])
    names = list(seat_names)
    held = [0] * n
    stock = pile = 0
    table: dict[int, _TableMeld] = {}
    events: list[dict] = []
    rows = [tuple(int(x) for x in r) for r in trace[: int(st[K.TR_LEN])]]

    def who(p: int) -> str:
        return f"seat {p} ({names[p]})" if 0 <= p < len(names) else f"seat {p}"

    def sizes(p: int, d: int) -> dict:
        nonlocal stock, pile
        if 0 <= p < n:
            held[p] = K.sizes_held(d)
        stock, pile = K.sizes_stock(d), K.sizes_pile(d)
        return {"held": list(held), "stock": stock, "pile": pile}

    def out_note(p: int) -> str:
        return " and goes out" if 0 <= p < n and held[p] == 0 else ""

    i = 0
    while i < len(rows):
        code, p, a, b, c, d = rows[i]
        i += 1
        if code == K.T_DEAL:
            table.clear()
            held[:] = [0] * n
            events.append(event("hand", f"== deal {a}: dealer seat {b}" + (", exact cut" if c else ""),
                                deal=a, dealer=b, cut=bool(c), state=sizes(-1, d)))
        elif code == K.T_HOLD:
            cards = [_card(a)] * b
            while i < len(rows) and rows[i][0] == K.T_HOLD and rows[i][1] == p:
                cards += [_card(rows[i][2])] * rows[i][3]
                d = rows[i][5]
                i += 1
            held[p] = len(cards)                # the stock as if the seats were dealt in turn
            stock -= len(cards)
            events.append(event("deal", f"   {who(p)} is dealt {_text(cards)}", p, cards=cards,
                                state={"held": list(held), "stock": stock, "pile": pile}))
        elif code == K.T_UPCARD:
            events.append(event("upcard", f"up-card {_card(a)}", cards=[_card(a)], state=sizes(-1, d)))
        elif code == K.T_DRAW:
            events.append(event("draw", f"   {who(p)} draws {_card(a)}", p, cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_OOT:
            events.append(event("draw", f"   {who(p)} draws {_card(a)} out of turn", p, cards=[_card(a)],
                                out_of_turn=True, state=sizes(p, d)))
        elif code == K.T_TAKE:
            events.append(event("take discard", f"   {who(p)} takes the discard {_card(a)}", p,
                                cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_PENALTY:
            events.append(event("penalty card", f"   {who(p)} takes the penalty card {_card(a)}", p,
                                cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_VOLUNTEER:
            events.append(event("may i", f"   {who(p)} will discard out of turn (May I)", p, state=sizes(p, d)))
        elif code == K.T_BUY:
            events.append(event("buy", f"   {who(p)} buys {_card(a)}", p, cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_MELD:
            ids, melds = [], []
            while True:
                table[a] = _TableMeld(b, c)
                ids.append(a)
                melds.append(table[a].cards())
                if not (i < len(rows) and rows[i][0] == K.T_MELD and rows[i][1] == p):
                    break
                _, p, a, b, c, d = rows[i]
                i += 1
            state = sizes(p, d)
            events.append(event("meld", f"   {who(p)} melds {' + '.join(_text(m) for m in melds)}{out_note(p)}", p,
                                cards=[x for m in melds for x in m], melds=melds, ids=ids, state=state))
        elif code == K.T_LAYOFF:
            meld = table[b]
            before = meld.cards()
            meld.add(a)
            meld.window(c)
            state = sizes(p, d)
            events.append(event("lay off", f"   {who(p)} lays off {_card(a)} on {_text(before)}{out_note(p)}", p,
                                cards=[_card(a)], target=before, meld_id=b, state=state))
        elif code == K.T_SWAP:
            run = table[b]
            before = run.cards()
            run.add(a)
            run.jokers -= 1
            run.window(K.swap_run_window(c))        # after the swap, before the joker is laid
            t = K.swap_target(c)
            fields = {}
            if t >= 0:
                fields["joker_target"] = table[t].cards()
                fields["joker_meld_id"] = t
                table[t].add(K.JK)
                table[t].window(K.swap_target_window(c))
                tail = f"; the joker goes on {_text(fields['joker_target'])}"
                fields["joker"] = "laid"
            elif t == K.SWAP_KEPT:
                tail, fields["joker"] = "; keeps the joker to discard it", "kept"
            else:
                tail, fields["joker"] = "; the joker goes into the meld", "meld"
            events.append(event("swap", f"   {who(p)} swaps {_card(a)} for the joker of {_text(before)}{tail}", p,
                                cards=[_card(a)], target=before, meld_id=b, state=sizes(p, d), **fields))
        elif code == K.T_DISCARD:
            state = sizes(p, d)
            note = " out of turn" if b else out_note(p)
            events.append(event("discard", f"   {who(p)} discards {_card(a)}{note}", p, cards=[_card(a)],
                                out_of_turn=bool(b), state=state))
        elif code == K.T_RESHUFFLE:
            events.append(event("reshuffle", f"reshuffle: {a} cards in the new stock", state=sizes(-1, d)))
        elif code == K.T_END:
            events.append(event("end", f"end of deal: {K.DEAL_REASONS[a]}" + (f", seat {b} went out" if b >= 0 else ""),
                                reason=K.DEAL_REASONS[a], out=b, state={"held": list(held), "stock": stock,
                                                                        "pile": pile}))
        elif code == K.T_SCORE:
            events.append(event("score", f"  {who(p)}: penalty {a}, total {b}", p, penalty=a, total=b, points=c,
                                state={"held": list(held), "stock": stock, "pile": pile}))
    if int(st[K.TR_LEN]) >= len(trace):
        events.append(event("truncated", "(the trace buffer is full: the rest of the game is not shown)"))
    for p in range(n):
        events.append(event("result", f"  seat {p}: total {int(st[K.TOTAL + p])} May-I's {int(st[K.GMAYI + p])} "
                                      f"out-of-turn plays {int(st[K.GOOT + p])}", p, total=int(st[K.TOTAL + p]),
                            mayi=int(st[K.GMAYI + p]), oot=int(st[K.GOOT + p])))
    return events


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed game: the text of ``trace_events``."""
    return lines(trace_events(trace, st, seat_names))


def _replay(seed, game_id, opts, sids, params, check, plug=None, pprm=None):
    rows = min(TRACE_ROWS_CAP, DEALS * (int(opts[K.O_MAX_TURNS]) * 12 + 600))
    trace = np.zeros((rows, 6), dtype=np.int64)
    st = K.replay_game(seed, game_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


# ---- critique (issue 40) -------------------------------------------------------------------
def _contract_text(opts: np.ndarray, d: int) -> str:
    """Deal d's contract in words: its sets and runs, exact sizes, every card."""
    spec = opts[K.O_CONTRACTS + d * K.C_STRIDE:K.O_CONTRACTS + d * K.C_STRIDE + F.CF_SIZE]
    sets, runs = int(spec[M.C_GROUPS]), int(spec[M.C_RUNS])
    size = "exactly {}" if spec[M.C_GROUP_EXACT] else "{}+"
    parts = [f"{x} {w}{'s' if x != 1 else ''} of {size.format(k)}" for x, w, k in ((sets, "set", 3), (runs, "run", 4))
             if x]
    return " and ".join(parts) + (", every card" if spec[F.CF_ALL] else "")


def _cards(counts) -> str:
    return " ".join(_card(c) for c in range(K.HOLD) for _ in range(int(counts[c]))) or "-"


def _position(snap: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued question (``cardsim critique``'s worst positions): the
    snapshot is the kernel state and the table (``K.SEG_W``: state, then ``MAX_MELDS`` rows of
    ``TW``). Its own hand, the contract, the discard pile, the melds on the table, and per seat
    the cards held, whether it is down, its May-I's, its total before the deal and the cards it
    is publicly known to hold. Nothing hidden from it."""
    st = np.asarray(snap[:K.ST_SIZE], dtype=np.int64)
    tab = np.asarray(snap[K.ST_SIZE:K.SEG_W], dtype=np.int64).reshape(K.MAX_MELDS, K.TW)
    n, d = int(st[K.N]), int(st[K.DEAL])
    rules = opts[K.O_RULES:K.O_RULES + F.RF_SIZE]
    hand = st[K.HAND + K.HOLD * seat:K.HAND + K.HOLD * (seat + 1)].copy()
    pile = [K.pile_card(int(st[K.PILE + i])) for i in range(int(st[K.PILE_LEN]))]
    out = [(f"seat {seat}, deal {d} (contract: {_contract_text(opts, d)}), dealer seat {int(st[K.DEALER])}, seat "
            f"{int(st[K.CUR])}'s turn, turn {int(st[K.TURN])}, stock {int(st[K.STOCK_HI] - st[K.STOCK_LO])} cards"),
           f"hand: {_cards(hand)}  [{int(F.hold_points(hand, rules))} points]"
           + (", down" if st[K.DOWN + seat] else "") + f", May-I's {int(st[K.MAYI + seat])}, total "
           f"{int(st[K.TOTAL + seat])}",
           "discard pile (top last): " + (" ".join(_card(c) for c in pile[-8:]) or "empty")
           + (f"  (+{len(pile) - 8} below)" if len(pile) > 8 else "")]
    if int(st[K.CUR]) == seat and st[K.TAKEN] >= 0:
        out.append(f"taken from the pile this turn: {_card(int(st[K.TAKEN]))} (not to be discarded)")
    if int(st[K.CUR]) == seat and st[K.JOKER_DUE] > 0:
        out.append(f"swapped jokers kept for this turn's discard: {int(st[K.JOKER_DUE])}")
    for i in range(int(st[K.NMELDS])):
        cards = _TableMeld(int(K.pack_row(tab[i])), int(tab[i, M.M_P1])).cards()
        out.append(f"meld {i} (seat {int(tab[i, K.T_OWNER])}): {_text(cards)}")
    for q in range(n):
        if q == seat:
            continue
        known = st[K.KNOWN + K.HOLD * q:K.KNOWN + K.HOLD * (q + 1)]
        out.append(f"seat {q}: {int(st[K.HSIZE + q])} cards" + (", down" if st[K.DOWN + q] else "")
                   + f", May-I's {int(st[K.MAYI + q])}, total {int(st[K.TOTAL + q])}"
                   + (f", known to hold {_cards(known)}" if known.sum() else ""))
    return out


def action_text(kind: int, code: int, card: int = -1, meld: int = -1) -> str:
    """A decision's answer in words."""
    if kind == K.K_DRAW:
        return "take the discard" if code else "draw from the stock"
    if kind == K.K_BUY:
        return "buy the discard" if code else "do not buy"
    if kind == K.K_VOLUNTEER:
        return "play out of turn" if code else "do not play out of turn"
    if kind == K.K_SWAP:
        what = f" {_card(card)} for the joker of meld {meld}" if card >= 0 else ""
        return f"swap{what}" if code else f"do not swap{what}"
    if kind == K.K_MELD:
        return ("do not meld", "lay the engine's meld", "lay the plain best meld")[code] if code < 3 else \
            f"meld every card but {_card(code - 3)}"
    if kind == K.K_MELD_JOKERS:
        return f"put {code} more joker(s) into the meld"
    if kind in (K.K_JOKER, K.K_LAYOFF):
        what = _card(card) if kind == K.K_LAYOFF and card >= 0 else "the joker"
        return f"keep {what}" if code == 0 else f"lay {what} on meld {code - 1}"
    return f"discard {_card(code)}"


def _action_text(a: int) -> str:
    """A critique action code (``K.pack_act``) in words (the step API's texts)."""
    kind, code = K.act_kind(a), K.act_code(a)
    card, meld, info = K.act_card(a), K.act_meld(a), K.act_info(a)
    text = action_text(kind, code, card, meld)
    if kind in (K.K_DRAW, K.K_BUY) and code == 1 and card >= 0:
        text += f" ({_card(card)})"
    if kind == K.K_DISCARD and info:
        text += " out of turn"
    if kind == K.K_SWAP and info:
        text += " (the joker goes into the contract meld)"
    return text
