"""Tonk's play-by-play: a replayed deal's trace as text and as structured events (``sim.trace``),
an action's text, and what a seat sees at a critiqued decision."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import tonk as K
from cardsim.kernels.cards import POINTS_TEN_CAP
from cardsim.sim.notation import fmt_card, fmt_mask, mask_cards
from cardsim.sim.trace import event, lines, meld_text

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
