"""Decision-level regret (issue 40, ``cardsim critique``): the parts every game's critique shares.

A game's ``critique_deal`` kernel plays one deal exactly as its batch ``play_deal`` does (the
same streams, so ``cardsim replay`` shows the same deal) and, at each decision of the critiqued
seat, writes one row (the CR_* layout below). At a sampled decision with more than one legal
action it evaluates every legal action by the game's own no-peeking search machinery
(``determinize`` + rollouts with the search row's policy, common random numbers across the
actions) in two stages:

1. **select**: worlds ``0 .. W-1`` in rounds of ``ROUND``; after each round an action whose
   paired difference to the leader is below zero by more than ``RACE_Z`` standard errors is
   dropped (a racing rule: the budget goes to the actions still in question); the strategy's
   own choice is never dropped. The best action is the leader at the end.
2. **measure**: when the best action is not the strategy's choice, worlds ``W .. 2W-1`` (fresh
   deals of the hidden cards, not the ones that selected it) measure both; the regret is the
   mean paired difference best - chosen with its standard error. The selection's own noise
   does not inflate it, so a strategy that is as good as the search's pick has regret
   around 0, not above it. When the best is the choice, the regret is 0 exactly.

Values are the deciding seat's payout in the game's unit, as the game's search values it.
``race_actions`` runs the two stages over the game's own world function (a game passes its
``world_values`` wrapped to ``world(wx, w, active, out)``).

Row layout (float64, one per decision of the critiqued seat):

| slot | meaning |
|---|---|
| CR_INDEX | the decision's number among the seat's decisions in the deal (0, 1, ...) |
| CR_STEP | decisions of any seat before it in the deal (``--until-decision`` of ``replay``) |
| CR_KIND | the decision kind (the game's plug-in kinds, K_*) |
| CR_PHASE | the game's phase of the decision (its adapter names it: a hand, a trick, ...) |
| CR_DETAIL | a second game-specific number (chips held, cards held, ...) |
| CR_LEGAL | legal actions |
| CR_EVAL | 1 when evaluated (sampled, more than one legal action) |
| CR_CHOSEN | index of the strategy's choice among the legal actions |
| CR_CHOSEN_ACT | its action code |
| CR_BEST | index of the best action (the choice when not evaluated) |
| CR_BEST_ACT | its action code |
| CR_V_CHOSEN, CR_SE_CHOSEN | the choice's value and its standard error (select stage) |
| CR_V_BEST, CR_SE_BEST | the best action's value and its standard error (select stage) |
| CR_REGRET, CR_SE_REGRET | measured regret (stage 2) and its standard error |
| CR_WORLDS | worlds played in the two stages together |
| CR_ROLLOUTS | rollouts played (the evaluation's cost) |

Action codes (CR_CHOSEN_ACT, CR_BEST_ACT, ``acts[k, i, 0]``) are int64 codes kept bit for bit in
the float64 slots (``as_float`` / ``codes``: a packed code such as a Tonk lay's card mask needs
all 64 bits, more than a float's 53); read them with ``codes(array)``, never as numbers.

Per evaluated decision the kernel also writes ``acts[k, i] = (action code, mean, se, worlds)``
for each legal action ``i`` (the select stage's values; a dropped action has fewer worlds) and
the state ``snaps[k]`` (the adapter prints the seat's view of it, never more).
"""
import numpy as np

from cardsim.kernels.jit import njit
from cardsim.kernels.rng import GOLDEN, mix64

CR_INDEX, CR_STEP, CR_KIND, CR_PHASE, CR_DETAIL, CR_LEGAL, CR_EVAL = 0, 1, 2, 3, 4, 5, 6
CR_CHOSEN, CR_CHOSEN_ACT, CR_BEST, CR_BEST_ACT = 7, 8, 9, 10
CR_V_CHOSEN, CR_SE_CHOSEN, CR_V_BEST, CR_SE_BEST = 11, 12, 13, 14
CR_REGRET, CR_SE_REGRET, CR_WORLDS, CR_ROLLOUTS = 15, 16, 17, 18
CR_WIDTH = 19
ACT_WIDTH = 4            # acts[k, i]: action code, mean, se, worlds

