"""Contract Rummy plug-ins for tests/contract_rummy/test_plugins_contract_rummy.py: ones that leave every
decision to their base, ones that answer an illegal index for one decision kind, and one that
decides every kind itself (the first legal code but a different choice from the built-ins)."""
import numba

from cardsim import contract_rummy as C
from cardsim.plugin import Strategy, param


@numba.njit
def pass_all(view, legal, n, prm):
    return -1


@numba.njit
def illegal(view, legal, n, prm):
    return n                       # one past the last legal index


@numba.njit
def last_code(view, legal, n, prm):
    # every kind decided here: the last legal code (take, volunteer, buy, a meld keeping the
    # highest card back, every joker, swap, the last meld a card fits, the highest card type)
    if view[C.V_KIND] == C.K_DISCARD and prm[0] > 0:
        return 0
    return n - 1


pass_greedy = Strategy("contract_rummy", pass_all, base="greedy")
pass_random = Strategy("contract_rummy", pass_all, base="random")
pass_fuzz = Strategy("contract_rummy", pass_all, base="fuzz")
pass_cautious = Strategy("contract_rummy", pass_all, base="cautious")
last = Strategy("contract_rummy", last_code, base="greedy",
                params=[param("low", 0, 0, 1, "1: discard the lowest card type instead", integer=True)])
for _k in range(C.N_KINDS):
    globals()[f"bad_{_k}"] = Strategy("contract_rummy", illegal, base="greedy", kinds=[_k])


@numba.njit
def illegal_if_offered(view, legal, n, prm):
    # an illegal answer only when K_MELD offers code prm[0] (3: any code 3 + c): shows it is offered
    for i in range(n):
        if legal[i] == prm[0] or (prm[0] == 3 and legal[i] >= 3):
            return n
    return -1


meld_offers = Strategy("contract_rummy", illegal_if_offered, base="greedy", kinds=[C.K_MELD],
                       params=[param("code", 2, 0, 60, "the K_MELD code looked for", integer=True)])
