"""Telefunken's rules array and contract tables written out independently of the product's
options (``TelefunkenOptions``): §3's rules, §4's contracts and the §17 presets Ecuador and
Bolivia, for the meld engine's tests and as a second source the options are checked against."""
from cardsim.kernels import melds as M

TELEFUNKEN_RULES = M.make_rules()

_TRIO, _PURE_TRIO = ("group", 3, False), ("group", 3, True)
_G4, _G5 = ("group", 4, False), ("group", 5, False)
TELEFUNKEN_CONTRACTS = M.make_contracts(
    [[_PURE_TRIO], [_TRIO, _TRIO], [_G4], [_G4, _G4], [_G5], [_G5, _G5], [_TRIO, ("run", 7, False)]])
ECUADOR_CONTRACTS = M.make_contracts(
    [[_PURE_TRIO], [_PURE_TRIO, _TRIO], [_G4], [_G4, _G4], [_G5], [_TRIO, ("run", 4, False)],
     [("run", 7, False)]],
    joker_limits={1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0, 7: 1})
BOLIVIA_CONTRACTS = TELEFUNKEN_CONTRACTS.copy()
BOLIVIA_CONTRACTS[7] = [0, 0, 0, 0, 1, 7, -1, 0, 0]       # Hand 7: one run of 7 or more
