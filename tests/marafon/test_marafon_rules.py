"""Marafon game flow (kernels/marafon/) on stacked states: the worked examples of
marafon.md A11 (truncation, the marafona, claims, both sides at 41, battitore rotation, the
31 1/3 variant), the deal in packets of 5 and every section C option of Part A."""
import numpy as np
import pytest

from cardsim.kernels import marafon as K
from cardsim.kernels.jit import no_plugin
from cardsim.kernels.rng import seed_stream
from cardsim.sim.games.marafon import GAME, MarafonOptions, mask40, parse40
from cardsim.sim.registry import seat_arrays, seat_table

NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)
GREEDY = seat_arrays(GAME, seat_table(GAME, ["greedy"], 4))
# no plug-in: the function the kernels take
NO_PLUG = (no_plugin,)


def options(**kw):
    return MarafonOptions(**kw).to_array(4)


def gen(seed=1, stream=0):
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, 0, stream)
    return g


def full_deal(fixed):
    """Hands of 10: the cards named per seat, the rest of the deck dealt round the table in
    id order (so no other seat holds a 3-2-A)."""
    hands = {p: parse40(fixed.get(p, "")) for p in range(4)}
    used = {c for h in hands.values() for c in h}
    assert len(used) == sum(len(h) for h in hands.values()), "card named twice"
    rest = [c for c in range(40) if c not in used]
    p = 0
    while rest:
        if len(hands[p]) < 10:
            hands[p].append(rest.pop(0))
        p = (p + 1) % 4
    return hands


def stacked(fixed=None, trump="H", battitore=0, scores=(0, 0), hand_no=2):
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N] = 4
    K.reset_hand(st)
    for p, cards in full_deal(fixed or {}).items():
        for c in cards:
            st[K.HAND + p] |= 1 << c
    st[K.HAND_NO] = hand_no
    st[K.BATT] = battitore
    st[K.SCORE], st[K.SCORE + 1] = scores
    st[K.WIN_SIDE] = -1
    st[K.REASON] = -1
    K.set_trump(st, "CDHS".index(trump), NO_TRACE)
    assert K.check_cards(st) == 0
    return st


def play_out(st, opts, sids=None, seed=1):
    trace = np.zeros((400, K.TRACE_W), np.int64)
    sids, params = sids if sids is not None else GREEDY
    e = K.play_out(st, opts, sids, params, True, gen(seed, 1), trace, *NO_PLUG)
    assert e == 0, K.ERROR_NAMES[e]
    return trace[: st[K.TR_LEN]]


def scored(thirds, maraf=(0, 0), scores=(0, 0), **kw):
    opts = options(**kw)
    st = stacked(scores=scores)
    st[K.THIRDS], st[K.THIRDS + 1] = thirds
    st[K.MARAF], st[K.MARAF + 1] = maraf
    K.score_hand(st, opts, NO_TRACE)
    return st, opts


# =============================================================================
# A11.5, A11.6: truncation per side
# =============================================================================
@pytest.mark.parametrize("thirds, pts", [((22, 13), (7, 4)), ((23, 12), (7, 4)), ((18, 17), (6, 5)),
                                         ((35, 0), (11, 0)), ((0, 35), (0, 11))])
def test_examples5_6_truncation_per_side_totals_11(thirds, pts):
    st, opts = scored(thirds)
    assert (st[K.PTS], st[K.PTS + 1]) == pts
    assert (st[K.SCORE], st[K.SCORE + 1]) == pts
    assert K.check_hand(st, opts) == 0


# =============================================================================
# A11.7 and A5: the marafona
# =============================================================================
def test_example7_marafona_scores_after_truncation():
    st, opts = scored((18, 17), maraf=(0, 1))
    assert (st[K.PTS], st[K.PTS + 1]) == (6, 8)                  # 14 in all
    assert K.check_hand(st, opts) == 0


def test_example7_declared_at_the_holders_turn_in_trick_1():
    opts = options(claims_enabled=False)
    st = stacked({1: "3H 2H AH"}, trump="H", battitore=3, hand_no=1)
    assert st[K.MHOLDER] == 1 and st[K.LEADER] == 3
    trace = play_out(st, opts)
    events = [(int(c), int(s)) for c, s in trace[:, :2] if c in (K.T_PLAY, K.T_DECLARE)][:5]
    assert events == [(K.T_PLAY, 3), (K.T_PLAY, 0), (K.T_DECLARE, 1), (K.T_PLAY, 1), (K.T_PLAY, 2)]
    assert (st[K.MARAF], st[K.MARAF + 1]) == (0, 1)
    assert st[K.PTS] + st[K.PTS + 1] == 14
    assert st[K.PTS + 1] == st[K.THIRDS + 1] // 3 + 3


