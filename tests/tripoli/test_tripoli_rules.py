"""Tripoli rules as scenario tests: the worked examples of tripoli.md section 15, the deal
table of section 3, the Phase-1 reference probabilities of section 5, and the protocol
details (auction lone speaker, limits, raise cap) the spec fixes."""
from __future__ import annotations

import numpy as np
import pytest

from cardsim.kernels import tripoli as K
from cardsim.kernels import poker as PK
from cardsim.kernels.rng import new_stream
from cardsim.sim.games.tripoli import TripoliOptions
from cardsim.sim.notation import parse, parse_mask

NOTRACE = np.zeros((0, 4), np.int64)


def state(n, dealer=0, board=None, hands=None, widow="", **opt):
    opts = TripoliOptions(**opt).to_array(n)
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N] = n
    if board:
        for space, v in board.items():
            st[K.BOARD + space] = v
    K.reset_deal(st, opts, dealer)
    for p, text in enumerate(hands or []):
        st[K.HAND + p] = parse_mask(text) if text else 0
    st[K.WIDOW] = parse_mask(widow) if widow else 0
    return st, opts


def act(st, opts, *actions):
    gdeck, deck = new_stream(1, 0, 8), np.zeros(52, np.int64)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    for a in actions:
        n = K.legal_actions(st, opts, acts)
        assert a in set(acts[:n]), (K.ACTION_NAMES[a & 15], a >> 8, sorted(acts[:n]))
        K.apply_action(st, opts, a, gdeck, deck, NOTRACE)


def legal(st, opts):
    acts = np.zeros(K.MAX_ACTS, np.int64)
    return sorted(int(x) for x in acts[:K.legal_actions(st, opts, acts)])


def chips(st, n, ledger=None):
    if ledger is None:
        return [int(st[K.CHIPS + p]) for p in range(n)]
    return [int(st[K.PH + ledger * K.MAX_PLAYERS + p]) for p in range(n)]


def board(st):
    return [int(st[K.BOARD + i]) for i in range(9)]


BID = lambda x: K.A_BID | (x << 8)          # noqa: E731
BET = lambda x: K.A_BET | (x << 8)          # noqa: E731
RAISE = lambda x: K.A_RAISE | (x << 8)      # noqa: E731


# ---- section 3: hand sizes ----------------------------------------------------------------
SIZES = {2: [18, 17, 17], 3: [13, 13, 13, 13], 4: [11, 11, 10, 10, 10], 5: [9, 9, 9, 9, 8, 8],
         6: [8, 8, 8, 7, 7, 7, 7], 7: [7, 7, 7, 7, 6, 6, 6, 6], 8: [6] * 7 + [5, 5], 9: [6, 6] + [5] * 8}


@pytest.mark.parametrize("n", range(2, 10))
@pytest.mark.parametrize("last", [True, False])
def test_deal_sizes(n, last):
    dealer = n - 1
    st, opts = state(n, dealer, widow_dealt_last=last)
    K.deal_cards(st, opts, new_stream(3, n, 0), np.zeros(52, np.int64), NOTRACE)
    got = [bin(int(st[K.HAND + (dealer + 1 + i) % n])).count("1") for i in range(n)]
    got.append(bin(int(st[K.WIDOW])).count("1"))
    if last:
        assert got == SIZES[n]
    else:
        q, r = divmod(52, n + 1)
        assert got[-1] == q + (r > 0) and sum(got) == 52 and min(got) >= 5
    all_cards = int(st[K.WIDOW])
    for p in range(n):
        assert all_cards & int(st[K.HAND + p]) == 0
        all_cards |= int(st[K.HAND + p])
    assert all_cards == (1 << 52) - 1


# ---- examples 1 and 2: antes and Phase 1 ----------------------------------------------------
def test_example_1_antes():
    st, opts = state(4, 3, board={K.SP_KQ: 8, K.SP_SEQ: 5, K.SP_KITTY: 6, K.SP_POT: 1})
    K.antes(st, opts, NOTRACE)
    assert board(st) == [4, 4, 4, 4, 4, 12, 9, 10, 5] and sum(board(st)) == 56
    assert chips(st, 4) == [-9] * 4


