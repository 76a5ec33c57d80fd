"""Card encoding, notation, bit helpers, the counter-based RNG, and the Tonk spread
detectors checked against slow brute force (tonk.md §1 card values, §4 spreads)."""
from itertools import combinations

import numpy as np
import pytest
from numba import njit

from cardsim.kernels import cards as KC
from cardsim.kernels import rng as R
from cardsim.kernels import tonk as K
from cardsim.sim.notation import fmt, fmt_card, fmt_mask, mask_cards, parse, parse_card, parse_mask


# =============================================================================
# notation
# =============================================================================
def test_card_ids_follow_suit_times_13_plus_rank():
    """cards.py: card = suit * 13 + rank, rank 0 = A ... 12 = K, suits C D H S."""
    assert parse("AC 2C KC AD 7C 10H QS KS") == [0, 1, 12, 13, 6, 35, 50, 51]


def test_notation_round_trip_all_cards():
    every = [fmt_card(c) for c in range(52)]
    assert len(set(every)) == 52
    assert parse(" ".join(every)) == list(range(52))
    assert fmt(parse("7C 10H QS AD")) == "7C 10H QS AD"
    assert parse_mask(fmt_mask(KC.FULL_DECK)) == KC.FULL_DECK
    assert fmt_mask(0) == "-"
    assert mask_cards(parse_mask("QS 7C 10H")) == [6, 35, 50]          # suit then rank


def test_notation_aliases():
    assert parse("TH 1S qs 10h, 7♣ K♦ A♥ 2♠") == parse("10H AS QS 10H 7C KD AH 2S")
    assert parse_card("JK") == KC.JOKER and fmt_card(KC.JOKER) == "JK"


@pytest.mark.parametrize("bad", ["11H", "7X", "H", "10", "", "ZZ", "0C", "QSS"])
def test_bad_card_raises_naming_token(bad):
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


def test_bad_token_in_list_is_named():
    with pytest.raises(ValueError, match="'7X'"):
        parse("7C 7X 8C")


def test_joker_and_bad_ids_rejected():
    with pytest.raises(ValueError, match="joker"):
        parse_mask("7C JK")
    for bad in (-1, 53, 60):
        with pytest.raises(ValueError, match="not a card id"):
            fmt_card(bad)


# =============================================================================
# bit helpers (intrinsics only run inside jitted code)
# =============================================================================
@njit(cache=True)
def _pop_low(xs, pop, low):
    for i in range(xs.shape[0]):
        pop[i] = KC.popcount(xs[i])
        low[i] = KC.lowbit(xs[i]) if xs[i] != 0 else -1


def _random_masks(rng, k, max_bits=52):
    return np.array([int(rng.integers(1, 1 << max_bits, dtype=np.int64)) for _ in range(k)]
                    + [1, 1 << 51, KC.FULL_DECK, 0], dtype=np.int64)


def test_popcount_lowbit():
    xs = _random_masks(np.random.default_rng(1), 2000)
    pop = np.empty_like(xs)
    low = np.empty_like(xs)
    _pop_low(xs, pop, low)
    for x, p, lo in zip(xs.tolist(), pop.tolist(), low.tolist()):
        assert p == bin(x).count("1")
        assert lo == ((x & -x).bit_length() - 1 if x else -1)


def test_card_tables_and_masks():
    """§1: A = 1, 2..10 face value, J Q K = 10; 16 ten-point cards."""
    assert KC.POINTS_TEN_CAP.tolist() == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert sum(KC.POINTS_TEN_CAP[c % 13] == 10 for c in range(52)) == 16
    for r in range(13):
        assert mask_cards(KC.rank_mask(r)) == [r, r + 13, r + 26, r + 39]
    for s in range(4):
        assert mask_cards(KC.suit_mask(s)) == list(range(13 * s, 13 * s + 13))
    rng = np.random.default_rng(2)
    for x in _random_masks(rng, 300).tolist():
        cards = mask_cards(x)
        assert KC.mask_points(x, KC.POINTS_TEN_CAP) == sum(int(KC.POINTS_TEN_CAP[c % 13]) for c in cards)
        assert KC.ranks_present(x) == sum(1 << r for r in {c % 13 for c in cards})
        if cards:
            k = int(rng.integers(len(cards)))
            assert KC.nth_card(x, k) == cards[k]


