"""Marafon's built-in strategies: an id (``S_*``) and a float parameter row per seat. The trump
(``choose_trump``), the claims (``wants_claim``), an optional marafona (``wants_declare``) and the
card (``choose_card``: random, greedy, heuristic, and the expert's reads of the table, issue 41);
the package docstring describes each strategy."""
import numpy as np

from cardsim.kernels.cards import lowbit, nth_card, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below, uniform
from cardsim.kernels.tricks import (
    bank_card,
    beating_cards,
    best_trump,
    cheapest,
    cricche,
    follow_card,
    FULL40,
    greedy_card,
    highbit,
    is_master,
    lead_card,
    longest_plain_suit,
    mask_thirds,
    masters,
    masters_of,
    richest,
    ruff_odds,
    suit_mask40,
    trick_mask,
    trick_winner,
    trump_honours,
    trump_score,
    VALUE_THIRDS,
)
from cardsim.kernels.marafon.layout import (
    F_CLAIM_DUE,
    F_CLAIM_PROB,
    GREEDY_MARAFONA_WEIGHT,
    H_HONOUR_MIN,
    H_MARAF_WEIGHT,
    H_MARGIN,
    H_NOISE,
    HAND,
    LEADER,
    NCARDS,
    O_MARAF_POINTS,
    O_TARGET,
    O_TRUMP_ONLY,
    PLAYED,
    S_EXPERT,
    S_GREEDY,
    S_RANDOM,
    TRICK,
    TRUMP,
    VOID,
    X_BANK,
    X_CLINCH,
    X_DRAW,
    X_PLAIN,
    X_DRAW_LOW,
    X_DUCK,
    X_HONOUR_COUNT,
    X_RISK,
    X_FIGURE,
    X_TOP,
)
from cardsim.kernels.marafon.rules import side_count


@njit(cache=True, inline='always')
def choose_trump(hand, sid, prm, opts, gen):
    """The trump-choice policy sees only the battitore's own ten cards (§A3) and the rules.

    greedy / heuristic: the suit of best ``tricks.trump_score``, where a suit holding the
    3-2-A scores ``marafona_weight`` more (heuristic's parameter; greedy: GREEDY_MARAFONA_WEIGHT)
    when the rules pay the marafona only in trumps, so the battitore keeps his marafona
    (before this, 7 % of the hands holding a cricca named another, longer suit)."""
    if sid == S_RANDOM:
        return below(gen, 4)
    c = cricche(hand)
    if c == 0 or opts[O_TRUMP_ONLY] == 0 or opts[O_MARAF_POINTS] == 0:
        return best_trump(hand)
    w = GREEDY_MARAFONA_WEIGHT if sid == S_GREEDY else prm[H_MARAF_WEIGHT]
    best = 0
    bv = -1e300
    for s in range(4):
        v = trump_score(hand, s) + (w if (c >> s) & 1 else 0.0)
        if v > bv:
            bv = v
            best = s
    return best


@njit(cache=True, inline='always')
def wants_claim(st, opts, p, sid, prm, gen):
    """random: with probability claim_prob (or claim_due once the count is due). greedy: exact count. heuristic: a count off by up
    to memory_noise thirds (uniform), claiming with claim_margin thirds to spare."""
    c = side_count(st, opts, p & 1)
    t = opts[O_TARGET]
    if sid == S_RANDOM:
        if prm[F_CLAIM_DUE] > 0 and c >= t and uniform(gen) < prm[F_CLAIM_DUE]:
            return True
        return prm[F_CLAIM_PROB] > 0 and uniform(gen) < prm[F_CLAIM_PROB]
    if sid == S_GREEDY:
        return c >= t
    noise = np.int64(prm[H_NOISE])
    if c + noise < t + prm[H_MARGIN]:
        return False
    if noise > 0:
        c += below(gen, 2 * noise + 1) - noise
    return c >= t + prm[H_MARGIN]


@njit(cache=True, inline='always')
def wants_declare(sid, gen):
    """Only asked when declaring is optional: random tosses a coin, the others declare."""
    if sid == S_RANDOM:
        return below(gen, 2) == 1
    return True


