"""Trionfo's critique (issue 40): the session the batch plays for every seat (plug-in included), a
trick whose right card is known by hand (the solo declarer takes it with the master card and so
makes his points), a hopeless solo bid, no peeking (values and the printed position), ``stop``
(the state before a decision)."""
import numpy as np

from cardsim.kernels import critique as CK
from cardsim.kernels import trionfo as K
from cardsim.kernels.tricks import FULL40
from cardsim.sim.critique import evaluator
from cardsim.sim.games.marafon import mask40, parse40
from cardsim.sim.games.trionfo import GAME, PRESETS, TrionfoOptions, _position
from cardsim.sim.notation import fmt40_mask
from cardsim.sim.registry import seat_arrays, seat_plugin, seat_table
from cardsim.sim.runner import make_config, replay
from test_trionfo_search import hands_of_random_play
from test_trionfo_strategies import redeal_hidden

N = 5
NOTRACE = np.zeros((0, K.TRACE_W), np.int64)
EXAMPLE = "examples/trionfo_long_trumps.py:long_trumps:min_trumps=3"


def run(opts, lineup, session, seat, prm, rate, stop=-1):
    """``critique`` of ``seat`` in session ``session`` (seed 0): (rows, decisions, state, buffers)."""
    seats = seat_table(GAME, lineup, N)
    sids, params = seat_arrays(GAME, seats)
    plug, pprm = seat_plugin(GAME, seats, False)
    buf = CK.buffers(512, K.MAX_ACTS, K.ST_SIZE)
    k, seen, st = K.critique(0, session, opts, sids, params, seat, prm, rate, stop, *buf, NOTRACE,
                             *(() if plug is None else (plug, pprm)))
    return k, seen, st, buf


def public(st):
    """The state but the trace length and the plug-in's scratch (view and legal list)."""
    out = st.copy()
    out[K.TR_LEN] = 0
    out[K.PVIEW:K.PLEGAL + 40] = 0
    return out


def evaluate(st, opts, p, kind, ctx, acts, chosen, worlds=16, key=11):
    row = np.zeros(CK.CR_WIDTH)
    out = np.zeros((len(acts), CK.ACT_WIDTH))
    K.critique_eval(st, opts, p, kind, ctx, np.asarray(acts, np.int64), len(acts), chosen,
                    evaluator(GAME, N, worlds, "strong"), np.uint64(key), row, out)
    return row, out


def test_critique_plays_the_batch_session():
    """Nothing evaluated: each session ends as the batch's replay for every critiqued seat, with a
    search seat (its trump searched), random bidders and the example plug-in, under every way of
    choosing the partner; each decision of the session is one seat's row."""
    prm = evaluator(GAME, N, 2, "greedy")
    for preset, lineup in (("seed", ["strong"]),
                           ("open_partner", ["random", "search:worlds=2,trump=1", "heuristic", "greedy", "strong"]),
                           ("self_call", [EXAMPLE, "strong", "random", "strong", "greedy"])):
        cfg = make_config("trionfo", N, 4, 0, lineup, preset=preset, options=["trionfo_hands=4"])
        opts = cfg.option_array
        for session in (0, 1):
            st_b, _ = replay(cfg, session)
            steps = []
            for seat in range(N):
                k, seen, st, (rows, _, _) = run(opts, lineup, session, seat, prm, 0.0)
                assert np.array_equal(public(st), public(st_b)), (preset, session, seat)
                assert k == seen > 0 and not rows[:k, CK.CR_EVAL].any()
                steps += list(rows[:k, CK.CR_STEP].astype(int))
            assert sorted(steps) == list(range(len(steps)))


def stacked():
    """Trick 7 of a maso (a solo at stake 3) by seat 0, 12 thirds won so far (4 points of the 6 it
    needs): seats 1-4 played AH 5H 2H 6H (2H winning), seat 0 holds 3H (the master) and 4H; the
    others' last cards KS 7S 6D QD, trump clubs, every other card played."""
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N] = N
    K.reset_deal(st)
    st[K.HAND_IDX], st[K.DEALER], st[K.FIRST_SPEAKER] = 1, 4, 0
    st[K.HIGH_LEVEL], st[K.HIGH_BIDDER], st[K.FIRST_BIDDER], st[K.DECLARER], st[K.BID] = 3, 0, 0, 0, 3
    st[K.PASSED] = 0b11110
    st[K.TRUMP] = 0
    hands = [mask40("3H 4H"), mask40("KS"), mask40("7S"), mask40("6D"), mask40("QD")]
    trick = parse40("AH 5H 2H 6H")
    for q in range(N):
        st[K.HAND + q] = hands[q]
    for i, c in enumerate(trick):
        st[K.TRICK + i] = c
    st[K.PLAYED] = FULL40 & ~sum(hands)
    st[K.THIRDS], st[K.THIRDS + 1] = 12, 13
    st[K.TRICK_NO], st[K.NCARDS], st[K.LED], st[K.LEADER], st[K.LAST_WINNER] = 6, 4, 2, 1, 1
    return st


