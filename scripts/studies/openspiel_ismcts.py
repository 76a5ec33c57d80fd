"""OpenSpiel's ISMCTS bot in a cardsim seat, through the bridge (issue 20): an external reference
for cardsim's ``search`` strategy.

    python scripts/studies/openspiel_ismcts.py [--game tonk|marafon] [--deals 200] [--seed 1]
                                       [--simulations 100] [--players 2] [--workers 1]
                                       [--out results/search/tonk_ismcts.md]

Default rules (Marafon: 4 seats, one game to 41 a match). On each deal (Marafon: match; the
batch's cards for seed and deal, dealt by seat 0) the candidate sits at seat ``deal mod players``
and `strong` at the others (Marafon: the partner too), who decide with cardsim's kernels on the
deal's play stream. Candidates, on the very same deals: OpenSpiel's ``ISMCTSBot``
(random-rollout evaluator, UCT c = 2, ``--simulations`` per move, determinized by the bridge's
``resample_from_infostate``; a decision with one legal action is played without a search),
cardsim's ``search`` (default budget) and ``strong``. Prints each one's mean payout with its 95 %
interval and the paired differences. ``--workers`` plays deals in that many processes (the
result does not depend on it: each deal's bot is seeded by the deal).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import cardsim.openspiel  # noqa: E402,F401
from cardsim.kernels import marafon as M  # noqa: E402
from cardsim.kernels import tonk as K  # noqa: E402
from cardsim.kernels.jit import no_plugin  # noqa: E402
from cardsim.kernels.rng import STREAM_PLAY, seed_stream  # noqa: E402
from cardsim.kernels.search import SP_POLICY, SP_PRM  # noqa: E402
from cardsim.sim.games.marafon import step as MS  # noqa: E402
from cardsim.sim.games.tonk import step as TS  # noqa: E402
from cardsim.sim.registry import get_game, seat_arrays, seat_table  # noqa: E402


def play_tonk(game, seed, d, seat, who, bot, strong, search) -> float:
    """The payout of ``seat`` played by ``who`` (ismcts, search, strong) against strong."""
    opts = game.step.opts
    deck = TS.batch_deck(seed, d, opts)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    gplay = np.zeros(2, np.uint64)
    seed_stream(gplay, seed, d, STREAM_PLAY)
    s = game.new_initial_state()
    dealt = 0
    while not s.is_terminal():
        if s.is_chance_node():
            inner = s.inner
            if inner._deck_pending():
                card = deck[dealt]
                dealt += 1
            else:
                card = int(inner.st[K.DECK + int(inner.st[K.STOCK_PTR])])
            s.apply_action(card)
            continue
        p = s.current_player()
        st = s.inner.st
        k = K.legal_actions(st, opts, acts)
        if p == seat and who == "ismcts":
            s.apply_action(int(bot.step(s)))
            continue
        if p == seat and who == "search":
            i = K.search_pick(st, opts, acts, k, search, gplay)
        else:
            i = K.choose(st, opts, acts, k, strong[0], strong[1], gplay)
        s.apply_action(TS.action_id(int(acts[i])))
    return s.returns()[seat]


def play_marafon(game, seed, d, seat, who, bot, strong, search) -> float:
    """The match result of ``seat``'s side, ``seat`` played by ``who`` against strong (its
    partner strong too); the decisions as the batch kernel takes them (``play_match``)."""
    o = game.step.opts
    gplay = np.zeros(2, np.uint64)
    seed_stream(gplay, seed, d, STREAM_PLAY)
    s = game.new_initial_state()
    while not s.is_terminal():
        inner = s.inner
        st = inner.st
        if s.is_chance_node():
            s.apply_action(inner.batch_outcome(seed, d))
            continue
        p = s.current_player()
        legal = s.legal_actions()
        if p == seat and who == "ismcts":
            s.apply_action(int(bot.step(s)) if len(legal) > 1 else legal[0])
            continue
        if p != seat or who == "strong":
            a = inner.strategy_action(strong[0], strong[1], gplay)
        elif inner.phase == "trump":
            a = MS.A_TRUMP + int(M.search_trump(st, o, p, search, gplay, no_plugin))
        elif inner.phase == "card":
            a = int(M.search_card(st, o, p, sum(1 << c for c in legal), search, gplay, no_plugin))
        else:                                   # declarations and claims: the search's rollout policy
            a = inner.strategy_action(int(search[SP_POLICY]), search[SP_PRM:], gplay)
        s.apply_action(a)
    return s.returns()[seat]


PLAY = {"tonk": play_tonk, "marafon": play_marafon}
UNIT = {"tonk": "chips per deal", "marafon": "match result per match (+1 won, -1 lost)"}
_JOB = {}


def _setup(game_name, n, seed, simulations):
    game = pyspiel.load_game(f"cardsim_{game_name}(players={n},first_dealer=0)" if game_name == "tonk"
                             else f"cardsim_{game_name}(first_dealer=0)")
    spec = get_game(game_name)
    sids, params = seat_arrays(spec, seat_table(spec, ["strong", "search"] + ["strong"] * (n - 2), n))
    _JOB.update(game=game, name=game_name, n=n, seed=seed, sims=simulations,
                strong=(int(sids[0]), params[0]), search=params[1])


def _deal(d):
    """Deal ``d`` with each candidate: (results, seconds) keyed by candidate."""
    j = _JOB
    game = j["game"]
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(j["seed"] + d)), 2.0,
                           j["sims"], random_state=np.random.RandomState(j["seed"] + d),
                           allow_inconsistent_action_sets=True)
    out, secs = {}, {}
    for who in ("ismcts", "search", "strong"):
        t = time.perf_counter()
        out[who] = PLAY[j["name"]](game, j["seed"], d, d % j["n"], who, bot, j["strong"], j["search"])
        secs[who] = time.perf_counter() - t
    return out, secs


def ci(x) -> str:
    x = np.asarray(x, float)
    h = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    return f"{x.mean():+.3f} (±{h:.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(PLAY), default="tonk")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--players", type=int, default=2, help="Tonk: 2 to 5 (Marafon: always 4)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    n = a.players if a.game == "tonk" else 4
    setup = (a.game, n, a.seed, a.simulations)
    if a.workers > 1:
        with ProcessPoolExecutor(a.workers, initializer=_setup, initargs=setup) as pool:
            done = list(pool.map(_deal, range(a.deals)))
    else:
        _setup(*setup)
        done = [_deal(d) for d in range(a.deals)]
    res = {w: [r[w] for r, _ in done] for w in ("ismcts", "search", "strong")}
    secs = {w: sum(s[w] for _, s in done) for w in res}
    title = {"tonk": "Tonk", "marafon": "Marafon"}[a.game]
    unit, what = UNIT[a.game], "deal" if a.game == "tonk" else "match"
    whats = what + ("s" if a.game == "tonk" else "es")
    partner = "" if a.game == "tonk" else " (its partner and both opponents)"
    lines = [f"# {title}: OpenSpiel's ISMCTS in a seat against `strong` ({n} players)", "",
             f"`python scripts/studies/openspiel_ismcts.py --game {a.game} --deals {a.deals} --seed {a.seed} "
             f"--simulations {a.simulations}" + (f" --players {n}`" if a.game == "tonk" else "`"), "",
             f"{a.deals} {whats} (the batch's cards of seed {a.seed}), "
             f"the candidate at seat {what} mod {n}, `strong` at the others{partner}; ISMCTS: "
             "`open_spiel.python.algorithms.ismcts.ISMCTSBot`, random-rollout evaluator, "
             f"UCT c = 2, {a.simulations} simulations per move (none where one action is legal). Mean result "
             f"of the candidate's seat ({unit}, 95 % interval), the same {whats} for every candidate:", "",
             f"| candidate | mean result | seconds per {what} |", "|---|---:|---:|"]
    lines += [f"| {w} | {ci(v)} | {secs[w] / a.deals:.3f} |" for w, v in res.items()]
    lines += ["", f"| paired difference | {unit} |", "|---|---:|",
              f"| ismcts − search | {ci(np.subtract(res['ismcts'], res['search']))} |",
              f"| ismcts − strong | {ci(np.subtract(res['ismcts'], res['strong']))} |",
              f"| search − strong | {ci(np.subtract(res['search'], res['strong']))} |", ""]
    text = "\n".join(lines)
    print(text)
    if a.out:
        Path(a.out).write_text(text)


if __name__ == "__main__":
    main()
