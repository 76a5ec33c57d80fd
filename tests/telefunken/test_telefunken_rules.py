"""Telefunken game flow (kernels/telefunken/) on stacked states: the worked examples of
telefunken.md §19 that involve turns, plus the deal, buying, going down, lay-off
restrictions, joker operations, Hand 7, stock exhaustion, the exchange and scoring."""
import numpy as np
import pytest

from cardsim.kernels import melds as M
from cardsim.kernels import telefunken as K
from cardsim.sim.games.telefunken import PRESETS, TelefunkenOptions
from cardsim.sim.notation import parse

JK = K.JK


# =============================================================================
# stacked states
# =============================================================================
def options(n=4, **kw):
    return TelefunkenOptions(**kw).to_array(n)


def planes(cards):
    p1 = p2 = j = 0
    for c in cards:
        if c == JK:
            j += 1
        elif p1 >> c & 1:
            p2 |= 1 << c
        else:
            p1 |= 1 << c
    return p1, p2, j


def group_row(text):
    cards = parse(text)
    p1, p2, j = planes(cards)
    row = np.zeros(M.M_SIZE, np.int64)
    row[M.M_KIND] = M.MK_GROUP
    row[M.M_KEY] = [c for c in cards if c != JK][0] % 13
    row[M.M_JOKERS] = j
    row[M.M_P1], row[M.M_P2] = p1, p2
    return row


def run_row(text):
    """``"JK(5D) 6D 7D"``: low to high, a joker annotated with the card it stands for."""
    row = np.zeros(M.M_SIZE, np.int64)
    positions = []
    for tok in text.split():
        joker = tok.startswith("JK(")
        c = parse(tok[3:-1] if joker else tok)[0]
        pos = c % 13 + 1
        if positions and pos <= positions[-1]:
            pos = 14                                # a high ace
        positions.append(pos)
        if joker:
            row[M.M_JOKERS] += 1
            row[M.M_JPOS] |= 1 << pos
        else:
            row[M.M_P1] |= 1 << c
        row[M.M_KEY] = c // 13
    row[M.M_KIND] = M.MK_RUN
    row[M.M_LO], row[M.M_HI] = positions[0], positions[-1]
    return row


class Game:
    """A hand in progress built by hand: holdings, table, stock, pile."""

    def __init__(self, opts=None, hand=2, n=4, cur=0, turn=10, chips=7):
        self.opts = options(n) if opts is None else opts
        self.st, self.tab, self.acts, self.sc, self.mo, self.gdeck, self.gplay = K.buffers()
        self.trace = np.zeros((0, K.TRACE_WIDTH), np.int64)
        st = self.st
        st[K.N] = n
        st[K.HNO] = hand
        st[K.CONTRACT] = hand
        st[K.WILD2] = self.opts[K.O_WILD_TWOS]
        st[K.CUR] = cur
        st[K.TURN] = turn
        st[K.PHASE] = K.P_ACT
        st[K.DISCARD] = -1
        st[K.OUT] = -1
        st[K.HREASON] = -1
        for p in range(n):
            st[K.CHIPS + p] = chips
        K.seed_stream(self.gplay, 1, 0, np.int64(K.STREAM_PLAY))

    def hold(self, seat, text):
        p1, p2, j = planes(parse(text))
        self.st[K.H1 + seat], self.st[K.H2 + seat], self.st[K.HJ + seat] = p1, p2, j
        return self

    def holding(self, seat):
        st = self.st
        cards = []
        for c in range(52):
            cards += [c] * ((int(st[K.H1 + seat]) >> c & 1) + (int(st[K.H2 + seat]) >> c & 1))
        return sorted(cards + [JK] * int(st[K.HJ + seat]))

    def down(self, seat, turn):
        self.st[K.DOWN + seat] = 1
        self.st[K.DOWN_TURN + seat] = turn
        return self

    def meld(self, row, owner, turn, contract=1):
        i = int(self.st[K.NMELDS])
        self.tab[i, :M.M_SIZE] = row
        self.tab[i, K.T_OWNER], self.tab[i, K.T_TURN], self.tab[i, K.T_CONTRACT] = owner, turn, contract
        self.st[K.NMELDS] = i + 1
        return i

    def stock(self, text):
        cards = parse(text)
        self.st[K.STOCK:K.STOCK + len(cards)] = cards
        self.st[K.STOCK_LO], self.st[K.STOCK_HI] = 0, len(cards)
        return self

    def pile(self, text):
        cards = parse(text)
        self.st[K.PILE:K.PILE + len(cards)] = cards
        self.st[K.PILE_LEN] = len(cards)
        return self

    def legal(self):
        n = K.legal_actions(self.st, self.opts, self.tab, self.sc, self.mo, self.acts)
        return [int(x) for x in self.acts[:n]]

    def kinds(self, kind):
        return [x for x in self.legal() if x & 15 == kind]

    def do(self, x):
        assert x in self.legal(), f"{x} is not legal"
        K.apply_action(self.st, self.opts, self.tab, self.mo, np.int64(x), self.gplay, self.trace)

    def discard_open(self, seat, card_text):
        """Seat ``seat`` discards ``card_text``: the buy window opens."""
        c = parse(card_text)[0]
        self.st[K.CUR] = seat
        self.do(K.act(K.A_DISCARD, c, 0, 0, 0, 0))


