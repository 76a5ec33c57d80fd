"""Contract odds for the rummy games: the chance that a random holding contains a contract,
and the answer for one given holding.

A game that has them names its odds module in its ``GameSpec.odds`` (the module's ``ODDS`` is
``{"contract": fn, "holding": fn}``, built on the sampling helpers here); ``contract_odds`` and
``holding_meets_contract`` find them through the registry.

>>> holding_meets_contract("7C 7D 7H 2S 4S 9D JD QC KH AH 5C", hand=1, game="telefunken")
(True, ['7C 7D 7H'])
"""
from __future__ import annotations

import time

import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import JOKER
from cardsim.kernels.odds import DOUBLE_DECK, contract_hits
from cardsim.kernels.rng import GOLDEN
from cardsim.sim.errors import UsageError
from cardsim.sim.notation import fmt, fmt_card, parse
from cardsim.sim.stats import wilson

MAX_SAMPLES = 10 ** 10                      # a run of hours on a few cores; the kernels count in int64
PIECE_S = 0.5                               # with a progress callback: pieces of about this long
FIRST_PIECE = 1 << 14                       # samples in the first piece (then sized by the rate seen)

_M64 = (1 << 64) - 1
_GOLDEN = int(GOLDEN)                       # kernels.rng: the Weyl step (and, below, the mixer's constants)
_SEED_XOR = 0x243F6A8885A308D3
_C1, _C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * _C1) & _M64
    z = ((z ^ (z >> 27)) * _C2) & _M64
    return z ^ (z >> 31)


def _unxorshift(y: int, k: int) -> int:
    x, shift = y, k
    while shift < 64:
        x ^= y >> shift
        shift += k
    return x


def _unmix64(z: int) -> int:
    z = _unxorshift(z, 31)
    z = (z * pow(_C2, -1, 1 << 64)) & _M64
    z = _unxorshift(z, 27)
    z = (z * pow(_C1, -1, 1 << 64)) & _M64
    return _unxorshift(z, 30)


def shifted_seed(seed: int, first: int) -> int:
    """The seed whose sample ``s`` is sample ``first + s`` of ``seed`` (as a signed 64-bit
    number, the kernels' argument type). Sample s of a run is keyed by
    ``mix64(mix64(seed ^ X) + s * GOLDEN)`` (``kernels.rng.stream_key``) and mix64 is a
    bijection, so moving the key by ``first * GOLDEN`` is moving the seed: a run played in
    pieces draws exactly the holdings of the one call."""
    key = (_mix64((seed & _M64) ^ _SEED_XOR) + first * _GOLDEN) & _M64
    out = _unmix64(key) ^ _SEED_XOR
    return out - (1 << 64) if out >= 1 << 63 else out


def count_hits(kernel, seed: int, samples: int, args: tuple, progress) -> int:
    """``kernel(seed, samples, *args)``: in one call, or, with a ``progress(done, total)``
    callback, in pieces of about PIECE_S seconds (the same samples, the same count)."""
    if progress is None:
        return int(kernel(seed, samples, *args))
    hits = done = 0
    size = FIRST_PIECE
    progress(0, samples)
    while done < samples:
        count = min(size, samples - done)
        t = time.perf_counter()
        hits += int(kernel(shifted_seed(seed, done) if done else seed, count, *args))
        dt = time.perf_counter() - t
        done += count
        progress(done, samples)
        size = max(FIRST_PIECE, int(count / dt * PIECE_S)) if dt > 0 else 2 * size
    return hits


def _table(game: str) -> dict:
    """The game's ``ODDS`` (empty: none)."""
    import importlib

    from cardsim.sim.registry import get_game
    module = get_game(game).odds
    return importlib.import_module(module).ODDS if module else {}


def odds_games(what: str = "contract") -> list[str]:
    """The games with contract odds (``what``: "contract", or "holding" for a given holding)."""
    from cardsim.sim.registry import games
    return [name for name, g in games().items() if g.odds and what in _table(name)]


def _odds(game: str, what: str):
    from cardsim.sim.registry import game_names
    key = game.strip().lower() if isinstance(game, str) else game
    fn = _table(key).get(what) if key in game_names() else None
    if fn is None:
        raise UsageError(f"contract odds exist for: {', '.join(odds_games(what))} (got {game!r})")
    return fn


