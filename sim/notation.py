"""Card notation for humans and tests: ``7C 10H QS AD`` (``JK`` = joker).

Ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` is accepted for 10), suits ``C D H S``
(the symbols ``♣ ♦ ♥ ♠`` are accepted too). Card ids follow ``kernels.cards``.
"""
from __future__ import annotations

import functools

from cardsim.kernels.cards import JOKER, RANK_NAMES, SUIT_NAMES

_SUIT_ALIASES = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_RANK_ALIASES = {name: i for i, name in enumerate(RANK_NAMES)}
_RANK_ALIASES["T"] = 9
_RANK_ALIASES["1"] = 0


def parse_card(text: str) -> int:
    """``"10H"`` -> card id. Raises ValueError naming the bad token."""
    t = text.strip().upper()
    if t == "JK":
        return JOKER
    if len(t) < 2 or t[-1] not in _SUIT_ALIASES or t[:-1] not in _RANK_ALIASES:
        raise ValueError(f"not a card: {text!r} (write e.g. 7C, 10H, QS, AD, JK)")
    return _SUIT_ALIASES[t[-1]] * 13 + _RANK_ALIASES[t[:-1]]


def parse(text: str) -> list[int]:
    """``"7C 10H QS"`` -> ``[6, 35, 50]`` (commas allowed as separators)."""
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


def parse_mask(text: str) -> int:
    """Cards in notation -> single-deck bitmask."""
    mask = 0
    for c in parse(text):
        if c == JOKER:
            raise ValueError("a joker has no place in a single-deck mask")
        mask |= 1 << c
    return mask


def fmt_card(card: int) -> str:
    card = int(card)
    if card == JOKER:
        return "JK"
    if not 0 <= card < 52:
        raise ValueError(f"not a card id: {card}")
    return RANK_NAMES[card % 13] + SUIT_NAMES[card // 13]


def fmt(cards) -> str:
    """Card ids -> ``"7C 10H QS"`` in the given order."""
    return " ".join(fmt_card(c) for c in cards)


def mask_cards(mask: int) -> list[int]:
    """Card ids of a bitmask, ordered by suit then rank."""
    mask = int(mask)
    return [c for c in range(52) if mask >> c & 1]


def fmt_mask(mask: int) -> str:
    """Bitmask -> notation, cards ordered by suit then rank (``-`` if empty)."""
    return _fmt_mask(int(mask))


@functools.lru_cache(maxsize=8192)
def _fmt_mask(mask: int) -> str:
    cards = mask_cards(mask)
    return fmt(cards) if cards else "-"


# ---- the 40-card Italian deck (Marafon, Trionfo: ids 10 * suit + strength, kernels.tricks) ----

@functools.lru_cache(maxsize=1)
def _names40() -> tuple[str, ...]:
    from cardsim.kernels.tricks import STRENGTH_NAMES, SUIT_NAMES40
    return tuple(STRENGTH_NAMES[c % 10] + SUIT_NAMES40[c // 10] for c in range(40))


# the order fmt40_mask writes a hand in: by suit, strongest first within a suit
_ORDER40 = tuple(c for s in range(4) for c in range(10 * s + 9, 10 * s - 1, -1))


def fmt40_card(card: int) -> str:
    card = int(card)
    if not 0 <= card < 40:
        raise ValueError(f"not a 40-card id: {card}")
    return _names40()[card]


def fmt40(cards) -> str:
    return " ".join(fmt40_card(c) for c in cards)


@functools.lru_cache(maxsize=8192)
def _fmt40_mask(mask: int) -> str:
    names = _names40()
    return " ".join(names[c] for c in _ORDER40 if mask >> c & 1) or "-"


def fmt40_mask(mask: int) -> str:
    """Mask -> notation by suit, strongest first within a suit (``-`` if empty)."""
    return _fmt40_mask(int(mask))
