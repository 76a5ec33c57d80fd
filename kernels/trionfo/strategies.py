"""Trionfo's built-in strategies: the bids (``choose_bid``), the trump (``choose_trump``), the
called card or the named partner (``choose_called``, ``choose_named``), and the card play of
random, greedy, heuristic and the expert (issue 41; ``choose_card``)."""
import numpy as np

from cardsim.kernels.cards import lowbit, nth_card, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below, uniform
from cardsim.kernels.tricks import (
    FULL40, HAND_THIRDS, SUIT40, VALUE_THIRDS, bank_card, beating_cards, best_trump, cheapest, follow_card,
    greedy_card, highbit, is_master, lead_card, mask_thirds, masters_of, richest, ruff_odds, suit_mask40, trick_mask,
    trick_winner, trump_honours,
)
from cardsim.kernels.trionfo.layout import (
    BID, CALLED, DECLARER, G_SELF_CALL, GREEDY_THRESHOLDS, H_EXPLORE, H_SELF_CALL, H_T1, HAND, LEADER, LED, LEVELS,
    NCARDS, N_PLAYERS, O_SELF_CALL, O_WIN_POINTS, PARTNER, PLAYED, R_PASS_BIAS, REVEALED, S_EXPERT, S_GREEDY,
    S_HEURISTIC, S_RANDOM, THIRDS, TRICK, TRUMP, VOID, X_BANK, X_CLINCH, X_DEF_TRUMP, X_DRAW, X_DRAW_FIRST,
    X_DRAW_LAST, X_DRAW_TOP, X_HONOUR, X_PLAIN, X_READ, X_RISK, X_RUFF_MIN, X_SOLO_LOW, X_DEF_RICH, X_SOLO_RUFF,
    X_SOLO_KEEP,
)
from cardsim.kernels.trionfo.rules import hand_strength, is_solo


# =============================================================================
# the auction and the contract
# =============================================================================
@njit(cache=True, inline='always')
def choose_bid(st, p, high, sid, prm, gen):
    """0 = pass, else a level above ``high``. random: uniform among the legal calls (a pass
    weighs 1 + ``pass_bias`` legal bids: 0 = uniform; large = the all-pass fuzzer);
    greedy / heuristic: the level wanted (strength thresholds) if it is higher, else pass."""
    if sid == S_RANDOM and prm[R_PASS_BIAS] > 0:
        w = 1.0 + prm[R_PASS_BIAS]
        if uniform(gen) * (w + LEVELS - high) < w:
            return 0
        return high + 1 + below(gen, LEVELS - high)
    if sid == S_RANDOM or ((sid == S_HEURISTIC or sid == S_EXPERT) and prm[H_EXPLORE] > 0
                           and uniform(gen) < prm[H_EXPLORE]):
        k = below(gen, LEVELS - high + 1)
        return 0 if k == 0 else high + k
    s = hand_strength(st[HAND + p])
    want = 0
    for k in range(LEVELS):
        t = GREEDY_THRESHOLDS[k] if sid == S_GREEDY else prm[H_T1 + k]
        if s >= t:
            want = k + 1
    return want if want > high else 0


@njit(cache=True, inline='always')
def choose_trump(st, d, sid, gen):
    """The built-in declarer d's trump: random draws a suit, every other names its best trump
    (``tricks.best_trump``)."""
    return below(gen, 4) if sid == S_RANDOM else best_trump(st[HAND + d])


@njit(cache=True)
def wants_self_call(strength, sid, prm):
    """Greedy / heuristic call one of their own cards (a secret solo, when the rules allow it)
    with a hand strength of at least their ``self_call`` parameter."""
    return strength >= (prm[G_SELF_CALL] if sid == S_GREEDY else prm[H_SELF_CALL])