def contract_odds(game: str, hand: int, cards: int | None = None, samples: int = 1_000_000,
                  seed: int = 0, players: int | None = None, preset: str | None = None, progress=None) -> dict:
    """P(K random cards contain the contract of ``hand``) with a Wilson 95% interval, as the
    game defines it (``ODDS["contract"]`` of the module its ``GameSpec.odds`` names: Telefunken's
    K defaults to the dealt 11 cards of the full double deck; Contract Rummy's deck is its
    ``preset``'s for ``players``).
    ``progress(done, total)``: the samples are drawn in pieces and reported (same result)."""
    return _odds(game, "contract")(hand, cards, samples, seed, players, preset, progress)


def holding_meets_contract(holding: str, hand: int, game: str) -> tuple[bool, list[str]]:
    """Does this holding (card notation, e.g. ``"7C 7D 7H JK ..."``) contain the contract of
    ``hand`` of ``game``? Returns (answer, the melds of one way to lay it, in notation)."""
    return _odds(game, "holding")(holding, hand)


def check_run_args(samples: int, seed: int) -> None:
    if not 1 <= samples <= MAX_SAMPLES:
        raise UsageError(f"--samples must be >= 1 and <= {MAX_SAMPLES:,} (got {samples:,})")
    if not 0 <= seed < 2 ** 63:
        raise UsageError(f"--seed must be in 0 .. 2**63-1 (got {seed})")


def table_odds(game: str, contracts, rules, default_k: int, hand: int, cards: int | None, samples: int,
               seed: int, progress) -> dict:
    """The odds of a double-deck contracts table (``kernels.melds``): K cards of the 108."""
    _check_hand(contracts, hand)
    k = default_k if cards is None else cards
    if not 1 <= k <= DOUBLE_DECK:
        raise UsageError(f"--cards must be 1..{DOUBLE_DECK} (got {k})")
    check_run_args(samples, seed)
    hits = count_hits(contract_hits, seed, samples, (hand, k, contracts, rules), progress)
    p, lo, hi = wilson(hits, samples)
    return {"game": game, "hand": hand, "cards": k, "samples": samples, "seed": seed, "hits": hits,
            "probability": p, "lo": lo, "hi": hi}


def _check_hand(contracts, hand: int) -> None:
    """``hand`` names a hand of the contracts table (rows 1.. up to the first empty one)."""
    last = 0
    while last + 1 < min(len(contracts), M.MAX_HANDS + 1) and \
            contracts[last + 1, M.C_GROUPS] + contracts[last + 1, M.C_RUNS] > 0:
        last += 1
    if not 1 <= hand <= last:
        raise UsageError(f"--hand must be 1..{last} (got {hand})")


def table_holding(contracts, rules, holding: str, hand: int) -> tuple[bool, list[str]]:
    """Whether a double-deck holding holds ``hand``'s contract of the table, and one way to lay it."""
    _check_hand(contracts, hand)
    p1 = p2 = 0
    jokers = 0
    for c in parse(holding):
        if c == JOKER:
            jokers += 1
        elif (p2 >> c) & 1:
            raise UsageError(f"{fmt_card(c)} appears more than twice; a double deck has two of each card")
        elif (p1 >> c) & 1:
            p2 |= 1 << c
        else:
            p1 |= 1 << c
    if jokers > 4:
        raise UsageError("a double deck has only 4 jokers")
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), dtype=np.int64)
    ok = bool(M.find_contract(np.int64(p1), np.int64(p2), jokers, hand, contracts, rules, out))
    return ok, [format_meld(row) for row in out if row[M.M_KIND] != M.MK_NONE] if ok else []


def format_meld(row) -> str:
    """A meld row in notation; a run lists its cards low to high with ``JK(card)`` for a joker."""
    if row[M.M_KIND] == M.MK_GROUP:
        cards = [c for c in range(52) if (int(row[M.M_P1]) >> c) & 1]
        cards += [c for c in range(52) if (int(row[M.M_P2]) >> c) & 1]
        return fmt(sorted(cards, key=lambda c: (c // 13, c))) + " JK" * int(row[M.M_JOKERS])
    suit = int(row[M.M_KEY])
    parts = []
    for pos in range(int(row[M.M_LO]), int(row[M.M_HI]) + 1):
        card = suit * 13 + (pos - 1) % 13
        parts.append(f"JK({fmt_card(card)})" if (int(row[M.M_JPOS]) >> pos) & 1 else fmt_card(card))
    return " ".join(parts)