STREAM_CRITIQUE = 1 << 20   # the critique's own stream (rng.stream_key): never a play stream
ROUND = 8                # worlds per racing round
RACE_Z = 3.0             # drop an action this many standard errors below the leader


@njit(cache=True)
def as_float(code):
    """The int64 action code ``code`` as the float64 with the same bits (stored in a row)."""
    buf = np.empty(1, dtype=np.int64)
    buf[0] = code
    return buf.view(np.float64)[0]


def codes(values) -> np.ndarray:
    """The int64 action codes stored bit for bit in float64 ``values`` (a row slot, a column)."""
    return np.ascontiguousarray(values, dtype=np.float64).view(np.int64)


@njit(cache=True)
def sampled(key, index, rate):
    """Whether decision ``index`` of a deal (``key``: the deal's critique key) is evaluated:
    a counter-based draw below ``rate``, the same for any worker count."""
    if rate >= 1.0:
        return True
    u = mix64(np.uint64(key) + np.uint64(index + 1) * GOLDEN)
    return (u >> np.uint64(11)) * (1.0 / 9007199254740992.0) < rate


@njit(cache=True)
def mean_se(vals, w0, w1, i):
    """Mean and standard error of ``vals[w0:w1, i]``."""
    m = w1 - w0
    s = 0.0
    for w in range(w0, w1):
        s += vals[w, i]
    mean = s / max(1, m)
    if m < 2:
        return mean, 0.0
    q = 0.0
    for w in range(w0, w1):
        d = vals[w, i] - mean
        q += d * d
    return mean, np.sqrt(q / (m - 1) / m)


@njit(cache=True)
def diff_se(vals, w0, w1, i, j):
    """Mean and standard error of the paired difference ``vals[w, i] - vals[w, j]``, w in w0..w1-1."""
    m = w1 - w0
    s = 0.0
    for w in range(w0, w1):
        s += vals[w, i] - vals[w, j]
    mean = s / max(1, m)
    if m < 2:
        return mean, 0.0
    q = 0.0
    for w in range(w0, w1):
        d = vals[w, i] - vals[w, j] - mean
        q += d * d
    return mean, np.sqrt(q / (m - 1) / m)


@njit(cache=True)
def leader(vals, w, n, active):
    """The active action with the best mean over ``vals[:w]`` (the first on ties)."""
    best, bv = -1, -1e300
    for i in range(n):
        if active[i]:
            m = mean_se(vals, 0, w, i)[0]
            if m > bv:
                best, bv = i, m
    return best


@njit(cache=True)
def race(vals, w, n, active, keep):
    """Drop every active action (but ``keep``) whose paired difference to the leader over
    ``vals[:w]`` is below 0 by more than RACE_Z standard errors; returns the leader and the
    number still active."""
    lead = leader(vals, w, n, active)
    left = 0
    for i in range(n):
        if active[i] and i != lead and i != keep:
            d, se = diff_se(vals, 0, w, lead, i)
            if d > RACE_Z * se and d > 1e-12:
                active[i] = False
        left += active[i]
    return lead, left


@njit(cache=True)
def put_world(vals_row, out, n, active, rollouts):
    """Store world values ``out[i] / rollouts`` of the active actions into ``vals_row``; returns how
    many actions were active (the caller's rollout count)."""
    k = 0
    for i in range(n):
        if active[i]:
            vals_row[i] = out[i] / rollouts
            k += 1
    return k


@njit(cache=True)
def round_done(vals, w, n, active, seen, chosen):
    """The end of a select-stage round at ``w`` worlds: every still active action has been played
    in ``w`` worlds (``seen``), clearly worse ones are dropped (``race``). Returns (the leader,
    whether the select stage can stop: the leader alone is left, or only it and the choice, with
    the choice significantly worse)."""
    for i in range(n):
        if active[i]:
            seen[i] = w
    best, left = race(vals, w, n, active, chosen)
    if left == 1:
        return best, True
    if left == 2 and best != chosen:
        d, se = diff_se(vals, 0, w, best, chosen)
        return best, d > RACE_Z * se + 1e-12
    return best, False


