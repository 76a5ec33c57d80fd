"""Contract Rummy's step 2 of a turn (§8, §10, §11): the contract meld (the engine's best
meld, the flexible meld, the larger first melds' jokers), joker swaps and lay-offs, repeated to a
fixed point (``act_phase``).

Each question of step 2 writes where it is asked (RS_AT and its loops' places, the RS_* state
fields) before it asks: a state saved there (the step mode's snapshot) resumes at that question
with an answer (RS_ANS), as the loops pick up their places and the question its answer
(``view.resumed``); the batch never resumes (RS_ANS 0). The draw's questions do the same
(``mayi``).
"""
import numpy as np
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.cards import lowbit
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below
from cardsim.kernels.contract_rummy.layout import (
    BIG, DEAL, DOWN, D_OUT, HOLD, HSIZE, JK, JOKER_DUE, JT_HELP, KNOWN, K_JOKER, K_LAYOFF, K_MELD, K_MELD_JOKERS,
    K_SWAP, LOSS, MELD_TURN, NMELDS, O_GO_OUT_DISCARD, O_SWAP, O_SWAP_DISCARD, O_SWAP_PRIOR, PTURN, P_JOKER, P_LAYOFF,
    P_MELD, P_MELD_JK, P_SWAP, RS_ANS, RS_AT, RS_AUX, RS_BEFORE, RS_C, RS_I, RS_JOKER, RS_K, RS_LAYOFF, RS_MELD,
    RS_MELD_JOKERS, RS_STALE, RS_SWAP, RS_SWAP_MELD, SWAP_KEPT, SWAP_MELD, S_FUZZ, S_RANDOM, TURN, T_LAYOFF, T_MELD,
    T_OWNER, T_SWAP, T_TURN, XFER,
)
from cardsim.kernels.contract_rummy.actions import pack_row, swap_info, window
from cardsim.kernels.contract_rummy.rules import (
    end_deal, give, hand_of, log, over, rules_of, sizes, spec_of, special7, take,
)
from cardsim.kernels.contract_rummy.contracts import add_jokers, may_hold, meld_jokers
from cardsim.kernels.contract_rummy.strategies import yes
from cardsim.kernels.contract_rummy.view import (
    ask_yes, at, critiquing, meld_rows, note, plug_meld, plug_meld_jokers, plug_target, resuming,
)


# =============================================================================
# melding, swaps, lay-offs (§8, §10, §11)
# =============================================================================
@njit(cache=True)
def best_meld(st, opts, p, mo):
    """The contract meld seat p would lay (rows in mo), or -1 (none / not allowed)."""
    h = hand_of(st, p)
    spec = spec_of(opts, st[DEAL])
    rules = rules_of(opts)
    if not may_hold(h, spec):
        return -1
    out = mo[:F.MAX_CM, :M.M_SIZE]
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    rest = mo[2 * F.MAX_CM]
    every = mo[2 * F.MAX_CM + 1, :F.CF_SIZE]
    ws = mo[2 * F.MAX_CM + 2:]
    v = F.sep_solve_contract_ws(h, spec, rules, out, False, ws)
    if v < 0:
        return -1
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    rest[:] = h
    F.rows_cards(out, nm, rest)
    left = rest.sum()
    every[:] = spec                         # larger first melds: a meld that goes out
    every[F.CF_ALL] = 1
    if opts[O_GO_OUT_DISCARD] and not special7(st, opts):
        if left == 0 or (spec[M.C_GROUP_EXACT] == 0 and spec[F.CF_ALL] == 0 and 2 <= left <= 5):
            w = all_but_one(h, spec, every, rules, out, trial, ws, nm, left == 0)
            if w >= 0 or left == 0:
                return w
        return v
    if spec[M.C_GROUP_EXACT] == 0 and spec[F.CF_ALL] == 0 and 2 <= left <= 4 and \
            F.sep_solve_contract_ws(h, every, rules, trial, False, ws) >= 0:
        out[:nm] = trial[:nm]
    return v


