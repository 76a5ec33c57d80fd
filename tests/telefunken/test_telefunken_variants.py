"""The engine features of telefunken.md §17's Peru 1, Peru 2 and Farmer's presets (wild twos,
wild-card caps and ratios, wrapping runs, wild tríos, moving jokers, taking a wild card back,
the dealer's opening discard, taking the discard, free in-turn purchases, the erasing exact
cut, alternative contracts, six and eight hands) and Ecuador's dealer_chooses_contract, on
stacked states; then whole games of each preset."""
import numpy as np
import pytest

from cardsim.kernels import melds as M
from cardsim.kernels import telefunken as K
from cardsim.sim.games.telefunken import PRESETS, TelefunkenOptions
from cardsim.sim.notation import parse
from test_telefunken_rules import A, Game, card, group_row, run_row

JK = K.JK


def options(preset=None, n=4, **kw):
    return TelefunkenOptions(**{**(PRESETS[preset] if preset else {}), **kw}).to_array(n)


def two(suit):
    return "CDHS".index(suit) * 13 + 1


# =============================================================================
# wild twos (Peru 1, Farmer's)
# =============================================================================
def test_a_two_is_held_as_a_wild_card_and_scored_as_a_two():
    g = Game(opts=options("farmers"), hand=3)
    for c in parse("2C 2C 2H 9S JK"):
        K.give(g.st, 0, c)
    assert g.st[K.H1] == 1 << card("9S") and g.st[K.HJ] == 1
    assert g.st[K.HT] == 2 | 1 << 4 and K.wilds(g.st, 0) == 4 and K.held(g.st, 0) == 5
    rules = K.rules_of(g.opts)
    assert K.holding_points(g.st, 0, rules) == 3 * 20 + 10 + 50     # 2 = 20, 9 = 10, JK = 50
    discards = {K.field(x, 1) for x in g.kinds(K.A_DISCARD)}
    assert discards == {card("9S"), JK, two("C"), two("H")}         # each kind of wild card
    K.take(g.st, 0, two("C"))
    assert g.st[K.HT] == 1 | 1 << 4


def test_farmers_groups_take_wild_twos_while_naturals_outnumber_them():
    g = Game(opts=options("farmers"), hand=5)                       # 1 x 5
    g.hold(0, "9C 9D 9H 5S")
    for c in parse("2S JK"):
        K.give(g.st, 0, c)
    assert g.kinds(K.A_GO_DOWN)
    g.do(A(K.A_GO_DOWN))
    row = g.tab[0]
    assert row[M.M_JOKERS] == 2 and K.twos_count(row[K.T_TWOS]) == 1       # JK and 2S
    assert g.holding(0) == [card("5S")]
    thin = Game(opts=options("farmers"), hand=5).hold(0, "9C 9D 5S")
    for c in parse("2S 2H JK"):
        K.give(thin.st, 0, c)
    assert not thin.kinds(K.A_GO_DOWN)                              # 2 naturals, 3 wild cards


def test_farmers_wild_cards_are_never_laid_off():
    g = Game(opts=options("farmers"), hand=3).hold(0, "9S 4D").down(0, 2)
    K.give(g.st, 0, two("S"))
    i = g.meld(group_row("9C 9D 9H 9H"), owner=1, turn=3)
    lay = g.kinds(K.A_LAYOFF)
    assert lay == [A(K.A_LAYOFF, card("9S"), i, 0)]
    farmers_ok = Game(opts=options("farmers", wilds_may_be_laid_off=True), hand=3).hold(0, "4D").down(0, 2)
    K.give(farmers_ok.st, 0, two("S"))
    farmers_ok.meld(group_row("9C 9D 9H 9H"), owner=1, turn=3)
    assert A(K.A_LAYOFF, two("S"), 0, 0) in farmers_ok.kinds(K.A_LAYOFF)


def test_a_wild_two_laid_off_is_recorded_in_the_meld():
    g = Game(opts=options("peru1"), hand=3).hold(0, "4D 9C").down(0, 2)
    K.give(g.st, 0, two("S"))
    i = g.meld(run_row("5H 6H 7H"), owner=1, turn=3)
    x = A(K.A_LAYOFF, two("S"), i, 8)
    assert x in g.kinds(K.A_LAYOFF)
    g.do(x)
    assert g.tab[i, M.M_JOKERS] == 1 and g.tab[i, K.T_TWOS] == 1 << 6 and g.tab[i, M.M_HI] == 8


