"""What the project's tools (``scripts/``) know of Tripoli (``sim.spec.GameTools``): record
digests, the tune behind ``strong``, benchmark rows."""
from cardsim.sim.spec import GameTools

TOOLS = GameTools(
    digest_records=400,
    quick=("deals_per_session=1",),   # tests/test_conformance.py: a session of one deal
    # issue 41: the expert (issue 16's heuristic run escalated in betting wars and never converged);
    # 3,000,000 deals a round: at 600,000 the search "converged" next to a known best response
    # worth +0.22 chips a deal (the expert's first defaults with the Michigan fixes)
    tune=("--strategy", "expert", "--param", "swap_below=0:10", "--param", "sell_old=0:1",
          "--param", "value_eq=0:1", "--param", "raise_eq=0:1", "--param", "call_margin=-0.5:0.5",
          "--param", "bet_frac=0:2", "--param", "raise_range=0.01:1", "--param", "call_range=0.01:1",
          "--param", "bluff=0:1", "--param", "stop_bonus=0:20", "--param", "lead_plan=0:4",
          "--param", "lead_chance=0:3", "--param", "keep_entry=0:1.5", "--param", "own_low=0:10",
          "--param", "feed_shown=0:10",
          "--field", "expert:swap_below=3.213,pay_weight=0.1,auction_widow=0,sell_old=1,bid_max=3,suit_bid_max=6,"
          "bet_at=6.6348,raise_at=5.9403,call_at=6.5119,bet_size=21,run_weight=1,stop_bonus=3.861,bid_old_max=1,"
          "bluff=0.1148,bluff_size=8,size_shift=0.8145,opp_shift=0,odds_weight=16.499,hide_margin=0,pos_shift=0,"
          "value_eq=0.5881,raise_eq=0.7429,call_margin=0.0193,bet_frac=0.5652,raise_range=0.4927,call_range=0.54763,"
          "widow_stops=1,lead_plan=3,lead_chance=1,keep_entry=0.75,own_low=3,feed_shown=0.5",
          "--budget", "3000000", "--step", "0.5", "--rounds", "2"),
    bench=tuple(((p, s, n, 200_000) for p, s, n in (("seed", "heuristic", 5), ("seed", "heuristic", 2),
                                           ("seed", "heuristic", 9), ("rummoli", "heuristic", 5),
                                           ("cosmo", "heuristic", 5), ("suit_auction", "heuristic", 5),
                                           ("seed", "random", 5)))),
    bench_players=5,
    search_records=1000,
    openspiel=("cardsim_tripoli(players=4)",),
    # issue 41: the ``strong`` before its rework (its records are what users cited)
    old_strong=("heuristic:swap_below=3.186,pay_weight=0.1,auction_widow=0,sell_old=1,bid_max=3,suit_bid_max=6,"
                "bet_at=6.6348,raise_at=5.9403,call_at=6.5119,bet_size=21,run_weight=1,stop_bonus=2,bid_old_max=1,"
                "bluff=0.4246,bluff_size=8,size_shift=0.8145,opp_shift=0,odds_weight=16.499,hide_margin=0,pos_shift=0"),
    # scripts/tools/bench.py: the target under the game's throughput table
    bench_note="Target (issue 7, 2-core machine): at least 50,000 deals/s with heuristic players.",
    issue14_cold=41.3,  # cold compile of import + first deal when issue 14 was filed
)
