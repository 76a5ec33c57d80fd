"""Telefunken in the step API (``sim.step``; issue 20): one game of all its hands, decision by
decision, on the kernel's own action interface (``kernels.telefunken``: ``reset_hand``, the
cut and the deal in the steps the batch takes them (``cut_count`` and ``cut_outcome``: the cut's
outcomes; ``inspected_keep``: the keep decisions; ``cut_apply``, ``deal_after_cut``), ``exact_bonus``,
``after_deal``, ``legal_actions``, ``apply_action``, ``hand_blocked``, ``score_hand``,
``write_game``, ``determinize``), in the order the batch kernel plays it (``play_game``,
``play_hand``): the adapter keeps no Python copy of the game's flow.

A game is all ``O_HANDS`` hands (seven by default; ``contracts`` with fewer hands makes it
shorter). Returns are cardsim's payouts: minus each seat's final total (leftover-chip points
included). Totals are not zero-sum, so the game is general-sum.

Chance:

* the first dealer, when ``first_dealer`` is random (one of the n seats, equally likely);
* each hand's shuffle: the 108 cards of the deck in order, each a card type (52 naturals, 52 the
  joker) drawn with the number of its copies not yet placed as its weight;
* the cut: the bottom portion B (the aimed model: the aim plus a uniform spread, clamped; the
  uniform model: uniform between ``cut_min`` and ``cut_max``);
* a reshuffle of the discard pile into a new stock (the kernel's refill): the new stock's order,
  card by card, by the same weights; the cards the action that emptied the stock draws from it
  are dealt by these outcomes;
* the Hand-6 exchange: the pooled cards' order, card by card, dealt back as the kernel deals.

The kernel makes its own draws of a reshuffle and an exchange from its play stream; the adapter
takes them back and deals them again by chance (their order in the batch is what
``batch_outcome`` gives, so a bridged game fed the batch's stream replays the batch record).

Decisions, besides every legal action of the kernel's (``legal_actions``):

* the cutter's aim under the aimed cut model (the bottom portion aimed at, 1..105: ``cut_aim``
  for a strategy that does not aim);
* under ``cut_joker_keep=optional``, for each joker among the three inspected cards in turn,
  keep it or not.

Action ids (``ACTION_NAMES`` of the kernel, fields as its A_* table): 0 draw, 1 take the upcard
(or the top discard), 2 buy, 3 pass, 4 go out (Hand 7 at once), 5 exchange done, 6 do not keep
the joker, 7 keep it; then discard a card (53: card ids, 52 the joker), pass a card in the
exchange (53), choose contract k (16), aim the cut at 1..105, go down with contract row c (16),
the Ecuador exchange go-down (40 melds x 52 naturals), an extra group (rank 0..13 x 16 wild
counts), an extra run (suit x lo x hi x wild position: 4 x 26 x 26 x 27), a lay-off (53 cards x 40
melds x 26 positions), a joker shift (the same), a retrieval (40 melds x 53 x 54), taking back a
wild card (52 x 40). About 305,000 ids; a turn offers a few dozen.

What a seat sees: its own holding (dealt, drawn, taken, bought, the exchange), the three cards it
inspects when it cuts, everything public (the cut, jokers kept, the upcard, every action with its
cards: discards, purchases, melds laid and changed, lay-offs; reshuffles; how many cards each seat
draws; hand ends and penalties).
"""
from __future__ import annotations

import functools

import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels import telefunken as K
from cardsim.kernels.rng import seed_stream, shuffle
from cardsim.sim.games.telefunken.trace import fmt_holding, meld_cards
from cardsim.sim.notation import fmt_card
from cardsim.sim.step import StepGame, ViewedState

