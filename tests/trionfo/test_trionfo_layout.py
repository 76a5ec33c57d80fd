"""Trionfo's declared layouts (issue 42): the options, the plug-in's view, the state, the strategies'
parameter rows, the record columns (a session's, then one block per hand) and the step API's action
ids are declared with
``kernels.layout.offsets`` in ``kernels/trionfo/layout.py``. The names unpacked on the left of each
declaration must be its rows' names in order, the offsets the ones the records, the replay files and
the plug-ins were written with, and the action codec must round-trip."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_layouts import declarations

from cardsim.kernels import trionfo as K
from cardsim.kernels.trionfo import layout as TL

ROOT = Path(__file__).resolve().parent.parent.parent
LAYOUT = ROOT / "kernels" / "trionfo" / "layout.py"


def test_every_declaration_unpacks_its_rows_in_order():
    decls = declarations(LAYOUT)
    assert len(decls) == 9       # options, view, state, 3 parameter rows, hand block, record, step ids
    for line, left, rows in decls:
        assert left[:-1] == rows, f"layout.py:{line}: the names on the left differ from the rows"
        assert left[-1] not in rows, f"layout.py:{line}: the size's name is a row's name"


# The numbers the records, the replay files and the plug-ins were written with (before issue 42
# they were numbered by hand): any change here changes the records.
OPTIONS = dict(O_PARTNER_LEVELS=0, O_STAKE=1, O_PARTNER_METHOD=5, O_SELF_CALL=6, O_AUCTION=7, O_FIRST_LEADER=8,
               O_REDEAL_DEALER=9, O_WIN_POINTS=10, O_PAYOUT=11, O_HANDS=12, O_FIRST_DEALER=13, O_SIZE=14)
VIEW = dict(V_SEAT=0, V_KIND=1, V_HAND=2, V_DEALER=3, V_FIRST_SPEAKER=4, V_HIGH_LEVEL=5, V_HIGH_BIDDER=6,
            V_FIRST_BIDDER=7, V_PASSED=8, V_BID=9, V_DECLARER=14, V_TRUMP=15, V_CALLED=16, V_PARTNER=17,
            V_REVEALED=18, V_LEADER=19, V_TRICK_NO=20, V_NCARDS=21, V_LED=22, V_TRICK=23, V_PLAYED=28, V_THIRDS=29,
            V_MONEY=34, V_HELD=39, V_HAND_IDX=44, V_HANDS=45, V_REDEALS=46, V_PARTNER_LEVELS=47, V_STAKE=48,
            V_PARTNER_METHOD=52, V_SELF_CALL=53, V_AUCTION=54, V_WIN_POINTS=55, V_LAST_WINNER=56, VIEW_SIZE=57)
STATE = dict(N=0, HAND_IDX=1, DEALER=2, FIRST_DEALER=3, REDEALS=4, ALL_REDEALS=5, TRUNC=6, ERR=7, TR_LEN=8,
             TRICKS_PLAYED=9, FIRST_SPEAKER=10, HIGH_LEVEL=11, HIGH_BIDDER=12, FIRST_BIDDER=13, PASSED=14,
             DECLARER=15, TRUMP=16, CALLED=17, PARTNER=18, REVEALED=19, LEADER=20, TRICK_NO=21, NCARDS=22, LED=23,
             PLAYED=24, LAST_WINNER=25, SIDE_PTS=26, WON=27, STRENGTH=28, VOID_HAND=29, HAND=30, THIRDS=35,
             MONEY=40, HMONEY=45, BID=50, TRICK=55, DECK=60, PVIEW=100, PLEGAL=157, PLUGGED=197, VOID=198,
             ST_SIZE=203)
# the strategies' parameter rows (random, greedy, heuristic and the expert): the ParamSpecs' slots
RANDOM_ROW = dict(R_PASS_BIAS=0, R_SIZE=1)
GREEDY_ROW = dict(G_SELF_CALL=0, G_SIZE=1)
EXPERT_ROW = dict(H_T1=0, H_T2=1, H_T3=2, H_T4=3, H_EXPLORE=4, H_SELF_CALL=5, X_HONOUR=6, X_DRAW=7, X_RISK=8,
                  X_BANK=9, X_CLINCH=10, X_PLAIN=11, X_READ=12, X_RUFF_MIN=13, X_DRAW_LAST=14, X_DRAW_TOP=15,
                  X_DRAW_FIRST=16, X_DEF_TRUMP=17, X_SOLO_LOW=18, X_DEF_RICH=19, X_SOLO_RUFF=20,
                  X_SOLO_KEEP=21, X_SIZE=22)
HAND_BLOCK = dict(HB_DECLARER=0, HB_LEVEL=1, HB_TRUMP=2, HB_PARTNER=3, HB_CALLED=4, HB_STRENGTH=5, HB_PTS=6,
                  HB_WON=7, HB_FIRST_BIDDER=8, HB_REDEALS=9, HB_MONEY=10, HB_SIZE=15)
RECORD = dict(RC_DEALER=0, RC_REASON=1, RC_WINNER=2, RC_TRUNC=3, RC_ERR=4, RC_TRICKS=5, RC_HANDS=6, RC_REDEALS=7,
              RC_MONEY=8, RC_HAND=13, RECORD_COLS=313)
STEP_IDS = dict(A_CARD=0, A_CALL=40, A_TRUMP=80, A_BID=84, A_NAME=89, N_ACTIONS=94)   # the step API's ids
TABLES = [OPTIONS, VIEW, STATE, RANDOM_ROW, GREEDY_ROW, EXPERT_ROW, HAND_BLOCK, RECORD, STEP_IDS]


@pytest.mark.parametrize("table", TABLES, ids=["options", "view", "state", "random_row", "greedy_row", "expert_row",
                                               "hand_block", "record", "step_ids"])
def test_the_offsets_are_the_records(table):
    got = {name: getattr(TL, name) for name in table}
    assert got == table
    assert all(type(v) is int for v in got.values())          # plain ints: numba's compile-time constants
    declared = {tuple(left) for _, left, _ in declarations(LAYOUT)}
    assert tuple(table) in declared                           # the whole declaration, in order


def test_the_package_reexports_the_layouts_numbers():
    shared = [name for table in TABLES for name in table]
    assert all(getattr(K, name) == getattr(TL, name) for name in shared)
    assert K.PVIEW + K.VIEW_SIZE == K.PLEGAL and K.PLEGAL + K.MAX_ACTS == K.PLUGGED   # the scratch buffers
    assert K.RC_HAND + K.HAND_SLOTS * K.HB_SIZE == K.RECORD_COLS                        # the hand blocks fill it
    assert K.A_PASS == K.A_BID
    assert K.H_SIZE == 6 and K.N_PARAMS == K.SP_PRM + K.X_SIZE == 30                 # the heuristic's six


KINDS = {K.K_BID: range(K.LEVELS + 1), K.K_TRUMP: range(4), K.K_CALL: range(40), K.K_NAME: range(K.N_PLAYERS),
         K.K_CARD: range(40)}


def test_the_critique_action_codes_round_trip():
    for kind, values in KINDS.items():
        for v in values:
            code = int(K.act_code(kind, v))
            assert code == kind << 6 | v                           # the critique rows' encoding
            assert (int(K.action_kind(code)), int(K.action_value(code))) == (kind, v)


def test_the_step_ids_round_trip():
    seen = set()
    for kind, values in KINDS.items():
        for v in values:
            i = int(K.dense_id(kind, v))
            assert (int(K.dense_kind(i)), int(K.dense_value(i))) == (kind, v)
            seen.add(i)
    assert seen == set(range(K.N_ACTIONS))                       # every id is one action, none left over
    # the ids the step API has always used (tests/trionfo/test_openspiel_trionfo.py's games)
    assert [int(K.dense_id(K.K_CARD, 7)), int(K.dense_id(K.K_CALL, 7)), int(K.dense_id(K.K_TRUMP, 2)),
            int(K.dense_id(K.K_BID, 0)), int(K.dense_id(K.K_BID, 4)), int(K.dense_id(K.K_NAME, 3))] == \
        [7, 47, 82, 84, 88, 92]
