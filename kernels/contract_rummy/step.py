"""Contract Rummy's step mode (issue 20): a turn played on from its start or from a snapshot
where it stopped (``step_turn``), the ``step_plugin`` that answers from a step-mode seat's
``SS_*`` row (or stops the turn at a question its script does not answer).
"""
from cardsim.kernels.jit import PLUG_SIG, lazy_cfunc, njit
from cardsim.kernels.contract_rummy.layout import SS_ANS, SS_LEN, SS_MODE, SS_POS, V_CARD, V_KIND, V_MELD
from cardsim.kernels.contract_rummy.actions import question_key
from cardsim.kernels.contract_rummy.turns import play_turn


# =============================================================================
# step mode (issue 20): a turn played on to its next stop
# =============================================================================
@njit(cache=True)
def step_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch):
    """The step API's step (``sim.games.contract_rummy.step``): the turn's phases from TPC
    (``play_turn``, as the batch plays them), from the turn's start or resumed from a snapshot
    (RS_ANS: the answer to its question, or the card dealt for its draw), with every seat a
    plug-in (``step_plugin``), the stock drawn from the feed (XSTEP). It runs until the turn
    ends, a question no answer is scripted for (the snapshot in ``vb``, SNAP the legal count)
    or a draw the feed has no card for (XNEED; the snapshot, SNAP -1)."""
    return play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch)


@njit(cache=True)
def passive(legal, n):
    """The index of the code 0 (no, not now, keep), else the first."""
    for i in range(n):
        if legal[i] == 0:
            return i
    return 0


def _step_answer(view, legal, n, prm):
    """The script's answer (its index in ``legal``) to the question in ``view``; -2 (no index:
    the turn stops there) when the seat's script has none (or names another question in exact
    mode). A resampled world (SS_MODE) answers a question its script does not name passively."""
    key = question_key(view[V_KIND], view[V_CARD], view[V_MELD])
    pos = int(prm[SS_POS])
    m = int(prm[SS_LEN])
    mode = int(prm[SS_MODE])
    j = pos
    while j < m:
        if int(prm[SS_ANS + 2 * j]) == key:
            code = prm[SS_ANS + 2 * j + 1]
            for i in range(n):
                if legal[i] == code:
                    prm[SS_POS] = j + 1
                    return i
            return -2
        if mode == 0:
            return -2
        j += 1
    if mode == 0 or (pos >= m and mode == 1):
        return -2
    return passive(legal, n)


step_plugin = lazy_cfunc(PLUG_SIG, _step_answer)