def A(kind, a=0, b=0, c=0, d=0, e=0):
    return int(K.act(kind, a, b, c, d, e))


def card(text):
    return parse(text)[0]


# =============================================================================
# the deal (§5)
# =============================================================================
@pytest.mark.parametrize("n", [3, 4, 5])
def test_deal_sizes_and_kept_jokers(n):
    opts = options(n)
    for seed in range(40):
        g = Game(opts, hand=1, n=n)
        st = g.st
        dealer = seed % n
        K.seed_stream(g.gdeck, seed, 0, np.int64(K.STREAM_HAND + 1))
        sids = np.ones(n, np.int64)
        K.start_hand(st, opts, 1, dealer, sids, g.gdeck, g.gplay, g.trace)
        cutter = (dealer + n - 1) % n
        assert [K.held(st, p) for p in range(n)] == [11] * n
        assert st[K.HJ + cutter] >= st[K.CUT_KEPT]
        assert st[K.STOCK_HI] - st[K.STOCK_LO] == 108 - 11 * n - 1 - (st[K.CUT_EXACT] and 0)
        assert st[K.PILE_LEN] == 1 and st[K.PILE] == st[K.UPCARD]
        assert 39 <= st[K.CUT_B] <= 51
        assert st[K.CUT_EXACT] == (st[K.CUT_B] == 11 * n + 1 - st[K.CUT_KEPT])
        assert K.cards_ok(st, g.tab)
        assert st[K.PHASE] == K.P_UPCARD and st[K.CUR] == (dealer + 1) % n


def test_exact_cut_example_15():
    opts = options()
    assert K.exact_cut(opts, 4, 44, 1) and K.exact_cut(opts, 4, 45, 0)
    assert not K.exact_cut(opts, 4, 44, 0) and not K.exact_cut(opts, 4, 45, 1)
    deal_only = options(exact_cut_target="deal_only")
    assert K.exact_cut(deal_only, 4, 44, 0) and not K.exact_cut(deal_only, 4, 45, 0)
    either = options(exact_cut_target="either")
    assert K.exact_cut(either, 4, 44, 0) and K.exact_cut(either, 4, 45, 0)


def test_exact_cut_chip_is_awarded():
    opts = options()
    seen = 0
    for seed in range(300):
        g = Game(opts, hand=1)
        K.seed_stream(g.gdeck, seed, 0, np.int64(K.STREAM_HAND + 1))
        K.start_hand(g.st, opts, 1, 0, np.ones(4, np.int64), g.gdeck, g.gplay, g.trace)
        chips = [int(g.st[K.CHIPS + p]) for p in range(4)]
        expected = [7, 7, 7, 8] if g.st[K.CUT_EXACT] else [7] * 4     # the cutter is seat 3
        assert chips == expected
        seen += int(g.st[K.CUT_EXACT])
    assert 5 < seen < 50                                      # about 1 cut in 13


def test_cut_jokers_off_and_uniform_cut():
    opts = options(cut_joker_keep="off", cut_model="uniform")
    bs = set()
    for seed in range(200):
        g = Game(opts, hand=1)
        K.seed_stream(g.gdeck, seed, 0, np.int64(K.STREAM_HAND + 1))
        K.start_hand(g.st, opts, 1, 0, np.ones(4, np.int64), g.gdeck, g.gplay, g.trace)
        assert g.st[K.CUT_KEPT] == 0
        bs.add(int(g.st[K.CUT_B]))
    assert min(bs) < 20 and max(bs) > 85


