"""Replays checked the way an outsider would: every game is re-derived from its trace
events alone (sim.games.telefunken.trace_events), with code that shares nothing with the
kernels. Each seat's holding is rebuilt from the deal, draws, takes, purchases, the
exchange, melds, lay-offs and discards; every meld shown is checked against the rules; the
penalties scored are the points of what is left; the counts in each event's ``state``
agree."""
from collections import Counter

import numpy as np
import pytest

from cardsim.sim.registry import get_game
from cardsim.sim.runner import make_config, replay_events

GAME = get_game("telefunken")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def card_of(text):
    """'JK(8D)' -> ('JK', '8D'); '2S(8D)' -> ('2S', '8D'); '7C' -> ('7C', None)."""
    if "(" in text:
        name, stands = text[:-1].split("(")
        return name, stands
    return text, None


def rank_of(c):
    return c[:-1]


def points(opts, c):
    if c == "JK":
        return opts.joker_points
    r = RANKS.index(rank_of(c))
    if r == 0:
        return opts.ace_points
    if r >= 9:
        return 10
    low = opts.low_card_points
    if low == "face":
        return r + 1
    return low[r - 1] if isinstance(low, tuple) else low


def is_wild(opts, c):
    return c == "JK" or (opts.wild_twos and rank_of(c) == "2")


def wild_cap(opts, kind, naturals):
    cap = opts.max_wilds_in_group if kind == "group" else opts.max_wilds_in_run
    if opts.wild_ratio == "at_most_naturals":
        cap = min(cap, naturals)
    elif opts.wild_ratio == "fewer_than_naturals":
        cap = min(cap, naturals - 1)
    return cap


def check_meld(opts, shown):
    """A meld as the trace shows it is valid: a group (one rank, wild cards within the caps,
    or the wild trío) or a run (one suit, consecutive ranks as shown, wild cards standing for
    the missing cards)."""
    cards = [card_of(t) for t in shown]
    if any(stands for _, stands in cards):                      # a run: every position shown
        ranks = [RANKS.index(rank_of(stands or name)) for name, stands in cards]
        suits = {(stands or name)[-1] for name, stands in cards}
        assert len(suits) == 1, shown
        for a, b in zip(ranks, ranks[1:]):
            assert b == (a + 1) % 13, shown
            assert opts.allow_wraparound_runs or b != 0 or a == 12 and b == 0 and ranks[-1] == 0, shown
        nat = [n for n, s in cards if s is None]
        assert nat and all(not is_wild(opts, n) for n in nat), shown
        assert len(cards) - len(nat) <= wild_cap(opts, "run", len(nat)), shown
        assert 3 <= len(cards) <= 13, shown
        return "run"
    names = [n for n, _ in cards]
    nat = [n for n in names if not is_wild(opts, n)]
    wild = len(names) - len(nat)
    if not nat:
        assert opts.wild_trio and wild == 3, shown
        return "group"
    if len({rank_of(n) for n in nat}) == 1 and len(names) >= 3:
        assert wild <= wild_cap(opts, "group", len(nat)), shown
        return "group"
    # a run without wild cards: one suit, consecutive
    ranks = [RANKS.index(rank_of(n)) for n in names]
    assert len({n[-1] for n in names}) == 1 and len(names) >= 3, shown
    for a, b in zip(ranks, ranks[1:]):
        assert b == (a + 1) % 13, shown
    return "run"


def rederive(opts, events, n):
    held = [Counter() for _ in range(n)]
    melds = {}
    hands = 0
    for e in events:
        a, p = e["action"], e["seat"]
        if a == "hand":
            held = [Counter() for _ in range(n)]
            melds = {}
            hands += 1
        elif a == "deal":
            held[p] = Counter(e["cards"])
        elif a == "exchange":
            held[p] = Counter(e["cards"])
        elif a in ("draw", "take discard", "buy"):
            held[p].update(e["cards"])
        elif a in ("discard", "pass card"):
            assert held[p][e["cards"][0]] > 0, e
            held[p][e["cards"][0]] -= 1
        elif a == "meld":
            if "exchange" in e:                                 # Ecuador: a natural for a table joker
                ex = e["exchange"]
                check_meld(opts, ex["result"])
                held[p][ex["card"]] -= 1
                held[p].update(Counter(card_of(t)[0] for t in ex["target"])
                               - Counter(card_of(t)[0] for t in ex["result"]))
            for m in e["melds"]:
                check_meld(opts, m)
                for t in m:
                    name = card_of(t)[0]
                    assert held[p][name] > 0, (e, name)
                    held[p][name] -= 1
            melds.setdefault(p, []).extend(e["melds"])
        elif a in ("lay off", "shift joker", "retrieve joker", "take back wild"):
            check_meld(opts, e["result"])
            for c in e["cards"]:
                assert held[p][c] > 0, e
                held[p][c] -= 1
            before = Counter(card_of(t)[0] for t in e["target"])
            after = Counter(card_of(t)[0] for t in e["result"])
            back = before - after                              # the wild card that left the meld
            assert all(is_wild(opts, c) for c in back) and sum(back.values()) <= 1, e
            held[p].update(back)
            assert sum(after.values()) == sum(before.values()) + len(e["cards"]) - sum(back.values()), e
        elif a == "end":
            if e.get("out") is not None:
                assert sum(held[e["out"]].values()) == 0, e
        elif a == "score":
            left = sum(points(opts, c) * k for c, k in held[p].items())
            assert e["penalty"] == left or opts.exact_cut_bonus in ("points", "erase_previous") \
                or e.get("penalty") == 0 and sum(held[p].values()) == 0, (e, held[p])
        if "state" in e:
            assert e["state"]["held"] == [sum(h.values()) for h in held], e
    return hands


CASES = [(preset, strategy) for preset in sorted(GAME.presets) for strategy in ("greedy", "random")]


@pytest.mark.parametrize("preset, strategy", CASES)
def test_replays_rederive_from_the_events(preset, strategy):
    over = ["max_turns_per_hand=120"] if strategy == "random" else []
    cfg = make_config("telefunken", 4, 4, 21, [strategy, "greedy", "patient", "chip_saver"], over, preset, 1, True)
    for deal in range(3):
        events = replay_events(cfg, deal)
        hands = rederive(cfg.options, events, 4)
        assert hands == cfg.options.hands
        assert any(e["action"] == "meld" for e in events)


def test_dealer_choice_and_three_players_rederive():
    cfg = make_config("telefunken", 3, 2, 4, ["greedy", "random", "greedy"], ["dealer_chooses_contract=true"],
                      "ecuador", 1, True)
    events = replay_events(cfg, 1)
    rederive(cfg.options, events, 3)
    chosen = [e["contract"] for e in events if e["action"] == "choose contract"]
    assert sorted(chosen) == list(range(1, 8))


def test_events_serialise():
    import json
    cfg = make_config("telefunken", 4, 1, 2, ["greedy"], [], "peru2", 1, False)
    events = replay_events(cfg, 0)
    json.dumps(events)
    assert np.mean([("state" in e) for e in events if e["action"] not in ("result",)]) == 1.0
