"""What the project's tools (``scripts/``) know of Trionfo (``sim.spec.GameTools``): record
digests, the tune behind ``strong``, benchmark rows."""
from cardsim.sim.spec import GameTools

TOOLS = GameTools(
    digest_records=60,
    quick=("trionfo_hands=1",),   # tests/test_conformance.py: a session of one hand
    # issue 41: the expert; self_call is left out (it acts only under trionfo_allow_self_call, which
    # the tune's seed rules forbid); it starts from the point of the solo's critique round (draw_top,
    # draw_first, def_trump, solo_low, plain_first 2, def_rich: results/critique/trionfo.md) with the
    # solo's ruff by his cheapest standing trump (solo_ruff 1, the sixth session's probe), then the
    # seventh session's: the solo's trump kept on a cheap trick (solo_keep 3), his ruff by his cheapest
    # winning trump (solo_ruff 2) and, with that card play, the solo bid from strength 16 (t4 15.5)
    tune=("--strategy", "expert", "--param", "t1=0:40", "--param", "t2=0:40", "--param", "t3=0:40",
          "--param", "t4=0:40", "--param", "honour_min=0:12", "--param", "draw_trumps=1:9",
          "--param", "ruff_risk=0:1", "--param", "bank=0:2", "--param", "clinch=0:36",
          "--param", "plain_first=0:2", "--param", "read=0:1", "--param", "ruff_min=0:12",
          "--param", "draw_last=0:10", "--param", "draw_top=0:12", "--param", "draw_first=1:9",
          "--param", "def_trump=0:9", "--param", "solo_low=1:9",
          "--param", "def_rich=0:1", "--param", "solo_ruff=0:2", "--param", "solo_keep=0:12",
          "--field", "expert:t1=0.022,t2=38.012,t3=24.989,t4=15.5,explore=0,self_call=16,honour_min=4,"
          "draw_trumps=9,ruff_risk=0.5,bank=2,clinch=0,plain_first=2,read=1,ruff_min=1,draw_last=2,draw_top=3,"
          "draw_first=4,def_trump=2,solo_low=1,def_rich=1,solo_ruff=2,solo_keep=3", "--budget", "150000",
          "--rounds", "4"),
    bench=tuple((("seed", s, 5, 40_000) for s in ("heuristic", "random"))),
    bench_players=5,
    search_records=256,
    openspiel=("cardsim_trionfo",),
    # issue 41: the ``strong`` before its rework (its records are what users cited)
    old_strong="heuristic:t1=0.022,t2=38.012,t3=24.989,t4=16.059,explore=0,self_call=1.477",
)
