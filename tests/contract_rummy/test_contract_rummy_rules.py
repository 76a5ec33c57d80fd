"""Contract Rummy game-flow scenarios with stacked states (contract_rummy.md §19 examples
7, 9, 10, 11, 13, 14 and the May-I rules of §7); the meld examples are in
tests/test_melds_float.py."""
import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import melds as M
from cardsim.sim.games.contract_rummy import PRESETS, ContractRummyOptions
from cardsim.sim.notation import parse

JK = K.JK


def defaults(sid):
    """The parameter row of strategy ``sid`` with its registry defaults."""
    from cardsim.sim.games.contract_rummy import STRATEGIES
    row = np.zeros(K.N_PARAMS)
    spec = next(s for s in STRATEGIES if s.sid == sid)
    row[:len(spec.params)] = [q.default for q in spec.params]
    return row


class Game:
    """A stacked state: hands from text, the stock top first, the pile bottom first."""

    def __init__(self, preset="contract", n=4, deal=1, strategies=None, **over):
        self.opts = ContractRummyOptions(**{**PRESETS[preset], **over}).to_array(n)
        self.st = np.zeros(K.ST_SIZE, np.int64)
        self.st[K.N] = n
        K.reset_deal(self.st, deal, n - 1)
        self.tab = np.zeros((K.MAX_MELDS, K.TW), np.int64)
        self.sids = np.full(n, K.S_GREEDY, np.int64)
        self.params = np.zeros((n, K.N_PARAMS))
        self.params[:] = defaults(K.S_GREEDY)
        for p, (sid, prm) in (strategies or {}).items():
            self.sids[p] = sid
            self.params[p] = defaults(sid)          # the registry's defaults, the first ones replaced
            self.params[p, :len(prm)] = prm
        self.gplay = np.zeros(2, np.uint64)
        self.trace = np.zeros((400, 6), np.int64)
        self.sc = np.zeros(16, np.int64)
        self.mo = np.zeros((K.MO_ROWS, K.HOLD), np.int64)
        self.st[K.CUR] = 0

    def hand(self, p, text):
        h = self.st[K.HAND + K.HOLD * p:K.HAND + K.HOLD * (p + 1)]
        h[:] = 0
        for c in parse(text):
            h[c] += 1
        self.st[K.HSIZE + p] = len(parse(text))
        self.st[K.GAIN + p] = self.st[K.HSIZE + p] - self.opts[K.O_HAND + self.st[K.DEAL]]

    def held(self, p):
        return self.st[K.HAND + K.HOLD * p:K.HAND + K.HOLD * (p + 1)]

    def stock(self, text):
        cards = parse(text)
        self.st[K.STOCK:K.STOCK + len(cards)] = cards
        self.st[K.STOCK_LO] = 0
        self.st[K.STOCK_HI] = len(cards)

    def pile(self, text, from_seat):
        for c in parse(text):
            self.st[K.PILE_K] += 1
            self.st[K.PILE + self.st[K.PILE_LEN]] = c + 64 * self.st[K.PILE_K]
            self.st[K.PILE_LEN] += 1
        self.st[K.TOP_FROM] = from_seat

    def table_run(self, owner, text):
        i = self.st[K.NMELDS]
        row = self.tab[i]
        cards = parse(text)
        row[M.M_KIND] = M.MK_RUN
        row[M.M_KEY] = next(c for c in cards if c != JK) // 13
        for c in cards:
            K.F.lay(row, c)
        row[K.T_OWNER] = owner
        self.st[K.NMELDS] = i + 1

    def table_set(self, owner, text):
        i = self.st[K.NMELDS]
        row = self.tab[i]
        cards = parse(text)
        row[M.M_KIND] = M.MK_GROUP
        row[M.M_KEY] = next(c for c in cards if c != JK) % 13
        for c in cards:
            K.F.lay(row, c)
        row[K.T_OWNER] = owner
        self.st[K.NMELDS] = i + 1

    def turn(self):
        e = K.play_turn(self.st, self.opts, self.tab, self.sids, self.params, self.gplay, self.trace,
                        self.sc, self.mo, *K.no_plug(len(self.sids)), K.no_search)
        assert e == 0
        return self

    def top(self):
        return int(self.st[K.PILE + self.st[K.PILE_LEN] - 1] & 63)


