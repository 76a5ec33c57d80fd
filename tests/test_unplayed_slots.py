"""Issue 18: Marafon's (and Trionfo's) hand slots after a row's last hand are nulls in the written
records and in the API DataFrame, not zeros that look like hands; the answers over the played
hands (the battitore's advantage of scripts/studies/study_marafon.py) do not change."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from cardsim import api
from cardsim.kernels import marafon as KM
from cardsim.kernels import trionfo as KT
from cardsim.sim import runner
from cardsim.sim.games.marafon import _HAND_FIELDS as MARAFON_FIELDS

DEALS = 400


@pytest.fixture(scope="module")
def marafon(tmp_path_factory):
    out = tmp_path_factory.mktemp("marafon") / "m.parquet"
    res = api.run("marafon", deals=DEALS, seed=11, strategies=["heuristic"], out=str(out), shard_size=150)
    cfg = runner.make_config("marafon", 4, DEALS, 11, ["heuristic"])
    return res, out, runner.play_shard(cfg, 0, DEALS)


def _names(h):
    return [n.format(h=h, s=s) for n, _, _ in MARAFON_FIELDS for s in ((0, 1) if "{s}" in n else (0,))]


def test_marafon_slots_after_the_last_hand_are_null(marafon):
    _, out, cols = marafon
    t = pq.read_table(out)
    hands = t.column("hands").to_numpy()
    assert 1 < hands.min() and hands.max() < KM.HAND_SLOTS          # games of several hands, slots to spare
    for h in range(1, KM.HAND_SLOTS + 1):
        for name in _names(h):
            valid = t.column(name).is_valid().to_numpy(zero_copy_only=False)
            assert (valid == (hands >= h)).all(), name
            played = hands >= h
            got = t.column(name).to_numpy(zero_copy_only=False)[played]
            assert (got == cols[name][played]).all(), name                 # the played hands unchanged


def test_marafon_api_frame_has_missing_values_not_zeros(marafon):
    res, _, _ = marafon
    df = res.records
    k = int(df["hands"].min())
    assert df[f"h{k}_battitore"].notna().all()
    later = df["hands"] < k + 1
    assert later.any() and df.loc[later, f"h{k + 1}_battitore"].isna().all()
    assert df.loc[later, f"h{k + 1}_end"].isna().all() and df.loc[later, f"h{k + 1}_pts_0"].isna().all()
    assert str(df[f"h{k + 1}_battitore"].dtype) == "Int8" and str(df[f"h{k + 1}_extra"].dtype) == "boolean"


def _battitore_advantage(frame_of_hand) -> float:
    """Mean over scored hands of the battitore's side points minus the other side's."""
    diffs = []
    for h in range(1, KM.HAND_SLOTS + 1):
        d = frame_of_hand(h)
        bs = d["battitore"] % 2
        diffs.append(np.where(bs == 0, d["pts_0"] - d["pts_1"], d["pts_1"] - d["pts_0"]))
    return float(np.concatenate(diffs).mean())


def test_battitore_value_over_the_played_hands(marafon):
    """A naive mean over the DataFrame's hand columns (nulls skipped) is the study's answer over
    the played hands; with the old zeros it would count the unplayed slots as level hands."""
    res, _, cols = marafon
    df = res.records

    def from_frame(h):
        d = df[df[f"h{h}_end"] == "scored"]
        return {f: d[f"h{h}_{f}"].astype("int64").to_numpy() for f in ("battitore", "pts_0", "pts_1")}

    def from_arrays(h):                     # scripts/studies/study_marafon.py: hands >= h, end == 0
        live = (cols["hands"] >= h) & (cols[f"h{h}_end"] == 0)
        return {f: cols[f"h{h}_{f}"][live].astype(np.int64) for f in ("battitore", "pts_0", "pts_1")}

    want = _battitore_advantage(from_arrays)
    assert _battitore_advantage(from_frame) == pytest.approx(want, abs=1e-12)

    def with_zeros(h):                      # the old records: every slot, zeros included, as "scored"
        live = cols[f"h{h}_end"] == 0
        return {f: cols[f"h{h}_{f}"][live].astype(np.int64) for f in ("battitore", "pts_0", "pts_1")}
    assert _battitore_advantage(with_zeros) < want - 0.3         # why: the zeros dilute it
    # a plain column mean skips the nulls: hand 2's mean points are the played hands' mean
    played = cols["hands"] >= 2
    assert df["h2_pts_0"].mean() == pytest.approx(cols["h2_pts_0"][played].mean())


def test_trionfo_session_slots_past_its_hands_are_null(tmp_path):
    out = tmp_path / "t.parquet"
    res = api.run("trionfo", deals=30, seed=4, options={"trionfo_hands": 6}, out=str(out))
    t = pq.read_table(out)
    assert (t.column("hands").to_numpy() == 6).all()
    assert t.column("h6_declarer").null_count == 0 and t.column("h6_money_4").null_count == 0
    for h in range(7, KT.HAND_SLOTS + 1):
        assert t.column(f"h{h}_declarer").null_count == 30 and t.column(f"h{h}_money_0").null_count == 30
    df = res.records
    assert df["h7_level"].isna().all() and df["h1_level"].notna().all()
    assert isinstance(df["h1_level"].dtype, pd.CategoricalDtype)
