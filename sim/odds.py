"""Contract odds for the rummy games: the chance that a random holding contains a contract,
and the answer for one given holding.

>>> holding_meets_contract("7C 7D 7H 2S 4S 9D JD QC KH AH 5C", hand=1)
(True, ['7C 7D 7H'])
"""
from __future__ import annotations

import time

import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import JOKER
from cardsim.kernels.odds import DOUBLE_DECK, contract_hits, float_contract_hits
from cardsim.kernels.rng import GOLDEN
from cardsim.sim.errors import UsageError
from cardsim.sim.notation import fmt, fmt_card, parse
from cardsim.sim.stats import wilson

# game -> (contracts table, rules array, default number of cards)
ODDS_GAMES = {"telefunken": (M.TELEFUNKEN_CONTRACTS, M.TELEFUNKEN_RULES, 11)}
FLOAT_ODDS_GAMES = ("contract_rummy",)      # floating-joker contracts: float_contract_odds
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


def _count_hits(kernel, seed: int, samples: int, args: tuple, progress) -> int:
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


def _game(game: str):
    key = game.strip().lower()
    if key not in ODDS_GAMES:
        raise UsageError(f"contract odds exist for: {', '.join((*ODDS_GAMES, *FLOAT_ODDS_GAMES))} "
                         f"(got {game!r})")
    return ODDS_GAMES[key]


def _check_hand(contracts, hand: int) -> None:
    """``hand`` names a hand of the contracts table (rows 1.. up to the first empty one)."""
    last = 0
    while last + 1 < min(len(contracts), M.MAX_HANDS + 1) and \
            contracts[last + 1, M.C_GROUPS] + contracts[last + 1, M.C_RUNS] > 0:
        last += 1
    if not 1 <= hand <= last:
        raise UsageError(f"--hand must be 1..{last} (got {hand})")


def contract_odds(game: str, hand: int, cards: int | None = None, samples: int = 1_000_000,
                  seed: int = 0, players: int | None = None, preset: str | None = None, progress=None) -> dict:
    """P(K random cards of the full deck contain the contract of ``hand``) with a Wilson 95%
    interval; K defaults to the dealt holding (11 for Telefunken). Contract Rummy: the deck
    of ``preset`` (default ``contract``) for ``players`` (default 4), K = the deal's hand size.
    ``progress(done, total)``: the samples are drawn in pieces and reported (same result)."""
    if game.strip().lower() == "contract_rummy":
        return float_contract_odds(hand, cards, samples, seed, players, preset, progress)
    if players is not None or preset is not None:
        raise UsageError("--players and --preset apply to contract_rummy only")
    contracts, rules, default_k = _game(game)
    _check_hand(contracts, hand)
    k = default_k if cards is None else cards
    if not 1 <= k <= DOUBLE_DECK:
        raise UsageError(f"--cards must be 1..{DOUBLE_DECK} (got {k})")
    _check_run_args(samples, seed)
    hits = _count_hits(contract_hits, seed, samples, (hand, k, contracts, rules), progress)
    p, lo, hi = wilson(hits, samples)
    return {"game": game, "hand": hand, "cards": k, "samples": samples, "seed": seed, "hits": hits,
            "probability": p, "lo": lo, "hi": hi}


def _check_run_args(samples: int, seed: int) -> None:
    if not 1 <= samples <= MAX_SAMPLES:
        raise UsageError(f"--samples must be >= 1 and <= {MAX_SAMPLES:,} (got {samples:,})")
    if not 0 <= seed < 2 ** 63:
        raise UsageError(f"--seed must be in 0 .. 2**63-1 (got {seed})")


def float_contract_odds(deal: int, cards: int | None = None, samples: int = 1_000_000, seed: int = 0,
                        players: int | None = None, preset: str | None = None, progress=None) -> dict:
    """Contract Rummy: P(K random cards of the preset's pack for ``players`` hold deal
    ``deal``'s contract) with a Wilson 95% interval. The contract is the first meld of §6 with
    the preset's sizes (CONTRACT/LIVERPOOL: sets of exactly 3, runs of exactly 4; deal 7 =
    three runs of all K cards, going out); K defaults to the deal's hand size (10 or 12)."""
    from cardsim.sim.games.contract_rummy import PRESETS, ContractRummyOptions
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
    _check_run_args(samples, seed)
    spec = opts.contract_table()[deal]
    hits = _count_hits(float_contract_hits, seed, samples, (k, pack, spec, opts.rules_array()), progress)
    p, lo, hi = wilson(hits, samples)
    return {"game": "contract_rummy", "hand": deal, "deal": deal, "players": n, "preset": name,
            "pack": len(pack), "cards": k, "samples": samples, "seed": seed, "hits": hits,
            "probability": p, "lo": lo, "hi": hi}


def holding_meets_contract(holding: str, hand: int, game: str = "telefunken") -> tuple[bool, list[str]]:
    """Does this holding (card notation, e.g. ``"7C 7D 7H JK ..."``) contain the contract of
    ``hand``? Returns (answer, the melds of one way to lay it, in notation)."""
    contracts, rules, _ = _game(game)
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
    return ok, [format_meld(row) for row in out if row[M.M_KIND] != M.K_NONE] if ok else []


def format_meld(row) -> str:
    """A meld row in notation; a run lists its cards low to high with ``JK(card)`` for a joker."""
    if row[M.M_KIND] == M.K_GROUP:
        cards = [c for c in range(52) if (int(row[M.M_P1]) >> c) & 1]
        cards += [c for c in range(52) if (int(row[M.M_P2]) >> c) & 1]
        return fmt(sorted(cards, key=lambda c: (c // 13, c))) + " JK" * int(row[M.M_JOKERS])
    suit = int(row[M.M_KEY])
    parts = []
    for pos in range(int(row[M.M_LO]), int(row[M.M_HI]) + 1):
        card = suit * 13 + (pos - 1) % 13
        parts.append(f"JK({fmt_card(card)})" if (int(row[M.M_JPOS]) >> pos) & 1 else fmt_card(card))
    return " ".join(parts)