def test_run_neighbours_ace_low_no_wrap():
    """§1: ace low only; K-A-2 is not a run, so A and K are not neighbours."""
    for c in range(52):
        got = set(mask_cards(KC.run_neighbours(np.int64(1) << c)))
        want = {c + d for d in (-1, 1) if 0 <= c % 13 + d <= 12}
        assert got == want, fmt_card(c)


# =============================================================================
# rng
# =============================================================================
def _draws(seed, deal, stream, k):
    g = R.new_stream(seed, deal, stream)
    return [int(R.next_u64(g)) for _ in range(k)]


def test_splitmix_known_answer():
    """mix64(0 + 1 * GOLDEN) is SplitMix64's first output from state 0."""
    assert int(R.mix64(R.GOLDEN)) == 0xE220A8397B1DCDAF


def test_streams_reproducible_and_distinct():
    a = _draws(7, 3, R.STREAM_DECK, 8)
    assert a == _draws(7, 3, R.STREAM_DECK, 8)
    others = [_draws(7, 4, R.STREAM_DECK, 8), _draws(8, 3, R.STREAM_DECK, 8),
              _draws(7, 3, R.STREAM_PLAY, 8), _draws(7, 0, R.STREAM_DECK, 8)]
    for o in others:
        assert not set(a) & set(o)
    assert len(set(a)) == 8


def test_reseed_resets_counter():
    g = R.new_stream(1, 2, 0)
    first = [int(R.next_u64(g)) for _ in range(3)]
    R.seed_stream(g, 1, 2, 0)
    assert [int(R.next_u64(g)) for _ in range(3)] == first


@njit(cache=True)
def _below_many(seed, n, k, out):
    g = R.new_stream(seed, 0, 0)
    for i in range(k):
        out[i] = R.below(g, n)


@pytest.mark.parametrize("n", [1, 2, 7, 52, 1000, 2**31 + 11])
def test_below_in_range(n):
    out = np.empty(20000, np.int64)
    _below_many(5, n, out.shape[0], out)
    assert out.min() >= 0 and out.max() < n
    if n > 1:
        assert out.max() > 0


@pytest.mark.parametrize("n", [7, 52])
def test_below_roughly_uniform(n):
    k = 2000 * n
    out = np.empty(k, np.int64)
    _below_many(11, n, k, out)
    counts = np.bincount(out, minlength=n)
    chi2 = ((counts - k / n) ** 2 / (k / n)).sum()
    # df = n-1; mean n-1, sd sqrt(2(n-1)): a 6-sd bound is very loose but catches bias
    assert chi2 < (n - 1) + 6 * np.sqrt(2 * (n - 1))


@njit(cache=True)
def _shuffle_perm3(k, out):
    g = R.new_stream(3, 0, 0)
    a = np.empty(5, np.int64)
    for i in range(k):
        for j in range(5):
            a[j] = j
        R.shuffle(g, a, 1, 4)             # only a[1:4] moves
        out[i] = (a[1] - 1) * 9 + (a[2] - 1) * 3 + (a[3] - 1) + 100 * (a[0] != 0 or a[4] != 4)


def test_shuffle_permutation_and_uniform():
    g = R.new_stream(9, 9, R.STREAM_DECK)
    arr = np.arange(52, dtype=np.int64)
    R.shuffle(g, arr, 0, 52)
    assert sorted(arr.tolist()) == list(range(52)) and arr.tolist() != list(range(52))
    k = 60000
    out = np.empty(k, np.int64)
    _shuffle_perm3(k, out)
    vals, counts = np.unique(out, return_counts=True)
    assert len(vals) == 6 and vals.max() < 100            # 6 permutations, outside untouched
    chi2 = ((counts - k / 6) ** 2 / (k / 6)).sum()
    assert chi2 < 5 + 6 * np.sqrt(10)


# =============================================================================
# spread detection vs brute force (§4)
# =============================================================================
def _is_book(cards):
    return len(cards) in (3, 4) and len({c % 13 for c in cards}) == 1