def test_example_14_may_i_flow():
    """Seat 1 takes seat 0's 8C; seat 2 declines, seat 3 volunteers and plays out of turn."""
    g = Game(strategies={2: (K.S_MAYI, (9, 9, 0)), 3: (K.S_MAYI, (9, 9, 1))})
    g.hand(1, "8D 8H 2C 5D 9S JH KC 4S 6H 3D")
    g.hand(2, "2D 3D 4D 5S 6S 7S 9C 10C JC QD")
    g.hand(3, "2H 3H 4H 5C 6C 7C 9D 10D JD QH")
    g.pile("8C", 0)
    g.stock("AS KD 7D")
    g.st[K.CUR] = 1
    g.turn()
    assert g.st[K.HSIZE + 1] == 12 and g.held(1)[parse("8C")[0]] == 1     # 8C + penalty AS
    assert g.held(1)[parse("AS")[0]] == 1
    assert g.st[K.MAYI + 1] == 1 and g.st[K.OOT + 3] == 1 and g.st[K.OOT + 2] == 0
    assert g.st[K.HSIZE + 3] == 10                                           # drew KD, discarded one
    assert g.st[K.TOP_FROM] == 3 and g.st[K.CUR] == 2


def test_example_14_nobody_volunteers():
    g = Game(strategies={p: (K.S_MAYI, (9, 9, 0)) for p in (2, 3, 0)})
    g.hand(1, "8D 8H 2C 5D 9S JH KC 4S 6H 3D")
    g.pile("8C", 0)
    g.stock("AS KD 7D")
    g.st[K.CUR] = 1
    g.turn()
    assert g.st[K.HSIZE + 1] == 11 and g.st[K.MAYI + 1] == 1                  # one card up
    assert g.st[K.TOP_FROM] == 1 and g.top() != parse("8C")[0]               # never the taken card


def test_may_i_limit_and_if_claimed():
    g = Game(may_i_limit_per_deal=1, strategies={p: (K.S_MAYI, (9, 9, 0)) for p in (2, 3, 0)})
    g.hand(1, "8D 8H 2C 5D 9S JH KC 4S 6H 3D")
    g.st[K.MAYI + 1] = 1
    g.st[K.PCARDS + 1] = 1
    g.pile("8C", 0)
    g.stock("AS KD 7D")
    g.st[K.CUR] = 1
    g.turn()
    assert g.held(1)[parse("8C")[0]] == 0 and g.st[K.MAYI + 1] == 1         # limit reached: stock
    g = Game(take_discard_penalty="if_claimed", strategies={p: (K.S_MAYI, (9, 9, 0)) for p in (2, 3, 0)})
    g.hand(1, "8D 8H 2C 5D 9S JH KC 4S 6H 3D")
    g.pile("8C", 0)
    g.stock("AS KD 7D")
    g.st[K.CUR] = 1
    g.turn()
    assert g.held(1)[parse("8C")[0]] == 1 and g.st[K.MAYI + 1] == 0 and g.st[K.HSIZE + 1] == 10


def test_buy_model():
    """Under buy, seat 2 buys the discard before seat 1 draws; the discarder may not buy."""
    g = Game(may_i_model="buy", strategies={1: (K.S_MAYI, (0, 0, 0))})
    g.hand(1, "2C 5D 9S JH KC 4S 6H 3D 10C QD")
    g.hand(2, "8D 8H 2D 5S 9C JC KD 4C 6C 3H")
    g.hand(0, "8S 8S 2H 5C 9D JD KH 4D 6D 3S")
    g.pile("8C", 0)
    g.stock("AS KS 7D")
    g.st[K.CUR] = 1
    g.turn()
    assert g.held(2)[parse("8C")[0]] == 1 and g.held(2)[parse("AS")[0]] == 1
    assert g.st[K.MAYI + 2] == 1 and g.st[K.MAYI + 0] == 0 and g.held(1)[parse("KS")[0]] == 1


