"""Issue 12, Contract Rummy items: stacked states that reproduce each report (each failed
before its fix), plus the options the engine used to refuse (joker_position = fixed,
min_naturals_per_meld > 1) in play."""
import numpy as np
import pytest
from test_contract_rummy_rules import Game
from typer.testing import CliRunner

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.rng import STREAM_PLAY, seed_stream
from cardsim.sim.cli import app
from cardsim.sim.errors import UsageError
from cardsim.sim.games.contract_rummy import ContractRummyOptions
from cardsim.sim.notation import parse

JK = K.JK


def card(text):
    return parse(text)[0]


def run_row(text, rules):
    """A table run laid card by card (the window follows the engine's rule)."""
    row = np.zeros(M.M_SIZE, np.int64)
    cards = parse(text)
    row[M.M_KIND] = M.MK_RUN
    row[M.M_KEY] = next(c for c in cards if c != JK) // 13
    for c in cards:
        F.lay(row, c)
    assert F.row_valid(row, rules)
    return row


# ---- may_i + go_out_requires_discard (§15.3.2, A10) -----------------------------------
def test_mayi_go_out_requires_discard_melds_all_but_one():
    """The best meld uses all 11 cards; with a final discard required the engine must lay
    all but one and go out on the discard (it refused to meld at all)."""
    g = Game("may_i", go_out_requires_discard=True)
    g.hand(0, "5C 5C 5D 5D 5H 5H 6C 6C 6D 6D")
    g.stock("6H 2S 3S")
    v = K.best_meld(g.st.copy(), g.opts, 0, g.mo)      # before the draw: 10 cards, all melded
    assert v >= 0
    g.turn()                                             # draws 6H: 11 cards
    assert g.st[K.DOWN] == 1
    assert g.st[K.OUT] == 0 and g.st[K.DREASON] == K.D_OUT
    assert g.st[K.HSIZE] == 0 and g.st[K.PILE_LEN] == 1   # the last card went by discard


def test_go_out_requires_discard_never_melds_every_card():
    g = Game("may_i", go_out_requires_discard=True)
    g.hand(0, "5C 5D 5H 6C 6D 6H 9S 9S KD 2C")
    g.stock("3H")
    g.turn()                                             # 5s + 6s (+ nothing else): discard, 4 left
    assert g.st[K.DOWN] == 1 and g.st[K.HSIZE] >= 1 and g.st[K.OUT] == -1


# ---- "do not discard the card you took" (A9, §7.1.3) ----------------------------------
def test_taken_card_twin_is_not_discarded():
    """Under may_i_model = none the random player took 8C holding the other 8C and then
    discarded that twin: the pile top was 8C again, the pass the rule forbids."""
    eight = card("8C")
    took = 0
    for seed in range(120):
        g = Game(may_i_model="none", strategies={0: (K.S_RANDOM, ())})
        g.hand(0, "8C 9D KS 2H 4C 6D 10S QH 3S 7H")
        g.pile("5D 8C", 3)
        g.stock("AS KD 7D")
        seed_stream(g.gplay, 7, seed, np.int64(STREAM_PLAY))
        g.turn()
        if g.st[K.TAKEN] == eight:
            took += 1
            assert g.top() != eight, seed
    assert took > 20


def test_taken_card_type_may_go_when_nothing_else_is_held():
    g = Game(may_i_model="none")
    g.hand(0, "8C 8C")
    g.st[K.TAKEN] = card("8C")
    assert K.discard_ok(g.st, 0, card("8C"), False)
    g.hand(0, "8C 8C 9D")
    assert not K.discard_ok(g.st, 0, card("8C"), False)
    assert K.discard_ok(g.st, 0, card("9D"), False)
    assert K.discard_ok(g.st, 0, card("8C"), True)       # out of turn: any card


# ---- joker_swap_requires_prior_meld = false: no lay-off on the meld turn (§8) ---------
def swap_table(**over):
    g = Game(joker_swap_requires_prior_meld=False, **over)
    g.table_run(2, "JK 7S 8S 9S")
    g.table_set(3, "4H 4C 4S")
    return g


def test_swap_after_the_meld_never_lays_the_joker_off():
    """Seat 0 melds KKK QQQ, then swapped 10S for the run's joker and laid the joker back on
    the table (a lay-off on the meld turn)."""
    g = swap_table()
    g.hand(0, "KC KD KH QC QD QH 10S 2D 5C 9H")
    g.stock("3C 2H 2H")
    g.turn()
    assert g.st[K.DOWN] == 1
    assert g.held(0)[card("10S")] == 1
    assert g.tab[0, M.M_JOKERS] == 1 and g.tab[1, M.M_JOKERS] == 0
    assert g.tab[0, M.M_P1] & (1 << 10) == 0


def test_swap_after_the_meld_may_keep_the_joker_for_the_discard():
    g = swap_table(swapped_joker_may_be_discarded=True)
    g.hand(0, "KC KD KH QC QD QH 10S 2D 5C 9H")
    g.stock("3C 2H 2H")
    g.turn()
    assert g.st[K.DOWN] == 1 and g.held(0)[card("10S")] == 0
    assert g.tab[0, M.M_JOKERS] == 0 and g.tab[1, M.M_JOKERS] == 0
    assert g.top() == JK                                 # kept, then discarded


