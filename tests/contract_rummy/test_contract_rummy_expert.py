"""Contract Rummy's expert (issue 41): cautious counts one ace card in a low and a high run of
its suit at once, and a run's cards in a set too; the expert counts each card once. On the
critique's worst positions of issue 16's strong (seed 0: game 11, deal 3, two runs of exactly
four; game 5, deal 6, a set of three and two runs of four)."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.sim.notation import parse_card
from cardsim.sim.registry import get_game, parse_seat

GAME = get_game("contract_rummy")


def holding(text):
    h = np.zeros(K.HOLD, np.int64)
    for t in text.split():
        h[parse_card(t)] += 1
    return h


def need(h, deal, exact):
    opts = GAME.options_cls().to_array(4)
    return int(K.contract_need(h, K.spec_of(opts, deal), K.rules_of(opts), np.zeros(64, np.int64), exact))


def test_one_ace_counts_in_one_run_for_the_expert_only():
    h = holding("7C 8C AD 2D 3D 4D JD QD KD AH QH KH")
    assert need(h, 3, False) == 0          # cautious: AD 2D 3D 4D and JD QD KD AD, "two runs held"
    assert need(h, 3, True) == 1           # the expert: one run held, QH KH AH short of JH
    h[parse_card("JH")] += 1
    assert need(h, 3, True) == 0           # the discard strong drew past completes it


def test_two_copies_of_the_ace_may_close_both_ends():
    h = holding("AD AD 2D 3D 4D JD QD KD")
    assert need(h, 3, True) == need(h, 3, False) == 0


def test_the_expert_is_strongs_point_with_the_exact_count():
    expert = parse_seat(GAME, "expert")
    strong = parse_seat(GAME, "strong")
    assert expert.values == strong.values and GAME.strategies["expert"].sid == K.S_EXPERT


def test_a_card_in_a_run_window_does_not_count_in_a_set_for_the_expert():
    """The critique's second-worst position (seed 0, game 5, deal 6: a set of three and two runs
    of four): AD 2D 3D 4D is a run and AS AS with AD no set; KH (on the pile) makes KD KD KH one,
    which the expert sees and cautious does not."""
    h = holding("2C 5C AD 2D 2D 3D 4D KD KD AS AS JK")
    before = need(h, 6, True)
    h[parse_card("KH")] += 1
    assert need(h, 6, True) == before - 1
    h[parse_card("KH")] -= 1
    cautious = need(h, 6, False)
    h[parse_card("KH")] += 1
    assert need(h, 6, False) == cautious                   # cautious sees no gain in KH


def test_critique_fixes_plugin_is_strong_with_its_fix_off():
    """examples/contract_rummy_critique_fixes.py (issue 41's easy-gains plug-in): its fix is strong's
    own shed_at now, so with panic 0 (off) it plays strong and with panic k on strong:shed_at=0 it
    plays strong:shed_at=k."""
    from pathlib import Path

    import cardsim
    label = f"{Path(__file__).resolve().parents[2] / 'examples' / 'contract_rummy_critique_fixes.py'}:fixes"

    def records(seat):
        res = cardsim.run("contract_rummy", players=4, deals=20, strategies=[seat] + ["strong"] * 3, seed=11,
                          workers=1)
        rec = res.records
        num = [c for c in rec.columns if rec[c].dtype.kind in "iuf"]
        return rec[num].reset_index(drop=True)

    base = records("strong")
    assert base.equals(records(f"{label}:panic=0")) and base.equals(records(label))
    two = records("strong:shed_at=2")
    assert two.equals(records(f"{label}:panic=2")) and not two.equals(base)
