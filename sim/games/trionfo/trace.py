"""Trionfo's play-by-play: a replayed session's trace as structured events and as text
(``sim.trace``), the replay itself, a critique action's text and what a seat sees at a critiqued
decision."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import trionfo as K
from cardsim.kernels.tricks import SUIT_NAMES40
from cardsim.sim.games.trionfo.options import BID_NAMES
from cardsim.sim.notation import fmt40_card, fmt40_mask
from cardsim.sim.trace import event, lines


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The events of a replayed session (``sim.trace``), in the order they happen.

    Actions: ``hand`` (``hand`` number, ``dealer``, ``first_speaker``; also after a thrown-in
    deal), ``deal`` (a seat's eight ``cards``), ``bid`` (``level`` 0 = pass .. 4, ``bid`` its
    name), ``redeal`` (all passed: the deal is thrown in), ``contract`` (``seat`` = the
    declarer; ``level``, ``trump``, ``called`` card or None, ``partner`` seat, None for a solo;
    a self-call names the declarer), ``play`` (one card), ``trick`` (``seat`` = the winner,
    ``cards`` in play order, ``thirds`` with the last trick's 3), ``score`` (the declarer's
    side ``points``, ``won``, ``stake``), ``money`` (a seat's money in the hand and ``session``
    total) and one ``result`` per seat (``payout`` = session money).

    ``state`` (every event but ``result``), public facts after the event: ``thirds`` and
    ``tricks`` won per seat in this hand, ``money`` per seat over the session so far, and,
    once the sides are public (a solo, a named partner, or the called card played),
    ``sides``: ``{"declarer": [seats], "thirds": [declarer side, defenders], "tricks": [...]}``.
    A self-called partnership shows as a solo once the called card is played.
    """
    n = 5
    events = []
    thirds, tricks, money = [0] * n, [0] * n, [0] * n
    trick: list[str] = []
    contract = None                  # (declarer, partner or -1, called card or -1)
    public = False

    def state():
        out = {"thirds": list(thirds), "tricks": list(tricks), "money": list(money)}
        if contract is not None and public:
            d, partner, _ = contract
            side = sorted({d, partner} - {-1})
            out["sides"] = {"declarer": side,
                            "thirds": [sum(thirds[p] for p in side), sum(thirds) - sum(thirds[p] for p in side)],
                            "tricks": [sum(tricks[p] for p in side), sum(tricks) - sum(tricks[p] for p in side)]}
        return out

    for code, seat, a, b, c, d in trace[: st[K.TR_LEN]]:
        code, seat, a, b, c, d = (int(x) for x in (code, seat, a, b, c, d))
        who = f"seat {seat} ({seat_names[seat]})" if 0 <= seat < len(seat_names) else ""
        if code == K.T_HAND:
            thirds, tricks, trick, contract, public = [0] * n, [0] * n, [], None, False
            events.append(event("hand", f"== hand {a}: dealer seat {b}, seat {c} speaks first",
                                hand=a, dealer=b, first_speaker=c, state=state()))
        elif code == K.T_DEAL:
            events.append(event("deal", f"deal  {who}: {fmt40_mask(a)}", seat, cards=fmt40_mask(a).split(),
                                state=state()))
        elif code == K.T_BID:
            events.append(event("bid", f"      {who}: {BID_NAMES[a]}", seat, level=a, bid=BID_NAMES[a],
                                state=state()))
        elif code == K.T_REDEAL:
            events.append(event("redeal", f"all pass: deal {a} thrown in", redeal=a, state=state()))
        elif code == K.T_CONTRACT:
            contract = (seat, d, c)
            public = d < 0 or c < 0            # a solo, or a partner named openly
            partner = ("solo" if d < 0 else ("self-call (secret solo)" if d == seat else f"partner seat {d}"))
            called = f", calls {fmt40_card(c)}" if c >= 0 else ""
            events.append(event("contract", f"contract: {who} {BID_NAMES[a]}, trump {SUIT_NAMES40[b]}{called}; "
                                f"{partner}", seat, level=a, bid=BID_NAMES[a], trump=SUIT_NAMES40[b],
                                called=fmt40_card(c) if c >= 0 else None, partner=d if d >= 0 else None,
                                state=state()))
        elif code == K.T_PLAY:
            trick.append(fmt40_card(a))
            if contract is not None and a == contract[2]:
                public = True
            events.append(event("play", f"      {who}: {fmt40_card(a)}", seat, cards=[fmt40_card(a)],
                                state=state()))
        elif code == K.T_TRICK:
            thirds[seat] += a
            tricks[seat] += 1
            events.append(event("trick", f"    trick to {who}: {a} thirds", seat, cards=trick, thirds=a,
                                state=state()))
            trick = []
        elif code == K.T_SETTLE:
            events.append(event("score", f"declarer's side {a} points: " + ("won" if b else "lost") + f" (stake {c})",
                                seat, points=a, won=bool(b), stake=c, state=state()))
        elif code == K.T_MONEY:
            money[seat] = b
            events.append(event("money", f"  {who}: {a:+d} (session {b:+d})", seat, hand_money=a, session=b,
                                state=state()))
    for p in range(n):
        m = int(st[K.MONEY + p])
        events.append(event("result", f"  seat {p}: money {m:+d}", p, payout=m))
    return events


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed session: the text of its ``trace_events``."""
    return lines(trace_events(trace, st, seat_names))



def _trace(opts: np.ndarray) -> np.ndarray:
    """A trace buffer for a whole session (the replay's)."""
    rows = int(opts[K.O_HANDS]) * ((K.MAX_REDEALS + 1) * 32 + 80) + 16
    return np.zeros((min(rows, 2_000_000), K.TRACE_W), dtype=np.int64)


def _replay(seed, game_id, opts, sids, params, check, plug=None, pprm=None):
    trace = _trace(opts)
    st = K.replay_session(seed, game_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


# ---- critique (issue 40) -----------------------------------------------------------------

def _action_text(code: int) -> str:
    """A critique action code (``kernels.trionfo.act_code``: kind and legal action) as text."""
    kind, v = int(K.action_kind(int(code))), int(K.action_value(int(code)))
    if kind == K.K_BID:
        return BID_NAMES[v]
    if kind == K.K_TRUMP:
        return f"trump {SUIT_NAMES40[v]}"
    if kind == K.K_CALL:
        return f"call {fmt40_card(v)}"
    if kind == K.K_NAME:
        return f"name seat {v}"
    return fmt40_card(v)


ROLES = ("in the auction", "declarer", "partner", "defender")


def _position(st: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued decision (``cardsim critique``'s worst positions): its
    hand, the auction, the contract with the partner as far as the seat knows it (a secret
    partner stays unknown to the others until the called card is played), the table, the
    thirds and the session's money. Nothing hidden from it."""
    seat = int(seat)
    n = K.N_PLAYERS
    d, partner, trump, called = (int(st[x]) for x in (K.DECLARER, K.PARTNER, K.TRUMP, K.CALLED))
    role = K.role(st, seat)
    out = [f"seat {seat} ({ROLES[role]}), hand {int(st[K.HAND_IDX]) + 1} of {int(opts[K.O_HANDS])}"
           + (f" (deal {int(st[K.REDEALS]) + 1}: {int(st[K.REDEALS])} thrown in)" if st[K.REDEALS] else "")
           + f", dealer seat {int(st[K.DEALER])}, seat {int(st[K.FIRST_SPEAKER])} spoke first",
           f"hand: {fmt40_mask(int(st[K.HAND + seat]))}",
           "auction: " + ", ".join(f"seat {q} " + (BID_NAMES[int(st[K.BID + q])] if st[K.BID + q] else "-")
                                   + (" (passed)" if int(st[K.PASSED]) >> q & 1 else "") for q in range(n))]
    if d >= 0:
        level = int(st[K.HIGH_LEVEL])
        parts = [f"contract: seat {d} {BID_NAMES[level]}", "trump " + (SUIT_NAMES40[trump] if trump >= 0 else
                                                                       "not named yet")]
        if called >= 0:
            parts.append(f"called {fmt40_card(called)}")
        if level > int(opts[K.O_PARTNER_LEVELS]):
            parts.append("solo")
        elif partner < 0:
            parts.append("partner not chosen yet")
        elif st[K.REVEALED] or seat == partner:
            parts.append("self-call (a secret solo)" if partner == d else f"partner seat {partner}")
        else:
            parts.append("partner unknown")
        out.append(", ".join(parts))
    if trump >= 0 and st[K.LEADER] >= 0:
        k, lead = int(st[K.NCARDS]), int(st[K.LEADER])
        out.append(f"tricks played {int(st[K.TRICK_NO])}; trick on the table: "
                   + (", ".join(f"seat {(lead + i) % n} {fmt40_card(int(st[K.TRICK + i]))}" for i in range(k))
                      if k else f"empty (seat {lead} leads)"))
        trick = sum(1 << int(st[K.TRICK + i]) for i in range(k))
        out.append(f"played in earlier tricks: {fmt40_mask(int(st[K.PLAYED]) & ~trick)}")
        out.append("thirds won: " + ", ".join(f"seat {q} {int(st[K.THIRDS + q])}" for q in range(n)))
    out.append("session money: " + ", ".join(f"seat {q} {int(st[K.MONEY + q]):+d}" for q in range(n)))
    for q in range(n):
        if q != seat:
            void = int(st[K.VOID + q])
            out.append(f"seat {q}: {int(st[K.HAND + q]).bit_count()} cards"
                       + (", void in " + " ".join(SUIT_NAMES40[x] for x in range(4) if void >> x & 1) if void else ""))
    return out
