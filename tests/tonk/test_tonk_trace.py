"""Tonk replays a player can check by hand: replay deals of every preset with random, greedy
and knocker seats and re-derive, from the events alone (``sim.games.tonk.trace_events``) with
code of this file, every holding, every spread and hit, the discard pile, the stock size, the
counts the settlement used, the payouts and the end reason (tonk.md §4-§7)."""
import numpy as np
import pytest
from test_tonk_invariants import expected_dry, expected_knock

from cardsim.kernels import tonk as K
from cardsim.sim.games.tonk import GAME, PRESETS, TonkOptions, _replay, format_trace, trace_events
from cardsim.sim.notation import fmt_card, parse_card, parse_mask
from cardsim.sim.trace import lines

VALUE = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]          # A .. K
MIXES = {
    "random": [(K.S_RANDOM, 0), (K.S_RANDOM, 0), (K.S_RANDOM, 0), (K.S_RANDOM, 0)],
    "greedy": [(K.S_GREEDY, 0), (K.S_GREEDY, 0), (K.S_GREEDY, 0), (K.S_GREEDY, 0)],
    "knockers": [(K.S_KNOCKER, 6), (K.S_GREEDY, 0), (K.S_KNOCKER, 12), (K.S_RANDOM, 0)],
}
FIRST_DEALS = 12          # per (preset, players, mix), plus one deal of each end reason seen
SEED = 2718
ACTIONS = {"hand", "deal", "upcard", "void", "knock", "draw", "take discard", "end dry", "meld",
           "lay off", "discard", "end", "result"}


def seats(mix):
    sids = np.array([s for s, _ in MIXES[mix]], np.int64)
    params = np.zeros((K.MAX_PLAYERS, K.N_PARAMS))
    params[:, 0] = [t for _, t in MIXES[mix]]
    return sids, params


def rank(c):
    return c % 13


def suit(c):
    return c // 13


def points(cards):
    return sum(VALUE[rank(c)] for c in cards)


def is_book(cards):
    return len(cards) in (3, 4) and len({rank(c) for c in cards}) == 1


def is_run(cards):
    rs = sorted(rank(c) for c in cards)
    return (len(cards) >= 3 and len({suit(c) for c in cards}) == 1
            and rs == list(range(rs[0], rs[0] + len(rs))))


