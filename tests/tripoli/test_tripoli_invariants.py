"""Random-play invariants of Tripoli over every preset x player count (driven by the
registry), session bookkeeping, determinism, replay == batch, and the CLI.

The kernel's check mode asserts after every decision: 52 cards in hands + widow + played,
chips conserved exactly (balances + board + open clearing pot constant), no negative board
space, bets within the limits and the raise cap, poker hands 5 cards of the own hand, the
step cap; a legal action always exists. The tests below add the record-level checks."""
import json
import subprocess
import sys

import numba
import numpy as np
import pandas as pd
import pytest

from cardsim.kernels import tripoli as K
from cardsim.sim.games.tripoli import _record_columns
from cardsim.sim.registry import get_game, seat_arrays, seat_table

GAME = get_game("tripoli")
PRESETS = sorted(GAME.presets)
PLAYERS = range(GAME.players[0], GAME.players[1] + 1)


def play(preset, n, strategies, count, seed=11, check=True, first=0, **over):
    opts = GAME.options_cls(**{**GAME.presets[preset], **over}).to_array(n)
    sids, params = seat_arrays(GAME, seat_table(GAME, strategies, n))
    rec = np.zeros((count, K.RECORD_COLS), np.int32)
    K.play_batch(seed, first, count, opts, sids, params, check, rec)
    return rec, opts


def check_records(rec, opts, n, first=0):
    assert (rec[:, K.RC_ERR] == 0).all(), [K.ERROR_NAMES[e] for e in rec[:, K.RC_ERR] if e]
    cols = _record_columns(rec, n)
    D = int(opts[K.O_DEALS])
    pay = np.stack([cols[f"payout_{p}"] for p in range(n)], axis=1).astype(np.int64)
    parts = sum(np.stack([cols[f"{k}_{p}"] for p in range(n)], axis=1).astype(np.int64)
                for k in ("widow", "pay", "poker", "michigan", "clear"))
    ante = -9 * int(opts[K.O_ANTE])
    assert (pay == parts + ante).all()                       # the ledgers add up to the payout
    board = rec[:, K.RC_BOARD:K.RC_BOARD + 9].astype(np.int64)
    assert (board >= 0).all()
    deal_id = first + np.arange(len(rec))
    assert (cols["session"] == deal_id // D).all() and (cols["deal_in_session"] == deal_id % D).all()
    # chips conserved exactly: what left the players is on the board (board before = board
    # after the previous deal of the session, 0 at a session start)
    prev = np.zeros_like(board)
    prev[1:] = board[:-1]
    prev[cols["deal_in_session"] == 0] = 0
    known = (cols["deal_in_session"] > 0) | (deal_id % D == 0)
    known[0] = deal_id[0] % D == 0
    growth = board.sum(axis=1) - prev.sum(axis=1)
    assert (pay.sum(axis=1)[known] == -growth[known]).all()
    last = cols["deal_in_session"] == D - 1
    if opts[K.O_CLEARING]:
        assert (board[last & ~cols["truncated"]] == 0).all()   # a step-capped deal skips the clearing
    for p in range(n):
        left = cols[f"cards_left_{p}"]
        assert ((left == 0) == (cols["michigan_winner"] == p)).all()
        done = ~cols["truncated"]
        assert (cols[f"hand_{p}"][done] >= 0).all() and (cols[f"hand_{p}"] <= 8).all()
    out = cols["end_reason"] == K.R_OUT
    assert ((cols["michigan_winner"] >= 0) == out).all()
    assert (cols["raises"] <= opts[K.O_MAX_RAISES]).all()
    assert (cols["truncated"] | (cols["end_reason"] != K.R_STEP_CAP)).all()
    hi = pay.max(axis=1)
    unique = (pay == hi[:, None]).sum(axis=1) == 1
    assert ((cols["winner"] >= 0) == unique).all()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("n", PLAYERS)
def test_random_play_invariants(preset, n):
    rec, opts = play(preset, n, ["random"], 3 * n + 2)
    check_records(rec, opts, n)


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_and_mixed_play_invariants(preset):
    for n in (2, 5, 9):
        rec, opts = play(preset, n, ["heuristic"], 4 * n)
        check_records(rec, opts, n)
        mix = (["heuristic:auction_widow=1,sell_old=0,bid_max=8", "random", "greedy"] * 3)[:n]
        rec, opts = play(preset, n, mix, 4 * n, seed=3)
        check_records(rec, opts, n)


def test_caps_bind_and_are_flagged():
    rec, opts = play("seed", 4, ["random"], 12, max_steps=15)
    check_records(rec, opts, 4)
    assert rec[:, K.RC_TRUNC].all() and (rec[:, K.RC_REASON] == K.R_STEP_CAP).all()


def test_session_clearing_empties_the_board_and_is_zero_sum():
    rec, opts = play("long_session", 5, ["heuristic"], 48)
    check_records(rec, opts, 5)
    pay = rec[:, K.RC_SEAT + K.SC_PAY:K.RC_SEAT + K.SEAT_COLS * 5:K.SEAT_COLS]
    for s in range(4):
        assert pay[12 * s:12 * (s + 1)].sum() == 0              # whole session: zero-sum
    assert (rec[11::12, K.RC_CLEAR_PRIZE] > 0).all()
    assert (rec[:, K.RC_DEAL_NO] != 11).astype(int) @ rec[:, K.RC_CLEAR_PRIZE] == 0


def test_heuristic_deals_mostly_end_by_going_out():
    rec, opts = play("seed", 5, ["heuristic"], 500)
    check_records(rec, opts, 5)
    assert (rec[:, K.RC_REASON] == K.R_OUT).mean() > 0.9
    assert rec[:, K.RC_TRUNC].sum() == 0


# =============================================================================
# determinism, replay
# =============================================================================
SEATS = ["heuristic", "random", "heuristic:bet_at=1,raise_at=3", "random", "greedy"]


def test_same_seed_same_records_any_thread_count_and_offsets():
    a, _ = play("seed", 5, SEATS, 157, check=False)
    b, _ = play("seed", 5, SEATS, 157, check=False)
    assert np.array_equal(a, b)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        c, _ = play("seed", 5, SEATS, 157, check=False)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a, c)
    d, _ = play("seed", 5, SEATS, 50, first=103, check=False)   # starts inside a session
    assert np.array_equal(a[103:153], d)


