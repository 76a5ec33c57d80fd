"""Tripoli in the step API (``sim.step``; issue 20): one session, decision by decision, on the
kernels' own action interface (``kernels.tripoli``: ``open_deal``, ``antes``, ``deal_seat``,
``hands_dealt``, ``legal_actions``, ``apply_action``, ``step_capped``, ``clearing_due``,
``clearing_start``, ``clearing_seat``, ``clearing_classes``, ``determinize``), in the order the batch
kernel plays it (``play_range`` over a session: ``play_deal``, ``run_decisions``): the adapter keeps
no copy of the game's flow, only the chance nodes that deal the kernel's cards one by one.

A game is one session: ``deals_per_session`` deals (default one per player) from an empty board,
the board carried from deal to deal, then the ``clearing_pots`` clearing rounds after the last
deal. Returns are each seat's balance change over the session (zero-sum with clearing rounds;
without them the chips left on the board belong to nobody, so the game is general-sum). Deal
``k``'s dealer is ``first_dealer + k`` (seat 0 first when ``first_dealer`` is random: the bridge
has no run seed). A deal stopped by ``max_steps`` ends as in the batch (``truncated``, no
clearing round after it).

Chance: each deal's 52 cards one by one in the kernel's order (deck position i goes to position
``i mod (n + 1)`` of the deal order: the widow last, or first without ``widow_dealt_last``; seat
positions from the dealer's left), each uniform among the cards not dealt yet; under ``cosmo`` the
pay suit (4 outcomes) and the sequence start (11); in each clearing round the 5 cards of every
seat (from the round dealer's left, 5 x n cards of a fresh deck).

Decisions: every legal action of the kernel's (``legal_actions``: widow, auctions, the pay suit,
each poker card picked, bets, the Michigan leads; following in Phase 3 is forced and played by the
kernel). Action ids: 0 keep, 1 swap, 2 auction the widow, 3 done, 4 auction the old hand, 5 pass,
6 check, 7 call, 8 fold, 9..12 name the pay suit, 13..16 lead that suit, 17..68 pick card
``id - 17`` (``kernels.cards`` ids), then bet 1..``bet_limit``, raise 1..``bet_limit``, and bid
1..``auction_max_bid`` (its guard, 1000, when none).

What a seat sees: its own hand and poker picks, the widow once it has seen it, everything the
kernel logs publicly (antes, the board, every action but which card a seat picks, claims,
showdowns, pots, plays, payments, prizes), and its own clearing-round cards.
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import tripoli as K
from cardsim.kernels.rng import seed_stream, shuffle
from cardsim.sim.games.tripoli.trace import format_action
from cardsim.sim.notation import fmt_card, fmt_mask
from cardsim.sim.step import FlagState, StepGame

ZERO_SUM = False          # without clearing rounds the board keeps chips (the bridge: general-sum)
SIMPLE = {K.A_KEEP: 0, K.A_SWAP: 1, K.A_AUCTION_WIDOW: 2, K.A_DONE: 3, K.A_AUCTION_OLD: 4, K.A_PASS: 5,
          K.A_CHECK: 6, K.A_CALL: 7, K.A_FOLD: 8}
_SIMPLE_CODE = {v: k for k, v in SIMPLE.items()}
A_SUIT, A_LEAD, A_PICK, A_AMOUNTS = 9, 13, 17, 69
PHASE_NAMES = ("widow", "after swap", "after unsold", "auction", "pay suit", "select", "bet", "lead", "over")
TRACE_ROWS = 1024                 # rows one kernel call may log (a lead plays at most the 52 cards)
_PUBLIC_NAMES = {K.T_BOARD: "board", K.T_CLAIM: "claim", K.T_SHOW: "show", K.T_POT: "pot", K.T_PLAY: "play",
                 K.T_STOP: "stop", K.T_END: "end", K.T_PAYMENT: "payment", K.T_CLEAR: "clearing round",
                 K.T_DIALS: "dials", K.T_ANTE: "ante", K.T_SOLD: "sold", K.T_STAKE: "stake", K.T_PRIZE: "prize"}


def public_text(code: int, seat: int, a: int, b: int) -> str:
    """A public trace row in words, as the replay's trace says it (``trace.trace_events``)."""
    space = K.SPACE_NAMES[a] if code in (K.T_BOARD, K.T_CLAIM) and 0 <= a < len(K.SPACE_NAMES) else "?"
    if code == K.T_BOARD:
        return f"board {space}: {b}"
    if code == K.T_CLAIM:
        return f"seat {seat} takes {b} from {space}"
    if code == K.T_PRIZE:
        return f"seat {seat} takes {a} from the clearing pot"
    if code == K.T_POT:
        return f"pot to seat(s) {[p for p in range(9) if a >> p & 1]}: {b} each"
    if code == K.T_STOP:
        return f"stop after {fmt_card(a)}: seat {seat} leads next"
    if code == K.T_PAYMENT:
        return f"seat {seat} pays {a} to " + (f"seat {b}" if b >= 0 else "the kitty")
    if code == K.T_SOLD:
        return f"seat {seat} buys for {a} (paid to " + (f"seat {b})" if b >= 0 else "the kitty)")
    if code == K.T_STAKE:
        return f"seat {seat} puts {a} in the " + ("pot" if b == 0 else "clearing pot")
    if code == K.T_CLEAR:
        return f"clearing round: prize {a}, dealer seat {b}"
    if code == K.T_ANTE:
        return f"antes: every seat puts {a} on each space"
    if code == K.T_END:
        reason = K.REASON_NAMES[a] if 0 <= a < len(K.REASON_NAMES) else "?"
        return f"end: {reason}" + (f", seat {b} went out" if b >= 0 else "")
    return f"{_PUBLIC_NAMES[code]}: seat {seat} {a} {b}"


