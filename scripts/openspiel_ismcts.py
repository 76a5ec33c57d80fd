"""OpenSpiel's ISMCTS bot in a cardsim seat, through the bridge (issue 20): an external reference
for cardsim's ``search`` strategy.

    python scripts/openspiel_ismcts.py [--deals 200] [--seed 1] [--simulations 100] [--players 2]
                                       [--out results/search/tonk_ismcts.md]

Tonk, default rules. On each deal (the batch's cards for seed and deal, dealt by seat 0) the
candidate sits at seat ``deal mod players`` and `strong` at the others, who decide with cardsim's
kernels on the deal's play stream. Candidates, on the very same deals: OpenSpiel's
``ISMCTSBot`` (random-rollout evaluator, UCT c = 2, ``--simulations`` per move, determinized by
the bridge's ``resample_from_infostate``), cardsim's ``search`` (default budget) and ``strong``.
Prints each one's mean payout with its 95 % interval and the paired differences.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import cardsim.openspiel  # noqa: E402,F401
from cardsim.kernels import tonk as K  # noqa: E402
from cardsim.kernels.rng import STREAM_PLAY, seed_stream  # noqa: E402
from cardsim.sim.games.tonk import GAME  # noqa: E402
from cardsim.sim.games.tonk_step import action_id, batch_deck  # noqa: E402
from cardsim.sim.registry import seat_arrays, seat_table  # noqa: E402


def play(game, deck, seed, d, seat, who, bot, strong, search) -> float:
    """The payout of ``seat`` played by ``who`` (ismcts, search, strong) against strong."""
    opts = game.step.opts
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
        s.apply_action(action_id(int(acts[i])))
    return s.returns()[seat]


def ci(x) -> str:
    x = np.asarray(x, float)
    h = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    return f"{x.mean():+.3f} (±{h:.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    n = a.players
    game = pyspiel.load_game(f"cardsim_tonk(players={n},first_dealer=0)")
    sids, params = seat_arrays(GAME, seat_table(GAME, ["strong", "search"], 2))
    strong = (int(sids[0]), params[0])
    search = params[1]
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(a.seed)), 2.0,
                           a.simulations, random_state=np.random.RandomState(a.seed),
                           allow_inconsistent_action_sets=True)
    res = {w: [] for w in ("ismcts", "search", "strong")}
    secs = {w: 0.0 for w in res}
    for d in range(a.deals):
        deck = batch_deck(a.seed, d, game.step.opts)
        for who in res:
            t = time.perf_counter()
            res[who].append(play(game, deck, a.seed, d, d % n, who, bot, strong, search))
            secs[who] += time.perf_counter() - t
    lines = [f"# Tonk: OpenSpiel's ISMCTS in a seat against `strong` ({n} players)", "",
             f"`python scripts/openspiel_ismcts.py --deals {a.deals} --seed {a.seed} --simulations {a.simulations} "
             f"--players {n}`", "",
             f"{a.deals} deals (the batch's cards of seed {a.seed}), the candidate at seat deal mod {n}, `strong` "
             f"at the others; ISMCTS: `open_spiel.python.algorithms.ismcts.ISMCTSBot`, random-rollout evaluator, "
             f"UCT c = 2, {a.simulations} simulations per move. Mean payout of the candidate's seat (chips per "
             "deal, 95 % interval), the same deals for every candidate:", "",
             "| candidate | mean payout | seconds per deal |", "|---|---:|---:|"]
    lines += [f"| {w} | {ci(v)} | {secs[w] / a.deals:.3f} |" for w, v in res.items()]
    lines += ["", "| paired difference | chips per deal |", "|---|---:|",
              f"| ismcts − search | {ci(np.subtract(res['ismcts'], res['search']))} |",
              f"| ismcts − strong | {ci(np.subtract(res['ismcts'], res['strong']))} |",
              f"| search − strong | {ci(np.subtract(res['search'], res['strong']))} |", ""]
    text = "\n".join(lines)
    print(text)
    if a.out:
        Path(a.out).write_text(text)


if __name__ == "__main__":
    main()
