"""Contract Rummy in the step API (``sim.step``; issue 20): one game of seven deals, decision by
decision, played by the batch kernel's own turn phases (``kernels.contract_rummy``:
``play_turn`` through ``step_turn``, ``reset_deal``, ``score_deal``, ``write_deal``,
``write_game``).

The kernel plays a turn as four phases (issue 42: the draw with the May-I's, step 2, the
discard, an out-of-turn play; the state's ``TPC`` names the next), the batch's ``play_turn``
one after another, and asks its seats through the plug-in interface (issue 17: the ``K_*``
decision kinds, each with the legal codes built where it is asked). The adapter plays the same
phases (``step_turn``: ``play_turn``) with every seat a plug-in (``step_plugin``) that stops the
turn at its question: the kernel leaves a snapshot of the state where it asked, with where it
stands (``TPC`` the phase, ``RS_*`` the question and its loops' places). The answer resumes
the turn from that snapshot (``RS_ANS``: the phase's loops pick up their places and the
question takes the answer), and it plays on to the next question, a stock draw (where the
kernel leaves a snapshot too, and the card chance deals resumes it), or its end. Nothing is
played twice and every rule is the kernel's. Each seat's answers this turn are kept (a script) only for the
replays of the whole turn that ``resample`` (another deal of the hidden cards) and
``action_values`` (a critique's log of the turn) need.

Returns are cardsim's payouts: minus each seat's final total (a LIVERPOOL cut bonus can lift
one above 0). Totals are not zero-sum, so the game is general-sum.

Chance:

* the first dealer, when ``first_dealer`` is random (one of the n seats, equally likely);
* LIVERPOOL's cut before each deal (success with ``cut_success_prob``);
* the deal: each seat's cards one at a time, in the kernel's dealing order, then the up-card,
  each a card type drawn with the number of its copies not yet dealt as its weight;
* every card drawn from the stock (the turn player's draw, a penalty card, an out-of-turn
  draw), when it is drawn: a card type weighted by its copies in the stock. The stock is a
  set of cards nobody has seen; a reshuffle turns the discard pile (less its top card) into a
  new one, and its cards are dealt the same way.

Decisions: the plug-in kinds and their codes (``cardsim.contract_rummy`` documents them), each
kind a block of ids: 0-1 K_DRAW (0 draw from the stock, 1 take the discard), 2-3 K_BUY (pass,
buy), 4-5 K_VOLUNTEER (no, play out of turn), 6-7 K_SWAP (no, swap), 8 + code K_MELD (0 not now,
1 the engine's meld, 2 the plain best meld, 3 + c every card but c), 64 + j K_MELD_JOKERS (j
more jokers), 72 + code K_JOKER (0 keep it for the discard, 1 + t on meld t), 90 + code
K_LAYOFF (0 keep, 1 + t on meld t), 108 + c K_DISCARD (the card): 161 ids. The kernel decides
what the plug-in interface leaves to it (which contract meld the search finds, where extra
meld jokers go, the order cards are offered in).

What a seat sees: its own cards (dealt, drawn, taken, penalty cards, the joker a swap frees),
the question it is asked, and everything public: the up-card and every discard, which seat
takes the discard, buys or volunteers, the melds as laid and changed (lay-offs, swaps), how
many cards each seat draws, reshuffles, deal ends and penalties. The tensor and the string are
the kernel's own view of the seat (``fill_view``: never another hand, a penalty card or the
stock).

Hints (``action_values``): the kernel's ``critique_eval`` of the question, from the start of its
turn segment as a critique's log of the replayed turn keeps it. The batch's pack and cut
(``batch_pack``) are the kernel's ``shuffle_cut``.
"""
from __future__ import annotations

import functools

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import melds as M
from cardsim.kernels.rng import seed_stream, shuffle
from cardsim.sim.games.contract_rummy.trace import _card, _TableMeld, action_text
from cardsim.sim.step import StepGame, ViewedState

ZERO_SUM = False                       # payouts are minus penalty totals
TRACE_ROWS = 2048                      # rows one turn may log
TYPES = K.HOLD                         # card types: 52 naturals and the joker (52)
KIND_NAMES = ("draw", "buy", "volunteer", "meld", "meld jokers", "swap", "joker", "lay off", "discard")
_WIDTH = {K.K_DRAW: 2, K.K_BUY: 2, K.K_VOLUNTEER: 2, K.K_SWAP: 2, K.K_MELD: 56, K.K_MELD_JOKERS: 8,
          K.K_JOKER: 1 + K.MAX_MELDS + 1, K.K_LAYOFF: 1 + K.MAX_MELDS + 1, K.K_DISCARD: TYPES}
_ORDER = (K.K_DRAW, K.K_BUY, K.K_VOLUNTEER, K.K_SWAP, K.K_MELD, K.K_MELD_JOKERS, K.K_JOKER, K.K_LAYOFF, K.K_DISCARD)
BASE = {}
_at = 0
for _k in _ORDER:
    BASE[_k] = _at
    _at += _WIDTH[_k]
NUM_ACTIONS = _at
ALL_KINDS = (1 << K.N_KINDS) - 1
PHASES = ("chance",) + KIND_NAMES + ("over",)


def kind_of(action: int) -> int:
    """The decision kind of a dense id."""
    for k in reversed(_ORDER):
        if action >= BASE[k]:
            return k
    raise ValueError(f"action {action} is not an id")


def _pack(opts) -> list[int]:
    """Copies of each card type in the pack."""
    return [int(opts[K.O_DECKS])] * 52 + [int(opts[K.O_JOKERS])]


_NAMES = np.array([_card(c) for c in range(TYPES)])


def _cards_text(counts) -> str:
    """A holding (copies per card type) as its cards, in card order."""
    return " ".join(np.repeat(_NAMES, counts).tolist()) or "-"