@pytest.mark.parametrize("kw, fixed, maraf", [
    ({}, {1: "3C 2C AC"}, (0, 0)),                                     # not trumps: no bonus
    ({"marafona_trump_only": False}, {1: "3C 2C AC 3H 2H AH"}, (0, 2)),  # any suit: each counts
    ({"marafona_trump_only": False}, {0: "3C 2C AC", 3: "3S 2S AS"}, (1, 1)),
    ({"marafona_declarer": "battitore_only"}, {1: "3H 2H AH"}, (0, 0)),
    ({"marafona_declarer": "battitore_only"}, {3: "3H 2H AH"}, (0, 1)),
    ({"marafona_points": 5}, {2: "3H 2H AH"}, (1, 0)),
])
def test_marafona_options(kw, fixed, maraf):
    opts = options(claims_enabled=False, **kw)
    st = stacked(fixed, trump="H", battitore=3)
    play_out(st, opts)
    assert (st[K.MARAF], st[K.MARAF + 1]) == maraf
    assert st[K.PTS] + st[K.PTS + 1] == 11 + opts[K.O_MARAF_POINTS] * sum(maraf)


def test_optional_declaration_is_the_strategys_choice():
    opts = options(claims_enabled=False, marafona_auto_declare=False)
    rand = seat_arrays(GAME, seat_table(GAME, ["random"], 4))
    seen = set()
    for seed in range(12):
        st = stacked({1: "3H 2H AH"}, trump="H", battitore=3)
        play_out(st, opts, rand, seed=seed)
        seen.add(int(st[K.MARAF + 1]))
    assert seen == {0, 1}                                  # hiding the holding is legal
    st = stacked({1: "3H 2H AH"}, trump="H", battitore=3)
    play_out(st, opts)                                     # greedy declares
    assert st[K.MARAF + 1] == 1


# =============================================================================
# A11.8, A11.11 and A8: claims
# =============================================================================
@pytest.mark.parametrize("thirds, reason, side", [(15, K.R_CLAIM_CORRECT, 0), (14, K.R_CLAIM_WRONG, 1)])
def test_example8_claims(thirds, reason, side):
    opts = options()
    st = stacked(scores=(36, 39))
    st[K.TRICK_NO] = 7
    st[K.THIRDS] = thirds
    st[K.THIRDS + 1] = 21 - thirds
    K.resolve_claim(st, opts, 2, NO_TRACE)
    assert st[K.OVER] == 1 and st[K.REASON] == reason and st[K.WIN_SIDE] == side
    assert st[K.HAND_END] == (1 if reason == K.R_CLAIM_CORRECT else 2)


def test_example11_31_and_a_third():
    opts = options(target_thirds=94)
    st, _ = scored((0, 35), scores=(31, 0), target_thirds=94)
    st[K.SCORE] = 31
    st[K.PTS], st[K.PTS + 1] = 0, 11
    st[K.SCORE + 1] = 11
    K.after_hand(st, opts, NO_TRACE)
    assert st[K.OVER] == 0                                 # 31 is not 31 1/3
    st = stacked(scores=(31, 11))
    st[K.THIRDS] = 1                                       # e.g. KC
    assert K.side_count(st, opts, 0) == 94
    K.resolve_claim(st, opts, 0, NO_TRACE)
    assert st[K.REASON] == K.R_CLAIM_CORRECT


def test_marafona_counts_toward_a_claim_at_once():
    opts = options()
    st = stacked(scores=(38, 0))
    st[K.MARAF] = 1
    assert K.side_count(st, opts, 0) == 3 * 38 + 9 == 123


def test_claim_window_asks_from_the_seat_that_opened_it():
    opts = options()
    sids, params = GREEDY
    for first, side in ((1, 1), (2, 0), (3, 1), (0, 0)):
        st = stacked(scores=(41, 41))
        K.claim_window(st, opts, first, sids, params, gen(), NO_TRACE, *NO_PLUG, False)
        assert st[K.WIN_SIDE] == side and st[K.REASON] == K.R_CLAIM_CORRECT


