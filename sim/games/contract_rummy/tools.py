"""What the project's tools (``scripts/``) know of Contract Rummy (``sim.spec.GameTools``): record
digests, the tune behind ``strong``, benchmark rows."""
from cardsim.sim.spec import GameTools

TOOLS = GameTools(
    digest_records=12,
    quick=("hand_sizes=2_2_2_3_3_3_3", "max_turns_per_deal=2"),   # tests/test_conformance.py: small hands, a turn cap
    # issue 41: the expert (cautious counting an ace in one run and a run's cards out of the sets,
    # shedding its costliest card when a rival who has melded is about to go out)
    tune=("--strategy", "expert", "--param", "max_mayi=0:10", "--param", "near=0:15", "--param", "danger=0:15",
          "--param", "far=0:15", "--param", "vol_points=0:200", "--param", "joker_target=0:2",
          "--param", "shed_at=0:10", "--budget", "60000"),
    bench=tuple(((p, s, n, 3000) for p, s, n in (("contract", "greedy", 4), ("liverpool", "greedy", 4),
                                         ("may_i", "greedy", 4), ("contract", "greedy", 3),
                                         ("contract", "greedy", 5), ("may_i", "greedy", 5),
                                         ("contract", "cautious", 4)))),
    bench_players=4,
    search_records=4,
    openspiel=("cardsim_contract_rummy",),
    # issue 41: the ``strong`` before its rework (its records are what users cited)
    old_strong=("cautious:max_mayi=99,near=99,volunteer=1,danger=3,far=3,layoff_target=1,joker_target=1,"
                "meld_jokers=1,vol_points=0,noise=0,swap=1"),
    # scripts/tools/bench.py: the target under the game's throughput table
    bench_note=("Target (issue 5, 2-core machine): at least 10,000 deals/s with greedy play (a game is 7 "
                "deals: 1,429 games/s)."),
)