ZERO_SUM = False                       # payouts are minus penalty totals
TRACE_ROWS = 256                       # rows one kernel call may log
DECK = K.DECK_SIZE
TYPES = K.KN_STRIDE                    # card types: 52 naturals and the joker (52)
POS = 26                               # run positions 0..25 (wrapping runs reach 25)
WILD_E = 27                            # a run's wild position: 0..25, or 26 for RUN_FILL
FULL_DECK = [i // 2 for i in range(104)] + [K.JK] * 4   # the kernel's unshuffled deck (two of each, 4 jokers)

# ---- dense action ids ------------------------------------------------------------------------
SIMPLE = {K.A_DRAW: 0, K.A_TAKE_UPCARD: 1, K.A_BUY: 2, K.A_PASS: 3, K.A_GO_OUT7: 4, K.A_EX_DONE: 5}
_SIMPLE_CODE = {v: k for k, v in SIMPLE.items()}
KEEP_NO, KEEP_YES = 6, 7
_SIZES = [("discard", TYPES), ("ex_card", TYPES), ("choose", K.CONTRACT_ROWS), ("aim", DECK - 3),
          ("down", K.CONTRACT_ROWS), ("exchange_down", K.MAX_MELDS * 52), ("group", 14 * 16),
          ("run", 4 * POS * POS * WILD_E), ("layoff", TYPES * K.MAX_MELDS * POS),
          ("shift", TYPES * K.MAX_MELDS * POS), ("retrieve", K.MAX_MELDS * TYPES * (TYPES + 1)),
          ("take_wild", 52 * K.MAX_MELDS)]
BASE = {}
_at = 8
for _name, _size in _SIZES:
    BASE[_name] = _at
    _at += _size
NUM_ACTIONS = _at
_ORDER = [name for name, _ in _SIZES]


def _radix(values, sizes) -> int:
    i = 0
    for v, s in zip(values, sizes):
        if not 0 <= v < s:
            raise ValueError(f"action field {v} outside 0..{s - 1}")
        i = i * s + v
    return i


def _unradix(i: int, sizes) -> list[int]:
    out = []
    for s in reversed(sizes):
        out.append(i % s)
        i //= s
    return out[::-1]


def action_id(x: int) -> int:
    """The dense id of the kernel's action ``x`` (kind | a << 8 | b << 16 | ...)."""
    kind = K.action_kind(x)
    a, b, c, d, e = (K.field(x, i) for i in range(1, 6))
    if kind in SIMPLE:
        return SIMPLE[kind]
    if kind == K.A_DISCARD:
        return BASE["discard"] + _radix([a], [TYPES])
    if kind == K.A_EX_CARD:
        return BASE["ex_card"] + _radix([a], [TYPES])
    if kind == K.A_CHOOSE:
        return BASE["choose"] + _radix([a], [K.CONTRACT_ROWS])
    if kind == K.A_GO_DOWN:
        if a == 0:
            return BASE["down"] + _radix([c], [K.CONTRACT_ROWS])
        return BASE["exchange_down"] + _radix([a - 1, b], [K.MAX_MELDS, 52])
    if kind == K.A_MELD:
        if a == M.MK_GROUP:
            return BASE["group"] + _radix([b, c], [14, 16])
        return BASE["run"] + _radix([b, c, d, POS if e == K.RUN_FILL else e], [4, POS, POS, WILD_E])
    if kind == K.A_LAYOFF:
        return BASE["layoff"] + _radix([a, b, c], [TYPES, K.MAX_MELDS, POS])
    if kind == K.A_SHIFT:
        return BASE["shift"] + _radix([a, b, c], [TYPES, K.MAX_MELDS, POS])
    if kind == K.A_RETRIEVE:
        return BASE["retrieve"] + _radix([a, b, c], [K.MAX_MELDS, TYPES, TYPES + 1])
    if kind == K.A_TAKE_WILD:
        return BASE["take_wild"] + _radix([a, b], [52, K.MAX_MELDS])
    raise ValueError(f"unknown action kind {kind}")


def _act(kind, a=0, b=0, c=0, d=0, e=0) -> int:
    return int(K.act(kind, a, b, c, d, e))


def action_code(i: int) -> int:
    """The kernel's action for the dense id ``i`` (not the cut's aim or a joker keep)."""
    if i in _SIMPLE_CODE:
        return _SIMPLE_CODE[i]
    name = max((n for n in _ORDER if BASE[n] <= i), key=lambda n: BASE[n])
    j = i - BASE[name]
    if name == "discard":
        return _act(K.A_DISCARD, j)
    if name == "ex_card":
        return _act(K.A_EX_CARD, j)
    if name == "choose":
        return _act(K.A_CHOOSE, j)
    if name == "down":
        return _act(K.A_GO_DOWN, 0, 0, j)
    if name == "exchange_down":
        m, c = _unradix(j, [K.MAX_MELDS, 52])
        return _act(K.A_GO_DOWN, m + 1, c)
    if name == "group":
        return _act(K.A_MELD, M.MK_GROUP, *_unradix(j, [14, 16]))
    if name == "run":
        s, lo, hi, e = _unradix(j, [4, POS, POS, WILD_E])
        return _act(K.A_MELD, M.MK_RUN, s, lo, hi, K.RUN_FILL if e == POS else e)
    if name in ("layoff", "shift"):
        return _act(K.A_LAYOFF if name == "layoff" else K.A_SHIFT, *_unradix(j, [TYPES, K.MAX_MELDS, POS]))
    if name == "retrieve":
        return _act(K.A_RETRIEVE, *_unradix(j, [K.MAX_MELDS, TYPES, TYPES + 1]))
    if name == "take_wild":
        return _act(K.A_TAKE_WILD, *_unradix(j, [52, K.MAX_MELDS]))
    raise ValueError(f"action {i} is not a table action")


def _card(c: int) -> str:
    return "JK" if c == K.JK else fmt_card(int(c))


def action_text(x: int) -> str:
    """A kernel action in words, with its cards."""
    kind = K.action_kind(x)
    a, b, c, d, e = (K.field(x, i) for i in range(1, 6))
    name = K.ACTION_NAMES[kind]
    if kind in (K.A_DISCARD, K.A_EX_CARD):
        return f"{name} {_card(a)}"
    if kind == K.A_CHOOSE:
        return f"choose contract {a}"
    if kind == K.A_GO_DOWN:
        return (f"go down, contract row {c}" if c else "go down") if a == 0 else \
            f"go down, giving {_card(b)} to meld {a - 1} for its joker"
    if kind == K.A_MELD:
        if a == M.MK_GROUP:
            return "meld the wild trio" if b == M.WILD_TRIO_RANK else f"meld a group of rank {b + 1} with {c} wild"
        wild = "wild cards on the gaps" if e == K.RUN_FILL else (f"a wild card at {e}" if e else "no wild card")
        return f"meld a run of suit {'CDHS'[b]} {c}..{d}, {wild}"
    if kind == K.A_LAYOFF:
        return f"lay off {_card(a)} on meld {b} at {c}"
    if kind == K.A_SHIFT:
        return f"shift the joker of meld {b}: {_card(a)} to {c}"
    if kind == K.A_RETRIEVE:
        return f"retrieve the joker of meld {a} with {_card(b)}" + (f" and {_card(c - 1)}" if c else "")
    if kind == K.A_TAKE_WILD:
        return f"take back the wild card of run {b} with {_card(a)}"
    return name


def _take_back(st, p: int, c: int) -> None:
    """A card the kernel dealt seat p leaves its holding again, to be dealt by chance (the
    kernel's ``take``, without its public bookkeeping: a dealt card was never known)."""
    known = st[K.KN + K.KN_STRIDE * p + c]
    K.take(st, np.int64(p), np.int64(c))
    st[K.KN + K.KN_STRIDE * p + c] = known


@functools.lru_cache(maxsize=1 << 16)
def _holding_text(p1: int, p2: int, jokers: int, twos: int) -> str:
    return fmt_holding(p1, p2, jokers, twos)


def _holding(st, p: int) -> str:
    return _holding_text(int(st[K.H1 + p]), int(st[K.H2 + p]), int(st[K.HJ + p]), int(st[K.HT + p]))


def _held(st, p: int) -> int:
    """Cards seat p holds (the kernel's ``held``, in Python)."""
    ht = int(st[K.HT + p])
    return (int(st[K.H1 + p]).bit_count() + int(st[K.H2 + p]).bit_count() + int(st[K.HJ + p])
            + sum((ht >> (2 * s)) & 3 for s in range(4)))


def _counts(cards) -> list[int]:
    cnt = [0] * TYPES
    for c in cards:
        cnt[int(c)] += 1
    return cnt


def batch_deck(seed: int, game: int, h: int, aim: int, opts) -> tuple[list[int], int]:
    """Hand ``h`` of game ``game`` of run ``seed`` as the batch shuffles it: the 108 cards in
    shuffled order (top first) and the cut's bottom portion for the cutter's ``aim`` (0: none)."""
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, game, np.int64(K.STREAM_HAND + h))
    deck = np.array(FULL_DECK, np.int64)
    shuffle(g, deck, 0, DECK)
    return deck.tolist(), int(K.cut_bottom(opts, g, np.int64(aim)))


