"""Contract Rummy replays checked the way an outsider would: from the trace events alone
(sim.games.contract_rummy.trace_events), with code that shares nothing with the engine.

For every deal of every replayed game the check rebuilds each seat's holding from its dealt
cards, draws, taken discards, penalty cards and buys minus what it melds, lays off, swaps in
and discards; the stock and the discard pile likewise. It then requires that

* every event's ``state`` (cards held per seat, stock and pile sizes) matches the rebuilt
  counts, and every card taken from the pile was its top card;
* every meld shown is valid as shown (a set of one rank, a run of one suit whose cards,
  jokers written as the card they stand for, follow position by position) and satisfies the
  options: the deal's contract shape, exact first melds, untouching same-suit runs, the
  naturals per meld, deal 7 going out;
* lay-offs name the meld as it is on the table and leave it valid; no lay-off (nor a joker
  laid from a swap) on the meld turn; fixed jokers keep their places;
* a seat never discards the type of the card it took from the pile that turn (unless it
  holds nothing else), and out-of-turn draws come before out-of-turn discards;
* each score's penalty is the points of the holding left (0 for the seat out, or in a void
  deal), and the totals add up.

A few hundred deals: every preset with the random and greedy strategies, and the options
issue 12 added.
"""
from collections import Counter

import pytest

from cardsim.sim.games.contract_rummy import PRESETS
from cardsim.sim.registry import get_game, seat_arrays, seat_table

GAME = get_game("contract_rummy")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"
SHAPES = [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]       # §6: (sets, runs)


def parse(card):
    """'10H' -> (rank index, suit index); 'JK' -> None."""
    return None if card == "JK" else (RANKS.index(card[:-1]), SUITS.index(card[-1]))


def base(card):
    """A table card as held: 'JK(8D)' -> 'JK'."""
    return "JK" if card.startswith("JK") else card


def stands_for(card):
    return parse(card[3:-1]) if card.startswith("JK(") else parse(card)


def points(card, joker_points):
    if card == "JK":
        return joker_points
    r = parse(card)[0]
    return 15 if r == 0 else min(r + 1, 10)


def naturals(meld):
    return sum(not c.startswith("JK") for c in meld)


def shown_kind(meld):
    """'set' or 'run' if the meld is valid exactly as shown, else None."""
    cards = [stands_for(c) for c in meld]
    if len(meld) >= 3 and len({r for r, _ in cards}) == 1:
        return "set"
    if not 4 <= len(meld) <= 14 or len({s for _, s in cards}) != 1:
        return None
    first = next(i for i, (r, _) in enumerate(cards) if r != 0) if any(r for r, _ in cards) else None
    if first is None:
        return None
    lo = cards[first][0] + 1 - first
    for i, (r, _) in enumerate(cards):
        pos = lo + i
        if not (r + 1 == pos or (r == 0 and pos in (1, 14))):
            return None
    return "run"


def run_window(meld):
    cards = [stands_for(c) for c in meld]
    first = next(i for i, (r, _) in enumerate(cards) if r != 0)
    lo = cards[first][0] + 1 - first
    return cards[0][1], lo, lo + len(meld) - 1


def multiset_valid(cards, kmin):
    """Held cards (jokers plain) form some valid meld (any joker assignment)."""
    nat = [parse(c) for c in cards if c != "JK"]
    if len(nat) < kmin:
        return False
    if len({r for r, _ in nat}) == 1 and len(cards) >= 3:
        return True
    if len({s for _, s in nat}) != 1 or not 4 <= len(cards) <= 14:
        return False
    for lo in range(1, 16 - len(cards)):
        hi = lo + len(cards) - 1
        free = set(range(lo, hi + 1))
        ok = True
        for r, _ in sorted(nat, key=lambda x: x[0] == 0):
            spots = [p for p in ((1, 14) if r == 0 else (r + 1,)) if p in free]
            if not spots:
                ok = False
                break
            free.discard(spots[0])
        if ok:
            return True
    return False


