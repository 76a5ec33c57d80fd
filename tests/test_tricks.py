"""kernels/tricks.py: 40-card ids and notation, values in thirds, follow-suit legality and the
trick winner, checked on the worked examples of marafon.md and differentially against an
obviously-correct slow Python reference on random tricks."""
import random

import numpy as np
import pytest

from cardsim.kernels import tricks as T
from cardsim.sim.games.marafon import fmt40, fmt40_mask, mask40, parse40

ORDER = "4 5 6 7 J Q K A 2 3".split()           # weakest to strongest, every suit
VALUE = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}


# ---- the slow reference: cards as (rank name, suit letter) --------------------------------
def ref_card(c):
    text = fmt40([c])
    return text[:-1], text[-1]


def ref_legal(hand, led):
    if led is None:
        return set(hand)
    follow = {c for c in hand if ref_card(c)[1] == led}
    return follow or set(hand)


def ref_winner(cards, trump):
    """The highest trump if any trump was played, else the highest card of the suit led."""
    led = ref_card(cards[0])[1]
    trumps = [i for i, c in enumerate(cards) if ref_card(c)[1] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if ref_card(c)[1] == led]
    return max(pool, key=lambda i: ORDER.index(ref_card(cards[i])[0]))


def mask_of(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask):
    return {c for c in range(40) if mask >> c & 1}


# ---- ids and notation -----------------------------------------------------------------------
def test_ids_follow_the_suggested_encoding():
    assert parse40("4C 3C 4D 5D 3S") == [0, 9, 10, 11, 39]
    assert parse40("AH 2H 3H") == [27, 28, 29]
    assert fmt40(range(10)) == "4C 5C 6C 7C JC QC KC AC 2C 3C"
    assert fmt40_mask(mask40("3C 2C AC KD QH JS 7D 4D")) == "3C 2C AC KD 7D 4D QH JS"
    for bad in ("8C", "10H", "9S"):
        with pytest.raises(ValueError):
            parse40(bad)


def test_values_in_thirds_total_35_with_the_last_trick():
    assert [int(T.card_thirds(c)) for c in range(10)] == [0, 0, 0, 0, 1, 1, 1, 3, 1, 1]
    for c in range(40):
        assert T.card_thirds(c) == VALUE[ref_card(c)[0]]
    assert T.mask_thirds(T.FULL40) == 32
    assert T.mask_thirds(T.FULL40) + T.LAST_TRICK_THIRDS == T.HAND_THIRDS == 35
    rng = random.Random(1)
    for _ in range(500):
        cards = rng.sample(range(40), rng.randint(0, 40))
        assert T.mask_thirds(mask_of(cards)) == sum(VALUE[ref_card(c)[0]] for c in cards)


# ---- worked examples (marafon.md A11 and B8) ------------------------------------------------
def winner(text, trump):
    return int(T.trick_winner(np.array(parse40(text), np.int64), len(text.split()), "CDHS".index(trump)))


def test_example1_led_suit_wins_discards_lose():
    assert winner("AC 3C 2S 4C", "H") == 1                         # seat 2 (second to play)
    assert T.mask_thirds(mask40("AC 3C 2S 4C")) == 5


def test_example2_any_trump_beats_the_led_suit():
    assert winner("3H 4S 2H 5S", "S") == 3
    assert T.mask_thirds(mask40("3H 4S 2H 5S")) == 2


def test_example3_rank_order_is_not_numeric():
    ids = parse40("3D 2D AD KD QD JD 7D")
    assert ids == sorted(ids, reverse=True)
    assert winner("KD QD 7D JD", "C") == 0


def test_example4_legal_moves():
    hand = mask40("3C 7C AS 4H")
    assert cards_of(T.legal_cards(hand, 0)) == set(parse40("3C 7C"))
    assert cards_of(T.legal_cards(hand, 1)) == set(parse40("3C 7C AS 4H"))
    assert T.legal_cards(hand, -1) == hand


def test_trionfo_example3_five_card_trick():
    assert winner("KS AS 4H 7H 2S", "H") == 3
    assert T.mask_thirds(mask40("KS AS 4H 7H 2S")) == 5


def test_cricche_and_masters():
    assert T.cricche(mask40("3H 2H AH 4C")) == 1 << 2
    assert T.cricche(mask40("3H 2H KH 3C 2C AC")) == 1 << 0
    unseen = mask40("2C KC")
    assert T.is_master(parse40("3C")[0], unseen)
    assert not T.is_master(parse40("AC")[0], unseen)
    assert T.is_master(parse40("4D")[0], unseen)


# ---- differential tests against the reference -------------------------------------------------
def test_legality_matches_the_reference():
    rng = random.Random(7)
    for _ in range(3000):
        hand = rng.sample(range(40), rng.randint(1, 10))
        led = rng.choice([None, "C", "D", "H", "S"])
        got = cards_of(T.legal_cards(mask_of(hand), -1 if led is None else "CDHS".index(led)))
        assert got == ref_legal(hand, led)


