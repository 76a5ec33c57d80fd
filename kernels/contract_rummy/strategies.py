"""Contract Rummy's strategy hooks (§17): the built-in strategies' answers to the yes/no
questions (take the discard, volunteer, buy) and their discard (``choose_discard``), read from
the parameter row (``layout.P_*``).
"""
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below, uniform
from cardsim.kernels.contract_rummy.layout import (
    BIG, DEAL, DOWN, HAND, HOLD, HSIZE, JK, JOKER_DUE, MAYI, N, NMELDS, P_DANGER, P_FAR, P_MAX, P_NEAR, P_NOISE, P_SHED,
    P_VOL, P_VOL_PTS, S_CAUTIOUS, S_EXPERT, S_FUZZ, S_RANDOM, TAKEN, UNLIMITED,
)
from cardsim.kernels.contract_rummy.rules import hand_of, rules_of, spec_of
from cardsim.kernels.contract_rummy.contracts import contract_need, keep_score, layable, related


# =============================================================================
# strategy hooks (§17)
# =============================================================================
@njit(cache=True)
def param(sid, prm, i):
    """Strategy parameter i (the row of the seat's strategy; random has none)."""
    return prm[i]


@njit(cache=True)
def noisy(sid, prm, gplay):
    """fuzz: this decision is random (probability ``noise``)."""
    return sid == S_FUZZ and uniform(gplay) < prm[P_NOISE]


@njit(cache=True)
def coin(gplay):
    return below(gplay, 2) == 1


@njit(cache=True)
def danger(st, opts, p, prm, sid, sc):
    """Cautious: an opponent who has melded holds at most ``danger`` cards, and seat p is
    still at least ``far`` cards short of its contract (once down it always is in danger)."""
    if sid != S_CAUTIOUS and sid != S_EXPERT:
        return False
    near = False
    for q in range(st[N]):
        if q != p and st[DOWN + q] and st[HSIZE + q] <= prm[P_DANGER]:
            near = True
    if not near or st[DOWN + p]:
        return near
    need = contract_need(hand_of(st, p), spec_of(opts, st[DEAL]), rules_of(opts), sc, sid == S_EXPERT)
    return need >= prm[P_FAR]


@njit(cache=True)
def wants_card(st, opts, tab, p, c, paid, sid, prm, gplay, sc):
    """choose_draw / respond (buy): does seat p want card c (``paid``: with a penalty card)?"""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return coin(gplay)
    if paid and ((prm[P_MAX] < UNLIMITED and st[MAYI + p] >= prm[P_MAX])
                 or danger(st, opts, p, prm, sid, sc)):
        return False
    rules = rules_of(opts)
    if st[DOWN + p]:
        return (not paid) and c != JK and layable(tab, st[NMELDS], c, rules)
    if c == JK:
        return True
    h = hand_of(st, p)
    spec = spec_of(opts, st[DEAL])
    if not related(h, c, spec):
        return False
    before = contract_need(h, spec, rules, sc, sid == S_EXPERT)
    h[c] += 1
    after = contract_need(h, spec, rules, sc, sid == S_EXPERT)
    h[c] -= 1
    if paid and spec[F.CF_ALL] and after > 0:
        return False                    # every card must go out: a penalty card is junk
    return after < before and after <= prm[P_NEAR]


@njit(cache=True)
def volunteers(st, opts, q, sid, prm, gplay):
    """respond_may_i (out_of_turn_discard): play out of turn? (``volunteer``, and only with
    a holding worth at least ``vol_points``)"""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return coin(gplay)
    if prm[P_VOL] < 0.5:
        return False
    return prm[P_VOL_PTS] <= 0 or F.hold_points(hand_of(st, q), rules_of(opts)) >= prm[P_VOL_PTS]


@njit(cache=True)
def yes(sid, prm, gplay):
    """A yes/no hook where every strategy but random (and fuzz's noise) says yes (meld, lay
    off, swap)."""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return coin(gplay)
    return True


@njit(cache=True)
def discard_ok(st, p, c, free):
    """§7.1 step 3: c is held and is not of the type of the card taken from the pile (a twin
    would re-discard the same card: the pass A9 forbids), unless the holding has no other
    card (``may_discard_taken_card``: TAKEN is never set); ``free``: any card (out-of-turn
    play); a kept swapped joker must go now."""
    if st[HAND + HOLD * p + c] <= 0:
        return False
    if st[JOKER_DUE] > 0 and not free:
        return c == JK
    if free or c != st[TAKEN]:
        return True
    return st[HAND + HOLD * p + c] == st[HSIZE + p]


@njit(cache=True)
def random_discard(st, p, free, gplay):
    n = 0
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            n += 1
    if n == 0:
        return -1
    i = below(gplay, n)
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            if i == 0:
                return c
            i -= 1
    return -1


@njit(cache=True)
def discard_key(st, tab, p, c, h, spec, rules, near):
    """Lower = discard first: contract help (or, once down, whether it can be laid off),
    then the highest points; ``near`` (cautious, an opponent close to out) weighs points
    more."""
    if c == JK:
        return BIG
    pts = rules[M.R_POINTS + c % 13]
    if st[DOWN + p]:
        return (1000 if layable(tab, st[NMELDS], c, rules) else 0) - pts
    k = keep_score(h, c, spec)
    if near:
        return 4 * k - pts
    return 64 * k - pts


@njit(cache=True)
def sheds(st, p, prm):
    """The expert sheds points (P_SHED): it is not down and a seat that has melded holds at
    most P_SHED cards (it may go out any turn). cautious's ``danger`` sheds only while far
    from its contract and still weighs what a card does for it."""
    if prm[P_SHED] <= 0 or st[DOWN + p]:
        return False
    for q in range(st[N]):
        if q != p and st[DOWN + q] and st[HSIZE + q] <= prm[P_SHED]:
            return True
    return False


@njit(cache=True)
def choose_discard(st, opts, tab, p, free, sid, prm, gplay, sc):
    """choose_discard / choose_oot_discard: the card to discard, -1 if none is legal."""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return random_discard(st, p, free, gplay)
    best = -1
    bk = BIG + 1
    h, spec, rules = hand_of(st, p), spec_of(opts, st[DEAL]), rules_of(opts)
    if sid == S_EXPERT and not free and sheds(st, p, prm):
        pts = -1
        for c in range(JK):                     # the costliest natural (ties: the first)
            if discard_ok(st, p, c, free) and rules[M.R_POINTS + c % 13] > pts:
                best, pts = c, rules[M.R_POINTS + c % 13]
        if best >= 0:
            return best
    near = danger(st, opts, p, prm, sid, sc)
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            k = discard_key(st, tab, p, c, h, spec, rules, near)
            if k < bk:
                bk = k
                best = c
    return best