def action_id(code: int, opts) -> int:
    """The dense id of the kernel's action ``code`` (``kernels.tripoli.actions``: kind and payload)."""
    kind, x = K.action_kind(code), K.action_arg(code)
    limit = int(opts[K.O_LIMIT])
    if kind in SIMPLE:
        return SIMPLE[kind]
    if kind == K.A_SUIT:
        return A_SUIT + x
    if kind == K.A_LEAD:
        return A_LEAD + x
    if kind == K.A_PICK:
        return A_PICK + x
    if kind == K.A_BET:
        return A_AMOUNTS + x - 1
    if kind == K.A_RAISE:
        return A_AMOUNTS + limit + x - 1
    return A_AMOUNTS + 2 * limit + x - 1           # a bid


def action_code(i: int, opts) -> int:
    """The kernel's action for the dense id ``i``."""
    limit = int(opts[K.O_LIMIT])
    if i in _SIMPLE_CODE:
        return _SIMPLE_CODE[i]
    if i < A_LEAD:
        return K.make_action(K.A_SUIT, i - A_SUIT)
    if i < A_PICK:
        return K.make_action(K.A_LEAD, i - A_LEAD)
    if i < A_AMOUNTS:
        return K.make_action(K.A_PICK, i - A_PICK)
    j = i - A_AMOUNTS
    if j < limit:
        return K.make_action(K.A_BET, j + 1)
    if j < 2 * limit:
        return K.make_action(K.A_RAISE, j - limit + 1)
    return K.make_action(K.A_BID, j - 2 * limit + 1)


def batch_deck(seed: int, deal: int) -> tuple[list[int], list[int]]:
    """Deal ``deal`` of run ``seed`` as the batch shuffles it: (its 52 cards in deck order, the
    cosmo dials drawn after the shuffle: pay suit, sequence start)."""
    deck = np.arange(52, dtype=np.int64)
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, deal, np.int64(K.STREAM_DECK))
    shuffle(g, deck, 0, 52)
    return [int(c) for c in deck], [int(K.below(g, np.int64(4))), int(K.below(g, np.int64(11)))]


def batch_clearing(seed: int, deal: int, j: int, n: int) -> list[int]:
    """The 5 x n cards clearing round ``j`` after deal ``deal`` deals, in the batch's order."""
    deck = np.arange(52, dtype=np.int64)
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, deal, np.int64(K.STREAM_CLEAR + j))
    shuffle(g, deck, 0, 52)
    return [int(c) for c in deck[:5 * n]]


