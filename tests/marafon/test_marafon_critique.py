"""Marafon's critique (issue 40): the match the batch plays for every seat (plug-in included), a
trick whose right card is known by hand (the last player takes it with the master card), no
peeking (values and the printed position), ``stop`` (the state before a decision)."""
import numpy as np

from cardsim.kernels import critique as CK
from cardsim.kernels import marafon as K
from cardsim.kernels.jit import no_plugin
from cardsim.kernels.tricks import FULL40, mask_thirds
from cardsim.sim.critique import evaluator
from cardsim.sim.games.marafon import GAME, PRESETS, MarafonOptions, _position, mask40, parse40
from cardsim.sim.registry import seat_arrays, seat_plugin, seat_table
from cardsim.sim.runner import make_config, replay
from cardsim.sim.notation import fmt40_mask
from test_marafon_search import hands_of_random_play
from test_marafon_strategies import redeal_hidden

N = 4
NOTRACE = np.zeros((0, K.TRACE_W), np.int64)
EXAMPLE = "examples/marafon_save_trumps.py:save_trumps:min_thirds=4"


def run(opts, lineup, match, seat, prm, rate, stop=-1):
    """``critique`` of ``seat`` in match ``match`` (seed 0): (rows, decisions, state, buffers)."""
    seats = seat_table(GAME, lineup, N)
    sids, params = seat_arrays(GAME, seats)
    plug, pprm = seat_plugin(GAME, seats, False)
    buf = CK.buffers(1024, K.MAX_ACTS, K.ST_SIZE)
    k, seen, st = K.critique(0, match, opts, sids, params, seat, prm, rate, stop, *buf, NOTRACE,
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
                    evaluator(GAME, N, worlds, "strong"), np.uint64(key), row, out, no_plugin)
    return row, out


def test_critique_plays_the_batch_match():
    """Nothing evaluated: each match ends as the batch's replay for every critiqued seat, with
    search seats, a fuzzing claimer and the example plug-in, under options where declaring is
    optional and claims come at every card; each decision of the match is one seat's row."""
    prm = evaluator(GAME, N, 2, "greedy")
    for preset, lineup in (("seed", ["strong"]),
                           ("italian", ["random:claim_prob=0.01,claim_due=0.3", "search:worlds=2", "heuristic",
                                        "greedy"]),
                           ("any_cricca", [EXAMPLE, "strong", "random:claim_prob=0.02", "strong"])):
        opts = MarafonOptions(**PRESETS[preset]).to_array(N)
        cfg = make_config("marafon", N, 4, 0, lineup, preset=preset)
        for match in (0, 1):
            st_b, _ = replay(cfg, match)
            steps = []
            for seat in range(N):
                k, seen, st, (rows, _, _) = run(opts, lineup, match, seat, prm, 0.0)
                assert np.array_equal(public(st), public(st_b)), (preset, match, seat)
                assert k == seen > 0 and not rows[:k, CK.CR_EVAL].any()
                assert list(rows[:k, CK.CR_INDEX]) == list(range(k))
                steps += list(rows[:k, CK.CR_STEP].astype(int))
            assert sorted(steps) == list(range(len(steps)))


def stacked():
    """Trick 9, seat 0 to play last: seat 1 led AH, partner 5H, seat 3 2H (winning); seat 0 holds
    3H (the master) and 4H; the others' last cards KS 7S 6D, trump clubs, every other card played."""
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N], st[K.HAND_NO], st[K.MATCH_HANDS], st[K.DEALER], st[K.BATT] = 4, 2, 2, 0, 1
    st[K.SCORE], st[K.SCORE + 1] = 5, 5
    st[K.TRUMP], st[K.MHOLDER], st[K.WIN_SIDE], st[K.REASON] = 0, -1, -1, -1
    hands = [mask40("3H 4H"), mask40("KS"), mask40("7S"), mask40("6D")]
    trick = parse40("AH 5H 2H")
    done = [c for c in range(40) if not (sum(hands) | sum(1 << c for c in trick)) >> c & 1]
    for q in range(4):
        st[K.HAND + q] = hands[q]
        st[K.PLAYED_BY + q] = sum(1 << c for c in done[q::4])       # no seat has played a whole cricca
    for i, (q, c) in enumerate(zip((1, 2, 3), trick)):
        st[K.TRICK + i] = c
        st[K.PLAYED_BY + q] |= 1 << c
    for s in range(2):
        st[K.WON + s] = sum(1 << c for c in done[s::2])
        st[K.THIRDS + s] = mask_thirds(int(st[K.WON + s]))
        st[K.TRICKS_WON + s] = 4
    st[K.PLAYED] = FULL40 & ~sum(hands)
    st[K.TRICK_NO], st[K.NCARDS], st[K.LED], st[K.LEADER], st[K.LAST_WINNER] = 8, 3, 2, 1, 1
    return st


