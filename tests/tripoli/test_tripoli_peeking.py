"""No peeking (issue 15): a Tripoli strategy decides on its own cards and public facts only.

Deals are driven from Python (the kernel's own ``start_deal`` / ``legal_actions`` /
``choose`` / ``apply_action``) with ``fuzz`` seats, so every decision kind comes up. At random
decision points the cards hidden from the deciding seat are dealt again at random, consistently
with what that seat has seen:

* kept: its own hand (and own poker picks), the played cards, the widow when it has seen it
  (``W_SEEN``), the whole hand of a buyer of the dealer's old hand (the dealer knows it), the
  five pay cards once Phase 1 has shown who holds them (the widow keeps the unclaimed ones) and
  who holds a sequence, the poker hands shown at a showdown, and every widow card whose lower
  neighbour has been played (a Phase-3 stop may have revealed it);
* dealt again: the rest of the other hands (same sizes) and of the widow, the other seats'
  unshown poker picks (from their new hands), and in a clearing round the other seats' 5 cards.

Every built-in strategy (and parameter variants that reach the auctions, hiding and bluffing)
must then list the same legal actions and pick the same one (random strategies draw from a copy
of the same stream). The test fails when a decision kind is never checked."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels import tripoli as K
from cardsim.kernels.cards import FULL_DECK
from cardsim.kernels.rng import STREAM_DECK, STREAM_PLAY, seed_stream
from cardsim.sim.registry import get_game, seat_arrays, seat_table

GAME = get_game("tripoli")
NOTRACE = np.zeros((0, 4), np.int64)
STRATEGIES = ["random", "fuzz", "heuristic", "greedy",
              "heuristic:auction_widow=1,swap_below=9,bid_max=8,bid_old_max=8,hide_margin=3,opp_shift=0.5",
              "heuristic:bluff=1,bluff_size=3,swap_below=0,sell_old=0,suit_bid_max=30,size_shift=1,pos_shift=0.5",
              "expert", "strong", "expert:bluff=0.5,bet_frac=1.5,raise_range=0.2,call_margin=-0.2,widow_stops=1"]
PRESETS = ["seed", "rummoli", "suit_auction", "no_widow", "colours", "long_session"]


def bits(m: int) -> list[int]:
    return [c for c in range(52) if m >> c & 1]


def mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def kind(st) -> str:
    ph = int(st[K.PHASE])
    if ph == K.P_AUCTION:
        return ("auction widow", "auction old hand", "auction pay suit")[int(st[K.AU_KIND])]
    if ph == K.P_BET:
        return "clearing bet" if st[K.BET_CTX] else "bet"
    return {K.P_WIDOW: "widow", K.P_AFTER_SWAP: "after swap", K.P_AFTER_UNSOLD: "after unsold",
            K.P_SUIT: "name suit", K.P_SELECT: "pick", K.P_LEAD: "lead"}[ph]


def redeal(st, opts, p, rng):
    """A copy of ``st`` with the cards hidden from seat p dealt again (see the module doc)."""
    st2 = st.copy()
    n = int(st[K.N])
    if st[K.PHASE] == K.P_BET and st[K.BET_CTX] == 1:                # clearing round
        pool = bits(FULL_DECK & ~int(st[K.CLH + p]))
        rng.shuffle(pool)
        for q in range(n):
            if q != p:
                st2[K.CLH + q] = mask(pool[:5])
                pool = pool[5:]
                st2[K.CLS + q] = PK.eval5(np.int64(st2[K.CLH + q]))
        return st2
    played = int(st[K.PLAYED])
    phase1 = opts[K.O_TIMING] == 0 and st[K.PHASE] >= K.P_SELECT
    pay = mask(K.pay_card(st, i) for i in range(5)) if phase1 else 0
    showdown = st[K.PHASE] == K.P_LEAD and st[K.POKER_END] == 0
    slots = [q for q in range(n) if q != p] + [-1]                   # -1 = the widow
    fixed, hidden = {}, {}
    for q in slots:
        held = int(st[K.WIDOW] if q < 0 else st[K.HAND + q])
        keep = held & pay
        if q < 0:
            if st[K.W_SEEN] == p:
                keep = held
            for c in bits(held):
                if c % 13 != 1 and played >> (c - 1 if c % 13 else c + 12) & 1:   # lower neighbour played
                    keep |= 1 << c
        else:
            if p == st[K.DEALER] and st[K.W_ACT] & K.W_SOLD_OLD and q == st[K.W_BUYER]:
                keep = held
            if showdown and not (st[K.P2_FOLDED] >> q) & 1:
                keep |= held & int(st[K.PICK + q])
        fixed[q], hidden[q] = keep, held & ~keep
    pool = bits(mask(c for q in slots for c in bits(hidden[q])))
    for _ in range(100):
        rng.shuffle(pool)
        new, i = {}, 0
        for q in slots:
            k = int(hidden[q]).bit_count()
            new[q] = fixed[q] | mask(pool[i:i + k])
            i += k
        if not phase1 or all(K.seq_suits(st, np.int64(new[q])) == K.seq_suits(st, np.int64(
                st[K.HAND + q])) for q in slots if q >= 0):
            break
    else:
        new = {q: fixed[q] | hidden[q] for q in slots}
    for q in slots:
        if q < 0:
            st2[K.WIDOW] = new[q]
            continue
        st2[K.HAND + q] = new[q]
        pick = int(st[K.PICK + q])
        kept = pick & (fixed[q] | played)
        free = [c for c in bits(new[q] & ~kept)]
        rng.shuffle(free)
        st2[K.PICK + q] = kept | mask(free[:int(pick & ~kept).bit_count()])
        if int(st2[K.PICK + q]).bit_count() == 5 and st[K.HCAT + q] >= 0:
            st2[K.HCAT + q] = PK.eval5(np.int64(st2[K.PICK + q]))
    return st2


def decisions(st, opts, sids, params, gplay):
    acts = np.zeros(K.MAX_ACTS, np.int64)
    n = K.legal_actions(st, opts, acts)
    out = []
    for sid, prm in zip(sids, params):
        i = K.choose(st, opts, acts, n, sid, prm, gplay.copy())
        out.append(int(acts[i]))
    return sorted(int(a) for a in acts[:n]), out


def fuzz_decision_states(presets, deals, seed):
    """Sessions' last deals (a clearing round follows) played by fuzz from Python, every decision
    kind coming up: yields (state, options, seat to act, preset, players, play stream) at each
    decision before fuzz takes it (the caller may copy the state, not change it)."""
    fz_sid, fz_prm = seat_arrays(GAME, seat_table(GAME, ["fuzz"], 1))
    for deal in range(deals):
        preset = presets[deal % len(presets)]
        n = (3, 5, 7)[deal % 3]
        opts = GAME.options_cls(**GAME.presets[preset]).to_array(n)
        st, acts, gdeck, gplay, deck = K.buffers(opts)
        D = int(opts[K.O_DEALS])
        d = deal * D + D - 1                        # the last deal of session `deal`: a clearing round follows
        K.reset_deal(st, opts, K.dealer_of(opts, seed, deal, D - 1))
        st[K.SESSION], st[K.DEAL_NO], st[K.DEAL_ID], st[K.SEED], st[K.LAST_DEAL] = deal, D - 1, d, seed, 1
        seed_stream(gdeck, seed, d, STREAM_DECK)
        seed_stream(gplay, seed, d, STREAM_PLAY)
        K.start_deal(st, opts, gdeck, deck, NOTRACE)
        cleared = False
        while True:
            if st[K.PHASE] == K.P_OVER:
                if cleared or not opts[K.O_CLEARING]:
                    break
                cleared = True
                K.clearing_start(st, opts, gdeck, deck, NOTRACE)
                continue
            yield st, opts, int(st[K.CUR]), preset, n, gplay
            n_acts = K.legal_actions(st, opts, acts)
            i = K.choose(st, opts, acts, n_acts, fz_sid[0], fz_prm[0], gplay)
            K.apply_action(st, opts, acts[i], gdeck, deck, NOTRACE)


def test_no_strategy_peeks_at_hidden_cards():
    rng = np.random.default_rng(15)
    sids, params = seat_arrays(GAME, seat_table(GAME, STRATEGIES, len(STRATEGIES)))
    checked = {}
    for st, opts, p, preset, n, gplay in fuzz_decision_states(PRESETS, 150, 15):
        if st[K.PHASE] <= K.P_AUCTION or rng.random() < 0.2:      # widow phase: rare, always
            legal, want = decisions(st, opts, sids, params, gplay)
            for _ in range(3):
                st2 = redeal(st, opts, p, rng)
                assert K.check_invariants(st2, opts) == 0          # 52 cards, chips, picks in hands
                legal2, got = decisions(st2, opts, sids, params, gplay)
                assert legal2 == legal, (kind(st), preset, n)
                for s, a, b in zip(STRATEGIES, want, got):
                    assert a == b, (s, kind(st), preset, n, K.ACTION_NAMES[a & 15], a >> 8,
                                    K.ACTION_NAMES[b & 15], b >> 8)
            checked[kind(st)] = checked.get(kind(st), 0) + 1
    print("\nno-peeking checks per decision kind:", checked)
    kinds = {"widow", "after swap", "after unsold", "auction widow", "auction old hand", "auction pay suit",
             "name suit", "pick", "bet", "clearing bet", "lead"}
    assert kinds <= set(checked), kinds - set(checked)