def make_game(n: int, options) -> StepGame:
    opts = options.to_array(n)
    deals, clearing = int(opts[K.O_DEALS]), int(opts[K.O_CLEARING])
    limit, bid = int(opts[K.O_LIMIT]), int(opts[K.O_MAX_BID])
    raises = int(opts[K.O_MAX_RAISES])
    per_deal = n * (9 * int(opts[K.O_ANTE]) + limit * (raises + 2) + 3 * bid)
    most = float(deals * per_deal + clearing * n * limit * (raises + 2))
    length = deals * (54 + int(opts[K.O_MAX_STEPS])) + clearing * 5 * n
    return StepGame("tripoli", n, options, opts, A_AMOUNTS + 2 * limit + bid, 52, max_game_length=length,
                    min_utility=-most, max_utility=most, observation_size=obs_size(n), state_cls=TripoliState)


def obs_size(n: int) -> int:
    """Observation tensor: own hand, own poker picks, the widow if seen, cards played in Phase 3,
    own clearing-round cards (52 each); the board's 9 spaces / 100; per seat its balance this
    session / 100, its bet this round / 100, folded, cards held / 20; the phase (9), the seat to
    act, this seat, the dealer, the high bidder (one-hot of n each); the pay suit (4), the sequence
    start (11); the high bid / 100; the deal of the session / deals."""
    return 5 * 52 + 9 + 4 * n + 9 + 4 * n + 4 + 11 + 2


