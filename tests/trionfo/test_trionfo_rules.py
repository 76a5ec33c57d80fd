"""Trionfo (kernels/trionfo/) on stacked states: the worked examples of marafon.md B8
(auction and leader, all pass, partnership won, thin margin, solo lost), the deal in packets
of 4, the called partner and every section C option of Part B."""
import numpy as np
import pytest

from cardsim.kernels import trionfo as K
from cardsim.kernels.jit import no_plugin
from cardsim.kernels.rng import seed_stream
from cardsim.sim.games.marafon import mask40, parse40
from cardsim.sim.games.trionfo import GAME, TrionfoOptions
from cardsim.sim.registry import seat_arrays, seat_table

NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)
# no plug-in: the function the kernels take
NO_PLUG = (no_plugin,)
GREEDY = seat_arrays(GAME, seat_table(GAME, ["greedy"], 5))


def options(**kw):
    return TrionfoOptions(**kw).to_array(5)


def gen(seed=1, stream=0):
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, 0, stream)
    return g


def fresh(dealer=0, hand_idx=2):
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N] = 5
    st[K.DEALER] = dealer
    st[K.HAND_IDX] = hand_idx
    K.deal(st, gen(dealer, 16), NO_TRACE)
    return st


# =============================================================================
# B8.1: auction and leader
# =============================================================================
def example1(**kw):
    """Hand 3, dealer 0: 1 pass, 2 chiamo, 3 pass, 4 di più, 0 pass, 2 pass."""
    opts = options(**kw)
    st = fresh(dealer=0)
    assert st[K.FIRST_SPEAKER] == 1
    for seat, level in ((1, 0), (2, 1), (3, 0), (4, 2), (0, 0)):
        assert not K.auction_over(st, opts, 0)
        K.speak(st, seat, level, NO_TRACE)
    assert not K.auction_over(st, opts, 5)                    # seat 2 is still in
    K.speak(st, 2, 0, NO_TRACE)
    assert K.auction_over(st, opts, 6)
    K.make_contract(st, opts, GREEDY[0], GREEDY[1], gen(), NO_TRACE, *NO_PLUG, K.no_search)
    return st


@pytest.mark.parametrize("rule, leader", [("first_bidder", 2), ("first_speaker", 1), ("declarer", 4)])
def test_example1_auction_and_leader(rule, leader):
    st = example1(trionfo_first_leader=rule)
    assert st[K.DECLARER] == 4 and st[K.HIGH_LEVEL] == 2
    assert st[K.PARTNER] == -1                                 # di più: solo vs 4
    assert st[K.LEADER] == leader


def test_di_piu_has_a_partner_when_two_levels_do():
    st = example1(trionfo_partner_levels=2)
    assert st[K.PARTNER] >= 0 and st[K.PARTNER] != 4
    assert st[K.PARTNER] == K.owner_of(st, st[K.CALLED])


def test_maso_dei_masi_ends_the_auction_and_single_round():
    opts = options()
    st = fresh()
    K.speak(st, 1, 4, NO_TRACE)
    assert K.auction_over(st, opts, 1)
    opts = options(trionfo_auction="single_round")
    st = fresh()
    for k, seat in enumerate((1, 2, 3, 4)):
        K.speak(st, seat, 1 if seat == 2 else 0, NO_TRACE)
        assert not K.auction_over(st, opts, k + 1)
    K.speak(st, 0, 0, NO_TRACE)
    assert K.auction_over(st, opts, 5) and st[K.HIGH_BIDDER] == 2


def test_first_speaker_is_the_five_of_coins_holder_in_the_first_hand():
    for seed in range(5):
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.DEALER] = seed % 5
        K.deal(st, gen(seed, 16), NO_TRACE)
        assert st[K.FIRST_SPEAKER] == K.owner_of(st, parse40("5D")[0])
        st[K.HAND_IDX] = 1
        K.deal(st, gen(seed, 17), NO_TRACE)
        assert st[K.FIRST_SPEAKER] == (seed % 5 + 1) % 5


def test_deal_in_packets_of_four_from_the_dealers_right():
    for dealer in range(5):
        st = fresh(dealer)
        deck = st[K.DECK:K.DECK + 40]
        for r in range(2):
            for k in range(1, 6):
                seat = (dealer + k) % 5
                for c in deck[20 * r + 4 * (k - 1): 20 * r + 4 * k]:
                    assert st[K.HAND + seat] >> c & 1
        assert K.check_cards(st) == 0


# =============================================================================
# B8.2: all pass
# =============================================================================
@pytest.mark.parametrize("rule, step", [("same", 0), ("next", 1)])
def test_example2_all_pass_redeal(rule, step):
    opts = options(trionfo_redeal_dealer=rule)
    never = seat_arrays(GAME, seat_table(GAME, ["heuristic:t1=40,t2=40,t3=40,t4=40"], 5))
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.DEALER] = 2
    st[K.HAND_IDX] = 3
    trace = np.zeros((20_000, K.TRACE_W), np.int64)
    e = K.deal_until_bid(st, opts, never[0], never[1], True, gen(), gen(2), trace, *NO_PLUG)
    assert e == 0 and st[K.VOID_HAND] == 1 and st[K.TRUNC] == 1
    assert st[K.REDEALS] == K.MAX_REDEALS and st[K.HAND_IDX] == 3     # the hand count does not advance
    hands = trace[: st[K.TR_LEN]]
    dealers = hands[hands[:, 0] == K.T_HAND][:, 3]
    assert list(dealers[:3]) == [2, (2 + step) % 5, (2 + 2 * step) % 5]