@njit(cache=True)
def measure_pair(active, best, chosen):
    """The measure stage plays the best action and the choice only."""
    active[:] = False
    active[best] = True
    active[chosen] = True


@njit(cache=True)
def finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w_sel, w_all, rollouts):
    """Write the evaluated decision's row and per-action values: select-stage values of every
    action (over the worlds it was played in, ``seen[i]``) and the measured regret of the
    choice (stage 2 over ``vals[w_sel:w_all]``; 0 when the best is the choice)."""
    for i in range(n):
        m, se = mean_se(vals, 0, seen[i], i)
        acts_out[i, 0] = as_float(acts[i])
        acts_out[i, 1] = m
        acts_out[i, 2] = se
        acts_out[i, 3] = seen[i]
    row[CR_EVAL] = 1.0
    row[CR_CHOSEN] = chosen
    row[CR_CHOSEN_ACT] = as_float(acts[chosen])
    row[CR_BEST] = best
    row[CR_BEST_ACT] = as_float(acts[best])
    row[CR_V_CHOSEN] = acts_out[chosen, 1]
    row[CR_SE_CHOSEN] = acts_out[chosen, 2]
    row[CR_V_BEST] = acts_out[best, 1]
    row[CR_SE_BEST] = acts_out[best, 2]
    if best != chosen and w_all > w_sel:
        r, se = diff_se(vals, w_sel, w_all, best, chosen)
        row[CR_REGRET] = r
        row[CR_SE_REGRET] = se
    else:
        row[CR_REGRET] = 0.0
        row[CR_SE_REGRET] = 0.0
    row[CR_WORLDS] = w_all
    row[CR_ROLLOUTS] = rollouts


@njit(cache=True, inline='always')
def race_actions(world, wx, acts, n, chosen, worlds, rollouts, row, acts_out):
    """A game's evaluation of the actions ``acts[:n]`` (its choice ``chosen``) into ``row`` and
    ``acts_out``, the two stages above: the select stage over worlds ``0 .. worlds-1`` in rounds
    of ROUND (``round_done``), then, when the best is not the choice, both measured on worlds
    ``worlds .. 2 worlds - 1`` (``measure_pair``). ``world(wx, w, active, out)`` is the game's:
    it adds to ``out[i]`` the values of ``rollouts`` rollouts of each active action i in world
    ``w`` (``wx``: the rest of its arguments, a tuple). Inlined: a kernel that passes a function
    to another kernel's call holds the function's address, which numba cannot cache; inlined,
    ``world`` is called directly."""
    vals = np.zeros((2 * worlds, n), dtype=np.float64)
    seen = np.zeros(n, dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    out = np.empty(n, dtype=np.float64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + ROUND)):
            out[:] = 0.0
            world(wx, ww, active, out)
            played += rollouts * put_world(vals[ww], out, n, active, rollouts)
        w = min(worlds, w + ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            out[:] = 0.0
            world(wx, ww, active, out)
            played += rollouts * put_world(vals[ww - worlds + w], out, n, active, rollouts)
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)


@njit(cache=True)
def plain_row(row, index, step, kind, phase, detail, n, chosen, act):
    """The row of a decision (not yet evaluated: the best is the choice, regret 0)."""
    row[:] = 0.0
    row[CR_INDEX] = index
    row[CR_STEP] = step
    row[CR_KIND] = kind
    row[CR_PHASE] = phase
    row[CR_DETAIL] = detail
    row[CR_LEGAL] = n
    row[CR_CHOSEN] = chosen
    row[CR_CHOSEN_ACT] = as_float(act)
    row[CR_BEST] = chosen
    row[CR_BEST_ACT] = as_float(act)


def buffers(max_rows: int, max_acts: int, state_size: int):
    """A deal's output arrays: rows, per-action values, state snapshots."""
    return (np.zeros((max_rows, CR_WIDTH)), np.zeros((max_rows, max_acts, ACT_WIDTH)),
            np.zeros((max_rows, state_size), np.int64))