class Checker:
    def __init__(self, options, n):
        self.o = options
        self.n = n
        self.kmin = options.min_naturals_per_meld
        self.jp = options.joker_points
        self.pack = options.pack_size(n)

    def fail(self, msg):
        raise AssertionError(f"{msg} (event {self.k}: {self.e['text']!r})")

    def check_state(self, e):
        st = e.get("state")
        if st is None:
            return
        held = [sum(h.values()) for h in self.hands]
        if st["held"] != held or st["stock"] != self.stock or st["pile"] != len(self.pile):
            self.fail(f"state {st} but rebuilt held {held} stock {self.stock} pile {len(self.pile)}")

    def give(self, p, card):
        self.hands[p][card] += 1

    def take(self, p, card):
        if self.hands[p][card] <= 0:
            self.fail(f"seat {p} gives up {card} it does not hold")
        self.hands[p][card] -= 1

    def table_meld(self, meld, exact_kind=None):
        kind = shown_kind(meld)
        if kind is None or (exact_kind and kind != exact_kind):
            self.fail(f"invalid meld as shown: {meld}")
        if naturals(meld) < self.kmin:
            self.fail(f"meld with fewer than {self.kmin} naturals: {meld}")
        return kind

    def same_meld(self, mid, shown):
        if mid not in self.table or Counter(map(base, shown)) != Counter(map(base, self.table[mid])):
            self.fail(f"target {shown} is not meld {mid} on the table {self.table.get(mid)}")
        self.table_meld(shown)
        if self.o.joker_position == "fixed" and shown_kind(shown) == "run":
            old = {c for c in self.labels.get(mid, ()) if c.startswith("JK(")}
            if not old <= set(shown):
                self.fail(f"fixed jokers moved: {self.labels[mid]} -> {shown}")
        self.labels[mid] = list(shown)

    def check(self, events, st_totals):
        totals = [0] * self.n
        shown = [0] * self.n
        deal = 0
        for self.k, self.e in enumerate(events):
            e, a, p = self.e, self.e["action"], self.e["seat"]
            if a == "hand":
                deal = e["deal"]
                self.hands = [Counter() for _ in range(self.n)]
                self.stock, self.pile, self.table, self.labels = self.pack, [], {}, {}
                self.turns = [0] * self.n
                self.meld_turn = [None] * self.n
                self.taken = None                      # (seat, card) taken this turn
                self.pending_oot = None
                self.out = None
                if e["cut"] and self.o.cut_bonus_points and self.o.cut_bonus_recipient == "cutter":
                    totals[(e["dealer"] - 1) % self.n] -= self.o.cut_bonus_points
                self.cut = e["cut"]
                self.dealer = e["dealer"]
            elif a == "deal":
                for c in e["cards"]:
                    self.give(p, c)
                self.stock -= len(e["cards"])
                if len(e["cards"]) != self.o.hand_sizes[deal - 1]:
                    self.fail("wrong hand size dealt")
            elif a == "upcard":
                self.stock -= 1
                self.pile = [e["cards"][0]]
            elif a == "reshuffle":
                self.stock = len(self.pile) - 1
                self.pile = self.pile[-1:]
            elif a in ("draw", "penalty card"):
                if e.get("out_of_turn"):
                    self.pending_oot = p
                elif a == "draw":
                    self.new_turn(p)
                self.stock -= 1
                self.give(p, e["cards"][0])
            elif a in ("take discard", "buy"):
                c = e["cards"][0]
                if not self.pile or self.pile[-1] != c:
                    self.fail(f"took {c} but the top of the pile is {self.pile[-1:]}")
                self.pile.pop()
                self.give(p, c)
                if a == "take discard":
                    self.new_turn(p)
                    self.taken = (p, c)
            elif a == "meld":
                self.meld(p, deal, e)
            elif a == "lay off":
                if self.meld_turn[p] is None or self.meld_turn[p] == self.turns[p]:
                    self.fail("lay-off before or on the meld turn")
                self.same_meld(e["meld_id"], e["target"])
                c = e["cards"][0]
                self.take(p, c)
                new = list(map(base, self.table[e["meld_id"]])) + [c]
                if not multiset_valid(new, self.kmin):
                    self.fail(f"lay-off leaves an invalid meld {new}")
                self.table[e["meld_id"]] = new
            elif a == "swap":
                self.swap(p, e)
            elif a == "discard":
                c = e["cards"][0]
                if e["out_of_turn"]:
                    if self.pending_oot != p:
                        self.fail("out-of-turn discard without its draw first")
                    self.pending_oot = None
                elif self.taken == (p, c) and not self.o.may_discard_taken_card and \
                        sum(self.hands[p].values()) != self.hands[p][c]:
                    self.fail(f"seat {p} discards {c}, the type of the card it took")
                self.take(p, c)
                self.pile.append(c)
            elif a == "end":
                self.out = e["out"] if e["out"] >= 0 else None
                if self.out is not None and sum(self.hands[self.out].values()):
                    self.fail("the seat out still holds cards")
                self.void = self.o.dead_stock_rule == "void_deal" and e["reason"] != "out"
            elif a == "score":
                left = sum(points(c, self.jp) * k for c, k in self.hands[p].items())
                if e["points"] != left:
                    self.fail(f"seat {p} holds {left} points, the score says {e['points']}")
                want = 0 if p == self.out or self.void else left
                if e["penalty"] != want:
                    self.fail(f"seat {p} penalty {e['penalty']} but the holding is worth {want}")
                totals[p] += want
                shown[p] = e["total"]
                if p == self.n - 1:
                    if self.cut and self.o.cut_bonus_recipient == "deal_winner" and self.out is not None:
                        totals[self.out] -= self.o.cut_bonus_points
                    if shown != totals:
                        self.fail(f"totals {shown} after the deal, but the scores add up to {totals}")
            elif a == "result" and (e["total"] != totals[p] or e["total"] != st_totals[p]):
                self.fail(f"seat {p} total {e['total']} but the scores add up to {totals[p]}")
            self.check_state(e)
            if a in ("meld", "lay off") and self.o.go_out_requires_discard and not sum(self.hands[p].values()) \
                    and not (deal == 7 and self.o.deal7_special):
                self.fail("went out without a final discard")

    def new_turn(self, p):
        self.turns[p] += 1
        self.taken = None
        self.turn_seat = p

    def meld(self, p, deal, e):
        if self.meld_turn[p] is not None:
            self.fail("a second contract meld")
        sets, runs = SHAPES[deal - 1]
        kinds = [self.table_meld(m) for m in e["melds"]]
        if sorted(kinds) != sorted(["set"] * sets + ["run"] * runs):
            self.fail(f"contract shape {kinds} in deal {deal}")
        exact = self.o.initial_meld_exact_size and not (deal == 7 and self.o.deal7_special)
        for m, kind in zip(e["melds"], kinds):
            if exact and len(m) != (3 if kind == "set" else 4):
                self.fail(f"first meld not of the exact size: {m}")
        if self.o.forbid_contiguous_runs:
            w = [run_window(m) for m, kind in zip(e["melds"], kinds) if kind == "run"]
            for i in range(len(w)):
                for j in range(i + 1, len(w)):
                    if w[i][0] == w[j][0] and (w[i][2] + 1 == w[j][1] or w[j][2] + 1 == w[i][1]):
                        self.fail("touching same-suit runs in one contract meld")
        for mid, m in zip(e["ids"], e["melds"]):
            for c in m:
                self.take(p, base(c))
            self.table[mid] = list(m)
            self.labels[mid] = list(m)
        self.meld_turn[p] = self.turns[p]
        if deal == 7 and self.o.deal7_special and sum(self.hands[p].values()):
            self.fail("deal 7 meld that does not go out")

    def swap(self, p, e):
        mid, c = e["meld_id"], e["cards"][0]
        meld_turn = self.meld_turn[p] is None or self.meld_turn[p] == self.turns[p]
        if e["joker"] == "meld":
            if self.meld_turn[p] is not None or self.o.joker_swap_requires_prior_meld:
                self.fail("a swap into the meld by a seat that is down, or not allowed")
        elif meld_turn and (self.o.joker_swap_requires_prior_meld or e["joker"] == "laid"):
            self.fail("swap on the meld turn laying the joker off")
        self.same_meld(mid, e["target"])
        run = list(map(base, self.table[mid]))
        run.remove("JK")
        run.append(c)
        if not multiset_valid(run, self.kmin) or shown_kind(e["target"]) != "run":
            self.fail("swap leaves an invalid run")
        if self.o.joker_position == "fixed" and f"JK({c})" not in e["target"]:
            self.fail(f"fixed joker swapped for {c}, a card it does not stand for")
        self.table[mid] = run
        self.labels.pop(mid, None)
        self.take(p, c)
        if e["joker"] == "laid":
            t = e["joker_meld_id"]
            self.same_meld(t, e["joker_target"])
            self.table[t] = list(map(base, self.table[t])) + ["JK"]
            self.labels.pop(t, None)
        else:
            self.give(p, "JK")


