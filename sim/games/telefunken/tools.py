"""What the project's tools (``scripts/``) know of Telefunken (``sim.spec.GameTools``): record
digests, the tune behind ``strong``, benchmark rows."""
from cardsim.sim.spec import GameTools

TOOLS = GameTools(
    digest_records=12,
    quick=("max_turns_per_hand=12",),   # tests/test_conformance.py: random play seldom goes out
    digest_slow={"peru2": 4},
    # issue 41: the expert (the planner with exact wild-card counts, shedding points in a lost hand,
    # spare wild cards kept); keep_jokers is left out (it acts only under cut_joker_keep=optional),
    # and so are down_left and down_turn: holding back acts only when both are set (down_turn 0
    # never holds back, down_left 17 neither), so each alone changes nothing, and holding back lost
    # heavily when tried (down_left 8 for 30 turns: -126 points a game, results/STUDIES.md)
    tune=("--strategy", "expert", "--param", "reserve=0:6", "--param", "near=0:10", "--param", "per_hand=0:3",
          "--param", "exchange=0:11", "--param", "h7_growth=-1:4", "--param", "deny=-1:6",
          "--param", "dump_at=0:8", "--param", "dump_need=1:6", "--param", "wild_room=0:2",
          "--param", "rich=0:1", "--budget", "48000"),
    bench=(*((p, s, 4, 20_000) for p in ("venezuela", "ecuador", "bolivia")
             for s in ("greedy", "chip_saver:reserve=2", "patient")),
           ("venezuela", "random", 4, 200), ("peru1", "greedy", 4, 20_000), ("peru2", "greedy", 4, 1000),
           ("farmers", "greedy", 4, 20_000)),
    bench_players=4,
    search_records=128,
    openspiel=("cardsim_telefunken(max_turns_per_hand=100)",),
    # issue 41: the ``strong`` before its rework (its records are what users cited)
    old_strong=("planner:reserve=0,near=2,per_hand=0.1716,down_left=17,down_turn=0,exchange=8,keep_jokers=1,"
                "cut_aim=0,deny=-1,stall=300,alternative=0,h7_growth=0"),
    # scripts/tools/bench.py: the target under the game's throughput table
    bench_note="Target (issue 4, 2-core machine): at least 10,000 hands/s with greedy play.",
    issue14_cold=78.0,  # cold compile of import + first deal when issue 14 was filed
)
