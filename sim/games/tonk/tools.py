"""What the project's tools (``scripts/``) know of Tonk (``sim.spec.GameTools``): record
digests, the tune behind ``strong``, benchmark rows."""
from cardsim.sim.spec import GameTools

TOOLS = GameTools(
    digest_records=3000,
    # dry_end is not tuned: two strong players never run the stock dry (it changed no record);
    # threshold and decay neither: at wary_cards=5 (where a first tune of them went) they change nothing
    tune=("--strategy", "expert", "--param", "wary_cards=0:5", "--param", "take_low=0:10",
          "--param", "knock_odds=0:1", "--param", "pair_keep=0:30", "--param", "near_keep=0:30",
          "--param", "feed=0:15", "--budget", "40000000", "--rounds", "10"),
    bench=tuple((("seed", s, n, 400_000) for n in (2, 3, 4) for s in ("random", "greedy", "knocker:threshold=8"))),
    bench_players=2,
    search_records=2000,
    openspiel=("cardsim_tonk(players=2)", "cardsim_tonk(players=4)"),
    # issue 41: the ``strong`` before its rework (its records are what users cited)
    old_strong="planner:threshold=26.174,decay=0.5125,wary_cards=4,dry_end=2.077,take_low=5.082",
    # scripts/tools/bench.py: the target under the game's throughput table
    bench_note=("Targets (issue 2, 2-core machine): at least 300,000 Tonk deals/s with greedy play on all "
                "cores; warm start under 2 s."),
    issue14_cold=19.3,  # cold compile of import + first deal when issue 14 was filed
)
