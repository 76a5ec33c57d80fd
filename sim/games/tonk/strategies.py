"""Tonk's strategies: each an id of the kernels' and a parameter row (``StrategySpec``), the
tuned ``strong`` and the search built on them."""
from __future__ import annotations

from cardsim.kernels import tonk as K
from cardsim.sim.spec import ParamSpec, StrategySpec, search_strategy, tuned, with_defaults

_THRESHOLD = ParamSpec("threshold", 8.0, 0.0, 50.0, "knock when the hand counts at most this many points", slot="P_THRESHOLD")
_WATCH = (
    _THRESHOLD,
    ParamSpec("decay", 0.5, 0.0, 10.0, "the threshold falls by this much per round played", slot="P_DECAY"),
    ParamSpec("wary_cards", 2.0, 0.0, 5.0, "never knock while an opponent holds this many cards or fewer",
              integer=True, slot="P_WARY_CARDS"),
)
STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (), "uniformly random legal action (baseline; knocks at once in most hands)"),
    StrategySpec("greedy", K.S_GREEDY, (),
                 "lays every spread and hit at once, takes the discard only when it completes or "
                 "extends something (with a dry stock also when it lowers the count; it ends a dry hand "
                 "only when no discard does), discards the highest card that helps no spread, never knocks"),
    StrategySpec("knocker", K.S_KNOCKER, (_THRESHOLD,), "greedy, and knocks when its count <= threshold"),
    StrategySpec("watcher", K.S_WATCHER, _WATCH,
                 "knocker that reads the table: lowers its threshold as the hand goes on and does not "
                 "knock into an opponent who is nearly out"),
    StrategySpec("fuzz", K.S_FUZZ, (
        ParamSpec("knock", 0.02, 0.0, 1.0, "chance of knocking at a turn start", slot="F_KNOCK"),
        ParamSpec("take", 0.3, 0.0, 1.0, "chance of taking the discard instead of drawing from the stock", slot="F_TAKE"),
        ParamSpec("end_dry", 0.15, 0.0, 1.0, "stock dry: chance of ending the hand (else the discard is taken)", slot="F_END_DRY"),
        ParamSpec("meld", 0.8, 0.0, 1.0, "chance of a (uniform) lay or hit when one is legal, else a uniform discard", slot="F_MELD"),
    ), "the fuzzer: random legal actions drawn by kind with these chances; reaches every end reason"),
    StrategySpec("planner", K.S_PLANNER, _WATCH + (
        ParamSpec("dry_end", 0.0, 0.0, 50.0, "stock dry: end the hand at this count or below (above it, take a "
                                             "discard that lowers the count; end only when none does)", slot="P_DRY_END"),
        ParamSpec("take_low", 0.0, 0.0, 10.0, "take a discard the hand cannot use when it is worth at most this "
                                              "many points and lowers the count (0 = only usable discards)", slot="P_TAKE_LOW"),
        ParamSpec("hold_spreads", 0.0, 0.0, 1.0, "1: hold spreads back in hand for a tonk out (lay one only when "
                                                 "the whole hand then goes this turn); 0: lay them at once",
                  integer=True, slot="P_HOLD_SPREADS"),
        ParamSpec("hold_min_stock", 0.0, 0.0, 52.0, "hold spreads only while the stock holds more than this many "
                                                    "cards", integer=True, slot="P_HOLD_MIN_STOCK"),
    ), "watcher with the study choices of tonk.md §13: the dry-stock end, the discard as a draw source, "
       "holding spreads for a tonk out (all 0: plays as watcher)"),
]
# the expert's defaults (and round 0 of its tune run) are the point where a first tune of the whole
# family converged (from the planner's old tuned knocking with count-aware discards): there
# wary_cards went to 5, which switches the planner's threshold knock off (an opponent always
# holds 5 cards or fewer), so the expert knocks by the odds alone and threshold and decay are
# no longer tuned (they changed no record)
_EXPERT_START = {"threshold": 26.0, "decay": 0.5, "wary_cards": 5.0, "dry_end": 2.0, "take_low": 4.0}
STRATEGIES.append(StrategySpec("expert", K.S_EXPERT, with_defaults(STRATEGIES[-1].params, _EXPERT_START) + (
    ParamSpec("knock_odds", 0.92, 0.0, 1.0, "knock when the chance that no opponent counts as little (its known "
                                           "cards and the rest drawn from the unseen ones) is at least this (1: only "
                                           "knocks that cannot be caught)", slot="P_KNOCK_ODDS"),
    ParamSpec("pair_keep", 2.4, 0.0, 100.0, "a discard that breaks a pair counts this many points less for every "
                                            "two unseen cards that would make it a book", slot="P_PAIR_KEEP"),
    ParamSpec("near_keep", 3.0, 0.0, 100.0, "a discard that breaks a possible run counts this many points less for "
                                            "every two unseen cards that would make a run of three", slot="P_NEAR_KEEP"),
    ParamSpec("feed", 13.0, 0.0, 20.0, "a discard that extends a spread on the table or fits a card an opponent "
                                      "took from the pile counts this many points less", slot="P_FEED"),
), "planner that reads the table (issue 41): knocks by the chance of not being caught, discards by count against the "
   "live chances of its pairs and runs (dead ones are dropped), and no discards an opponent can use"))


# issue 41: the least exploitable field of the committed `cardsim tune --self` run of the expert
# family (`python scripts/tools/tune_strong.py tonk`, results/tune/tonk/; tests/test_strong.py checks the
# two agree). Issue 16's strong was the planner point planner:threshold=26.174,decay=0.5125,wary_cards=4,
# dry_end=2.077,take_low=5.082 (results/critique/tonk.md compares the two).
STRONG = ("expert:threshold=26,decay=0.5,wary_cards=5,dry_end=2,take_low=3.944,"
          "hold_spreads=0,hold_min_stock=0,knock_odds=0.8936,pair_keep=2.947,near_keep=3.725,feed=14.291")
STRATEGIES.append(tuned(next(s for s in STRATEGIES if s.name == "expert"), STRONG,
                        "`python scripts/tools/tune_strong.py tonk` (results/tune/tonk/)"))
STRATEGIES.append(search_strategy(
    K.S_SEARCH, STRATEGIES, ("strong", "planner", "watcher", "knocker", "greedy", "random", "expert"), worlds=128, budget=0,
    help="determinized Monte Carlo search: at each decision it deals the unseen cards again (other hands, "
         "keeping the cards they took from the discard pile, and the stock) and plays every legal action out "
         "to the end of the deal with the rollout policy at every seat; takes the best mean payout"))