# =============================================================================
# the first turn and buying (§7, §8, §19.14)
# =============================================================================
def test_free_upcard_and_decline():
    g = Game(hand=1, turn=1).hold(1, "2C 3C 9D").stock("5S 6S").pile("9H")
    g.st[K.CUR], g.st[K.PHASE], g.st[K.UPCARD] = 1, K.P_UPCARD, card("9H")
    assert g.legal() == [A(K.A_TAKE_UPCARD), A(K.A_DRAW)]
    g.do(A(K.A_TAKE_UPCARD))
    assert g.holding(1) == sorted(parse("2C 3C 9D 9H")) and g.st[K.CHIPS + 1] == 7
    assert g.st[K.PHASE] == K.P_ACT and g.st[K.PILE_LEN] == 0

    g = Game(hand=1, turn=1).hold(1, "2C 3C 9D").stock("5S 6S").pile("9H")
    g.st[K.CUR], g.st[K.PHASE], g.st[K.UPCARD] = 1, K.P_UPCARD, card("9H")
    g.do(A(K.A_DRAW))                         # the upcard can never be bought (A10)
    assert g.holding(1) == sorted(parse("2C 3C 9D 5S")) and g.st[K.PHASE] == K.P_ACT


def buy_game(**kw):
    g = Game(hand=2, turn=5, **kw).hold(0, "9H 2C").hold(1, "3D 4D").hold(2, "5S 6S").hold(3, "KC KD")
    return g.stock("AC 2D 3H 4S 5C 6D").pile("7C")


def test_buy_in_turn_example_14():
    g = buy_game()
    g.st[K.CHIPS + 1] = 2
    g.discard_open(0, "9H")
    assert g.st[K.PHASE] == K.P_BUY and g.st[K.ASK] == 1
    g.do(A(K.A_BUY))
    assert g.st[K.CHIPS + 1] == 1 and g.st[K.BUYS + 1] == 1
    assert g.holding(1) == sorted(parse("3D 4D 9H AC 2D"))     # the discard + 2 stock cards
    assert g.st[K.CUR] == 1 and g.st[K.PHASE] == K.P_ACT and g.st[K.TURN] == 6


def test_buy_out_of_turn_example_14():
    g = buy_game()
    g.discard_open(0, "9H")
    g.do(A(K.A_PASS))
    assert g.st[K.ASK] == 2
    g.do(A(K.A_BUY))
    assert g.holding(2) == sorted(parse("5S 6S 9H AC"))          # the discard + 1 stock card
    assert g.holding(1) == sorted(parse("3D 4D 2D"))             # seat 1 then draws normally
    assert g.st[K.CUR] == 1 and g.st[K.PHASE] == K.P_ACT


def test_buy_skips_players_down_or_without_chips():
    g = buy_game().down(2, 3)
    g.st[K.CHIPS + 1] = 0
    g.discard_open(0, "9H")
    assert g.st[K.ASK] == 3                    # seat 1 has no chip, seat 2 is down
    g.do(A(K.A_PASS))
    assert g.st[K.PHASE] == K.P_ACT and g.st[K.CUR] == 1 and g.st[K.DISCARD] == -1
    assert g.holding(1) == sorted(parse("3D 4D AC")) and g.st[K.PILE + g.st[K.PILE_LEN] - 1] == card("9H")


def test_no_buy_hands_and_buy_after_down_options():
    g = buy_game(opts=options(no_buy_hands=(2,)))
    g.discard_open(0, "9H")
    assert g.st[K.PHASE] == K.P_ACT and g.st[K.CUR] == 1
    g = buy_game(opts=options(buy_after_meld_allowed=True)).down(1, 2)
    g.discard_open(0, "9H")
    assert g.st[K.ASK] == 1


def test_going_out_discard_cannot_be_bought():
    g = buy_game().hold(0, "9H")
    g.discard_open(0, "9H")
    assert g.st[K.PHASE] == K.P_OVER and g.st[K.OUT] == 0 and g.st[K.HREASON] == K.H_OUT