def test_replay_matches_the_batch_and_deals_are_duplicated():
    opts = GAME.options_cls().to_array(5)
    rec, _ = play("seed", 5, SEATS, 12, seed=5)
    sids, params = seat_arrays(GAME, seat_table(GAME, SEATS, 5))
    trace = np.zeros((4096, 4), np.int64)
    for deal in (0, 3, 9):
        st = K.replay_deal(5, deal, opts, sids, params, True, trace)
        assert [int(st[K.CHIPS + p]) for p in range(5)] == [
            int(rec[deal, K.RC_SEAT + K.SEAT_COLS * p + K.SC_PAY]) for p in range(5)]
        assert [int(st[K.BOARD + i]) for i in range(9)] == list(rec[deal, K.RC_BOARD:K.RC_BOARD + 9])
    rows = trace[:st[K.TR_LEN]]
    dealt = rows[rows[:, 0] == K.T_DEAL]
    sids2, params2 = seat_arrays(GAME, seat_table(GAME, ["random"], 5))
    st2 = K.replay_deal(5, 9, opts, sids2, params2, True, trace)
    rows2 = trace[:st2[K.TR_LEN]]
    assert np.array_equal(dealt, rows2[rows2[:, 0] == K.T_DEAL])   # same cards, other strategies


def test_format_trace_reads():
    from cardsim.sim.runner import make_config, replay_lines
    cfg = make_config("tripoli", players=4, seed=2, options=["clearing_pots=2"],     # seat 2 calls: showdowns
                      strategies=["heuristic", "heuristic", "heuristic:call_at=0,odds_weight=0", "heuristic"])
    text = "\n".join(replay_lines(cfg, 3))
    for word in ("deal ", "widow", "board kitty", "pick", "show", "plays", "end:", "clearing round"):
        assert word in text, word