# =============================================================================
# runs: several wild cards, the ratio, wrapping (Peru 1 and 2)
# =============================================================================
def test_peru1_runs_take_wild_cards_up_to_the_naturals_and_wrap():
    g = Game(opts=options("peru1"), hand=3).hold(0, "QS KS AS 4D 9C").down(0, 2)
    for c in (JK, two("H")):
        K.give(g.st, 0, c)
    melds = g.kinds(K.A_MELD)
    runs = [x for x in melds if K.field(x, 1) == M.MK_RUN]
    # Q K A of spades held: the segment itself, and the longest run the two wild cards make
    # (positions 12..16 = Q K A 2 3, wrapping)
    assert A(K.A_MELD, M.MK_RUN, 3, 12, 14, 0) in runs
    assert A(K.A_MELD, M.MK_RUN, 3, 12, 16, K.RUN_FILL) in runs
    g.do(A(K.A_MELD, M.MK_RUN, 3, 12, 16, K.RUN_FILL))
    row = g.tab[0]
    assert row[M.M_JPOS] == (1 << 15 | 1 << 16) and M.meld_valid(row, K.rules_of(g.opts))
    assert g.holding(0) == sorted(parse("4D 9C"))


def test_a_wrapping_run_grows_below_its_ace():
    g = Game(opts=options("peru1"), hand=3).hold(0, "KH 4D 9C").down(0, 2)
    i = g.meld(run_row("AH JK(2H) 3H 4H"), owner=1, turn=3)
    rules = K.rules_of(g.opts)
    assert M.meld_valid(g.tab[i], rules)
    x = A(K.A_LAYOFF, card("KH"), i, 0)                            # position 0: the king below the ace
    assert x in g.kinds(K.A_LAYOFF)
    g.do(x)
    assert (g.tab[i, M.M_LO], g.tab[i, M.M_HI]) == (13, 17) and M.meld_valid(g.tab[i], rules)
    assert not Game(hand=3).hold(0, "KH").down(0, 2).kinds(K.A_LAYOFF)      # no wrapping by default


def test_peru1_a_natural_takes_a_wild_card_back_which_must_be_laid_at_once():
    g = Game(opts=options("peru1"), hand=3).hold(0, "7H 9C 4D").down(0, 2)
    i = g.meld(run_row("5H 6H JK(7H) 8H"), owner=1, turn=3)
    take = A(K.A_TAKE_WILD, card("7H"), i)
    assert take in g.kinds(K.A_TAKE_WILD)
    g.do(take)
    assert g.tab[i, M.M_JOKERS] == 0 and g.tab[i, M.M_P1] >> card("7H") & 1
    assert g.holding(0) == sorted(parse("9C 4D") + [JK]) and g.st[K.JOKER_DUE] == 1
    legal = g.legal()
    assert legal and all(K.field(x, 1) == JK for x in legal)        # only laying the wild card
    assert not Game(hand=3).hold(0, "7H 9C").down(0, 2).kinds(K.A_TAKE_WILD)


def test_peru2_jokers_move_along_a_run():
    frozen = Game(hand=3).hold(0, "7D 2C").down(0, 2)
    i = frozen.meld(run_row("5D 6D JK(7D) 8D"), owner=1, turn=3)
    assert not frozen.kinds(K.A_SHIFT)                              # frozen by default (§10.3)
    g = Game(opts=options("peru2"), hand=3).hold(0, "7D 2C").down(0, 2)
    i = g.meld(run_row("5D 6D JK(7D) 8D"), owner=1, turn=3)
    shifts = g.kinds(K.A_SHIFT)
    assert A(K.A_SHIFT, card("7D"), i, 9) in shifts and A(K.A_SHIFT, card("7D"), i, 4) in shifts
    g.do(A(K.A_SHIFT, card("7D"), i, 9))
    assert g.tab[i, M.M_JPOS] == 1 << 9 and M.meld_valid(g.tab[i], K.rules_of(g.opts))


def test_peru2_wild_trio_in_the_contract():
    g = Game(opts=options("peru2"), hand=1).hold(0, "5C 5D 5H 9S JK JK JK KD")
    g.do(A(K.A_GO_DOWN))
    rows = g.tab[:g.st[K.NMELDS]]
    assert sorted(int(r[M.M_FLAGS]) & M.F_WILD for r in rows) == [0, M.F_WILD]
    assert g.holding(0) == sorted(parse("9S KD"))


# =============================================================================
# the turn: dealer's opening, taking the discard, purchases, the exact cut
# =============================================================================
def start(opts, h=1, dealer=0, seed=3, n=4):
    g = Game(opts, hand=h, n=n, chips=int(opts[K.O_CHIPS]))
    K.seed_stream(g.gdeck, seed, 0, np.int64(K.STREAM_HAND + h))
    K.start_hand(g.st, opts, h, dealer, np.ones(n, np.int64), g.gdeck, g.gplay, g.trace)
    return g