def test_example_2_phase1():
    st, opts = state(4, 3, board={0: 4, 1: 4, 2: 4, 3: 4, 4: 4, 5: 12, 6: 9, 7: 10, 8: 5},
                     hands=["AH KH QH", "8S 9S 10S", "10H 8D 9D 10D", "2C"], widow="JH")
    K.phase1(st, opts, NOTRACE)
    assert board(st) == [0, 0, 0, 4, 0, 0, 1, 10, 5]
    assert chips(st, 4, K.L_PAY) == [24, 4, 8, 0]


def test_sequence_split_per_sequence_and_sequence_start():
    hands = ["6S 7S 8S 6D 7D 8D", "6C 7C 8C", "2C"]
    st, opts = state(3, 0, board={K.SP_SEQ: 10}, hands=hands, sequence_start=6, sequence_split="per_sequence")
    K.phase1(st, opts, NOTRACE)
    assert chips(st, 3, K.L_PAY) == [6, 3, 0] and board(st)[K.SP_SEQ] == 1
    st, opts = state(3, 0, board={K.SP_SEQ: 10}, hands=hands, sequence_start=6)
    K.phase1(st, opts, NOTRACE)
    assert chips(st, 3, K.L_PAY) == [5, 5, 0] and board(st)[K.SP_SEQ] == 0


def test_pay_suit_option():
    st, opts = state(2, 0, board={0: 3, 1: 3, 2: 3, 5: 7}, hands=["AS KS QS", "AH KH QH"], pay_suit="spades")
    K.phase1(st, opts, NOTRACE)
    assert chips(st, 2, K.L_PAY) == [16, 0]


@pytest.mark.parametrize("n,kq,seq", [(4, 0.150830, 0.103167), (5, 0.129713, 0.070950),
                                      (6, 0.110860, 0.049412), (7, 0.097285, 0.036199)])
def test_section5_reference_probabilities(n, kq, seq):
    st, opts = state(n, 0, widow_exchange=False)
    deck = np.zeros(52, np.int64)
    hits, suits, trials = 0, 0, 20000
    kq_mask, _ = parse_mask("KH"), None
    for d in range(trials):
        for p in range(n):
            st[K.HAND + p] = 0
        st[K.WIDOW] = 0
        K.deal_cards(st, opts, new_stream(7, d, 0), deck, NOTRACE)
        hits += K.holder(st, parse("KH")[0]) >= 0 and K.holder(st, parse("KH")[0]) == K.holder(st, parse("QH")[0])
        suits += sum(K.seq_suits(st, st[K.HAND + p]) for p in range(n))
    se = np.sqrt(kq * (1 - kq) / trials)
    assert abs(hits / trials - kq) < 4.5 * se
    assert abs(suits / trials - seq) < 4.5 * np.sqrt(seq / trials) + 1e-3


# ---- example 3: widow options ---------------------------------------------------------------
def test_example_3_widow_swap_and_auction_old_hand():
    hands = ["2C", "3C", "4C", "5C 6C"]
    st, opts = state(4, 3, hands=hands, widow="7C 8C")
    st[K.PHASE], st[K.CUR] = K.P_WIDOW, 3
    assert legal(st, opts) == [K.A_KEEP, K.A_SWAP, K.A_AUCTION_WIDOW]
    act(st, opts, K.A_SWAP)
    assert legal(st, opts) == [K.A_DONE, K.A_AUCTION_OLD]           # no swapping back
    act(st, opts, K.A_AUCTION_OLD)
    assert st[K.CUR] == 0
    act(st, opts, K.A_PASS, BID(2), BID(3), K.A_PASS)
    assert chips(st, 4) == [0, 0, -3, 3]
    assert st[K.HAND + 3] == parse_mask("7C 8C") and st[K.HAND + 2] == parse_mask("5C 6C")
    assert st[K.WIDOW] == parse_mask("4C") and st[K.W_SEEN] == 2
    assert st[K.W_ACT] == K.W_SWAP | K.W_AUCTION_OLD | K.W_SOLD_OLD and st[K.PHASE] == K.P_SELECT


