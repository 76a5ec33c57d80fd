"""Telefunken's cut-stage hints (issue 43): ``StepState.action_values`` at the cutter's aim (K_CUT,
the aimed cut model) and its keep of an inspected joker (K_KEEP, cut_joker_keep=optional) is the
kernel's ``critique_eval`` of the question the batch critique asks there (``critique_deal``: the hand
reset with nothing dealt, the inspected cards), one value per legal action; it reads nothing the
cutter cannot see."""
import numpy as np

from cardsim.kernels import critique as CK
from cardsim.kernels import telefunken as K
from cardsim.kernels.rng import STREAM_PLAY, mix64, seed_stream, stream_key
from cardsim.sim.critique import evaluator
from cardsim.sim.games.telefunken import CRITIQUE, GAME, TelefunkenOptions
from cardsim.sim.games.telefunken.step import BASE, DECK, FULL_DECK, KEEP_NO, KEEP_YES
from cardsim.sim.registry import seat_arrays, seat_plugin, seat_table
from cardsim.sim.step import new_game

N = 4
OPTIONS = {"cut_joker_keep": "optional"}          # the aimed cut model is the default
OPTS = TelefunkenOptions(**OPTIONS).to_array(N)
LINEUP = ["strong", "planner:keep_jokers=1,cut_aim=30", "greedy", "strong"]


def _state(options=OPTIONS):
    return new_game("telefunken", players=N, options=dict(options, first_dealer=1)).new_state()


def _deal(s, deck, b):
    """The hand's shuffle is ``deck`` (top first), the cut's bottom portion ``b``."""
    assert s.chance == "deck"
    for c in deck:
        s.apply(c)
    assert s.chance == "cut" and b in s.legal_actions()
    s.apply(b)


def _with_jokers(t, at):
    """A shuffled deck whose jokers lie at ``at`` (two of them: the others at the bottom), the rest
    shuffled (seed ``t``)."""
    rest = [c for c in FULL_DECK if c != K.JK]
    np.random.default_rng(t).shuffle(rest)
    deck = []
    for i in range(DECK):
        deck.append(K.JK if i in at or i >= DECK - (4 - len(at)) else rest.pop())
    return deck


def _snapshot(s):
    return (s.st.copy(), s.tab.copy(), list(s.deck), s.kept, s.keep_at, s.step,
            [s.information_state_string(q) for q in range(N)], [s.observation_string(q) for q in range(N)])


def _same(a, b):
    assert all(np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a, b))


def _checked_values(s, worlds=8, seed=3):
    """One finite value per legal action, in ``legal_actions`` order, the same for the same seed, the
    state left as it was."""
    before = _snapshot(s)
    vals = s.action_values(worlds=worlds, policy="greedy", seed=seed)
    legal = s.legal_actions()
    assert vals is not None and [v.action for v in vals] == legal
    assert all(np.isfinite(v.mean) and np.isfinite(v.se) and v.se >= 0 and 1 <= v.worlds for v in vals), vals
    assert s.action_values(worlds=worlds, policy="greedy", seed=seed) == vals
    _same(before, _snapshot(s))
    return vals