def test_no_claims_in_extra_hands_or_when_disabled():
    sids, params = GREEDY
    st = stacked(scores=(41, 44))
    st[K.EXTRA] = 1
    K.claim_window(st, options(), 0, sids, params, gen(), NO_TRACE, *NO_PLUG, False)
    assert st[K.OVER] == 0
    st = stacked(scores=(41, 44))
    K.claim_window(st, options(claims_enabled=False), 0, sids, params, gen(), NO_TRACE, *NO_PLUG, False)
    assert st[K.OVER] == 0


@pytest.mark.parametrize("timing, trick_no, ncards", [("trick_boundaries", 1, 0), ("every_card", 0, 0)])
def test_claim_timing(timing, trick_no, ncards):
    """A seat that always claims: the first window is after trick 1 (or before the first card)."""
    opts = options(claim_timing=timing)
    sids, params = seat_arrays(GAME, seat_table(GAME, ["random:claim_prob=1"], 4))
    st = stacked(trump="C", battitore=2)
    play_out(st, opts, (sids, params))
    assert st[K.OVER] == 1 and st[K.REASON] == K.R_CLAIM_WRONG
    assert st[K.TRICK_NO] == trick_no and st[K.NCARDS] == ncards
    if timing == "every_card":
        assert st[K.WIN_SIDE] == 1                          # the battitore (seat 2) claimed first
    else:
        assert st[K.WIN_SIDE] == 1 - (st[K.LAST_WINNER] & 1)


def test_heuristic_claim_margin_and_noise():
    opts = options()
    st = stacked(scores=(40, 0))
    st[K.THIRDS] = 3                                       # exactly 123
    prm = np.array([0.0, 0.0, 3.0])
    assert K.wants_claim(st, opts, 0, K.S_HEURISTIC, prm, gen())
    prm[0] = 1.0
    assert not K.wants_claim(st, opts, 0, K.S_HEURISTIC, prm, gen())
    prm[:2] = 0.0, 2.0
    answers = {bool(K.wants_claim(st, opts, 2, K.S_HEURISTIC, prm, gen(s))) for s in range(40)}
    assert answers == {True, False}


# =============================================================================
# A11.9 and A7: both sides reach the target
# =============================================================================
def after(scores, pts, extra=0, **kw):
    opts = options(**kw)
    st = stacked(scores=scores)
    st[K.PTS], st[K.PTS + 1] = pts
    st[K.EXTRA] = extra
    K.after_hand(st, opts, NO_TRACE)
    return st


def test_example9_both_reach_41_extra_hand_cumulative():
    st = after((41, 44), (5, 6))
    assert st[K.OVER] == 0 and st[K.EXTRA] == 1
    st = after((49, 47), (8, 3), extra=1)
    assert st[K.WIN_SIDE] == 0 and st[K.REASON] == K.R_EXTRA
    st = after((48, 48), (7, 4), extra=1)
    assert st[K.OVER] == 0 and st[K.EXTRA] == 1            # another hand


def test_both_reach_extra_hand_points_and_higher_total():
    st = after((48, 50), (7, 4), extra=1, both_reach_target="extra_hand_points")
    assert st[K.WIN_SIDE] == 0 and st[K.REASON] == K.R_EXTRA   # the hand, not the totals
    st = after((48, 50), (5, 5), extra=1, both_reach_target="extra_hand_points")
    assert st[K.OVER] == 0
    st = after((41, 44), (5, 6), both_reach_target="higher_total")
    assert st[K.WIN_SIDE] == 1 and st[K.REASON] == K.R_HIGHER
    st = after((44, 44), (5, 6), both_reach_target="higher_total")
    assert st[K.OVER] == 0 and st[K.EXTRA] == 1
    st = after((52, 47), (8, 3), extra=1, both_reach_target="higher_total")
    assert st[K.WIN_SIDE] == 0 and st[K.REASON] == K.R_HIGHER


@pytest.mark.parametrize("scores, target, side", [((41, 30), 123, 0), ((40, 41), 123, 1), ((31, 3), 93, 0),
                                                   ((31, 3), 94, -1), ((32, 3), 94, 0)])
def test_one_side_at_the_target_wins(scores, target, side):
    st = after(scores, (5, 6), target_thirds=target)
    assert st[K.WIN_SIDE] == side
    assert st[K.OVER] == (side >= 0)