def test_the_master_card_takes_the_trick():
    """Taking the trick with 3H (5 thirds, and the lead for the last trick, which 4H then wins)
    beats ducking with 4H (the opponents take 4 thirds and, mostly, the last trick): the evaluation
    finds 3H and the duck's regret is several points and far above its standard error."""
    st = stacked()
    opts = MarafonOptions().to_array(N)
    assert K.legal_cards(st[K.HAND], st[K.LED]) == mask40("3H 4H")
    acts = [K.act_code(K.K_CARD, c) for c in sorted(parse40("3H 4H"))]        # 4H, 3H
    row, out = evaluate(st, opts, 0, K.K_CARD, 0, acts, chosen=0)
    assert int(row[CK.CR_BEST]) == 1 and CK.codes(row[CK.CR_BEST_ACT:CK.CR_BEST_ACT + 1])[0] == acts[1]
    assert row[CK.CR_REGRET] > 3 and row[CK.CR_REGRET] > 2 * row[CK.CR_SE_REGRET]
    assert out[1, 1] > out[0, 1] + 3
    right, _ = evaluate(st, opts, 0, K.K_CARD, 0, acts, chosen=1)             # the right card: regret 0
    assert right[CK.CR_REGRET] == 0 and int(right[CK.CR_BEST]) == 1


def test_a_wrong_claim_costs_the_game():
    """At a claim window far from the target, a claim loses the game: its regret is about the
    search's game weight (20) plus the hand; not claiming has none."""
    st = stacked()
    st[K.ASKED] = 0
    opts = MarafonOptions().to_array(N)
    acts = [K.act_code(K.K_CLAIM, 0), K.act_code(K.K_CLAIM, 1)]
    row, _ = evaluate(st, opts, 0, K.K_CLAIM, 4 * 0, acts, chosen=1)
    assert int(row[CK.CR_BEST]) == 0 and row[CK.CR_REGRET] > 20 and row[CK.CR_REGRET] > 2 * row[CK.CR_SE_REGRET]


def test_no_peeking():
    """The values of every action (cards, claim windows, the trump) are the same when the cards
    hidden from the deciding seat are dealt otherwise (consistently with what it has seen), and so
    is the position printed for it, which shows its own hand."""
    rng = np.random.default_rng(3)
    opts = MarafonOptions(**PRESETS["any_cricca"]).to_array(N)
    checked = 0
    for i, (st, p, voids, known, _) in enumerate(hands_of_random_play(3, 90, opts)):
        if i % 5:
            continue
        other = redeal_hidden(st, p, voids, known, rng)
        legal = K.legal_cards(st[K.HAND + p], st[K.LED])
        cards = [K.act_code(K.K_CARD, c) for c in range(40) if legal >> c & 1]
        claims = [K.act_code(K.K_CLAIM, 0), K.act_code(K.K_CLAIM, 1)]
        for kind, acts in ((K.K_CARD, cards), (K.K_CLAIM, claims)):
            a = evaluate(st, opts, p, kind, 4 * p, acts, 0, worlds=4)
            b = evaluate(other, opts, p, kind, 4 * p, acts, 0, worlds=4)
            assert all(np.array_equal(x, y) for x, y in zip(a, b)), (i, kind)
        assert _position(st, p, opts) == _position(other, p, opts)
        assert any(fmt40_mask(int(st[K.HAND + p])) in x for x in _position(st, p, opts))
        checked += 1
    assert checked >= 20
    from test_marafon_strategies import gen
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N], st[K.HAND_NO], st[K.DEALER] = 4, 1, 2
    K.begin_hand(st, gen(7), NOTRACE)
    b = int(st[K.BATT])
    other = redeal_hidden(st, b, [0] * 4, [1 << K.FOUR_COINS if q == b else 0 for q in range(4)], rng)
    suits = [K.act_code(K.K_TRUMP, s) for s in range(4)]
    a, c = evaluate(st, opts, b, K.K_TRUMP, 0, suits, 0, worlds=4), evaluate(other, opts, b, K.K_TRUMP, 0, suits, 0,
                                                                            worlds=4)
    assert all(np.array_equal(x, y) for x, y in zip(a, c))
    assert _position(st, b, opts) == _position(other, b, opts)


def test_stop_returns_the_state_before_the_decision():
    """``stop`` = s stops the match before its decision s (any seat's): the state returned is the
    snapshot the deciding seat's row at step s kept, with fewer rows than the whole match; every
    kind (an optional declaration included) is rowed and valued somewhere."""
    opts = MarafonOptions(marafona_auto_declare=False, marafona_trump_only=False, claim_timing="every_card") \
        .to_array(N)
    lineup = ["strong", "random:claim_prob=0.01", "strong", "heuristic"]
    prm = evaluator(GAME, N, 1, "greedy")
    snaps_at, kinds, full = {}, set(), {}
    for seat in range(N):
        k, seen, _, (rows, _, snaps) = run(opts, lineup, 2, seat, prm, 1.0)
        full[seat] = k
        for j in range(k):
            if rows[j, CK.CR_EVAL]:
                snaps_at[int(rows[j, CK.CR_STEP])] = (seat, snaps[j].copy())
                kinds.add(int(rows[j, CK.CR_KIND]))
    assert kinds == {K.K_TRUMP, K.K_DECLARE, K.K_CLAIM, K.K_CARD} and len(snaps_at) > 100
    for step in sorted(snaps_at)[::37]:
        seat, snap = snaps_at[step]
        k, _, st, _ = run(opts, lineup, 2, seat, prm, 0.0, stop=step)
        assert np.array_equal(public(st), public(snap)) and k < full[seat], step
