"""Marafon replays checked from their events alone (``sim.games.marafon.trace_events``) by
code of this file: every play comes from the player's dealt cards and follows suit when it
can, each trick goes to the right card with the right value, the thirds, tricks, hand points,
game scores, claims and match result shown add up (marafon.md Part A)."""
import pytest

from cardsim.kernels import marafon as K
from cardsim.sim.games.marafon import GAME, PRESETS, MarafonOptions, format_trace, parse40, trace_events
from cardsim.sim.runner import make_config, replay
from cardsim.sim.trace import lines

STRENGTH = "4 5 6 7 J Q K A 2 3".split()           # weakest .. strongest within a suit
THIRDS = {"A": 3, "2": 1, "3": 1, "K": 1, "Q": 1, "J": 1}
LINEUPS = {"heuristic": ["heuristic"], "greedy": ["greedy"],
           "mixed": ["random:claim_prob=0.05", "heuristic", "greedy", "random"]}
MATCHES = 3


def card(text):
    return text[:-1], text[-1]                      # (rank, suit)


def value(cards):
    return sum(THIRDS.get(card(c)[0], 0) for c in cards)


def winner_index(cards, trump):
    best = 0
    for i in range(1, len(cards)):
        (r, s), (br, bs) = card(cards[i]), card(cards[best])
        if (s == bs and STRENGTH.index(r) > STRENGTH.index(br)) or (s == trump and bs != trump):
            best = i
    return best


def check_match(events, opts: MarafonOptions):
    for e in events:
        assert {"action", "seat", "text"} <= e.keys() and isinstance(e["text"], str)
        if e["action"] != "result":
            assert set(e["state"]) == {"thirds", "tricks", "score", "games"}
    games, score, thirds, tricks, declared = [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]
    hands, trick, trump, done, battitore = {}, [], None, 0, None
    plays = 0
    for e in events:
        act, p = e["action"], e["seat"]
        if act == "game":
            score = [0, 0]
        elif act == "hand":
            hands, thirds, tricks, declared = {}, [0, 0], [0, 0], [0, 0]
            trick, trump, done, battitore = [], None, 0, e["battitore"]
        elif act == "deal":
            assert len(e["cards"]) == 10 and len(parse40(" ".join(e["cards"]))) == 10
            hands[p] = set(e["cards"])
        elif act == "trump":
            assert p == battitore
            trump = e["suit"]
        elif act == "declare":
            assert done == 0, "a marafona declared after trick 1"
            assert set(e["cards"]) <= hands[p] and len(e["cards"]) == 3 * len(e["suits"])
            if opts.marafona_trump_only:
                assert e["suits"] == [trump]
            declared[p % 2] += len(e["suits"])
        elif act == "play":
            (c,) = e["cards"]
            assert c in hands[p], "played a card it was not dealt"
            if trick:
                led = card(trick[0][1])[1]
                if any(card(x)[1] == led for x in hands[p]):
                    assert card(c)[1] == led, "did not follow suit"
            hands[p].remove(c)
            trick.append((p, c))
            plays += 1
        elif act == "trick":
            assert e["cards"] == [c for _, c in trick] and len(trick) == 4
            w = trick[winner_index(e["cards"], trump)][0]
            assert p == w, "trick given to the wrong seat"
            done += 1
            want = value(e["cards"]) + (3 if done == 10 else 0)
            assert e["thirds"] == want
            thirds[w % 2] += want
            tricks[w % 2] += 1
            trick = []
        elif act == "claim":
            side = p % 2
            count = 3 * score[side] + thirds[side] + 3 * opts.marafona_points * declared[side]
            assert e["count"] == count and e["correct"] == (count >= opts.target_thirds)
        elif act == "score":
            assert done == 10 and sum(thirds) == 35
            pts = [thirds[s] // 3 + opts.marafona_points * declared[s] for s in range(2)]
            assert e["points"] == pts
            score = [score[s] + pts[s] for s in range(2)]
            assert e["scores"] == score
        elif act == "end":
            assert e["scores"] == score
            if e["side"] is not None:
                games[e["side"]] += 1
            if e["reason"] == "target":
                w = e["side"]
                assert 3 * score[w] >= opts.target_thirds > 3 * score[1 - w]
        if act != "result":
            assert e["state"]["thirds"] == thirds and e["state"]["tricks"] == tricks, e
            assert e["state"]["score"] == score and e["state"]["games"] == games
    results = [e for e in events if e["action"] == "result"]
    assert [e["seat"] for e in results] == [0, 1, 2, 3]
    side = 0 if games[0] > games[1] else (1 if games[1] > games[0] else -1)
    for e in results:
        assert e["games"] == games[e["side"]]
        assert e["payout"] == (0 if side < 0 else (1 if e["side"] == side else -1))
    return plays


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_events_replay_legally_and_add_up(preset, lineup):
    cfg = make_config("marafon", players=4, seed=11, strategies=LINEUPS[lineup], preset=preset)
    opts = MarafonOptions(**PRESETS[preset])
    for m in range(MATCHES):
        st, trace = replay(cfg, m)
        names = [s.strategy.name for s in cfg.seats]
        events = trace_events(trace, st, names)
        assert format_trace(trace, st, names) == lines(events)
        assert check_match(events, opts) > 0
        ends = [e for e in events if e["action"] == "end"]
        assert [sum(e["side"] == s for e in ends) for s in (0, 1)] == [int(st[K.GAMES]), int(st[K.GAMES + 1])]


def test_game_spec_has_trace_events():
    assert GAME.trace_events is trace_events