def test_example_3_unsold_widow_auction_then_swap():
    st, opts = state(4, 3, hands=["2C", "3C", "4C", "5C"], widow="7C")
    st[K.PHASE], st[K.CUR] = K.P_WIDOW, 3
    act(st, opts, K.A_AUCTION_WIDOW, K.A_PASS, K.A_PASS, K.A_PASS)
    assert st[K.PHASE] == K.P_AFTER_UNSOLD and legal(st, opts) == [K.A_KEEP, K.A_SWAP]
    act(st, opts, K.A_SWAP)
    assert st[K.HAND + 3] == parse_mask("7C") and st[K.PHASE] == K.P_AFTER_SWAP


def test_widow_sale_ends_the_widow_phase_and_lone_bidder_speaks():
    st, opts = state(3, 0, hands=["2C", "3C", "4C"], widow="7C")
    st[K.PHASE], st[K.CUR] = K.P_WIDOW, 0
    act(st, opts, K.A_AUCTION_WIDOW, K.A_PASS)
    assert st[K.CUR] == 2 and BID(1) in legal(st, opts)                # alone, still speaks
    act(st, opts, BID(4))
    assert st[K.HAND + 2] == parse_mask("7C") and st[K.WIDOW] == parse_mask("4C")
    assert chips(st, 3) == [4, 0, -4] and st[K.PHASE] == K.P_SELECT


def test_auction_bids_respect_min_max_and_guard():
    st, opts = state(3, 0, hands=["2C", "3C", "4C"], widow="7C", auction_min_bid=3, auction_max_bid=5)
    st[K.PHASE], st[K.CUR] = K.P_WIDOW, 0
    act(st, opts, K.A_AUCTION_WIDOW)
    assert legal(st, opts) == sorted([BID(3), BID(4), BID(5), K.A_PASS])
    act(st, opts, BID(5))
    assert legal(st, opts) == [K.A_PASS]


def test_pay_suit_auction():
    st, opts = state(3, 0, board={K.SP_KITTY: 2}, hands=["2C 9H", "3C 9D", "4C 9S"], widow="7C",
                     pay_suit_auction=True, widow_exchange=False)
    K.after_widow(st, opts, NOTRACE)
    assert st[K.PHASE] == K.P_AUCTION and st[K.CUR] == 0               # the dealer speaks first
    act(st, opts, K.A_PASS, BID(1), BID(2), K.A_PASS)
    assert st[K.PHASE] == K.P_SUIT and st[K.CUR] == 2 and board(st)[K.SP_KITTY] == 4
    act(st, opts, K.A_SUIT | (3 << 8))
    assert st[K.PAY_SUIT] == 3 and st[K.PHASE] == K.P_SELECT and chips(st, 3) == [0, 0, -2]
    st, opts = state(2, 0, hands=["2C", "3C"], pay_suit_auction=True, widow_exchange=False)
    K.after_widow(st, opts, NOTRACE)
    act(st, opts, K.A_PASS, K.A_PASS)
    assert st[K.PAY_SUIT] == 2 and st[K.PHASE] == K.P_SELECT           # nobody bid: hearts


# ---- example 4: betting and a split pot -----------------------------------------------------
POKER = ["7C 8D 9H 10S JC", "KS KD 4C 4H 9D", "7D 8H 9S 10C JH", "2C 3D 5H 6S QC"]


def poker_state(**opt):
    st, opts = state(4, 3, board={K.SP_POT: 5}, hands=POKER, **opt)
    for p, text in enumerate(POKER):
        st[K.PICK + p] = parse_mask(text)
        st[K.HCAT + p] = PK.eval5(parse_mask(text))
    K.betting_start(st, opts, 3, 0)
    return st, opts


def test_example_4_betting_split_pot_and_leader():
    st, opts = poker_state()
    assert st[K.CUR] == 0 and legal(st, opts) == [K.A_CHECK] + [BET(x) for x in range(1, 11)]
    act(st, opts, K.A_CHECK, BET(3), RAISE(5), K.A_FOLD)
    assert K.A_CHECK not in legal(st, opts)
    act(st, opts, K.A_CALL, K.A_CALL)
    assert st[K.POT] == 29 and st[K.POT_WIN] == 0b101
    assert board(st)[K.SP_POT] == 1
    assert chips(st, 4, K.L_POKER) == [6, -8, 6, 0]
    assert st[K.PHASE] == K.P_LEAD and st[K.CUR] == 0                    # first winner from the left


