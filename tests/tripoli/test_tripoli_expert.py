"""Tripoli's expert (issue 41): the strength table it reads, the chance of the best hand, its
betting and its Michigan leads to known stops, on stacked states."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from cardsim.kernels import poker as PK
from cardsim.kernels import tripoli as K
from cardsim.kernels.rng import new_stream
from cardsim.sim.games.tripoli import TripoliOptions
from cardsim.sim.notation import parse_mask
from cardsim.sim.registry import get_game, seat_arrays, seat_table

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "studies"))
import tripoli_strength_table as TABLE  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_tripoli_strategies as STRATEGY_TESTS  # noqa: E402

GAME = get_game("tripoli")
NINE = ["2C 3C 4C 5C 6D 7D 8D 9D JS", "2D 3D 4D 5D 6C 7C 8C 9C JH", "2H 3H 4H 5H 6S 7S 8S 9S JC",
        "2S 3S 4S 5S 6H 7H 8H 9H JD", "TC TD TH TS QC QD QH QS"]


def row(text):
    sids, params = seat_arrays(GAME, seat_table(GAME, [text], 1))
    return int(sids[0]), params[0]


def table(n, hands, widow=""):
    opts = TripoliOptions().to_array(n)
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N] = n
    K.reset_deal(st, opts, n - 1)
    for p, text in enumerate(hands):
        st[K.HAND + p] = parse_mask(text)
    st[K.WIDOW] = parse_mask(widow) if widow else 0
    return st, opts


def decide(st, opts, text, seed=0):
    sid, prm = row(text)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    n = K.legal_actions(st, opts, acts)
    a = int(acts[K.choose(st, opts, acts, n, sid, prm, new_stream(seed, 0, 1))])
    return K.ACTION_NAMES[a & 15], a >> 8


def betting(st, p, poker, cur_bet=0, contrib=None, pot=5):
    """``test_tripoli_strategies.betting``, the pot counting the bets in ``contrib`` too."""
    STRATEGY_TESTS.betting(st, None, p, poker, cur_bet, contrib, pot + sum((contrib or {}).values()))


@pytest.mark.parametrize("h", [5, 7, 9, 12])
def test_the_strength_table_agrees_with_a_fresh_sample(h):
    """``STRENGTH_QUANTILES`` (200,000 holdings a size, seed 41) against 20,000 fresh ones: the
    chance of a weaker hand (``weaker``) within 0.02 at every strength."""
    fresh = TABLE.strengths(h, 20_000, np.random.default_rng(7))
    for v in np.linspace(0.05, 8.5, 60):
        assert abs(K.weaker(h, v) - np.mean(fresh < v)) < 0.02, (h, v)


def test_the_chance_of_the_best_hand_narrows_to_what_the_bets_show():
    st, opts = table(5, NINE)
    _, prm = row("expert:raise_range=0.25,call_range=0.5")
    betting(st, 0, "2H 2D 4H 5C 9D")
    v = K.strength(PK.eval5(np.int64(st[K.PICK])))
    free = K.best_chance(st, 0, v, prm)
    assert free == pytest.approx(np.prod([K.weaker(9, v)] * 3) * K.weaker(8, v))
    st[K.BETS + 1] = K.B_CALL
    called = K.best_chance(st, 0, v, prm)
    st[K.BETS + 1] = K.B_RAISE
    raised = K.best_chance(st, 0, v, prm)
    assert free > called >= raised >= 0.0
    st[K.FOLDED] = 0b11100                                          # one live opponent (seat 1)
    assert K.best_chance(st, 0, v, prm) == pytest.approx(max(0.0, (K.weaker(9, v) - 0.75) / 0.25))


def test_bets_by_the_chance_and_calls_by_the_pot_odds():
    st, opts = table(5, NINE)
    betting(st, 4, "QC QD QH QS 2C", pot=20)                        # quads: a value bet, half the pot
    assert decide(st, opts, "expert:bet_frac=0.5,bluff=0") == ("bet", 10)
    assert decide(st, opts, "expert:bet_frac=0.25,bluff=0") == ("bet", 5)
    st, opts = table(5, NINE)
    betting(st, 0, "2C 4D 6H 8S JS")                                # jack high: check, or a bluff
    assert decide(st, opts, "expert:bluff=0") == ("check", 0)
    assert decide(st, opts, "expert:bluff=1,bet_frac=0.4") == ("bet", 2)
    st, opts = table(5, NINE)
    betting(st, 0, "5C 6D 7H 8S 9D", cur_bet=1, contrib={1: 1}, pot=60)   # a straight, 1 chip into 62
    assert decide(st, opts, "expert:call_margin=0,raise_eq=1") == ("call", 0)
    assert decide(st, opts, "expert:call_margin=0.5,raise_eq=1") == ("fold", 0)
    st[K.CUR_BET] = 10
    st[K.CONTRIB + 1] = 10
    st[K.BOARD + K.SP_POT] = 10                                     # 10 into 20: dear against four
    assert decide(st, opts, "expert:call_margin=0,raise_eq=1") == ("fold", 0)


def test_michigan_leads_to_a_stop_known_in_the_widow():
    """The critique's worst Michigan leads (deal 6, seat 1): with the next card of a suit known to
    be in the widow, leading that suit keeps the lead (a stop), which the heuristic, counting only
    played cards and aces as stops, does not see. Here A-C A-S Q-S 5-H 6-H with the K-S in the
    widow (seen by the seat after its swap): the expert leads spades (Q-S, stopped by the king)."""
    hand = "AC AS QS 5H 6H"
    st, opts = table(5, [hand, "2C 3C", "4C 2S", "6S 7S", "8S 9S"], widow="KS 6C 8D")
    st[K.PHASE] = K.P_LEAD
    st[K.CUR] = 0
    st[K.W_SEEN] = 0                                                # seat 0 swapped: it knows the widow
    st[K.PLAYED] = parse_mask("5C AD 3D 4D 5D 6D 7D")
    st[K.BANNED] = 1
    off = ",lead_plan=0,lead_chance=0"                              # the later fixes off
    assert decide(st, opts, "expert:widow_stops=1,stop_bonus=4" + off) == ("lead", 3)
    assert decide(st, opts, "expert:widow_stops=0,stop_bonus=4" + off) != ("lead", 3)
    st[K.W_SEEN] = 3                                                # another seat saw it: not known
    assert decide(st, opts, "expert:widow_stops=1,stop_bonus=4" + off) != ("lead", 3)


def michigan(hand, others, played, widow="KD QD JD"):
    st, opts = table(5, [hand, *others], widow=widow)
    st[K.PHASE] = K.P_LEAD
    st[K.CUR] = 0
    st[K.W_SEEN] = 3
    st[K.PLAYED] = parse_mask(played)
    st[K.BANNED] = -1
    return st, opts


def test_michigan_leads_to_a_sure_way_out():
    """The critique's plug-in fix (examples/tripoli_critique_fixes.py, now ``lead_plan``): with
    2S 3S 4H 5H 6H, the 4S played and the 7H unseen, strong's score leads the hearts (the longer
    run) and loses the lead; the spades stop (4S is dead), and the hearts then play out the hand."""
    st, opts = michigan("2S 3S 4H 5H 6H", ["2C 3C", "4C 5C", "6C 7C", "8C 9C"], "4S")
    base = "expert:stop_bonus=0,lead_chance=0,lead_plan="
    assert decide(st, opts, base + "0") == ("lead", 2)
    assert decide(st, opts, base + "1") == ("lead", 2)              # no single lead empties the hand
    assert decide(st, opts, base + "2") == ("lead", 3)
    hand = parse_mask("2S 3S 4H 5H 6H")
    shed, how = K.own_run(np.int64(hand), np.int64(parse_mask("4S")), 3)
    assert (shed, how) == (parse_mask("2S 3S"), K.RUN_STOP)
    assert K.sure_out(np.int64(hand), np.int64(parse_mask("4S")), -1, 2) == 1
    assert K.sure_out(np.int64(hand), np.int64(parse_mask("4S")), 3, 2) == 0    # spades just stopped
    assert K.sure_out(np.int64(hand), np.int64(0), -1, 4) == 0                  # 4S unseen: no sure stop


def test_michigan_keeps_a_stop_another_lead_can_reach():
    """Issue 41's second Michigan round (``keep_entry``): QS with the KS played is a sure stop,
    but 2S-JS are out: another seat's spade lead runs into the queen and gives the seat the lead.
    Kept, it is a way back; led now, it only sheds a card that would go anyway. With keep_entry 1
    the seat leads its hearts (5H 6H, open) instead; with every lower spade played it still takes
    the stop (nobody can reach it: keep_entry does not apply)."""
    hand = "QS 5H 6H 9C"
    others = ["2C 3C 7H", "4C 5C", "6C 7C", "8C TC"]
    base = "expert:stop_bonus=4,run_weight=1,lead_chance=0,lead_plan=0,own_low=0,feed_shown=0,keep_entry="
    st, opts = michigan(hand, others, "KS")
    assert decide(st, opts, base + "0") == ("lead", 3)              # S: 1 + 1 + 4 against H: 2 + 2
    assert decide(st, opts, base + "1") == ("lead", 2)
    assert decide(st, opts, base + "0.75") == ("lead", 2)           # S: 1 + 1 + 1
    assert K.reachable(np.int64(parse_mask(hand)), np.int64(parse_mask("KS")), 3) == 1
    below = "2S 3S 4S 5S 6S 7S 8S 9S TS JS"
    st, opts = michigan(hand, others, "KS " + below)
    assert K.reachable(np.int64(parse_mask(hand)), np.int64(parse_mask("KS " + below)), 3) == 0
    assert decide(st, opts, base + "1") == ("lead", 3)


def test_michigan_leads_the_suit_only_its_own_lead_can_shed():
    """``own_low``: 2D 3D (nothing below the two: no other lead ever reaches them) against the
    longer 8H 9H TH, which a heart lead from another seat may carry out: strong's score leads the
    hearts, with own_low 3 the diamonds."""
    st, opts = michigan("2D 3D 8H 9H TH", ["2C 3C 7H", "4C 5C", "6C 7C", "8C TC"], "")
    base = "expert:stop_bonus=4,run_weight=1,lead_chance=0,lead_plan=0,keep_entry=0,feed_shown=0,own_low="
    assert decide(st, opts, base + "0") == ("lead", 2)              # H: 3 + 3 against D: 2 + 2
    assert decide(st, opts, base + "3") == ("lead", 1)              # D: 2 + 2 + 3


def test_michigan_does_not_lead_into_a_card_another_seat_has_shown():
    """``feed_shown``: 3H 4H 5H, whose run stops open below the 6H that seat 1 showed at the
    showdown (its lead next), against 9C TC: with feed_shown 3 the seat leads the clubs."""
    st, opts = michigan("3H 4H 5H 9C TC", ["2C 3C 6H", "4C 5C", "6C 7C", "8C JC"], "")
    st[K.PICK + 1] = parse_mask("6H 2C 3C")                         # seat 1's poker hand, shown
    base = "expert:stop_bonus=4,run_weight=1,lead_chance=0,lead_plan=0,keep_entry=0,own_low=0,feed_shown="
    assert decide(st, opts, base + "0") == ("lead", 2)              # H: 3 + 3 against C: 2 + 2
    assert decide(st, opts, base + "3") == ("lead", 0)
    st[K.PICK + 1] = parse_mask("2C 3C")                            # the 6H not shown: hearts again
    assert decide(st, opts, base + "3") == ("lead", 2)


def test_the_chance_that_an_unseen_card_lies_in_the_widow():
    """``widow_chance``: the widow's cards the seat does not know over every card it has not seen
    (own hand, played, known widow and the cards other seats have shown excluded)."""
    st, opts = michigan("2S 3S 4H 5H 6H", ["2C 3C", "4C 5C", "6C 7C", "8C 9C"], "4S")
    hand = np.int64(st[K.HAND])
    assert K.widow_chance(st, opts, 0, hand, np.int64(0)) == pytest.approx(3 / (52 - 5 - 1))
    known = np.int64(parse_mask("KD"))
    assert K.widow_chance(st, opts, 0, hand, known) == pytest.approx(2 / (52 - 5 - 1 - 1))


def test_critique_fixes_plugin_is_strong_with_its_fixes_off():
    """examples/tripoli_critique_fixes.py (issue 41's easy-gains plug-in) with every fix off and
    strong's lead weights plays the expert's leads without its Michigan fixes exactly, with
    look=0 (its own-run fixes) the expert's with ``lead_plan=3,lead_chance=1``, and with look=0 and
    its defaults strong's own leads (the second round's keep_entry, own_low, feed_shown too)."""
    import cardsim
    from cardsim.sim.registry import parse_seat
    root = Path(__file__).resolve().parents[2]
    strong = dict(zip([p.name for p in GAME.strategies["strong"].params], parse_seat(GAME, "strong").values))
    weights = f"run_weight={strong['run_weight']},stop_bonus={strong['stop_bonus']}"
    label = f"{root / 'examples' / 'tripoli_critique_fixes.py'}:fixes:{weights}"

    def records(seat):
        res = cardsim.run("tripoli", players=5, deals=300, strategies=[seat] + ["strong"] * 4, seed=11, workers=1)
        return res.records.drop(columns=[c for c in res.records.columns if c.startswith("strategy")],
                                errors="ignore").reset_index(drop=True)

    def same(a, b):
        num = [c for c in a.columns if a[c].dtype.kind in "iuf"]
        return a[num].equals(b[num])

    off = "keep_entry=0,own_low=0,feed_shown=0"
    without = records(f"strong:lead_plan=0,lead_chance=0,{off}")
    assert same(without, records(f"{label},look=0,plan=0,chance=0,keep_entry=0,own_low=0,feed=0"))
    assert same(records(f"strong:lead_plan=3,lead_chance=1,{off}"),
                records(f"{label},look=0,plan=3,chance=1,keep_entry=0,own_low=0,feed=0"))
    assert not same(without, records(f"{label},look=0,plan=3,chance=1,keep_entry=0,own_low=0,feed=0"))
    # issue 41's second Michigan round: strong's keep_entry, own_low and feed_shown, as the plug-in's
    assert same(records("strong"), records(f"{label},look=0"))