def test_peru1_dealer_gets_twelve_cards_and_opens_by_discarding():
    g = start(options("peru1"))
    assert [K.held(g.st, p) for p in range(4)] == [12, 11, 11, 11]
    assert g.st[K.PILE_LEN] == 0 and g.st[K.UPCARD] == -1
    assert g.st[K.PHASE] == K.P_OPEN and g.st[K.CUR] == 0
    assert {x & 15 for x in g.legal()} == {K.A_DISCARD}
    g.do(g.legal()[0])
    assert g.st[K.PILE_LEN] == 1 and K.held(g.st, 0) == 11
    assert g.st[K.CUR] == 1 or g.st[K.PHASE] == K.P_BUY             # next(dealer) draws, or a buyer is asked
    assert K.exact_cut(g.opts, 4, 45, 0) and not K.exact_cut(g.opts, 4, 46, 0)   # 45 dealt, no upcard


def test_peru2_deals_twelve_and_any_turn_may_take_the_discard_but_not_pass_it_back():
    g = start(options("peru2"))
    assert [K.held(g.st, p) for p in range(4)] == [12] * 4
    assert g.st[K.PHASE] == K.P_UPCARD
    g.do(A(K.A_TAKE_UPCARD))
    taken = g.st[K.TAKEN]
    assert taken == g.st[K.UPCARD] and taken not in [K.field(x, 1) for x in g.kinds(K.A_DISCARD)]
    g.do(g.kinds(K.A_DISCARD)[0])
    # nobody may buy (no chips): the next player chooses between the discard and the stock
    assert g.st[K.PHASE] == K.P_UPCARD and g.st[K.CUR] == 2 and g.st[K.UP_OFFER] == 0
    top = g.st[K.PILE + g.st[K.PILE_LEN] - 1]
    g.do(A(K.A_DRAW))
    assert g.st[K.PHASE] == K.P_ACT and g.st[K.PILE + g.st[K.PILE_LEN] - 1] == top


def test_a_taken_card_may_be_discarded_when_it_is_all_that_is_left():
    g = Game(opts=options("peru2"), hand=3).hold(0, "9S 9S")
    g.st[K.TAKEN] = card("9S")
    assert [K.field(x, 1) for x in g.kinds(K.A_DISCARD)] == [card("9S")]


def test_farmers_in_turn_purchase_costs_no_coin():
    opts = options("farmers")
    g = Game(opts=opts, hand=2, chips=0).hold(0, "2D 5D KC").hold(1, "9C 9D 4S").stock("3C 4C 5C 6C 7C")
    g.discard_open(0, "KC")
    assert g.st[K.PHASE] == K.P_BUY and g.st[K.ASK] == 1           # no coins, but in turn it is free
    g.do(A(K.A_BUY))
    assert g.st[K.CHIPS + 1] == 0 and K.held(g.st, 1) == 3 + 1 + 3    # the discard + 3 stock cards
    out = Game(opts=opts, hand=2, chips=1).hold(0, "2D 5D KC").stock("3C 4C 5C 6C 7C")
    out.discard_open(0, "KC")
    out.do(A(K.A_PASS))
    assert out.st[K.ASK] == 2
    out.do(A(K.A_BUY))
    assert out.st[K.CHIPS + 2] == 0 and K.held(out.st, 2) == 1 + 2    # out of turn: a coin, 2 stock cards


def test_peru2_exact_cut_erases_the_previous_penalty():
    opts = options("peru2", cut_model="uniform", cut_min=49, cut_max=49)   # 12 x 4 + the upcard
    g = Game(opts=opts, hand=2)
    g.st[K.LASTPEN + 3] = 37
    g.st[K.TOTAL + 3] = 37
    K.seed_stream(g.gdeck, 5, 0, np.int64(K.STREAM_HAND + 2))
    K.start_hand(g.st, opts, 2, 0, np.ones(4, np.int64), g.gdeck, g.gplay, g.trace)
    assert g.st[K.CUT_EXACT] and g.st[K.PEN + 3] == -37 and g.st[K.TOTAL + 3] == 0


# =============================================================================
# contracts: alternatives, the last hand at once (Peru 2), the dealer's choice
# =============================================================================
def test_peru2_last_hand_goes_out_with_any_alternative():
    opts = options("peru2")
    runs = Game(opts=opts, hand=7).hold(0, "2C 3C 4C 5C 7D 8D 9D 10D 4S 5S 6S 7S KH")
    assert runs.kinds(K.A_GO_OUT7) and not runs.kinds(K.A_GO_DOWN)
    runs.do(A(K.A_GO_OUT7))
    assert runs.st[K.OUT] == 0 and runs.st[K.PILE + runs.st[K.PILE_LEN] - 1] == card("KH")
    trios = Game(opts=opts, hand=7).hold(0, "4C 4D 4H 8S 8S 8D QH QH QC AC AD AS 9D")
    trios.do(A(K.A_GO_OUT7))
    assert trios.st[K.NMELDS] == 4 and trios.st[K.OUT] == 0
    stuck = Game(opts=opts, hand=7).hold(0, "4C 4D 4H 8S 8S 8D QH QH QC AC AD 9D 9C")
    assert {x & 15 for x in stuck.legal()} == {K.A_DISCARD}


