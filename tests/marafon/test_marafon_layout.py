"""Marafon's declared layouts (issue 42): every ``offsets`` declaration of ``kernels/marafon/layout.py``
unpacks its rows' names in order, the offsets are the ones the records were written with, and the
action codec (``kernels/marafon/actions.py``) round-trips."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_layouts import declarations

from cardsim.kernels import marafon as K
from cardsim.kernels.marafon import layout as ML

LAYOUT = Path(__file__).resolve().parents[2] / "kernels" / "marafon" / "layout.py"

# The numbers the records, the replay files and the plug-ins were written with (before issue 42
# they were numbered by hand; RC_SPARE names the column 15 that was never written): any change
# here changes the records.
OPTIONS = dict(O_TRUMP_ONLY=0, O_DECLARER=1, O_AUTO_DECLARE=2, O_MARAF_POINTS=3, O_FIRST_DEALER=4, O_SECOND_DEALER=5,
               O_BOTH_REACH=6, O_TARGET=7, O_CLAIM_TIMING=8, O_CLAIMS=9, O_GAMES=10, O_MAX_HANDS=11,
               O_SIZE=12)
VIEW = dict(V_SEAT=0, V_KIND=1, V_SIDE=2, V_HAND=3, V_TRUMP=4, V_BATT=5, V_DEALER=6, V_LEADER=7, V_TRICK_NO=8,
            V_NCARDS=9, V_LED=10, V_TRICK=11, V_PLAYED=15, V_WON=16, V_THIRDS=18, V_TRICKS_WON=20,
            V_MARAF=22, V_SCORE=24, V_GAMES=26, V_COUNT=28, V_TARGET=30, V_MARAF_POINTS=31, V_HAND_NO=32,
            V_GAME_NO=33, V_EXTRA=34, V_DECLARABLE=35, V_DECLARED=36, V_HELD=40, V_LAST_WINNER=44,
            V_TRUMP_ONLY=45, VIEW_SIZE=46)
STATE = dict(N=0, GAME_NO=1, HAND_NO=2, MATCH_HANDS=3, DEALER=4, FIRST_DEALER=5, EXTRA=6, OVER=7, WIN_SIDE=8,
             REASON=9, TRUNC=10, ERR=11, TR_LEN=12, SCORE=13, GAMES=15, TRICKS_PLAYED=17, CLAIMS=18,
             EXTRA_HANDS=19, BATT=20, TRUMP=21, HOLDER4D=22, MHOLDER=23, LEADER=24, TRICK_NO=25,
             NCARDS=26, LED=27, PLAYED=28, THIRDS=29, TRICKS_WON=31, LAST_WINNER=33, MARAF=34, ASKED=36,
             HAND_END=37, PTS=38, HAND=40, WON=44, TRICK=46, DECK=50, DECL=90, PVIEW=94, PLEGAL=140,
             PLUGGED=180, VOID=181, PLAYED_BY=185, ST_SIZE=189)
HAND_BLOCK = dict(HB_GAME=0, HB_BATT=1, HB_TRUMP=2, HB_PTS=3, HB_THIRDS=5, HB_MARAF=7, HB_HOLDER=9, HB_END=10,
                  HB_EXTRA=11, HB_SIZE=12)
RECORD = dict(RC_DEALER=0, RC_REASON=1, RC_WINNER=2, RC_WIN_SIDE=3, RC_TRUNC=4, RC_ERR=5, RC_TRICKS=6, RC_HANDS=7,
              RC_GAMES=8, RC_GAMES_WON=9, RC_SCORE=11, RC_CLAIMS=13, RC_EXTRA=14, RC_SPARE=15,
              RC_HAND=16, RECORD_COLS=208)
# the parameter rows: the slots the kernels read by number before (random's prm[0] and prm[1];
# heuristic's prm[0] .. prm[3], the expert's X_* after them)
FUZZ = dict(F_CLAIM_PROB=0, F_CLAIM_DUE=1, F_SIZE=2)
PARAMS = dict(H_MARGIN=0, H_NOISE=1, H_HONOUR_MIN=2, H_MARAF_WEIGHT=3, X_DRAW=4, X_RISK=5, X_BANK=6, X_CLINCH=7,
              X_PLAIN=8, X_DRAW_LOW=9, X_HONOUR_COUNT=10, X_DUCK=11, X_TOP=12, X_FIGURE=13, P_SIZE=14)
TABLES = {"options": OPTIONS, "view": VIEW, "state": STATE, "hand_block": HAND_BLOCK, "record": RECORD,
          "fuzz": FUZZ, "params": PARAMS}


def test_every_declaration_unpacks_its_rows_in_order():
    decls = declarations(LAYOUT)
    assert len(decls) == len(TABLES)
    for line, left, rows in decls:
        assert left[:-1] == rows, f"layout.py:{line}: the names on the left differ from the rows"
        assert left[-1] not in rows, f"layout.py:{line}: the size's name is a row's name"


@pytest.mark.parametrize("table", list(TABLES.values()), ids=list(TABLES))
def test_the_offsets_are_the_records(table):
    got = {name: getattr(ML, name) for name in table}
    assert got == table
    assert all(type(v) is int for v in got.values())          # plain ints: numba's compile-time constants
    declared = {tuple(left) for _, left, _ in declarations(LAYOUT)}
    assert tuple(table) in declared                           # the whole declaration, in order


def test_the_layouts_fit_each_other():
    assert ML.PLEGAL - ML.PVIEW == ML.VIEW_SIZE                # the plug-in's view lives in the state
    assert ML.RECORD_COLS == ML.RC_HAND + ML.HAND_SLOTS * ML.HB_SIZE
    assert ML.N_PARAMS == K.SP_PRM + 14 == K.SP_PRM + ML.P_SIZE


def test_every_parameter_names_its_slot():
    """Every built-in's parameters name their kernel slots, and so do the search's game-specific
    ones (EX_*, in the search row; its first four are ``kernels.search``'s, made by ``sim.spec``)."""
    from cardsim.sim.games.marafon import GAME
    for strat in GAME.strategies.values():
        for i, p in enumerate(strat.params):
            if strat.kernel_row is not None and i < K.SP_EXTRA:
                continue
            assert p.slot, f"{strat.name}: {p.name} names no slot"
            assert getattr(K, p.slot) == i, f"{strat.name}: {p.name} is at {i}, {p.slot} = {getattr(K, p.slot)}"


def test_the_package_reexports_the_layouts_numbers():
    for table in TABLES.values():
        assert all(getattr(K, name) == value for name, value in table.items())


def test_the_action_codec_round_trips():
    kinds = {K.K_TRUMP: range(4), K.K_DECLARE: (0, 1), K.K_CLAIM: (0, 1), K.K_CARD: range(40)}
    ids = set()
    for kind, values in kinds.items():
        for v in values:
            code = K.act_code(kind, v)
            assert code == kind << K.ACT_SHIFT | v                 # the critique rows' encoding
            assert (K.decision_kind(code), K.act_value(code)) == (kind, v)
            i = K.dense_id(kind, v)
            assert 0 <= i < K.N_ACTIONS and K.dense_value(i) == v
            ids.add(i)
    assert ids == set(range(K.N_ACTIONS))                      # every dense id is some decision's action
    # the step API's ids: 0..39 the cards, 40..43 the suits, 44 no, 45 declare, 46 claim
    assert [K.dense_id(K.K_CARD, 17), K.dense_id(K.K_TRUMP, 2), K.dense_id(K.K_DECLARE, 0),
            K.dense_id(K.K_CLAIM, 0), K.dense_id(K.K_DECLARE, 1), K.dense_id(K.K_CLAIM, 1)] == [17, 42, 44, 44, 45, 46]
    assert (K.A_TRUMP, K.A_NO, K.A_DECLARE, K.A_CLAIM, K.N_ACTIONS) == (40, 44, 45, 46, 47)
