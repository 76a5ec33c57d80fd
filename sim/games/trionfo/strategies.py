"""Trionfo's strategies: each an id of the kernels' and a parameter row (``StrategySpec``, every
parameter bound by name to its kernel slot: ``slot``, the R_*, G_*, H_* and X_* rows of
``kernels/trionfo/layout.py``), the expert (issue 41), the tuned ``strong`` and the search built
on them."""
from __future__ import annotations

from cardsim.kernels import trionfo as K
from cardsim.sim.spec import ParamSpec, StrategySpec, search_strategy, tuned, with_defaults

STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (
        ParamSpec("pass_bias", 0.0, 0.0, 1e9, "a pass is 1 + pass_bias times as likely as each legal bid (0 = "
                                              "uniform; 3 = the fuzzer, every contract level; 1e6 = an all-pass table, redeal_cap)",
              slot="R_PASS_BIAS"),
    ), "uniformly random bids, trump, called card (own cards too under self-call) and legal cards"),
    StrategySpec("greedy", K.S_GREEDY, (
        ParamSpec("self_call", 12.0, 0.0, 41.0, "under trionfo_allow_self_call, a partnership declarer of this "
                                                "strength or more calls his own highest trump: a secret solo "
                                                "(41 = never)", slot="G_SELF_CALL"),),
                 "bids by hand strength (thresholds 9, 13, 15, 17), best trump, calls the highest missing "
                 "trump (under self-call, its own highest trump from strength self_call: a secret solo); wins each trick with its cheapest winning card, else throws its cheapest card"),
    StrategySpec("heuristic", K.S_HEURISTIC, (
        ParamSpec("t1", 7.0, 0.0, 40.0, "hand strength to bid chiamo (call a partner)", slot="H_T1"),
        ParamSpec("t2", 17.0, 0.0, 40.0, "strength to bid di più", slot="H_T2"),
        ParamSpec("t3", 17.0, 0.0, 40.0, "strength to bid maso", slot="H_T3"),
        ParamSpec("t4", 17.0, 0.0, 40.0, "strength to bid maso dei masi (defaults from "
                  "results/trionfo_bids: a solo wins from 17, at the same rate whatever its stake)", slot="H_T4"),
        ParamSpec("explore", 0.0, 0.0, 1.0, "chance that a bid is made at random (studies)", slot="H_EXPLORE"),
        ParamSpec("self_call", 16.0, 0.0, 41.0, "under trionfo_allow_self_call, a partnership declarer of this "
                                                "strength or more calls his own highest trump: a secret solo "
                                                "(41 = never)", slot="H_SELF_CALL"),
    ), "bids by thresholds on hand strength (2 per trump, 3/2/2 for the trump 3/2/A, 2/1/1 for plain "
       "3/2/A), calls the highest missing trump (its own from strength self_call: a secret solo), plays the trick-taking heuristic "
       "(kernels.tricks) with what it knows of the sides"),
]
# issue 41: the expert bids as heuristic (its six parameters, issue 16's strong values by default)
# and plays with card-play rules a good player keeps (kernels/trionfo/: ``expert_card``); its
# defaults: the first tune's point with the one-parameter scan's honour_min 4 and clinch 0
# (results/STUDIES.md), the start of the committed tune run
_HEURISTIC = STRATEGIES[-1].params
_STRONG_START = {"t1": 0.022, "t2": 38.012, "t3": 24.989, "t4": 16.059, "self_call": 16.0}
STRATEGIES.append(StrategySpec("expert", K.S_EXPERT, with_defaults(_HEURISTIC, _STRONG_START) + (
    ParamSpec("honour_min", 4.0, 0.0, 12.0, "spend the 3 or 2 of trump only on a trick worth this many thirds "
              "(heuristic: 3)", integer=True, slot="X_HONOUR"),
    ParamSpec("draw_trumps", 9.0, 1.0, 9.0, "a solo declarer leads the master trump while holding it and at "
              "least this many trumps and an opponent may hold one (draws trumps); 9 never",
              integer=True, slot="X_DRAW"),
    ParamSpec("ruff_risk", 0.5, 0.0, 1.0, "a master card on top of a trick stands (a friend's gets points, ours "
              "wins at once) when the chance that an opponent still to play ruffs it (1 once it has shown void "
              "in the suit; 0 when it can hold no trump) is at most this; 0: only masters no one can ruff",
              slot="X_RISK"),
    ParamSpec("bank", 2.0, 0.0, 2.0, "a sure win takes the card of most bank x 10 x thirds - keep cost: 0 the "
              "cheapest winner, 2 an ace before a figure before a scartino (the trump 3 and 2 last)", slot="X_BANK"),
    ParamSpec("clinch", 0.0, 0.0, 36.0, "at most this many thirds short of the side's target (the declarer's "
              "side 18 of 35, the defenders 18), play a sure trick: lead the richest master trump, follow with "
              "the cheapest winner that stands; 0 never", integer=True, slot="X_CLINCH"),
    ParamSpec("plain_first", 1.0, 0.0, 2.0, "1: lead the richest counting plain-suit master that stands before "
              "any other lead; 2: the same but a solo declarer (he draws trumps first); 0 never", integer=True,
              slot="X_PLAIN"),
    ParamSpec("read", 1.0, 0.0, 1.0, "1: read the secret partner from the voids (a defender counts a seat "
              "shown void in the called card's suit as a fellow defender; the declarer the only seat that may "
              "still hold it as his partner); 0: unknown seats are opponents", integer=True, slot="X_READ"),
    ParamSpec("ruff_min", 1.0, 0.0, 12.0, "out of the suit led (not trumps), ruff only a trick worth this many "
              "thirds, else throw the cheapest plain card (0: ruff as the heuristic)", integer=True,
              slot="X_RUFF_MIN"),
    ParamSpec("draw_last", 2.0, 0.0, 10.0, "a solo declarer on lead with the master trump leads it while at most "
              "this many trumps are unseen and an opponent may hold one (the last trumps drawn; from "
              "examples/trionfo_critique_fixes.py); 0 never", integer=True, slot="X_DRAW_LAST"),
    ParamSpec("draw_top", 0.0, 0.0, 36.0, "a solo declarer about to lead a trump that is not a master (his "
              "hand is all trumps) leads his lowest master trump instead while an opponent may hold one, when the "
              "thirds still out exceed what he needs by less than this (he cannot give a trick away); 0 never",
              integer=True, slot="X_DRAW_TOP"),
    ParamSpec("draw_first", 9.0, 1.0, 9.0, "a solo declarer holding this many trumps, a master among them, leads "
              "his lowest master trump before any other lead while an opponent may hold one; 9 never",
              integer=True, slot="X_DRAW_FIRST"),
    ParamSpec("def_trump", 0.0, 0.0, 9.0, "a defender against a partnership contract holding this many trumps "
              "leads his lowest before any other lead while a trump is unseen (draws the declarer's side's trumps "
              "before it ruffs the defenders' masters); 0 never", integer=True, slot="X_DEF_TRUMP"),
    ParamSpec("solo_low", 9.0, 1.0, 9.0, "a solo declarer holding this many trumps but not the master trump "
              "leads his lowest before any other lead while an opponent may hold one (drives the master out); 9 never",
              integer=True, slot="X_SOLO_LOW"),
    ParamSpec("def_rich", 0.0, 0.0, 1.0, "1: a defender against a partnership contract whose lead would be a plain "
              "card worth nothing leads his richest plain card instead (an ace first: cashed before the declarer's "
              "side can ruff it); 0 never", integer=True, slot="X_DEF_RICH"),
    ParamSpec("solo_ruff", 0.0, 0.0, 2.0, "a solo declarer ruffing, one of his trumps standing, takes the trick "
              "with his cheapest trump that stands (1) or with his cheapest that wins it (2: risks an overruff); "
              "keeps his high trumps for control; 0 as bank", integer=True, slot="X_SOLO_RUFF"),
    ParamSpec("solo_keep", 0.0, 0.0, 36.0, "a solo declarer out of the suit led throws a plain card worth nothing "
              "rather than ruff a trick worth fewer than this many thirds (keeps the trump for a richer trick), "
              "but in second hand while a trump is out; 0 never", integer=True, slot="X_SOLO_KEEP"),
), "heuristic that reads the table (issue 41): trusts a master (a friend's: gives points; its own: wins with "
   "it) unless an opponent still to play is likely void in its suit (the odds from the cards unseen, the hand "
   "sizes and the voids shown), wins a sure trick with its points, ruffs only a trick worth it, draws trumps as a solo, cashes "
   "counting plain masters first, takes a sure trick near its side's target and reads the secret partner from "
   "the voids"))