CASES = [(preset, strategy, {}) for preset in sorted(PRESETS) for strategy in ("random", "greedy")] + [
    ("contract", "random", {"joker_position": "fixed"}),
    ("contract", "greedy", {"joker_position": "fixed", "min_naturals_per_meld": 2}),
    ("may_i", "greedy", {"go_out_requires_discard": True, "min_naturals_per_meld": 2}),
    ("may_i", "random", {"go_out_requires_discard": True, "may_i_model": "none"}),
    ("contract", "random", {"joker_swap_requires_prior_meld": False, "swapped_joker_may_be_discarded": True,
                            "may_i_model": "buy"}),
    ("contract", "greedy", {"joker_swap_requires_prior_meld": False, "dead_stock_rule": "void_deal",
                            "cut_bonus_points": 50, "cut_success_prob": 0.5, "cut_bonus_recipient": "deal_winner"}),
    ("liverpool", "greedy", {"cut_success_prob": 0.5, "may_i_model": "buy", "min_naturals_per_meld": 3}),
]


@pytest.mark.parametrize("preset,strategy,over", CASES)
def test_replays_rederived_from_events(preset, strategy, over):
    n = 3 + len(over) % 3 if over else 4
    options = GAME.options_cls(**{**GAME.presets[preset], "max_turns_per_deal": 250, **over})
    opts = options.to_array(n)
    sids, params = seat_arrays(GAME, seat_table(GAME, [strategy], n))
    for game in range(4):
        st, trace = GAME.replay(20 + game, game, opts, sids, params, True)
        assert GAME.state_error(st) == 0                  # no check-mode violation either
        events = GAME.trace_events(trace, st, [strategy] * n)
        assert events[-1]["action"] == "result" and not any(e["action"] == "truncated" for e in events)
        assert sum(e["action"] == "hand" for e in events) == 7
        Checker(options, n).check(events, [-x for x in GAME.state_payouts(st, n)])
        assert GAME.format_trace(trace, st, [strategy] * n) == [e["text"] for e in events]
