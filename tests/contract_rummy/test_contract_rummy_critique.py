"""Contract Rummy's critique (issue 40): the game the batch plays for every seat (a plug-in and a
search seat at the table too), a go-out known by hand (a lay-off and a discard end the deal while
an opponent is one card from going out), no peeking, and ``stop`` (the state before a question,
any seat's)."""
from pathlib import Path

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import critique as CK
from cardsim.sim.critique import evaluator
from cardsim.sim.games.contract_rummy import GAME, _position
from cardsim.sim.registry import seat_arrays, seat_plugin, seat_table
from cardsim.sim.runner import make_config, replay

from test_contract_rummy_search import redeal_hidden

N = 4
OPTS = GAME.options_cls().to_array(N)
NOTRACE = np.zeros((0, 6), np.int64)
EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "contract_rummy_mayi_limit.py")
ROWS = 1024


def table(labels):
    seats = seat_table(GAME, labels, N)
    sids, params = seat_arrays(GAME, seats)
    plug, pprm = seat_plugin(GAME, seats, False)
    return sids, params, plug, pprm


def run(labels, seat, prm, rate, stop=-1, game=0):
    sids, params, plug, pprm = table(labels)
    rows, acts, snaps = CK.buffers(ROWS, K.MAX_LEGAL, K.SEG_W)
    plugs = () if plug is None else (plug, pprm)
    k, seen, st = K.critique(0, game, OPTS, sids, params, seat, prm, rate, stop, rows, acts, snaps, NOTRACE, *plugs)
    return k, seen, st.copy(), rows[:k].copy(), acts[:k].copy(), snaps[:k].copy()


def test_critique_plays_the_batch_game():
    """Nothing evaluated (rate 0): the game ends as the batch's replay, for every seat, with a search
    seat (its forced draws and discards rowed) and a plug-in seat (examples/contract_rummy_mayi_limit.py);
    every plug-in kind but the ones the table never meets is rowed. Evaluated (worlds = 1), every
    question with a choice is valued: its segment's replay reaches it."""
    lineup = [f"{EXAMPLE}:limited:limit=1", "search:worlds=1,discards=2", "fuzz", "strong"]
    prm = evaluator(GAME, N, 1, "strong")
    st_b, _ = replay(make_config("contract_rummy", N, 1, 0, lineup), 0)
    kinds = set()
    for seat in range(N):
        k, seen, st, rows, _, _ = run(lineup, seat, prm, 0.0)
        assert st[K.ERR] == 0
        assert np.array_equal(st[K.TOTAL:K.TOTAL + N], st_b[K.TOTAL:K.TOTAL + N]), seat
        assert k == seen > 50 and not rows[:, CK.CR_EVAL].any()
        assert (rows[:, CK.CR_CHOSEN] >= 0).all() and (rows[:, CK.CR_CHOSEN] < rows[:, CK.CR_LEGAL]).all()
        kinds |= set(rows[:, CK.CR_KIND].astype(int))
    assert {K.K_DRAW, K.K_VOLUNTEER, K.K_MELD, K.K_LAYOFF, K.K_DISCARD} <= kinds
    k, seen, st, rows, _, _ = run(lineup, 0, prm, 1.0)      # the plug-in seat, every question valued
    assert np.array_equal(st[K.TOTAL:K.TOTAL + N], st_b[K.TOTAL:K.TOTAL + N])
    choice = rows[:, CK.CR_LEGAL] > 1
    assert choice.sum() > 20 and np.array_equal(rows[:, CK.CR_EVAL] == 1, choice)
    ev = rows[choice]
    assert (ev[:, CK.CR_WORLDS] >= 1).all() and np.isfinite(ev[:, CK.CR_V_CHOSEN]).all()
    assert all(GAME.critique["action_text"](a) for a in CK.codes(ev[:, CK.CR_CHOSEN_ACT]))


