"""Tonk in the step API (``sim.step``; issue 20): one deal, action by action, on the kernels'
state (``kernels.tonk``: ``legal_actions``, ``apply_action``, ``deal_from_deck``, ``after_deal``).

Chance: the deal is dealt card by card in the kernel's order (five cards to each seat from the
dealer's left, then the upcard), each card uniform among those not dealt yet; every draw from the
stock is a chance node too (the drawn card uniform among the cards nobody has seen). The dealer is
``first_dealer`` (seat 0 when it is ``random``: the bridge has no run seed). A void deal under
``tonk_tie_redeal_same_dealer`` deals again by chance.

Action ids (``num_distinct_actions`` = 4 + 65 + 264 + 416 + 52 = 801), in this order:
knock, draw from the stock, take the discard, end a dry hand; lay a book (13 ranks x the four
3-subsets and the 4-set); lay a run (suit x low end x length 3..13, ace low); hit (card x owner x
book/run); discard (card). Chance outcomes are card ids 0..51 (suit x 13 + rank, ``sim.notation``).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from cardsim.kernels import tonk as K
from cardsim.kernels.rng import STREAM_DECK, seed_stream
from cardsim.sim.notation import fmt_card, fmt_mask
from cardsim.sim.step import CHANCE, TERMINAL, StepGame, StepState

_SPECIAL = [K.A_KNOCK, K.A_DRAW_STOCK, K.A_DRAW_DISCARD, K.A_END_DRY]
_NAMES = {K.A_KNOCK: "knock", K.A_DRAW_STOCK: "draw from the stock", K.A_DRAW_DISCARD: "take the discard",
          K.A_END_DRY: "end the dry hand"}


def _lay_masks() -> list[int]:
    masks = []
    for r in range(13):
        cards = [s * 13 + r for s in range(4)]
        for k in (3, 4):
            for combo in combinations(cards, k):
                masks.append(sum(1 << c for c in combo))
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                masks.append(sum(1 << (s * 13 + r) for r in range(lo, hi + 1)))
    return masks


_LAYS = _lay_masks()
_LAY_ID = {m: 4 + i for i, m in enumerate(_LAYS)}
_HIT0 = 4 + len(_LAYS)
_DISC0 = _HIT0 + 52 * 4 * 2
N_ACTIONS = _DISC0 + 52


def action_id(a: int) -> int:
    """The dense id of kernel action ``a``."""
    kind = K.action_kind(a)
    if kind in _SPECIAL:
        return _SPECIAL.index(kind)
    if kind == K.A_LAY:
        return _LAY_ID[K.action_cards(a)]
    if kind == K.A_HIT:
        card, owner, run = K.action_card(a), K.action_owner(a), K.action_on_run(a)
        return _HIT0 + (card * 4 + owner) * 2 + run
    if kind == K.A_DISCARD:
        return _DISC0 + K.action_card(a)
    raise ValueError(f"unknown Tonk action {a}")


def action_text(i: int) -> str:
    if i < 4:
        return _NAMES[_SPECIAL[i]]
    if i < _HIT0:
        return f"lay {fmt_mask(_LAYS[i - 4])}"
    if i < _DISC0:
        k = i - _HIT0
        card, owner, run = k // 8, (k // 2) % 4, k % 2
        return f"hit {fmt_card(card)} on seat {owner}'s {'run' if run else 'book'}"
    return f"discard {fmt_card(i - _DISC0)}"


def batch_deck(seed: int, deal_id: int, opts) -> list[int]:
    """The deck order the batch deals for (``seed``, ``deal_id``): the chance outcomes that replay
    that deal through the step API (the first ``5 n`` cards and the upcard, then each stock draw
    as ``deck[stock pointer]``)."""
    st = K.new_state(opts)
    K.reset_hand(st)
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, deal_id, STREAM_DECK)
    K.deal_cards(st, opts, g, np.zeros((0, 4), np.int64))
    return [int(c) for c in st[K.DECK:K.DECK + 52]]


def make_game(n: int, options) -> StepGame:
    opts = options.to_array(n)
    stake = int(opts[K.O_STAKE])
    return StepGame("tonk", n, options, opts, N_ACTIONS, 52,
                    max_game_length=(K.MAX_REDEALS + 1) * 53 + 8 * (int(opts[K.O_MAX_TURNS]) + 2),
                    min_utility=-3.0 * (n - 1) * stake, max_utility=3.0 * (n - 1) * stake,
                    observation_size=OBS_SIZE, state_cls=TonkState)


# observation tensor: own hand, pile (every card in it), top of the pile, spreads of each seat
# (books, runs), cards each seat is known to have taken from the pile, hand sizes / 10, stock / 52,
# the seat to act (one-hot), this seat (one-hot)
OBS_SIZE = 52 * 3 + 52 * 2 * K.MAX_PLAYERS + 52 * K.MAX_PLAYERS + K.MAX_PLAYERS + 1 + 2 * K.MAX_PLAYERS


class TonkState(StepState):
    """One Tonk deal in the step API (see the module docstring)."""

    def __init__(self, game: StepGame):
        self.game = game
        self.n = game.players
        self.opts = game.opts
        self.st = K.new_state(self.opts)
        K.reset_hand(self.st)
        fd = int(self.opts[K.O_FIRST_DEALER])
        self.st[K.DEALER] = fd if fd >= 0 else 0
        self._trace = np.zeros((0, 4), np.int64)
        self._acts = np.zeros(K.MAX_ACTS, np.int64)
        self._deck: list[int] = []          # the cards dealt so far (the deal's chance nodes)
        self._draw = None                  # a draw from the stock waiting for its card (chance)
        self._seen = [[] for _ in range(self.n)]   # each seat's perfect-recall events
        self.history: list[int] = []

    # ---- what OpenSpiel calls a state -----------------------------------------------------------
    def _deal_size(self) -> int:
        return 5 * self.n + (1 if self.opts[K.O_INITIAL_UPCARD] else 0)

    def _deck_pending(self) -> bool:
        return len(self._deck) < self._deal_size()

    def is_chance(self) -> bool:
        return self._deck_pending() or self._draw is not None

    def is_terminal(self) -> bool:
        return not self.is_chance() and self.st[K.PHASE] == K.P_OVER

    def current_player(self) -> int:
        if self.is_chance():
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return int(self.st[K.CUR])

    def _unseen(self) -> list[int]:
        """Cards nobody has seen: not dealt yet, or (in play) still in the stock."""
        if self._deck_pending():
            dealt = set(self._deck)
            return [c for c in range(52) if c not in dealt]
        return sorted(int(c) for c in self.st[K.DECK + int(self.st[K.STOCK_PTR]):K.DECK + 52])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._unseen()
        return [(c, 1.0 / len(cards)) for c in cards]

    def _kernel_legal(self) -> list[int]:
        k = K.legal_actions(self.st, self.opts, self._acts)
        return [int(a) for a in self._acts[:k]]

    def legal_actions(self) -> list[int]:
        if self.is_chance():
            return [c for c, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        return sorted(action_id(a) for a in self._kernel_legal())

    def apply(self, action: int) -> None:
        action = int(action)
        if self._deck_pending():
            if action not in self._unseen():
                raise ValueError(f"chance outcome {action} is not a card still to deal")
            self._deal_card(action)
        elif self._draw is not None:
            if action not in self._unseen():
                raise ValueError(f"chance outcome {action} is not a card of the stock")
            ptr = int(self.st[K.STOCK_PTR])
            deck = self.st[K.DECK:K.DECK + 52]
            j = int(np.nonzero(deck == action)[0][0])
            deck[ptr], deck[j] = deck[j], deck[ptr]
            a, self._draw = self._draw, None
            seat = int(self.st[K.CUR])
            K.apply_action(self.st, self.opts, a, self._trace)
            for q in range(self.n):
                self._seen[q].append(f"seat {seat} draws {fmt_card(action) if q == seat else 'a card'}")
        else:
            if self.is_terminal():
                raise ValueError("the deal is over")
            legal = {action_id(a): a for a in self._kernel_legal()}
            if action not in legal:
                raise ValueError(f"action {action} ({action_text(action)}) is not legal here")
            a = legal[action]
            seat = int(self.st[K.CUR])
            if K.action_kind(a) == K.A_DRAW_STOCK:
                self._draw = a                     # the card comes from a chance node
            else:
                text = action_text(action)
                if K.action_kind(a) == K.A_DRAW_DISCARD:
                    text = f"take the discard {fmt_card(int(K.pile_top(self.st)))}"
                K.apply_action(self.st, self.opts, a, self._trace)
                for q in range(self.n):
                    self._seen[q].append(f"seat {seat}: {text}")
        self.history.append(action)

    def _deal_card(self, card: int) -> None:
        i = len(self._deck)
        self._deck.append(card)
        n, dealer = self.n, int(self.st[K.DEALER])
        if i < 5 * n:
            to = (dealer + 1 + i) % n
            for q in range(self.n):
                self._seen[q].append(f"seat {to} is dealt {fmt_card(card) if q == to else 'a card'}")
        else:
            for q in range(self.n):
                self._seen[q].append(f"upcard {fmt_card(card)}")
        if self._deck_pending():
            return
        dealt = set(self._deck)
        rest = [c for c in range(52) if c not in dealt]
        self.st[K.DECK:K.DECK + 52] = self._deck + rest      # the stock's order: chance decides each draw
        K.deal_from_deck(self.st, self.opts, self._trace)
        if K.after_deal(self.st, self.opts, int(self.st[K.REDEALS]), self._trace):
            self.st[K.REDEALS] += 1
            if self.st[K.REDEALS] > K.MAX_REDEALS:
                self.st[K.TRUNC] = 1
                K.finish(self.st, np.int64(K.R_VOID), self._trace)
            else:
                self._deck = []                     # the same dealer deals again
                for q in range(self.n):
                    self._seen[q].append("void: two or more deal-tonks, the same dealer deals again")

    def resample(self, seat: int, rng) -> TonkState:
        """A state ``seat`` cannot tell from this one: the other hands dealt again from the cards
        it has not seen (each keeps the cards it is known to have taken from the pile), the stock
        in a new order. ``rng``: a ``numpy.random.Generator``. (ISMCTS's determinization.) The other
        seats' information states in the new world start from what they see there now (their
        earlier private history belongs to the hands they no longer hold)."""
        c = self.clone()
        if self._deck_pending() or self.is_terminal():
            return c
        st, n = c.st, self.n
        ptr = int(st[K.STOCK_PTR])
        keep = {q: int(st[K.HAND + q]) & int(st[K.KNOWN + q]) for q in range(n) if q != seat}
        pool = [int(x) for x in st[K.DECK + ptr:K.DECK + 52]]
        for q in keep:
            pool += [x for x in range(52) if (int(st[K.HAND + q]) & ~keep[q]) >> x & 1]
        pool = [int(x) for x in rng.permutation(pool)]
        for q in keep:
            m = keep[q]
            for _ in range(bin(int(st[K.HAND + q])).count("1") - bin(keep[q]).count("1")):
                m |= 1 << pool.pop()
            st[K.HAND + q] = m
        st[K.DECK + ptr:K.DECK + 52] = pool
        self._resampled(c, seat)     # the others' histories in that world: what they hold there, from now on
        return c

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.n
        return [float(self.st[K.PAY + p]) for p in range(self.n)]

    # ---- what a seat sees --------------------------------------------------------------------
    def observation(self, seat: int) -> dict:
        st, n = self.st, self.n
        pile = [int(c) for c in st[K.PILE:K.PILE + int(st[K.PILE_LEN])]] if not self._deck_pending() else []
        return {"seat": seat, "to_act": self.current_player(),
                "hand": int(st[K.HAND + seat]) if not self._deck_pending() else
                sum(1 << c for i, c in enumerate(self._deck) if i < 5 * n and (int(st[K.DEALER]) + 1 + i) % n == seat),
                "pile": pile,
                "books": [int(st[K.BOOK + q]) for q in range(n)], "runs": [int(st[K.RUN + q]) for q in range(n)],
                "taken": [int(st[K.KNOWN + q] & st[K.HAND + q]) for q in range(n)],
                "hand_sizes": [bin(int(st[K.HAND + q])).count("1") for q in range(n)] if not self._deck_pending()
                else [0] * n,
                "stock": 52 - int(st[K.STOCK_PTR]) if not self._deck_pending() else 52 - len(self._deck)}

    # ---- the batch's play, step by step (tests/test_conformance.py: a bridged deal is the batch record) ----
    def batch_record(self, k: int) -> int:
        """The batch record that bridged deal ``k`` replays: the bridge's dealer is
        ``first_dealer``, while the batch's deal ``d`` is dealt by ``(first + d) % n``, so every
        n-th record."""
        return k * self.n

    def batch_outcome(self, seed: int, deal: int) -> int:
        """At a chance node: the card the batch deals or draws here in deal ``deal`` of run ``seed``."""
        key = (seed, deal)
        if getattr(self, "_batch_key", None) != key:
            self._batch_key, self._batch_deck = key, batch_deck(seed, deal, self.game.opts)
        deck = self._batch_deck
        return deck[len(self._deck)] if self._deck_pending() else deck[int(self.st[K.STOCK_PTR])]

    def strategy_action(self, sid: int, prm, gplay) -> int:
        """The action cardsim's built-in strategy ``sid`` (parameter row ``prm``) takes here, drawing
        from the play stream ``gplay`` as the batch kernel does."""
        acts = np.zeros(K.MAX_ACTS, np.int64)
        n = K.legal_actions(self.st, self.game.opts, acts)
        return action_id(int(acts[K.choose(self.st, self.game.opts, acts, n, np.int64(sid), prm, gplay)]))

    def _table_choice(self, table, plug, gplay):
        """The batch's ``seat_choice`` (plug-in, search or built-in) of the seat to act."""
        from cardsim.kernels.jit import plugin_params, search_callback
        from cardsim.kernels.tonk.layout import N_PLUG_PARAMS, PLUGIN, S_SEARCH, VIEW_SIZE
        from cardsim.kernels.tonk.play import seat_choice
        from cardsim.kernels.tonk.search import no_search, search_cfunc
        acts = np.zeros(K.MAX_ACTS, np.int64)
        n = K.legal_actions(self.st, self.opts, acts)
        i = int(seat_choice(self.st.copy(), self.opts, acts, np.int64(n), table.sids, table.params, gplay, plug,
                            plugin_params(table.pprm, self.n, N_PLUG_PARAMS), np.zeros(VIEW_SIZE, np.int64),
                            np.zeros(K.MAX_ACTS, np.int64),
                            search_callback(table.sids, S_SEARCH, PLUGIN, search_cfunc, no_search)))
        return None if i < 0 else action_id(int(acts[i]))

    def action_values(self, worlds: int = 32, policy: str | None = "strong", seed: int = 0):
        if self.is_chance() or self.is_terminal() or self._draw is not None:
            return None
        codes = self._kernel_legal()
        st = self.st.copy()

        def run(acts, n, prm, key, row, out):
            K.critique_eval(st, self.opts, acts, n, 0, prm, key, row, out)
        return self._values(codes, [action_id(a) for a in codes], run, worlds, policy, seed)

    def plugin_view(self, seat: int) -> np.ndarray | None:
        if self.is_chance() or self.is_terminal() or seat != self.current_player():
            return None
        view = np.zeros(K.VIEW_SIZE, np.int64)
        K.fill_view(self.st, view)
        return view

    def observation_string(self, seat: int) -> str:
        o = self.observation(seat)
        spreads = " | ".join(f"seat {q}: {fmt_mask(o['books'][q] | o['runs'][q]) or '-'}" for q in range(self.n))
        return (f"seat {seat} · to act {o['to_act']} · hand {fmt_mask(o['hand']) or '-'} · pile "
                f"{' '.join(fmt_card(c) for c in o['pile']) or '-'} · spreads {spreads} · taken "
                f"{' | '.join(fmt_mask(m) or '-' for m in o['taken'])} · cards {o['hand_sizes']} · stock {o['stock']}")

    def observation_tensor(self, seat: int) -> np.ndarray:
        o = self.observation(seat)
        t = np.zeros(OBS_SIZE, np.float32)
        bits = np.arange(52)

        def put(at, mask):
            t[at:at + 52] = (mask >> bits) & 1
            return at + 52
        at = put(0, o["hand"])
        at = put(at, sum(1 << c for c in o["pile"]))
        at = put(at, 1 << o["pile"][-1] if o["pile"] else 0)
        for q in range(K.MAX_PLAYERS):
            at = put(at, o["books"][q] if q < self.n else 0)
            at = put(at, o["runs"][q] if q < self.n else 0)
        for q in range(K.MAX_PLAYERS):
            at = put(at, o["taken"][q] if q < self.n else 0)
        for q in range(self.n):
            t[at + q] = o["hand_sizes"][q] / 10.0
        at += K.MAX_PLAYERS
        t[at] = o["stock"] / 52.0
        at += 1
        if o["to_act"] >= 0:
            t[at + o["to_act"]] = 1.0
        at += K.MAX_PLAYERS
        t[at + seat] = 1.0
        return t

    def action_string(self, action: int) -> str:
        return f"card {fmt_card(action)}" if self.is_chance() else action_text(action)

    def __str__(self) -> str:
        return "\n".join(f"seat {q}: {fmt_mask(int(self.st[K.HAND + q]))}" for q in range(self.n)) + \
            f"\npile {fmt_mask(int(self.st[K.PILE_MASK]))} · stock {52 - int(self.st[K.STOCK_PTR])}"