# =============================================================================
# CLI
# =============================================================================
def test_cli_run_and_replay(tmp_path):
    out = tmp_path / "t.parquet"
    res = subprocess.run([sys.executable, "-m", "cardsim", "run", "tripoli", "--players", "6", "--deals", "600",
                          "--seed", "4", "--strategy", "heuristic", "--preset", "rummoli", "--check",
                          "--out", str(out), "--json"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["summary"]["deals"] == 600
    df = pd.read_parquet(out)
    assert len(df) == 600 and {"payout_5", "pay_0", "poker_3", "michigan_winner", "board_kitty"} <= set(df)
    rep = subprocess.run([sys.executable, "-m", "cardsim", "replay", "tripoli", "--deal", "7", "--players", "6",
                          "--seed", "4", "--strategy", "heuristic", "--preset", "rummoli", "--check"],
                         capture_output=True, text=True, timeout=300)
    assert rep.returncode == 0, rep.stderr
    pays = [int(line.split("payout")[1]) for line in rep.stdout.splitlines() if line.strip().startswith("seat ")
            and "payout" in line]
    assert pays == [int(df.loc[7, f"payout_{p}"]) if "deal_id" not in df else
                    int(df.set_index("deal_id").loc[7, f"payout_{p}"]) for p in range(6)]


# =============================================================================
# fuzzer coverage (issue 15)
# =============================================================================
def test_fuzz_reaches_every_end_reason_and_action_kind():
    """``fuzz`` (a uniform action kind, then a uniform action of it) over every preset and
    2, 3, 5 and 9 players: every deal passes the check mode and the record checks, no bid or
    raise guard binds (``random`` hits the 1,000-chip auction guard in ~5 % of deals), and the
    end reasons out and blocked are both reached. ``step_cap`` is reachable only through the
    ``max_steps`` option (every auction, betting round and Phase 3 ends within a bounded number
    of decisions), so it is reached with ``max_steps=30``. Coverage (share of deals per end
    reason, per action kind in replayed traces) is printed (``-rA`` / ``-s``)."""
    reasons = np.zeros(len(K.REASON_NAMES), np.int64)
    deals = 0
    for preset in PRESETS:
        for n in (2, 3, 5, 9):
            rec, opts = play(preset, n, ["fuzz"], 150, seed=21)
            check_records(rec, opts, n)
            assert rec[:, K.RC_TRUNC].sum() == 0, (preset, n)
            reasons += np.bincount(rec[:, K.RC_REASON], minlength=len(K.REASON_NAMES))
            deals += len(rec)
    rec, opts = play("seed", 5, ["fuzz"], 100, seed=21, max_steps=30)
    check_records(rec, opts, 5)
    assert (rec[:, K.RC_TRUNC] == (rec[:, K.RC_REASON] == K.R_STEP_CAP)).all()
    reasons += np.bincount(rec[:, K.RC_REASON], minlength=len(K.REASON_NAMES))
    deals += len(rec)
    kinds = np.zeros(len(K.ACTION_NAMES), np.int64)
    sampled = 0
    trace = np.zeros((8192, 4), np.int64)
    for preset in PRESETS:
        opts = GAME.options_cls(**GAME.presets[preset]).to_array(5)
        sids, params = seat_arrays(GAME, seat_table(GAME, ["fuzz"], 5))
        for d in range(12):
            st = K.replay_deal(21, d, opts, sids, params, False, trace)
            rows = trace[:st[K.TR_LEN]]
            acts = rows[rows[:, 0] == K.T_ACTION, 2] & 15
            kinds += np.bincount(np.unique(acts), minlength=len(K.ACTION_NAMES))
            sampled += 1
    print(f"\nfuzz coverage, {deals} deals: " + ", ".join(
        f"{name} {reasons[i] / deals:.2%}" for i, name in enumerate(K.REASON_NAMES)))
    print(f"action kinds, share of {sampled} replayed deals: " + ", ".join(
        f"{K.ACTION_NAMES[k]} {kinds[k] / sampled:.0%}" for k in range(1, len(K.ACTION_NAMES))))
    assert (reasons > 0).all(), dict(zip(K.REASON_NAMES, reasons))
    assert (kinds[1:] > 0).all(), {K.ACTION_NAMES[k]: int(kinds[k]) for k in range(1, len(K.ACTION_NAMES))}
