"""Tripoli's declared layouts (issue 42): the options, the state, the strategies' parameter row,
the plug-in's view and the record columns are declared with ``kernels.layout.offsets`` in
``kernels/tripoli/layout.py``. The names unpacked on the left of each declaration must be its
rows' names in order, the offsets must stay the ones the records were written with, and the
action codec (``kernels/tripoli/actions.py``) must round-trip the records' encoding."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_layouts import declarations

from cardsim.kernels import tripoli as K
from cardsim.kernels.search import SP_PRM
from cardsim.kernels.tripoli import layout as TL

ROOT = Path(__file__).resolve().parent.parent.parent
LAYOUT = ROOT / "kernels" / "tripoli" / "layout.py"

# The numbers the records, the replay files and the plug-ins were written with (before issue 42
# they were numbered by hand): any change here changes the records. ST_SPARE is the gap the
# hand-numbered state left before HAND; N_PR the length of the parameter row (N_PARAMS - SP_PRM).
OPTIONS = dict(O_PLAYERS=0, O_ANTE=1, O_WIDOW=2, O_WIDOW_LAST=3, O_MIN_BID=4, O_MAX_BID=5, O_BID_GUARDED=6,
               O_TIMING=7, O_SEQ_SPLIT=8, O_PAY_SUIT=9, O_SEQ_START=10, O_SUIT_AUCTION=11, O_FIRST_BETTOR=12,
               O_LIMIT=13, O_LIMIT_MODE=14, O_MAX_RAISES=15, O_RAISES_GUARDED=16, O_LEADER=17, O_FIRST_LOWEST=18,
               O_COLOR=19, O_COSMO=20, O_DEALS=21, O_CLEARING=22, O_FIRST_DEALER=23, O_MAX_STEPS=24, O_SIZE=25)
STATE = dict(N=0, DEALER=1, PHASE=2, CUR=3, SESSION=4, DEAL_NO=5, PAY_SUIT=6, SEQ=7, TRUNC=8, ERR=9, TR_LEN=10,
             STEPS=11, REASON=12, MWIN=13, WIDOW=14, W_SEEN=15, W_ACT=16, W_BUYER=17, W_PRICE=18, AU_KIND=19,
             HIGH=20, HIGH_BY=21, ACTIVE=22, SUIT_BY=23, SUIT_PRICE=24, FOLDED=25, CUR_BET=26, RAISES=27, ACTED=28,
             POT_WIN=29, POT=30, POKER_END=31, BET_CTX=32, BET_DEALER=33, PLAYED=34, BANNED=35, COLOR=36, LEADER=37,
             FIRST_LEAD=38, LAST_P=39, LAST_C=40, RUN_LEN=41, RUN_START=42, LEADS=43, CL_POT=44, CL_LEFT=45,
             CL_INDEX=46, CL_TOTAL=47, TOTAL0=48, DEAL_ID=49, SEED=50, PICKED_N=51, SEL_LEFT=52, LAST_DEAL=53,
             CL_FIRST=54, CL_RESERVE=55, P2_RAISES=56, P2_FOLDED=57, OLD_HAND=58, ST_SPARE=59, HAND=64, PICK=73,
             CONTRIB=82, CHIPS=91, HCAT=100, BOARD=109, BOARD0=118, PH=127, CLH=181, CLS=190, NOTH=199, BETS=208,
             CALL_PRICE=217, FOLD_PRICE=226, ST_SIZE=235)
PARAMS = dict(PR_SWAP_BELOW=0, PR_PAY_WEIGHT=1, PR_AUCTION_WIDOW=2, PR_SELL_OLD=3, PR_BID_MAX=4, PR_SUIT_BID_MAX=5,
              PR_BET_AT=6, PR_RAISE_AT=7, PR_CALL_AT=8, PR_BET_SIZE=9, PR_RUN_WEIGHT=10, PR_STOP_BONUS=11,
              PR_BID_OLD_MAX=12, PR_BLUFF=13, PR_BLUFF_SIZE=14, PR_SIZE_SHIFT=15, PR_OPP_SHIFT=16, PR_ODDS_WEIGHT=17,
              PR_HIDE_MARGIN=18, PR_POS_SHIFT=19, PR_VALUE_EQ=20, PR_RAISE_EQ=21, PR_CALL_MARGIN=22, PR_BET_FRAC=23,
              PR_RAISE_RANGE=24, PR_CALL_RANGE=25, PR_WIDOW_STOPS=26, PR_LEAD_PLAN=27, PR_LEAD_CHANCE=28,
              PR_KEEP_ENTRY=29, PR_OWN_LOW=30, PR_FEED_SHOWN=31, N_PR=32)
VIEW = dict(V_SEAT=0, V_KIND=1, V_PHASE=2, V_PLAYERS=3, V_DEALER=4, V_DEAL_NO=5, V_DEALS=6, V_HAND=7, V_PICK=8,
            V_BET_HAND=9, V_BET_CLASS=10, V_WIDOW=11, V_OLD_HAND=12, V_W_ACT=13, V_W_BUYER=14, V_W_PRICE=15,
            V_AUCTION=16, V_HIGH=17, V_HIGH_BY=18, V_ACTIVE=19, V_PAY_SUIT=20, V_SEQ=21, V_SUIT_BY=22,
            V_SUIT_PRICE=23, V_CUR_BET=24, V_OWE=25, V_RAISES=26, V_POT=27, V_FOLDED=28, V_ACTED=29, V_MAX_AMOUNT=30,
            V_MAX_RAISES=31, V_PLAYED=32, V_BANNED=33, V_COLOR=34, V_FIRST_LEAD=35, V_LEADS=36, V_POT_WIN=37,
            V_TIMING=38, V_CLEARING=39, V_BOARD=40, V_HELD=49, V_CHIPS=58, V_CONTRIB=67, V_SHOWN=76, VIEW_SIZE=85)
SEAT = dict(SC_PAY=0, SC_WIDOW=1, SC_PH1=2, SC_POKER=3, SC_MICH=4, SC_CLEAR=5, SC_HAND=6, SC_LEFT=7, SEAT_COLS=8)
RECORD = dict(RC_SESSION=0, RC_DEAL_NO=1, RC_DEALER=2, RC_REASON=3, RC_WINNER=4, RC_MWIN=5, RC_LEADS=6, RC_TRUNC=7,
              RC_ERR=8, RC_WIDOW=9, RC_W_BUYER=10, RC_W_PRICE=11, RC_PAY_SUIT=12, RC_SEQ=13, RC_SUIT_BY=14,
              RC_SUIT_PRICE=15, RC_POT=16, RC_POT_WIN=17, RC_POKER_END=18, RC_RAISES=19, RC_FOLDED=20,
              RC_CLEAR_PRIZE=21, RC_BOARD=22, RC_SEAT=31, RECORD_COLS=103)
TABLES = [OPTIONS, STATE, PARAMS, VIEW, SEAT, RECORD]
IDS = ["options", "state", "params", "view", "seat", "record"]


def test_every_declaration_unpacks_its_rows_in_order():
    decls = declarations(LAYOUT)
    assert len(decls) == len(TABLES)             # options, state, parameters, view, seat and record columns
    for line, left, rows in decls:
        assert left[:-1] == rows, f"layout.py:{line}: the names on the left differ from the rows"
        assert left[-1] not in rows, f"layout.py:{line}: the size's name is a row's name"


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_the_offsets_are_the_records(table):
    got = {name: getattr(TL, name) for name in table}
    assert got == table
    assert all(type(v) is int for v in got.values())          # plain ints: numba's compile-time constants
    declared = {tuple(left) for _, left, _ in declarations(LAYOUT)}
    assert tuple(table) in declared                           # the whole declaration, in order


def test_the_package_reexports_the_layouts_numbers():
    names = [name for table in TABLES for name in table]
    assert all(getattr(K, name) == getattr(TL, name) for name in names)
    assert K.N_PARAMS == SP_PRM + K.N_PR
    assert K.RECORD_COLS == K.RC_SEAT + K.SEAT_COLS * K.MAX_PLAYERS


def test_the_action_codec_round_trips():
    plain = (K.A_KEEP, K.A_SWAP, K.A_AUCTION_WIDOW, K.A_DONE, K.A_AUCTION_OLD, K.A_PASS, K.A_CHECK, K.A_CALL,
             K.A_FOLD)
    for kind in plain:
        assert (K.action_kind(kind), K.action_arg(kind)) == (kind, 0)
        assert K.make_action(kind, 0) == kind
    payload = {K.A_BID: range(1, 1001), K.A_BET: range(1, 61), K.A_RAISE: range(1, 61), K.A_PICK: range(52),
               K.A_SUIT: range(4), K.A_LEAD: range(4)}
    for kind, xs in payload.items():
        for x in xs:
            a = K.make_action(kind, x)
            assert a == kind | x << 8                                  # the records' encoding
            assert (K.action_kind(a), K.action_arg(a)) == (kind, x)
    # the kernels' own actions decode to their kind and payload
    acts = np.array([K.make_action(K.A_RAISE, 7), K.A_FOLD], np.int64)
    assert [K.action_kind(a) for a in acts] == [K.A_RAISE, K.A_FOLD]
    assert [K.action_arg(a) for a in acts] == [7, 0]


def test_the_plugin_module_uses_the_codec():
    import cardsim.tripoli as T
    assert T.kind is K.action_kind
    assert T.amount is T.card is T.suit is K.action_arg
