"""Plug-in strategies in Contract Rummy (issue 17): every decision kind (``cardsim.contract_rummy``)
asked of a user's numba ``decide``.

* the example (greedy with its own May-I limit) plays exactly mayi:max_mayi=L,near=99's records,
  at one seat and at every seat, in the May-I and the buy models;
* a plug-in that leaves every decision to its base plays exactly the base's records (random,
  fuzz, cautious: the streams are consumed alike);
* every kind is asked: a plug-in answering an illegal index for that kind alone stops the run;
* the view shows only what the seat may see (hidden cards redistributed: the same view) and
  changes with the seat's own cards;
* an illegal answer is one ``Error:`` line naming the game, exit 2, nothing written; replay and
  sweep take plug-ins.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from cardsim.kernels import contract_rummy as K
from cardsim.sim.errors import UsageError
from cardsim.sim.runner import make_config, play_shard
from plugin_helpers import invoke, same

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_contract_rummy_peeking import mid_deal_states, redistribute  # noqa: E402

EXAMPLE = str(ROOT.parent / "examples" / "contract_rummy_mayi_limit.py")
DATA = str(ROOT / "data" / "plugins" / "contract_rummy_plugins.py")


def records(strats, n=60, seed=3, preset=None, options=None):
    cfg = make_config("contract_rummy", 4, n, seed, strats, options=options, preset=preset, workers=1)
    return play_shard(cfg, 0, n)


@pytest.mark.parametrize("options", [None, ["may_i_model=buy"]])
def test_the_example_plays_mayis_records(options):
    mayi = "mayi:max_mayi=1,near=99"
    plug = f"{EXAMPLE}:limited:limit=1"
    a = records([mayi, "greedy", "cautious", "fuzz"], options=options)
    b = records([plug, "greedy", "cautious", "fuzz"], options=options)
    assert same(a, b)
    assert same(records([mayi] * 4, options=options), records([plug] * 4, options=options))
    # and the limit matters: the plug-in is asked
    assert not same(b, records([f"{EXAMPLE}:limited:limit=0", "greedy", "cautious", "fuzz"], options=options))


@pytest.mark.parametrize("base", ["random", "fuzz", "cautious", "greedy"])
@pytest.mark.parametrize("preset,options", [("contract", None), ("may_i", None), ("liverpool", ["may_i_model=buy"]),
                                            ("contract", ["go_out_requires_discard=true",
                                                          "swapped_joker_may_be_discarded=true",
                                                          "joker_swap_requires_prior_meld=false"])])
def test_a_plugin_that_always_passes_is_its_base(base, preset, options):
    field = ["fuzz", "greedy", "mayi"]
    a = records([base] + field, n=25, preset=preset, options=options)
    b = records([f"{DATA}:pass_{base}"] + field, n=25, preset=preset, options=options)
    assert same(a, b)


KIND_TABLES = {K.K_DRAW: ("contract", None), K.K_BUY: ("contract", ["may_i_model=buy"]),
               K.K_VOLUNTEER: ("contract", None), K.K_MELD: ("contract", None),
               K.K_MELD_JOKERS: ("may_i", None), K.K_SWAP: ("contract", None), K.K_JOKER: ("contract", None),
               K.K_LAYOFF: ("contract", None), K.K_DISCARD: ("contract", None)}


@pytest.mark.parametrize("kind", sorted(KIND_TABLES))
def test_every_kind_is_asked(kind):
    preset, options = KIND_TABLES[kind]
    with pytest.raises(UsageError, match=rf"returned -?\d+ \(legal: [^)]*\) at decision kind {kind} .*in deal"):
        records([f"{DATA}:bad_{kind}"] * 4, n=40, preset=preset, options=options)


@pytest.mark.parametrize("code,options", [(2, ["go_out_requires_discard=true"]), (3, None)])
def test_the_meld_alternatives_are_offered(code, options):
    # K_MELD's codes 2 (the plain best meld) and 3 + c (a card kept back) do come up (MAY_I)
    with pytest.raises(UsageError, match=r"returned -?\d+ \(legal: [^)]*\) at decision kind .*in deal"):
        records([f"{DATA}:meld_offers:code={code}"] * 4, n=120, preset="may_i", options=options)


def test_a_plugin_deciding_everything_plays_legal_games():
    for preset, options in [("contract", None), ("may_i", None), ("contract", ["may_i_model=buy"]),
                            ("contract", ["go_out_requires_discard=true", "swapped_joker_may_be_discarded=true",
                                          "joker_swap_requires_prior_meld=false"])]:
        cfg = make_config("contract_rummy", 4, 30, 5, [f"{DATA}:last", f"{DATA}:last:low=1", "greedy", "fuzz"],
                          options=options, preset=preset, workers=1, check=True)
        cols = play_shard(cfg, 0, 30)
        assert (cols["payout_0"] != cols["payout_2"]).any()


def views(st, tab, opts, p):
    out = []
    for kind in range(K.N_KINDS):
        v = np.zeros(K.VIEW_SIZE, np.int64)
        K.fill_view(st, opts, tab, p, kind, 7, 1, 2, 3, v)
        out.append(v)
    return out


@pytest.mark.parametrize("preset", ["contract", "may_i"])
def test_the_view_shows_only_what_the_seat_may_see(preset):
    rng = np.random.default_rng(11)
    changed = 0
    for st, tab, opts in mid_deal_states(preset, 25, seed=5):
        for p in range(4):                      # the turn player and the seats asked out of turn
            want = views(st, tab, opts, p)
            other = redistribute(st, p, rng)
            changed += not np.array_equal(other, st)
            for a, b in zip(want, views(other, tab, opts, p)):
                assert np.array_equal(a, b)
            own = st.copy()                     # the seat's own card swapped with a stock card
            h = K.hand_of(own, p)
            c = int(np.flatnonzero(h)[0])
            s = int(own[K.STOCK + own[K.STOCK_LO]])
            if s != c and own[K.STOCK_HI] > own[K.STOCK_LO]:
                h[c] -= 1
                h[s] += 1
                own[K.STOCK + own[K.STOCK_LO]] = c
                assert not np.array_equal(want[0], views(own, tab, opts, p)[0])
    assert changed >= 50


def test_an_illegal_answer_is_one_line_exit_2_naming_the_game(tmp_path):
    (tmp_path / "mine.txt").write_text("keep\n")
    r = invoke("run", "contract_rummy", "-p", "3", "-n", "20", "--strategy", f"{DATA}:bad_{K.K_DISCARD}",
               "--strategy", "greedy", "--strategy", "greedy", "--out", "o.parquet", cwd=tmp_path)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), r.output
    assert "at decision kind" in lines[0] and "in deal 0" in lines[0]
    assert sorted(os.listdir(tmp_path)) == [".o.parquet.work", "mine.txt"]      # a stopped run keeps its shards


def test_replay_and_sweep_take_a_plugin():
    r = invoke("replay", "contract_rummy", "-p", "3", "--seed", 2, "--deal", 1, "--strategy",
               f"{EXAMPLE}:limited:limit=1", "--strategy", "greedy", "--strategy", "fuzz")
    assert r.exit_code == 0 and "limited" in r.output, r.output
    m = invoke("replay", "contract_rummy", "-p", "3", "--seed", 2, "--deal", 1, "--strategy",
               "mayi:max_mayi=1,near=99", "--strategy", "greedy", "--strategy", "fuzz")
    assert m.exit_code == 0, m.output

    def body(text):                             # the seat-0 label aside, the same play
        return [re.sub(r"\((\S*:limited|mayi)\)", "(seat0)", ln) for ln in text.splitlines()[1:]]
    assert body(r.output) == body(m.output) and sum("(seat0)" in ln for ln in body(r.output)) > 20
    s = invoke("sweep", "contract_rummy", "-p", "4", "-n", "40", "-q", "--strategy", f"{EXAMPLE}:limited",
               "--param", "limit=0,3", "--json")
    assert s.exit_code == 0, s.output
    assert "limit" in s.output
