"""What the project's tools (``scripts/``) know of Marafon (``sim.spec.GameTools``): record
digests, the tune behind ``strong``, benchmark rows."""
from cardsim.sim.spec import GameTools

TOOLS = GameTools(
    digest_records=300,
    # issue 41: the expert (heuristic's card play with trump drawing, ruff odds, banking, plain
    # masters and a sure trick at game point);
    # marafona_weight only up to 100, where it always names the marafona suit (above: no change);
    # the start point (the second and third critique rounds): the strong before them with the trump
    # leads (draw_low 2), the trump 3 and 2 counted against the card thrown instead (honour_count 2,
    # honour_min 3) and the trumps drawn before the plain masters (plain_first 2); then the fourth
    # round (grouped by the seat's side and the card's place): second hand low on a scartino led
    # (duck 1) and the highest of equal plain masters led (top_master 1); lead_figure (a figure of a
    # long plain suit led when there is no master) is not tuned: it gains against this strong but
    # widens the search's gap over it (sim/games/marafon/strategies.py)
    tune=("--strategy", "expert",
          "--field", "expert:claim_margin=0,memory_noise=0,honour_min=3,marafona_weight=100,draw_trumps=4,"
                     "ruff_risk=0.5,bank=2,clinch=3,plain_first=2,draw_low=2,honour_count=2,duck=1,top_master=1",
          "--param", "claim_margin=0:30", "--param", "honour_min=0:12", "--param", "marafona_weight=0:100",
          "--param", "draw_trumps=1:11", "--param", "ruff_risk=0:1", "--param", "bank=0:2", "--param", "clinch=0:30",
          "--param", "plain_first=0:2", "--param", "draw_low=1:11", "--param", "honour_count=0:2",
          "--param", "duck=0:12", "--param", "top_master=0:1",
          "--budget", "2000000"),
    bench=tuple(((p, s, 4, 100_000) for p, s in (("seed", "heuristic"), ("seed", "greedy"), ("seed", "random"),
                                        ("target31", "heuristic"), ("best_of_three", "heuristic")))),
    bench_players=4,
    search_records=512,
    openspiel=("cardsim_marafon", "cardsim_marafon(claims_enabled=False)"),
    # issue 41: the ``strong`` before its rework (its records are what users cited)
    old_strong="heuristic:claim_margin=0,memory_noise=0,honour_min=4,marafona_weight=125.6",
    # scripts/tools/bench.py: the target under the game's throughput table
    bench_note="Target (issue 6, 2-core machine): at least 200,000 Marafon hands/s with heuristic players.",
    issue14_cold=30.4,  # cold compile of import + first deal when issue 14 was filed
)