def test_uncontested_pot_and_first_bettor_dealer():
    st, opts = poker_state(poker_first_bettor="dealer")
    assert st[K.CUR] == 3
    act(st, opts, BET(10), K.A_FOLD, K.A_FOLD, K.A_FOLD)
    assert st[K.POKER_END] == 1 and chips(st, 4, K.L_POKER) == [0, 0, 0, 5]


def test_raise_cap_and_total_limit():
    st, opts = poker_state()
    act(st, opts, BET(1), RAISE(1), RAISE(1), RAISE(1))
    assert legal(st, opts) == [K.A_CALL, K.A_FOLD]                       # 3 raises: cap reached
    st, opts = poker_state(bet_limit_mode="total", max_raises=None)
    act(st, opts, BET(6))
    assert legal(st, opts) == [K.A_CALL, K.A_FOLD] + [RAISE(x) for x in range(1, 5)]
    act(st, opts, RAISE(4))
    assert legal(st, opts) == [K.A_CALL, K.A_FOLD]                       # total at the limit


# ---- examples 6 to 9: Michigan ---------------------------------------------------------------
def michigan(hands, widow, cur=0, **opt):
    st, opts = state(4, 3, hands=hands, widow=widow, **opt)
    st[K.PHASE], st[K.CUR], st[K.FIRST_LEAD] = K.P_LEAD, cur, 1
    st[K.COLOR] = 0 if opts[K.O_COLOR] else -1
    return st, opts


def plays(trace, st, since=0):
    rows = trace[since:st[K.TR_LEN]]
    return [(int(r[1]), int(r[2])) for r in rows if r[0] == K.T_PLAY]


def test_example_6_sequences_and_stops():
    hands = ["5S 6S QS 2C", "7S 8S AS 3C 2D", "2S 3S 4S 4C", "10S JS KS 5C"]
    st, opts = michigan(hands, "9S")
    trace = np.zeros((100, 4), np.int64)
    K.lead(st, opts, 3, trace)
    assert plays(trace, st) == [(0, c) for c in parse("5S 6S")] + [(1, c) for c in parse("7S 8S")]
    assert st[K.CUR] == 1 and st[K.BANNED] == 3
    assert legal(st, opts) == [K.A_LEAD | (0 << 8), K.A_LEAD | (1 << 8)]    # not spades
    st[K.CUR], st[K.BANNED] = 2, -1
    mark = int(st[K.TR_LEN])
    K.lead(st, opts, 3, trace)
    assert plays(trace, st, mark) == [(2, c) for c in parse("2S 3S 4S")] and st[K.CUR] == 2
    st[K.CUR], st[K.BANNED] = 3, -1
    mark = int(st[K.TR_LEN])
    K.lead(st, opts, 3, trace)
    assert plays(trace, st, mark) == [(3, parse("10S")[0]), (3, parse("JS")[0]), (0, parse("QS")[0]),
                                      (3, parse("KS")[0]), (1, parse("AS")[0])]
    assert st[K.CUR] == 1                                                 # ace stop: P1 leads


def test_example_7a_blocked_end():
    st, opts = michigan(["3C QC", "5C 6C", "2C 9C 10C", "JC"], "4C", cur=2)
    st[K.BOARD + K.SP_KITTY] = 3
    K.lead(st, opts, 0, NOTRACE)
    assert st[K.REASON] == K.R_BLOCKED and st[K.PHASE] == K.P_OVER
    assert chips(st, 4) == [-1, -2, -2, -1] and board(st)[K.SP_KITTY] == 9


