"""Contract Rummy's strategies: the built-ins' ``StrategySpec``s (every one but random reads the
parameter row whose slots are ``kernels/contract_rummy/`` ``P_*``, each ``ParamSpec`` bound to its
slot by name), the expert (issue 41), ``strong`` (its tuned point) and the search."""
from __future__ import annotations

from cardsim.kernels import contract_rummy as K
from cardsim.sim.spec import ParamSpec, StrategySpec, search_strategy, tuned, with_defaults


def _by_slot(*params: ParamSpec) -> tuple[ParamSpec, ...]:
    """``params`` in the order of their kernel slots (``K.<slot>``), which must fill the row from 0
    without a gap: the row a strategy sends is its parameters' values in this order."""
    out = tuple(sorted(params, key=lambda p: getattr(K, p.slot)))
    assert [getattr(K, p.slot) for p in out] == list(range(len(out))), "a parameter row with a gap"
    return out


def _params(**defaults) -> tuple[ParamSpec, ...]:
    """The parameter row every strategy but random reads, with this strategy's defaults: each
    parameter placed at its kernel slot (``P_*``, by name: ``_by_slot``)."""
    d = {"max_mayi": 99.0, "near": 99.0, "volunteer": 1.0, "danger": 0.0, "far": 0.0, "layoff_target": 1.0,
         "joker_target": 1.0, "meld_jokers": 1.0, "vol_points": 0.0, "noise": 0.0, "swap": 1.0, "meld_pick": 0.0,
         **defaults}
    return _by_slot(
        ParamSpec("max_mayi", d["max_mayi"], 0.0, 99.0, "May-I's (penalty cards) the seat allows itself per "
                  "deal (99 = no limit)", integer=True, slot="P_MAX"),
        ParamSpec("near", d["near"], 0.0, 99.0, "take a discard with a penalty only if at most this many cards "
                  "are still missing for the contract afterwards", integer=True, slot="P_NEAR"),
        ParamSpec("volunteer", d["volunteer"], 0.0, 1.0, "1 = accept out-of-turn plays (free under "
                  "out_of_turn_discard)", integer=True, slot="P_VOL"),
        ParamSpec("danger", d["danger"], 0.0, 30.0, "cautious: an opponent who has melded and holds at most this "
                  "many cards is about to go out (0 = never)", integer=True, slot="P_DANGER"),
        ParamSpec("far", d["far"], 0.0, 30.0, "cautious: defend only while at least this many cards are still "
                  "missing for the own contract (always once down)", integer=True, slot="P_FAR"),
        ParamSpec("layoff_target", d["layoff_target"], 0.0, 1.0, "a card that fits several melds goes on: 0 the "
                  "first in table order, 1 the one after which most held cards fit somewhere", integer=True, slot="P_LAYOFF"),
        ParamSpec("joker_target", d["joker_target"], 0.0, 2.0, "a joker laid off or freed by a swap goes: 0 on "
                  "the first meld that takes it, 1 where it lets a held card follow, else on a set (dead: "
                  "nobody reuses it), 2 the same but on a run (it floats) before a set", integer=True, slot="P_JOKER"),
        ParamSpec("meld_jokers", d["meld_jokers"], 0.0, 1.0, "larger first melds (MAY_I): 1 = every joker held "
                  "goes into the meld (a run first), 0 = the fewest jokers the meld needs", integer=True, slot="P_MELD_JK"),
        ParamSpec("vol_points", d["vol_points"], 0.0, 500.0, "volunteer for an out-of-turn play only with a "
                  "holding worth at least this many points (0 = always)", slot="P_VOL_PTS"),
        ParamSpec("noise", d["noise"], 0.0, 1.0, "probability that a decision is random (a fair coin, a random "
                  "discard): the fuzzer's knob", slot="P_NOISE"),
        ParamSpec("swap", d["swap"], 0.0, 1.0, "1 = swap naturals for table jokers when it sheds a card",
                  integer=True, slot="P_SWAP"),
        ParamSpec("meld_pick", d["meld_pick"], 0.0, 1.0, "which contract meld (exact contracts): 0 = the "
                  "engine's (most natural points laid, fewest jokers), 1 = of the melds the holding allows, the "
                  "one after which most of the cards left can be laid off", integer=True, slot="P_MELD"),
    )


STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (), "fair coin at every yes/no decision, uniformly random legal "
                 "discard (baseline); lays the engine's best contract meld when it melds, lay-offs, "
                 "swapped jokers on the first meld that takes them"),
    StrategySpec("greedy", K.S_GREEDY, _params(),
                 "melds as soon as it can (most natural points laid, fewest jokers; MAY_I: every joker "
                 "held goes in), lays off and swaps everything it can (to a fixed point: a run grows "
                 "downwards too), takes any discard that brings it closer to its contract (May-I's "
                 "unlimited), volunteers for every out-of-turn play, discards the card that helps its "
                 "contract least (highest points first; a rank's copies past three help nothing)"),
    StrategySpec("mayi", K.S_MAYI, _params(max_mayi=2.0, near=3.0),
                 "greedy with a May-I policy: at most max_mayi penalty cards per deal, only for a card "
                 "that leaves at most near cards missing, out-of-turn plays if volunteer"),
    StrategySpec("cautious", K.S_CAUTIOUS, _params(danger=3.0, far=3.0),
                 "greedy plus a defence: when an opponent who has melded holds at most danger cards and "
                 "the seat is still at least far cards short of its contract, it takes no penalty cards "
                 "and sheds its highest-scoring cards first (once down it sheds the highest cards that "
                 "cannot be laid off, as greedy does)"),
    StrategySpec("fuzz", K.S_FUZZ, _params(noise=0.25),
                 "the fuzzer: greedy, but each decision (take, volunteer, meld, lay off, swap, discard) "
                 "is random with probability noise; reaches every action and end reason"),
]


# issue 41: the expert is cautious (issue 16's strong point by default) with its distance to the
# contract counting each card once (kernels/contract_rummy/ ``contract_need``'s ``exact``:
# cautious counts one ace in a low and a high run of its suit at once, and a run's cards in a set
# too, so with AD 2D 3D 4D JD QD KD it believes two runs held and never takes the card that
# completes its second run)
_CAUTIOUS = next(s for s in STRATEGIES if s.name == "cautious").params
STRATEGIES.append(StrategySpec("expert", K.S_EXPERT, with_defaults(_CAUTIOUS, {
    "max_mayi": 99, "near": 99, "volunteer": 1, "danger": 3, "far": 3, "layoff_target": 1, "joker_target": 1,
    "meld_jokers": 1, "vol_points": 0, "noise": 0, "swap": 1}) + (
    ParamSpec("shed_at", 1.0, 0.0, 20.0, "not down, once a seat that has melded holds at most this many cards, "
              "discard the card with the most points whatever the contract needs (0 = never; cautious sheds only "
              "while far from its contract)", integer=True, slot="P_SHED"),),
    "cautious (issue 16's strong point by default) with its distance to the contract counting each card once: "
    "an ace in one run, not in a low and a high run of its suit at once, and a run's cards not in a set too "
    "(cautious's count, which leaves it believing its contract held and drawing instead of taking the card "
    "that completes it); and it sheds its costliest card once a rival who has melded is about to go out "
    "(shed_at)"))

# issue 41: the self-consistent field of the committed `cardsim tune --self` run of the expert
# (`python scripts/tools/tune_strong.py contract_rummy`, results/tune/contract_rummy/; tests/test_strong.py checks the two
# agree); issue 16's was cautious at the same point (OLD_STRONG in scripts/tools/bench.py)
STRONG = ("expert:max_mayi=99,near=99,volunteer=1,danger=3,far=3,layoff_target=1,joker_target=1,meld_jokers=1,"
          "vol_points=0,noise=0,swap=1,shed_at=1")
STRATEGIES.append(tuned(next(s for s in STRATEGIES if s.name == "expert"), STRONG,
                        "`python scripts/tools/tune_strong.py contract_rummy` (results/tune/contract_rummy/)"))
STRATEGIES.append(search_strategy(
    K.S_SEARCH, STRATEGIES, ("strong", "cautious", "mayi", "greedy", "random", "expert"), worlds=32, budget=0,
    extra=(ParamSpec("kinds", 3.0, 1.0, 3.0, "decisions searched (a bit mask): 1 the draw (take the top discard, a "
                     "May-I under out_of_turn_discard, or draw), 2 the discard; the policy makes the rest",
                     integer=True, slot="SX_KINDS"),
           ParamSpec("discards", 3.0, 1.0, 12.0, "discards tried, the policy's best ones first", integer=True,
                     slot="SX_CANDS"),
           ParamSpec("z", 2.0, 0.0, 10.0, "another answer than the policy's only where its mean gain over the policy's "
                     "is at least z standard errors (paired on the same worlds); 0 = the best mean", slot="SX_Z"),
           ParamSpec("futility", 0.0, 0.0, 1.0, "racing: an answer whose z-score, projected to every world at "
                     "its mean and spread so far, stays below futility x z stops being played (0: only answers "
                     "whose gain is not above 0 by z standard errors stop); 0.5 is about 2.5x faster and "
                     "gained about 5 points a game less against strong (results/search/contract_rummy.md)",
                     slot="SX_FUTILITY")),
    help="determinized Monte Carlo search: at its draw and its discard it deals the unseen cards again (other "
         "hands, keeping the cards they are known to hold, and the stock) and plays each answer out to the end of "
         "the deal with the rollout policy at every seat; takes the best mean of its penalty against the others' "
         "mean; every 8 worlds an answer that cannot plausibly show a gain of z standard errors over the policy's by "
         "the last world (futility) stops being played, and the search ends with the policy's answer once none is "
         "left"))