def batch_pack(seed: int, game: int, d: int, opts) -> tuple[list[int], int]:
    """Deal ``d`` of game ``game`` of run ``seed`` as the batch shuffles it: the pack in order
    (top first) and whether the LIVERPOOL cut succeeds (the kernel's ``shuffle_cut``, as
    ``start_deal`` calls it)."""
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, game, np.int64(K.STREAM_DEAL + d))
    st = np.zeros(K.ST_SIZE, np.int64)
    cut = int(K.shuffle_cut(st, opts, g))
    return st[K.STOCK:K.STOCK + st[K.STOCK_HI]].tolist(), cut


def make_game(n: int, options) -> StepGame:
    opts = options.to_array(n)
    rules = opts[K.O_RULES:K.O_RULES + M.R_SIZE]
    top = max(int(rules[M.R_JOKER_POINTS]), *(int(rules[M.R_POINTS + r]) for r in range(13)))
    cut = abs(int(opts[K.O_CUT_POINTS]))
    pack = int(opts[K.O_PACK])
    worst = K.DEALS * (pack * top + cut)
    hands = sum(int(opts[K.O_HAND + d]) for d in range(1, K.DEALS + 1))
    per_turn = n * K.SS_ROOM + K.FEED_ROOM          # a turn's questions and draws, as the scripts cap them
    length = 1 + K.DEALS * 2 + n * hands + K.DEALS + K.DEALS * int(opts[K.O_MAX_TURNS]) * per_turn
    return StepGame("contract_rummy", n, options, opts, NUM_ACTIONS, TYPES, max_game_length=length,
                    min_utility=-float(worst), max_utility=float(K.DEALS * cut),
                    observation_size=obs_size(n), state_cls=ContractRummyState)


def obs_size(n: int) -> int:
    """Observation tensor: own holding, the discard pile, the cards on the table (53 card types
    each, counts / 4), the top discard and the card asked about (one-hot of 53); per seat cards
    held / 20, down, May-I's / 5, out-of-turn plays / 5, total / 500; the deal (7), the decision
    kind or chance or the end (11), the seat to act, this seat, the dealer (one-hot of n each);
    turn / 100, stock / 162, pile / 162, the card taken this turn may not be discarded, swapped
    jokers due, this turn's discard goes out of turn."""
    return 5 * TYPES + 5 * n + K.DEALS + len(PHASES) + 3 * n + 6


@functools.cache
def _kernel_args(n: int):
    """The seats (plug-ins on greedy, whose parameters offer swaps: ``swap``), the script
    plug-in and the (unused) search callback of every phase played (not on the game: they do
    not pickle)."""
    from cardsim.sim.games.contract_rummy.strategies import STRATEGIES
    greedy = next(s for s in STRATEGIES if s.sid == K.S_GREEDY)
    sids = np.full(n, K.PLUGIN + K.S_GREEDY, np.int64)
    params = np.zeros((n, K.N_PARAMS), np.float64)
    params[:, :len(greedy.params)] = [p.default for p in greedy.params]
    return sids, params, K.step_plugin(), K.no_search