@njit(cache=True)
def choose_called(st, d, trump, sid, prm, gen, self_ok):
    """The card the declarer calls: random picks any allowed card; the others call the
    highest trump they do not hold, or under ``trionfo_allow_self_call`` with a strong
    enough hand (``wants_self_call``) the highest trump they hold (their highest card if
    they hold no trump)."""
    hand = st[HAND + d]
    allowed = FULL40 if self_ok else FULL40 & ~hand
    if sid == S_RANDOM:
        return nth_card(allowed, below(gen, popcount(allowed)))
    if self_ok and wants_self_call(hand_strength(hand), sid, prm):
        own = hand & (np.int64(SUIT40) << (10 * trump))
        m = own if own else hand
        c = 39
        while not (m >> c) & 1:
            c -= 1
        return c
    for s in range(9, -1, -1):
        c = 10 * trump + s
        if not (hand >> c) & 1:
            return c
    return cheapest(allowed, trump)


@njit(cache=True)
def choose_named(st, d, sid, gen):
    """Seat named openly: random, or the other seat that bid highest (nearest right on ties)."""
    if sid == S_RANDOM:
        return (d + 1 + below(gen, N_PLAYERS - 1)) % N_PLAYERS
    best = (d + 1) % N_PLAYERS
    for k in range(1, N_PLAYERS):
        q = (d + k) % N_PLAYERS
        if st[BID + q] > st[BID + best]:
            best = q
    return best


# =============================================================================
# card play
# =============================================================================
@njit(cache=True, inline='always')
def is_friend(st, opts, p, q):
    """Seat p knows that seat q plays on its side (unknown = no)."""
    d = st[DECLARER]
    partner = st[PARTNER]
    if p == d:
        return st[REVEALED] == 1 and q == partner and partner != d
    if is_solo(st, opts):
        return q != d
    if p == partner:
        return q == d
    if q == d:
        return False
    return st[REVEALED] == 1 and q != partner


@njit(cache=True, inline='always')
def heuristic_card(st, opts, p, legal):
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    trump = st[TRUMP]
    k = st[NCARDS]
    if k == 0:
        return lead_card(hand, unseen, trump)
    w = trick_winner(st[TRICK:TRICK + N_PLAYERS], k, trump)
    friend = is_friend(st, opts, p, (st[LEADER] + w) % N_PLAYERS)
    opp_after = 0
    for j in range(k + 1, N_PLAYERS):
        if not is_friend(st, opts, p, (st[LEADER] + j) % N_PLAYERS):
            opp_after += 1
    return follow_card(legal, unseen, st[TRICK + w], friend, opp_after,
                       mask_thirds(trick_mask(st[TRICK:TRICK + N_PLAYERS], st[NCARDS])), trump, np.int64(3))