@pytest.mark.parametrize("n", [4, 5])
def test_trick_winner_matches_the_reference(n):
    rng = random.Random(n)
    for _ in range(4000):
        cards = rng.sample(range(40), n)
        trump = rng.choice("CDHS")
        assert winner(fmt40(cards), trump) == ref_winner(cards, trump)


def test_beating_cards_match_the_winner():
    rng = random.Random(3)
    for _ in range(2000):
        best, *rest = rng.sample(range(40), 8)
        trump = rng.randrange(4)
        beat = cards_of(T.beating_cards(mask_of(rest), best, trump))
        for c in rest:
            assert (c in beat) == bool(T.beats(c, best, trump))
            assert (c in beat) == (ref_winner([best, c], "CDHS"[trump]) == 1)


def test_highbit():
    from numba import njit

    @njit
    def hb(x):
        return T.highbit(x)
    for x in (1, 2, 3, 1 << 39, (1 << 40) - 1, 0b1010000):
        assert hb(np.int64(x)) == x.bit_length() - 1


def test_void_chance_is_hypergeometric():
    """The chance that a hand of ``held`` of the unseen cards has none of a suit."""
    from math import comb
    unseen = mask40("3C 2C AC KD QD JD 7D 6H 5H 4S")
    for held in range(0, 8):
        want = comb(10 - 3, held) / comb(10, held)
        assert abs(T.void_chance(unseen, 0, held) - want) < 1e-12
    assert T.void_chance(unseen, 0, 8) == 0.0
    assert T.void_chance(unseen & ~mask40("3C 2C AC"), 0, 5) == 1.0


def test_bank_card():
    """bank 0 is ``cheapest``; bank 2 takes the ace, then a figure, before a scartino, and the
    trump 3 and 2 last."""
    cards = mask40("AS KS 4S 3H")
    for trump in range(4):
        assert T.bank_card(cards, trump, 0.0) == T.cheapest(cards, trump)
    assert T.bank_card(cards, 0, 2.0) == parse40("AS")[0]
    assert T.bank_card(mask40("KS 4S"), 0, 2.0) == parse40("KS")[0]
    assert T.bank_card(mask40("3H 2H 4S"), 2, 2.0) == parse40("4S")[0]


# ---- what both games' kernels share (issue 42): tricks and trick_search ------------------------
def test_both_games_use_the_shared_kernels():
    """The games' kernels import these from the shared modules (no copies of their own)."""
    from cardsim.kernels import marafon as KM
    from cardsim.kernels import trick_search as TS
    from cardsim.kernels import trionfo as KT
    for K in (KM, KT):
        for name in ("trick_mask", "greedy_card", "holder_of", "cards_conserved"):
            assert getattr(K, name) is getattr(T, name), name
        for name in ("act_code", "decision_kind", "mask_acts", "place", "ACT_SHIFT", "ACT_MASK", "HALT"):
            assert getattr(K, name) is getattr(TS, name), name
    assert KM.CRICCA is T.CRICCA


def test_trick_mask():
    rng = random.Random(11)
    for _ in range(500):
        n = rng.randint(0, 5)
        cards = rng.sample(range(40), 5)
        arr = np.array(cards, np.int64)
        assert T.trick_mask(arr, n) == mask_of(cards[:n])


def test_greedy_card_matches_the_reference():
    """Leading: the cheapest card; following: the cheapest card that takes the trick (the slow
    reference's winner), else the cheapest."""
    rng = random.Random(12)
    for _ in range(2000):
        deal = rng.sample(range(40), 13)
        trick, hand = deal[:rng.randint(0, 4)], deal[5:]
        trump = rng.randrange(4)
        led = -1 if not trick else trick[0] // 10
        legal = T.legal_cards(mask_of(hand), led)
        got = int(T.greedy_card(legal, np.array(trick + [0] * (5 - len(trick)), np.int64), len(trick), trump))
        assert legal >> got & 1
        if not trick:
            assert got == T.cheapest(legal, trump)
            continue
        win = [c for c in cards_of(legal) if ref_winner(trick + [c], "CDHS"[trump]) == len(trick)]
        assert got == T.cheapest(mask_of(win) if win else legal, trump)


def test_holder_of():
    rng = random.Random(13)
    for seats in (4, 5):
        deck = rng.sample(range(40), 40)
        size = 40 // seats
        hands = np.array([mask_of(deck[size * p:size * (p + 1)]) for p in range(seats)], np.int64)
        for c in range(40):
            assert T.holder_of(hands, c) == deck.index(c) // size
        hands[0] = 0
        assert all(T.holder_of(hands, c) == -1 for c in deck[:size])


