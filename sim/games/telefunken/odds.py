"""Telefunken's contract odds (``cardsim odds telefunken``; ``GameSpec.odds``): the chance that K
random cards of the double deck hold a hand's contract under the default rules (§3, §4; hand 7: a group of exactly 3 and a
run of 7 or more, going out not needed), and whether one given holding does.

>>> holding_meets_contract("7C 7D 7H 2S 4S 9D JD QC KH AH 5C", hand=1)
(True, ['7C 7D 7H'])
"""
from __future__ import annotations

from cardsim.sim.errors import UsageError
from cardsim.sim.games.telefunken.options import TelefunkenOptions
from cardsim.sim.odds import table_holding, table_odds

DEALT = 11                              # cards dealt to a seat: K when not given


def contract_odds(hand: int, cards: int | None = None, samples: int = 1_000_000, seed: int = 0,
                  players: int | None = None, preset: str | None = None, progress=None) -> dict:
    """P(K random cards of the full double deck hold ``hand``'s contract), Wilson 95% interval."""
    if players is not None or preset is not None:
        raise UsageError("--players and --preset do not apply to telefunken's odds (its deck is one)")
    o = TelefunkenOptions()
    return table_odds("telefunken", o.contract_table(), o.rules_array(), DEALT, hand, cards, samples, seed, progress)


def holding_meets_contract(holding: str, hand: int) -> tuple[bool, list[str]]:
    """Does this holding (``"7C 7D 7H JK ..."``) hold ``hand``'s contract? (answer, one way to lay it)"""
    o = TelefunkenOptions()
    return table_holding(o.contract_table(), o.rules_array(), holding, hand)


ODDS = {"contract": contract_odds, "holding": holding_meets_contract}
