"""Random-play invariants of Marafon and Trionfo over every preset (driven by the registry),
determinism (seeds, thread counts, replay) and the ``cardsim`` command line.

The kernels' check mode asserts after every card: 40 cards accounted for (hands disjoint,
hands + played = deck, hand sizes), a legal card always exists and the chosen card is legal;
after every hand: 35 thirds, 11 points + bonuses (Marafon), zero-sum money within bounds
(Trionfo). The tests below add the record-level checks."""
import numba
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from cardsim.kernels import marafon as MK
from cardsim.kernels import trionfo as TK
from cardsim.sim.cli import app
from cardsim.sim.registry import get_game, seat_arrays, seat_table

MARAFON = get_game("marafon")
TRIONFO = get_game("trionfo")
CASES = [(g.name, p) for g in (MARAFON, TRIONFO) for p in sorted(g.presets)]
MIXES = {"marafon": ["heuristic", "random:claim_prob=0.02", "greedy", "heuristic:claim_margin=2,memory_noise=3"],
         "trionfo": ["heuristic", "random", "greedy", "heuristic:explore=0.5,self_call=8", "random:pass_bias=3"]}


def play(game, preset, strategies, count, seed=11, check=True, first=0, **over):
    n = game.players[2]
    opts = game.options_cls(**{**game.presets[preset], **over}).to_array(n)
    sids, params = seat_arrays(game, seat_table(game, strategies, n))
    rec = np.zeros((count, game.record_width), np.int32)          # as the runner: one compilation
    game.play_batch(seed, first, count, opts, sids, params, check, rec)
    return rec, opts


def marafon_hands(rec, h, f, s=0):
    return rec[:, MK.RC_HAND + (h - 1) * MK.HB_SIZE + f + s]


