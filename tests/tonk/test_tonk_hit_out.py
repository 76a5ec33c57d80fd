"""Issue 12: under ``tonk_out_requires_new_spread`` going out by hits alone pays S and has
its own end reason ``hit_out`` (tonk.md §6.1, §7); with a new spread that turn, or without
the option, emptying the hand without a discard stays ``tonk_out`` (2S each).

Stacked positions as in ``test_tonk_rules`` (A = dealer = seat 0, B = seat 1, C = seat 2).
"""
import numpy as np
import pytest

from cardsim.kernels import tonk as K
from test_tonk_rules import A, B, C, DRAW, discard, hit, lay, opts_for, payouts, play, position


def record_reason(st):
    """The end reason as the batch record writes it (name of the record's code)."""
    row = np.zeros(K.RECORD_COLS, np.int32)
    K.write_record(st, row)
    return K.REASON_NAMES[row[K.R_COL_REASON]], row


def example4(rule):
    """tonk.md §12.4: table ♥5-6-7 (A) and Q♠Q♥Q♦ (C); B holds ♥4 ♥9, draws ♥8 and hits
    8, 9 on the high end and 4 on the low end: hand empty, no new spread."""
    opts = opts_for(3, tonk_out_requires_new_spread=rule)
    st = position(opts, {A: "2D 3D", B: "4H 9H", C: "KC"},
                  runs={A: "5H 6H 7H"}, books={C: "QS QH QD"}, cur=B, stock="8H")
    play(st, opts, DRAW, hit("8H", A), hit("9H", A), hit("4H", A))
    return st


def test_hits_only_under_the_option_is_hit_out():
    st = example4(True)
    reason, row = record_reason(st)
    assert reason == "hit_out"
    assert payouts(st) == [-1, 2, -1]                      # S from each other player
    assert st[K.WINNER] == B and row[K.R_COL_WINNER] == B
    assert row[K.R_COL_LEFT + B] == 0 and row[K.R_COL_COUNT + B] == 0


def test_hits_only_without_the_option_stays_tonk_out():
    st = example4(False)
    assert record_reason(st)[0] == "tonk_out"
    assert payouts(st) == [-2, 4, -2]


@pytest.mark.parametrize("rule", [False, True])
def test_new_spread_then_hits_out_is_tonk_out(rule):
    """A new spread earlier in the going-out turn makes it a tonk out (2S) either way."""
    opts = opts_for(3, tonk_out_requires_new_spread=rule)
    st = position(opts, {A: "3D 4D", B: "4C 5C 6C 9H 10H", C: "KC"},
                  runs={A: "5H 6H 7H 8H"}, books={C: "2H 2D 2C"}, cur=B, stock="2S")
    play(st, opts, DRAW, lay("4C 5C 6C"), hit("9H", A), hit("10H", A), hit("2S", C, on_run=False))
    assert record_reason(st)[0] == "tonk_out"
    assert payouts(st) == [-2, 4, -2]


def test_discard_out_under_the_option_stays_out():
    """Hits then a last discard: ``out`` (S each), with or without the option."""
    opts = opts_for(3, tonk_out_requires_new_spread=True)
    st = position(opts, {A: "2D 3D", B: "4H 9H", C: "7S JD"}, runs={A: "9S 10S JS"},
                  cur=C, stock="8S")
    play(st, opts, DRAW, hit("8S", A), hit("7S", A), discard("JD"))
    assert record_reason(st)[0] == "out"
    assert payouts(st) == [-1, -1, 2]
