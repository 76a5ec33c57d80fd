"""Trionfo replays checked from their events alone (``sim.games.trionfo.trace_events``) by
code of this file: bids rise, every play comes from the player's dealt cards and follows
suit when it can, each trick goes to the right card with the right value, and the thirds,
tricks, sides, points and money shown add up (marafon.md Part B)."""
import pytest

from cardsim.kernels import trionfo as K
from cardsim.sim.games.trionfo import GAME, PRESETS, TrionfoOptions, format_trace, trace_events
from cardsim.sim.runner import make_config, replay
from cardsim.sim.trace import lines

STRENGTH = "4 5 6 7 J Q K A 2 3".split()
THIRDS = {"A": 3, "2": 1, "3": 1, "K": 1, "Q": 1, "J": 1}
LINEUPS = {"heuristic": ["heuristic"], "greedy": ["greedy"], "mixed": ["random", "heuristic", "greedy", "random", "heuristic"]}
SESSIONS = 2
N = 5


def card(text):
    return text[:-1], text[-1]


def value(cards):
    return sum(THIRDS.get(card(c)[0], 0) for c in cards)


def winner_index(cards, trump):
    best = 0
    for i in range(1, len(cards)):
        (r, s), (br, bs) = card(cards[i]), card(cards[best])
        if (s == bs and STRENGTH.index(r) > STRENGTH.index(br)) or (s == trump and bs != trump):
            best = i
    return best


def check_session(events, opts: TrionfoOptions):
    money = [0] * N
    hands, trick, thirds, tricks, contract, high, public = {}, [], [0] * N, [0] * N, None, 0, False
    done = 0
    hand_money = []
    for e in events:
        act, p = e["action"], e["seat"]
        assert {"action", "seat", "text"} <= e.keys() and isinstance(e["text"], str)
        if act == "hand":
            hands, trick, thirds, tricks, contract, high, public, done = {}, [], [0] * N, [0] * N, None, 0, False, 0
        elif act == "deal":
            assert len(e["cards"]) == 8
            hands[p] = set(e["cards"])
        elif act == "bid":
            if e["level"]:
                assert e["level"] > high, "a bid that does not rise"
                high = e["level"]
        elif act == "redeal":
            assert high == 0
        elif act == "contract":
            assert e["level"] == high and e["level"] > 0
            partner = e.get("partner")
            called = e.get("called")
            if called is not None:
                assert called not in hands[p] or opts.trionfo_allow_self_call
                owner = [q for q in range(N) if called in hands[q]]
                assert owner == [partner], "the partner is not the holder of the called card"
            contract = (p, partner, called, e["trump"], e["level"])
            public = partner is None or called is None
        elif act == "play":
            (c,) = e["cards"]
            assert c in hands[p], "played a card it was not dealt"
            if trick:
                led = card(trick[0][1])[1]
                if any(card(x)[1] == led for x in hands[p]):
                    assert card(c)[1] == led, "did not follow suit"
            hands[p].remove(c)
            trick.append((p, c))
            if contract and c == contract[2]:
                public = True
        elif act == "trick":
            assert e["cards"] == [c for _, c in trick] and len(trick) == N
            w = trick[winner_index(e["cards"], contract[3])][0]
            assert p == w
            done += 1
            want = value(e["cards"]) + (3 if done == K.TRICKS else 0)
            assert e["thirds"] == want
            thirds[w] += want
            tricks[w] += 1
            trick = []
        elif act == "score":
            d, partner, _, _, level = contract
            assert p == d and done == K.TRICKS and sum(thirds) == 35
            side = {d} | ({partner} if partner is not None else set())
            pts = sum(thirds[q] for q in side) // 3
            assert e["points"] == pts and e["won"] == (pts >= opts.trionfo_win_points)
            s = opts.trionfo_bid_stakes[level - 1]
            assert e["stake"] == s
            sign = 1 if e["won"] else -1
            mate = partner is not None and partner != d
            want = [-sign * s] * N
            want[d] = sign * s * (2 if mate else 4)
            if mate:
                want[partner] = sign * s
            hand_money = want
        elif act == "money":
            assert e["hand_money"] == hand_money[p]
            money[p] += hand_money[p]
            assert e["session"] == money[p]
        if act != "result":
            st = e["state"]
            assert st["thirds"] == thirds and st["tricks"] == tricks and st["money"] == money, e
            if contract and public:
                d, partner = contract[0], contract[1]
                side = sorted({d} | ({partner} if partner is not None else set()))
                ts = sum(thirds[q] for q in side)
                ks = sum(tricks[q] for q in side)
                assert st["sides"] == {"declarer": side, "thirds": [ts, sum(thirds) - ts],
                                       "tricks": [ks, sum(tricks) - ks]}
            else:
                assert "sides" not in st
    results = [e for e in events if e["action"] == "result"]
    assert [e["seat"] for e in results] == list(range(N))
    assert [e["payout"] for e in results] == money and sum(money) == 0


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_events_replay_legally_and_add_up(preset, lineup):
    cfg = make_config("trionfo", players=5, seed=13, strategies=LINEUPS[lineup], preset=preset,
                      options=["trionfo_hands=4"])
    opts = TrionfoOptions(**{**PRESETS[preset], "trionfo_hands": 4})
    for s in range(SESSIONS):
        st, trace = replay(cfg, s)
        names = [x.strategy.name for x in cfg.seats]
        events = trace_events(trace, st, names)
        assert format_trace(trace, st, names) == lines(events)
        check_session(events, opts)
        assert [e["payout"] for e in events if e["action"] == "result"] == [int(st[K.MONEY + p]) for p in range(N)]


def test_game_spec_has_trace_events():
    assert GAME.trace_events is trace_events
