"""The conformance checks every game passes (issue 42: the tests as a library), run for every
discovered game (``sim.registry.game_names()``) and each of its presets; a new game gets them by
being found. What is particular to one game stays in its own files (``test_openspiel_<game>.py``,
``test_plugins_<game>.py``, ...).

1. The step API (``sim.step.new_game``), every preset at the fewest and the most players: random
   games (chance outcomes drawn by their probabilities, which sum to 1; legal actions non-empty
   and ascending) end within the game's ``max_game_length``, with returns in its utility range,
   zero-sum where the game says so (``GameSpec.zero_sum``).
2. OpenSpiel's own ``random_sim_test`` over every preset through the bridge (``cardsim.openspiel``),
   with the options that make a record short (``GameTools.quick``); the bridge's utility type
   is the game's ``zero_sum``.
3. The batch runner (``cardsim.run``, ``check=True``), every preset, every built-in strategy but
   the search ones seated in turn: the required columns and ``payout_{p}``, zero-sum payouts
   where declared, only columns the game declares (``GameSpec.columns``: ``sim.columns.find``,
   a seat mask's per-seat booleans), the same records on one worker and on two (smaller shards).
4. ``resample_from_infostate`` keeps the player's information state, observation and legal
   actions at every decision of a game; OpenSpiel's ISMCTS plays a game through the bridge. Views
   hide cards: what a plug-in is given (``StepState.plugin_view``, the kernel's view) and the
   seat's observation are the same in every world the seat cannot tell apart. A bridged game fed
   the batch's chance outcomes and strategies' choices ends with its batch record's payouts.
   ``action_values`` (the hint) values every legal action, the same for the same seed.
5. A plug-in (``cardsim.plugin.Strategy``) that always takes the first legal action plays at
   every seat of a checked run, where the game takes plug-ins (``GameSpec.plugin``).
6. Bad input on the command line (an unknown preset, too many players, an unknown strategy,
   an unknown option) is one ``Error:`` line and exit status 2.

A game without a step adapter (``GameSpec.step`` None) skips 1, 2 and 4; one without plug-ins
skips 5. Kept small: a few games and few deals each (each game's kernels compile, or load from
numba's cache, once per test process anyway).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import cardsim
from cardsim.sim.columns import find
from cardsim.sim.registry import game_names, get_game
from cardsim.sim.spec import REQUIRED_COLUMNS
from cardsim.sim.spec import quick_options as spec_quick_options
from cardsim.sim.step import new_game
from cli_helpers import assert_usage_error, invoke
from openspiel_helpers import ismcts_plays, resample_walk

GAMES = game_names()
# every game's presets (None: a game without presets, its default rules); imports the games' modules, compiles nothing
PRESETS = [(g, p) for g in GAMES for p in (list(get_game(g).presets) or [None])]

STEP_GAMES = 2          # random step-API games per preset and player count
SIMS = 8                # OpenSpiel random_sim_test games per preset
DEALS = 24              # records of each batch run
ISMCTS_SIMULATIONS = 3  # ISMCTS simulations per decision


def quick(spec) -> list[str]:
    """The game's options that make a record short (``GameTools.quick``: ``name=value`` as the
    OpenSpiel bridge writes them)."""
    return list(spec.tools.quick) if spec.tools else []


def quick_options(spec) -> dict:
    """``quick`` as ``-o`` option texts (``sim.spec.quick_options``: a list's ``_``-joined values
    comma-joined)."""
    return spec_quick_options(spec)


def bridged(spec, *params: str):
    """The game through the OpenSpiel bridge (``cardsim_<game>(PARAMS, quick options)``)."""
    pyspiel = pytest.importorskip("pyspiel")
    import cardsim.openspiel  # noqa: F401  (registers the games)
    text = ",".join([*(x for x in params if x), *quick(spec)])
    return pyspiel.load_game(f"cardsim_{spec.name}({text})" if text else f"cardsim_{spec.name}")


def preset_index(spec, preset) -> int:
    return list(spec.presets).index(preset) if preset else 0


def stepped(spec):
    if not spec.step:
        pytest.skip(f"{spec.name} has no step adapter")
    return spec


def lineup(spec, k: int) -> list[str]:
    """Every built-in strategy but the search ones, seated in turn over the default table: the
    ``k``-th table of them (each preset seats the next ones, so the presets seat them all)."""
    names = [s.name for s in spec.strategies.values() if not s.search]
    n = spec.players[2]
    return [names[(k * n + i) % len(names)] for i in range(n)]


def check_records(spec, rec, n: int) -> None:
    """A run's records: the required columns and payouts, zero-sum payouts where declared, and
    only columns the game declares (the API adds a seat mask's NAME_p booleans), those it
    declares outright (not a family such as ``h{h}_pts_{s}``) all there."""
    assert set(REQUIRED_COLUMNS) <= set(rec.columns)
    pay = [f"payout_{p}" for p in range(n)]
    assert set(pay) <= set(rec.columns) and f"payout_{n}" not in rec.columns
    if spec.zero_sum:
        assert (rec[pay].sum(axis=1) == 0).all()
    assert "deal_id" in rec.columns
    for name in rec.columns.drop("deal_id"):          # (the runner's own column, which the built-ins describe too)
        col = find(spec.columns, name)
        if col is None:
            m = re.fullmatch(r"(.+)_[0-9]+", name)
            col = find(spec.columns, m[1]) if m else None
            assert col is not None and col.seat_mask, f"{spec.name}: column {name} is not declared"
    for col in spec.columns:
        if "{" not in col.name and not col.seat_mask:       # declared outright, not a family: always there
            assert col.name in rec.columns, f"{spec.name}: declared column {col.name} missing"


# ---- 1. the step API ---------------------------------------------------------------------------


@pytest.mark.parametrize("game,preset", PRESETS)
def test_step_api_random_games_end(game, preset):
    """Random games at the fewest and the most players: chance by its probabilities (summing to
    1), legal actions non-empty, ascending and in the action space; each game ends within the
    game's length, with returns in its utility range (zero-sum where the game says so)."""
    spec = stepped(get_game(game))
    lo, hi, _ = spec.players
    k = preset_index(spec, preset)
    for n in sorted({lo, hi}):
        g = new_game(game, n, preset, quick_options(spec))
        assert g.players == n
        rng = np.random.default_rng(1000 * k + n)
        for _ in range(STEP_GAMES):
            s = g.new_state()
            decisions = steps = 0
            while not s.is_terminal():
                steps += 1
                assert decisions <= g.max_game_length and steps <= 10 * g.max_game_length, \
                    f"{game} ({preset}, {n} players): no end after {decisions} decisions"
                if s.is_chance():
                    outs = s.chance_outcomes()
                    probs = np.array([p for _, p in outs])
                    assert len(outs) and (probs > 0).all() and abs(probs.sum() - 1) < 1e-9
                    s.apply(int(outs[rng.choice(len(outs), p=probs / probs.sum())][0]))
                    continue
                decisions += 1
                assert 0 <= s.current_player() < n
                legal = s.legal_actions()
                assert legal and legal == sorted(legal) and len(set(legal)) == len(legal)
                assert 0 <= legal[0] and legal[-1] < g.num_distinct_actions
                s.apply(int(legal[rng.integers(len(legal))]))
            returns = s.returns()
            assert len(returns) == n
            assert all(g.min_utility <= r <= g.max_utility for r in returns), returns
            if spec.zero_sum:
                assert sum(returns) == 0, returns


# ---- 2. OpenSpiel's own checks -----------------------------------------------------------------


@pytest.mark.parametrize("game,preset", PRESETS)
def test_openspiel_random_sim_test(game, preset):
    """OpenSpiel's checks (legal actions, chance outcomes, returns, clones, serialization) over
    random games of every preset, shortened by the game's quick options."""
    spec = stepped(get_game(game))
    g = bridged(spec, f"preset={preset}" if preset else "")
    import pyspiel
    zero = pyspiel.GameType.Utility.ZERO_SUM
    assert (g.get_type().utility == zero) == spec.zero_sum
    pyspiel.random_sim_test(g, num_sims=SIMS, serialize=True, verbose=False)


# ---- 3. the batch runner -----------------------------------------------------------------------


@pytest.mark.parametrize("game,preset", PRESETS)
def test_batch_records(game, preset):
    """A checked run of the built-in strategies (the search ones aside): the records every game
    gives, only declared columns, zero-sum payouts where declared; two workers and smaller shards,
    the same records."""
    spec = get_game(game)
    seats = lineup(spec, preset_index(spec, preset))
    one = cardsim.run(game, preset=preset, deals=DEALS, seed=5, check=True, strategies=seats, workers=1).records
    assert len(one) == DEALS
    check_records(spec, one, len(seats))
    two = cardsim.run(game, preset=preset, deals=DEALS, seed=5, check=True, strategies=seats, workers=2,
                      shard_size=DEALS // 3 + 1).records                  # (shards of other sizes too)
    assert one.equals(two)


BRIDGED = 4             # bridged games replayed against their batch records


@pytest.mark.parametrize("game", GAMES)
def test_a_bridged_game_is_the_batch_record(game):
    """Games played through the OpenSpiel bridge, chance fed the batch's outcomes
    (``StepState.batch_outcome``) and every seat's decision made by its built-in strategy on the
    record's play stream (``strategy_action``; the default table of built-ins, random ones among
    them, so the draws must come in the batch's order), end with the payouts of the batch record
    they replay (``batch_record``), the records' options being the bridge's (``first_dealer`` 0
    where the game has it)."""
    from cardsim.sim.registry import seat_arrays, seat_table
    from openspiel_helpers import play_like_the_batch
    spec = stepped(get_game(game))
    options = quick_options(spec)
    if hasattr(spec.options_cls(), "first_dealer"):
        options["first_dealer"] = "0"
    g = bridged(spec, *(["first_dealer=0"] if "first_dealer" in options else []))
    n = g.num_players()
    seats = lineup(spec, 0)[:n] + lineup(spec, 1)[:max(0, n - len(lineup(spec, 0)))]
    records = [g.new_initial_state().inner.batch_record(k) for k in range(BRIDGED)]
    seed = 13
    rec = cardsim.run(game, players=n, deals=max(records) + 1, seed=seed, strategies=seats, options=options,
                      workers=1).records
    sids, params = seat_arrays(spec, seat_table(spec, seats, n))
    for d in records:
        s = play_like_the_batch(g, seed, d, sids, params)
        assert s.returns() == [float(rec[f"payout_{p}"][d]) for p in range(n)], (game, d)


# ---- 4. resampling and ISMCTS ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_resample_keeps_the_information_and_ismcts_plays(game):
    """At every decision of a random game the player's resampled world keeps its information
    state, observation and legal actions (``resample_walk``; what else a game's worlds keep, its
    own test file checks); OpenSpiel's ISMCTS bot plays a game."""
    spec = stepped(get_game(game))
    g = bridged(spec)
    rng = np.random.default_rng(5)
    seen = []

    def check(s, r, p):
        assert r is not s and r.current_player() == p
        seen.append(p)
        return False
    assert resample_walk(g, 1, rng, check) == 0 and seen
    ismcts_plays(g, rng, simulations=ISMCTS_SIMULATIONS, zero_sum=spec.zero_sum)


@pytest.mark.parametrize("game", GAMES)
def test_views_hide_cards(game):
    """At every decision of random games (every preset's first at the most players), what a
    plug-in at the seat to act is given (``StepState.plugin_view``: the kernel's own view) and the
    seat's observation are the same in a world it cannot tell apart (``resample``: the cards it
    may not see dealt again), while in some of those worlds another seat sees something else (the
    hidden cards did move: the check has teeth)."""
    spec = stepped(get_game(game))
    n = spec.players[1]
    g = new_game(game, n, None, quick_options(spec))
    rng = np.random.default_rng(17)
    views = moved = 0
    for _ in range(STEP_GAMES):
        s = g.new_state()
        while not s.is_terminal():
            if s.is_chance():
                outs = s.chance_outcomes()
                probs = np.array([q for _, q in outs])
                s.apply(int(outs[rng.choice(len(outs), p=probs / probs.sum())][0]))
                continue
            p = s.current_player()
            r = s.resample(p, rng)
            assert r.observation_string(p) == s.observation_string(p)
            v = s.plugin_view(p)
            if v is not None:
                w = r.plugin_view(p)
                assert w is not None and np.array_equal(v, w), f"{game}: seat {p}'s view depends on hidden cards"
                views += 1
            moved += any(r.observation_string(q) != s.observation_string(q) for q in range(n) if q != p)
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    assert moved, f"{game}: resampling never moved a hidden card"
    if spec.plugin and not views:
        pytest.skip(f"{game}'s step adapter does not make the plug-in's view (StepState.plugin_view)")


@pytest.mark.parametrize("game", GAMES)
def test_action_values_value_every_legal_action(game):
    """``StepState.action_values`` (``cardsim play``'s hint: the critique's evaluation) at the
    first decisions with a choice of a random game: one value per legal action, in
    ``legal_actions`` order, finite, with a standard error and the worlds it was played in; the
    same seed gives the same values and the state is left as it was."""
    spec = stepped(get_game(game))
    g = new_game(game, spec.players[0], None, quick_options(spec))
    rng = np.random.default_rng(23)
    s, valued = g.new_state(), 0
    while not s.is_terminal() and valued < 2:
        if s.is_chance():
            outs = s.chance_outcomes()
            probs = np.array([q for _, q in outs])
            s.apply(int(outs[rng.choice(len(outs), p=probs / probs.sum())][0]))
            continue
        legal = s.legal_actions()
        if len(legal) > 1:
            before = s.information_state_string(s.current_player())
            vals = s.action_values(worlds=4, seed=2 + 2 * valued)     # keys above 2**63 among them
            if vals is not None:
                assert [v.action for v in vals] == legal, game
                assert all(np.isfinite(v.mean) and v.se >= 0 and v.worlds >= 1 for v in vals), (game, vals)
                assert s.action_values(worlds=4, seed=2 + 2 * valued) == vals, f"{game}: the same seed, other values"
                assert s.information_state_string(s.current_player()) == before and s.legal_actions() == legal
                valued += 1
        s.apply(int(legal[rng.integers(len(legal))]))
    if not valued:
        pytest.skip(f"{game}'s step adapter does not value actions (StepState.action_values)")


# ---- 5. plug-ins -------------------------------------------------------------------------------

PLUGIN = '''import numba

from cardsim.plugin import Strategy


@numba.njit
def first(view, legal, n, prm):
    return 0


first_legal = Strategy({game!r}, first, base={base!r}, help="the first legal action of every decision")
'''


@pytest.mark.parametrize("game", GAMES)
def test_a_plugin_taking_the_first_legal_action_plays(game, tmp_path):
    """A plug-in asked every decision, answering the first legal action, at every seat of a
    checked run."""
    spec = get_game(game)
    if not spec.plugin:
        pytest.skip(f"{game} takes no plug-ins")
    base = next(s.name for s in spec.strategies.values() if not s.search)
    path = tmp_path / f"first_{game}.py"
    path.write_text(PLUGIN.format(game=game, base=base))
    rec = cardsim.run(game, deals=DEALS, seed=3, check=True, strategies=[f"{path}:first_legal"], workers=1).records
    assert len(rec) == DEALS
    check_records(spec, rec, spec.players[2])


# ---- 6. bad input on the command line ----------------------------------------------------------

BAD = {
    "preset": lambda spec: (("--preset", "no_such_preset"), ("no_such_preset",)),
    "players": lambda spec: (("-p", spec.players[1] + 1), ("players", f"{spec.players[1] + 1}")),
    "strategy": lambda spec: (("--strategy", "no_such_strategy"), ("no_such_strategy",)),
    "option": lambda spec: (("-o", "no_such_option=1"), ("no_such_option",)),
}


@pytest.mark.parametrize("bad", list(BAD))
@pytest.mark.parametrize("game", GAMES)
def test_bad_command_line_is_one_error_line(game, bad):
    """``cardsim run`` with an unknown preset, too many players, an unknown strategy or an unknown
    option: one ``Error:`` line naming it, exit status 2."""
    args, words = BAD[bad](get_game(game))
    assert_usage_error(invoke("run", game, "-n", 1, "-q", *args), *words)


@pytest.mark.parametrize("game", GAMES)
def test_parameters_are_bound_to_their_kernel_slots_by_name(game):
    """A parameter that names its kernel slot (``ParamSpec.slot``) sits at that slot of the row
    its strategy sends (its index among the strategy's parameters, or, for a row built from the
    values such as the search's, where that row puts it); every parameter names its slot."""
    import importlib
    spec = get_game(game)
    try:
        kern = importlib.import_module(f"cardsim.kernels.{game}")
    except ModuleNotFoundError:
        pytest.skip("the game's kernels are not a cardsim.kernels package")
    from cardsim.kernels import search as KS
    for strat in spec.strategies.values():
        if not strat.params:
            continue
        for p in strat.params:
            assert p.slot, f"{game}: {strat.name}: {p.name} names no kernel slot"
        if strat.kernel_row is None:                # the values are the row
            for i, p in enumerate(strat.params):
                assert getattr(kern, p.slot) == i, \
                    f"{strat.name}: {p.name} is at {i}, {p.slot} = {getattr(kern, p.slot)}"
            continue
        # a row built from the values (the search's): each value lands at its named slot
        values = [float(p.lo if p.choices else min(p.hi, p.lo + 1 + i)) for i, p in enumerate(strat.params)]
        row = strat.kernel_row(values)
        for p, v in zip(strat.params, values):
            at = getattr(kern, p.slot) if hasattr(kern, p.slot) else getattr(KS, p.slot)
            if p.choices:                            # a choice is sent as what it names (the policy's strategy id)
                continue
            assert row[at] == v, f"{strat.name}: {p.name} = {v} is not at its slot {p.slot} ({at}): {row[:12]}"
