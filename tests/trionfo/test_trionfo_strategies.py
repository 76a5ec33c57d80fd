"""Trionfo strategies (issue 15): self-call by hand strength (a secret solo), the fuzzer's
coverage of every end reason, no peeking, and the expert's card-play rules (issue 41)."""
import numpy as np
import pytest

from cardsim.kernels import trionfo as K
from cardsim.kernels.jit import no_plugin
from cardsim.kernels.rng import seed_stream
from cardsim.sim.games.marafon import mask40, parse40
from cardsim.sim.games.trionfo import GAME, TrionfoOptions
from cardsim.sim.registry import seat_arrays, seat_table


def gen(seed=1):
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, 0, 0)
    return g


def seat(spec):
    sids, params = seat_arrays(GAME, seat_table(GAME, [spec], 5))
    return int(sids[0]), params[0]


def holding(hand_text, seat_no=2):
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N] = 5
    K.reset_deal(st)
    hand = mask40(hand_text)
    rest = [c for c in range(40) if not hand >> c & 1]
    for i, c in enumerate(rest):
        p = [q for q in range(5) if q != seat_no][i // 8]
        st[K.HAND + p] |= 1 << c
    st[K.HAND + seat_no] = hand
    return st


STRONG = "3C 2C 6C 5C 3D 2D KH QH"        # strength 16: a chiamo hand of the heuristic (7..16)
MIDDLE = "2C AC 6C 5C 7D 6H KH QS"        # strength 12: a chiamo hand of greedy (9..12)
WEAK = "AC 6C 5C 7D 6H KH QS 4S"          # strength 8


def test_strengths_of_the_stacked_hands():
    assert [K.hand_strength(np.int64(mask40(h))) for h in (STRONG, MIDDLE, WEAK)] == [16, 12, 8]


@pytest.mark.parametrize("spec, calls_self", [
    ("greedy", (True, True, False)),                    # self_call = 12
    ("greedy:self_call=41", (False, False, False)),
    ("heuristic", (True, False, False)),                # self_call = 16
    ("heuristic:self_call=8", (True, True, True)),
    ("heuristic:self_call=41", (False, False, False)),
])
def test_self_call_by_hand_strength(spec, calls_self):
    """Under trionfo_allow_self_call a strong partnership declarer calls his own highest trump
    (before issue 15 neither greedy nor heuristic ever did); never without the option."""
    sid, prm = seat(spec)
    for text, want in zip((STRONG, MIDDLE, WEAK), calls_self):
        st = holding(text)
        hand = st[K.HAND + 2]
        c = int(K.choose_called(st, 2, 0, sid, prm, gen(), True))
        assert bool(hand >> c & 1) == want, (text, c)
        if want:
            assert c == max(x for x in parse40(text) if x // 10 == 0)     # highest trump held
        c = int(K.choose_called(st, 2, 0, sid, prm, gen(), False))
        assert not hand >> c & 1


def play(strategies, count, seed=3, **over):
    opts = TrionfoOptions(**over).to_array(5)
    sids, params = seat_arrays(GAME, seat_table(GAME, strategies, 5))
    rec = np.zeros((count, GAME.record_width), np.int32)
    GAME.play_batch(seed, 0, count, opts, sids, params, True, rec)
    assert (rec[:, K.RC_ERR] == 0).all()
    return rec


def hand_blocks(rec, f):
    return np.stack([rec[:, K.RC_HAND + h * K.HB_SIZE + f] for h in range(K.HAND_SLOTS)], axis=1)


@pytest.mark.parametrize("spec", ["greedy", "heuristic"])
def test_secret_solos_happen_in_play(spec):
    """In 200 sessions of 10 hands under the self_call preset, a few percent of the hands are
    secret solos (declarer = partner), each by a strong enough declarer, paid as solos."""
    rec = play([spec], 200, **GAME.presets["self_call"])
    d, partner = hand_blocks(rec, K.HB_DECLARER)[:, :10], hand_blocks(rec, K.HB_PARTNER)[:, :10]
    strength = hand_blocks(rec, K.HB_STRENGTH)[:, :10]
    secret = (d >= 0) & (partner == d)
    assert 0.005 < secret.mean() < 0.3
    assert (strength[secret] >= (12 if spec == "greedy" else 16)).all()
    money = np.stack([rec[:, K.RC_HAND + h * K.HB_SIZE + K.HB_MONEY: K.RC_HAND + h * K.HB_SIZE + K.HB_MONEY + 5]
                      for h in range(10)], axis=1)
    dm = np.take_along_axis(money, np.clip(d, 0, 4)[:, :, None], axis=2)[:, :, 0]
    assert (np.abs(dm[secret]) == 4).all()                       # chiamo stake 1, paid as a solo
    rec = play([spec], 50, **GAME.presets["seed"])
    d, partner = hand_blocks(rec, K.HB_DECLARER)[:, :10], hand_blocks(rec, K.HB_PARTNER)[:, :10]
    assert not ((d >= 0) & (partner == d)).any()


# =============================================================================
# no peeking
# =============================================================================
BUILT_IN = ["random", "random:pass_bias=3", "greedy", "greedy:self_call=9", "heuristic",
            "heuristic:t1=5,t2=12,t3=14,t4=16,self_call=8", "heuristic:explore=0.3", "expert", "strong",
            "expert:draw_trumps=1,ruff_risk=1,bank=0,clinch=30,ruff_min=3,honour_min=0",
            "expert:ruff_risk=0,read=0,plain_first=0,ruff_min=0"]
NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)
# no plug-in: the function the kernels take
NO_PLUG = (no_plugin,)


def redeal_hidden(st, p, voids, fixed, rng, self_ok, swaps=200):
    """A copy of ``st`` where the other seats' cards are swapped at random between them (hand
    sizes kept), never giving a seat a suit it has shown void in, never moving the cards of
    ``fixed`` (seat -> cards it is known to hold) and never giving the called card to a seat
    that cannot hold it (the declarer, unless self-calls are allowed); the secret partner
    is the called card's new holder."""
    others = [q for q in range(5) if q != p]
    free = {q: [c for c in range(40) if st[K.HAND + q] >> c & 1 and not fixed.get(q, 0) >> c & 1] for q in others}
    pairs = [(a, b) for a in others for b in others if a < b and free[a] and free[b]]
    called, d = int(st[K.CALLED]), int(st[K.DECLARER])
    for _ in range(swaps if pairs else 0):
        a, b = pairs[rng.integers(len(pairs))]
        ia, ib = rng.integers(len(free[a])), rng.integers(len(free[b]))
        x, y = free[a][ia], free[b][ib]
        if voids[a] >> (y // 10) & 1 or voids[b] >> (x // 10) & 1:
            continue
        if not self_ok and called >= 0 and ((a == d and y == called) or (b == d and x == called)):
            continue
        free[a][ia], free[b][ib] = y, x
    st2 = st.copy()
    for q in others:
        m = int(st[K.HAND + q]) & fixed.get(q, 0)
        for c in free[q]:
            m |= 1 << c
        st2[K.HAND + q] = m
        if called >= 0 and m >> called & 1:
            st2[K.PARTNER] = q
    return st2


def test_no_peeking():
    """Along 40 hands (random:pass_bias=3 bids or chiamo, random cards; the seed rules and the self_call
    preset in turn), at every speech of the auction, at the call of the partner's card and at
    every card, each built-in strategy decides the same when the other hands are dealt
    otherwise (consistently with the voids shown; the secret partner moves with the called
    card). Trump is ``tricks.best_trump`` of the declarer's own hand (no state)."""
    seats = [seat(s) for s in BUILT_IN]
    bidders = [seat("random:pass_bias=3"), seat("heuristic:t1=0,t2=40,t3=40,t4=40")]   # the second: chiamo
    rng = np.random.default_rng(9)
    counts = {"bid": 0, "call": 0, "card": 0}
    moved = looks = 0
    for h in range(40):
        kw = GAME.presets["self_call"] if h % 2 else {}
        opts = TrionfoOptions(**kw).to_array(5)
        self_ok = bool(opts[K.O_SELF_CALL])
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = 5
        st[K.HAND_IDX] = h % 3
        st[K.DEALER] = h % 5
        g = gen(300 + h)
        K.deal(st, g, NO_TRACE)
        voids = [0] * 5
        fz_sid, fz_prm = bidders[h % 4 != 0]

        def same(p, fn):
            nonlocal moved, looks
            other = redeal_hidden(st, p, voids, {}, rng, self_ok)
            looks += 1
            moved += bool((other[K.HAND:K.HAND + 5] != st[K.HAND:K.HAND + 5]).any())
            for sid, prm in seats:
                assert fn(st, sid, prm, g.copy()) == fn(other, sid, prm, g.copy()), (h, p, sid, prm)

        p, spoken = int(st[K.FIRST_SPEAKER]), 0
        while not K.auction_over(st, opts, spoken):
            if not (st[K.PASSED] >> p) & 1:
                same(p, lambda s_, sid, prm, gg: K.choose_bid(s_, p, s_[K.HIGH_LEVEL], sid, prm, gg))
                counts["bid"] += 1
                K.speak(st, p, K.choose_bid(st, p, st[K.HIGH_LEVEL], fz_sid, fz_prm, g), NO_TRACE)
                spoken += 1
            p = (p + 1) % 5
        if st[K.HIGH_BIDDER] < 0:
            continue
        d = int(st[K.HIGH_BIDDER])
        if not K.is_solo(st, opts):
            same(d, lambda s_, sid, prm, gg: K.choose_called(s_, d, K.best_trump(s_[K.HAND + d]), sid, prm, gg,
                                                             self_ok))
            counts["call"] += 1
        sids = np.full(5, K.S_HEURISTIC, np.int64)
        params = np.array([seats[5][1]] * 5)        # self_call=8: secret solos under self_call
        K.make_contract(st, opts, sids, params, g, NO_TRACE, *NO_PLUG, K.no_search)
        for t in range(K.TRICKS):
            for k in range(5):
                p = (int(st[K.LEADER]) + k) % 5
                legal = K.legal_cards(st[K.HAND + p], st[K.LED])
                same(p, lambda s_, sid, prm, gg: K.choose_card(s_, opts, p, legal, sid, prm, gg))
                counts["card"] += 1
                before, led = int(st[K.HAND + p]), int(st[K.LED])
                assert K.play_turn(st, opts, p, K.S_RANDOM, True, g, NO_TRACE, *NO_PLUG, params, False, K.no_search) == 0
                card = (before & ~int(st[K.HAND + p])).bit_length() - 1
                if led >= 0 and card // 10 != led:
                    voids[p] |= 1 << led
            K.finish_trick(st, NO_TRACE)
        assert K.check_cards(st) == 0
    assert all(v > 20 for v in counts.values()), counts
    assert moved > 0.7 * looks


# =============================================================================
# the expert (issue 41)
# =============================================================================
def _records(strategies, deals=60, seed=7):
    from cardsim.sim.runner import make_config
    cfg = make_config("trionfo", 5, deals, seed, strategies, [], "seed", 1, False)
    sids, params = seat_arrays(cfg.game, cfg.seats)
    rec = np.zeros((deals, cfg.game.record_width), dtype=np.int32)
    cfg.game.play_batch(cfg.seed, 0, deals, cfg.option_array, sids, params, False, rec)
    return rec


@pytest.mark.parametrize("change", ["honour_min=0", "honour_min=12", "draw_trumps=1", "ruff_risk=0", "ruff_risk=1",
                                    "bank=0", "clinch=3", "clinch=36", "plain_first=0", "read=0", "ruff_min=0",
                                    "ruff_min=12", "draw_last=0", "draw_last=10", "draw_top=3", "draw_top=12",
                                    "draw_first=5", "draw_first=1", "def_trump=1", "def_trump=2", "solo_low=1",
                                    "solo_low=2", "plain_first=2", "def_rich=1",
                                    "solo_ruff=1", "solo_ruff=2", "solo_keep=3"])
def test_each_expert_parameter_changes_play(change):
    """Every card-play parameter of the expert changes the records away from its default (the
    expert at seats 0, 2 and 4 against the heuristic)."""
    # the read changes a card in a few hundred sessions, plain_first 2 (a solo's lead) in a few thousand
    deals = {"read=0": 400, "plain_first=2": 2000}.get(change, 60)
    base = _records(["expert", "heuristic", "expert", "heuristic", "expert"], deals)
    other = f"expert:{change}"
    assert not np.array_equal(base, _records([other, "heuristic", other, "heuristic", other], deals))


def test_expert_with_the_heuristic_bids_alike():
    """The expert bids, names trump and calls as the heuristic with the same six parameters: its
    records differ only in the play (same declarers, levels, trumps and called cards)."""
    h = "t1=5,t2=12,t3=14,t4=16,explore=0,self_call=16"
    a = _records([f"heuristic:{h}"] * 5)
    b = _records([f"expert:{h}"] * 5)
    cols = [K.RC_HAND + K.HB_DECLARER, K.RC_HAND + K.HB_LEVEL, K.RC_HAND + K.HB_TRUMP, K.RC_HAND + K.HB_CALLED]
    assert np.array_equal(a[:, cols], b[:, cols])
    assert not np.array_equal(a, b)


def _table(trump, hands, played_extra, trick, leader, declarer=0, level=4):
    """A hand in play: ``hands`` (seat -> cards), the current ``trick`` led by ``leader``, the
    cards of earlier tricks ``played_extra``; a solo of ``declarer`` by default."""
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.N] = 5
    K.reset_deal(st)
    st[K.TRUMP] = trump
    st[K.DECLARER] = declarer
    st[K.HIGH_LEVEL] = level
    st[K.HIGH_BIDDER] = declarer
    for q, text in hands.items():
        st[K.HAND + q] = mask40(text)
    played = mask40(played_extra) if played_extra else 0
    st[K.LEADER] = leader
    for i, c in enumerate(trick.split()):
        card = mask40(c).bit_length() - 1
        st[K.TRICK + i] = card
        played |= 1 << card
    st[K.NCARDS] = len(trick.split())
    st[K.LED] = st[K.TRICK] // 10 if st[K.NCARDS] else -1
    st[K.PLAYED] = played
    return st


def test_expert_does_not_ruff_a_trick_worth_nothing():
    """A solo declarer (seat 0, trump H) out of diamonds, fourth to a trick of 5D 4C 7D with
    seat 1 still to play: the heuristic ruffs with its master AH, the expert (ruff_min=1)
    throws its cheapest plain card, and with ruff_min=0 it ruffs as the heuristic."""
    hands = {0: "AC 7C 5C 3H 2H AH 4H 2S", 1: "3C 2C KC QC JC 6C 3D 2D", 2: "AD KD QD JD 6D 4D KH",
             3: "QH JH 7H 6H 5H 3S AS", 4: "KS QS JS 7S 6S 5S 4S"}
    st = _table(2, hands, "", "5D 4C 7D", leader=2)
    opts = TrionfoOptions().to_array(5)
    legal = K.legal_cards(st[K.HAND], st[K.LED])
    g = gen()
    sid_h, prm_h = seat("heuristic")
    assert K.choose_card(st, opts, 0, legal, sid_h, prm_h, g) == mask40("AH").bit_length() - 1
    sid, prm = seat("expert:ruff_min=1")
    assert K.choose_card(st, opts, 0, legal, sid, prm, g) == mask40("5C").bit_length() - 1
    sid, prm = seat("expert:ruff_min=0,bank=0,ruff_risk=0")
    assert K.choose_card(st, opts, 0, legal, sid, prm, g) == mask40("AH").bit_length() - 1


def test_a_solo_that_must_win_every_trick_leads_a_master_trump():
    """Issue 41 (the solo's critique round): a solo declarer (seat 0, trump H) with only trumps
    left, 6H 2H 3H, 8 thirds won against the defenders' 16: the 11 thirds still out are 1 more
    than he needs, so he cannot give a trick away. Leading his lowest trump, as the heuristic's
    lead does with a hand of trumps (and strong did), lets a defender win it with 7H, JH or AH;
    with ``draw_top`` 3 he leads his lowest master, 2H, and draws the trumps first."""
    hands = {0: "6H 2H 3H", 1: "7H KS 5S", 2: "JH 7C 6C", 3: "AH JC 5D", 4: "5H 4S 6S"}
    st = _table(2, hands, "KH QH 4H", "", leader=0)
    st[K.THIRDS + 0] = 8
    st[K.THIRDS + 3] = 16
    opts = TrionfoOptions().to_array(5)
    legal = st[K.HAND]
    g = gen()
    for spec, card in (("expert", "6H"), ("expert:draw_top=3", "2H"), ("expert:draw_top=1", "6H")):
        sid, prm = seat(spec)
        assert K.choose_card(st, opts, 0, legal, sid, prm, g) == mask40(card).bit_length() - 1, spec
    st[K.THIRDS + 3] = 10                     # 6 thirds to spare: a trick can be given away
    sid, prm = seat("expert:draw_top=3")
    assert K.choose_card(st, opts, 0, legal, sid, prm, g) == mask40("6H").bit_length() - 1


def test_a_long_solo_draws_with_its_lowest_master_trump_first():
    """A solo declarer (seat 0, trump H) on lead with 3C, a plain master, and five trumps, 2H and
    3H the masters: with ``draw_first`` 5 he leads 2H before cashing the 3C (plain_first), with
    6 (more trumps than he holds) not."""
    hands = {0: "3C 4H 5H 7H 2H 3H", 1: "KC QC JC KH QH 5S", 2: "7C 6C 5C AH JH 4S",
             3: "4C AC 2C 6H 6S 7S", 4: "AD KD QD JD 7D 6D"}
    st = _table(2, hands, "", "", leader=0)
    opts = TrionfoOptions().to_array(5)
    legal = st[K.HAND]
    g = gen()
    sid, prm = seat("expert:draw_first=5")
    assert K.choose_card(st, opts, 0, legal, sid, prm, g) == mask40("2H").bit_length() - 1
    sid, prm = seat("expert:draw_first=6")
    assert K.choose_card(st, opts, 0, legal, sid, prm, g) != mask40("2H").bit_length() - 1


def test_a_solo_without_the_master_trump_leads_his_lowest():
    """A solo declarer (seat 0, trump H) holding 4H 7H KH and the plain master 3C, the trump 3
    and 2 out: with ``solo_low`` 1 he leads 4H (drives the masters out before they ruff his 3C),
    without it the 3C (``plain_first``)."""
    hands = {0: "3C 4H 7H KH 5D 6S", 1: "KC QC JC 3H 5S 4S", 2: "7C 6C 5C 2H JH 7S",
             3: "4C AC 2C 6H 6D 7D", 4: "AD KD QD JD 3D 2D"}
    st = _table(2, hands, "", "", leader=0)
    opts = TrionfoOptions().to_array(5)
    g = gen()
    for spec, card in (("expert:solo_low=1", "4H"), ("expert:solo_low=2", "4H"), ("expert:solo_low=4", "3C")):
        sid, prm = seat(spec)
        assert K.choose_card(st, opts, 0, st[K.HAND], sid, prm, g) == mask40(card).bit_length() - 1, spec


def test_a_defender_leads_his_richest_plain_card_not_a_blank():
    """Issue 41: a defender against a chiamo (seat 3; seat 0 declares, trump H) with no trump, the
    heuristic's lead a blank (the 5S of his longest suit): with ``def_rich`` he leads his richest
    plain card, the AS, before the declarer's side can ruff it; the declarer does not."""
    hands = {0: "AH 2H 7H 6H KC QC", 1: "3C 5C 7C JC 3S 2S", 2: "AD KD QD JD 7D 6D",
             3: "4C 6C 5S 7S AS 4D", 4: "3H KH QH JH 4H AC"}
    st = _table(2, hands, "", "", leader=3, level=1)
    st[K.CALLED] = mask40("3H").bit_length() - 1
    st[K.PARTNER] = 4
    opts = TrionfoOptions().to_array(5)
    g = gen()
    sid, prm = seat("expert:def_rich=1")
    sid0, prm0 = seat("expert")
    assert K.choose_card(st, opts, 3, st[K.HAND + 3], sid0, prm0, g) == mask40("5S").bit_length() - 1
    assert K.choose_card(st, opts, 3, st[K.HAND + 3], sid, prm, g) == mask40("AS").bit_length() - 1
    st[K.LEADER] = 0
    assert K.choose_card(st, opts, 0, st[K.HAND], sid, prm, g) == \
        K.choose_card(st, opts, 0, st[K.HAND], sid0, prm0, g)


def test_a_defender_with_two_trumps_leads_the_lowest():
    """Issue 41: a defender against a chiamo (seat 3; seat 0 declares, trump H, seat 4 holds the
    called 3H) on lead with two trumps and a plain master leads his lowest trump with
    ``def_trump`` 2 (drawing the declarer's side's trumps), his plain master without it; the
    partner and a defender against a solo do not."""
    hands = {0: "AH 2H 7H 6H KC QC", 1: "4C 5C 6C 7C JC 5D", 2: "AD KD QD JD 7D 6D",
             3: "3C 4H 5H 3S 2S AS", 4: "3H KH QH JH 2C AC"}
    st = _table(2, hands, "", "", leader=3, level=1)
    st[K.CALLED] = mask40("3H").bit_length() - 1
    st[K.PARTNER] = 4
    opts = TrionfoOptions().to_array(5)
    g = gen()
    sid, prm = seat("expert:def_trump=2")
    assert K.choose_card(st, opts, 3, st[K.HAND + 3], sid, prm, g) == mask40("4H").bit_length() - 1
    sid0, prm0 = seat("expert")
    assert K.choose_card(st, opts, 3, st[K.HAND + 3], sid0, prm0, g) != mask40("4H").bit_length() - 1
    for q in (4, 0):                           # the partner or the declarer on lead: not by this rule
        st[K.LEADER] = q
        assert K.choose_card(st, opts, q, st[K.HAND + q], sid, prm, g) == \
            K.choose_card(st, opts, q, st[K.HAND + q], sid0, prm0, g)


def test_expert_reads_a_fellow_defender_from_a_void():
    """A chiamo of seat 0 calling 3H (trump H); seat 3, a defender, sees seat 2 shown void in
    hearts: seat 2 cannot hold the called card, so it is a fellow defender (read=1) and not
    without the read."""
    st = _table(2, {0: "AC", 1: "KC", 2: "QC", 3: "JC", 4: "7C"}, "", "", leader=0, level=1)
    st[K.CALLED] = mask40("3H").bit_length() - 1
    st[K.HAND + 4] |= mask40("3H")
    st[K.PARTNER] = 4
    st[K.VOID + 2] = 1 << 2
    opts = TrionfoOptions().to_array(5)
    assert K.reads_friend(st, opts, 3, 2, 1.0) and not K.reads_friend(st, opts, 3, 2, 0.0)
    assert not K.reads_friend(st, opts, 3, 1, 1.0) and not K.reads_friend(st, opts, 3, 0, 1.0)
    st[K.VOID + 1] = st[K.VOID + 3] = 1 << 2
    assert K.reads_friend(st, opts, 0, 4, 1.0)       # the declarer: seat 4 is the only seat left for 3H
    assert not K.reads_friend(st, opts, 0, 4, 0.0)


def test_friends_of_is_reads_friend_of_every_seat():
    """``friends_of`` (the expert asks it once a decision) is ``reads_friend`` seat by seat, for
    every seat, with and without the read, in the position above and as the voids grow."""
    st = _table(2, {0: "AC", 1: "KC", 2: "QC", 3: "JC", 4: "7C"}, "", "", leader=0, level=1)
    st[K.CALLED] = mask40("3H").bit_length() - 1
    st[K.HAND + 4] |= mask40("3H")
    st[K.PARTNER] = 4
    opts = TrionfoOptions().to_array(5)
    for voids in ({}, {2: 1 << 2}, {1: 1 << 2, 2: 1 << 2, 3: 1 << 2}):
        for q, v in voids.items():
            st[K.VOID + q] = v
        for revealed in (0, 1):
            st[K.REVEALED] = revealed
            for p in range(5):
                for read in (0.0, 1.0):
                    mask = K.friends_of(st, opts, p, read)
                    assert all(bool((mask >> q) & 1) == bool(K.reads_friend(st, opts, p, q, read))
                               for q in range(5)), (voids, revealed, p, read)


def test_a_solo_ruffs_with_his_cheapest_standing_trump():
    """Issue 41 (solo_ruff): a solo declarer (seat 0, trump H) last to a club trick (4C QC AC 2C,
    worth 5 thirds) with no club: the expert at its defaults ruffs with its richest sure winner
    (``bank`` 2: the AH), strong with its cheapest trump (the 4H), keeping the ace for control;
    a defender against that solo (seat 4 declaring, his 2C on top) still ruffs by ``bank``."""
    hands = {0: "AH 4H 7H 5D 6S", 1: "5C 3H 6D 7D 4S", 2: "6C 2H 4D 3S 5S", 3: "7C KH JD QD 7S",
             4: "JC QH KD AD 6H"}
    st = _table(2, hands, "", "4C QC AC 2C", leader=1)
    opts = TrionfoOptions().to_array(5)
    g = gen()
    legal = st[K.HAND]
    for spec, card in (("expert", "AH"), ("strong", "4H"), ("expert:solo_ruff=1", "4H")):
        sid, prm = seat(spec)
        assert K.choose_card(st, opts, 0, legal, sid, prm, g) == mask40(card).bit_length() - 1, spec
    st[K.DECLARER] = 4
    st[K.HIGH_BIDDER] = 4
    sid, prm = seat("expert:solo_ruff=1")
    assert K.choose_card(st, opts, 0, legal, sid, prm, g) == mask40("AH").bit_length() - 1


def card_id(text):
    return mask40(text).bit_length() - 1


def solo_card(spec, hands, trick, leader, played="", declarer=0):
    """The card seat 0 plays (trump H; a solo of ``declarer``) on ``trick`` led by ``leader``."""
    st = _table(2, hands, played, trick, leader=leader, declarer=declarer)
    sid, prm = seat(spec)
    return K.choose_card(st, TrionfoOptions().to_array(5), 0, st[K.HAND], sid, prm, gen())


def test_a_solo_keeps_his_trump_on_a_cheap_trick():
    """Issue 41 (solo_keep): a solo declarer (seat 0, trump H) last to a club trick worth 2 thirds
    (4C QC 5C JC) with no club: the expert at its defaults ruffs (with the AH, ``bank`` 2), strong
    throws his 6S (worth nothing) and keeps both trumps; on a trick worth 3 thirds (the AC in it)
    or with no plain card worth nothing it ruffs with the 4H; a defender against that solo ruffs."""
    hands = {0: "AH 4H KD 6S QS", 1: "5D 3H 6D 7D", 2: "6C 2H 4D 3S", 3: "7C KH JD QD", 4: "2C QH AD 6H"}
    no_blank = {**hands, 0: "AH 4H KD JS QS"}
    assert solo_card("expert", hands, "4C QC 5C JC", 1) == card_id("AH")
    assert solo_card("strong", hands, "4C QC 5C JC", 1) == card_id("6S")
    assert solo_card("expert:solo_keep=3", hands, "4C QC 5C JC", 1) == card_id("6S")
    assert solo_card("strong", hands, "4C QC AC JC", 1) == card_id("4H")
    assert solo_card("strong", no_blank, "4C QC 5C JC", 1) == card_id("4H")
    assert solo_card("expert:solo_keep=3", hands, "4C QC 5C JC", 1, declarer=4) == card_id("AH")


def test_a_solo_ruffs_low_and_keeps_his_trump_in_second_hand_only_once_trumps_are_drawn():
    """Issue 41 (solo_ruff 2, solo_keep's second hand): a solo declarer (seat 0, trump H, the 3H
    his master) with no club. Third to AC QC (4 thirds) he ruffs with the 4H under solo_ruff 2
    (an overruff risked) and with the standing 3H under solo_ruff 1. Second to a JC (1 third)
    while hearts are out he ruffs low (a defender's trump drawn) instead of throwing his 6S;
    once every other heart is played he throws the 6S and keeps his trumps."""
    hands = {0: "3H 4H 6S KD QS", 1: "5D 2H 6D 7D", 2: "6C KH 4D 3S", 3: "7C QH JD QD", 4: "2C JH AD 6H"}
    dry = {0: hands[0], 1: "5D 5C 6D 7D", 2: "6C KC 4D 3S", 3: "7C 4C JD QD", 4: "2C 3C AD 4S"}
    assert solo_card("strong", hands, "AC QC", 3) == card_id("4H")
    assert solo_card("expert:solo_ruff=1", hands, "AC QC", 3) == card_id("3H")
    assert solo_card("strong", hands, "JC", 4) == card_id("4H")
    assert solo_card("strong", dry, "JC", 4, played="2H KH QH JH 6H 7H 5H AH") == card_id("6S")