# ---- the expert (issue 41): heuristic plus what a good player reads from the table ----------
@njit(cache=True, inline='always')
def called_seats(st, opts, p):
    """The seats (a bit mask) that may hold the unplayed called card as seat ``p`` sees it: the
    others but the declarer (the declarer too under self-calls) not shown void in its suit; 0
    when there is no secret partner to place (a solo, a named partner, the card played, or
    ``p`` holds it)."""
    c = st[CALLED]
    if c < 0 or st[REVEALED] == 1 or is_solo(st, opts) or (st[HAND + p] >> c) & 1:
        return 0
    d = st[DECLARER]
    out = 0
    for q in range(N_PLAYERS):
        if q != p and (q != d or opts[O_SELF_CALL] != 0) and not (st[VOID + q] >> (c // 10)) & 1:
            out |= 1 << q
    return out


@njit(cache=True, inline='always')
def friends_of(st, opts, p, read):
    """The seats (a bit mask) seat ``p`` knows for friends: ``is_friend``, and with ``read`` what
    the voids show of a secret partner: a defender counts a seat that cannot hold the called card
    (shown void in its suit) as a fellow defender; the declarer counts the one seat that still
    can as his partner. The expert asks it once a decision."""
    out = 0
    for q in range(N_PLAYERS):
        if is_friend(st, opts, p, q):
            out |= 1 << q
    if read == 0:
        return out
    cand = called_seats(st, opts, p)
    if cand == 0 or st[PARTNER] == p:
        return out
    d = st[DECLARER]
    for q in range(N_PLAYERS):
        if q == p or (out >> q) & 1:
            continue
        if p == d:
            if cand == (1 << q):
                out |= 1 << q
        elif q != d and not (cand >> q) & 1:
            out |= 1 << q
    return out


@njit(cache=True)
def reads_friend(st, opts, p, q, read):
    """Seat ``p`` knows seat ``q`` for a friend (``friends_of``)."""
    return (friends_of(st, opts, p, read) >> q) & 1 == 1


@njit(cache=True, inline='always')
def ruff_chance(st, suit, unseen, q):
    """Chance that seat ``q`` can ruff a card of ``suit`` (``tricks.ruff_odds``: its voids shown,
    its hand's size that everyone sees)."""
    return ruff_odds(suit, st[TRUMP], unseen, st[VOID + q], popcount(st[HAND + q]))


@njit(cache=True, inline='always')
def opponents_after(st, friends):
    """The seats (a bit mask) still to play in this trick after the seat to play that it does not
    know for friends (``friends``: ``friends_of``)."""
    out = 0
    for j in range(st[NCARDS] + 1, N_PLAYERS):
        q = (st[LEADER] + j) % N_PLAYERS
        if not (friends >> q) & 1:
            out |= 1 << q
    return out


@njit(cache=True, inline='always')
def stands(st, card, unseen, opps, risk):
    """A ``card`` on top of the trick is likely to stay there: no opponent plays after it (``opps``
    0), or it is a master of its suit (no unseen card outranks it) and the chance that one of
    ``opps`` ruffs it is at most ``risk`` (the seats' chances taken as independent)."""
    if opps == 0:
        return True
    if not is_master(card, unseen):
        return False
    keep = 1.0
    for q in range(N_PLAYERS):
        if (opps >> q) & 1:
            keep *= 1.0 - ruff_chance(st, card // 10, unseen, q)
            if 1.0 - keep > risk:          # keep only falls: the answer is known
                return False
    return True


@njit(cache=True, inline='always')
def standing(st, cards, unseen, opps, risk):
    """The cards of ``cards`` (a mask) that would stand on top of the trick (``stands``)."""
    out = np.int64(0)
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        if stands(st, c, unseen, opps, risk):
            out |= np.int64(1) << c
    return out


@njit(cache=True, inline='always')
def side_thirds(st, p, friends):
    """The thirds seat ``p`` knows its side has won this hand (its own and its known friends',
    ``friends_of``)."""
    t = st[THIRDS + p]
    for q in range(N_PLAYERS):
        if q != p and (friends >> q) & 1:
            t += st[THIRDS + q]
    return t


@njit(cache=True, inline='always')
def side_target(st, opts, p):
    """The thirds p's side needs: the declarer's side 3 x win_points, the defenders the rest of
    the 35 and one more."""
    need = 3 * opts[O_WIN_POINTS]
    if p == st[DECLARER] or p == st[PARTNER]:
        return need
    return 35 - need + 1


@njit(cache=True, inline='always')
def spare_thirds(st, opts, p):
    """The thirds still to be won in the hand (35 in all) beyond what seat ``p`` needs to reach its
    side's target alone (``side_target``; for a solo declarer, his own)."""
    won = 0
    for q in range(N_PLAYERS):
        won += st[THIRDS + q]
    return (HAND_THIRDS - won) - (side_target(st, opts, p) - st[THIRDS + p])


@njit(cache=True, inline='always')
def trumps_out(st, trump, opps):
    """One of the seats ``opps`` (a bit mask) may still hold a trump (not shown void in it)."""
    for q in range(N_PLAYERS):
        if (opps >> q) & 1 and not (st[VOID + q] >> trump) & 1:
            return True
    return False


@njit(cache=True, inline='always')
def plain_master(st, hand, unseen, opps, risk):
    """The richest counting plain-suit master of ``hand`` that stands against ``opps`` (``stands``
    with ``risk``), else -1."""
    best = -1
    bv = 0
    m = masters_of(hand, unseen) & ~suit_mask40(st[TRUMP])
    while m:
        c = lowbit(m)
        m &= m - 1
        v = VALUE_THIRDS[c % 10]
        if v > bv and stands(st, c, unseen, opps, risk):
            bv = v
            best = c
    return best


@njit(cache=True, inline='always')
def solo_draw(st, mine, unseen, prm, opps):
    """The trump a solo declarer leads before anything else while an opponent may hold one, else
    -1: holding ``draw_first`` or more trumps, a master among them, his lowest master; holding
    ``solo_low`` or more without the master trump, his lowest (it drives the master out)."""
    trump = st[TRUMP]
    if mine == 0 or (unseen & suit_mask40(trump)) == 0 or not trumps_out(st, trump, opps):
        return -1
    top = masters_of(mine, unseen)
    if top:
        return lowbit(top) if popcount(mine) >= prm[X_DRAW_FIRST] else -1
    return cheapest(mine, trump) if popcount(mine) >= prm[X_SOLO_LOW] else -1


@njit(cache=True)
def expert_lead(st, opts, p, hand, unseen, prm, friends):
    """The expert's lead, the first rule that applies: a solo declarer's ``solo_draw``; a defender
    against a partnership contract (his own seat tells him he is not the partner) holding
    ``def_trump`` or more trumps leads his lowest while one is unseen; with ``plain_first`` (2:
    not a solo declarer) the richest counting plain master that stands (every seat but its known
    friends after it); a solo declarer holding the master trump with ``draw_trumps`` or more
    trumps, or with at most ``draw_last`` trumps unseen, while an opponent may hold one leads it;
    otherwise as the heuristic (``tricks.lead_card``), except that with ``def_rich`` a defender of a
    partnership contract leads his richest plain card instead of one worth nothing, and a solo
    declarer about to lead a trump that is not a master leads his lowest master trump when fewer
    than ``draw_top`` thirds are out beyond what he needs (a trick given away would cost the
    contract)."""
    trump = st[TRUMP]
    opps = opponents_after(st, friends)
    tmask = suit_mask40(trump)
    mine = hand & tmask
    out = popcount(unseen & tmask)
    solo = p == st[DECLARER] and is_solo(st, opts)
    defender = p != st[DECLARER] and p != st[PARTNER] and not is_solo(st, opts)   # of a partnership
    if solo:
        c = solo_draw(st, mine, unseen, prm, opps)
        if c >= 0:
            return c
    elif defender and prm[X_DEF_TRUMP] > 0 and out and popcount(mine) >= prm[X_DEF_TRUMP]:
        return cheapest(mine, trump)
    if prm[X_PLAIN] > 0 and not (prm[X_PLAIN] > 1 and solo):
        c = plain_master(st, hand, unseen, opps, prm[X_RISK])
        if c >= 0:
            return c
    if solo and mine and out and (popcount(mine) >= prm[X_DRAW] or out <= prm[X_DRAW_LAST]):
        top = highbit(mine)
        if trumps_out(st, trump, opps) and is_master(top, unseen):
            return top
    c = lead_card(hand, unseen, trump)
    if defender and prm[X_DEF_RICH] > 0 and c // 10 != trump and VALUE_THIRDS[c % 10] == 0:
        r = richest(hand & ~tmask, trump)
        if VALUE_THIRDS[r % 10] > 0:
            return r
    if prm[X_DRAW_TOP] > 0 and solo and out and c // 10 == trump and not is_master(c, unseen):
        top = masters_of(mine, unseen)
        if top and spare_thirds(st, opts, p) < prm[X_DRAW_TOP] and trumps_out(st, trump, opps):
            return lowbit(top)
    return c


@njit(cache=True)
def expert_follow(st, opts, p, legal, unseen, prm, friends):
    """The expert's follow (``tricks.follow_card`` read with the odds of a ruff and the sides the
    voids show): a friend on top whose card ``stands`` gets points (``richest``), else the
    cheapest card; against an opponent on top a winner that stands is chosen by ``bank``
    (points first), else the cheapest winner, or the cheapest card on a trick worth nothing;
    the trump 3 and 2 only on a trick worth ``honour_min`` thirds; out of the suit led it
    ruffs only a trick worth ``ruff_min`` thirds (else its cheapest plain card); a solo declarer
    throws a plain card worth nothing there rather than ruff a trick worth fewer than
    ``solo_keep`` thirds (each trump he keeps takes a later trick), except in second hand while
    a trump is out, and with ``solo_ruff`` ruffs with his cheapest trump that stands (1) or that
    wins the trick (2: an overruff risked, his high trumps kept for control; ``bank`` would
    spend the ace)."""
    trump = st[TRUMP]
    k = st[NCARDS]
    w = trick_winner(st[TRICK:TRICK + N_PLAYERS], k, trump)
    best = st[TRICK + w]
    opps = opponents_after(st, friends)
    thirds = mask_thirds(trick_mask(st[TRICK:TRICK + N_PLAYERS], st[NCARDS]))
    if (friends >> ((st[LEADER] + w) % N_PLAYERS)) & 1:
        return richest(legal, trump) if stands(st, best, unseen, opps, prm[X_RISK]) else cheapest(legal, trump)
    win = beating_cards(legal, best, trump)
    if win and thirds < prm[X_HONOUR]:
        win &= ~trump_honours(trump)
    tmask = suit_mask40(trump)
    out_of_led = st[LED] != trump and (legal & suit_mask40(st[LED])) == 0     # a winner here is a ruff
    solo = p == st[DECLARER] and is_solo(st, opts)
    early = k == 1 and (unseen & tmask) != 0       # second hand while a trump is out: a low ruff draws one
    if solo and out_of_led and thirds < prm[X_SOLO_KEEP] and not early and legal & ~tmask:
        c = cheapest(legal & ~tmask, trump)
        if VALUE_THIRDS[c % 10] == 0:
            return c                                # a solo keeps his trump for a trick worth more
    if out_of_led and thirds < prm[X_RUFF_MIN] and legal & ~tmask:
        return cheapest(legal & ~tmask, trump)      # out of the suit led: no ruff on a cheap trick
    if win == 0:
        return cheapest(legal, trump)
    sure = standing(st, win, unseen, opps, prm[X_RISK])
    if sure:
        if prm[X_SOLO_RUFF] > 0 and out_of_led and solo:     # a solo's ruff: his high trumps kept for control
            return cheapest(sure if prm[X_SOLO_RUFF] == 1 else win, trump)
        return bank_card(sure, trump, prm[X_BANK])
    return cheapest(legal, trump) if thirds == 0 else cheapest(win, trump)


@njit(cache=True)
def clinch_card(st, opts, p, legal, unseen, prm, friends):
    """Near the side's target, a trick for sure: leading, the richest master trump; following,
    the cheapest winner that stands against every opponent after it (``ruff_risk``). -1 when
    there is none."""
    trump = st[TRUMP]
    tmask = suit_mask40(trump)
    if st[NCARDS] == 0:
        mt = masters_of(legal, unseen) & tmask
        return richest(mt, trump) if mt else -1
    opps = opponents_after(st, friends)
    win = beating_cards(legal, st[TRICK + trick_winner(st[TRICK:TRICK + N_PLAYERS], st[NCARDS], trump)], trump)
    sure = standing(st, win, unseen, opps, prm[X_RISK])
    return cheapest(sure, trump) if sure else -1


@njit(cache=True)
def expert_card(st, opts, p, legal, prm):
    """The expert's card: at most ``clinch`` thirds short of its side's target a sure trick
    (``clinch_card``), else ``expert_lead`` / ``expert_follow``. It reads only what its seat
    sees: its hand, the cards played, the trick, the voids shown, the hand sizes, the thirds
    won and the contract as its seat knows it."""
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    friends = friends_of(st, opts, p, prm[X_READ])
    if prm[X_CLINCH] > 0 and side_thirds(st, p, friends) >= side_target(st, opts, p) - prm[X_CLINCH]:
        c = clinch_card(st, opts, p, legal, unseen, prm, friends)
        if c >= 0:
            return c
    if st[NCARDS] == 0:
        return expert_lead(st, opts, p, hand, unseen, prm, friends)
    return expert_follow(st, opts, p, legal, unseen, prm, friends)


@njit(cache=True, inline='always')
def choose_card(st, opts, p, legal, sid, prm, gen):
    if sid == S_RANDOM:
        return nth_card(legal, below(gen, popcount(legal)))
    if sid == S_GREEDY:
        return greedy_card(legal, st[TRICK:TRICK + N_PLAYERS], st[NCARDS], st[TRUMP])
    if sid == S_EXPERT:
        return expert_card(st, opts, p, legal, prm)
    return heuristic_card(st, opts, p, legal)