def test_dealer_chooses_each_contract_once():
    opts = options("ecuador", dealer_chooses_contract=True)
    g = Game(opts=opts, hand=1)
    K.seed_stream(g.gdeck, 9, 0, np.int64(K.STREAM_HAND + 1))
    K.start_hand(g.st, opts, 1, 2, np.ones(4, np.int64), g.gdeck, g.gplay, g.trace)
    assert g.st[K.PHASE] == K.P_CHOOSE and g.st[K.CUR] == 2
    assert [K.field(x, 1) for x in g.legal()] == list(range(1, 8))
    g.do(A(K.A_CHOOSE, 7))
    assert g.st[K.CONTRACT] == 7 and K.hand7_at_once(g.st, opts)   # the escalera, laid at once
    g.st[K.USED] |= 1 << 3
    K.reset_hand(g.st, 2, 3)
    g.st[K.PHASE], g.st[K.CUR] = K.P_CHOOSE, 3
    assert [K.field(x, 1) for x in g.legal()] == [1, 2, 4, 5, 6]


def test_dealer_choice_games_play_every_contract_once():
    from test_telefunken_invariants import check_records, play
    rec, opts = play("ecuador", 4, ["greedy", "random", "greedy", "patient"], 20, dealer_chooses_contract=True)
    check_records(rec, opts, 4)
    played = np.stack([rec[:, K.RC_HAND + h * K.HB_SIZE + K.HB_CONTRACT] for h in range(7)], axis=1)
    assert (np.sort(played, axis=1) == np.arange(1, 8)).all()
    assert (played != np.arange(1, 8)).any()                        # the dealers do reorder them


@pytest.mark.parametrize("preset, hands", [("peru1", 6), ("peru2", 7), ("farmers", 8)])
def test_whole_games_of_the_variant_presets(preset, hands):
    from test_telefunken_invariants import check_records, play
    rec, opts = play(preset, 4, ["greedy", "chip_saver", "patient", "greedy"], 30)
    check_records(rec, opts, 4)
    assert (rec[:, K.RC_HANDS] == hands).all()
    outs = [rec[:, K.RC_HAND + h * K.HB_SIZE + K.HB_REASON] for h in range(hands)]
    assert np.mean(np.concatenate(outs) == K.H_OUT) > 0.5            # most hands end by going out


def test_cli_options_list_the_variant_presets_and_compare_runs_on_six_hands(tmp_path):
    from typer.testing import CliRunner
    from cardsim.sim.cli import app
    cli = CliRunner()
    res = cli.invoke(app, ["options", "telefunken"])
    assert res.exit_code == 0, res.output
    for name in ("peru1", "peru2", "farmers", "wild_twos", "dealer_chooses_contract"):
        assert name in res.stdout, name
    res = cli.invoke(app, ["compare", "telefunken", "--preset", "peru1", "--strategy", "greedy",
                           "--strategy", "chip_saver:reserve=4", "--field", "greedy", "--games", "8", "-q",
                           "--out", str(tmp_path / "cmp")])
    assert res.exit_code == 0, res.output
    res = cli.invoke(app, ["run", "telefunken", "--preset", "farmers", "--games", "6", "-q", "--check",
                           "--out", str(tmp_path / "f.parquet")])
    assert res.exit_code == 0, res.output
    import pandas as pd
    df = pd.read_parquet(tmp_path / "f.parquet")
    assert "h8_pen_0" in df and "h9_pen_0" not in df
    assert (df[[f"h{h}_pen_2" for h in range(1, 9)]].sum(axis=1) == df["total_2"]).all()


def test_no_wild_card_in_runs_holds_in_the_hand7_partition():
    """max_wilds_in_run=0: the §19 example-11 holding needs its joker in the run, so it cannot
    go out (the Hand-7 solver read the larger of the two caps before)."""
    g = Game(opts=options(max_wilds_in_run=0), hand=7).hold(0, "4S 4H 4D 3C 4C 5C 6C 7C JK 9C 10C KD")
    assert {x & 15 for x in g.legal()} == {K.A_DISCARD}
    assert Game(hand=7).hold(0, "4S 4H 4D 3C 4C 5C 6C 7C JK 9C 10C KD").kinds(K.A_GO_OUT7)
