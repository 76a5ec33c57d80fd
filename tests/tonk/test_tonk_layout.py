"""Tonk's declared layouts hold the numbers its records were written with (before issue 42 they
were numbered by hand), the package re-exports them, and the action codec round-trips."""
from __future__ import annotations

import pytest

from cardsim.kernels import tonk as K
from cardsim.kernels.tonk import layout as TL
from test_layouts import ROOT, declarations

TONK_LAYOUT = ROOT / "kernels" / "tonk" / "layout.py"


# The numbers the records, the replay files and the plug-ins were written with (before issue 42
# they were numbered by hand): any change here changes the records.
OPTIONS = dict(O_PLAYERS=0, O_INITIAL_UPCARD=1, O_DT49=2, O_DT50=3, O_TIE_SAME_DEALER=4, O_HIT_OWN_ONLY=5,
               O_REDISCARD=6, O_TONK_NEW_SPREAD=7, O_CAUGHT_BONUS=8, O_CAUGHT_PAYS_BASE=9, O_DRY_TIE=10,
               O_DRY_CAP=11, O_MUST_SPREAD=12, O_ACES_EXC=13, O_HIT_BLOCKS=14, O_MAX_HITS=15, O_PICKUP_USE=16,
               O_FIRST_DEALER=17, O_STAKE=18, O_MAX_TURNS=19, O_SIZE=20)
STATE = dict(N=0, DEALER=1, CUR=2, PHASE=3, TURNS=4, STOCK_PTR=5, PILE_LEN=6, TAKEN=7, NEW_SPREAD=8, HITS=9,
             DRY_TURNS=10, REASON=11, KNOCKER=12, WINNER=13, TRUNC=14, REDEALS=15, BLOCKED=16, ERR=17, TR_LEN=18,
             PILE_MASK=19, HAND=20, BOOK=24, RUN=28, PAY=32, COUNT=36, DECK=40, PILE=92, KNOWN=144, ST_SIZE=148)
VIEW = dict(V_SEAT=0, V_KIND=1, V_HAND=2, V_TOP=3, V_PILE=4, V_PILE_LEN=5, V_STOCK=6, V_TURNS=7, V_TAKEN=8,
            V_NEW_SPREAD=9, V_HITS=10, V_DRY_TURNS=11, V_BLOCKED=12, V_PLAYERS=13, V_DEALER=14, V_SPARE=15,
            V_HELD=16, V_BOOKS=20, V_RUNS=24, VIEW_SIZE=28)
RECORD = dict(R_COL_DEALER=0, R_COL_REASON=1, R_COL_WINNER=2, R_COL_KNOCKER=3, R_COL_TURNS=4, R_COL_STOCK=5,
              R_COL_REDEALS=6, R_COL_TRUNC=7, R_COL_ERR=8, R_COL_PAY=9, R_COL_COUNT=13, R_COL_LEFT=17,
              RECORD_COLS=21)


PARAMS = dict(P_THRESHOLD=0, P_DECAY=1, P_WARY_CARDS=2, P_DRY_END=3, P_TAKE_LOW=4, P_HOLD_SPREADS=5,
              P_HOLD_MIN_STOCK=6, P_KNOCK_ODDS=7, P_PAIR_KEEP=8, P_NEAR_KEEP=9, P_FEED=10, P_SIZE=11)
FUZZ = dict(F_KNOCK=0, F_TAKE=1, F_END_DRY=2, F_MELD=3, F_SIZE=4)
TABLES = [OPTIONS, STATE, VIEW, RECORD, PARAMS, FUZZ]


def test_every_table_is_declared():
    assert len(declarations(TONK_LAYOUT)) == len(TABLES)


@pytest.mark.parametrize("table", TABLES, ids=["options", "state", "view", "record", "params", "fuzz"])
def test_the_offsets_are_the_records(table):
    got = {name: getattr(TL, name) for name in table}
    assert got == table
    assert all(type(v) is int for v in got.values())          # plain ints: numba's compile-time constants
    declared = {tuple(left) for _, left, _ in declarations(TONK_LAYOUT)}
    assert tuple(table) in declared                           # the whole declaration, in order


def test_the_package_reexports_the_layouts_numbers():
    shared = [name for table in TABLES for name in table if hasattr(K, name)]
    assert len(shared) > 60                                   # what the Python side reads as K.<name>
    assert all(getattr(K, name) == getattr(TL, name) for name in shared)


def test_the_action_codec_round_trips():
    assert K.action_kind(K.lay_action(0b111 << 13)) == K.A_LAY
    assert K.action_cards(K.lay_action(0b111 << 13)) == 0b111 << 13
    for card in (0, 17, 51):
        for owner in range(K.MAX_PLAYERS):
            for on_run in (0, 1):
                a = K.hit_action(card, owner, on_run)
                assert (K.action_kind(a), K.action_card(a), K.action_owner(a), K.action_on_run(a)) == \
                    (K.A_HIT, card, owner, on_run)
                assert a == K.A_HIT | card << 8 | owner << 16 | on_run << 20      # the records' encoding
        d = K.discard_action(card)
        assert (K.action_kind(d), K.action_card(d), d) == (K.A_DISCARD, card, K.A_DISCARD | card << 8)