def check_marafon(rec, opts):
    assert (rec[:, MK.RC_ERR] == 0).all(), [MK.ERROR_NAMES[e] for e in rec[:, MK.RC_ERR] if e]
    cols = MARAFON.record_columns(rec, 4)
    pays = np.stack([cols[f"payout_{p}"] for p in range(4)], axis=1).astype(int)
    assert (pays.sum(axis=1) == 0).all() and set(np.unique(pays)) <= {-1, 0, 1}
    side = rec[:, MK.RC_WIN_SIDE]
    assert ((side < 0) == (rec[:, MK.RC_WINNER] < 0)).all()
    assert (rec[side >= 0, MK.RC_WINNER] % 2 == side[side >= 0]).all()
    assert (rec[:, MK.RC_TRUNC].astype(bool) == (rec[:, MK.RC_REASON] == MK.R_CAP)).all()
    assert (rec[:, MK.RC_HANDS] <= opts[MK.O_MAX_HANDS] * opts[MK.O_GAMES]).all()
    mp = opts[MK.O_MARAF_POINTS]
    hands = rec[:, MK.RC_HANDS]
    maraf_any = np.zeros(len(rec), bool)
    sums = np.zeros((len(rec), 2), np.int64)
    for h in range(1, MK.HAND_SLOTS + 1):
        live = hands >= h
        end = marafon_hands(rec, h, MK.HB_END)
        t0, t1 = marafon_hands(rec, h, MK.HB_THIRDS), marafon_hands(rec, h, MK.HB_THIRDS, 1)
        m0, m1 = marafon_hands(rec, h, MK.HB_MARAF), marafon_hands(rec, h, MK.HB_MARAF, 1)
        p0, p1 = marafon_hands(rec, h, MK.HB_PTS), marafon_hands(rec, h, MK.HB_PTS, 1)
        full = live & (end == 0)
        assert (t0 + t1)[full].tolist() == [35] * int(full.sum())
        assert (p0 == t0 // 3 + mp * m0)[full].all() and (p1 == t1 // 3 + mp * m1)[full].all()
        assert ((p0 + p1) == 11 + mp * (m0 + m1))[full].all()
        claimed = live & (end != 0)
        assert (p0[claimed] == 0).all() and (t0 + t1)[claimed].max(initial=0) <= 35
        assert not marafon_hands(rec, h, MK.HB_EXTRA)[claimed].any()      # no claims in extra hands
        maraf_any |= live & (m0 + m1 > 0)
        last_game = marafon_hands(rec, h, MK.HB_GAME) == rec[:, MK.RC_GAMES] - 1
        sums += np.stack([p0, p1], axis=1) * (live & last_game)[:, None]
    one = (hands <= MK.HAND_SLOTS)
    assert (sums[one] == rec[one][:, MK.RC_SCORE:MK.RC_SCORE + 2]).all()
    if opts[MK.O_TARGET] == 123 and opts[MK.O_GAMES] == 1:
        won = np.isin(rec[:, MK.RC_REASON], [MK.R_TARGET, MK.R_EXTRA, MK.R_CLAIM_CORRECT, MK.R_HIGHER])
        assert (hands[won] >= 3).all()
        assert (hands[won & ~maraf_any] >= 4).all()            # 11 points a hand at most


def check_trionfo(rec, opts):
    assert (rec[:, TK.RC_ERR] == 0).all(), [TK.ERROR_NAMES[e] for e in rec[:, TK.RC_ERR] if e]
    money = rec[:, TK.RC_MONEY:TK.RC_MONEY + 5]
    assert (money.sum(axis=1) == 0).all()
    assert (rec[:, TK.RC_HANDS] == opts[TK.O_HANDS]).all()
    stakes = opts[TK.O_STAKE:TK.O_STAKE + 4]
    for h in range(1, min(TK.HAND_SLOTS, opts[TK.O_HANDS]) + 1):
        b = TK.RC_HAND + (h - 1) * TK.HB_SIZE
        d, lv, partner = rec[:, b + TK.HB_DECLARER], rec[:, b + TK.HB_LEVEL], rec[:, b + TK.HB_PARTNER]
        hm = rec[:, b + TK.HB_MONEY:b + TK.HB_MONEY + 5]
        assert (hm.sum(axis=1) == 0).all()
        ok = d >= 0
        assert ((lv >= 1) & (lv <= 4))[ok].all()
        assert (rec[:, b + TK.HB_WON] == (rec[:, b + TK.HB_PTS] >= opts[TK.O_WIN_POINTS]))[ok].all()
        solo = lv > opts[TK.O_PARTNER_LEVELS]
        assert (partner[ok & solo] == -1).all() and (partner[ok & ~solo] >= 0).all()
        if not opts[TK.O_SELF_CALL]:
            assert (partner[ok & ~solo] != d[ok & ~solo]).all()
        s = stakes[np.clip(lv - 1, 0, 3)]
        sign = np.where(rec[:, b + TK.HB_WON] == 1, 1, -1)
        mate = ok & (partner >= 0) & (partner != d)
        dm = hm[np.arange(len(rec)), np.clip(d, 0, 4)]
        assert (dm == np.where(mate, 2, 4) * sign * s)[ok].all()
        assert (hm[~ok] == 0).all()


CHECKS = {"marafon": check_marafon, "trionfo": check_trionfo}


@pytest.mark.parametrize("name, preset", CASES)
def test_random_play_invariants(name, preset):
    game = get_game(name)
    rec, opts = play(game, preset, ["random"], 40)
    CHECKS[name](rec, opts)


@pytest.mark.parametrize("name, preset", CASES)
def test_strategy_mix_invariants(name, preset):
    game = get_game(name)
    rec, opts = play(game, preset, MIXES[name], 60)
    CHECKS[name](rec, opts)


@pytest.mark.parametrize("over", [dict(max_hands=2), dict(games_per_match=5, target_thirds=30),
                                  dict(marafona_points=0), dict(claims_enabled=False, max_hands=4)])
def test_marafon_caps_and_options(over):
    rec, opts = play(MARAFON, "seed", MIXES["marafon"], 80, **over)
    check_marafon(rec, opts)
    if over.get("max_hands") == 2:
        assert rec[:, MK.RC_TRUNC].any() and (rec[:, MK.RC_HANDS] <= 2).all()


def test_trionfo_all_pass_redeals_and_the_redeal_cap():
    never = "heuristic:t1=40,t2=40,t3=40,t4=40"
    rec, opts = play(TRIONFO, "seed", [never], 3, trionfo_hands=2)
    check_trionfo(rec, opts)
    assert rec[:, TK.RC_TRUNC].all() and (rec[:, TK.RC_REDEALS] == 2 * TK.MAX_REDEALS).all()
    assert (rec[:, TK.RC_MONEY:TK.RC_MONEY + 5] == 0).all()
    rec, opts = play(TRIONFO, "seed", [never, never, never, never, "heuristic"], 40,
                     trionfo_partner_levels=2, trionfo_bid_stakes=(1, 1, 5, 9))
    check_trionfo(rec, opts)
    assert rec[:, TK.RC_REDEALS].sum() > 0 and not rec[:, TK.RC_TRUNC].any()


def test_greedy_marafon_games_end_in_few_hands():
    rec, opts = play(MARAFON, "seed", ["heuristic"], 300)
    check_marafon(rec, opts)
    assert not rec[:, MK.RC_TRUNC].any()
    assert 5 <= rec[:, MK.RC_HANDS].mean() <= 9


# =============================================================================
# determinism
# =============================================================================
@pytest.mark.parametrize("name", ["marafon", "trionfo"])
def test_same_seed_same_records_any_thread_count(name):
    game = get_game(name)
    a, _ = play(game, "seed", MIXES[name], 600, check=False)
    b, _ = play(game, "seed", MIXES[name], 600, check=False)
    assert np.array_equal(a, b)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        c, _ = play(game, "seed", MIXES[name], 600, check=False)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a, c)
    d, _ = play(game, "seed", MIXES[name], 100, first=500, check=False)
    assert np.array_equal(a[500:], d)