def test_going_out_beats_holding_back():
    """A go-out known by hand: the seat is down and holds two cards after its draw, one of which it
    can lay off (then it discards the other and the deal ends at 0 for it), while an opponent is
    down with one card (it may go out first). Keeping the card holds the deal open a round
    for the others. The evaluation finds the lay-off best, and keeping it has a large, significant
    regret (the first such question of seat 0 in game 0: deal 4, 10H to lay on the 10s, 2S to
    discard, seat 3 down with one card)."""
    labels = ["strong"] * N
    sids, params, _, _ = table(labels)
    seat = 0
    _, _, _, rows, acts, snaps = run(labels, seat, evaluator(GAME, N, 1, None), 1.0)
    for j, r in enumerate(rows):
        st = snaps[j, :K.ST_SIZE]
        if r[CK.CR_KIND] == K.K_LAYOFF and r[CK.CR_DETAIL] == 2 and r[CK.CR_EVAL] and \
                any(st[K.DOWN + q] and st[K.HSIZE + q] == 1 for q in range(N) if q != seat):
            break
    else:
        raise AssertionError("no go-out")
    assert st[K.DOWN + seat] and st[K.CUR] == seat and K.hand_of(st, seat).sum() == 2
    n = int(rows[j, CK.CR_LEGAL])
    codes = CK.codes(acts[j, :n, 0]).copy()
    assert int(codes[0]) >> 4 & 255 == 0                # keep it, then lay it on a meld
    keep = 0
    row, out = np.zeros(CK.CR_WIDTH), np.zeros((n, CK.ACT_WIDTH))
    bad = K.critique_eval(st.copy(), snaps[j, K.ST_SIZE:].reshape(K.MAX_MELDS, K.TW).copy(), OPTS, seat, K.SEG_ACT,
                          -1, np.zeros(1, np.int64), 0, codes, n, keep, evaluator(GAME, N, 16, "strong"),
                          np.uint64(5), row, out, K.no_plugin, sids[seat], params[seat], False)
    assert bad == 0 and row[CK.CR_EVAL] == 1
    assert row[CK.CR_BEST] != keep and int(CK.codes(row[CK.CR_BEST_ACT:CK.CR_BEST_ACT + 1])[0]) >> 4 & 255 >= 1
    assert row[CK.CR_REGRET] > 10 and row[CK.CR_REGRET] > 2 * row[CK.CR_SE_REGRET]
    assert "lay" in GAME.critique["action_text"](CK.codes(row[CK.CR_BEST_ACT:CK.CR_BEST_ACT + 1])[0])


def test_no_peeking_and_stop():
    """``stop`` = s stops the game before its question s (any seat's): the state returned is the
    position the deciding seat's row at step s kept (its segment replayed on the answers before
    it), and a run to s + 1 rows that question last. At a discard (its segment's start) the values
    and the position printed are the same when the cards hidden from the seat are dealt otherwise."""
    labels = ["strong", "greedy", "fuzz", "mayi"]
    prm = evaluator(GAME, N, 2, "strong")
    rng = np.random.default_rng(1)
    checked, kinds, discards = 0, set(), 0
    for seat in (0, 2):
        _, _, _, rows, acts, snaps = run(labels, seat, prm, 0.15)
        for j in np.flatnonzero(rows[:, CK.CR_EVAL])[::3]:
            step, kind = int(rows[j, CK.CR_STEP]), int(rows[j, CK.CR_KIND])
            st = run(labels, seat, prm, 0.0, stop=step)[2]
            assert np.array_equal(st, snaps[j, :K.ST_SIZE]), (seat, step, kind)
            k2, _, _, rows2, _, _ = run(labels, seat, prm, 0.0, stop=step + 1)
            assert int(rows2[k2 - 1, CK.CR_STEP]) == step
            lines = _position(snaps[j], seat, OPTS)
            assert lines[0].startswith(f"seat {seat}, deal {int(st[K.DEAL])}")
            checked += 1
            kinds.add(kind)
            if kind == K.K_DISCARD and discards < 3:
                discards += 1
                tab = snaps[j, K.ST_SIZE:].reshape(K.MAX_MELDS, K.TW)
                n = int(rows[j, CK.CR_LEGAL])
                codes = CK.codes(acts[j, :n, 0]).copy()
                seg = K.SEG_OOT if codes[0] >> 28 & 1 else K.SEG_DISCARD
                res = []
                other = redeal_hidden(st, seat, rng)
                assert _position(np.concatenate([other, tab.ravel()]), seat, OPTS) == lines
                for s in (st, other):
                    row, out = np.zeros(CK.CR_WIDTH), np.zeros((n, CK.ACT_WIDTH))
                    K.critique_eval(s, tab.copy(), OPTS, seat, seg, seat if seg == K.SEG_OOT else -1,
                                    np.zeros(1, np.int64), 0, codes, n, int(rows[j, CK.CR_CHOSEN]), prm,
                                    np.uint64(3), row, out, K.no_plugin, 2, np.zeros(K.N_POLICY), False)
                    res.append((row, out))
                assert np.array_equal(res[0][0], res[1][0]) and np.array_equal(res[0][1], res[1][1])
    assert checked >= 8 and len(kinds) >= 3 and discards >= 1
