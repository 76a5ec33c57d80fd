"""Contract odds for the rummy games: the chance that a random holding contains a contract,
and the answer for one given holding.

>>> holding_meets_contract("7C 7D 7H 2S 4S 9D JD QC KH AH 5C", hand=1)
(True, ['7C 7D 7H'])
"""
from __future__ import annotations

import numpy as np

from kernels import melds as M
from kernels.cards import JOKER
from kernels.odds import DOUBLE_DECK, contract_hits
from sim.errors import UsageError
from sim.notation import fmt, fmt_card, parse
from sim.stats import wilson

# game -> (contracts table, rules array, default number of cards)
ODDS_GAMES = {"telefunken": (M.TELEFUNKEN_CONTRACTS, M.TELEFUNKEN_RULES, 11)}


def _game(game: str):
    key = game.strip().lower()
    if key not in ODDS_GAMES:
        raise UsageError(f"contract odds exist for: {', '.join(ODDS_GAMES)} (got {game!r})")
    return ODDS_GAMES[key]


def _check_hand(contracts, hand: int) -> None:
    last = len(contracts) - 1
    if not 1 <= hand <= last:
        raise UsageError(f"--hand must be 1..{last} (got {hand})")


def contract_odds(game: str, hand: int, cards: int | None = None, samples: int = 1_000_000,
                  seed: int = 0) -> dict:
    """P(K random cards of the full deck contain the contract of ``hand``) with a Wilson 95%
    interval; K defaults to the dealt holding (11 for Telefunken)."""
    contracts, rules, default_k = _game(game)
    _check_hand(contracts, hand)
    k = default_k if cards is None else cards
    if not 1 <= k <= DOUBLE_DECK:
        raise UsageError(f"--cards must be 1..{DOUBLE_DECK} (got {k})")
    if samples < 1:
        raise UsageError(f"--samples must be >= 1 (got {samples})")
    if not 0 <= seed < 2 ** 63:
        raise UsageError(f"--seed must be in 0 .. 2**63-1 (got {seed})")
    hits = int(contract_hits(seed, samples, hand, k, contracts, rules))
    p, lo, hi = wilson(hits, samples)
    return {"game": game, "hand": hand, "cards": k, "samples": samples, "seed": seed, "hits": hits,
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