@pytest.mark.parametrize("seats,tricks", [(4, 10), (5, 8)])
def test_cards_conserved(seats, tricks):
    """A random point of a hand conserves the cards; a card lost, doubled or moved does not."""
    rng = random.Random(seats)
    for _ in range(300):
        deck = rng.sample(range(40), 40)
        hands = [deck[tricks * p:tricks * (p + 1)] for p in range(seats)]
        done, ncards, leader = rng.randrange(tricks), rng.randrange(seats), rng.randrange(seats)
        played = []
        for p in range(seats):
            for _ in range(done + (1 if (p - leader) % seats < ncards else 0)):
                played.append(hands[p].pop(rng.randrange(len(hands[p]))))
        arr = np.array([mask_of(h) for h in hands], np.int64)
        pm = mask_of(played)
        left = tricks - done
        assert T.cards_conserved(arr, pm, leader, ncards, left)
        q = rng.choice([p for p in range(seats) if hands[p]])          # a seat holding cards
        c = rng.choice(hands[q])
        lost = arr.copy()
        lost[q] ^= 1 << c
        assert not T.cards_conserved(lost, pm, leader, ncards, left)
        assert not T.cards_conserved(arr, pm | 1 << c, leader, ncards, left)             # doubled
        moved = lost.copy()
        moved[(q + 1) % seats] |= 1 << c
        assert not T.cards_conserved(moved, pm, leader, ncards, left)
        if ncards:
            assert not T.cards_conserved(arr, pm, (leader + 1) % seats, ncards, left)


def _fits(rem, left, elig):
    """Slow reference of Hall's condition: some deal gives every seat exactly ``left[j]`` of the
    cards ``rem`` (per suit), each card to a seat that may take its suit."""
    def go(s, left):
        if s == 4:
            return not any(left)
        def split(k, j, left):
            if j == len(left):
                return k == 0 and go(s + 1, left)
            if not elig[s] >> j & 1:
                return split(k, j + 1, left)
            return any(split(k - x, j + 1, left[:j] + (left[j] - x,) + left[j + 1:])
                       for x in range(min(k, left[j]) + 1))
        return split(rem[s], 0, left)
    return sum(rem) == sum(left) and go(0, tuple(left))


@pytest.mark.parametrize("seats", [3, 4])
def test_deal_feasible_is_halls_condition(seats):
    from cardsim.kernels import trick_search as TS
    rng = random.Random(20 + seats)
    for _ in range(400):
        rem = [rng.randint(0, 3) for _ in range(4)]
        cut = sorted(rng.randint(0, sum(rem)) for _ in range(seats - 1))
        left = [b - a for a, b in zip([0] + cut, cut + [sum(rem)])]
        elig = [rng.randrange(1 << seats) for _ in range(4)]
        got = TS.deal_feasible(np.array(rem, np.int64), np.array(left, np.int64), np.array(elig, np.int64))
        assert got == _fits(rem, left, elig), (rem, left, elig)


def test_place_keeps_the_deal_feasible_and_is_uniform_without_voids():
    """``place`` takes a seat that may hold the suit, leaves the rest dealable, returns -1 only when
    no seat can take the card; without voids a seat is drawn in proportion to its open places."""
    from cardsim.kernels import trick_search as TS
    gen = np.array([12345, 0], dtype=np.uint64)
    rng = random.Random(30)
    for _ in range(300):
        seats = rng.choice([3, 4])
        rem = [rng.randint(0, 3) for _ in range(4)]
        s = rng.randrange(4)
        cut = sorted(rng.randint(0, sum(rem) + 1) for _ in range(seats - 1))
        left = [b - a for a, b in zip([0] + cut, cut + [sum(rem) + 1])]
        elig = [rng.randrange(1 << seats) for _ in range(4)]
        lf = np.array(left, np.int64)
        j = TS.place(10 * s, elig[s], lf, np.array(rem, np.int64), np.array(elig, np.int64), gen)
        if j < 0:
            assert list(lf) == left
            assert not any(elig[s] >> k & 1 and left[k] and _fits(rem, left[:k] + [left[k] - 1] + left[k + 1:], elig)
                           for k in range(seats))
        else:
            assert elig[s] >> j & 1 and lf[j] == left[j] - 1 and _fits(rem, list(lf), elig)
    counts = [0, 0, 0]
    for _ in range(6000):
        lf = np.array([1, 2, 3], np.int64)
        counts[TS.place(0, 7, lf, np.array([5, 0, 0, 0], np.int64), np.array([7, 7, 7, 7], np.int64), gen)] += 1
    for k, want in enumerate((1000, 2000, 3000)):
        assert abs(counts[k] - want) < 200, counts


def test_action_codes():
    from cardsim.kernels import trick_search as TS
    rng = random.Random(40)
    acts = np.zeros(40, np.int64)
    for _ in range(300):
        kind = rng.randrange(5)
        cards = sorted(rng.sample(range(40), rng.randint(1, 10)))
        v = rng.choice(cards)
        n, i = TS.mask_acts(kind, mask_of(cards), v, acts)
        assert (n, i) == (len(cards), cards.index(v))
        for k, c in enumerate(cards):
            assert acts[k] == TS.act_code(kind, c) == (kind << TS.ACT_SHIFT) | c
            assert TS.decision_kind(acts[k]) == kind and acts[k] & TS.ACT_MASK == c