def _is_run(cards):
    if len(cards) < 3 or len({c // 13 for c in cards}) != 1:
        return False
    ranks = sorted(c % 13 for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def _is_spread(cards):
    return _is_book(cards) or _is_run(cards)


def _brute_lays(hand):
    cards = mask_cards(hand)
    return {sum(1 << c for c in sub) for k in range(3, len(cards) + 1)
            for sub in combinations(cards, k) if _is_spread(sub)}


def _random_hands(count, seed):
    """Hands of 1..6 cards; half from a dense sub-deck so books and runs are common."""
    rng = np.random.default_rng(seed)
    dense = [s * 13 + r for s in range(2) for r in range(5)]          # A..5 of clubs, diamonds
    dense += [26 + 2, 39 + 2, 26 + 3, 39 + 3, 39 + 10, 39 + 11, 39 + 12]  # 3s, 4s, J Q K of spades
    hands = []
    for i in range(count):
        size = int(rng.integers(1, 7)) if i % 2 == 0 else int(rng.integers(3, 7))
        pool = dense if i % 2 else range(52)
        picks = rng.choice(sorted(set(pool)), size=size, replace=False)
        hands.append(sum(1 << int(c) for c in picks))
    return hands


def test_add_lays_matches_brute_force():
    acts = np.empty(K.MAX_ACTS, np.int64)
    nonempty = 0
    for hand in _random_hands(4000, 21):
        n = K.add_lays(hand, -1, acts, 0)
        got = [int(a) for a in acts[:n]]
        assert all(a & 15 == K.A_LAY for a in got)
        masks = [a >> 8 for a in got]
        assert len(masks) == len(set(masks)), fmt_mask(hand)
        want = _brute_lays(hand)
        assert set(masks) == want, fmt_mask(hand)
        nonempty += bool(want)
    assert nonempty > 250


def test_add_lays_need_filter():
    """With ``need`` (discard_pickup_must_be_used) only lays containing that card."""
    acts = np.empty(K.MAX_ACTS, np.int64)
    for hand in _random_hands(1000, 22):
        for need in mask_cards(hand):
            n = K.add_lays(hand, need, acts, 0)
            got = {int(a) >> 8 for a in acts[:n]}
            assert got == {m for m in _brute_lays(hand) if m >> need & 1}


def test_has_spread_and_forms_spread_match_brute_force():
    """has_spread(hand, aces_exempt) and forms_spread(hand, card) (§4, §8.2)."""
    rng = np.random.default_rng(23)
    hits = [0, 0]
    for hand in _random_hands(4000, 24):
        lays = [mask_cards(m) for m in _brute_lays(hand)]
        want = bool(lays)
        want_exempt = any(not (_is_book(s) and s[0] % 13 == 0) for s in lays)
        assert K.has_spread(hand, False) == want, fmt_mask(hand)
        assert K.has_spread(hand, True) == want_exempt, fmt_mask(hand)
        hits[0] += want
        outside = [c for c in range(52) if not hand >> c & 1]
        for card in rng.choice(outside, size=4, replace=False).tolist() + mask_cards(hand)[:1]:
            h = hand | 1 << card
            want_f = any(_is_spread(s) for k in range(3, 7)
                         for s in combinations(mask_cards(h), k) if card in s)
            assert K.forms_spread(hand, card) == want_f, (fmt_mask(hand), fmt_card(card))
            hits[1] += want_f
    assert min(hits) > 250


def test_hand_count_and_deal_tonk_hands():
    """§3.2: the only 49/50 five-card hands are five ten-pointers or four plus a 9."""
    tens = [c for c in range(52) if c % 13 >= 9]
    nines = [c for c in range(52) if c % 13 == 8]
    assert len(tens) == 16
    for hand in _random_hands(500, 25):
        assert K.hand_count(hand) == sum(min(c % 13 + 1, 10) for c in mask_cards(hand))
    assert K.hand_count(sum(1 << c for c in tens[:5])) == 50
    assert K.hand_count(sum(1 << c for c in tens[3:7]) | 1 << nines[2]) == 49