def test_example_10_layoff_timing():
    g = Game(deal=2)
    g.table_run(3, "6S 7S 8S 9S")
    g.hand(0, "9H 9D 9C AD 2D 3D 4D 10S KC QH")
    g.stock("5C 7H 2H")
    g.turn()                                              # draws 5C, melds, no lay-off
    assert g.st[K.DOWN] == 1 and g.held(0)[parse("10S")[0]] == 1
    g.st[K.CUR] = 0
    g.turn()                                              # next turn: 10S (and 5C on 2D-4D) laid off
    assert g.held(0)[parse("10S")[0]] == 0
    assert g.tab[0, M.M_P1] & (1 << 10)                 # 10S at position 10


def test_example_11_swap_in_play():
    g = Game(deal=2)
    g.table_run(2, "JK 7S 8S 9S")
    g.table_set(3, "4H 4C 4S")
    g.hand(0, "10S KC QH 2D")
    g.st[K.DOWN] = 1
    g.st[K.MELD_TURN] = 0
    g.stock("5C 7H 2H")
    g.turn()
    assert g.tab[0, M.M_JOKERS] + g.tab[1, M.M_JOKERS] == 1               # the joker moved, laid off
    assert g.held(0)[parse("10S")[0]] == 0 and g.held(0)[JK] == 0
    g = Game("may_i", deal=2)
    g.table_run(2, "JK 7S 8S 9S")
    g.tab[0, M.M_FLAGS] |= K.F.F_DEAD
    g.hand(0, "10S KC QH 2D")
    g.st[K.DOWN] = 1
    g.stock("5C 7H 2H")
    g.turn()
    assert g.tab[0, M.M_JOKERS] == 1                                      # MAY_I: no swap


def test_example_7_deal7_goes_out_without_discard():
    g = Game(deal=7)
    g.hand(0, "2S 3S 4S 5S 9D 10D JD QD 4C 5C 6C 7C")
    g.pile("KH", 3)
    g.stock("8C 2H")
    g.turn()
    assert g.st[K.OUT] == 0 and g.st[K.DREASON] == K.D_OUT and g.st[K.PILE_LEN] == 1


def test_example_9_deal7_leftover_is_not_out():
    g = Game(deal=7)
    g.hand(0, "2S 3S 4S 5S 9D 10D JD QD 4C 5C 6C 7C")
    g.pile("3H", 3)
    g.stock("KH 2H")
    g.turn()
    assert g.st[K.OUT] == -1 and g.st[K.DOWN] == 0 and g.st[K.PILE_LEN] == 2
    g = Game("may_i", deal=7)                             # MAY_I: meld 12, discard KH, out
    g.hand(0, "2S 3S 4S 5S 9D 10D JD QD 4C 5C 6C 7C")
    g.pile("3H", 3)
    g.stock("KH 2H")
    g.turn()
    assert g.st[K.OUT] == 0 and g.top() == parse("KH")[0]


def test_example_13_scoring():
    for preset, want in (("contract", 57), ("liverpool", 57), ("may_i", 67)):
        g = Game(preset)
        g.hand(1, "7C QS AH JK 10D")
        g.st[K.OUT] = 0
        g.st[K.DREASON] = K.D_OUT
        K.score_deal(g.st, g.opts, g.trace)
        assert g.st[K.PEN + 1] == want and g.st[K.PEN] == 0


def test_dead_stock_ends_the_deal():
    g = Game()
    g.hand(0, "2C 5D 9S JH KC 4S 6H 3D 10C QD")
    g.pile("8C", 3)
    g.stock("")
    g.turn()
    assert g.st[K.DREASON] == K.D_DEAD_STOCK and g.st[K.OUT] == -1
