"""Trionfo strategies (issue 15): self-call by hand strength (a secret solo), the fuzzer's
coverage of every end reason, and no peeking."""
import numpy as np
import pytest

from kernels import trionfo as K
from kernels.rng import seed_stream
from sim.games.marafon import mask40, parse40
from sim.games.trionfo import GAME, TrionfoOptions
from sim.registry import seat_arrays, seat_table


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
