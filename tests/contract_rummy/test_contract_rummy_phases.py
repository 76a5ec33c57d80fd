"""Contract Rummy's turn as kernel steps (issue 42): the phases (TP_DRAW, TP_ACT, TP_DISCARD,
TP_OOT) the batch's ``play_turn`` plays one after another are what the step adapter plays,
resuming the turn where its last question or stock draw stopped it (RS_*): at every decision
no answer of the turn is left to replay, the question is asked in its phase, and the state
where it was asked is the one a replay of the whole turn from its start stops at."""
import numpy as np
import pytest

from cardsim.kernels import contract_rummy as K
from cardsim.sim.games.contract_rummy.step import BASE
from cardsim.sim.step import new_game

SHORT = {"max_turns_per_deal": "12"}
DECISIONS = 400


def _phase(kind: int, info: int) -> int:
    """The turn phase a question of ``kind`` (V_INFO ``info``) is asked in."""
    if kind in (K.K_DRAW, K.K_BUY, K.K_VOLUNTEER):
        return K.TP_DRAW
    if kind == K.K_DISCARD:
        return K.TP_OOT if info else K.TP_DISCARD
    return K.TP_ACT


@pytest.mark.parametrize("preset", ["contract", "may_i"])
def test_a_phase_replays_to_the_turns_question(preset):
    s = new_game("contract_rummy", 4, preset, SHORT).new_state()
    rng = np.random.default_rng(5)
    phases, decisions = set(), 0
    while not s.is_terminal() and decisions < DECISIONS:
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(outs[rng.integers(len(outs))][0])
            continue
        decisions += 1
        kind, info = s.q[1], s.q[4]
        assert s.snap[0][K.TPC] == _phase(kind, info)
        assert s.pos == [len(a) for a in s.script]                      # every answer given is behind
        phases.add(int(s.snap[0][K.TPC]))
        _, _, vb, _, _, _ = s._play(np.zeros(K.SNAP_SIZE, np.int64))     # the whole turn, from its start
        whole = vb[K.SNAP_ST:K.SNAP_TAB].copy()
        assert vb[K.SNAP] == len(s.q[6]) and whole[K.TR_LEN] == len(s.rows) + s.snap[0][K.TR_LEN]
        whole[K.TR_LEN] = s.snap[0][K.TR_LEN]
        assert (whole == s.snap[0]).all()
        assert (vb[K.SNAP_TAB:K.SNAP_SIZE] == s.snap[1].ravel()).all()
        legal = s.legal_actions()
        meld = BASE[K.K_MELD] + 1                       # random play, but it melds when it can
        s.apply(meld if meld in legal else legal[rng.integers(len(legal))])
    assert phases >= {K.TP_DRAW, K.TP_ACT, K.TP_DISCARD}