def test_replay_matches_the_batch_and_hands_are_duplicated():
    rec, _ = play(MARAFON, "seed", ["heuristic"], 5, seed=5)
    opts = MARAFON.options_cls().to_array(4)
    sids, params = seat_arrays(MARAFON, seat_table(MARAFON, ["heuristic"], 4))
    st, trace = MARAFON.replay(5, 4, opts, sids, params, True)
    assert MARAFON.state_payouts(st, 4) == [int(x) for x in
                                            np.where(rec[4, MK.RC_WIN_SIDE] == np.arange(4) % 2, 1, -1)]
    deals = trace[: st[MK.TR_LEN]]
    deals = deals[deals[:, 0] == MK.T_DEAL]
    sids_r, params_r = seat_arrays(MARAFON, seat_table(MARAFON, ["random"], 4))
    st2, trace2 = MARAFON.replay(5, 4, opts, sids_r, params_r, True)
    deals2 = trace2[: st2[MK.TR_LEN]]
    deals2 = deals2[deals2[:, 0] == MK.T_DEAL]
    k = min(len(deals), len(deals2))
    assert k >= 12 and np.array_equal(deals[:k], deals2[:k])      # same cards, whatever the play
    lines = MARAFON.format_trace(trace, st, ["heuristic"] * 4)
    assert any("trump" in x for x in lines) and any(x.startswith("end of game") for x in lines)