class Checker:
    """Replays the events on its own model of the table and asserts each one is possible."""

    def __init__(self, n, opts: TonkOptions):
        self.n, self.opts = n, opts
        self.reason = None
        self.seen_actions = set()

    def new_hand(self):
        self.hands = [set() for _ in range(self.n)]
        self.seen = set()
        self.pile = []
        self.stock = 52 - 5 * self.n
        self.spreads = []               # [owner, [cards in table order]]
        self.taken = None
        self.melded = False             # the seat to act laid a new spread this turn
        self.hits = 0

    def check_state(self, e):
        s = e["state"]
        assert s["held"] == [len(h) for h in self.hands], e
        assert s["stock"] == self.stock, e
        assert s["pile"] == (fmt_card(self.pile[-1]) if self.pile else None), e

    def new_card(self, c):
        assert c not in self.seen, f"card {c} shown twice"
        self.seen.add(c)

    def step(self, e):
        assert {"action", "seat", "text"} <= e.keys() and e["action"] in ACTIONS, e
        assert isinstance(e["text"], str) and e["text"]
        act, p = e["action"], e["seat"]
        self.seen_actions.add(act)
        cards = [parse_card(c) for c in e.get("cards", [])]
        if act == "hand":
            self.new_hand()
            return
        if act == "deal":
            assert len(cards) == 5 and e["points"] == points(cards)
            for c in cards:
                self.new_card(c)
            self.hands[p] = set(cards)
        elif act == "upcard":
            self.new_card(cards[0])
            self.pile.append(cards[0])
            self.stock -= 1
        elif act in ("draw", "take discard"):
            self.melded, self.hits = False, 0
            assert len(self.hands[p]) <= 5
            if act == "draw":
                assert self.stock > 0
                self.new_card(cards[0])
                self.stock -= 1
                self.taken = None
            else:
                assert self.pile and self.pile[-1] == cards[0], "took a card that is not the top discard"
                self.pile.pop()
                self.taken = cards[0]
            self.hands[p].add(cards[0])
        elif act == "meld":
            assert e["melds"] == [e["cards"]]
            assert set(cards) <= self.hands[p], "laid a card it does not hold"
            assert is_book(cards) or is_run(cards), e
            if is_run(cards):
                assert [rank(c) for c in cards] == sorted(rank(c) for c in cards), "run not in table order"
            self.hands[p] -= set(cards)
            self.spreads.append([p, cards])
            self.melded = True
        elif act == "lay off":
            (c,) = cards
            assert c in self.hands[p], "hit with a card it does not hold"
            target = [parse_card(x) for x in e["target"]]
            owner = e["owner"]
            match = [sp for sp in self.spreads if sp[0] == owner and sp[1] == target]
            assert match, f"hit on a spread not on the table: {e}"
            if self.opts.hit_own_spreads_only:
                assert owner == p
            self.hits += 1
            if self.opts.max_hits_per_turn is not None:
                assert self.hits <= self.opts.max_hits_per_turn
            grown = sorted(target + [c])
            if is_book(target):
                assert len(target) == 3 and is_book(grown), e
            else:
                assert is_run(grown), e
            match[0][1] = grown
            self.hands[p].discard(c)
        elif act == "discard":
            (c,) = cards
            assert c in self.hands[p]
            if c == self.taken and not self.opts.allow_rediscard_of_taken_card:
                assert len(self.hands[p]) == 1, "re-discarded the card just taken"
            self.hands[p].discard(c)
            self.pile.append(c)
        elif act == "knock":
            assert set(cards) == self.hands[p] and e["count"] == points(cards)
            self.last_actor = p
        elif act == "end dry":
            assert self.stock == 0
        elif act == "end":
            self.reason = e["reason"]
            self.winner = e.get("winner")
        if act in ("draw", "take discard", "meld", "lay off", "discard", "knock", "end dry"):
            self.last_actor = p
            assert all(len(h) <= (6 if q == p else 5) for q, h in enumerate(self.hands))
        if act != "result":
            self.check_state(e)

    def finish(self, results, deal_tonk_totals):
        """The result events: holdings, counts, payouts and the end reason follow from the events."""
        n, s = self.n, self.opts.stake
        assert [e["seat"] for e in results] == list(range(n))
        for e in results:
            held = {parse_card(c) for c in e["cards"]}
            assert held == self.hands[e["seat"]], ("holding", e, self.hands[e["seat"]])
            assert e["count"] == points(held)
        counts = np.array([[e["count"] for e in results]])
        pay = [e["payout"] for e in results]
        assert sum(pay) == 0
        r = self.reason
        if r in ("tonk_out", "out", "hit_out"):
            w = self.last_actor
            assert not self.hands[w] and self.winner == w
            amount = 2 * s if r == "tonk_out" else s
            assert pay == [amount * (n - 1) if q == w else -amount for q in range(n)]
            if r != "out":
                want = "tonk_out" if (self.melded or not self.opts.tonk_out_requires_new_spread) else "hit_out"
                assert r == want, "end reason does not follow from the going-out turn"
        elif r in ("knock_won", "knock_caught"):
            k = self.last_actor
            bonus = ("all_others", "above_knocker_only", "none").index(self.opts.caught_lowest_bonus)
            want = expected_knock(counts, [k], s, bonus, self.opts.caught_knocker_also_pays_base)[0]
            assert pay == list(want)
            others = [c for q, c in enumerate(counts[0]) if q != k]
            assert (r == "knock_won") == (counts[0][k] < min(others))
        elif r in ("dry", "turn_cap"):
            assert pay == list(expected_dry(counts, s, self.opts.dry_tie_rule == "void")[0])
        elif r == "deal_tonk":
            w = self.winner
            assert counts[0][w] in deal_tonk_totals and pay[w] == 2 * s * (n - 1)
        else:
            assert r == "void_redeal" and pay == [0] * n