def test_the_aim_and_the_keep_are_valued_from_what_the_cutter_sees():
    """The aim (105 actions) and each keep decision get their values; the hidden deck (its order,
    the stock the hand before left) dealt otherwise gives the same values, the inspected cards
    otherwise other values."""
    s = _state()
    assert s.step == "aim" and s.current_player() == 0 and len(s.legal_actions()) == DECK - 3
    aim = _checked_values(s)
    other = s.clone()
    other.st[K.STOCK:K.STOCK + DECK] = np.random.default_rng(1).permutation(FULL_DECK)
    assert other.action_values(worlds=8, policy="greedy", seed=3) == aim
    assert len({v.mean for v in aim}) > 1           # an exact cut is worth something
    s.apply(BASE["aim"] + 44)                       # aim at 45
    deck = _with_jokers(7, {60})                    # (b = 45: the inspected cards are deck[60:63])
    _deal(s, deck, 45)
    assert s.step == "keep" and s.current_player() == 0 and s.legal_actions() == [KEEP_NO, KEEP_YES]
    kind, st, codes, insp, groups = s._cut_question()
    assert kind == K.K_KEEP and insp.tolist() == deck[60:63] and K.JK not in deck[61:63]
    assert codes == [K.KEEP_CODE | 0, K.KEEP_CODE | 1] and groups == [[0], [1]]
    assert st[K.CUT_B] == 0 and not st[K.STOCK:K.KN].any() and st[K.CUT_AIMED] == 45
    keep = _checked_values(s)
    rng = np.random.default_rng(2)
    for _ in range(2):                               # the cards the cutter did not see, in another order
        other = s.clone()
        hidden = other.deck[:60] + other.deck[63:]
        rng.shuffle(hidden)
        other.deck = hidden[:60] + other.deck[60:63] + hidden[60:]
        other.st[K.STOCK:K.STOCK + DECK] = other.deck
        assert other.deck != s.deck and other.action_values(worlds=8, policy="greedy", seed=3) == keep
    other = s.clone()                                # an inspected card otherwise: other worlds
    i = next(j for j in range(63, DECK) if other.deck[j] not in (deck[61], deck[62], K.JK))
    other.deck = list(other.deck)
    other.deck[61], other.deck[i] = other.deck[i], other.deck[61]
    assert other.action_values(worlds=8, policy="greedy", seed=3) != keep


def test_two_inspected_jokers_each_keep_stands_for_the_counts_it_reaches():
    """Two inspected jokers: the first keep decision is the batch's question of 0, 1 or 2 kept (not
    keeping the first: the best of 0 and 1, keeping it: of 1 and 2); the second, after the first
    kept or not, of the two counts left."""
    prm = evaluator(GAME, N, 8, "greedy")
    for first in (KEEP_NO, KEEP_YES):
        s = _state()
        s.apply(BASE["aim"] + 44)
        _deal(s, _with_jokers(3, {60, 62}), 45)
        kind, st, codes, insp, groups = s._cut_question()
        assert insp.tolist()[0] == insp.tolist()[2] == K.JK and insp[1] != K.JK
        assert codes == [K.KEEP_CODE | j for j in range(3)] and groups == [[0, 1], [1, 2]]
        vals = _checked_values(s, seed=5)
        row, out = np.zeros(CK.CR_WIDTH), np.zeros((3, CK.ACT_WIDTH))
        K.critique_eval(st, s.tab.copy(), OPTS, np.int64(kind), np.asarray(codes, np.int64), np.int64(3),
                        np.int64(0), prm, np.uint64(mix64(np.uint64(5))), row, out, insp)
        assert [v.mean for v in vals] == [max(out[0, 1], out[1, 1]), max(out[1, 1], out[2, 1])]
        s.apply(first)
        assert s.step == "keep" and s.keep_at == 62
        kind, st, codes, insp, groups = s._cut_question()
        k = 1 if first == KEEP_YES else 0
        assert codes == [K.KEEP_CODE | k, K.KEEP_CODE | (k + 1)] and groups == [[0], [1]]
        _checked_values(s)
        s.apply(KEEP_YES)
        assert s.step is None and int(s.st[K.CUT_KEPT]) == k + 1


def _play_like_the_batch(seed, game, sids, params, watch):
    """Game ``game`` of run ``seed`` through the step API as the batch plays it; ``watch`` sees each
    cut-stage decision."""
    s = new_game("telefunken", players=N, options=OPTIONS).new_state()
    gplay = np.zeros(2, np.uint64)
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.batch_outcome(seed, game))
            continue
        p = s.current_player()
        if s.step is not None:
            watch(s, p)
        s.apply(s.strategy_action(int(sids[p]), params[p], gplay))
    return s