# =============================================================================
# A2, A3, A11.10: the deal, the battitore, the dealers
# =============================================================================
def test_deal_in_packets_of_five_from_the_dealers_right():
    for dealer in range(4):
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.DEALER] = dealer
        st[K.HAND_NO] = 1
        K.begin_hand(st, gen(dealer, 16), NO_TRACE)
        deck = st[K.DECK:K.DECK + 40]
        for r in range(2):
            for k in range(1, 5):
                seat = (dealer + k) % 4
                for c in deck[20 * r + 5 * (k - 1): 20 * r + 5 * k]:
                    assert st[K.HAND + seat] >> c & 1
        assert st[K.BATT] == st[K.HOLDER4D] == K.owner_of(st, parse40("4D")[0])
        assert K.check_cards(st) == 0


@pytest.mark.parametrize("second, dealers, battitori", [
    ("four_of_coins_holder", [0, 3, 0], [3, 0, 1]),
    ("rotate", [0, 1, 2], [3, 2, 3]),
])
def test_example10_battitore_rotation(second, dealers, battitori):
    """Hand 1: dealer 0, 4D dealt to seat 3."""
    opts = options(second_dealer=second)
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.DEALER] = 0
    got_d, got_b = [], []
    for h in range(1, 4):
        st[K.HAND_NO] = h
        for seed in range(200):                       # find a shuffle that gives 4D to seat 3
            K.begin_hand(st, gen(seed, 16), NO_TRACE)
            if h > 1 or st[K.HOLDER4D] == 3:
                break
        got_d.append(int(st[K.DEALER]))
        got_b.append(int(st[K.BATT]))
        K.next_dealer(st, opts)
    assert got_d == dealers and got_b == battitori


def test_rotation_in_replayed_matches():
    opts = options()
    sids, params = GREEDY
    trace = np.zeros((5000, K.TRACE_W), np.int64)
    for game in range(6):
        st = K.replay_match(3, game, opts, sids, params, True, trace)
        hands = trace[: st[K.TR_LEN]]
        hands = hands[hands[:, 0] == K.T_HAND]
        assert hands[0, 3] == st[K.FIRST_DEALER]
        assert hands[0, 4] == hands[0, 5]                     # hand 1: the 4D holder names trump
        if len(hands) > 1:
            assert hands[1, 3] == hands[0, 5]                 # hand 2 dealt by the 4D holder
        for prev, cur in zip(hands[1:], hands[2:]):
            assert cur[3] == (prev[3] + 1) % 4
        for row in hands[1:]:
            assert row[4] == (row[3] + 1) % 4                 # battitore = dealer's right


def test_trump_policy_sees_only_the_battitores_hand():
    hand = mask40("3S 2S AS 7S 4S KC QC 4D 5D 6H")
    opts, prm = options(), GAME.strategies["heuristic"]
    prm = np.array([p.default for p in prm.params], np.float64)
    assert K.choose_trump(np.int64(hand), K.S_GREEDY, prm, opts, gen()) == 3
    assert K.choose_trump(np.int64(hand), K.S_HEURISTIC, prm, opts, gen()) == 3


def test_options_validation():
    from cardsim.sim.errors import UsageError
    for bad in ({"allow_lead_signals": True}, {"marafona_declarer": "dealer"}, {"target_thirds": 0},
                {"games_per_match": 0}, {"first_dealer": 4}, {"claim_timing": "never"}):
        with pytest.raises(UsageError):
            MarafonOptions(**bad)
    with pytest.raises(UsageError):
        MarafonOptions().to_array(5)


def test_check_mode_detects_broken_states():
    st = stacked()
    assert K.check_cards(st) == 0
    st[K.HAND + 1] |= st[K.HAND]                               # a card held twice
    assert K.check_cards(st) == K.E_CARDS
    st = stacked()
    st[K.PLAYED] |= st[K.HAND + 2] & -st[K.HAND + 2]           # played but still held
    assert K.check_cards(st) == K.E_CARDS
    st, opts = scored((20, 14))                                # 34 thirds
    assert K.check_hand(st, opts) == K.E_POINTS
    st, opts = scored((20, 15))
    st[K.PTS] += 1                                             # 12 points
    assert K.check_hand(st, opts) == K.E_POINTS