def make_game(n: int, options) -> StepGame:
    opts = options.to_array(n)
    rules = opts[K.O_RULES:K.O_RULES + M.R_SIZE]
    hands = int(opts[K.O_HANDS])
    top = max(int(rules[M.R_JOKER_POINTS]), *(int(rules[M.R_POINTS + r]) for r in range(13)))
    chips = int(opts[K.O_CHIPS]) + hands
    worst = hands * DECK * top + chips * abs(int(opts[K.O_LEFTOVER_POINTS]))
    best = hands * (abs(int(opts[K.O_EXACT_POINTS])) + DECK * top) + chips * abs(int(opts[K.O_LEFTOVER_POINTS]))
    per_turn = n + 2 + K.MAX_ACTIONS_PER_TURN + DECK
    length = 1 + hands * (2 * DECK + 8 + DECK * n + int(opts[K.O_MAX_TURNS]) * per_turn)
    return StepGame("telefunken", n, options, opts, NUM_ACTIONS, DECK - 2,
                    max_game_length=length, min_utility=-float(worst), max_utility=float(best),
                    observation_size=obs_size(n), state_cls=TelefunkenState)


PHASES = ("exchange", "upcard", "buy", "act", "over", "open", "choose", "aim", "keep", "chance")


def obs_size(n: int) -> int:
    """Observation tensor: own holding, discard pile, cards on the table (53 card types each,
    counts / 4), the top discard and the card offered (one-hot of 53); per seat cards held / 20,
    down, chips / 10, total / 500, purchases this hand / 5; the hand (8), the contract row (16),
    the phase (10), the seat to act, this seat, the dealer (one-hot of n each); turn / 100,
    stock / 108, table actions this turn / 10."""
    return 5 * TYPES + 5 * n + K.MAX_HANDS + K.CONTRACT_ROWS + len(PHASES) + 3 * n + 3