def test_the_master_card_makes_the_contract():
    """Taking the trick with 3H (5 thirds, and the lead to the last trick, which 4H then wins: 22
    thirds, 7 points) makes the maso (+12); ducking with 4H leaves seat 0 at 4 points (-12). The
    evaluation finds 3H, and the duck's regret is 24 (every world alike: its standard error 0)."""
    st = stacked()
    opts = TrionfoOptions().to_array(N)
    acts = [K.act_code(K.K_CARD, c) for c in sorted(parse40("3H 4H"))]        # 4H, 3H
    row, out = evaluate(st, opts, 0, K.K_CARD, 0, acts, chosen=0)
    assert int(row[CK.CR_BEST]) == 1 and CK.codes(row[CK.CR_BEST_ACT:CK.CR_BEST_ACT + 1])[0] == acts[1]
    assert list(out[:, 1]) == [-12.0, 12.0]
    assert row[CK.CR_REGRET] == 24 and row[CK.CR_REGRET] > 2 * row[CK.CR_SE_REGRET]
    right, _ = evaluate(st, opts, 0, K.K_CARD, 0, acts, chosen=1)
    assert right[CK.CR_REGRET] == 0 and int(right[CK.CR_BEST]) == 1


def test_a_hopeless_solo_bid():
    """The first speaker of a session with a weak hand (no trump length, no 3 or 2): the maso dei
    masi (a solo at stake 4) loses about 16, passing little either way (what the others' contracts
    bring a defender: since strong bids the solo from strength 16, about +2 in these worlds); its
    regret is large and significant."""
    opts = TrionfoOptions().to_array(N)
    prm = evaluator(GAME, N, 1, "greedy")
    _, _, st, _ = run(opts, ["strong"], 3, 0, prm, 0.0, stop=0)
    p = int(st[K.FIRST_SPEAKER])
    weak = mask40("4C 5C 6D 7D 4H 5H 6S 7S")
    for q in range(N):                                            # give seat p the weak hand
        st[K.HAND + q] = weak if q == p else int(st[K.HAND + q]) & ~weak
    spare = [c for c in range(40) if not (sum(int(st[K.HAND + q]) for q in range(N)) >> c & 1)]
    for q in range(N):
        while q != p and bin(int(st[K.HAND + q])).count("1") < 8:
            st[K.HAND + q] |= 1 << spare.pop()
    assert K.hand_strength(weak) < 5 and st[K.HIGH_LEVEL] == 0 and st[K.HAND_IDX] == 0
    if not weak >> K.FIVE_COINS & 1:                               # the first hand's 5D is with p
        st[K.HAND_IDX] = 1
    acts = [K.act_code(K.K_BID, v) for v in range(5)]
    row, out = evaluate(st, opts, p, K.K_BID, 0, acts, chosen=4)
    assert row[CK.CR_REGRET] > 10 and row[CK.CR_REGRET] > 2 * row[CK.CR_SE_REGRET]
    assert out[4, 1] < -10 and abs(out[0, 1]) < 4


def test_no_peeking():
    """The values of every card are the same when the cards hidden from the deciding seat are
    dealt otherwise (the secret partner moving with the called card), and so is the position
    printed for it, which shows its own hand."""
    rng = np.random.default_rng(4)
    checked = 0
    for i, (st, opts, p, voids, fixed) in enumerate(hands_of_random_play(6, 80)):
        if i % 4:
            continue
        other = redeal_hidden(st, p, voids, fixed, rng, bool(opts[K.O_SELF_CALL]))
        legal = K.legal_cards(st[K.HAND + p], st[K.LED])
        acts = [K.act_code(K.K_CARD, c) for c in range(40) if legal >> c & 1]
        a, b = evaluate(st, opts, p, K.K_CARD, 0, acts, 0, worlds=4), evaluate(other, opts, p, K.K_CARD, 0, acts, 0,
                                                                               worlds=4)
        assert all(np.array_equal(x, y) for x, y in zip(a, b)), i
        assert _position(st, p, opts) == _position(other, p, opts)
        assert any(fmt40_mask(int(st[K.HAND + p])) in x for x in _position(st, p, opts))
        checked += 1
    assert checked >= 20


def test_stop_returns_the_state_before_the_decision():
    """``stop`` = s stops the session before its decision s (any seat's): the state returned is
    the snapshot the deciding seat's row at step s kept, with fewer rows than the whole session;
    every kind of the partner's call (a card) is rowed and valued somewhere, and the naming under
    name_player."""
    prm = evaluator(GAME, N, 1, "greedy")
    lineup = ["strong", "greedy", "strong", "heuristic", "random:pass_bias=3"]
    for preset, want in (("seed", {K.K_BID, K.K_TRUMP, K.K_CALL, K.K_CARD}),
                         ("open_partner", {K.K_BID, K.K_TRUMP, K.K_NAME, K.K_CARD})):
        opts = TrionfoOptions(**{**PRESETS[preset], "trionfo_hands": 5}).to_array(N)
        snaps_at, kinds, full = {}, set(), {}
        for seat in range(N):
            k, seen, _, (rows, _, snaps) = run(opts, lineup, 2, seat, prm, 1.0)
            full[seat] = k
            for j in range(k):
                if rows[j, CK.CR_EVAL]:
                    snaps_at[int(rows[j, CK.CR_STEP])] = (seat, snaps[j].copy())
                    kinds.add(int(rows[j, CK.CR_KIND]))
        assert kinds == want and len(snaps_at) > 100, kinds
        for step in sorted(snaps_at)[::29]:
            seat, snap = snaps_at[step]
            k, _, st, _ = run(opts, lineup, 2, seat, prm, 0.0, stop=step)
            assert np.array_equal(public(st), public(snap)) and k < full[seat], step