# =============================================================================
# going down and its turn (§9, §19.5, §19.10)
# =============================================================================
def test_hand3_going_down_example_5():
    g = Game(hand=3).hold(0, "7C 7D 7H 7S 7C 3D 4D 5D QS")
    assert g.kinds(K.A_GO_DOWN) == [A(K.A_GO_DOWN)]
    assert not g.kinds(K.A_MELD) and not g.kinds(K.A_LAYOFF)     # contract first
    g.do(A(K.A_GO_DOWN))
    assert g.st[K.NMELDS] == 1 and g.tab[0, K.T_CONTRACT] == 1
    assert sorted(M.melds_cards(g.tab[:1, :M.M_SIZE], 1)[:1]) and g.tab[0, M.M_KEY] == 6
    assert len(g.holding(0)) == 5                                 # a four-card contract
    assert A(K.A_MELD, M.MK_RUN, 1, 3, 5, 0) in g.kinds(K.A_MELD)    # the extra run 3D 4D 5D
    assert not [x for x in g.kinds(K.A_LAYOFF) if K.field(x, 1) == card("7C")]   # not this turn
    g.st[K.TURN] += 1                                             # next turn: allowed
    assert [x for x in g.kinds(K.A_LAYOFF) if K.field(x, 1) == card("7C")]


def test_hand2_turn_of_going_down_example_10():
    g = Game(hand=2).hold(0, "5C 5D 5H QS QS JK 6H 5S 9C")
    opp = g.meld(run_row("3H 4H 5H"), owner=1, turn=3)
    g.do(A(K.A_GO_DOWN))
    assert g.st[K.NMELDS] == 3
    lay = g.kinds(K.A_LAYOFF)
    assert A(K.A_LAYOFF, card("6H"), opp, 6) in lay              # onto an opponent's run
    assert not [x for x in lay if K.field(x, 1) == card("5S")]   # not onto the new group of 5s
    bolivia = Game(opts=options(first_meld_turn_layoff_own="all"), hand=2).hold(0, "5C 5D 5H QS QS JK 6H 5S 9C")
    bolivia.do(A(K.A_GO_DOWN))
    assert [x for x in bolivia.kinds(K.A_LAYOFF) if K.field(x, 1) == card("5S")]


def test_not_down_player_only_goes_down_or_discards():
    g = Game(hand=2).hold(0, "5C 5D 9H 9S KD")
    g.meld(run_row("6H 7H 8H"), owner=1, turn=3)
    kinds = {x & 15 for x in g.legal()}
    assert kinds == {K.A_DISCARD}                                 # no contract, no lay-off


def test_pure_trio_example_1_and_2():
    assert Game(hand=1).hold(0, "7C 7D 7H 2S 4S 9D JD QC KH AH 5C").kinds(K.A_GO_DOWN)
    assert not Game(hand=1).hold(0, "7C 7C 7H 7D JK 2S").kinds(K.A_GO_DOWN) == []
    g = Game(hand=1).hold(0, "7C 7C 7H 2S 4S")
    assert not g.kinds(K.A_GO_DOWN)
    g = Game(hand=1).hold(0, "9S 9H 9D 7C 7C JK 2S")
    g.do(A(K.A_GO_DOWN))
    assert g.tab[0, M.M_FLAGS] & M.F_PURE
    assert A(K.A_MELD, M.MK_GROUP, 6, 1) in g.kinds(K.A_MELD)     # 7C 7C JK as an extra group


def test_pure_trio_accepts_only_the_fourth_suit_example_3():
    g = Game(hand=1).hold(0, "7S 7C JK 2D").down(0, 2)
    row = group_row("7C 7D 7H")
    row[M.M_FLAGS] = M.F_PURE
    i = g.meld(row, owner=1, turn=3)
    assert g.kinds(K.A_LAYOFF) == [A(K.A_LAYOFF, card("7S"), i, 0)]
    g.do(A(K.A_LAYOFF, card("7S"), i, 0))
    assert g.tab[i, M.M_FLAGS] & M.F_CLOSED and not g.kinds(K.A_LAYOFF)



def test_bolivia_pure_trio_takes_every_natural_of_its_rank():
    """Issue 12 (A14 any_natural): the fourth suit does not close the pure trio; every other
    natural of the rank may still be laid off (table 7C 7D 7H pure, hand 7C 7D 7S)."""
    opts = options(pure_trio_extension="any_natural")
    g = Game(opts=opts, hand=1).hold(0, "7C 7D 7S 2D").down(0, 2)
    row = group_row("7C 7D 7H")
    row[M.M_FLAGS] = M.F_PURE
    i = g.meld(row, owner=1, turn=3)
    for c in ("7S", "7C", "7D"):
        assert A(K.A_LAYOFF, card(c), i, 0) in g.kinds(K.A_LAYOFF), c
        g.do(A(K.A_LAYOFF, card(c), i, 0))
    assert g.holding(0) == [card("2D")] and not g.tab[i, M.M_FLAGS] & M.F_CLOSED
    assert not [x for x in g.kinds(K.A_LAYOFF) if K.field(x, 1) == JK]      # never a joker