class TelefunkenState(ViewedState):
    """One Telefunken game in the step API (see the module docstring)."""

    def __init__(self, game: StepGame):
        if self._copy_fresh(game):
            return
        st = self._begin(game, K.ST_SIZE)
        o, n = self.opts, self.n
        st[K.WILD2] = o[K.O_WILD_TWOS]
        for p in range(n):
            st[K.CHIPS + p] = o[K.O_CHIPS]
        self.tab = np.zeros((K.MAX_MELDS, K.TW), np.int64)
        self.gplay = np.zeros(2, np.uint64)   # the kernel's play stream (its own reshuffles, re-dealt by chance)
        self.row = np.zeros(K.RECORD_COLS, np.int64)   # the batch's record of the game (hands as they end)
        self.acts = np.zeros(0, np.int64)     # the kernel's legal actions at this decision
        self.chance = None       # first, deck, cut, reshuffle, pool (None: a decision or the end)
        self.step = None         # aim, keep (the cut's decisions; None: the kernel's)
        self.deck: list[int] = []   # the hand's shuffled deck (top first), then a reshuffle's or pool's order
        self.cnt: list[int] = []    # card types left to place in the chance phase
        self.targets: list[int] = []  # seats the chance phase's first cards go to
        self.batch: list[int] = []  # the kernel's order of a reshuffle / the pool (batch_outcome)
        self.keep_at = 0         # the inspected card a keep decision is about
        self.kept = 0
        self.trunc = 0           # TRUNC before this hand (a blocked hand keeps it)
        self.over = False
        self._seen = [[] for _ in range(n)]
        self.history: list[int] = []
        if o[K.O_FIRST_DEALER] < 0:
            self.chance = "first"
        else:
            self._start_hand(1, int(o[K.O_FIRST_DEALER]))
        self._keep_fresh()

    # ---- kernel calls and what they log --------------------------------------------------------
    def _scratch(self):
        g = self.game
        if not hasattr(g, "_scratch_tf"):
            g._scratch_tf = (np.zeros((K.MAX_ACTS, 3), np.int64), np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64),
                             np.zeros(K.MAX_ACTS, np.int64))
        return g._scratch_tf

    def _run(self, fn, *args) -> None:
        """Call a kernel function whose last argument is the trace; tell its rows (a draw only to
        its seat); draws after a reshuffle and the cards an exchange deals back are taken back
        and dealt again by chance."""
        st = self.st
        trace = np.zeros((TRACE_ROWS, K.TRACE_WIDTH), np.int64)
        st[K.TR_LEN] = 0
        pool = [int(c) for c in st[K.POOL:K.POOL + st[K.POOL_LEN]]]
        passed = [int(st[K.EXK + q]) for q in range(self.n)]
        fn(*args, trace)
        rows = trace[:min(int(st[K.TR_LEN]), TRACE_ROWS)].tolist()
        reshuffled, exchanged = None, False
        for code, seat, a, b, c, d in rows:
            if code == K.T_ACTION:
                self._tell(f"seat {seat}: {action_text(a)}")
            elif code == K.T_DRAW:
                if reshuffled is not None:
                    _take_back(st, seat, a)
                    self.targets.append(seat)
                else:
                    self._tell(f"seat {seat} draws a card", seat, f"seat {seat} draws {_card(a)}")
            elif code == K.T_RESHUFFLE:
                reshuffled = a
                self.targets = []
                self._tell(f"the discard pile is shuffled into a new stock of {a} cards")
            elif code == K.T_TAKE:
                self._tell(f"seat {seat} takes {_card(a)} from the pile")
            elif code == K.T_MELD:
                i, cards = meld_cards(a, b, c, d)
                self._tell(f"table meld {i} of seat {seat}: {' '.join(cards)}")
            elif code == K.T_EXCHANGE:
                exchanged = True
        if reshuffled is not None:
            self.batch = [int(x) for x in st[K.STOCK:K.STOCK + reshuffled]]
            self.cnt, self.deck = _counts(self.batch), []
            st[K.STOCK_LO] = 0
            self.chance = "reshuffle"
        elif exchanged:
            order = [int(x) for x in st[K.POOL:K.POOL + len(pool)]]
            self.targets = []
            i = 0
            for k in range(1, self.n + 1):
                q = (int(st[K.DEALER]) + k) % self.n
                for _ in range(passed[q]):
                    _take_back(st, q, order[i])
                    self.targets.append(q)
                    i += 1
            self.batch, self.cnt, self.deck = order, _counts(order), []
            self._tell(f"the exchange pool of {len(order)} cards is shuffled and dealt back")
            self.chance = "pool"

    # ---- the flow of a game ----------------------------------------------------------------------
    def _cutter(self) -> int:
        return (int(self.st[K.DEALER]) + self.n - 1) % self.n

    def _start_hand(self, h: int, dealer: int) -> None:
        st = self.st
        self.trunc = int(st[K.TRUNC])
        K.reset_hand(st, np.int64(h), np.int64(dealer))
        st[K.CUT_AIMED], st[K.CUT_KEEPS], st[K.KEEP_SET] = 0, 3, 0
        if h == 1:
            st[K.FIRST_DEALER] = dealer
        self._tell(f"hand {h}, dealer seat {dealer}, seat {self._cutter()} cuts")
        self.deck, self.cnt = [], _counts(FULL_DECK)
        if self.opts[K.O_CUT_MODEL] == 0:
            self.step = "aim"
        else:
            self.chance = "deck"

    def _cut_outcomes(self) -> list[tuple[int, float]]:
        o, aim = self.opts, np.int64(self.st[K.CUT_AIMED])
        raw = [int(K.cut_outcome(o, aim, np.int64(u))) for u in range(int(K.cut_count(o)))]
        prob: dict[int, float] = {}
        for b in raw:
            prob[b] = prob.get(b, 0.0) + 1.0 / len(raw)
        return sorted(prob.items())

    def _cut(self, b: int) -> None:
        """The bottom portion is ``b``: the cutter inspects the three cards above it."""
        st = self.st
        st[K.CUT_B] = b
        t = DECK - b
        seen = " ".join(_card(c) for c in self.deck[t - 3:t])
        cutter = self._cutter()
        self._tell(f"the cut leaves {b} cards at the bottom", cutter,
                   f"the cut leaves {b} cards at the bottom; seat {cutter} inspects {seen}")
        self.chance = None
        self.keep_at, self.kept = t - 3, 0
        self._next_keep()

    def _next_keep(self) -> None:
        """On to the next inspected joker; a keep that is not optional is made here."""
        t = DECK - int(self.st[K.CUT_B])
        while self.keep_at < t:
            keep = int(K.inspected_keep(self.opts, np.int64(self.deck[self.keep_at])))
            if keep == 2:
                self.step = "keep"
                return
            if keep == 1:
                self.kept |= 1 << (self.keep_at - (t - 3))
            self.keep_at += 1
        self.step = None
        self._deal()

    def _deal(self) -> None:
        st, o, n = self.st, self.opts, self.n
        b = int(st[K.CUT_B])
        dealer, cutter = int(st[K.DEALER]), self._cutter()
        st[K.STOCK:K.STOCK + DECK] = self.deck
        kept = int(K.cut_apply(st, np.int64(b), np.int64(cutter), np.int64(self.kept)))
        K.deal_after_cut(st, o, np.int64(st[K.HNO]), np.int64(dealer), np.int64(b), np.int64(kept),
                         np.zeros((0, K.TRACE_WIDTH), np.int64))
        self._tell(f"seat {cutter} keeps {kept} joker(s); the cut is {'exact' if st[K.CUT_EXACT] else 'not exact'}"
                   + (f"; the upcard is {_card(int(st[K.UPCARD]))}" if st[K.UPCARD] >= 0 else ""))
        for q in range(n):
            self._seen[q].append(f"seat {q} is dealt {_holding(st, q)}")
        if st[K.CUT_EXACT]:
            self._run(K.exact_bonus, st, o, np.int64(cutter), self.gplay)
        if o[K.O_CHOOSE]:
            st[K.PHASE] = K.P_CHOOSE
            st[K.CUR] = dealer
        else:
            self._run(K.after_deal, st, o, self.gplay)
        self._settle()

    def _settle(self) -> None:
        """After a step: chance to come, the next decision, or the end of the hand (and game)."""
        if self.chance is not None or self.step is not None:
            return
        st, o = self.st, self.opts
        if st[K.PHASE] != K.P_OVER:
            sc, mo, _ = self._scratch()
            acts = np.zeros(K.MAX_ACTS, np.int64)
            k = int(K.legal_actions(st, o, self.tab, sc, mo, acts))
            self.acts = acts[:k].copy()
            return
        sc, mo, scratch = self._scratch()
        self._run(K.close_hand, st, o, self.tab, sc, mo, scratch, np.int64(self.trunc))
        reason = K.HAND_REASONS[int(st[K.HREASON])]
        self._tell(f"hand {int(st[K.HNO])} ends: {reason}" + (f", seat {int(st[K.OUT])} went out" if st[K.OUT] >= 0 else "")
                   + "; holdings " + " | ".join(_holding(st, q) for q in range(self.n)))
        self._tell("penalties " + " ".join(str(int(st[K.PEN + q])) for q in range(self.n)) + ", totals "
                   + " ".join(str(int(st[K.TOTAL + q])) for q in range(self.n)))
        K.write_hand(st, self.row)
        if st[K.HNO] >= o[K.O_HANDS]:
            K.write_game(st, o, self.row)
            self.over = True
            self.acts = np.zeros(0, np.int64)
            return
        self._start_hand(int(st[K.HNO]) + 1, (int(st[K.DEALER]) + 1) % self.n)

    # ---- what OpenSpiel calls a state -----------------------------------------------------------
    def current_player(self) -> int:
        who = self._chance_or_end()
        if who is not None:
            return who
        if self.step is not None:
            return self._cutter()
        return int(self.st[K.ASK] if self.st[K.PHASE] == K.P_BUY else self.st[K.CUR])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._first_or(self._cut_outcomes) or self._weighted(self.cnt)

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.chance is not None:
            return [c for c, _ in self.chance_outcomes()]
        if self.step == "aim":
            return list(range(BASE["aim"], BASE["aim"] + DECK - 3))
        if self.step == "keep":
            return [KEEP_NO, KEEP_YES]
        return sorted(action_id(int(a)) for a in self.acts)

    def _checked(self, action) -> int:
        action = int(action)
        if self.chance is None and self.step is None and not self.over:
            if action not in {action_id(int(a)) for a in self.acts}:
                raise ValueError(f"action {action} is not legal here")
            return action
        return super()._checked(action)

    def apply(self, action: int) -> None:
        action = self._checked(action)
        st = self.st
        if self.chance != "deck":
            self._views = {}
        if self.chance == "first":
            self.chance = None
            self._start_hand(1, action)
        elif self.chance == "deck":
            self.deck.append(action)
            self.cnt[action] -= 1
            if len(self.deck) == DECK:
                self.chance = "cut"
        elif self.chance == "cut":
            self._cut(action)
        elif self.chance in ("reshuffle", "pool"):
            i = len(self.deck)
            self.deck.append(action)
            self.cnt[action] -= 1
            if self.chance == "reshuffle":
                st[K.STOCK + i] = action
            if i < len(self.targets):
                q = self.targets[i]
                K.give(st, np.int64(q), np.int64(action))
                what = "draws" if self.chance == "reshuffle" else "gets back"
                self._tell(f"seat {q} {what} a card", q, f"seat {q} {what} {_card(action)}")
            if not any(self.cnt):
                if self.chance == "reshuffle":
                    st[K.STOCK_LO] = len(self.targets)
                self.chance = None
                self.targets = []
                self._settle()
        elif self.step == "aim":
            st[K.CUT_AIMED] = action - BASE["aim"] + 1
            self._tell(f"seat {self._cutter()} aims the cut at {int(st[K.CUT_AIMED])} cards")
            self.step = None
            self.chance = "deck"
        elif self.step == "keep":
            t = DECK - int(st[K.CUT_B])
            if action == KEEP_YES:
                self.kept |= 1 << (self.keep_at - (t - 3))
            self.keep_at += 1
            self._next_keep()
        else:
            self._run(K.apply_action, st, self.opts, self.tab, self._scratch()[1], np.int64(action_code(action)),
                      self.gplay)
            self._settle()
        self.history.append(action)

    def strategy_action(self, sid: int, prm, gplay) -> int:
        """The action cardsim's built-in strategy ``sid`` (its parameter row ``prm``) takes here,
        drawing from its game's play stream ``gplay`` as the batch kernel does (``choose``, the
        cut's aim and keep of ``play_hand`` / ``keeps_joker``). The state draws its own
        reshuffles and exchanges from ``gplay`` from now on, as the batch does."""
        self.gplay = gplay
        o = self.opts
        base, off = sid, 0
        if sid == K.S_SEARCH:
            base, off = int(prm[K.SP_POLICY]), K.SP_PRM
        if self.step == "aim":
            aim = int(prm[off + K.Q_CUT_AIM]) if K.planner_like(base) else 0
            return BASE["aim"] + (aim or int(o[K.O_CUT_AIM])) - 1
        if self.step == "keep":
            if sid == K.S_RANDOM:
                keep = int(K.below(gplay, np.int64(2))) == 1
            elif K.planner_like(base):
                keep = bin(self.kept).count("1") < int(prm[off + K.Q_KEEP_JOKERS])
            else:
                keep = True
            return KEEP_YES if keep else KEEP_NO
        sc, mo, _ = self._scratch()
        acts = np.zeros(K.MAX_ACTS, np.int64)
        acts[:len(self.acts)] = self.acts
        i = int(K.choose(self.st, o, self.tab, sc, mo, acts, np.int64(len(self.acts)), np.int64(sid), prm, gplay))
        return action_id(int(acts[i]))

    def _table_choice(self, table, plug, gplay):
        """The batch's choice of the seat to act: the cut's aim and the table's keep as
        ``cut_choices`` makes them (a planner's parameters, a search seat's policy, a plug-in's
        K_CUT; its K_KEEP, how many of the inspected jokers it keeps, is asked at the hand's first
        keep decision with the view the batch asks it with, then ``keeps_joker`` decides each),
        every other decision by ``seat_choice`` (plug-in, search or built-in). The state draws its
        reshuffles and exchanges from ``gplay`` from now on (``strategy_action``)."""
        from cardsim.kernels.jit import plugin_params, search_callback
        from cardsim.kernels.telefunken.layout import (CUT_AIMED, CUT_KEEPS, K_CUT, K_KEEP, KEEP_SET,
                                                       N_PLUG_PARAMS, PLUG_KINDS, PLUGIN, S_SEARCH, VIEW_SIZE)
        from cardsim.kernels.telefunken.play import cut_choices, seat_choice
        from cardsim.kernels.telefunken.rules import inspected_keep, keeps_joker
        from cardsim.kernels.telefunken.search import no_search, search_cfunc
        from cardsim.kernels.telefunken.view import plugin_ask
        self.gplay = gplay
        o, q, sids = self.opts, self.current_player(), table.sids
        pprm = plugin_params(table.pprm, self.n, N_PLUG_PARAMS)
        view, legal = np.zeros(VIEW_SIZE, np.int64), np.zeros(K.MAX_ACTS, np.int64)
        if self.step is not None:
            st, rows = self.st.copy(), pprm.copy()
            asked = (1 << K_CUT) if self.step == "aim" else 0       # the keep is asked below, with its cards
            rows[q, PLUG_KINDS] = float(int(rows[q, PLUG_KINDS]) & asked)
            if cut_choices(st, o, self.tab.copy(), np.int64(st[K.HNO]), np.int64(st[K.DEALER]), sids, table.params,
                           np.zeros(2, np.uint64), plug, rows, view, legal):
                return None
            if self.step == "aim":
                return BASE["aim"] + (int(st[CUT_AIMED]) or int(o[K.O_CUT_AIM])) - 1
            if sids[q] >= PLUGIN and int(pprm[q, PLUG_KINDS]) >> K_KEEP & 1:
                t = DECK - int(st[K.CUT_B])
                first = next(i for i in range(t - 3, t) if inspected_keep(o, np.int64(self.deck[i])) == 2)
                if self.keep_at == first:                        # asked once a hand, as the batch asks it
                    j = sum(1 for c in self.deck[t - 3:t] if c == K.JK)
                    i = int(plugin_ask(st, o, self.tab, np.int64(q), np.int64(K_KEEP), np.arange(j + 1, dtype=np.int64),
                                       np.int64(j + 1), plug, pprm[q], view))
                    if i == -2:
                        return None
                    self._keeps = i
                i = getattr(self, "_keeps", -1)
                if i >= 0:
                    st[CUT_KEEPS], st[KEEP_SET] = i, 1
            keep = keeps_joker(st, o, np.int64(sids[q]), np.int64(bin(self.kept).count("1")), gplay)
            return KEEP_YES if keep else KEEP_NO
        sc, mo, _ = self._scratch()
        k = len(self.acts)
        acts = np.zeros(K.MAX_ACTS, np.int64)
        acts[:k] = self.acts
        _, i = seat_choice(self.st.copy(), o, self.tab.copy(), acts, np.int64(k), np.int64(q), sids, table.params, sc,
                           mo, gplay, plug, pprm, view, legal,
                           search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))
        return None if i < 0 else action_id(int(acts[i]))

    def action_values(self, worlds: int = 32, policy: str | None = "strong", seed: int = 0):
        """The critique's evaluation of the decision (``critique_eval``); the cut's aim and keep
        as ``cardsim critique`` asks them (``_cut_question``)."""
        if self.over or self.chance is not None:
            return None
        if self.step is not None:
            return self._cut_values(worlds, policy, seed)
        codes = [int(a) for a in self.acts]
        st, tab = self.st.copy(), self.tab.copy()
        kind = int(K.decision_kind(st, np.asarray(codes, np.int64), np.int64(len(codes))))

        def run(acts, n, prm, key, row, out):
            K.critique_eval(st, tab, self.opts, np.int64(kind), acts, np.int64(n), np.int64(0), prm, key, row, out,
                            np.full(3, -1, np.int64))
        return self._values(codes, [action_id(c) for c in codes], run, worlds, policy, seed)

    def _cut_question(self):
        """The cut stage's decision as the batch critique asks it (``critique_deal``): (kind, the
        state, the kernel's action codes, the inspected cards, the codes each legal action stands
        for). The state is the hand reset with nothing dealt: the cut's bottom portion unset and the
        card arrays the hand before left (its unseen stock among them) cleared; the kernel's cut
        worlds deal the deck the cutter cannot see themselves. K_CUT: the aims 1..105
        (``CUT_CODE | aim``), no card inspected yet. K_KEEP: how many inspected jokers the cutter
        keeps (``KEEP_CODE | j``, the first j of them kept), the three cards it inspected (its own
        knowledge) last where the cut puts them; the step's keep of one joker stands for the counts
        it still reaches (k kept so far, r optional jokers after this one: not keeping it k..k+r,
        keeping it k+1..k+1+r), and is worth the best of them (the cutter decides the rest)."""
        st = self.st.copy()
        t = DECK - int(st[K.CUT_B])
        st[K.CUT_B] = 0
        st[K.STOCK:K.STOCK + DECK] = 0
        st[K.PILE:K.PILE + DECK] = 0
        st[K.POOL:K.POOL + DECK] = 0
        if self.step == "aim":
            codes = [int(K.CUT_CODE) | aim for aim in range(1, DECK - 2)]
            return K.K_CUT, st, codes, np.full(3, -1, np.int64), [[i] for i in range(len(codes))]
        insp = np.array(self.deck[t - 3:t], np.int64)
        k = bin(self.kept).count("1")
        r = sum(int(K.inspected_keep(self.opts, np.int64(self.deck[i]))) == 2 for i in range(self.keep_at + 1, t))
        codes = [int(K.KEEP_CODE) | j for j in range(k, k + r + 2)]
        return K.K_KEEP, st, codes, insp, [list(range(0, r + 1)), list(range(1, r + 2))]

    def _cut_values(self, worlds, policy, seed):
        kind, st, codes, insp, groups = self._cut_question()

        def run(acts, n, prm, key, row, out):
            K.critique_eval(st, self.tab.copy(), self.opts, np.int64(kind), acts, np.int64(n), np.int64(0), prm, key,
                            row, out, insp)
        vals = self._values(codes, list(range(len(codes))), run, worlds, policy, seed)
        legal = self.legal_actions()
        return [max((vals[i] for i in g), key=lambda v: v.mean)._replace(action=a) for a, g in zip(legal, groups)]

    def batch_outcome(self, seed: int, game: int) -> int:
        """At a chance node: the outcome the batch draws here in game ``game`` of run ``seed``
        (the first dealer, a card of the hand's shuffle, the cut, a card of a reshuffle or of
        the exchange pool: the kernel's own order, drawn from the stream ``strategy_action`` was
        given)."""
        if self.chance == "first":
            g = np.zeros(2, np.uint64)
            return int(K.first_dealer(self.opts, np.int64(seed), np.int64(game), g))
        if self.chance in ("deck", "cut"):
            deck, b = batch_deck(seed, game, int(self.st[K.HNO]), int(self.st[K.CUT_AIMED]), self.opts)
            return b if self.chance == "cut" else deck[len(self.deck)]
        return self.batch[len(self.deck)]

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.n
        return [-float(self.st[K.TOTAL + q]) for q in range(self.n)]

    def resample(self, seat: int, rng) -> TelefunkenState:
        """A state ``seat`` cannot tell from this one: the other holdings (less the copies every
        seat knows they hold) and the stock's order dealt again (``kernels.telefunken.determinize``).
        ``rng``: a ``numpy.random.Generator``. At a chance node, the cut's decisions, or during an
        exchange (its pool is private), the state itself."""
        if self.step is not None or self.st[K.PHASE] == K.P_EXCHANGE:
            return self.clone()
        _, mo, _ = self._scratch()
        c = self._resample_with(seat, rng, lambda st, g: K.determinize(
            st, self.opts, np.int64(seat), g, np.zeros(DECK, np.int64), np.int64(0), mo))
        c._views = {}
        return c

    # ---- what a seat sees ------------------------------------------------------------------------
    def _phase(self) -> int:
        if self.over:
            return K.P_OVER
        if self.chance is not None:
            return len(PHASES) - 1
        if self.step is not None:
            return PHASES.index(self.step)
        return int(self.st[K.PHASE])

    def _pile(self) -> list[int]:
        return [int(c) for c in self.st[K.PILE:K.PILE + self.st[K.PILE_LEN]]]

    def _table_counts(self) -> np.ndarray:
        nm = int(self.st[K.NMELDS])
        cnt = np.zeros(TYPES, np.float32)
        if nm:
            planes = np.ascontiguousarray(self.tab[:nm, M.M_P1:M.M_P2 + 1]).astype("<u8")
            cnt[:52] = np.unpackbits(planes.view(np.uint8), bitorder="little").reshape(-1, 64)[:, :52].sum(0)
            cnt[K.JK] = self.tab[:nm, M.M_JOKERS].sum()
        return cnt

    def _own_counts(self, p: int) -> np.ndarray:
        st = self.st
        cnt = np.zeros(TYPES, np.float32)
        planes = np.array([st[K.H1 + p], st[K.H2 + p]], "<u8")
        cnt[:52] = np.unpackbits(planes.view(np.uint8), bitorder="little").reshape(2, 64)[:, :52].sum(0)
        ht = int(st[K.HT + p])
        if ht:
            for s in range(4):
                cnt[s * 13 + 1] += (ht >> (2 * s)) & 3
        cnt[K.JK] = st[K.HJ + p]
        return cnt

    def plugin_view(self, seat: int) -> np.ndarray | None:
        """The kernel's view of the decision ``seat`` takes now (what its plug-in reads; the cut's
        aim and keep are not asked of a plug-in here)."""
        if self.over or self.chance is not None or self.step is not None or seat != self.current_player():
            return None
        acts = np.asarray(self.acts, np.int64)
        view = np.zeros(K.VIEW_SIZE, np.int64)
        kind = K.decision_kind(self.st, acts, np.int64(len(acts)))
        K.fill_view(self.st, self.opts, self.tab, np.int64(seat), np.int64(kind), view)
        return view

    def _observation_string(self, seat: int) -> str:
        st, n = self.st, self.n
        pile = self._pile()
        offer = int(st[K.DISCARD]) if st[K.PHASE] == K.P_BUY and not self.over else -1
        melds = []
        for i in range(int(st[K.NMELDS])):
            r = self.tab[i]
            twos = int(r[K.T_TWOS])
            jokers = int(r[M.M_JOKERS]) - sum((twos >> (2 * s)) & 3 for s in range(4))
            melds.append(f"{i}:{int(r[K.T_OWNER])}:{fmt_holding(int(r[M.M_P1]), int(r[M.M_P2]), jokers, twos)}")
        return (f"seat {seat} · to act {self.current_player()} · {PHASES[self._phase()]} · hand {int(st[K.HNO])} "
                f"contract {int(st[K.CONTRACT])} · dealer {int(st[K.DEALER])} · turn {int(st[K.TURN])} · holding "
                f"{_holding(st, seat)} · pile {len(pile)} top {_card(pile[-1]) if pile else '-'} · offer "
                f"{_card(offer) if offer >= 0 else '-'} · stock {int(st[K.STOCK_HI] - st[K.STOCK_LO])} · held "
                + " ".join(str(_held(st, q)) for q in range(n)) + " · down "
                + "".join(str(int(st[K.DOWN + q])) for q in range(n)) + " · chips "
                + " ".join(str(int(st[K.CHIPS + q])) for q in range(n)) + " · totals "
                + " ".join(str(int(st[K.TOTAL + q])) for q in range(n)) + " · table " + (" / ".join(melds) or "-"))

    def _observation_tensor(self, seat: int) -> np.ndarray:
        st, n = self.st, self.n
        t = np.zeros(obs_size(n), np.float32)
        pile = self._pile()
        t[0:TYPES] = self._own_counts(seat) / 4.0
        t[TYPES:2 * TYPES] = np.bincount(np.array(pile, np.int64), minlength=TYPES) / 4.0
        t[2 * TYPES:3 * TYPES] = self._table_counts() / 4.0
        at = 3 * TYPES
        if pile:
            t[at + pile[-1]] = 1.0
        at += TYPES
        if st[K.PHASE] == K.P_BUY and not self.over and st[K.DISCARD] >= 0:
            t[at + int(st[K.DISCARD])] = 1.0
        at += TYPES
        t[at:at + n] = [_held(st, q) / 20.0 for q in range(n)]
        t[at + n:at + 2 * n] = st[K.DOWN:K.DOWN + n]
        t[at + 2 * n:at + 3 * n] = st[K.CHIPS:K.CHIPS + n] / 10.0
        t[at + 3 * n:at + 4 * n] = st[K.TOTAL:K.TOTAL + n] / 500.0
        t[at + 4 * n:at + 5 * n] = st[K.BUYS:K.BUYS + n] / 5.0
        at += 5 * n
        if st[K.HNO] > 0:
            t[at + int(st[K.HNO]) - 1] = 1.0
        at += K.MAX_HANDS
        t[at + int(st[K.CONTRACT]) % K.CONTRACT_ROWS] = 1.0
        at += K.CONTRACT_ROWS
        t[at + self._phase()] = 1.0
        at += len(PHASES)
        for v in (self.current_player(), seat, int(st[K.DEALER])):
            if 0 <= v < n:
                t[at + v] = 1.0
            at += n
        t[at] = st[K.TURN] / 100.0
        t[at + 1] = (st[K.STOCK_HI] - st[K.STOCK_LO]) / 108.0
        t[at + 2] = st[K.TABLE_ACTS] / 10.0
        return t

    def action_string(self, action: int) -> str:
        if self.is_chance():
            if self.chance == "first":
                return f"seat {action} deals first"
            return f"cut {action}" if self.chance == "cut" else f"card {_card(action)}"
        if self.step == "aim":
            return f"aim the cut at {action - BASE['aim'] + 1}"
        if self.step == "keep":
            return "keep the joker" if action == KEEP_YES else "do not keep the joker"
        return action_text(action_code(action))

    def __str__(self) -> str:
        return self._view("all", -1, lambda _: "\n".join(f"seat {q}: {_holding(self.st, q)}" for q in range(self.n))
                          + "\n" + self.observation_string(0))