def check_deal(n, preset, mix, d, opts_arr, opts):
    sids, params = seats(mix)
    st, trace = _replay(SEED, d, opts_arr, sids, params, True)
    assert st[K.ERR] == 0
    names = [f"s{p}" for p in range(n)]
    events = trace_events(trace, st, names)
    assert format_trace(trace, st, names) == lines(events)
    chk = Checker(n, opts)
    body = [e for e in events if e["action"] != "result"]
    for e in body:
        chk.step(e)
    assert body[-1]["action"] == "end" and chk.reason == K.REASON_NAMES[st[K.REASON]]
    chk.finish([e for e in events if e["action"] == "result"], opts.deal_tonk_totals)
    return chk


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_events_re_derive_every_holding(preset, n):
    """A dozen deals per strategy mix, plus the first deal of each end reason in 800."""
    opts = TonkOptions(**PRESETS[preset])
    opts_arr = opts.to_array(n)
    seen_reasons, seen_actions = set(), set()
    for mix in MIXES:
        sids, params = seats(mix)
        rec = np.zeros((800, K.RECORD_COLS), np.int32)
        K.play_batch(SEED, 0, len(rec), opts_arr, sids, params, False, rec)
        reasons = rec[:, K.R_COL_REASON]
        picks = set(range(FIRST_DEALS)) | {int(np.flatnonzero(reasons == r)[0]) for r in set(reasons.tolist())}
        for d in sorted(picks):
            chk = check_deal(n, preset, mix, d, opts_arr, opts)
            assert chk.reason == K.REASON_NAMES[reasons[d]]
            seen_reasons.add(chk.reason)
            seen_actions |= chk.seen_actions
    assert {"deal", "draw", "take discard", "meld", "lay off", "discard", "knock", "end"} <= seen_actions
    assert {"tonk_out", "out", "knock_won", "knock_caught", "dry"} <= seen_reasons
    if opts.tonk_out_requires_new_spread:
        assert "hit_out" in seen_reasons


def test_hit_names_the_spread_by_its_cards():
    """tonk.md §12.4 played through the kernel under tonk_out_requires_new_spread: each hit
    names the run by its cards. The trace starts with rows that deal the stacked position and
    lay its spreads (what a real deal would have shown before)."""
    from test_tonk_rules import A, B, C, DRAW, hit, lay, opts_for, position
    opts = opts_for(3, tonk_out_requires_new_spread=True)
    st = position(opts, {A: "2D 3D", B: "4H 9H", C: "KC"},
                  runs={A: "5H 6H 7H"}, books={C: "QS QH QD"}, cur=B, stock="8H")
    trace = np.zeros((64, 4), np.int64)
    before = [(K.T_DEAL, A, parse_mask("2D 3D 5H 6H 7H"), 0), (K.T_DEAL, B, parse_mask("4H 9H"), 0),
              (K.T_DEAL, C, parse_mask("KC QS QH QD"), 0),
              (K.T_ACTION, A, lay("5H 6H 7H"), -1), (K.T_ACTION, C, lay("QS QH QD"), -1)]
    trace[:len(before)] = before
    st[K.TR_LEN] = len(before)
    for a in (DRAW, hit("8H", A), hit("9H", A), hit("4H", A)):
        K.apply_action(st, opts, a, trace)
    events = trace_events(trace, st, ["x", "y", "z"])
    text = lines(events)
    assert "      seat 0 (x): spreads 5H 6H 7H" in text
    assert "      seat 2 (z): spreads QH QD QS" not in text and "      seat 2 (z): spreads QD QH QS" in text
    assert "      seat 1 (y): draws 8H from the stock" in text
    assert "      seat 1 (y): hits 8H on 5H 6H 7H (seat 0's run)" in text
    assert "      seat 1 (y): hits 9H on 5H 6H 7H 8H (seat 0's run)" in text
    assert "      seat 1 (y): hits 4H on 5H 6H 7H 8H 9H (seat 0's run)" in text
    assert text[-4:] == ["end: hit_out, winner seat 1", "  seat 0: hand 2D 3D count 5 payout -1",
                         "  seat 1: hand - count 0 payout +2", "  seat 2: hand KC count 10 payout -1"]
    offs = [e for e in events if e["action"] == "lay off"]
    assert [e["target"] for e in offs] == [["5H", "6H", "7H"], ["5H", "6H", "7H", "8H"],
                                           ["5H", "6H", "7H", "8H", "9H"]]
    assert all(e["cards"] == [c] and e["owner"] == A for e, c in zip(offs, ["8H", "9H", "4H"]))
    assert [e["state"]["held"] for e in offs] == [[2, 2, 1], [2, 1, 1], [2, 0, 1]]
    assert events[-4]["reason"] == "hit_out"


def test_game_spec_has_trace_events():
    assert GAME.trace_events is trace_events
