"""Limits on run identities that both the command line and the file readers check: a seed and a
deal range (deal ids are int64). A bottom module: it imports only ``sim.errors``."""
from __future__ import annotations

from cardsim.sim.errors import UsageError

DEAL_LIMIT = 2 ** 63 - 1          # first_deal + deals: every deal id is an int64 below it


def check_seed(seed: int) -> None:
    """A run seed is in 0 .. 2**63-1 (UsageError naming the range); file readers use it too."""
    if seed < 0 or seed >= 2 ** 63:
        raise UsageError(f"--seed must be in 0 .. 2**63-1 (got {seed})")


def check_deal_range(first_deal: int, deals: int, what: str = "--deals") -> None:
    """Deal ids ``first_deal .. first_deal + deals - 1`` all fit an int64: first_deal >= 0,
    deals >= 0, first_deal + deals <= 2**63 - 1 (UsageError naming the limit)."""
    if deals < 0:
        raise UsageError(f"{what} must be >= 0 (got {deals})")
    if first_deal < 0:
        raise UsageError(f"--first-deal must be >= 0 (got {first_deal})")
    if first_deal + deals > DEAL_LIMIT:
        raise UsageError(f"--first-deal + {what} must be at most 2**63-1 = {DEAL_LIMIT:,} (deal ids are int64; "
                         f"got {first_deal:,} + {deals:,})")