class ContractRummyState(ViewedState):
    """One Contract Rummy game in the step API (see the module docstring)."""

    def __init__(self, game: StepGame):
        if self._copy_fresh(game):
            return
        st = self._begin(game, K.ST_SIZE)
        st[K.XSTEP] = 1
        n = self.n
        self.tab = np.zeros((K.MAX_MELDS, K.TW), np.int64)   # the table where play resumes (st: the state)
        self.gplay = np.zeros(2, np.uint64)   # a strategy's play stream (strategy_action, batch reshuffles)
        self.row = np.zeros(K.RECORD_COLS, np.int64)   # the batch's record of the game (deals as they end)
        self.script = [[] for _ in range(n)]  # each seat's answers this turn: (question key, code)
        self.feed: list[int] = []    # the stock cards chance dealt this turn, in draw order
        self.modes = [0] * n         # SS_MODE of each seat's script (a resampled world: 1 or 2 for the others)
        self.logged = 0              # trace rows of this turn told so far
        self.start = None            # (state, table) at the turn's start once play resumes past it (else st, tab)
        self.rows: list[list[int]] = []  # the turn's trace rows before st (where play resumes)
        self.pos = [0] * n           # each seat's answers before st (where its script goes on)
        self.fpos = 0                # the feed's cards drawn before st
        self.qrows: list[list[int]] = []  # the trace rows from st to the question or draw now
        self.q = None                # the question: (seat, kind, card, meld, info, info2, codes)
        self.snap = None             # (state, table) where the question was asked / the draw stopped
        self.chance = None           # first, cut, deal, draw (None: a decision or the end)
        self.cnt: list[int] = []     # cards not yet dealt (deal) or in the stock (draw), per type
        self.deck: list[int] = []    # the deal's cards so far, in the kernel's dealing order
        self.pile_order: list[int] = []  # the new stock in the pile's order, at a reshuffle
        self.bstock: list[int] = []  # the batch's order of the stock (batch_outcome)
        self.bres = 0                # reshuffles of this deal batch_outcome has ordered
        self.over = False
        self._seen = [[] for _ in range(n)]
        self.history: list[int] = []
        if self.opts[K.O_FIRST_DEALER] < 0:
            self.chance = "first"
        else:
            self._start_deal(1, int(self.opts[K.O_FIRST_DEALER]))
        self._keep_fresh()

    # ---- the flow of a game ----------------------------------------------------------------------
    def _cutter(self) -> int:
        return (int(self.st[K.DEALER]) + self.n - 1) % self.n

    def _start_deal(self, d: int, dealer: int) -> None:
        st, o = self.st, self.opts
        K.reset_deal(st, np.int64(d), np.int64(dealer))
        self.tab[:] = 0
        st[K.CUT_OK] = 0
        self.bres = 0
        if d == 1:
            st[K.FIRST_DEALER] = dealer
        self._tell(f"deal {d}, dealer seat {dealer}")
        if o[K.O_CUT_POINTS] != 0:
            self.chance = "cut"
        else:
            self._deal()

    def _cut_outcomes(self) -> list[tuple[int, float]]:
        p = int(self.opts[K.O_CUT_PPB]) / 1e9
        return [(k, q) for k, q in ((0, 1.0 - p), (1, p)) if q > 0]

    def _cut(self, ok: int) -> None:
        K.cut_result(self.st, self.opts, np.int64(ok))
        self._tell(f"seat {self._cutter()} cuts {'exactly' if ok else 'not exactly'}")
        self._deal()

    def _deal(self) -> None:
        self.deck = []
        self.cnt = _pack(self.opts)
        self.chance = "deal"

    def _to_deal(self) -> int:
        """Cards the deal deals: each hand and the up-card."""
        return self.n * int(self.opts[K.O_HAND + self.st[K.DEAL]]) + 1

    def _dealt(self, c: int) -> None:
        """One more card of the deal; the last one (the up-card) deals them all, as the kernel
        deals from the stock's top, and leaves the rest as the stock."""
        self.deck.append(c)
        self.cnt[c] -= 1
        if len(self.deck) < self._to_deal():
            return
        st = self.st
        pack = self.deck + [x for x in range(TYPES) for _ in range(self.cnt[x])]
        st[K.STOCK:K.STOCK + len(pack)] = pack
        st[K.STOCK_LO], st[K.STOCK_HI] = 0, len(pack)
        K.deal_stock(st, self.opts, np.zeros((0, 6), np.int64))
        for q in range(self.n):
            self._seen[q].append(f"seat {q} is dealt {self._holding(st, q)}")
        self._tell(f"the up-card is {_card(c)}")
        self.chance = None
        self.bstock = []
        self._advance()

    def _advance(self) -> None:
        """Play on to the next question, a draw chance deals, or the end of the deal (and game)."""
        o = self.opts
        while self.chance is None and not self.over:
            st = self.st                                # a committed phase replaces it
            if self.start is None and (K.over(st) or K.turn_capped(st, o)):     # between turns
                self._end_deal()
                continue
            if self._run():
                return

    def _scripts(self) -> np.ndarray:
        pprm = np.zeros((self.n, K.SS_SIZE), np.float64)
        pprm[:, K.PLUG_KINDS] = ALL_KINDS
        for q, answers in enumerate(self.script):
            if len(answers) > K.SS_ROOM:
                raise RuntimeError("a turn asked more questions than a script holds")
            pprm[q, K.SS_LEN] = len(answers)
            pprm[q, K.SS_POS] = self.pos[q]
            pprm[q, K.SS_MODE] = self.modes[q]
            if answers:
                pprm[q, K.SS_ANS:K.SS_ANS + 2 * len(answers)] = np.array(answers, np.float64).ravel()
        return pprm

    def _start(self):
        """The state and table at the turn's start."""
        return self.start if self.start is not None else (self.st, self.tab)

    def _play(self, vb=None):
        """The turn played on from where play resumes (``st``, ``tab``: its start, or the snapshot
        of the last question or draw with RS_ANS) on the feed, to the next stop or its end:
        (state, table, vb, trace, error, scripts). With ``vb`` (a critique's in record mode,
        ``action_values``) the whole turn replayed from its start on the scripts."""
        whole = vb is not None
        st, tab = (x.copy() for x in (self._start() if whole else (self.st, self.tab)))
        st[K.TR_LEN] = 0
        st[K.XFEED_LEN] = len(self.feed)
        st[K.XFEED_POS] = 0 if whole else self.fpos
        st[K.XNEED] = 0
        if len(self.feed) > K.FEED_ROOM:
            raise RuntimeError("a turn drew more stock cards than the feed holds")
        st[K.XFEED:K.XFEED + len(self.feed)] = self.feed
        vb = np.zeros(K.SNAP_SIZE, np.int64) if vb is None else vb
        trace = np.zeros((TRACE_ROWS, 6), np.int64)
        sids, params, plug, srch = _kernel_args(self.n)
        pprm = self._scripts()
        if whole:
            pprm[:, K.SS_POS] = 0
        e = K.step_turn(st, self.opts, tab, sids, params, self.gplay, trace, np.zeros(16, np.int64),
                        np.zeros((K.MO_ROWS, K.HOLD), np.int64), plug, pprm, vb, srch)
        return st, tab, vb, trace, int(e), pprm

    @staticmethod
    def _scripted(pprm) -> None:
        """The seats answering exactly (SS_MODE 0) used every answer of their scripts."""
        exact = pprm[:, K.SS_MODE] == 0
        if (pprm[exact, K.SS_POS] != pprm[exact, K.SS_LEN]).any():
            raise RuntimeError("the turn's replay left its script (a step API bug)")

    def _run(self) -> bool:
        """Play the turn on from where play resumes: True when it stops at a question or a draw (the
        state is that decision or chance node), False when it ends (it is committed)."""
        st, tab, vb, trace, e, pprm = self._play()
        self._scripted(pprm)
        if vb[K.SNAP] > 0:                              # a question
            view = vb[:K.VIEW_SIZE]
            k = int(vb[K.SNAP])
            codes = [int(x) for x in vb[K.VIEW_SIZE + K.MAX_LEGAL:K.VIEW_SIZE + K.MAX_LEGAL + k]]
            self.q = (int(view[K.V_SEAT]), int(view[K.V_KIND]), int(view[K.V_CARD]), int(view[K.V_MELD]),
                      int(view[K.V_INFO]), int(view[K.V_INFO2]), codes)
            self._stopped(vb, trace)
            return True
        if st[K.XNEED] == 2 or (st[K.PERR] and st[K.XNEED] != 1):
            raise RuntimeError("the turn's replay left its script (a step API bug)")
        if st[K.XNEED] == 1:                            # a stock card to deal
            if vb[K.SNAP] != -1:
                raise RuntimeError("a stock draw stopped where the kernel saved no state (a step API bug)")
            sst = self._stopped(vb, trace)              # where the draw is (``card_due``)
            lo, hi = int(sst[K.STOCK_LO]), int(sst[K.STOCK_HI])
            self.cnt = np.bincount(sst[K.STOCK + lo:K.STOCK + hi], minlength=TYPES).tolist()
            if sst[K.RESHUF] > self.bres and lo == 0:
                self.pile_order = [int(x) for x in sst[K.STOCK:K.STOCK + hi]]
            self.chance = "draw"
            self.q = None
            return True
        if e:
            raise RuntimeError(f"the kernel reports {K.ERROR_NAMES[e]}")
        self._told(trace, int(st[K.TR_LEN]))
        st[K.XFEED_LEN] = st[K.XFEED_POS] = 0
        self.st, self.tab = st, tab
        self.script = [[] for _ in range(self.n)]
        self.feed = []
        self.modes = [0] * self.n
        self.logged = 0
        self.start = None
        self.rows = []
        self.pos = [0] * self.n
        self.fpos = 0
        self.q = self.snap = None
        return False

    def _stopped(self, vb, trace) -> np.ndarray:
        """The turn stopped: the kernel's snapshot (``vb``) is the state now (``snap``), the trace
        rows up to it are told; returns the snapshot's state."""
        sst = vb[K.SNAP_ST:K.SNAP_TAB].copy()
        stab = vb[K.SNAP_TAB:K.SNAP_SIZE].reshape(K.MAX_MELDS, K.TW).copy()
        self._told(trace, int(sst[K.TR_LEN]))
        self.qrows = trace[:int(sst[K.TR_LEN])].tolist()
        self.snap = (sst, stab)
        return sst

    def _resume(self, i: int) -> None:
        """The question answered (``i``: the answer's index) or the stock card dealt (``i`` 0, the
        card in the feed): the turn goes on from the state where it was asked or drawn (its
        snapshot) with RS_ANS = 1 + i (the kernel's phase resumes there), not replayed."""
        sst, stab = self.snap
        st, tab = sst.copy(), stab.copy()
        st[K.RS_ANS] = 1 + i
        if self.start is None:
            self.start = (self.st, self.tab)
        self.rows += self.qrows
        self.pos = [len(a) for a in self.script]
        self.fpos = int(sst[K.XFEED_POS])
        self.st, self.tab = st, tab

    def _turn_rows(self, st, trace) -> list[list[int]]:
        """The trace rows of this turn so far: those before play resumed and those since (to
        ``st``)."""
        return self.rows + trace[:int(st[K.TR_LEN])].tolist()

    def _end_deal(self) -> None:
        st, o, n = self.st, self.opts, self.n
        reason = K.DEAL_REASONS[int(st[K.DREASON])]
        out = int(st[K.OUT])
        self._tell(f"deal {int(st[K.DEAL])} ends: {reason}" + (f", seat {out} went out" if out >= 0 else "")
                   + "; holdings " + " | ".join(self._holding(st, q) for q in range(n)))
        K.close_deal(st, o, np.zeros((0, 6), np.int64))
        self._tell("penalties " + " ".join(str(int(st[K.PEN + q])) for q in range(n)) + ", totals "
                   + " ".join(str(int(st[K.TOTAL + q])) for q in range(n)))
        K.write_deal(st, self.row)
        if st[K.DEAL] >= K.DEALS:
            K.write_game(st, self.row)
            self.over = True
            self.q = self.snap = None
            return
        self._start_deal(int(st[K.DEAL]) + 1, (int(st[K.DEALER]) + 1) % n)

    # ---- what the trace tells each seat ------------------------------------------------------------
    def _told(self, trace, upto: int) -> None:
        """Tell the turn's trace rows from ``logged`` on, those of ``trace`` (from where play
        resumed) up to ``upto`` (a resampled world, the turn replayed from its start, tells only
        what is new)."""
        base = len(self.rows)
        for code, seat, a, b, c, _ in trace[max(0, self.logged - base):upto].tolist():
            self._row(code, seat, a, b, c)
        self.logged = max(self.logged, base + upto)

    def _row(self, code, seat, a, b, c) -> None:
        if code == K.T_DRAW:
            self._tell(f"seat {seat} draws a card", seat, f"seat {seat} draws {_card(a)}")
        elif code == K.T_OOT:
            self._tell(f"seat {seat} draws a card out of turn", seat, f"seat {seat} draws {_card(a)} out of turn")
        elif code == K.T_PENALTY:
            self._tell(f"seat {seat} takes a penalty card", seat, f"seat {seat} takes the penalty card {_card(a)}")
        elif code == K.T_TAKE:
            self._tell(f"seat {seat} takes {_card(a)} from the pile")
        elif code == K.T_BUY:
            self._tell(f"seat {seat} buys {_card(a)}")
        elif code == K.T_VOLUNTEER:
            self._tell(f"seat {seat} will play out of turn")
        elif code == K.T_MELD:
            self._tell(f"seat {seat} melds {' '.join(_TableMeld(b, c).cards())} as table meld {a}")
        elif code == K.T_LAYOFF:
            self._tell(f"seat {seat} lays off {_card(a)} on meld {b}")
        elif code == K.T_SWAP:
            t = K.swap_target(c)
            where = {K.SWAP_KEPT: "kept for the discard", K.SWAP_MELD: "into the meld"}.get(t, f"on meld {t}")
            self._tell(f"seat {seat} swaps {_card(a)} for the joker of meld {b}, the joker {where}")
        elif code == K.T_DISCARD:
            self._tell(f"seat {seat} discards {_card(a)}" + (" out of turn" if b else ""))
        elif code == K.T_RESHUFFLE:
            self._tell(f"the discard pile is shuffled into a new stock of {a} cards")

    @staticmethod
    def _holding(st, p: int) -> str:
        return _cards_text(st[K.HAND + K.HOLD * p:K.HAND + K.HOLD * (p + 1)])

    # ---- what OpenSpiel calls a state -----------------------------------------------------------
    def current_player(self) -> int:
        who = self._chance_or_end()
        return who if who is not None else self.q[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._first_or(self._cut_outcomes) or self._weighted(self.cnt)

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.chance is not None:
            return [c for c, _ in self.chance_outcomes()]
        return [BASE[self.q[1]] + c for c in sorted(self.q[6])]

    def apply(self, action: int) -> None:
        action = self._checked(action)
        self._views = {}
        if self.chance == "first":
            self.chance = None
            self._start_deal(1, action)
        elif self.chance == "cut":
            self.chance = None
            self._cut(action)
        elif self.chance == "deal":
            self._dealt(action)
        elif self.chance == "draw":
            self.chance = None
            self.feed.append(action)
            self._resume(0)
            self._advance()
        else:
            p, kind, card, meld = self.q[:4]
            code = action - BASE[kind]
            self.script[p].append((int(K.question_key(kind, card, meld)), code))
            text = action_text(kind, code, card, meld)
            if kind in (K.K_BUY, K.K_VOLUNTEER) and code == 0:
                self._tell(f"seat {p}: {text}")
            else:
                self._seen[p].append(f"seat {p}: {text}")
            self._resume(self.q[6].index(code))
            self.q = None
            self._advance()
        self.history.append(action)

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.n
        return [-float(self.st[K.TOTAL + q]) for q in range(self.n)]

    # ---- cardsim's strategies and the batch's chance, for replaying batch records -----------------
    def strategy_action(self, sid: int, prm, gplay) -> int:
        """The answer cardsim's built-in strategy ``sid`` (its parameter row ``prm``) gives here, as
        the batch kernel's hooks make it (``wants_card``, ``volunteers``, ``yes``, ``place_target``,
        ``choose_discard``), drawing from its game's play stream ``gplay``. The state orders the
        batch's reshuffles from ``gplay`` from now on, as the batch does. ``meld_pick = 1`` (a
        meld the plug-in codes do not name) is not replayed."""
        self.gplay = gplay
        if sid == K.S_SEARCH:
            sid, prm = int(prm[K.SP_POLICY]), prm[K.SP_PRM:]
        prm = np.ascontiguousarray(prm, np.float64)
        p, kind, card, meld, info, _, codes = self.q
        st, tab = self.snap[0].copy(), self.snap[1].copy()
        o, sc = self.opts, np.zeros(16, np.int64)
        sid = np.int64(sid)
        rules = K.rules_of(o)
        if kind in (K.K_DRAW, K.K_BUY):
            paid = kind == K.K_BUY or o[K.O_MAYI_MODEL] == K.MODEL_OOT
            code = int(K.wants_card(st, o, tab, np.int64(p), np.int64(card), paid, sid, prm, gplay, sc))
        elif kind == K.K_VOLUNTEER:
            code = int(K.volunteers(st, o, np.int64(p), sid, prm, gplay))
        elif kind == K.K_SWAP and info == 0 and sid != K.S_RANDOM and prm[K.P_SWAP] < 0.5:
            code = 0                                    # the batch offers this seat no swap
        elif kind == K.K_MELD and sid != K.S_RANDOM and prm[K.P_MELD] > 0.5 and \
                K.spec_of(o, st[K.DEAL])[M.C_GROUP_EXACT] != 0 and not K.special7(st, o):
            raise ValueError("meld_pick = 1 lays a meld no K_MELD code names: not replayed")
        elif kind in (K.K_MELD, K.K_SWAP):
            code = int(K.yes(sid, prm, gplay))
        elif kind == K.K_MELD_JOKERS:
            code = max(codes) if sid != K.S_RANDOM and prm[K.P_MELD_JK] > 0.5 else 0
        elif kind == K.K_JOKER:
            h = K.hand_of(st, np.int64(p))
            jmode = 0 if sid == K.S_RANDOM else int(prm[K.P_JOKER])
            earlier = st[K.PTURN + p] > st[K.MELD_TURN + p]
            t = int(K.place_target(tab, st[K.NMELDS], np.int64(K.JK), h, rules, np.int64(jmode))) if earlier else -1
            keep = info == 1 and (t < 0 or sid == K.S_RANDOM and int(K.below(gplay, np.int64(2))) == 1)
            code = 0 if keep else 1 + t
        elif kind == K.K_LAYOFF:
            h = K.hand_of(st, np.int64(p)).copy()
            h[card] -= 1
            mode = (0 if sid == K.S_RANDOM else int(prm[K.P_JOKER if card == K.JK else K.P_LAYOFF]))
            t = int(K.place_target(tab, st[K.NMELDS], np.int64(card), h, rules, np.int64(mode)))
            code = 1 + t if K.yes(sid, prm, gplay) else 0
        else:
            code = int(K.choose_discard(st, o, tab, np.int64(p), info == 1, sid, prm, gplay, sc))
        if code not in codes:
            raise ValueError(f"strategy {int(sid)} answers {code}, not among {codes}")
        return BASE[kind] + code

    def _table_choice(self, table, plug, gplay):
        """The batch's answer of the seat asked: a plug-in seat's question asked as the batch
        asks it (the kernel's ``ask``: its view and the legal codes in the kernel's order, for the
        kinds in its mask; no swap question where its base is offered none), its base's answer
        (``strategy_action``) where it answers -1 or is not asked; a search seat's draw and
        discard searched as the batch searches them (``search_force`` on the state where the
        question is asked, the answer it forces on the hook), its policy's answer to the rest."""
        from cardsim.kernels.contract_rummy.layout import (F_KIND, F_SEAT, F_VAL, MAX_LEGAL, N_PLUG_PARAMS, PERR,
                                                           PLUGIN, RS_ANS, SX_DISCARD, SX_DRAW, SX_KINDS, S_SEARCH,
                                                           VB_SIZE, VIEW_SIZE, XFEED_LEN, XFEED_POS, XNEED, XSTEP)
        from cardsim.kernels.contract_rummy.search import search_force
        from cardsim.kernels.contract_rummy.view import ask
        from cardsim.kernels.jit import plugin_params
        from cardsim.kernels.search import SP_POLICY, SP_PRM
        self.gplay = gplay
        p, kind, card, meld, info, info2, codes = self.q
        sid, prm = int(table.sids[p]), table.params[p]
        base = sid - PLUGIN if sid >= PLUGIN else sid
        pprm = plugin_params(table.pprm, self.n, N_PLUG_PARAMS)
        st, tab = self.snap[0].copy(), self.snap[1].copy()
        st[[XSTEP, XFEED_LEN, XFEED_POS, XNEED, PERR, RS_ANS]] = 0      # the batch's state: its own stock
        vb = np.zeros(VB_SIZE, np.int64)
        if sid == S_SEARCH and (kind == K.K_DRAW and int(prm[SX_KINDS]) & SX_DRAW or
                                kind == K.K_DISCARD and info == 0 and int(prm[SX_KINDS]) & SX_DISCARD):
            st[F_KIND] = 0
            search_force(st, self.opts, tab, np.int64(p), np.int64(kind), prm, gplay, plug, pprm, vb)
            if st[F_KIND] == kind + 1 and st[F_SEAT] == p:
                code = (1 if st[F_VAL] == 1 else 0) if kind == K.K_DRAW else int(st[F_VAL])
                if code >= 0:                       # (a discard the search leaves: its policy's)
                    return BASE[kind] + code
        elif sid >= PLUGIN:
            bsid, brow = base, prm
            if base == S_SEARCH:
                bsid, brow = int(prm[SP_POLICY]), prm[SP_PRM:]
            if not (kind == K.K_SWAP and info == 0 and bsid != K.S_RANDOM and brow[K.P_SWAP] < 0.5):
                vb[VIEW_SIZE + MAX_LEGAL:VIEW_SIZE + MAX_LEGAL + len(codes)] = codes
                i = int(ask(st, self.opts, tab, np.int64(p), np.int64(kind), np.int64(len(codes)), np.int64(card),
                            np.int64(meld), np.int64(info), np.int64(info2), plug, pprm, vb))
                if st[PERR]:
                    return None
                if i >= 0:
                    return BASE[kind] + codes[i]
        return self.strategy_action(base, prm, gplay)

    def batch_outcome(self, seed: int, game: int) -> int:
        """At a chance node: the outcome the batch draws here in game ``game`` of run ``seed``
        (the first dealer, the cut, a card of the deal, a stock card: the deal's shuffle, or a
        reshuffle's order from the stream ``strategy_action`` was given)."""
        if self.chance == "first":
            return int(K.first_dealer(self.opts, np.int64(seed), np.int64(game), np.zeros(2, np.uint64)))
        d = int(self.st[K.DEAL])
        if self.chance in ("cut", "deal"):
            pack, cut = batch_pack(seed, game, d, self.opts)
            return cut if self.chance == "cut" else pack[len(self.deck)]
        st = self.snap[0]
        if not self.bstock:
            self.bstock, _ = batch_pack(seed, game, d, self.opts)
        if st[K.RESHUF] > self.bres:
            order = np.array(self.pile_order, np.int64)
            shuffle(self.gplay, order, 0, len(order))
            self.bstock = order.tolist()
            self.bres = int(st[K.RESHUF])
        return self.bstock[int(st[K.STOCK_LO])]

    # ---- play's hints: the critique's values ---------------------------------------------------
    def action_values(self, worlds: int = 32, policy: str | None = "strong", seed: int = 0):
        """The kernel's ``critique_eval`` of the question asked now: the turn replayed from its
        start (``step_turn``) with a critique's log (record mode) gives the start of the question's
        turn segment, the seat playing out of turn there and the segment's earlier answers
        (``segment_of``); each code is valued as the seat's ``deal_value``, as ``cardsim
        critique`` does. This turn's step 2 after the question is played by the evaluator's
        policy. None at a chance node, at the end, or when the turn asked more questions than the
        log holds."""
        if self.chance is not None or self.over:
            return None
        p, kind, card, meld, info, _, codes = self.q
        vb = np.zeros(K.CV_SIZE, np.int64)
        vb[K.CV_MODE] = K.CM_RECORD
        vb[K.CV_STOP] = -1
        self._play(vb)
        e = sum(len(a) for a in self.script)          # the questions answered before it (the turn winds
        r = K.CV_LOG + e * K.LG_W                       # down after the stop: the log goes on)
        if not e < min(int(vb[K.CV_NLOG]), K.LOG_ROOM) or vb[r + K.LG_SEAT] != p or vb[r + K.LG_KIND] != kind:
            return None
        script = np.zeros(e + 1, np.int64)
        seg, q, m = K.segment_of(vb, np.int64(e), script)
        start = vb[K.CV_SEG + seg * K.SEG_W:K.CV_SEG + (seg + 1) * K.SEG_W]
        st = start[:K.ST_SIZE].copy()
        tab = start[K.ST_SIZE:].copy().reshape(K.MAX_MELDS, K.TW)
        st[[K.XSTEP, K.XFEED_LEN, K.XFEED_POS, K.XNEED, K.PERR]] = 0   # the worlds draw from their own stock
        codes = sorted(codes)
        acts = [int(K.pack_act(np.int64(kind), np.int64(c), np.int64(card), np.int64(meld), np.int64(info)))
                for c in codes]

        def run(acts, n, prm, key, row, out):
            asid, aprm = np.int64(prm[K.SP_POLICY]), np.ascontiguousarray(prm[K.SP_PRM:])
            K.critique_eval(st, tab, self.opts, np.int64(p), np.int64(seg), np.int64(q), script, np.int64(m), acts,
                            np.int64(n), np.int64(0), prm, key, row, out, K.no_plugin, asid, aprm, False)
        return self._values(acts, [BASE[kind] + c for c in codes], run, worlds, policy, seed)

    # ---- ISMCTS's determinization ------------------------------------------------------------------
    def resample(self, seat: int, rng, tries: int = 50) -> ContractRummyState:
        """A state ``seat`` cannot tell from this one: the other hands and the stock dealt again
        from the cards it has not seen, as they stood when this turn began (the cards each seat
        is publicly known to hold, ``KNOWN``, stay with it; the cards another seat has laid,
        swapped or discarded this turn were in its hand), the stock cards others drew this turn
        dealt again, and the turn's phases replayed from its start: another seat's answers in the
        script keep their meaning (a question its new hand raises that the script does not name
        gets the passive answer, no or keep). A world whose replay shows ``seat`` anything else is dealt again,
        up to ``tries`` times; then (rarely: ``resample_misses`` counts it) the state itself.
        ``rng``: a ``numpy.random.Generator``. At a chance node or the end, the state itself."""
        if self.chance is not None or self.over:
            return self.clone()
        _, _, vb, trace, _, _ = self._play()
        rows = self._turn_rows(vb[K.SNAP_ST:K.SNAP_TAB], trace)
        want = (self.q, self.observation_string(seat), self.information_state_string(seat))
        modes = [0 if q == seat else 2 if self.q[1] == K.K_DISCARD and self.q[4] == 1 else 1 for q in range(self.n)]
        for _ in range(tries):
            c = self._world(seat, rows, rng)
            if c is None:
                continue
            c.modes = modes
            c._views = {}
            try:
                stopped = c._run()
            except RuntimeError:
                continue
            if stopped and c.chance is None and (c.q, c.observation_string(seat),
                                                 c.information_state_string(seat)) == want:
                self._resampled(c, seat)
                return c
        self.__dict__["resample_misses"] = self.__dict__.get("resample_misses", 0) + 1
        return self.clone()

    def _world(self, seat: int, rows, rng):
        """The turn's start dealt again for ``seat`` (see ``resample``), or None if the cards the
        others played this turn cannot come from their hands and draws. A card another seat
        played this turn is in its hand at the start, or (when its hand is too small) was one of
        its draws this turn. Stock cards drawn after a reshuffle in this turn keep their values
        (they come from the pile's cards, not the old stock), and so do the seat's own."""
        (st0, tab0), n = self._start(), self.n
        played = np.zeros((n, TYPES), np.int64)
        drawn = []                                  # per feed card: (who drew it, after a reshuffle)
        after = False
        for code, who, a, b, c, _ in rows:
            if code == K.T_RESHUFFLE:
                after = True
            elif code in (K.T_DRAW, K.T_PENALTY, K.T_OOT):
                drawn.append((who, after))
            elif code == K.T_MELD:
                row = np.zeros((1, K.TW), np.int64)
                row[0, [M.M_KIND, M.M_KEY, M.M_JOKERS, M.M_P2, M.M_P1]] = [
                    K.row_kind(b), K.row_key(b), K.row_jokers(b), K.row_p2(b), c]
                K.table_counts(row, 1, played[who])
            elif code in (K.T_LAYOFF, K.T_SWAP, K.T_DISCARD):
                played[who, a] += 1
                if code == K.T_SWAP and K.swap_target(c) in (K.SWAP_KEPT, K.SWAP_MELD):
                    played[who, K.JK] -= 1                  # the freed joker went into its hand
            elif code in (K.T_TAKE, K.T_BUY):
                played[who, a] -= 1
        if len(drawn) != len(self.feed):
            return None
        feed = list(self.feed)
        fixed = [who == seat or late for who, late in drawn]
        lo, hi = int(st0[K.STOCK_LO]), int(st0[K.STOCK_HI])
        pool = np.bincount(st0[K.STOCK + lo:K.STOCK + hi], minlength=TYPES)
        kept = np.zeros(TYPES, np.int64)            # old-stock cards whose draws stay as they are
        for f, (who, late), k in zip(feed, drawn, fixed):
            if k:
                played[who, f] -= 1                 # a card it drew in view: not from its hand
                if not late:
                    kept[f] += 1
        pool -= kept
        hands = {}
        for q in range(n):
            if q == seat:
                continue
            h = st0[K.HAND + K.HOLD * q:K.HAND + K.HOLD * (q + 1)]
            known = np.minimum(st0[K.KNOWN + K.HOLD * q:K.KNOWN + K.HOLD * (q + 1)], h)
            pool += h - known
            need = np.clip(played[q] - known, 0, None)
            excess = int(need.sum() - (st0[K.HSIZE + q] - known.sum()))
            if excess > 0:                          # some of them were its draws this turn
                slots = [i for i, (who, _) in enumerate(drawn) if who == q and not fixed[i]]
                if excess > len(slots):
                    return None
                for c, i in zip(rng.permutation(np.repeat(np.arange(TYPES), need))[:excess],
                                rng.permutation(slots)[:excess]):
                    feed[i], fixed[i] = int(c), True
                    need[c] -= 1
                    pool[c] -= 1
                    kept[c] += 1
            hands[q] = known + need
            pool -= need
        if (pool < 0).any():
            return None
        cards = rng.permutation(np.repeat(np.arange(TYPES), pool)).tolist()
        for q, h in hands.items():
            for _ in range(int(st0[K.HSIZE + q] - h.sum())):
                h[cards.pop()] += 1
        hidden = rng.permutation(len(cards)).tolist()
        feed = [f if k else cards[hidden.pop()] for f, k in zip(feed, fixed)]
        c = self.clone()
        c.st, c.tab, c.start, c.rows, c.pos, c.fpos = st0.copy(), tab0.copy(), None, [], [0] * n, 0
        for q, h in hands.items():
            c.st[K.HAND + K.HOLD * q:K.HAND + K.HOLD * (q + 1)] = h
        c.st[K.STOCK + lo:K.STOCK + hi] = sorted(cards + np.repeat(np.arange(TYPES), kept).tolist())
        c.feed = feed
        return c

    # ---- what a seat sees ------------------------------------------------------------------------
    def _now(self):
        """The state and table as they are now (where the question was asked, the draw stopped)."""
        return self.snap if self.snap is not None else (self.st, self.tab)

    def _phase(self) -> int:
        if self.over:
            return len(PHASES) - 1
        if self.chance is not None:
            return 0
        return 1 + self.q[1]

    def _view_of(self, seat: int) -> np.ndarray:
        st, tab = self._now()
        view = np.zeros(K.VIEW_SIZE, np.int64)
        if self.q is not None and self.q[0] == seat:
            _, kind, card, meld, info, info2, _ = self.q
        else:
            kind, card, meld, info, info2 = -1, -1, -1, 0, 0
        K.fill_view(st, self.opts, tab, np.int64(seat), np.int64(kind), np.int64(card), np.int64(meld),
                    np.int64(info), np.int64(info2), view)
        return view

    def plugin_view(self, seat: int) -> np.ndarray | None:
        """The kernel's view of the question ``seat`` is asked now (what its plug-in reads)."""
        if self.over or self.chance is not None or self.q is None or self.q[0] != seat:
            return None
        return self._view_of(seat)

    def _table(self, tab, nm: int) -> str:
        return " / ".join(f"{i}:{int(tab[i, K.T_OWNER])}:" + " ".join(_TableMeld(int(K.pack_row(tab[i])),
                                                                                   int(tab[i, M.M_P1])).cards())
                          for i in range(nm)) or "-"

    def _observation_string(self, seat: int) -> str:
        v = self._view_of(seat)
        n = self.n
        tab = self._now()[1]
        ask = ""
        if self.q is not None and self.q[0] == seat:
            _, kind, card, meld, info, info2, _ = self.q
            ask = f" · asked {KIND_NAMES[kind]} card {_card(card) if card >= 0 else '-'} meld {meld} info {info} {info2}"
        top = int(v[K.V_TOP])
        hand = _cards_text(v[K.V_HAND:K.V_HAND + TYPES])
        return (f"seat {seat} · to act {self.current_player()} · {PHASES[self._phase()]}{ask} · deal "
                f"{int(v[K.V_DEAL])} dealer {int(v[K.V_DEALER])} · turn {int(v[K.V_TURN])} · holding {hand} · pile "
                f"{int(v[K.V_PILE_LEN])} top {_card(top) if top >= 0 else '-'} · stock {int(v[K.V_STOCK])} · taken "
                f"{int(v[K.V_TAKEN])} due {int(v[K.V_JOKER_DUE])} xfer {int(v[K.V_XFER])} · held "
                + " ".join(str(int(v[K.V_HELD + q])) for q in range(n)) + " · down "
                + "".join(str(int(v[K.V_DOWN + q])) for q in range(n)) + " · may-i "
                + " ".join(str(int(v[K.V_MAYI + q])) for q in range(n)) + " · oot "
                + " ".join(str(int(v[K.V_OOT + q])) for q in range(n)) + " · totals "
                + " ".join(str(int(v[K.V_TOTAL + q])) for q in range(n)) + " · table "
                + self._table(tab, int(v[K.V_NMELDS])))

    def _observation_tensor(self, seat: int) -> np.ndarray:
        v = self._view_of(seat)
        n = self.n
        t = np.zeros(obs_size(n), np.float32)
        t[0:TYPES] = v[K.V_HAND:K.V_HAND + TYPES] / 4.0
        t[TYPES:2 * TYPES] = v[K.V_PILE:K.V_PILE + TYPES] / 4.0
        cnt = np.zeros(TYPES, np.int64)
        K.table_counts(self._now()[1], v[K.V_NMELDS], cnt)
        t[2 * TYPES:3 * TYPES] = cnt / 4.0
        at = 3 * TYPES
        if v[K.V_TOP] >= 0:
            t[at + int(v[K.V_TOP])] = 1.0
        at += TYPES
        if v[K.V_CARD] >= 0:
            t[at + int(v[K.V_CARD])] = 1.0
        at += TYPES
        for k, (f, scale) in enumerate(((K.V_HELD, 20.0), (K.V_DOWN, 1.0), (K.V_MAYI, 5.0), (K.V_OOT, 5.0),
                                        (K.V_TOTAL, 500.0))):
            t[at + k * n:at + (k + 1) * n] = v[f:f + n] / scale
        at += 5 * n
        if v[K.V_DEAL] > 0:
            t[at + int(v[K.V_DEAL]) - 1] = 1.0
        at += K.DEALS
        t[at + self._phase()] = 1.0
        at += len(PHASES)
        for x in (self.current_player(), seat, int(v[K.V_DEALER])):
            if 0 <= x < n:
                t[at + x] = 1.0
            at += n
        t[at:at + 6] = [v[K.V_TURN] / 100.0, v[K.V_STOCK] / 162.0, v[K.V_PILE_LEN] / 162.0, v[K.V_TAKEN] >= 0,
                        v[K.V_JOKER_DUE], v[K.V_XFER]]
        return t

    def action_string(self, action: int) -> str:
        if self.is_chance():
            if self.chance == "first":
                return f"seat {action} deals first"
            if self.chance == "cut":
                return "the cut is exact" if action else "the cut is not exact"
            return f"card {_card(action)}"
        kind = kind_of(action)
        card, meld = (self.q[2], self.q[3]) if self.q is not None and self.q[1] == kind else (-1, -1)
        return action_text(kind, action - BASE[kind], card, meld)

    def __str__(self) -> str:
        st, _ = self._now()
        return self._view("all", -1, lambda _: "\n".join(f"seat {q}: {self._holding(st, q)}" for q in range(self.n))
                          + "\n" + self.observation_string(0))
