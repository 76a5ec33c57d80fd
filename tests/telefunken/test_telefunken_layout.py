"""Telefunken's declared layouts (issue 42): its options, state, table meld rows, planner row, view,
record columns, search row and critique snapshots are declared with ``kernels.layout.offsets``
(``kernels/telefunken/layout.py``). The names unpacked on the left of each declaration are its
rows' names in order, the offsets are the ones the records were written with, and the action codec
(``kernels/telefunken/actions.py``) round-trips."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_layouts import declarations

from cardsim.kernels import melds as M
from cardsim.kernels import telefunken as K
from cardsim.kernels.telefunken import layout as TL

ROOT = Path(__file__).resolve().parent.parent.parent
LAYOUT = ROOT / "kernels" / "telefunken" / "layout.py"


def test_every_declaration_unpacks_its_rows_in_order():
    decls = declarations(LAYOUT)
    assert len(decls) == 10     # options, state, table rows, planner row, fuzz row, view, hand block, record, search,
    #                             snapshot
    for line, left, rows in decls:
        assert left[:-1] == rows, f"layout.py:{line}: the names on the left differ from the rows"
        assert left[-1] not in rows, f"layout.py:{line}: the size's name is a row's name"


# The numbers the records, the replay files, the critique's snapshots and the plug-ins were written
# with (before issue 42 they were numbered by hand): any change here changes the records.
OPTIONS = dict(O_PLAYERS=0, O_CHIPS=1, O_LEFTOVER_POINTS=2, O_CUT_MODEL=3, O_CUT_AIM=4, O_CUT_SPREAD=5, O_CUT_MIN=6,
               O_CUT_MAX=7, O_CUT_JOKERS=8, O_EXACT_BONUS=9, O_EXACT_POINTS=10, O_EXACT_TARGET=11, O_FREE_UPCARD=12,
               O_UPCARD_BUYABLE=13, O_JOKER_PRIOR=14, O_OWN_NEW=15, O_BUY_AFTER_DOWN=16, O_DISCARDER_BUYS=17,
               O_EXHAUSTION=18, O_JOKER_NOW=19, O_FINAL_DISCARD=20, O_H7_AT_ONCE=21, O_BUY_PENALTY=22,
               O_MAX_TURNS=23, O_OWN_JOKER_OPS=24, O_EXCHANGE_MODEL=25, O_EXTRA_MELDS=26, O_EXTRA_RUNS=27,
               O_FIRST_DEALER=28, O_HANDS=29, O_CARDS=30, O_DEALER_OPENS=31, O_WILD_TWOS=32, O_TAKE_DISCARD=33,
               O_IN_TURN_CHIP=34, O_RUN_TAKE=35, O_CHOOSE=36, O_SPARE=37, O_EXCHANGE=40, O_NO_BUY=49, O_RULES=58,
               O_CONTRACTS=98, O_SIZE=354)
STATE = dict(N=0, HNO=1, DEALER=2, CUR=3, PHASE=4, TURN=5, DISCARD=6, DISCARDER=7, ASK=8, NEXTP=9, TABLE_ACTS=10,
             JOKER_DUE=11, OUT=12, HREASON=13, TRUNC=14, RESHUF=15, NMELDS=16, STOCK_LO=17, STOCK_HI=18,
             PILE_LEN=19, POOL_LEN=20, EX_ROUND=21, ERR=22, TR_LEN=23, FIRST_DEALER=24, CUT_B=25, CUT_KEPT=26,
             CUT_EXACT=27, GAME_TURNS=28, GAME_RESHUF=29, UPCARD=30, EX_SEAT=31, WIN_SKIP=32, CONTRACT=33, USED=34,
             WILD2=35, UP_OFFER=36, TAKEN=37, CAPPED=38, ST_SPARE1=39, H1=40, H2=45, HJ=50, DOWN=55, DOWN_TURN=60,
             CHIPS=65, TOTAL=70, BUYS=75, PEN=80, EXK=85, GBUYS=90, HT=95, LASTPEN=100, CUT_AIMED=105,
             CUT_KEEPS=106, KEEP_SET=107, ST_SPARE2=108, STOCK=110, PILE=218, POOL=326, KN=434, ST_SIZE=699)
TABLE = dict(T_MELD_FIELDS=0, T_TWOS=9, T_SPARE=10, T_OWNER=12, T_TURN=13, T_CONTRACT=14, TW=15)
PLANNER = dict(Q_RESERVE=0, Q_NEAR=1, Q_PER_HAND=2, Q_DOWN_LEFT=3, Q_DOWN_TURN=4, Q_EXCHANGE=5, Q_KEEP_JOKERS=6,
               Q_CUT_AIM=7, Q_DENY=8, Q_STALL=9, Q_ALT=10, Q_H7_GROWTH=11, Q_DUMP_AT=12, Q_DUMP_NEED=13,
               Q_WILD_ROOM=14, Q_RICH=15, Q_SIZE=16)
VIEW = dict(V_SEAT=0, V_KIND=1, V_HNO=2, V_HANDS=3, V_DEALER=4, V_PLAYERS=5, V_TURN=6, V_CONTRACT=7, V_AT_ONCE=8,
            V_C_GROUPS=9, V_C_GROUP_SIZE=10, V_C_PURE=11, V_C_RUNS=12, V_C_RUN_MIN=13, V_C_NEXT=14, V_H1=15,
            V_H2=16, V_JOKERS=17, V_TWOS=18, V_WILD_TWOS=19, V_OFFER=20, V_DISCARDER=21, V_TOP=22, V_PILE_LEN=23,
            V_PILE1=24, V_PILE2=25, V_PILE_JOKERS=26, V_STOCK=27, V_TABLE_ACTS=28, V_JOKER_DUE=29, V_TAKEN=30,
            V_UP_OFFER=31, V_RESHUF=32, V_EX_ROUND=33, V_USED=34, V_CUT_KEPT=35, V_CUT_EXACT=36, V_RULE_CUT_AIM=37,
            V_RULE_CUT_SPREAD=38, V_NMELDS=39, V_HELD=40, V_DOWN=45, V_DOWN_TURN=50, V_CHIPS=55, V_TOTAL=60,
            V_BUYS=65, V_EXK=70, V_GBUYS=75, V_TABLE=80, VIEW_SIZE=680)
HAND_BLOCK = dict(HB_OUT=0, HB_REASON=1, HB_TURNS=2, HB_RESHUF=3, HB_CUT=4, HB_KEPT=5, HB_EXACT=6, HB_PEN=7,
                  HB_CHIPS=12, HB_BUYS=17, HB_CONTRACT=22, HB_SIZE=23)
RECORD = dict(RC_DEALER=0, RC_WINNER=1, RC_WINNERS=2, RC_REASON=3, RC_TRUNC=4, RC_ERR=5, RC_TURNS=6, RC_RESHUF=7,
              RC_TOTAL=8, RC_CHIPS=13, RC_BUYS=18, RC_HANDS=23, RC_CHOSEN=24, RC_CAPPED=25, RC_HAND=26,
              RECORD_COLS=210)
SEARCH = dict(X_SP=0, X_KINDS=4, X_CHIP=5, X_MARGIN=6, X_HANDS=7, X_END=8)
SNAPSHOT = dict(SNAP_ST=0, SNAP_TAB=699, SNAP_CUT=1299, SNAP_INSPECT=1300, SNAP_SIZE=1303)
FUZZ = dict(F_GREEDY=0, F_BUY=1, F_HOLD=2, F_SIZE=3)
TABLES = [OPTIONS, STATE, TABLE, PLANNER, FUZZ, VIEW, HAND_BLOCK, RECORD, SEARCH, SNAPSHOT]
IDS = ["options", "state", "table", "planner", "fuzz", "view", "hand_block", "record", "search", "snapshot"]


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_the_offsets_are_the_records(table):
    got = {name: getattr(TL, name) for name in table}
    assert got == table
    assert all(type(v) is int for v in got.values())          # plain ints: numba's compile-time constants
    declared = {tuple(left) for _, left, _ in declarations(LAYOUT)}
    assert tuple(table) in declared                           # the whole declaration, in order


def test_the_package_reexports_the_layouts_numbers():
    shared = [name for table in TABLES for name in table]
    assert all(getattr(K, name) == getattr(TL, name) for name in shared)
    assert K.N_PARAMS == K.SP_PRM + K.Q_SIZE and K.X_END <= K.SP_PRM and M.M_SIZE <= K.T_TWOS


def test_the_action_codec_round_trips():
    for kind in range(16):
        for fields in ((0, 0, 0, 0, 0), (1, 2, 3, 4, 5), (255, 0, 255, 0, 255), (52, 39, 25, 25, K.RUN_FILL)):
            a = K.act(kind, *fields)
            assert a == kind | fields[0] << 8 | fields[1] << 16 | fields[2] << 24 | fields[3] << 32 | fields[4] << 40
            assert K.action_kind(a) == kind                   # the records' encoding
            assert tuple(K.field(a, i) for i in range(1, 6)) == fields
            assert K.action_card(a) == fields[0]
    assert K.action_kind(K.A_DRAW) == K.A_DRAW                # the kinds without a field are their code


def test_the_meld_code_round_trips():
    r = [0] * K.TW
    r[M.M_KIND], r[M.M_KEY], r[M.M_LO], r[M.M_HI], r[M.M_JOKERS], r[M.M_FLAGS], r[K.T_TWOS] = 2, 3, 4, 25, 2, 5, 0b1001
    code = K.meld_code(17, np.array(r, dtype=np.int64))
    assert code == 17 | 2 << 6 | 3 << 8 | 4 << 12 | 25 << 17 | 2 << 22 | 5 << 27 | 0b1001 << 32
    assert tuple(K.meld_code_fields(code)) == (17, 2, 3, 4, 25, 2, 5, 0b1001)
