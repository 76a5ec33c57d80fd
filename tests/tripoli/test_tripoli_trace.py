"""Tripoli replays checked from their events alone (``sim.games.tripoli.trace_events``) by
code of this file: the chips of every seat and every board space (and the clearing pot)
follow from the antes, sales, stakes, collections and payments shown, and are conserved;
every hand follows from the deal, the widow swaps and sales and the Phase-3 plays; each
Michigan sequence starts with the leader's lowest card of the suit and climbs to a real stop;
the Michigan payments equal the cards left (tripoli.md sections 2-9)."""
import pytest

from cardsim.kernels import tripoli as K
from cardsim.sim.games.tripoli import GAME, PRESETS, format_trace, trace_events
from cardsim.sim.notation import parse_card
from cardsim.sim.runner import make_config, replay
from cardsim.sim.trace import lines

# one heuristic seat calls every bet (call_at=0), so the few deals replayed reach showdowns
# (the default heuristic bluffs and folds enough that half its pots are won uncontested)
LINEUPS = {"heuristic": ["heuristic", "heuristic", "heuristic:call_at=0,odds_weight=0", "heuristic"],
           "random": ["random"]}
DEALS = (0, 3, 4)          # with 4 players: deal 3 ends its session (clearing round), 4 starts one
N = 4


def ah(c):
    """Ace-high rank 0 (2) .. 12 (A)."""
    return (c % 13 + 12) % 13


def successor(c):
    return None if ah(c) == 12 else (c // 13) * 13 + (ah(c) + 2) % 13


def check_deal(events):
    for e in events:
        assert {"action", "seat", "text"} <= e.keys() and isinstance(e["text"], str)
    body = [e for e in events if e["action"] != "result"]
    assert body[0]["action"] == "hand" and body[1]["action"] == "ante"
    ante = body[1]["chips"]
    boards = [e for e in body[2:11] if e["action"] == "board"]
    assert [e["space"] for e in boards] == list(K.SPACE_NAMES)
    board = {e["space"]: e["chips"] for e in boards}
    chips = [-9 * ante] * N
    total = sum(board.values()) + sum(chips)
    hands, widow, played = {}, set(), set()
    clearing = None                       # [pot, reserve]
    run = None                            # [seat to play next, last card] in a Michigan sequence
    paid_out = {}
    for e in body[1:]:
        act, p = e["action"], e["seat"]
        cards = [parse_card(c) for c in e.get("cards", [])]
        if act == "deal" and not e.get("clearing"):
            if e.get("widow"):
                widow = set(cards)
            else:
                hands[p] = set(cards)
        elif act == "swap":
            assert set(cards) == widow
            hands[p], widow = widow, hands[p]
        elif act == "buy":
            chips[p] -= e["price"]
            if e.get("to") is not None:
                chips[e["to"]] += e["price"]
                assert set(cards) == widow, "bought something that is not the widow"
                hands[p], widow = widow, hands[p]
            else:
                board["kitty"] += e["price"]
        elif act == "collect":
            chips[p] += e["chips"]
            if e["space"] == "clearing":
                clearing[0] -= e["chips"]
            else:
                board[e["space"]] -= e["chips"]
        elif act in ("check", "call", "bet", "raise"):
            c = e.get("chips", 0)
            assert c >= 0 and (act != "check" or c == 0)
            chips[p] -= c
            if clearing is None:
                board["pot"] += c
            else:
                clearing[0] += c
        elif act == "clearing":
            if clearing is None:
                clearing = [0, sum(board.values())]
                board = dict.fromkeys(board, 0)
            assert clearing[0] == 0
            clearing = [e["prize"], clearing[1] - e["prize"]]
        elif act == "pick":
            assert cards[0] in hands[p]
        elif act == "lead":
            run = [p, None, "CDHS".index(e["suit"])]
        elif act == "play":
            (c,) = cards
            assert c in hands[p], "played a card it does not hold"
            if run[1] is None:
                assert p == run[0] and c // 13 == run[2]
                assert ah(c) == min(ah(x) for x in hands[p] if x // 13 == run[2]), "not the lowest of the suit"
            else:
                assert c == successor(run[1]), "the sequence skipped a card"
            hands[p].remove(c)
            played.add(c)
            run[1] = c
        elif act == "stop":
            nxt = successor(run[1])
            assert nxt is None or nxt in widow or nxt in played, "stopped while the next card was held"
            assert cards == [run[1]]
        elif act == "pay":
            assert e["chips"] == len(hands[p]), "a Michigan payment is one chip per card left"
            paid_out[p] = e["chips"]
            chips[p] -= e["chips"]
            if e.get("to") is not None:
                chips[e["to"]] += e["chips"]
            else:
                board["kitty"] += e["chips"]
        elif act == "end":
            if e["reason"] == "out":
                w = e["out"]
                assert not hands[w] and set(paid_out) == {q for q in range(N) if q != w and hands[q]}
            elif e["reason"] == "blocked":
                assert set(paid_out) == set(range(N))
        s = e["state"]
        assert s["chips"] == chips, e
        assert s["board"] == board, e
        assert s["held"] == [len(hands.get(q, ())) for q in range(N)], e
        assert s.get("clearing") == (None if clearing is None else {"pot": clearing[0], "reserve": clearing[1]})
        assert sum(chips) + sum(board.values()) + (sum(clearing) if clearing else 0) == total, "chips not conserved"
    results = [e for e in events if e["action"] == "result"]
    assert [e["seat"] for e in results[:N]] == list(range(N))
    for e in results[:N]:
        assert {parse_card(c) for c in e["cards"]} == hands[e["seat"]]
        assert e["payout"] == chips[e["seat"]]
    assert results[N]["board"] == board
    return {e["action"] for e in body}


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_events_add_up(preset, lineup):
    cfg = make_config("tripoli", players=N, seed=17, strategies=LINEUPS[lineup], preset=preset)
    seen = set()
    for d in DEALS:
        st, trace = replay(cfg, d)
        names = [x.strategy.name for x in cfg.seats]
        events = trace_events(trace, st, names)
        assert format_trace(trace, st, names) == lines(events)
        seen |= check_deal(events)
        results = [e for e in events if e["action"] == "result"]
        assert [e["payout"] for e in results[:N]] == [int(st[K.CHIPS + p]) for p in range(N)]
        assert list(results[N]["board"].values()) == [int(st[K.BOARD + i]) for i in range(9)]
    assert {"deal", "collect", "pick", "show", "pot", "lead", "play", "stop", "end"} <= seen
    if preset != "long_session":                      # sessions of 12 deals: no clearing in DEALS
        assert "clearing" in seen


def test_game_spec_has_trace_events():
    assert GAME.trace_events is trace_events


def test_the_trace_numbers_deals_as_the_head_and_records_do():
    """Issue 43: the replay's head says deal D (the run's index, as --deal) and the trace's deal
    line the session and its deal counted from 0, as the records' deal_in_session: deal 12 of a
    run of 5-deal sessions is session 2's deal 2 (it said "deal 3" before)."""
    from cli_helpers import invoke
    r = invoke("replay", "tripoli", "--deal", "12", "-o", "deals_per_session=5")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert "deal 12" in lines[0] and lines[1].startswith("== session 2, its deal 2 (0-based"), lines[:2]