def test_example_7b_going_out():
    st, opts = michigan(["2C 3C 4C", "7H", "2D 3D 4D 5D 6D", "2S"], "8H", cur=1)
    st[K.BOARD + K.SP_KITTY] = 10
    K.lead(st, opts, 2, NOTRACE)
    assert st[K.REASON] == K.R_OUT and st[K.MWIN] == 1
    assert chips(st, 4) == [-3, 19, -5, -1] and board(st)[K.SP_KITTY] == 0


def test_example_8_rummoli_claims():
    hands = ["JH 2C", "8D 9D 10D 5C", "QH KH 3C", "AH 4C"]
    st, opts = michigan(hands, "10H JD", payout_timing="michigan")
    for i in range(7):
        st[K.BOARD + i] = 4
    K.lead(st, opts, 2, NOTRACE)
    assert chips(st, 4, K.L_PAY) == [4, 0, 12, 4] and st[K.CUR] == 3
    assert board(st)[:7] == [0, 0, 0, 0, 4, 0, 4]                          # 10H in the widow
    st[K.CUR], st[K.BANNED] = 1, -1
    K.lead(st, opts, 1, NOTRACE)
    assert chips(st, 4, K.L_PAY) == [4, 4, 12, 4] and board(st)[K.SP_SEQ] == 0
    st, opts = michigan(["8C 10C 2D", "3D", "9C 4D", "5D"], "JC", payout_timing="michigan")
    st[K.BOARD + K.SP_SEQ] = 4
    K.lead(st, opts, 0, NOTRACE)
    assert board(st)[K.SP_SEQ] == 4                                         # split between players: no claim


def test_example_9_colour_alternation_and_lowest_first_lead():
    st, opts = michigan(["4C 4S 2D 3H", "5D", "6D", "7D"], "", color_alternation=True)
    assert legal(st, opts) == [K.A_LEAD | (0 << 8), K.A_LEAD | (3 << 8)]
    st[K.COLOR], st[K.FIRST_LEAD] = 1, 0
    assert K.lead_suits(st, opts, parse_mask("2C 3S")) == 0                 # no red card: passes on
    st, opts = michigan(["4C 4S 2D 3H", "5D", "6D", "7D"], "", first_lead_lowest_in_hand=True)
    assert legal(st, opts) == [K.A_LEAD | (1 << 8)]
    st, opts = michigan(["4C 4S 5D", "5S", "6D", "7D"], "", first_lead_lowest_in_hand=True)
    assert legal(st, opts) == [K.A_LEAD | (0 << 8), K.A_LEAD | (3 << 8)]


def test_cosmo_draws_dials_per_deal():
    seen = set()
    for d in range(40):
        st, opts = state(4, 0, cosmo=True)
        K.cosmo_dials(st, opts, new_stream(1, d, 0), NOTRACE)
        seen.add((int(st[K.PAY_SUIT]), int(st[K.SEQ])))
        assert 0 <= st[K.SEQ] <= 10
    assert len({s for s, _ in seen}) == 4 and len(seen) > 20
    assert opts[K.O_COLOR] == 1


# ---- example 10: clearing round --------------------------------------------------------------
def test_example_10_clearing_round():
    st, opts = state(4, 3, board={K.SP_KQ: 14, K.SP_SEQ: 7, K.SP_J: 3})
    total0 = K.chips_total(st)
    gdeck, deck = new_stream(1, 0, 8), np.zeros(52, np.int64)
    K.clearing_start(st, opts, gdeck, deck, NOTRACE)
    assert st[K.CL_POT] == 24 and board(st) == [0] * 9 and st[K.PHASE] == K.P_BET
    for p in range(4):
        assert bin(int(st[K.CLH + p])).count("1") == 5
    act(st, opts, BET(2), K.A_CALL, K.A_FOLD, K.A_FOLD)
    won = chips(st, 4, K.L_CLEAR)
    assert sum(won) == 24 - 0 and st[K.PHASE] == K.P_OVER and K.chips_total(st) == total0
    st, opts = state(4, 3, board={K.SP_KQ: 14, K.SP_SEQ: 7, K.SP_J: 4}, clearing_pots=3)
    K.clearing_start(st, opts, gdeck, deck, NOTRACE)
    assert st[K.CL_POT] == 9 and st[K.CL_RESERVE] == 16                     # 25 = 9 + 8 + 8