class TripoliState(FlagState):
    """One Tripoli session in the step API (see the module docstring)."""

    def __init__(self, game: StepGame):
        if self._copy_fresh(game):
            return
        self._begin(game, K.ST_SIZE)
        n = self.n
        self.deal_no = 0
        self.money = [0] * n
        self.chance = "deal"          # deal, dials (cosmo), clear (a clearing round's cards); None: a decision
        self.clearing = False         # the session's clearing rounds have begun
        self.over = False
        self._deck: list[int] = []
        self._seen = [[] for _ in range(n)]
        self.history: list[int] = []
        self._start_deal()
        self._keep_fresh()

    def _run(self, fn, *args) -> None:
        """Call a kernel function whose last argument is the trace, and tell its public rows (a
        poker pick only to its seat; dealt cards are told by the chance nodes)."""
        st = self.st
        trace = np.empty((TRACE_ROWS, 4), np.int64)     # only the rows logged (TR_LEN) are read
        st[K.TR_LEN] = 0
        hands = [int(st[K.HAND + q]) for q in range(self.n)]
        seen, widowish = int(st[K.W_SEEN]), self.chance is None and st[K.PHASE] <= K.P_AUCTION
        fn(*args, trace)
        for code, seat, a, b in trace[:min(int(st[K.TR_LEN]), TRACE_ROWS)].tolist():
            if code == K.T_ACTION:
                if K.action_kind(a) == K.A_PICK:
                    self._tell(f"seat {seat} picks a card", seat, f"seat {seat} picks {fmt_card(K.action_arg(a))}")
                else:
                    self._tell(f"seat {seat}: {format_action(a)}")
            elif code == K.T_SHOW:
                self._tell(f"seat {seat} shows {fmt_mask(a)}")
            elif code == K.T_PLAY:
                self._tell(f"seat {seat} plays {fmt_card(a)}")
            elif code in _PUBLIC_NAMES:
                self._tell(public_text(code, seat, a, b))
        for q in range(self.n):                       # a swap with the widow: the seat sees its new hand
            if widowish and int(st[K.HAND + q]) != hands[q]:
                self._seen[q].append(f"seat {q} now holds {fmt_mask(int(st[K.HAND + q]))}")
        if int(st[K.W_SEEN]) != seen and st[K.W_SEEN] >= 0:
            w = int(st[K.W_SEEN])
            self._seen[w].append(f"the widow: {fmt_mask(int(st[K.WIDOW]))}")

    # ---- the flow of a session ---------------------------------------------------------------
    def _start_deal(self) -> None:
        st, o = self.st, self.opts
        dealer = (max(0, int(o[K.O_FIRST_DEALER])) + self.deal_no) % self.n
        K.open_deal(st, o, 0, self.deal_no, dealer)          # session 0, its deal deal_no
        self._tell(f"deal {self.deal_no + 1}, dealer seat {dealer}")
        self.chance = None
        self._run(K.antes, st, o)
        self._deck = []
        self.chance = "deal"

    def _deal_card(self, card: int) -> None:
        st, n = self.st, self.n
        to = int(K.deal_seat(st, self.opts, len(self._deck)))      # the kernel's deal order
        self._deck.append(card)
        if to == n:
            st[K.WIDOW] |= 1 << card
            self._tell("the widow is dealt a card")
        else:
            st[K.HAND + to] |= 1 << card
            self._tell(f"seat {to} is dealt a card", to, f"seat {to} is dealt {fmt_card(card)}")
        if len(self._deck) == 52:
            if self.opts[K.O_COSMO]:
                self._deck = []
                self.chance = "dials"
            else:
                self._hands_dealt()

    def _hands_dealt(self) -> None:
        st, o = self.st, self.opts
        self._tell(f"pay suit {'CDHS'[int(st[K.PAY_SUIT])]}, sequence from {int(st[K.SEQ])}")
        self.chance = None
        self._run(K.hands_dealt, st, o)
        self._settle()

    def _clear_deal(self, card: int) -> None:
        st, n = self.st, self.n
        to = int(K.clearing_seat(st, st[K.BET_DEALER], len(self._deck)))
        self._deck.append(card)
        st[K.CLH + to] |= 1 << card
        self._tell(f"seat {to} is dealt a clearing card", to, f"seat {to} is dealt {fmt_card(card)} (clearing)")
        if len(self._deck) == 5 * n:
            K.clearing_classes(st)
            self.chance = None
            self._settle()

    def _begin_clearing_deal(self) -> None:
        """The kernel dealt a clearing round from its own stream: deal it again by chance."""
        st = self.st
        for q in range(self.n):
            st[K.CLH + q] = 0
            st[K.CLS + q] = 0
        self._deck = []
        self.chance = "clear"

    def _settle(self) -> None:
        """After a step: the step cap, the clearing rounds, the next deal or the end."""
        st, o = self.st, self.opts
        if st[K.PHASE] != K.P_OVER and K.step_capped(st, o):       # the batch's decision loop
            self._tell("the deal stops: step cap")
        if st[K.PHASE] != K.P_OVER:
            return
        if not self.clearing and K.clearing_due(st, o):             # as the batch's play_deal
            self.clearing = True
            self._run(K.clearing_start, st, o, np.zeros(2, np.uint64), np.zeros(52, np.int64))
            self._begin_clearing_deal()
            return
        for q in range(self.n):
            self.money[q] += int(st[K.CHIPS + q])
        self._tell("deal over: " + " ".join(f"{int(st[K.CHIPS + q]):+d}" for q in range(self.n)))
        self.deal_no += 1
        if self.deal_no < int(o[K.O_DEALS]):
            self._start_deal()
        else:
            self.over = True

    # ---- what OpenSpiel calls a state -----------------------------------------------------------
    def current_player(self) -> int:
        who = self._chance_or_end()
        if who is not None:
            return who
        return int(self.st[K.CUR])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.chance == "dials":
            k = 4 if not self._deck else 11
            return [(i, 1.0 / k) for i in range(k)]
        if self.chance == "clear":
            taken = int(np.bitwise_or.reduce(self.st[K.CLH:K.CLH + self.n]))
        else:
            taken = int(np.bitwise_or.reduce(self.st[K.HAND:K.HAND + self.n])) | int(self.st[K.WIDOW])
        return self._uniform(52, taken)

    def _kernel_legal(self) -> tuple[np.ndarray, int]:
        """The kernel's legal actions here (its codes) and their number."""
        acts = np.zeros(K.MAX_ACTS, np.int64)
        return acts, int(K.legal_actions(self.st, self.opts, acts))

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.chance is not None:
            return [c for c, _ in self.chance_outcomes()]
        acts, k = self._kernel_legal()
        return sorted(action_id(int(a), self.opts) for a in acts[:k])

    def apply(self, action: int) -> None:
        action = self._checked(action)
        st = self.st
        if self.chance == "deal":
            self._deal_card(action)
        elif self.chance == "dials":
            self._deck.append(action)
            if len(self._deck) == 2:
                st[K.PAY_SUIT], st[K.SEQ] = self._deck
                self._hands_dealt()
        elif self.chance == "clear":
            self._clear_deal(action)
        else:
            index = int(st[K.CL_INDEX])
            self._run(K.apply_action, st, self.opts, action_code(action, self.opts), np.zeros(2, np.uint64),
                      np.zeros(52, np.int64))
            if self.clearing and st[K.PHASE] == K.P_BET and int(st[K.CL_INDEX]) != index:
                self._begin_clearing_deal()
            else:
                self._settle()
        self.history.append(action)

    def strategy_action(self, sid: int, prm, gplay) -> int:
        """The action cardsim's built-in strategy ``sid`` (its parameter row ``prm``) takes here,
        drawing from its deal's play stream ``gplay`` as the batch kernel does (``choose``)."""
        acts, k = self._kernel_legal()
        return action_id(int(acts[K.choose(self.st, self.opts, acts, k, sid, prm, gplay)]), self.opts)

    def _table_choice(self, table, plug, gplay):
        """The batch's ``seat_choice`` (plug-in, search or built-in) of the seat to act."""
        from cardsim.kernels.jit import plugin_params, search_callback
        from cardsim.kernels.tripoli.layout import N_PLUG_PARAMS, PLUGIN, S_SEARCH, VIEW_SIZE
        from cardsim.kernels.tripoli.play import seat_choice
        from cardsim.kernels.tripoli.search import no_search, search_cfunc
        acts, k = self._kernel_legal()
        i = int(seat_choice(self.st.copy(), self.opts, acts, np.int64(k), table.sids, table.params, gplay, plug,
                            plugin_params(table.pprm, self.n, N_PLUG_PARAMS), np.zeros(VIEW_SIZE, np.int64),
                            np.zeros(K.MAX_ACTS, np.int64),
                            search_callback(table.sids, S_SEARCH, PLUGIN, search_cfunc, no_search)))
        return None if i < 0 else action_id(int(acts[i]), self.opts)

    def action_values(self, worlds: int = 32, policy: str | None = "strong", seed: int = 0):
        if self.over or self.chance is not None:
            return None
        acts, k = self._kernel_legal()
        codes = [int(a) for a in acts[:k]]
        st = self.st.copy()

        def run(a, n, prm, key, row, out):
            K.critique_eval(st, self.opts, a, n, 0, prm, key, row, out)
        return self._values(codes, [action_id(c, self.opts) for c in codes], run, worlds, policy, seed)

    def batch_outcome(self, seed: int, session: int) -> int:
        """At a chance node: the outcome the batch draws here in session ``session`` of run
        ``seed`` (its deal ``session x deals_per_session + k``): a card of the deal, a cosmo dial,
        a clearing round's card."""
        d = session * int(self.opts[K.O_DEALS]) + self.deal_no
        if self.chance == "clear":
            return batch_clearing(seed, d, int(self.st[K.CL_INDEX]), self.n)[len(self._deck)]
        deck, dials = batch_deck(seed, d)
        return (dials if self.chance == "dials" else deck)[len(self._deck)]

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.n
        return [float(m) for m in self.money]

    def resample(self, seat: int, rng) -> TripoliState:
        """A state ``seat`` cannot tell from this one: what it has not seen dealt again,
        consistently with what it has (``kernels.tripoli.determinize``: its hand and picks, the
        played cards, the widow if seen, the pay cards Phase 1 showed, a showdown's hands, the
        cards a seat is known not to hold, the Phase-1 sequences; the other seats' unshown picks
        as the best poker hand of their new cards; in a clearing round the others' cards).
        ``rng``: a ``numpy.random.Generator``. (ISMCTS's determinization; at a chance node, the
        state itself.)"""
        return self._resample_with(seat, rng, lambda st, g: K.determinize(
            st, self.opts, seat, g, np.zeros(52, np.int64), K.S_RANDOM, np.zeros(K.N_PARAMS)))

    # ---- what a seat sees --------------------------------------------------------------------
    def _balance(self, q: int) -> int:
        return self.money[q] + (int(self.st[K.CHIPS + q]) if not self.over else 0)

    def plugin_view(self, seat: int) -> np.ndarray | None:
        if self.is_chance() or self.is_terminal() or seat != self.current_player():
            return None
        view = np.zeros(K.VIEW_SIZE, np.int64)
        K.fill_view(self.st, self.opts, view)
        return view

    def observation_string(self, seat: int) -> str:
        st = self.st.tolist()
        n = self.n
        widow = fmt_mask(st[K.WIDOW]) if st[K.W_SEEN] == seat else "?"
        phase = "chance" if self.chance is not None else ("over" if self.over else PHASE_NAMES[st[K.PHASE]])
        return (f"seat {seat} · to act {self.current_player()} · {phase} · deal {self.deal_no + 1} · dealer "
                f"{st[K.DEALER]} · hand {fmt_mask(st[K.HAND + seat])} · picked {fmt_mask(st[K.PICK + seat])} · "
                f"widow {widow} · clearing cards {fmt_mask(st[K.CLH + seat])} · pay suit {'CDHS'[st[K.PAY_SUIT]]} "
                f"· sequence {st[K.SEQ]} · board " + " ".join(f"{K.SPACE_NAMES[i]}={st[K.BOARD + i]}" for i in range(9))
                + " · balances " + " ".join(str(self._balance(q)) for q in range(n))
                + " · high bid " + (f"{st[K.HIGH]} by seat {st[K.HIGH_BY]}" if st[K.HIGH_BY] >= 0 else "none")
                + " · bets "
                + " ".join(str(st[K.CONTRIB + q]) for q in range(n))
                + f" · folded {st[K.FOLDED]} · raises {st[K.RAISES]} · played {fmt_mask(st[K.PLAYED])} · held "
                + " ".join(str(st[K.HAND + q].bit_count()) for q in range(n)))

    def observation_tensor(self, seat: int) -> np.ndarray:
        st = self.st.tolist()
        n = self.n
        t = np.zeros(obs_size(n), np.float32)
        masks = [st[K.HAND + seat], st[K.PICK + seat], st[K.WIDOW] if st[K.W_SEEN] == seat else 0,
                 st[K.PLAYED], st[K.CLH + seat]]
        bits = np.unpackbits(np.array(masks, "<u8").view(np.uint8), bitorder="little")
        t[:260] = bits.reshape(5, 64)[:, :52].ravel()
        at = 260
        t[at:at + 9] = [st[K.BOARD + i] / 100.0 for i in range(9)]
        at += 9
        t[at:at + n] = [self._balance(q) / 100.0 for q in range(n)]
        t[at + n:at + 2 * n] = [st[K.CONTRIB + q] / 100.0 for q in range(n)]
        t[at + 2 * n:at + 3 * n] = [st[K.FOLDED] >> q & 1 for q in range(n)]
        t[at + 3 * n:at + 4 * n] = [st[K.HAND + q].bit_count() / 20.0 for q in range(n)]
        at += 4 * n
        ones = []
        if self.chance is None and not self.over:
            ones.append(at + st[K.PHASE])
        at += 9
        for v in (self.current_player(), seat, st[K.DEALER], st[K.HIGH_BY]):
            if 0 <= v < n:
                ones.append(at + v)
            at += n
        ones.append(at + st[K.PAY_SUIT])
        at += 4
        ones.append(at + st[K.SEQ])
        at += 11
        t[ones] = 1.0
        t[at] = st[K.HIGH] / 100.0
        t[at + 1] = self.deal_no / max(1, int(self.opts[K.O_DEALS]))
        return t

    def action_string(self, action: int) -> str:
        if self.is_chance():
            return f"outcome {action}" if self.chance == "dials" else f"card {fmt_card(action)}"
        return format_action(action_code(action, self.opts))

    def __str__(self) -> str:
        return "\n".join(f"seat {q}: {fmt_mask(int(self.st[K.HAND + q]))}" for q in range(self.n)) + \
            f"\nwidow: {fmt_mask(int(self.st[K.WIDOW]))}\n{self.observation_string(0)}"