# =============================================================================
# the command line
# =============================================================================
def test_cli_run_and_replay_marafon(tmp_path):
    cli = CliRunner()
    out = tmp_path / "m.parquet"
    res = cli.invoke(app, ["run", "marafon", "--deals", "300", "--seed", "3", "--strategy", "heuristic",
                           "--strategy", "greedy", "--strategy", "heuristic", "--strategy", "greedy",
                           "--check", "--out", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_parquet(out)
    assert len(df) == 300
    assert (df[[f"payout_{p}" for p in range(4)]].sum(axis=1) == 0).all()
    assert (df["payout_0"] == df["payout_2"]).all()
    assert df["payout_0"].mean() > 0                                  # heuristic beats greedy
    row = df.iloc[7]
    res = cli.invoke(app, ["replay", "marafon", "--deal", "7", "--seed", "3", "--strategy", "heuristic",
                           "--strategy", "greedy", "--strategy", "heuristic", "--strategy", "greedy"])
    assert res.exit_code == 0, res.output
    pays = [int(line.split("payout")[1]) for line in res.stdout.splitlines() if " payout " in line]
    assert pays == [row[f"payout_{p}"] for p in range(4)]


def test_cli_run_trionfo_with_preset_and_option():
    res = CliRunner().invoke(app, ["run", "trionfo", "--deals", "100", "--preset", "partner2",
                                   "--option", "trionfo_bid_stakes=1,2,4,8", "--strategy", "heuristic", "--json"])
    assert res.exit_code == 0, res.output
    assert '"game": "trionfo"' in res.stdout


def test_bid_stakes_text_keeps_its_order():
    """The four stakes are per bid, in bid order: CLI text such as 4,3,2,1 is not sorted."""
    from cardsim.sim.games.trionfo import TrionfoOptions
    from cardsim.sim.options import parse_overrides
    got = parse_overrides(TrionfoOptions, ["trionfo_bid_stakes=4,3,2,1"])
    assert TrionfoOptions(**got).trionfo_bid_stakes == (4, 3, 2, 1)


# =============================================================================
# the fuzzers' coverage (issue 15)
# =============================================================================
MARAFON_FUZZ = ["random:claim_prob=0.0005,claim_due=0.05"]
MARAFON_COVERAGE = {"seed": {}, "higher_total": {"both_reach_target": "higher_total"},
                    "max_hands_4": {"max_hands": 4}, "italian": dict(MARAFON.presets["italian"])}
# end reasons the default rules never give, and why
MARAFON_NOT_BY_DEFAULT = {
    "higher_total": "only under both_reach_target=higher_total",
    "hand_cap": "a game ends within about 8 hands (11 points a hand); 60 hands need endless level extra "
                "hands: covered with max_hands=4",
}


def test_marafon_fuzzer_coverage():
    """random with claim_prob / claim_due (the fuzzer) reaches every end reason, under the
    option sets above for those the default rules do not give; prints the share of matches
    per end reason and the decisions per kind (trump, marafona declared, card, claim)."""
    lines, reached = [], np.zeros(len(MK.REASON_NAMES), np.int64)
    for name, kw in MARAFON_COVERAGE.items():
        rec, opts = play(MARAFON, "seed", MARAFON_FUZZ, 400, **kw)
        check_marafon(rec, opts)
        counts = np.bincount(rec[:, MK.RC_REASON], minlength=len(MK.REASON_NAMES))
        reached += counts
        if name == "seed":
            for r, c in zip(MK.REASON_NAMES, counts):
                assert c > 0 or r in MARAFON_NOT_BY_DEFAULT, r
        hands = np.minimum(rec[:, MK.RC_HANDS], MK.HAND_SLOTS)
        declared = sum(((marafon_hands(rec, h, MK.HB_MARAF) + marafon_hands(rec, h, MK.HB_MARAF, 1))
                        * (hands >= h)).sum() for h in range(1, MK.HAND_SLOTS + 1))
        kinds = {"choose_trump": rec[:, MK.RC_HANDS].sum(), "declare_marafona": declared,
                 "play_card (about)": 4 * rec[:, MK.RC_TRICKS].sum(), "claim": rec[:, MK.RC_CLAIMS].sum()}
        total = sum(kinds.values())
        lines.append(f"{name:13s} hands/match {rec[:, MK.RC_HANDS].mean():4.1f}, truncated "
                     f"{rec[:, MK.RC_TRUNC].mean():.1%}: "
                     + "  ".join(f"{r} {c / len(rec):.1%}" for r, c in zip(MK.REASON_NAMES, counts) if c)
                     + " | " + "  ".join(f"{k} {v / total:.2%}" for k, v in kinds.items()))
        assert all(v > 0 for v in kinds.values()), kinds
    print("\n".join(["Marafon fuzzer coverage:"] + lines))
    missing = [r for r, c in zip(MK.REASON_NAMES, reached) if c == 0]
    assert not missing, f"end reasons never reached: {missing}"


TRIONFO_COVERAGE = {"fuzz": (["random:pass_bias=3"], {}),
                    "self_call": (["random:pass_bias=3"], dict(TRIONFO.presets["self_call"])),
                    "silent_table": (["random:pass_bias=1e6"], {"trionfo_hands": 1})}
TRIONFO_NOT_BY_DEFAULT = {
    "redeal_cap": "101 all-pass deals in a row: only a table that (nearly) always passes, here "
                  "random:pass_bias=1e6",
}


def test_trionfo_fuzzer_coverage():
    """random (uniform legal calls, cards and called card; pass_bias for an all-pass table)
    reaches every end reason; prints the share of sessions per end reason and the share of
    hands per contract level, secret solos, and thrown-in deals."""
    lines, reached = [], np.zeros(len(TK.REASON_NAMES), np.int64)
    for name, (mix, kw) in TRIONFO_COVERAGE.items():
        rec, opts = play(TRIONFO, "seed", mix, 40 if name == "silent_table" else 300, **kw)
        check_trionfo(rec, opts)
        counts = np.bincount(rec[:, TK.RC_REASON], minlength=len(TK.REASON_NAMES))
        reached += counts
        if name == "fuzz":
            for r, c in zip(TK.REASON_NAMES, counts):
                assert c > 0 or r in TRIONFO_NOT_BY_DEFAULT, r
        h = min(TK.HAND_SLOTS, int(opts[TK.O_HANDS]))
        blk = lambda f: np.stack([rec[:, TK.RC_HAND + i * TK.HB_SIZE + f] for i in range(h)], axis=1)
        d, lv, partner = blk(TK.HB_DECLARER), blk(TK.HB_LEVEL), blk(TK.HB_PARTNER)
        played = d >= 0
        kinds = {f"level {k}": (played & (lv == k)).sum() for k in range(1, 5)}
        kinds["secret solo"] = (played & (partner == d)).sum()
        kinds["void hand"] = (~played).sum()
        lines.append(f"{name:12s} redeals/session {rec[:, TK.RC_REDEALS].mean():6.1f}: "
                     + "  ".join(f"{r} {c / len(rec):.1%}" for r, c in zip(TK.REASON_NAMES, counts) if c)
                     + " | hands: " + "  ".join(f"{k} {v / played.size:.1%}" for k, v in kinds.items()))
        if name == "self_call":
            assert all(v > 0 for k, v in kinds.items() if k != "void hand"), kinds
    print("\n".join(["Trionfo fuzzer coverage:"] + lines))
    missing = [r for r, c in zip(TK.REASON_NAMES, reached) if c == 0]
    assert not missing, f"end reasons never reached: {missing}"