# issue 41: the self-consistent field of the committed `cardsim tune --self` run of the expert
# family (`python scripts/tools/tune_strong.py trionfo`, results/tune/trionfo/; tests/test_strong.py checks
# the two agree). Issue 16's strong was heuristic:t1=0.022,t2=38.012,t3=24.989,t4=16.059,explore=0,
# self_call=1.477; the strong before the solo's critique round (issue 41, results/critique/trionfo.md) is
# this point without draw_top, draw_first, def_trump, solo_low and def_rich and with plain_first 1 (the
# expert's defaults); solo_ruff 1 (a solo's ruff with his cheapest standing trump) came after it, +0.028 ±
# 0.010 a session (40,000 sessions, seed 7), then the seventh session's solo_keep 3 (a solo throws a card
# worth nothing rather than ruff a trick worth less than 3 thirds), +0.140 ± 0.016 (seed 9), and solo_ruff 2
# (his cheapest winning trump), +0.099 ± 0.012 (seed 14). With that card play t4 15.5 (the solo bid from
# strength 16, issue 16's 17) gains +0.48 ± 0.04 a session (+0.42 in its own field): adopted, though the
# search's gap grows with it (results/critique/trionfo.md). self_call is not tuned (it acts only under
# trionfo_allow_self_call, which the tune's seed rules forbid): the expert keeps heuristic's 16.
STRONG = ("expert:t1=0.022,t2=38.012,t3=24.989,t4=15.5,explore=0,self_call=16,honour_min=4,draw_trumps=9,"
          "ruff_risk=0.5,bank=2,clinch=0,plain_first=2,read=1,ruff_min=1,draw_last=2,draw_top=3,draw_first=4,"
          "def_trump=2,solo_low=1,def_rich=1,solo_ruff=2,solo_keep=3")
STRATEGIES.append(tuned(next(s for s in STRATEGIES if s.name == "expert"), STRONG,
                        "`python scripts/tools/tune_strong.py trionfo` (results/tune/trionfo/)"))
STRATEGIES.append(search_strategy(
    K.S_SEARCH, STRATEGIES, ("strong", "heuristic", "greedy", "random", "expert"), worlds=16, budget=0,
    extra=(ParamSpec("trump", 0.0, 0.0, 1.0, "1: the declarer names trump by search too (each suit rolled out, "
                     "the partner called as the policy calls); 0: as the rollout policy (default: no gain measured "
                     "for trump=1, results/search/trionfo.md)", integer=True, slot="EX_TRUMP"),),
    help="determinized Monte Carlo search: at each card it deals the four hidden hands again (hand sizes, the "
         "voids shown, the first hand's 5D with the first speaker, an unplayed called card with another seat: "
         "the world's partner) and plays every legal card out to the end of the hand with the rollout "
         "policy's card play at every seat; takes the best mean money of its seat in the hand; the trump the same way "
         "(trump=1); bids and the call as the policy"))