@njit(cache=True, inline='always')
def heuristic_card(st, p, legal, prm):
    """Club-player card play (``tricks.lead_card`` / ``tricks.follow_card``)."""
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    trump = st[TRUMP]
    k = st[NCARDS]
    if k == 0:
        return lead_card(hand, unseen, trump)
    w = trick_winner(st[TRICK:TRICK + 4], k, trump)
    friend = ((st[LEADER] + w) & 1) == (p & 1)
    opp_after = 2 if k == 0 else (1 if k < 3 else 0)
    return follow_card(legal, unseen, st[TRICK + w], friend, opp_after,
                       mask_thirds(trick_mask(st[TRICK:TRICK + 4], st[NCARDS])), trump, prm[H_HONOUR_MIN])


# ---- the expert (issue 41): heuristic plus what a good player reads from the table ----------
@njit(cache=True)
def ruff_chance(st, suit, unseen, q):
    """Chance that seat ``q`` can ruff a card of ``suit`` (``tricks.ruff_odds``: its voids shown,
    its hand's size that everyone sees)."""
    return ruff_odds(suit, st[TRUMP], unseen, st[VOID + q], popcount(st[HAND + q]))


@njit(cache=True)
def stands(st, card, unseen, last, risk):
    """A ``card`` on top of the trick is likely to stay there: no opponent plays after it (``last``
    -1), or it is a master of its suit (no unseen card outranks it) that ``last``, the opponent
    still to play, ruffs with a chance of at most ``risk``."""
    return last < 0 or (is_master(card, unseen) and ruff_chance(st, card // 10, unseen, last) <= risk)


@njit(cache=True)
def trump_draw(st, p, hand, unseen, prm):
    """The trump the expert leads to draw trumps, else -1: while an opponent may still hold one
    (not both shown void), holding ``draw_trumps`` or more (the master trump if held, else the
    lowest), or ``draw_low`` or more without the master trump (the lowest)."""
    trump = st[TRUMP]
    tmask = suit_mask40(trump)
    mine = hand & tmask
    opp_void = ((st[VOID + ((p + 1) & 3)] & st[VOID + ((p + 3) & 3)]) >> trump) & 1
    if mine and (unseen & tmask) and not opp_void:
        held = popcount(mine)
        top = highbit(mine)                      # the highest trump held
        master = is_master(top, unseen)
        if held >= prm[X_DRAW]:
            return top if master else cheapest(mine, trump)
        if held >= prm[X_DRAW_LOW] and not master:
            return cheapest(mine, trump)
    return -1


@njit(cache=True)
def expert_follow(st, p, legal, unseen, prm):
    """The expert's follow (``tricks.follow_card`` read with the odds of a ruff): a partner on
    top whose card ``stands`` (the last opponent ruffs it with a chance of at most
    ``ruff_risk``) gets points (``richest``), else the cheapest card; against an opponent on top
    a winner that stands (the fourth hand: any winner) is chosen by ``bank`` (points first:
    what is won now cannot be lost later), else the cheapest winner, or the cheapest card on a
    trick worth nothing; the trump 3 and 2 only on a trick worth ``honour_min`` thirds."""
    trump = st[TRUMP]
    k = st[NCARDS]
    w = trick_winner(st[TRICK:TRICK + 4], k, trump)
    best = st[TRICK + w]
    last = (st[LEADER] + 3) & 3 if k < 3 else -1
    thirds = mask_thirds(trick_mask(st[TRICK:TRICK + 4], st[NCARDS]))
    if ((st[LEADER] + w) & 1) == (p & 1):
        return richest(legal, trump) if stands(st, best, unseen, last, prm[X_RISK]) else cheapest(legal, trump)
    if k == 1 and thirds < prm[X_DUCK]:          # second hand low on a lead worth little
        return cheapest(legal, trump)
    win = beating_cards(legal, best, trump)
    lose = thirds
    if prm[X_HONOUR_COUNT] > 0 and (prm[X_HONOUR_COUNT] < 2 or k == 3):
        rest = legal & ~trump_honours(trump)
        if rest:
            lose += VALUE_THIRDS[cheapest(rest, trump) % 10]     # what the trick takes of ours instead
    if win and lose < prm[H_HONOUR_MIN]:         # the trump 3 and 2 wait for a trick worth them
        win &= ~trump_honours(trump)
    if win == 0:
        return cheapest(legal, trump)
    sure = 0
    m = win
    while m:
        c = lowbit(m)
        m &= m - 1
        if stands(st, c, unseen, last, prm[X_RISK]):
            sure |= np.int64(1) << c
    if sure:
        return bank_card(sure, trump, prm[X_BANK])
    return cheapest(legal, trump) if thirds == 0 else cheapest(win, trump)


@njit(cache=True)
def clinch_card(st, legal, unseen):
    """At game point, a trick for sure: leading, the richest master trump, else the richest
    master; following, the cheapest sure winner (in fourth hand any winner, else a master
    trump). -1 when there is none."""
    trump = st[TRUMP]
    tmask = suit_mask40(trump)
    masters = masters_of(legal, unseen)
    if st[NCARDS] == 0:
        if masters & tmask:
            return richest(masters & tmask, trump)
        return richest(masters, trump) if masters else -1
    win = beating_cards(legal, st[TRICK + trick_winner(st[TRICK:TRICK + 4], st[NCARDS], trump)], trump)
    sure = win if st[NCARDS] == 3 else win & masters & tmask
    return cheapest(sure, trump) if sure else -1


@njit(cache=True)
def plain_master_lead(hand, unseen, trump, top):
    """The richest plain-suit master of ``hand`` when it counts (a figure, 2, 3 or ace), else -1;
    with ``top``, of the masters of its suit worth as much the highest, the one its partner too
    sees as a master (so that it gives points to it)."""
    plain = masters_of(hand, unseen) & ~suit_mask40(trump)
    best = richest(plain, trump) if plain else -1
    if best < 0 or VALUE_THIRDS[best % 10] < 1:
        return -1
    if top:
        m = plain & suit_mask40(best // 10)
        while m:
            c = lowbit(m)
            m &= m - 1
            if VALUE_THIRDS[c % 10] == VALUE_THIRDS[best % 10]:
                best = c                        # lowest first: the last is the highest
    return best


@njit(cache=True)
def figure_lead(hand, unseen, trump, n):
    """With no master in ``hand`` (``tricks.masters``), the highest figure (J, Q, K) of its longest
    plain suit (``tricks.longest_plain_suit``) when that suit holds at least ``n`` cards, else -1."""
    if masters(hand, unseen, trump):
        return -1
    long_s, length = longest_plain_suit(hand, trump)
    if long_s < 0 or length < n:
        return -1
    figures = hand & (np.int64(0b0001110000) << (10 * long_s))      # its J, Q, K
    return highbit(figures) if figures else -1


@njit(cache=True, inline='always')
def expert_card(st, opts, p, legal, prm):
    """The expert's card: at most ``clinch`` thirds short of the target a sure trick
    (``clinch_card``: a trick won lets the side claim); leading, a trump draw (``trump_draw``)
    and with ``plain_first`` a counting plain master (``plain_master_lead``; 1 before the draw, 2
    after it), else as the heuristic (``tricks.lead_card``); following, ``expert_follow``.
    It reads only what its seat sees: its hand, the cards played, the trick, the voids shown,
    the hand sizes and the counts."""
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    if prm[X_CLINCH] > 0 and side_count(st, opts, p & 1) >= opts[O_TARGET] - prm[X_CLINCH]:
        c = clinch_card(st, legal, unseen)
        if c >= 0:
            return c
    if st[NCARDS] == 0:
        draw = trump_draw(st, p, hand, unseen, prm)
        if draw >= 0 and prm[X_PLAIN] > 1:      # trumps drawn before the plain masters
            return draw
        if prm[X_PLAIN] > 0:
            c = plain_master_lead(hand, unseen, st[TRUMP], prm[X_TOP] > 0)
            if c >= 0:
                return c
        if draw >= 0:
            return draw
        if prm[X_FIGURE] > 0:
            c = figure_lead(hand, unseen, st[TRUMP], prm[X_FIGURE])
            if c >= 0:
                return c
        return lead_card(hand, unseen, st[TRUMP])
    return expert_follow(st, p, legal, unseen, prm)


@njit(cache=True, inline='always')
def choose_card(st, opts, p, legal, sid, prm, gen):
    if sid == S_RANDOM:
        return nth_card(legal, below(gen, popcount(legal)))
    if sid == S_GREEDY:
        return greedy_card(legal, st[TRICK:TRICK + 4], st[NCARDS], st[TRUMP])
    if sid == S_EXPERT:
        return expert_card(st, opts, p, legal, prm)
    return heuristic_card(st, p, legal, prm)