@njit(cache=True)
def all_but_one(h, spec, every, rules, out, trial, ws, nm, fallback):
    """go_out_requires_discard (A10): the meld of every card but one (the player goes out on
    the discard), the one left chosen for the best meld value; ``fallback`` (the best meld
    took every card): else the best meld that leaves at least one card. Rows into ``out``;
    returns the meld value or -1."""
    for pass_spec in range(2):
        sp = every if pass_spec == 0 else spec
        best = -1
        bc = -1
        for c in range(HOLD):
            if h[c] > 0:
                h[c] -= 1
                w = F.sep_solve_contract_ws(h, sp, rules, trial, pass_spec == 0, ws)
                h[c] += 1
                if w > best:
                    best = w
                    bc = c
        if bc >= 0:
            h[bc] -= 1
            F.sep_solve_contract_ws(h, sp, rules, trial, pass_spec == 0, ws)
            h[bc] += 1
            out[:nm] = trial[:nm]
            return best
        if not fallback:
            return -1
    return -1


@njit(cache=True)
def leftover_fit(tab, n, rows, nm, h, rest, rules):
    """Cards of holding h left after laying the melds ``rows`` that fit one of them or a table
    meld (tab[:n]): the cards a seat down can lay off (``rest``: scratch)."""
    rest[:HOLD] = h
    F.rows_cards(rows, nm, rest)
    f = 0
    for x in range(HOLD):
        if rest[x] > 0:
            ok = False
            for k in range(nm):
                if not ok and F.can_lay(rows[k], x, rules):
                    ok = True
            for j in range(n):
                if not ok and F.can_lay(tab[j], x, rules):
                    ok = True
            if ok:
                f += rest[x]
    return f


@njit(cache=True)
def flexible_meld(st, opts, tab, p, mo):
    """Meld choice ``meld_pick = 1`` (§17 "which meld"; exact contracts): of the engine's meld
    (in mo) and, for each card type held, the best meld without one copy of it, the meld after
    which most of the cards left can be laid off (onto the table or the new melds), the
    engine's on a tie. Rows into mo."""
    spec, rules, h = spec_of(opts, st[DEAL]), rules_of(opts), hand_of(st, p)
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    rest = mo[2 * F.MAX_CM]
    ws = mo[2 * F.MAX_CM + 2:]
    n = st[NMELDS]
    best = leftover_fit(tab, n, mo[:nm, :M.M_SIZE], nm, h, rest, rules)
    pick = -1
    for c in range(HOLD):
        if h[c] > 0:
            h[c] -= 1
            v = F.sep_solve_contract_ws(h, spec, rules, trial, False, ws)
            h[c] += 1
            if v >= 0:
                f = leftover_fit(tab, n, trial, nm, h, rest, rules)
                if f > best:
                    best, pick = f, c
    if pick >= 0:
        h[pick] -= 1
        F.sep_solve_contract_ws(h, spec, rules, trial, False, ws)
        h[pick] += 1
        mo[:nm, :M.M_SIZE] = trial[:nm]


@njit(cache=True)
def lay_meld(st, opts, tab, p, mo, trace):
    """Put the contract meld rows on the table and take their cards from the hand."""
    spec = spec_of(opts, st[DEAL])
    n = spec[M.C_GROUPS] + spec[M.C_RUNS]
    h = hand_of(st, p)
    before = st[HSIZE + p]
    was = h.copy()
    F.rows_cards(mo, n, h)
    for c in range(HOLD):
        st[KNOWN + HOLD * p + c] = max(0, st[KNOWN + HOLD * p + c] - (was[c] - h[c]))
    after = 0
    for c in range(HOLD):
        after += h[c]
    st[HSIZE + p] = after
    st[LOSS + p] += before - after
    for k in range(n):
        i = st[NMELDS]
        tab[i, :M.M_SIZE] = mo[k, :M.M_SIZE]
        tab[i, M.M_FLAGS] = F.F_DEAD if opts[O_SWAP] == 0 else 0
        tab[i, T_OWNER] = p
        tab[i, T_TURN] = st[TURN]
        st[NMELDS] = i + 1
        log(st, trace, T_MELD, p, i, pack_row(tab[i]), tab[i, M.M_P1], sizes(st, p))
    st[DOWN + p] = 1
    st[MELD_TURN + p] = st[PTURN + p]


