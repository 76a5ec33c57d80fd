"""Poker evaluator benchmark: 5-card hands per second of ``kernels.poker`` against well-known
evaluators from PyPI, all in the same run on the same random-order hands.

    python scripts/tools/bench_poker.py [--repeats 5]     (= python scripts/tools/bench.py --game poker)

Writes its table as the ``<!-- bench:poker -->`` block of results/BENCHMARKS.md (through
``scripts/tools/bench.py --game poker``, which calls ``section`` below; running this file does
the same). The PyPI evaluators are benchmark-only dependencies (``pip install -e '.[bench]'``):
treys (pure Python), phevaluator (C extension, one call per hand), eval7 (Cython, one call
per hand); an evaluator that is not installed is skipped. Every figure is the median of
``--repeats`` timed runs after a warm-up (compile excluded). Every evaluator is checked to
order the same sample of hands as ours before it is timed.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.kernels import poker as P  # noqa: E402

RANKS = "A23456789TJQK"
SUITS = "cdhs"


def card_text(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def random_hands(n: int, seed: int = 1) -> np.ndarray:
    """n random 5-card hands (card ids), each a uniform 5-subset, in random order."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52), dtype=np.float32) if n <= 2_000_000 else None
    if keys is not None:
        return np.argpartition(keys, 5, axis=1)[:, :5].astype(np.int8)
    out = np.empty((n, 5), dtype=np.int8)
    for i in range(0, n, 1_000_000):
        out[i:i + 1_000_000] = random_hands(min(1_000_000, n - i), seed + 1 + i)
    return out


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def ours(hands, repeats, threads):
    numba.set_num_threads(threads)
    P.evaluate(hands[:1000], parallel=threads > 1)
    out = P.evaluate(hands[:1000])
    rate = len(hands) / median_time(lambda: P.evaluate(hands, parallel=threads > 1), repeats)
    return rate, out


def same_order(ours_s: np.ndarray, theirs: np.ndarray, lower_is_better: bool) -> bool:
    """Both evaluators order every pair of the sample the same way."""
    t = -theirs if lower_is_better else theirs
    o = np.argsort(ours_s, kind="stable")
    a, b = ours_s[o], t[o]
    same_class = np.diff(a) == 0
    return bool(((np.diff(b) > 0) | ((np.diff(b) == 0) & same_class)).all() and (np.diff(b)[same_class] == 0).all())


def bench_treys(hands, repeats, reference):
    from treys import Card, Evaluator
    ev = Evaluator()
    conv = [[Card.new(card_text(int(c))) for c in h] for h in hands]
    check = np.array([ev.evaluate(h[:3], h[3:]) for h in conv[:1000]])
    ok = same_order(reference, check, True)
    return len(conv) / median_time(lambda: [ev.evaluate(h[:3], h[3:]) for h in conv], repeats), ok


def bench_phevaluator(hands, repeats, reference):
    from phevaluator import evaluate_cards
    conv = [[card_text(int(c)) for c in h] for h in hands]
    check = np.array([evaluate_cards(*h) for h in conv[:1000]])
    ok = same_order(reference, check, True)
    # phevaluator's own integer card ids (rank * 4 + suit), the fastest way it takes cards
    ids = [[4 * ((int(c) % 13 + 12) % 13) + int(c) // 13 for c in h] for h in hands]
    ok = ok and [evaluate_cards(*h) for h in ids[:1000]] == list(check)
    return len(ids) / median_time(lambda: [evaluate_cards(*h) for h in ids], repeats), ok


def bench_eval7(hands, repeats, reference):
    import eval7
    conv = [[eval7.Card(card_text(int(c))) for c in h] for h in hands]
    check = np.array([eval7.evaluate(h) for h in conv[:1000]])
    ok = same_order(reference, check, False)
    return len(conv) / median_time(lambda: [eval7.evaluate(h) for h in conv], repeats), ok


THEIRS = (("treys", "pure Python, one call per hand", bench_treys),
          ("phevaluator", "Python package (perfect-hash tables), one call per hand", bench_phevaluator),
          ("eval7", "Cython, one Python call per hand", bench_eval7))


def version(pkg: str) -> str:
    from importlib import metadata
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return ""


def section(hands_n: int = 20_000_000, py_hands: int = 200_000, repeats: int = 5, cores: int | None = None) -> list[str]:
    cores = cores or numba.config.NUMBA_NUM_THREADS
    hands = random_hands(hands_n)
    one, reference = ours(hands, repeats, 1)
    alln, _ = ours(hands, repeats, cores)
    numba.set_num_threads(cores)
    small = hands[:py_hands]
    rows = [("cardsim `kernels.poker.evaluate` (numba, 1 core)", "", one, "yes"),
            (f"cardsim `kernels.poker.evaluate` (numba, all {cores} cores)", "", alln, "yes")]
    for name, what, fn in THEIRS:
        if not version(name):
            rows.append((name, what, None, "not installed"))
            continue
        rate, ok = fn(small, max(1, repeats // 2), reference)
        rows.append((f"{name} {version(name)}", what, rate, "yes" if ok else "NO"))
    treys = next((r[2] for r in rows if r[0].startswith("treys") and r[2]), None)
    lines = ["## Poker evaluator: 5-card hands per second", "",
             f"{hands_n:,} uniformly random 5-card hands in random order for cardsim; the first "
             f"{py_hands:,} of them for the", "PyPI evaluators (they are called once per hand from Python); "
             f"median of {repeats} runs, compile excluded.",
             "\"same order\": the evaluator ranks a 1,000-hand sample exactly as cardsim does.", "",
             "| evaluator | kind | hands/s | x treys | same order |", "|---|---|---:|---:|---|"]
    for name, what, rate, ok in rows:
        if rate is None:
            lines.append(f"| {name} | {what} | - | - | {ok} |")
        else:
            ratio = f"{rate / treys:,.0f}x" if treys else "-"
            lines.append(f"| {name} | {what} | {rate:,.0f} | {ratio} | {ok} |")
    lines += ["", "Target (issue 7): at least 50M hands/s on one core, about 40x the popular pure-Python one.", ""]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    cmd = [sys.executable, str(ROOT / "scripts" / "tools" / "bench.py"), "--game", "poker", "--repeats", str(args.repeats)]
    raise SystemExit(subprocess.call(cmd, cwd=ROOT))


if __name__ == "__main__":
    main()