def test_the_cut_questions_are_the_batch_critiques():
    """A game played as the batch plays it: at each cut-stage decision of the critiqued seat the step
    state asks the question ``cardsim critique`` valued (its actions and inspected cards, a state that
    differs from the critique's snapshot only where the cut's worlds overwrite it); valued with the
    critique's key and choice it gives the critique's row and action values exactly, and the hint's
    own values (other worlds) agree with them within their errors."""
    seats = seat_table(GAME, LINEUP, N)
    sids, params = seat_arrays(GAME, seats)
    plug, pprm = seat_plugin(GAME, seats, False)
    prm = evaluator(GAME, N, 16, "greedy")
    seed, game, seat = 3, 0, 0
    rows, acts, snaps = CK.buffers(CRITIQUE["max_rows"](OPTS, N), CRITIQUE["max_acts"], CRITIQUE["state_size"])
    k = K.critique(seed, game, OPTS, sids, params, seat, prm, 1.0, -1, rows, acts, snaps,
                   np.zeros((0, K.TRACE_WIDTH), np.int64), plug, pprm)[0]
    cut = [j for j in range(k) if rows[j, CK.CR_KIND] in (K.K_CUT, K.K_KEEP)]
    assert {K.K_CUT, K.K_KEEP} <= {int(rows[j, CK.CR_KIND]) for j in cut}
    asked = []
    _play_like_the_batch(seed, game, sids, params, lambda s, p: p == seat and asked.append(
        (s._cut_question(), s.tab.copy(), s.action_values(worlds=16, policy="greedy", seed=11), s.legal_actions())))
    assert len(asked) == len(cut)
    key = stream_key(seed, game, np.int64(CK.STREAM_CRITIQUE))
    free = set(range(K.STOCK, K.KN)) | {K.TR_LEN, K.CUT_AIMED, K.CUT_KEEPS}   # overwritten, or the same aim
    for j, ((kind, st, codes, insp, groups), tab, vals, legal) in zip(cut, asked):
        n, seen = int(rows[j, CK.CR_LEGAL]), int(rows[j, CK.CR_INDEX]) + 1     # (the critique's key: its seen + 1)
        assert kind == rows[j, CK.CR_KIND] and n == len(codes)
        assert codes == CK.codes(acts[j, :n, 0]).tolist()
        assert insp.tolist() == snaps[j, K.SNAP_INSPECT:K.SNAP_SIZE].tolist()
        assert set(np.flatnonzero(st != snaps[j, :K.ST_SIZE]).tolist()) <= free
        assert np.array_equal(tab.ravel(), snaps[j, K.SNAP_TAB:K.SNAP_CUT])
        row, out = np.zeros(CK.CR_WIDTH), np.zeros((n, CK.ACT_WIDTH))
        K.critique_eval(st, tab, OPTS, np.int64(kind), np.asarray(codes, np.int64), np.int64(n),
                        np.int64(rows[j, CK.CR_CHOSEN]), prm, np.uint64(mix64(np.uint64((int(key) + seen) % 2 ** 64))),
                        row, out, insp)
        assert np.array_equal(row[CK.CR_EVAL:], rows[j, CK.CR_EVAL:]) and np.array_equal(out, acts[j, :n])
        if len(legal) != n:                         # (two inspected jokers: a keep is one of two counts)
            continue
        for c in (CK.CR_CHOSEN, CK.CR_BEST):        # the hint's value of the choice and of the best
            v, se = rows[j, CK.CR_V_CHOSEN if c == CK.CR_CHOSEN else CK.CR_V_BEST], \
                rows[j, CK.CR_SE_CHOSEN if c == CK.CR_CHOSEN else CK.CR_SE_BEST]
            mine = vals[int(rows[j, c])]
            assert mine.action == legal[int(rows[j, c])]
            assert abs(mine.mean - v) <= 4 * np.hypot(mine.se, se) + 1, (kind, mine, v, se)
