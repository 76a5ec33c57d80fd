"""Contract Rummy's contract odds (``cardsim odds contract_rummy --deal D --players N --preset P``;
``GameSpec.odds``): the chance that K random cards of the preset's pack for N players hold deal
D's contract, the first meld of §6 with the preset's sizes (contract/liverpool: sets of exactly
3, runs of exactly 4; deal 7 = three runs of all K cards, going out); K defaults to the deal's
hand size (10 or 12).
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels.cards import JOKER
from cardsim.kernels.odds import float_contract_hits
from cardsim.sim.errors import UsageError
from cardsim.sim.games.contract_rummy.options import PRESETS, ContractRummyOptions
from cardsim.sim.odds import check_run_args, count_hits
from cardsim.sim.stats import wilson


def contract_odds(deal: int, cards: int | None = None, samples: int = 1_000_000, seed: int = 0,
                  players: int | None = None, preset: str | None = None, progress=None) -> dict:
    """P(K random cards of the preset's pack for ``players`` hold deal ``deal``'s contract) with a
    Wilson 95% interval."""
    name = (preset or "contract").strip().lower()
    if name not in PRESETS:
        raise UsageError(f"unknown preset {preset!r} for contract_rummy; presets: {', '.join(PRESETS)}")
    n = 4 if players is None else players
    if not 3 <= n <= 5:
        raise UsageError(f"--players must be 3..5 (got {n})")
    if not 1 <= deal <= 7:
        raise UsageError(f"--deal must be 1..7 (got {deal})")
    opts = ContractRummyOptions(**PRESETS[name])
    pack = np.array([c for c in range(52) for _ in range(opts.decks(n))] + [JOKER] * opts.jokers(n), np.int64)
    k = opts.hand_sizes[deal - 1] if cards is None else cards
    if not 1 <= k <= len(pack):
        raise UsageError(f"--cards must be 1..{len(pack)} (got {k})")
    check_run_args(samples, seed)
    spec = opts.contract_table()[deal]
    hits = count_hits(float_contract_hits, seed, samples, (k, pack, spec, opts.rules_array()), progress)
    p, lo, hi = wilson(hits, samples)
    return {"game": "contract_rummy", "hand": deal, "deal": deal, "players": n, "preset": name,
            "pack": len(pack), "cards": k, "samples": samples, "seed": seed, "hits": hits,
            "probability": p, "lo": lo, "hi": hi}


ODDS = {"contract": contract_odds}