@njit(cache=True)
def meld_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
    """choose_meld: lay the contract (deal 7 special: only all cards, going out). With
    ``joker_swap_requires_prior_meld = false`` a player who cannot meld may first swap a
    natural for a table joker that completes his meld (``swap_into_meld``). With larger
    first melds (MAY_I) and ``meld_jokers`` every joker held goes into the meld. A plug-in
    seat is asked K_MELD (which meld, or none) and K_MELD_JOKERS; a swap into the meld is its
    K_SWAP (V_INFO 1)."""
    if resuming(st, RS_MELD_JOKERS):
        best_meld(st, opts, p, mo)
        meld_rows(st, opts, p, mo, st[RS_AUX])      # the rows the K_MELD answer chose
    elif best_meld(st, opts, p, mo) < 0:
        if opts[O_SWAP] == 0 or opts[O_SWAP_PRIOR] == 1:
            return
        if not swap_into_meld(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
            return
        st[RS_AUX] = 1
    else:
        st[RS_AT] = RS_MELD
        a = plug_meld(st, opts, tab, p, mo, plug, pprm, vb) if pl or critiquing(vb) else -1
        if a == 0 or (a < 0 and not yes(sid, prm, gplay)):
            note(vb, K_MELD, 0)
            return
        note(vb, K_MELD, a if a > 0 else 1)
        st[RS_AUX] = a if a > 0 else 1
        if a < 0 and sid != S_RANDOM and prm[P_MELD] > 0.5 and spec_of(opts, st[DEAL])[M.C_GROUP_EXACT] != 0 \
                and not special7(st, opts):
            flexible_meld(st, opts, tab, p, mo)       # meld_pick = 1 (exact contracts)
    spec = spec_of(opts, st[DEAL])
    if spec[M.C_GROUP_EXACT] == 0 and spec[F.CF_ALL] == 0:
        keep = 1 if opts[O_GO_OUT_DISCARD] else 0
        nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
        st[RS_AT] = RS_MELD_JOKERS
        j = plug_meld_jokers(st, opts, tab, p, mo, nm, keep, plug, pprm, vb) if pl or critiquing(vb) else -1
        if j < 0 and sid != S_RANDOM and prm[P_MELD_JK] > 0.5:
            j = BIG
        added = 0
        if j > 0:
            added = add_jokers(mo, nm, hand_of(st, p), st[HSIZE + p], rules_of(opts), keep, j)
        note(vb, K_MELD_JOKERS, added)
    lay_meld(st, opts, tab, p, mo, trace)
    if st[HSIZE + p] == 0:
        end_deal(st, D_OUT, p)


@njit(cache=True)
def swap_into_meld(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
    """A swap on the meld turn, before the meld: the natural goes into a table run and the
    freed joker into the contract meld laid next (it is used this turn, §11, and not laid
    off, §8). Tried only when the player cannot meld without it; the first (run, natural)
    in table and card order that makes a meld laying a joker; rows left in ``mo``."""
    rules = rules_of(opts)
    spec = spec_of(opts, st[DEAL])
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    h = hand_of(st, p)
    for i in range(st[RS_I] if resuming(st, RS_SWAP_MELD) else 0, st[NMELDS]):
        for c in range(st[RS_C] if resuming(st, RS_SWAP_MELD) else 0, 52):
            if h[c] > 0 and F.can_swap(tab[i], c, rules):
                h[c] -= 1
                h[JK] += 1
                ok = best_meld(st, opts, p, mo) >= 0 and meld_jokers(mo, nm) >= 1
                h[c] += 1
                h[JK] -= 1
                at(st, RS_SWAP_MELD, i, c)
                a = ask_yes(st, opts, tab, p, K_SWAP, c, i, 1, plug, pprm, vb) if ok and (pl or critiquing(vb)) else -1
                y = ok and (yes(sid, prm, gplay) if a < 0 else a == 1)
                if ok:
                    note(vb, K_SWAP, 1 if y else 0)
                if y:
                    F.swap(tab[i], c)
                    take(st, p, c)
                    give(st, p, JK)
                    st[KNOWN + HOLD * p + JK] += 1
                    log(st, trace, T_SWAP, p, c, i, swap_info(window(tab[i]), tab, SWAP_MELD), sizes(st, p))
                    return True
    return False


@njit(cache=True)
def fit_count(tab, n, i, row, h, rules):
    """Held card types (h) that fit some meld when meld i is ``row``."""
    f = 0
    for x in range(HOLD):
        if h[x] > 0:
            ok = F.can_lay(row, x, rules)
            for j in range(n):
                if not ok and j != i and F.can_lay(tab[j], x, rules):
                    ok = True
            f += ok
    return f


@njit(cache=True)
def place_target(tab, n, c, h, rules, mode):
    """choose_layoff's target for card c (JK: a joker), h the holding without it; -1 if no
    meld takes it. ``mode`` (params layoff_target / joker_target): 0 the first meld in table
    order; else the meld after which most held card types fit some meld (the first of
    those), a joker without such a gain: mode 1 on a set (dead, nobody reuses it), mode 2 on
    a run (it floats), else the first meld."""
    first = -1
    cands = 0
    runs = 0
    for i in range(n):
        if F.can_lay(tab[i], c, rules):
            cands += 1
            runs += tab[i, M.M_KIND] == M.MK_RUN
            if first < 0:
                first = i
    if mode == 0 or cands == 0 or (c != JK and (cands == 1 or runs == 0)):
        return first                    # a natural on sets of its rank: every choice is alike
    row = np.zeros(M.M_SIZE, np.int64)
    best = -1
    bf = -1
    for i in range(n):
        if F.can_lay(tab[i], c, rules):
            row[:] = tab[i, :M.M_SIZE]
            F.lay(row, c)
            f = fit_count(tab, n, i, row, h, rules)
            if f > bf:
                bf = f
                best = i
    if c != JK:
        return best
    row[:] = tab[0, :M.M_SIZE]
    if n > 0 and bf > fit_count(tab, n, 0, row, h, rules):
        return best                     # the joker lets a held card follow
    want = M.MK_GROUP if mode == JT_HELP else M.MK_RUN
    for i in range(n):
        if tab[i, M.M_KIND] == want and F.can_lay(tab[i], c, rules):
            return i
    return first


@njit(cache=True)
def unswap(row, c, lo, hi):
    """Undo ``melds_float.swap(row, c)`` (the run's window was lo..hi)."""
    if c % 13 == 0:
        row[M.M_P2] -= 1
    else:
        row[M.M_P1] &= ~F.card_pos(c)
    row[M.M_JOKERS] += 1
    row[M.M_LO] = lo
    row[M.M_HI] = hi


@njit(cache=True)
def swap_phase(st, opts, tab, p, sid, prm, gplay, trace, table_ok, pl, plug, pprm, vb):
    """choose_joker_swap, repeated: natural from hand into a run, freed joker laid off where
    ``joker_target`` says (``table_ok``: not on the meld turn, where lay-offs are barred, §8:
    there the joker can only be kept for the discard, with ``swapped_joker_may_be_discarded``).
    A swap may lay the last card (going out) unless go_out_requires_discard. Returns the
    swaps made (RS_AUX: so far, where a question is asked). Resumes at RS_SWAP (the swap's
    question) or RS_JOKER (the freed joker's, the swap made)."""
    rules = rules_of(opts)
    h = hand_of(st, p)
    jmode = 0 if sid == S_RANDOM else int(prm[P_JOKER])
    last = table_ok and opts[O_GO_OUT_DISCARD] == 0
    back = resuming(st, RS_SWAP) or resuming(st, RS_JOKER)
    done = st[RS_AUX] if back else 0
    for i in range(st[RS_I] if back else 0, st[NMELDS]):
        if (tab[i, M.M_KIND] != M.MK_RUN or tab[i, M.M_JOKERS] == 0) and not resuming(st, RS_JOKER):
            continue                    # only a run's jokers are swapped, by its suit's cards
        s = tab[i, M.M_KEY]
        back = resuming(st, RS_SWAP) or resuming(st, RS_JOKER)
        for c in range(st[RS_C] if back else 13 * s, 13 * s + 13):
            while True:
                if resuming(st, RS_JOKER):      # the swap made: where its joker goes
                    t = place_target(tab, st[NMELDS], JK, h, rules, jmode) if table_ok else -1
                else:
                    if not (h[c] > 0 and F.can_swap(tab[i], c, rules) and (st[HSIZE + p] > 1 or last)):
                        break
                    a = -1
                    if pl or critiquing(vb):
                        at(st, RS_SWAP, i, c)
                        st[RS_AUX] = done
                        a = ask_yes(st, opts, tab, p, K_SWAP, c, i, 0, plug, pprm, vb)
                    y = yes(sid, prm, gplay) if a < 0 else a == 1
                    note(vb, K_SWAP, 1 if y else 0)
                    if not y:
                        break
                    lo, hi = tab[i, M.M_LO], tab[i, M.M_HI]
                    F.swap(tab[i], c)
                    h[c] -= 1
                    t = place_target(tab, st[NMELDS], JK, h, rules, jmode) if table_ok else -1
                    h[c] += 1
                    if t < 0 and not (opts[O_SWAP_DISCARD] == 1 and st[XFER] == 0):
                        unswap(tab[i], c, lo, hi)
                        break
                    take(st, p, c)
                at(st, RS_JOKER, i, c)
                st[RS_AUX] = done
                place_joker(st, opts, tab, p, sid, gplay, trace, table_ok, i, c, t, pl, plug, pprm, vb)
                done += 1
    return done


@njit(cache=True)
def place_joker(st, opts, tab, p, sid, gplay, trace, table_ok, i, c, t, pl, plug, pprm, vb):
    """The joker a swap of c into run i freed (c taken from the hand): laid on meld t (the
    target ``joker_target`` found, -1 none) or the one K_JOKER names, or kept for the discard
    (with ``swapped_joker_may_be_discarded``, not when the discard goes out of turn)."""
    wrun = window(tab[i])
    keep = opts[O_SWAP_DISCARD] == 1 and st[XFER] == 0
    j = plug_target(st, opts, tab, p, K_JOKER, JK, i, keep, table_ok, plug, pprm, vb) \
        if pl or critiquing(vb) else -1
    if j > 0:
        t = j - 1
    if j == 0 or (j < 0 and keep and (t < 0 or sid == S_RANDOM and below(gplay, 2) == 1)):
        give(st, p, JK)
        st[KNOWN + HOLD * p + JK] += 1
        st[JOKER_DUE] += 1
        t = SWAP_KEPT
    else:
        F.lay(tab[t], JK)
    note(vb, K_JOKER, 0 if t == SWAP_KEPT else 1 + t)
    log(st, trace, T_SWAP, p, c, i, swap_info(wrun, tab, t), sizes(st, p))


@njit(cache=True)
def unstale(stale, row, rules):
    """The stale card types (bit mask) less those the changed meld ``row`` now takes: only
    they can fit after the lay (every other meld is as it was when they did not fit)."""
    m = stale
    while m:
        x = lowbit(m)
        m &= m - 1
        if F.can_lay(row, x, rules):
            stale &= ~(np.int64(1) << x)
    return stale


@njit(cache=True)
def layoff_phase(st, opts, tab, p, sid, prm, gplay, trace, pl, plug, pprm, vb):
    """choose_layoff, repeated to a fixed point: passes over the held cards (naturals, then
    jokers) until a pass lays nothing, so a card that fits only after another (``3S`` after
    ``4S`` on ``5S-8S``) goes too; targets as ``layoff_target`` / ``joker_target`` say. A card
    type that fitted no meld is not tried again until a lay changes a meld that takes it.
    Resumes at RS_LAYOFF (the card RS_C of a pass, RS_STALE, RS_AUX: the pass laid a card)."""
    rules = rules_of(opts)
    keep = 1 if opts[O_GO_OUT_DISCARD] else 0
    h = hand_of(st, p)
    lmode = 0 if sid == S_RANDOM else int(prm[P_LAYOFF])
    jmode = 0 if sid == S_RANDOM else int(prm[P_JOKER])
    back = resuming(st, RS_LAYOFF)
    stale = st[RS_STALE] if back else np.int64(0)   # card types no meld takes (until a lay changes a meld)
    more = back and st[RS_AUX] == 1                 # this pass laid a card
    c0 = st[RS_C] if back else 0
    going = True
    while going:
        for c in range(c0, HOLD):
            if (c == JK and st[JOKER_DUE] > 0) or (stale >> c) & 1:
                continue
            while h[c] > 0 and st[HSIZE + p] > keep:
                h[c] -= 1
                t = place_target(tab, st[NMELDS], c, h, rules, jmode if c == JK else lmode)
                h[c] += 1
                if t < 0:
                    stale |= np.int64(1) << c
                j = -1
                if (pl or critiquing(vb)) and t >= 0:
                    at(st, RS_LAYOFF, -1, c)
                    st[RS_STALE] = stale
                    st[RS_AUX] = 1 if more else 0
                    j = plug_target(st, opts, tab, p, K_LAYOFF, c, -1, True, True, plug, pprm, vb)
                if j > 0:
                    t = j - 1
                go = j > 0 or (j < 0 and t >= 0 and yes(sid, prm, gplay))
                if t >= 0:
                    note(vb, K_LAYOFF, 1 + t if go else 0)
                if not go:
                    break
                F.lay(tab[t], c)
                take(st, p, c)
                log(st, trace, T_LAYOFF, p, c, t, window(tab[t]), sizes(st, p))
                stale = unstale(stale, tab[t], rules)
                more = True
        going = more
        more = False
        c0 = 0
    if st[HSIZE + p] == 0:
        end_deal(st, D_OUT, p)


@njit(cache=True)
def act_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
    """Step 2: meld if not down; after an earlier turn's meld: swaps and lay-offs, repeated
    while they shed cards (a swap can open a lay-off and a lay-off a swap). Resumes at the
    question RS_AT (the pass RS_K, begun with RS_BEFORE cards held)."""
    if not st[DOWN + p]:
        meld_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb)
        if over(st) or not st[DOWN + p]:
            return
    earlier = st[PTURN + p] > st[MELD_TURN + p]
    swaps = opts[O_SWAP] == 1 and (earlier or opts[O_SWAP_PRIOR] == 0) and \
        (sid == S_RANDOM or prm[P_SWAP] > 0.5)
    sure = not pl and sid != S_RANDOM and sid != S_FUZZ     # lay-off answers are always yes
    back = st[RS_ANS] > 0
    for k in range(st[RS_K] if back else 0, HOLD):
        back = st[RS_ANS] > 0
        before = st[RS_BEFORE] if back else st[HSIZE + p]
        st[RS_K] = k
        st[RS_BEFORE] = before
        if not resuming(st, RS_LAYOFF):
            done = swap_phase(st, opts, tab, p, sid, prm, gplay, trace, earlier, pl, plug, pprm, vb) if swaps else 0
            if not earlier or (k > 0 and done == 0 and sure):
                return                  # (no swap: the table is as the last lay-off pass left it)
        layoff_phase(st, opts, tab, p, sid, prm, gplay, trace, pl, plug, pprm, vb)
        if over(st) or st[HSIZE + p] == before or not swaps:
            return
