"""The declaration and the claim windows (§A5, §A8): each seat's answer (``claim_choice``,
``declare_choice``: its plug-in's where its kinds ask, a search seat's policy, else its built-in's)
and the windows that ask them in turn (``claim_window``, ``declare_step``), shared by the play
loop, the search's rollouts and the critique."""
import numpy as np

from cardsim.kernels.jit import njit
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.kernels.marafon.layout import E_PLUGIN, K_CLAIM, K_DECLARE, N_PLAYERS, O_AUTO_DECLARE, PLUGIN, S_SEARCH
from cardsim.kernels.marafon.rules import declarable, declare, resolve_claim, window_opens
from cardsim.kernels.marafon.view import asks, plugin_decide
from cardsim.kernels.marafon.strategies import wants_claim, wants_declare


@njit(cache=True, inline='always')
def claim_window(st, opts, first, sids, params, gplay, trace, plug, plugged):
    """Ask the seats from ``first`` anticlockwise; the first claim ends the game. Returns
    E_PLUGIN for a plug-in's illegal answer, else 0. ``plugged``: a constant, False when no
    seat at the table is a plug-in (``play_out``: the plug-in branches compile away)."""
    if not window_opens(st, opts):
        return 0
    for k in range(N_PLAYERS):
        p = (first + k) & 3
        i = claim_choice(st, opts, p, sids, params, gplay, plug, plugged)
        if i == -2:
            return E_PLUGIN
        if i:
            resolve_claim(st, opts, p, trace)
            return 0
    return 0


@njit(cache=True, inline='always')
def claim_choice(st, opts, p, sids, params, gplay, plug, plugged):
    """Seat p's answer at a claim window: 1 claim, 0 not, -2 a plug-in's illegal answer (its
    plug-in's K_CLAIM where its kinds ask, else its built-in's; a search seat as its policy)."""
    sid, i = sids[p], -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, p, K_CLAIM):
            i = plugin_decide(st, opts, p, K_CLAIM, 0, plug, params)
        if i == -2:
            return -2
    if i < 0:
        off = 0
        if plugged and sid == S_SEARCH:          # a search seat claims as its rollout policy
            sid = np.int64(params[p, SP_POLICY])
            off = SP_PRM
        i = 1 if wants_claim(st, opts, p, sid, params[p, off:], gplay) else 0
    return i


@njit(cache=True, inline='always')
def declare_step(st, opts, p, sids, params, gplay, trace, plug, plugged):
    """Seat p's marafona (trick 1, its turn), then a claim window; returns E_PLUGIN or 0."""
    c = declarable(st, opts, p)
    if c == 0:
        return 0
    if opts[O_AUTO_DECLARE] == 0:
        i = declare_choice(st, opts, p, sids, params, gplay, plug, plugged)
        if i == -2:
            return E_PLUGIN
        if i == 0:
            return 0
    declare(st, p, c, trace)
    return claim_window(st, opts, p, sids, params, gplay, trace, plug, plugged)


@njit(cache=True, inline='always')
def declare_choice(st, opts, p, sids, params, gplay, plug, plugged):
    """Seat p's optional marafona (``marafona_auto_declare`` false): 1 declare, 0 not, -2 a
    plug-in's illegal answer (its plug-in's K_DECLARE where asked, else its built-in's; a
    search seat as its policy)."""
    sid, i = sids[p], -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, p, K_DECLARE):
            i = plugin_decide(st, opts, p, K_DECLARE, 0, plug, params)
        if i == -2:
            return -2
    if i < 0:
        if plugged and sid == S_SEARCH:
            sid = np.int64(params[p, SP_POLICY])
        i = 1 if wants_declare(sid, gplay) else 0
    return i