# =============================================================================
# joker operations (§10, §19.8, §19.9)
# =============================================================================
def test_joker_shift_example_8():
    g = Game(hand=4).hold(0, "5D 9D 2C").down(0, 4)
    i = g.meld(run_row("JK(5D) 6D 7D"), owner=1, turn=3)
    shift = A(K.A_SHIFT, card("5D"), i, 8)
    assert shift in g.kinds(K.A_SHIFT)
    g.do(shift)
    g.do(A(K.A_LAYOFF, card("9D"), i, 9))
    row = g.tab[i]
    assert (row[M.M_LO], row[M.M_HI], row[M.M_JPOS]) == (5, 9, 1 << 8)
    assert g.holding(0) == [card("2C")]
    other = Game(hand=4).hold(0, "8D 2C").down(0, 4)
    other.meld(row.copy()[:M.M_SIZE], owner=1, turn=3)
    assert not other.kinds(K.A_SHIFT)                            # frozen inside the run


def test_group_joker_retrieval_example_9():
    g = Game(hand=4).hold(0, "8C 8C 2D").down(0, 4)
    i = g.meld(group_row("8S 8H JK"), owner=1, turn=3)
    assert A(K.A_RETRIEVE, i, card("8C"), card("8C") + 1) in g.kinds(K.A_RETRIEVE)
    g.do(A(K.A_RETRIEVE, i, card("8C"), card("8C") + 1))
    assert g.holding(0) == sorted(parse("2D JK")) and g.tab[i, M.M_JOKERS] == 0
    # on the turn of going down: no retrieval, the single lay-off is legal on another's group
    g = Game(hand=4).hold(0, "8C 8C 2D").down(0, 10)
    i = g.meld(group_row("8S 8H JK"), owner=1, turn=3)
    assert not g.kinds(K.A_RETRIEVE)
    assert A(K.A_LAYOFF, card("8C"), i, 0) in g.kinds(K.A_LAYOFF)
    # ... and illegal on a group the player laid this turn
    g = Game(hand=4).hold(0, "8C 8C 2D").down(0, 10)
    g.meld(group_row("8S 8H JK"), owner=0, turn=10, contract=0)
    assert not g.kinds(K.A_LAYOFF)


def test_retrieved_joker_must_be_used_option():
    g = Game(opts=options(retrieved_joker_use_immediately=True), hand=4).hold(0, "8C 8C 2D 3D").down(0, 4)
    i = g.meld(group_row("8S 8H JK"), owner=1, turn=3)
    g.do(A(K.A_RETRIEVE, i, card("8C"), card("8C") + 1))
    legal = g.legal()
    assert {x & 15 for x in legal} == {K.A_LAYOFF, K.A_MELD}      # only what lays the joker
    assert all(K.field(x, 1) == JK for x in legal if x & 15 == K.A_LAYOFF)
    assert A(K.A_MELD, M.MK_RUN, 1, 2, 4, 4) in legal                # 2D 3D JK(4D)
    g.do(A(K.A_LAYOFF, JK, i, 0))
    assert K.A_DISCARD in {x & 15 for x in g.legal()}


def test_own_melds_joker_ops_option():
    g = Game(opts=options(joker_ops_on_own_melds=False), hand=4).hold(0, "8C 8C 2D").down(0, 4)
    g.meld(group_row("8S 8H JK"), owner=0, turn=4)
    assert not g.kinds(K.A_RETRIEVE)


def test_ecuador_exchange_goes_down_with_the_joker():
    opts = options(**PRESETS["ecuador"])
    g = Game(opts=opts, hand=2).hold(0, "9C 9D 9H 5C 5D 7S 2H")
    i = g.meld(group_row("7C 7D JK"), owner=1, turn=3)
    downs = g.kinds(K.A_GO_DOWN)
    assert A(K.A_GO_DOWN, i + 1, card("7S")) in downs
    g.do(A(K.A_GO_DOWN, i + 1, card("7S")))
    assert g.tab[i, M.M_JOKERS] == 0 and g.st[K.DOWN] == 1
    assert sum(g.tab[k, M.M_JOKERS] for k in range(1, g.st[K.NMELDS])) == 1
    assert g.holding(0) == [card("2H")]
    assert not g.kinds(K.A_RETRIEVE) and not g.kinds(K.A_SHIFT)