def test_swap_before_the_meld_puts_the_joker_into_it():
    """Two queens, no joker: swapping 10S for the run's joker completes KKK QQ+JK."""
    g = swap_table()
    g.hand(0, "KC KD KH QC QD 10S 2D 5C 9H 3H")
    g.stock("4D 2H 2H")
    g.turn()
    assert g.st[K.DOWN] == 1
    assert g.held(0)[card("10S")] == 0 and g.held(0)[JK] == 0
    assert g.tab[0, M.M_JOKERS] == 0 and g.tab[0, M.M_P1] & (1 << 10)
    assert sum(g.tab[i, M.M_JOKERS] for i in range(2, 4)) == 1 and g.tab[1, M.M_JOKERS] == 0
    g = Game()                                           # default: swaps only after the meld turn
    g.table_run(2, "JK 7S 8S 9S")
    g.hand(0, "KC KD KH QC QD 10S 2D 5C 9H 3H")
    g.stock("4D 2H 2H")
    g.turn()
    assert g.st[K.DOWN] == 0 and g.tab[0, M.M_JOKERS] == 1


# ---- joker_position = fixed (A19) ---------------------------------------------------------
def test_fixed_joker_rules():
    fixed = F.make_float_rules(fixed=True)
    floating = F.make_float_rules()
    row = run_row("JK 7S 8S 9S", fixed)                  # the joker stands for 6S
    assert (row[M.M_LO], row[M.M_HI]) == (6, 9)
    assert F.can_swap(row, card("6S"), fixed) and not F.can_swap(row, card("10S"), fixed)
    assert F.can_swap(row, card("10S"), floating)
    assert not F.can_lay(row, card("6S"), fixed) and F.can_lay(row, card("6S"), floating)
    assert F.can_lay(row, card("5S"), fixed) and F.can_lay(row, card("10S"), fixed)
    assert not F.can_lay(row, card("4S"), fixed) and not F.can_lay(row, card("4S"), floating)
    ace = run_row("JK QD KD AD", fixed)                  # JD: the ace is high
    assert F.can_swap(ace, card("JD"), fixed) and not F.can_lay(ace, card("AD"), fixed)
    assert F.can_lay(ace, card("10D"), fixed) and F.can_lay(ace, JK, fixed)


def test_fixed_option_in_play_lays_off_instead_of_swapping():
    """Floating: 10S frees the joker of JK 7S 8S 9S (greedy lays it back on the top, JS).
    Fixed (the joker is 6S): 10S can only be laid off at the top, and the joker stays 6S."""
    for position, window in (("floating", (7, 11)), ("fixed", (6, 10))):
        g = Game(deal=2, joker_position=position)
        g.table_run(2, "JK 7S 8S 9S")
        g.hand(0, "10S KC")
        g.st[K.DOWN] = 1
        g.stock("2H 2D")
        g.turn()
        assert g.held(0)[card("10S")] == 0 and g.tab[0, M.M_JOKERS] == 1
        assert (g.tab[0, M.M_LO], g.tab[0, M.M_HI]) == window, position


# ---- min_naturals_per_meld > 1 (A20) ------------------------------------------------------
def test_min_naturals_rules():
    two = F.make_float_rules(min_naturals=2)
    one = F.make_float_rules()
    table = F.make_contract_table()
    out = np.zeros((F.MAX_CM, M.M_SIZE), np.int64)

    def solve(text, rules, deal=1):
        h = np.zeros(F.HOLD, np.int64)
        for c in parse(text):
            h[c] += 1
        return F.solve_contract(h, table[deal], rules, out, False)

    assert solve("7C 7D JK QS JK JK", one) >= 0 and solve("7C 7D JK QS JK JK", two) == -1
    assert solve("7C 7D JK QS QD JK", two) >= 0
    assert solve("4H 5H 6H 7H 7C JK JK", two, deal=2) >= 0     # 7H moves to the set
    assert not F.row_valid(run_row("JK JK JK 7S", one), two) and F.row_valid(run_row("JK JK 7S 8S", one), two)
    with pytest.raises(ValueError):
        F.make_float_rules(min_naturals=4)


def test_min_naturals_option_in_play():
    for k, down in ((1, 1), (2, 0)):
        g = Game(min_naturals_per_meld=k)
        g.hand(0, "7C 7D JK QS JK JK 2C 5D KH 9S")
        g.stock("3C 2H 2H")
        g.turn()
        assert g.st[K.DOWN] == down, k
    with pytest.raises(UsageError):
        ContractRummyOptions(min_naturals_per_meld=4)


# ---- a preset that does not exist --------------------------------------------------------
def test_unknown_preset_is_one_clear_line():
    res = CliRunner().invoke(app, ["run", "contract_rummy", "--deals", "3", "--preset", "liverpol"])
    assert res.exit_code == 2
    assert "unknown preset 'liverpol'" in res.stderr and "may_i" in res.stderr
    res = CliRunner().invoke(app, ["run", "contract_rummy", "--deals", "3", "-o", "joker_position=wild"])
    assert res.exit_code == 2 and "joker_position" in res.stderr