# =============================================================================
# B8.4 - B8.6: settlement
# =============================================================================
def settled(declarer, partner, level, thirds, **kw):
    opts = options(**kw)
    st = fresh()
    st[K.DECLARER], st[K.PARTNER], st[K.HIGH_LEVEL] = declarer, partner, level
    st[K.THIRDS:K.THIRDS + 5] = 0
    others = [p for p in range(5) if p not in (declarer, partner)]
    st[K.THIRDS + declarer] = thirds
    st[K.THIRDS + others[0]] = 35 - thirds
    K.settle(st, opts, NO_TRACE)
    return st, [int(x) for x in st[K.HMONEY:K.HMONEY + 5]]


def test_example4_partnership_won():
    st, money = settled(2, 4, 1, 22)
    assert st[K.SIDE_PTS] == 7 and st[K.WON] == 1
    assert money == [-1, -1, 2, -1, 1]


def test_example5_thin_margin_loses():
    st, money = settled(2, 4, 1, 17)
    assert st[K.SIDE_PTS] == 5 and st[K.WON] == 0
    assert money == [1, 1, -2, 1, -1]


def test_example6_solo_lost():
    st, money = settled(0, -1, 3, 15)
    assert st[K.SIDE_PTS] == 5 and st[K.WON] == 0
    assert money == [-12, 3, 3, 3, 3]


def test_win_points_stakes_and_self_call():
    st, money = settled(1, -1, 4, 18, trionfo_bid_stakes=(1, 2, 5, 10))
    assert st[K.WON] == 1 and money == [-10, 40, -10, -10, -10]
    st, money = settled(1, 3, 1, 18, trionfo_win_points=7)
    assert st[K.WON] == 0 and money == [1, -2, 1, -1, 1]
    st, money = settled(1, 1, 2, 18, trionfo_partner_levels=2)     # self-call: a secret solo
    assert st[K.WON] == 1 and money == [-2, 8, -2, -2, -2]


# =============================================================================
# B3: the partner
# =============================================================================
def test_called_card_is_the_highest_missing_trump_and_reveals_the_partner():
    st = fresh()
    hand = mask40("3C AC 4C 5C 7D KH QH JS")
    for p in range(5):
        st[K.HAND + p] &= ~hand
    st[K.HAND + 2] = hand
    assert K.choose_called(st, 2, 0, K.S_GREEDY, GREEDY[1][0], gen(), False) == parse40("2C")[0]
    rand = {int(K.choose_called(st, 2, 0, K.S_RANDOM, GREEDY[1][0], gen(s), False)) for s in range(60)}
    assert not rand & {c for c in range(40) if hand >> c & 1}
    rand = {int(K.choose_called(st, 2, 0, K.S_RANDOM, GREEDY[1][0], gen(s), True)) for s in range(300)}
    assert rand & {c for c in range(40) if hand >> c & 1}      # self-calls possible when allowed


def test_name_player_picks_the_other_highest_bidder_openly():
    opts = options(trionfo_partner_method="name_player")
    st = fresh(dealer=0)
    for seat, level in ((1, 1), (2, 0), (3, 0), (4, 0), (0, 0)):
        K.speak(st, seat, level, NO_TRACE)
    assert K.auction_over(st, opts, 5) and st[K.HIGH_BIDDER] == 1
    K.make_contract(st, opts, GREEDY[0], GREEDY[1], gen(), NO_TRACE, *NO_PLUG, K.no_search)
    assert st[K.PARTNER] == 2 and st[K.REVEALED] == 1 and st[K.CALLED] == -1
    st[K.BID + 3] = 1
    assert K.choose_named(st, 1, K.S_GREEDY, gen()) == 3


def test_knowledge_of_sides():
    opts = options()
    st = fresh()
    st[K.DECLARER], st[K.PARTNER], st[K.HIGH_LEVEL] = 0, 3, 1
    assert not K.is_friend(st, opts, 0, 3)                     # declarer: partner still secret
    assert K.is_friend(st, opts, 3, 0)                         # the partner knows
    assert not K.is_friend(st, opts, 1, 2)                     # defenders do not know yet
    st[K.REVEALED] = 1
    assert K.is_friend(st, opts, 0, 3) and K.is_friend(st, opts, 1, 2) and not K.is_friend(st, opts, 1, 3)
    st[K.HIGH_LEVEL], st[K.PARTNER] = 2, -1                    # a solo: defenders together
    assert K.is_friend(st, opts, 1, 4) and not K.is_friend(st, opts, 1, 0)


def test_options_validation():
    from cardsim.sim.errors import UsageError
    for bad in ({"trionfo_partner_levels": 3}, {"trionfo_bid_stakes": (1, 2, 3)}, {"trionfo_win_points": 12},
                {"trionfo_auction": "dutch"}, {"trionfo_payout": "flat"}, {"trionfo_hands": 0},
                {"first_dealer": 5}):
        with pytest.raises(UsageError):
            TrionfoOptions(**bad)
    with pytest.raises(UsageError):
        TrionfoOptions().to_array(4)


def test_check_mode_detects_broken_states():
    st = fresh()
    assert K.check_cards(st) == 0
    st[K.HAND + 1] |= st[K.HAND]
    assert K.check_cards(st) == K.E_CARDS
    opts = options()
    st, _ = settled(2, 4, 1, 22)
    assert K.check_hand(st, opts) == 0
    st[K.HMONEY] += 1
    assert K.check_hand(st, opts) == K.E_ZERO_SUM
    st, _ = settled(2, 4, 1, 22)
    st[K.THIRDS] += 1
    assert K.check_hand(st, opts) == K.E_POINTS
