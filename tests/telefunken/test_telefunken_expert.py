"""Telefunken's expert (issue 41): the planner's count of wild cards (two jokers close two
groups short by 0 and 2 cards), the exact count the expert uses, and its shedding of points,
on positions of real deals replayed through the step API."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import telefunken as K
from cardsim.kernels.rng import STREAM_PLAY, seed_stream
from cardsim.sim.games.telefunken import step as TS
from cardsim.sim.games.telefunken import TelefunkenOptions
from cardsim.sim.registry import get_game, seat_arrays, seat_table

GAME = get_game("telefunken")
# issue 16's strong, the planner point the report was made with (scripts/tools/bench.py OLD_STRONG)
PLANNER = ("planner:reserve=0,near=2,per_hand=0.1716,down_left=17,down_turn=0,exchange=8,keep_jokers=1,cut_aim=0,"
           "deny=-1,stall=300,alternative=0,h7_growth=0")


def row(text):
    sids, params = seat_arrays(GAME, seat_table(GAME, [text], 1))
    return int(sids[0]), params[0]


def replay_until(seed, game, strategies, stop):
    """Game ``game`` of run ``seed`` as the batch plays it, through the step API, up to the
    first decision where ``stop(state, seat)`` holds; returns that state."""
    g = TS.make_game(len(strategies), TelefunkenOptions())
    sids, params = seat_arrays(GAME, seat_table(GAME, strategies, len(strategies)))
    gplay = np.zeros(2, np.uint64)
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    s = g.new_state()
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.batch_outcome(seed, game))
            continue
        p = s.current_player()
        if s.chance is None and s.step is None and stop(s, p):
            return s
        s.apply(s.strategy_action(int(sids[p]), params[p], gplay))
    raise AssertionError("the position never came")


def offer_of_6h(s, p):
    """The critique's worst decision of issue 16's strong (seed 0, game 4): Hand 4 (two groups
    of four), seat 0 holds AC 6C 9C AD 6D QD KD KD KH 9S KS JK JK and 6H is on offer."""
    st = s.st
    return st[K.PHASE] == K.P_BUY and p == 0 and st[K.HNO] == 4 and TS._card(int(st[K.DISCARD])) == "6H"


def test_the_planner_counts_two_jokers_into_one_group_and_the_expert_does_not():
    s = replay_until(0, 4, [PLANNER] * 4, offer_of_6h)
    st, o = s.st, s.opts
    assert TS._holding(st, 0) == "AC 6C 9C AD 6D QD KD KD KH 9S KS JK JK"
    # KD KD KH KS is one group; the other needs two naturals of a rank and a joker: one card short
    assert K.need_with(st, o, 0, -1) == 0                      # the planner's count: "ready"
    assert K.need_with(st, o, 0, -1, 0, True) == 1             # the expert's: one card short
    assert K.need_with(st, o, 0, int(st[K.DISCARD]), 0, True) == 0   # 6C 6D 6H JK + the kings
    c = int(st[K.DISCARD])
    sid, prm = row(PLANNER)
    assert not K.wants(st, o, 0, c, np.int64(sid), prm)        # the planner passes the card it needs
    for label in ("expert", "strong"):
        sid, prm = row(label)
        assert sid == K.S_EXPERT and K.wants(st, o, 0, c, np.int64(sid), prm)   # the expert buys it


def test_exact_counts_agree_with_the_planner_without_wild_cards_or_one_group():
    """The exact count differs only where wild cards would fill one group beyond its cap."""
    opts = TelefunkenOptions().to_array(4)
    rules = K.rules_of(opts)
    rng = np.random.default_rng(3)
    for _ in range(400):
        p1 = np.int64(int(rng.integers(0, 1 << 52)) & int(rng.integers(0, 1 << 52)))
        p2 = np.int64(int(p1) & int(rng.integers(0, 1 << 52)) & int(rng.integers(0, 1 << 52)))
        for k in range(1, 8):
            spec = K.spec_of(opts, k)
            a = K.contract_need(p1, p2, np.int64(0), spec, rules)
            b = K.contract_need(p1, p2, np.int64(0), spec, rules, True)
            assert a == b
            a1 = K.contract_need(p1, p2, np.int64(1), spec, rules)
            b1 = K.contract_need(p1, p2, np.int64(1), spec, rules, True)
            assert b1 >= a1 and b1 - a1 <= 1
            assert K.contract_need(p1, p2, np.int64(2), spec, rules, True) >= \
                K.contract_need(p1, p2, np.int64(2), spec, rules)


def test_the_expert_sheds_its_costliest_card_when_its_hand_is_lost():
    """A seat down with few cards and the expert far from its contract: it discards the card with
    the most penalty points; with shedding off (dump_at=0) it discards as the planner would."""
    def lost(s, p):
        st = s.st
        if st[K.PHASE] != K.P_ACT or st[K.DOWN + p] or K.hand7_at_once(st, s.opts):
            return False
        if not all(int(a) & 15 == K.A_DISCARD for a in s.acts):
            return False
        if K.need_with(st, s.opts, p, -1, 0, True) < 3:
            return False
        return any(q != p and st[K.DOWN + q] and K.held(st, q) <= 4 for q in range(4))
    s = replay_until(0, 1, ["expert"] * 4, lost)
    st, o, p = s.st, s.opts, s.current_player()
    gp = np.zeros(2, np.uint64)
    sid, prm = row("expert:dump_at=4,dump_need=3")
    pick = TS.action_code(s.strategy_action(sid, prm, gp))
    top = max(K.card_points(st, o, K.field(int(a), 1)) for a in s.acts)
    assert K.card_points(st, o, K.field(pick, 1)) == top
    sid, prm = row("expert:dump_at=0")
    calm = TS.action_code(s.strategy_action(sid, prm, gp))
    n = len(s.acts)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    acts[:n] = s.acts
    assert calm == acts[K.best_discard(st, o, acts, np.int64(n), K.A_DISCARD, True, 1)]


def test_critique_fixes_plugin_is_strong_with_its_fix_off():
    """examples/telefunken_critique_fixes.py (issue 41's easy-gains plug-in) with panic=0 plays
    strong exactly; at its default it plays differently."""
    from pathlib import Path

    import cardsim
    label = f"{Path(__file__).resolve().parents[2] / 'examples' / 'telefunken_critique_fixes.py'}:fixes"

    def records(seat):
        res = cardsim.run("telefunken", players=4, deals=8, strategies=[seat] + ["strong"] * 3, seed=11, workers=1)
        rec = res.records
        num = [c for c in rec.columns if rec[c].dtype.kind in "iuf"]
        return rec[num].reset_index(drop=True)

    base = records("strong")
    assert base.equals(records(f"{label}:panic=0"))
    assert not base.equals(records(label))


def test_the_expert_lays_its_richest_extra_meld_first():
    """The critique's worst lays of the tuned expert before ``rich`` (seed 3): down in Hand 1
    holding 2H QH KH 2S 3S KS JK it melded 2H 2S JK (19 points) where KH KS JK lays 35. At the
    first such choice of a game (the first meld offered lays fewer points than another), rich=0
    lays the first and rich=1 the one with the most points."""
    def laid(s, x):
        row_ = np.zeros(K.TW, np.int64)
        rules = K.rules_of(s.opts)
        K.meld_row(s.st, s.current_player(), x, row_, rules)
        return int(K.M.penalty_rules(row_[K.M.M_P1], row_[K.M.M_P2], row_[K.M.M_JOKERS], rules))

    def melds(s):
        return [int(a) for a in s.acts if int(a) & 15 == K.A_MELD]

    def poorer_first(s, p):
        st = s.st
        if st[K.PHASE] != K.P_ACT or not st[K.DOWN + p] or len(melds(s)) < 2:
            return False
        return laid(s, melds(s)[0]) < max(laid(s, x) for x in melds(s))
    s = replay_until(3, 8, ["strong:rich=0"] * 4, poorer_first)
    gp = np.zeros(2, np.uint64)
    rich = TS.action_code(s.strategy_action(*row("strong:rich=1"), gp))
    first = TS.action_code(s.strategy_action(*row("strong:rich=0"), gp))
    assert first == melds(s)[0]
    assert laid(s, rich) == max(laid(s, x) for x in melds(s)) > laid(s, first)
