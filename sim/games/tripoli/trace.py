"""Tripoli's play-by-play: a replayed deal's trace as text and as structured events
(``sim.trace``), an action's text, and what a seat sees at a critiqued decision."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels import tripoli as K
from cardsim.sim.notation import fmt_card, fmt_mask, mask_cards
from cardsim.sim.trace import event, lines

RANK_WORDS = {11: "J", 12: "Q"}


def format_action(a: int) -> str:
    kind, x = K.action_kind(a), K.action_arg(a)
    name = K.ACTION_NAMES[kind] if 0 <= kind < len(K.ACTION_NAMES) else f"action {kind}"
    if kind in (K.A_BID, K.A_BET):
        return f"{name} {x}"
    if kind == K.A_RAISE:
        return f"raise {x}"
    if kind == K.A_PICK:
        return f"pick {fmt_card(x)}"
    if kind in (K.A_SUIT, K.A_LEAD):
        return f"{name} {'CDHS'[x]}"
    return name


class _Chips:
    """Chips and cards as the trace has moved them so far (``trace_events``)."""

    def __init__(self, st: np.ndarray):
        self.n = n = int(st[K.N])
        self.chips = [0] * n
        self.board = [int(st[K.BOARD0 + i]) for i in range(9)]
        self.hands = [0] * n
        self.widow = 0
        self.clearing = None             # [pot, reserve] once the clearing rounds begin

    def state(self) -> dict:
        out = {"chips": list(self.chips), "board": dict(zip(K.SPACE_NAMES, self.board)),
               "held": [h.bit_count() for h in self.hands]}
        if self.clearing is not None:
            out["clearing"] = {"pot": self.clearing[0], "reserve": self.clearing[1]}
        return out

    def swap(self, p: int) -> int:
        """Seat p takes the widow and leaves its hand; returns the cards taken."""
        took = self.widow
        self.hands[p], self.widow = took, self.hands[p]
        return took


def _cards(mask: int) -> list[str]:
    return [fmt_card(c) for c in mask_cards(mask)]


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The events of a replayed deal (``sim.trace``), in the order they happen.

    Actions: ``hand`` (the deal starts: ``session``, ``deal`` in the session counted from 0 as the
    records' ``deal_in_session``, ``dealer``),
    ``ante`` (every seat puts ``chips`` on each of the 9 spaces), ``board`` (a space after the
    antes), ``deal`` (a seat's ``cards``; seat None with ``widow`` true: the widow; with
    ``clearing`` true: a seat's five cards in a clearing round), ``dials`` (pay suit and
    sequence of the deal), the decisions ``keep``, ``swap`` (``cards`` = the widow taken),
    ``auction widow``, ``done``, ``auction old hand``, ``bid`` / ``bet`` / ``raise``
    (``amount``), ``pass``, ``name pay suit`` (``suit``), ``pick`` (a poker card), ``check``,
    ``call``, ``fold``, ``lead`` (``suit``; the cards follow as ``play`` events), where a check,
    call, bet or raise also gives the ``chips`` it put in; ``buy`` (an auction's winner:
    ``price``, ``to`` = the seat paid or None for the kitty, ``cards`` = the hand taken),
    ``collect`` (``chips`` taken from a board ``space``, or from the clearing pot),
    ``show`` (poker ``cards`` and ``category``), ``pot`` (``winners``, ``each``), ``play`` (one
    card in Phase 3), ``stop`` (the sequence stopped after ``cards``), ``pay`` (``chips`` to a
    seat, or to the kitty: ``to`` None), ``clearing`` (a clearing round: ``prize``, ``dealer``),
    ``end`` (``reason``, ``out`` = the seat that went out or None), and the ``result`` events:
    one per seat (its last ``cards`` and ``payout``) and one for the ``board``.

    ``state`` (every event but ``result``), public facts after the event: ``chips`` = each
    seat's balance change in this deal so far (antes included), ``board`` = chips on each space
    (its ``pot`` space is the poker pot), ``held`` = cards in each hand, and during the clearing
    rounds ``clearing`` = the open clearing ``pot`` and the ``reserve`` of prizes not yet played.
    """
    t = _Chips(st)
    n = t.n
    events = []
    auction = None
    for code, seat, a, b in trace[: st[K.TR_LEN]]:
        code, seat, a, b = int(code), int(seat), int(a), int(b)
        who = f"seat {seat} ({seat_names[seat]})" if 0 <= seat < len(seat_names) else ""
        ev = None
        if code == K.T_ANTE:
            events.append(event("hand", f"== session {int(st[K.SESSION])}, its deal {int(st[K.DEAL_NO])} "
                                f"(0-based, as the records' deal_in_session): dealer seat {int(st[K.DEALER])}",
                                session=int(st[K.SESSION]), deal=int(st[K.DEAL_NO]), dealer=int(st[K.DEALER])))
            for p in range(n):
                t.chips[p] -= 9 * a
            t.board = [x + n * a for x in t.board]
            ev = event("ante", f"antes: every seat puts {a} on each space", chips=a)
        elif code == K.T_BOARD:
            t.board[a] = b
            ev = event("board", f"board {K.SPACE_NAMES[a]}: {b}", space=K.SPACE_NAMES[a], chips=b)
        elif code == K.T_DEAL:
            if seat >= 0:
                t.hands[seat] = a
            else:
                t.widow = a
            ev = event("deal", f"deal  {who or 'widow'}: {fmt_mask(a)}", seat, cards=_cards(a),
                       widow=True if seat < 0 else None)
        elif code == K.T_CLDEAL:
            ev = event("deal", f"clearing deal {who}: {fmt_mask(a)}", seat, cards=_cards(a), clearing=True)
        elif code == K.T_DIALS:
            ev = event("dials", f"pay suit {'CDHS'[a]}, sequence {_rank(b + 2)}-{_rank(b + 3)}-{_rank(b + 4)}",
                       pay_suit="CDHS"[a], sequence=[_rank(b + 2), _rank(b + 3), _rank(b + 4)])
        elif code == K.T_ACTION:
            kind, x = K.action_kind(a), K.action_arg(a)
            name = K.ACTION_NAMES[kind] if 0 <= kind < len(K.ACTION_NAMES) else f"action {kind}"
            fields = {}
            if kind == K.A_SWAP:
                fields["cards"] = _cards(t.swap(seat))
            elif kind in (K.A_AUCTION_WIDOW, K.A_AUCTION_OLD):
                auction = "widow" if kind == K.A_AUCTION_WIDOW else "old hand"
            elif kind in (K.A_BID, K.A_BET, K.A_RAISE):
                fields["amount"] = x
            elif kind == K.A_PICK:
                fields["cards"] = [fmt_card(x)]
            elif kind in (K.A_SUIT, K.A_LEAD):
                fields["suit"] = "CDHS"[x]
            ev = event(name, f"      {who}: {format_action(a)}", seat, **fields)
        elif code == K.T_STAKE:
            t.chips[seat] -= a
            if b == 0:
                t.board[K.SP_POT] += a
            else:
                t.clearing[0] += a
            last = events.pop()                      # the check / call / bet / raise that put it in
            text = last.pop("text") + (f" (puts in {a})" if a else "")
            last.pop("state", None)
            ev = event(last.pop("action"), text, last.pop("seat"), chips=a, **last)
        elif code == K.T_SOLD:
            t.chips[seat] -= a
            if b >= 0:
                t.chips[b] += a
                what = f"the {auction}"
                took = _cards(t.swap(seat))
            else:
                t.board[K.SP_KITTY] += a
                what, took = "the pay suit", None
            to = f"seat {b}" if b >= 0 else "the kitty"
            ev = event("buy", f"      {who} buys {what} for {a} (paid to {to})", seat, price=a,
                       to=b if b >= 0 else None, cards=took)
        elif code == K.T_CLAIM:
            t.chips[seat] += b
            t.board[a] -= b
            ev = event("collect", f"      {who} takes {b} from {K.SPACE_NAMES[a]}", seat, space=K.SPACE_NAMES[a],
                       chips=b)
        elif code == K.T_PRIZE:
            t.chips[seat] += a
            t.clearing[0] -= a
            ev = event("collect", f"      {who} takes {a} from the clearing pot", seat, space="clearing", chips=a)
        elif code == K.T_SHOW:
            cat = PK.CATEGORY_NAMES[int(PK.categories(np.array([b]))[0])]
            ev = event("show", f"show  {who}: {fmt_mask(a)} ({cat})", seat, cards=_cards(a), category=cat)
        elif code == K.T_POT:
            seats = [p for p in range(9) if a >> p & 1]
            ev = event("pot", f"pot to seat(s) {seats}: {b} each", winners=seats, each=b)
        elif code == K.T_PLAY:
            t.hands[seat] &= ~(1 << a)
            ev = event("play", f"      {who} plays {fmt_card(a)}", seat, cards=[fmt_card(a)])
        elif code == K.T_STOP:
            ev = event("stop", f"      stop after {fmt_card(a)}: {who} leads next", seat, cards=[fmt_card(a)])
        elif code == K.T_PAYMENT:
            t.chips[seat] -= a
            if b >= 0:
                t.chips[b] += a
            else:
                t.board[K.SP_KITTY] += a
            ev = event("pay", f"      {who} pays {a} to " + (f"seat {b}" if b >= 0 else "the kitty"), seat,
                       chips=a, to=b if b >= 0 else None)
        elif code == K.T_CLEAR:
            if t.clearing is None:
                t.clearing = [0, sum(t.board)]
                t.board = [0] * 9
            t.clearing = [a, t.clearing[1] - a]
            ev = event("clearing", f"== clearing round: prize {a}, dealer seat {b}", prize=a, dealer=b)
        elif code == K.T_END:
            reason = K.REASON_NAMES[a] if 0 <= a < len(K.REASON_NAMES) else "?"
            ev = event("end", f"end: {reason}" + (f", seat {b} went out" if b >= 0 else ""), reason=reason,
                       out=b if b >= 0 else None)
        if ev is not None:
            ev["state"] = t.state()
            ev["text"] = ev.pop("text")
            events.append(ev)
    if int(st[K.TR_LEN]) >= len(trace):
        events.append(event("note", f"(trace buffer full after {len(trace)} rows: later events are missing)"))
    for p in range(n):
        hand, pay = int(st[K.HAND + p]), int(st[K.CHIPS + p])
        events.append(event("result", f"  seat {p}: hand {fmt_mask(hand)} payout {pay:+d}", p, cards=_cards(hand),
                            payout=pay))
    board = {nm: int(st[K.BOARD + i]) for i, nm in enumerate(K.SPACE_NAMES)}
    events.append(event("result", "  board: " + ", ".join(f"{nm} {v}" for nm, v in board.items()), board=board))
    return events


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed deal: the text of its ``trace_events``."""
    return lines(trace_events(trace, st, seat_names))


def _rank(r: int) -> str:
    return RANK_WORDS.get(r, str(r)) if r <= 12 else ("K" if r == 13 else "A")


def _replay(seed, deal_id, opts, sids, params, check, plug=None, pprm=None):
    # a decision writes at most an action and a stake row; the deal, board, plays, claims and
    # payments add a few hundred
    trace = np.zeros((2048 + 2 * int(opts[K.O_MAX_STEPS]), 4), dtype=np.int64)
    st = K.replay_deal(seed, deal_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


_PHASE_NAMES = ("widow", "after a swap", "after an unsold auction", "auction", "pay suit", "poker hand",
                "betting", "Michigan", "over")


def _class_name(cls: int) -> str:
    return PK.CATEGORY_NAMES[int(PK.categories(np.array([cls], dtype=np.int64))[0])] if cls >= 0 else "-"


def _betting_lines(v: np.ndarray, seat: int, n: int, shown: bool) -> list[str]:
    """A betting round in the view ``v``: the pot and the bets, every seat's bet, folds and chips
    (and with ``shown`` the cards of its hand it has shown)."""
    out = [(f"pot {int(v[K.V_POT])}, highest bet {int(v[K.V_CUR_BET])}, to call {int(v[K.V_OWE])}, raises "
            f"{int(v[K.V_RAISES])} of {int(v[K.V_MAX_RAISES])}, largest amount {int(v[K.V_MAX_AMOUNT])}"),
           f"own chips this deal {int(v[K.V_CHIPS + seat]):+d}, bet {int(v[K.V_CONTRIB + seat])}"]
    for q in range(n):
        if q != seat:
            out.append(f"seat {q}: bet {int(v[K.V_CONTRIB + q])}" +
                       (", folded" if int(v[K.V_FOLDED]) >> q & 1 else "") +
                       f", chips this deal {int(v[K.V_CHIPS + q]):+d}" +
                       (f", shown {fmt_mask(int(v[K.V_SHOWN + q]))}" if shown and int(v[K.V_SHOWN + q]) else ""))
    return out


def _position(st: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued decision (``cardsim critique``), in words: exactly
    its plug-in view (``kernels.tripoli.fill_view``: its hand, its poker or clearing-round cards,
    the widow if it has seen it, else the widow cards made public, the dealer's old hand to the
    dealer, auctions, board, bets, folds, chips, cards held, played and shown). Never another
    hand, an unseen widow card or another seat's unshown picks."""
    s = np.array(st, dtype=np.int64)
    s[K.CUR] = seat
    v = np.zeros(K.VIEW_SIZE, dtype=np.int64)
    K.fill_view(s, np.asarray(opts, dtype=np.int64), v)
    n, ph, clearing = int(v[K.V_PLAYERS]), int(v[K.V_PHASE]), int(v[K.V_CLEARING])
    where = f"clearing round {clearing + 1}" if clearing >= 0 else (
        _PHASE_NAMES[ph] if 0 <= ph < len(_PHASE_NAMES) else f"phase {ph}")
    seq = int(v[K.V_SEQ])
    open_suit = int(opts[K.O_SUIT_AUCTION]) and ph <= K.P_SUIT     # the pay-suit auction may name another
    out = [(f"seat {seat}, deal {int(v[K.V_DEAL_NO]) + 1} of {int(v[K.V_DEALS])}, {where}, dealer seat "
            f"{int(v[K.V_DEALER])}; pay suit {'CDHS'[int(v[K.V_PAY_SUIT]) & 3]}"
            f"{' unless the auction names another' if open_suit else ''}, sequence "
            f"{_rank(seq + 2)}-{_rank(seq + 3)}-{_rank(seq + 4)}")]
    if clearing >= 0:                            # a clearing round: its five cards, the pot, the bets
        out.append(f"clearing cards: {fmt_mask(int(v[K.V_BET_HAND]))} ({_class_name(int(v[K.V_BET_CLASS]))})")
        out += _betting_lines(v, seat, n, False)
        return out
    out.append(f"hand: {fmt_mask(int(v[K.V_HAND]))}")
    if int(v[K.V_PICK]):
        cls = int(v[K.V_BET_CLASS])
        out.append(f"poker cards: {fmt_mask(int(v[K.V_PICK]))}" + (f" ({_class_name(cls)})" if cls >= 0 else ""))
    if int(v[K.V_WIDOW]):
        seen = int(s[K.W_SEEN]) == seat
        out.append(f"widow{'' if seen else ' (cards known)'}: {fmt_mask(int(v[K.V_WIDOW]))}")
    if int(v[K.V_OLD_HAND]):
        out.append(f"old hand (before the swap): {fmt_mask(int(v[K.V_OLD_HAND]))}")
    flags = [name for i, name in enumerate(K.WIDOW_FLAG_NAMES) if int(v[K.V_W_ACT]) >> i & 1]
    if flags:
        buyer = int(v[K.V_W_BUYER])
        out.append("widow decisions: " + ", ".join(flags) +
                   (f" (seat {buyer} paid {int(v[K.V_W_PRICE])})" if buyer >= 0 else ""))
    if int(v[K.V_AUCTION]) >= 0:
        what = ("the widow", "the dealer's old hand", "the pay suit")[int(v[K.V_AUCTION])]
        high, by = int(v[K.V_HIGH]), int(v[K.V_HIGH_BY])
        left = [q for q in range(n) if int(v[K.V_ACTIVE]) >> q & 1]
        out.append(f"auction of {what}: " + (f"high bid {high} by seat {by}" if by >= 0 else "no bid yet") +
                   f", still bidding {left}")
    if int(v[K.V_SUIT_BY]) >= 0:
        out.append(f"pay suit bought by seat {int(v[K.V_SUIT_BY])} for {int(v[K.V_SUIT_PRICE])}")
    out.append("board: " + ", ".join(f"{nm} {int(v[K.V_BOARD + i])}" for i, nm in enumerate(K.SPACE_NAMES)))
    if ph == K.P_BET:
        return out + _betting_lines(v, seat, n, True)
    if int(v[K.V_PLAYED]) or ph == K.P_LEAD:
        banned = int(v[K.V_BANNED])
        out.append(f"played in Phase 3 ({int(v[K.V_LEADS])} leads): {fmt_mask(int(v[K.V_PLAYED])) or '-'}" +
                   (f"; {'CDHS'[banned]} just stopped" if banned >= 0 else "") +
                   (f"; {('black', 'red')[int(v[K.V_COLOR])]} to lead" if int(v[K.V_COLOR]) >= 0 else ""))
    out.append(f"own chips this deal {int(v[K.V_CHIPS + seat]):+d}")
    for q in range(n):
        if q == seat:
            continue
        parts = [f"{int(v[K.V_HELD + q])} cards", f"chips this deal {int(v[K.V_CHIPS + q]):+d}"]
        if int(v[K.V_SHOWN + q]):
            parts.append(f"shown {fmt_mask(int(v[K.V_SHOWN + q]))}")
        out.append(f"seat {q}: " + ", ".join(parts))
    return out