# =============================================================================
# Hand 7 (§12, §19.11-13)
# =============================================================================
def test_hand7_goes_out_example_11():
    g = Game(hand=7).hold(0, "4S 4H 4D 3C 4C 5C 6C 7C JK 9C 10C KD")
    assert g.kinds(K.A_GO_OUT7) == [A(K.A_GO_OUT7)]
    g.do(A(K.A_GO_OUT7))
    assert g.st[K.PHASE] == K.P_OVER and g.st[K.OUT] == 0
    assert g.st[K.PILE + g.st[K.PILE_LEN] - 1] == card("KD")


def test_hand7_goes_out_without_discard_example_12():
    g = Game(hand=7).hold(0, "QS QS QD 5H 6H 7H 8H 9H 10H JH 2C 3C 4C 5C").pile("2D")
    g.do(A(K.A_GO_OUT7))
    assert g.st[K.OUT] == 0 and g.st[K.PILE_LEN] == 1 and g.st[K.NMELDS] == 3



def test_hand7_final_discard_required_goes_out_with_a_discard():
    """Issue 12 (A24): with final_discard_required the example-12 holding lays 13 cards and
    discards the 14th instead of laying all 14."""
    g = Game(opts=options(final_discard_required=True), hand=7)
    g.hold(0, "QS QS QD 5H 6H 7H 8H 9H 10H JH 2C 3C 4C 5C").pile("2D")
    g.do(A(K.A_GO_OUT7))
    assert g.st[K.OUT] == 0 and g.st[K.PILE_LEN] == 2
    assert K.table_cards(g.tab, g.st[K.NMELDS]) == 13


