"""Declared layouts (issue 42) for Contract Rummy: its options, state, table rows, parameter row,
view, question log, vb, step-mode pprm row and record columns are declared with
``kernels.layout.offsets``. The names unpacked on the left of each declaration must be its rows'
names in order, the offsets must stay the ones the records were written with, and the codecs of
``kernels/contract_rummy/actions.py`` must round-trip."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_layouts import declarations

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import melds as M
from cardsim.kernels.contract_rummy import layout as L

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = ROOT / "kernels" / "contract_rummy" / "layout.py"


def test_every_declaration_unpacks_its_rows_in_order():
    decls = declarations(LAYOUT)
    assert len(decls) == 11      # options, state, table rows, parameters, search row, view, log, vb, pprm,
    #                              deal block, record
    for line, left, rows in decls:
        assert left[:-1] == rows, f"layout.py:{line}: the names on the left differ from the rows"
        assert left[-1] not in rows, f"layout.py:{line}: the size's name is a row's name"


# The numbers the records, the replay files and the plug-ins were written with (before issue 42
# they were numbered by hand): any change here changes the records.
OPTIONS = dict(O_PLAYERS=0, O_DECKS=1, O_JOKERS=2, O_PACK=3, O_MAYI_MODEL=4, O_PENALTY=5, O_MAYI_LIMIT=6,
               O_NO_CONSEC=7, O_COOLDOWN=8, O_TAKEN_DISCARD=9, O_GO_OUT_DISCARD=10, O_D7_NO_DISCARD=11, O_SWAP=12,
               O_SWAP_PRIOR=13, O_SWAP_DISCARD=14, O_VOID_DEAD=15, O_MAX_TURNS=16, O_CUT_POINTS=17, O_CUT_RECIP=18,
               O_CUT_PPB=19, O_FIRST_DEALER=20, O_DEAL7_SPECIAL=21, O_SPARE=22, O_HAND=24, O_RULES=32,
               O_CONTRACTS=80, O_SIZE=208)
STATE = dict(N=0, DEAL=1, DEALER=2, CUR=3, TURN=4, OUT=5, DREASON=6, TRUNC=7, RESHUF=8, NMELDS=9, STOCK_LO=10,
             STOCK_HI=11, PILE_LEN=12, PILE_K=13, ERR=14, TR_LEN=15, FIRST_DEALER=16, GAME_TURNS=17, GAME_RESHUF=18,
             TAKEN=19, CUT_OK=20, JOKER_DUE=21, TOP_FROM=22, XFER=23, PERR=24, TPC=25, TQ=26, RS_AT=27, RS_ANS=28,
             RS_K=29, DOWN=30,
             MELD_TURN=35, PTURN=40, MAYI=45, LASTK=50, OOT=55, COOL=60, TOTAL=65, PEN=70, GMAYI=75, GOOT=80,
             HSIZE=85, GAIN=90, LOSS=95, PCARDS=100, RS_BEFORE=105, RS_I=106, RS_C=107, RS_STALE=108,
             RS_AUX=109, HAND=110, STOCK=375, PILE=537, KNOWN=699,
             F_KIND=964, F_SEAT=965, F_VAL=966, XSTEP=967, XFEED_LEN=968, XFEED_POS=969, XNEED=970, XFEED=971,
             ST_SIZE=987)
TABLE = dict(T_ROW=0, T_OWNER=9, T_TURN=10, TW=11)
PARAMS = dict(P_MAX=0, P_NEAR=1, P_VOL=2, P_DANGER=3, P_FAR=4, P_LAYOFF=5, P_JOKER=6, P_MELD_JK=7, P_VOL_PTS=8,
              P_NOISE=9, P_SWAP=10, P_MELD=11, P_SHED=12, N_POLICY=13)
VIEW = dict(V_SEAT=0, V_KIND=1, V_PLAYERS=2, V_DEAL=3, V_DEALER=4, V_CUR=5, V_TURN=6, V_STOCK=7, V_PILE_LEN=8,
            V_TOP=9, V_TAKEN=10, V_MODEL=11, V_JOKER_DUE=12, V_XFER=13, V_CARD=14, V_MELD=15, V_INFO=16, V_INFO2=17,
            V_C_SETS=18, V_C_RUNS=19, V_C_EXACT=20, V_C_ALL=21, V_NMELDS=22, V_SPARE=23, V_HELD=24, V_DOWN=29,
            V_MAYI=34, V_OOT=39, V_TOTAL=44, V_HAND=49, V_PILE=102, V_TAB=155, VIEW_SIZE=331)
LOG = dict(LG_SEAT=0, LG_KIND=1, LG_N=2, LG_CARD=3, LG_MELD=4, LG_INFO=5, LG_ANS=6, LG_SEG=7, LG_STEP=8, LG_HELD=9,
           LG_CODES=10, LG_W=74)
VB = dict(VB_VIEW=0, VB_PLUG_LEGAL=331, VB_LEGAL=395, SNAP=459, SNAP_ST=460, SNAP_TAB=1447, CV_MODE=1623,
          CV_STEP=1624, CV_STOP=1625, CV_STOPPED=1626, CV_NLOG=1627, CV_SEGS=1628, CV_LEN=1629, CV_BAD=1630,
          CV_SCRIPT=1631, CV_LOG=2143, CV_SEG=40031, CV_SIZE=44683)
PPRM = dict(PLUG_PRM=0, PLUG_KINDS=8, SS_POS=9, SS_LEN=10, SS_MODE=11, SS_ANS=12, SS_SIZE=524)
DEAL_BLOCK = dict(DB_OUT=0, DB_REASON=1, DB_TURNS=2, DB_RESHUF=3, DB_CUT=4, DB_PEN=5, DB_MAYI=10, DB_OOT=15,
                  DB_SIZE=20)
RECORD = dict(RC_DEALER=0, RC_WINNER=1, RC_WINNERS=2, RC_REASON=3, RC_TRUNC=4, RC_ERR=5, RC_TURNS=6, RC_RESHUF=7,
              RC_TOTAL=8, RC_MAYI=13, RC_OOT=18, RC_DEAL=23, RECORD_COLS=163)
SEARCH = dict(SX_HEAD=0, SX_KINDS=4, SX_CANDS=5, SX_Z=6, SX_FUTILITY=7, SX_END=8)
TABLES = [OPTIONS, STATE, TABLE, PARAMS, SEARCH, VIEW, LOG, VB, PPRM, DEAL_BLOCK, RECORD]
IDS = ["options", "state", "table", "params", "search", "view", "log", "vb", "pprm", "deal_block", "record"]


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_the_offsets_are_the_records(table):
    got = {name: getattr(L, name) for name in table}
    assert got == table
    assert all(type(v) is int for v in got.values())          # plain ints: numba's compile-time constants
    declared = {tuple(left) for _, left, _ in declarations(LAYOUT)}
    assert tuple(table) in declared                           # the whole declaration, in order


def test_the_sizes_the_kernels_read():
    assert (L.VB_SIZE, L.SNAP_SIZE, L.CV) == (459, 1623, 1623)
    assert L.SEG_W == L.ST_SIZE + L.MAX_MELDS * L.TW
    assert L.T_OWNER == M.M_SIZE and L.N_PARAMS == K.SP_PRM + L.N_POLICY


def test_every_parameter_sits_at_its_named_slot():
    """Each strategy's parameters are bound to kernel slots by name (``ParamSpec.slot``): a
    built-in's row is its parameters in slot order (``P_*``), the search's game-specific ones sit
    at ``SX_*`` of the search row (after kernels.search's four) and its policy's row from SP_PRM."""
    from cardsim.sim.games.contract_rummy import STRATEGIES
    for strat in STRATEGIES:
        for i, p in enumerate(strat.params):
            if strat.search and i < K.SP_EXTRA:
                assert p.slot.startswith("SP_")       # kernels.search's own slots (SP_*)
                continue
            assert p.slot and getattr(K, p.slot) == i, f"{strat.name}: {p.name} is at {i}, {p.slot}"
        if strat.search:
            row = strat.kernel_row([p.default for p in strat.params])
            assert len(row) == K.SP_PRM + K.N_POLICY - 1 or len(row) == K.N_PARAMS   # the policy's own row
            assert row[K.SX_KINDS:K.SX_END] == [p.default for p in strat.params[K.SP_EXTRA:]]


def test_the_package_reexports_the_layouts_numbers():
    shared = [name for table in TABLES for name in table if hasattr(K, name)]
    assert len(shared) > 150                                  # what the Python side reads as K.<name>
    assert all(getattr(K, name) == getattr(L, name) for name in shared)


def test_the_critique_action_code_round_trips():
    for kind in range(K.N_KINDS):
        for code in (0, 1, 5, 52, 255):
            for card in (-1, 0, 51, K.JK):
                for meld in (-1, 0, K.MAX_MELDS - 1):
                    for info in (0, 1, 3):
                        a = K.pack_act(kind, code, card, meld, info)
                        assert (K.act_kind(a), K.act_code(a), K.act_card(a), K.act_meld(a), K.act_info(a)) == \
                            (kind, code, card, meld, info & 1)
                        assert a == kind + (code << 4) + ((card + 1) << 12) + ((meld + 1) << 20) + ((info & 1) << 28)


def test_the_trace_codecs_round_trip():
    row = np.zeros(M.M_SIZE, np.int64)
    row[[M.M_KIND, M.M_KEY, M.M_JOKERS, M.M_P2, M.M_LO, M.M_HI]] = [M.MK_RUN, 3, 2, 1, 4, 9]
    b = K.pack_row(row)
    assert (K.row_kind(b), K.row_key(b), K.row_jokers(b), K.row_p2(b), K.row_lo(b), K.row_hi(b)) == \
        (M.MK_RUN, 3, 2, 1, 4, 9)
    w = K.window(row)
    assert (w, K.window_lo(w), K.window_hi(w)) == (4 + 256 * 9, 4, 9)
    tab = np.zeros((K.MAX_MELDS, K.TW), np.int64)
    tab[2, M.M_LO], tab[2, M.M_HI] = 1, 5
    for t in (K.SWAP_KEPT, K.SWAP_MELD, 0, 2, K.MAX_MELDS - 1):
        c = K.swap_info(w, tab, t)
        assert (K.swap_target(c), K.swap_run_window(c)) == (t, w)
        if t >= 0:
            assert K.swap_target_window(c) == K.window(tab[t])
    d = K.pack_sizes(12, 140, 30)
    assert (d, K.sizes_held(d), K.sizes_stock(d), K.sizes_pile(d)) == (12 + 256 * 140 + 65536 * 30, 12, 140, 30)
    for c in (0, 51, K.JK):
        for k in (0, 1, 200):
            e = K.pile_entry(c, k)
            assert (e, K.pile_card(e), K.pile_k(e)) == (c + 64 * k, c, k)
    assert K.question_key(K.K_LAYOFF, 7, 3) == K.K_LAYOFF + (8 << 4) + (4 << 11)