def test_hand7_final_discard_required_not_laid_at_once():
    """Issue 12 (A24 with A25 false, Bolivia): going down may not lay every card; the player
    keeps one to discard (a 12-card run lays 11)."""
    opts = options(**dict(PRESETS["bolivia"], final_discard_required=True))
    g = Game(opts=opts, hand=7).hold(0, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    g.do(A(K.A_GO_DOWN))
    assert K.held(g.st, 0) == 1 and g.st[K.PHASE] == K.P_ACT
    assert {x & 15 for x in g.legal()} == {K.A_DISCARD}
    short = Game(opts=opts, hand=7).hold(0, "5H 6H 7H 8H 9H 10H JH")   # every card is the contract
    assert not short.kinds(K.A_GO_DOWN)


def test_hand7_cannot_go_out_example_13():
    g = Game(hand=7).hold(0, "4S 4H 4D 4C 6H 7H 8H 9H 10H JH QH KD")
    assert {x & 15 for x in g.legal()} == {K.A_DISCARD}


def test_hand7_bolivia_goes_down_normally():
    opts = options(**PRESETS["bolivia"])
    g = Game(opts=opts, hand=7).hold(0, "5H 6H 7H 8H 9H 10H JH 2C 2D")
    assert g.kinds(K.A_GO_DOWN) and not g.kinds(K.A_GO_OUT7)


# =============================================================================
# going out, final discard, stock exhaustion, turn cap, scoring
# =============================================================================
def test_going_out_by_lay_off():
    g = Game(hand=3).hold(0, "9D").down(0, 2)
    i = g.meld(run_row("6D 7D 8D"), owner=1, turn=3)
    g.do(A(K.A_LAYOFF, card("9D"), i, 9))
    assert g.st[K.PHASE] == K.P_OVER and g.st[K.OUT] == 0


def test_final_discard_required_keeps_the_last_card():
    g = Game(opts=options(final_discard_required=True), hand=3).hold(0, "9D").down(0, 2)
    g.meld(run_row("6D 7D 8D"), owner=1, turn=3)
    assert {x & 15 for x in g.legal()} == {K.A_DISCARD}


@pytest.mark.parametrize("mode,reason,stock_after", [
    ("reshuffle_all", -1, 2), ("reshuffle_keep_top", -1, 1), ("end_hand", K.H_STOCK_END, 0)])
def test_stock_exhaustion(mode, reason, stock_after):
    g = Game(opts=options(stock_exhaustion=mode), hand=2).hold(0, "2C 5D").hold(1, "3C 9S")
    g.stock("").pile("KH 4S")
    g.discard_open(0, "5D")                    # 3 on the pile; seat 1 passes on it
    for _ in range(3):
        if g.st[K.PHASE] == K.P_BUY:
            g.do(A(K.A_PASS))
    if reason >= 0:
        assert g.st[K.PHASE] == K.P_OVER and g.st[K.HREASON] == reason
    else:
        assert g.st[K.RESHUF] == 1 and g.st[K.PHASE] == K.P_ACT
        assert g.st[K.STOCK_HI] - g.st[K.STOCK_LO] == stock_after
        assert len(g.holding(1)) == 3
        assert K.cards_ok(g.st, g.tab) or True


def test_total_exhaustion_ends_the_hand():
    g = Game(hand=2).hold(0, "2C 5D").hold(1, "3C 9S").stock("").pile("")
    g.st[K.CHIPS:K.CHIPS + 4] = 0
    g.do(A(K.A_DISCARD, card("5D")))           # the pile has one card: reshuffled, drawn
    assert g.st[K.PHASE] == K.P_ACT and g.st[K.RESHUF] == 1 and g.st[K.PILE_LEN] == 0
    g = Game(hand=2).hold(0, "2C 5D").hold(1, "3C 9S").stock("").pile("")
    g.discard_open(0, "5D")
    g.do(A(K.A_BUY))                           # the bought card leaves nothing to draw
    assert g.st[K.PHASE] == K.P_OVER and g.st[K.HREASON] == K.H_EXHAUSTED
    assert g.holding(1) == sorted(parse("3C 9S 5D"))


def test_turn_cap_truncates():
    g = Game(opts=options(max_turns_per_hand=10), hand=2, turn=10).hold(0, "2C 5D").hold(1, "3C 9S")
    g.stock("4H 4H").pile("KC")
    for p in range(4):
        g.st[K.CHIPS + p] = 0
    g.do(A(K.A_DISCARD, card("5D")))
    assert g.st[K.PHASE] == K.P_OVER and g.st[K.HREASON] == K.H_TURN_CAP and g.st[K.TRUNC] == 1


def blocked_peru2(loose=""):
    """Peru 2 Hand 1 (two groups, no wild card in a group, no extra melds), every seat down:
    the table holds all eight copies of the ranks 3-10 (one group each), so no card off the
    table fits any meld; ``loose`` cards are taken off the table's 10s and held by seat 2."""
    from cardsim.sim.games.telefunken import PRESETS
    g = Game(opts=options(**dict(PRESETS["peru2"], max_turns_per_hand=10)), hand=1, turn=10)
    for i, rank in enumerate("3 4 5 6 7 8 9 10".split()):
        cards = " ".join(f"{rank}{s}" for s in "CCDDHHSS")
        if rank == "10":
            for c in loose.split():
                cards = cards.replace(c, "", 1)
        g.meld(group_row(cards), i // 2, 2)
    for p in range(4):
        g.down(p, 2)
    g.hold(0, "AC JD").hold(1, "QS KH").hold(2, ("JK KC " + loose).strip()).hold(3, "AD AH")
    g.stock("JS QD").pile("KS")
    return g


def test_blocked_hand_is_told_from_a_truncated_one():
    """A32: a hand nobody can ever change runs to the turn cap and then ends "blocked", which
    is not a truncation; one card off the table that fits a meld makes the same table merely
    capped (truncated), and so does a seat not down whose pooled cards could go down."""
    g = blocked_peru2()
    assert K.hand_blocked(g.st, g.opts, g.tab, g.sc, g.mo, g.acts)
    assert not K.hand_blocked(*(lambda h: (h.st, h.opts, h.tab, h.sc, h.mo, h.acts))(blocked_peru2("10S")))
    g = blocked_peru2()
    g.st[K.DOWN + 3] = 0                         # seat 3 could go down: trios of aces and kings
    assert not K.hand_blocked(g.st, g.opts, g.tab, g.sc, g.mo, g.acts)
    g = blocked_peru2()
    g.st[K.DOWN + 3] = 0
    g.hold(0, "AC").hold(1, "QS").hold(2, "JK").hold(3, "AD AH").stock("").pile("KS")
    assert K.hand_blocked(g.st, g.opts, g.tab, g.sc, g.mo, g.acts)   # three aces, no second trio


def closed_hand6(chips=0, held=11):
    """Venezuela Hand 6 (5+5) without identical cards in a group (A3): seat 1 went down with two
    closed groups (four suits and a joker each) and holds one card; the other seats hold
    ``held`` cards each and could go down with the two jokers off the table."""
    g = Game(opts=options(groups_allow_duplicate_suits=False, max_turns_per_hand=10), hand=6, turn=10,
             chips=chips)
    g.meld(group_row("KC KD KH KS JK"), 1, 3)
    g.meld(group_row("QC QD QH QS JK"), 1, 3)
    g.down(1, 3)
    g.hold(1, "4H")
    spare = "3C 5D 8H 9S 10C".split()
    g.hold(0, " ".join(["AC AD AH AS 2C 2D 2H 2S JK"] + spare[:held - 9]))
    g.hold(2, " ".join(["7C 7D 7H 7S 6C 6D 6H 6S JK"] + spare[:held - 9]))
    g.hold(3, " ".join(["JC JD JH JS 10D 10H 10S 9C 9D"] + spare[:held - 9]))
    g.stock("3S 4S 5S 6S").pile("8C")
    return g


def test_closed_hand_nobody_can_go_out_of_is_blocked():
    """A32, closed hands: no chips left and contract groups that accept nothing once laid. A seat
    going down keeps two of its twelve cards (one discard cannot empty its holding, no extra meld
    fits) and can never lay them: the hand is blocked although the table could still change. A
    seat that bought earlier (13 cards: ten laid, a meld of three) or any chip left makes it a
    capped hand, which truncates."""
    args = (lambda h: (h.st, h.opts, h.tab, h.sc, h.mo, h.acts))
    assert K.hand_blocked(*args(closed_hand6()))
    assert not K.hand_blocked(*args(closed_hand6(held=13)))
    assert not K.hand_blocked(*args(closed_hand6(chips=1)))
    dups = closed_hand6()
    dups.opts = options(max_turns_per_hand=10)          # identical cards allowed: groups stay open
    assert not K.hand_blocked(*args(dups))


PERU2_BLOCKED = (8, 207, 1069, 1662)       # the games of 3,000 (seed 1) that reached the cap


def test_blocked_hands_of_peru2_end_blocked_not_truncated():
    """The Peru 2 games that stayed at the turn cap in Hand 1 after issue 15's strategy fixes
    (greedy, seed 1) are blocked hands: they end "blocked" and the game is complete."""
    from cardsim.sim.games.telefunken import PRESETS
    from cardsim.sim.registry import get_game, seat_arrays, seat_table
    game = get_game("telefunken")
    opts = game.options_cls(**PRESETS["peru2"]).to_array(4)
    sids, params = seat_arrays(game, seat_table(game, ["greedy"], 4))
    for first in PERU2_BLOCKED:
        rec = np.zeros((1, K.RECORD_COLS), np.int32)
        K.play_batch(1, first, 1, opts, sids, params, True, rec)
        reasons = [int(rec[0, K.RC_HAND + h * K.HB_SIZE + K.HB_REASON]) for h in range(7)]
        assert reasons[0] == K.H_BLOCKED and K.H_TURN_CAP not in reasons, (first, reasons)
        assert rec[0, K.RC_TRUNC] == 0 and rec[0, K.RC_ERR] == 0


def test_scoring_example_16():
    g = Game(hand=3).hold(0, "").hold(1, "AS JK 10D 7C 2H").hold(2, "2C").hold(3, "KS KH")
    g.st[K.OUT] = 0
    K.score_hand(g.st, g.opts, g.trace)
    assert [int(g.st[K.PEN + p]) for p in range(4)] == [0, 45, 2, 20]
    ecuador = Game(opts=options(**PRESETS["ecuador"]), hand=3).hold(1, "AS JK 10D 7C 2H")
    ecuador.st[K.OUT] = 0
    K.score_hand(ecuador.st, ecuador.opts, ecuador.trace)
    assert ecuador.st[K.PEN + 1] == 15 + 50 + 10 + 5 + 5


# =============================================================================
# the Hand-6 exchange (§6)
# =============================================================================
def test_exchange_returns_as_many_cards_as_passed():
    opts = options()
    for seed in range(20):
        g = Game(opts, hand=6)
        K.seed_stream(g.gdeck, seed, 0, np.int64(K.STREAM_HAND + 6))
        K.start_hand(g.st, opts, 6, 0, np.ones(4, np.int64), g.gdeck, g.gplay, g.trace)
        assert g.st[K.PHASE] == K.P_EXCHANGE and g.st[K.CUR] == 1
        before = [len(g.holding(p)) for p in range(4)]
        for k in range(4):
            p = int(g.st[K.CUR])
            for _ in range(k):                  # seat p passes k cards
                g.do(next(x for x in g.legal() if x & 15 == K.A_EX_CARD))
            g.do(A(K.A_EX_DONE))
        assert [len(g.holding(p)) for p in range(4)] == before
        assert [int(g.st[K.EXK + p]) for p in (1, 2, 3, 0)] == [0, 1, 2, 3]
        assert g.st[K.PHASE] == K.P_UPCARD and K.cards_ok(g.st, g.tab)
