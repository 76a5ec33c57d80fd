"""Trionfo in the step API (``sim.step``; issue 20): one session, decision by decision, on the
kernels' state, driven by the same rule steps the batch kernel plays it with (``play_session``;
``kernels.trionfo.rules``): ``start_session``, ``start_hand``, ``reset_deal``, ``deal_card``,
``open_auction``, ``next_speaker``, ``speak``, ``close_auction``, ``declare``, ``set_trump``, ``set_called`` /
``set_named``, ``open_play``, ``put_card``, ``after_card`` (the trick closed, the hand settled) and
``next_hand``; ``determinize`` for a resample and ``kernels.tricks.legal_cards``. The adapter keeps
only the seat to speak and the calls made in the auction, and the phase its last step returned.

Chance: each deal is dealt card by card in the kernel's order (two rounds of packets of four from
the dealer's right: deck position i goes to seat ``dealer + 1 + (i mod 20) // 4``), each card
uniform among those not dealt yet. The first dealer is ``first_dealer`` (seat 0 when it is
``random``: the bridge has no run seed). A deal that everyone passes is thrown in and dealt
again (the dealer moves on under ``trionfo_redeal_dealer=next``); after ``MAX_REDEALS`` redeals
the hand is void and the session ``truncated``, as in the batch.

Decisions, in the rules' order: the auction from the first speaker (pass or a level above the
highest bid; a seat that passed is out of an open auction); the declarer names trump; then,
for a contract with a partner, the declarer calls a card (``call_card``: any card not in his
hand, every card under ``trionfo_allow_self_call``) or names a seat (``name_player``); then the
eight tricks.

Action ids (``num_distinct_actions`` = 94; the kernels' codec, ``kernels.trionfo.actions``:
``dense_id``, ``dense_kind``, ``dense_value``): 0..39 play that card (40-card ids, suit x 10 +
strength, ``kernels.tricks``), 40..79 call card ``id - 40``, 80..83 name that suit trump, 84
pass, 85..88 bid level 1..4 (chiamo, di più, maso, maso dei masi), 89..93 name seat ``id - 89``
as partner. Chance outcomes are card ids 0..39. Returns are each seat's session money.

What a seat sees: its own cards, every bid, the contract (declarer, level, trump, the called card
or the named partner), every card played and every trick's winner and thirds, and the money.
The partner behind a called card is known to its holder (and to a declarer who called himself)
and public once the card is played; until then no string or tensor of another seat shows it.
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import trionfo as K
from cardsim.kernels.rng import seed_stream, shuffle
from cardsim.kernels.tricks import SUIT_NAMES40, legal_cards
from cardsim.sim.games.trionfo.options import BID_NAMES
from cardsim.sim.notation import fmt40_card, fmt40_mask, mask_cards
from cardsim.sim.step import CHANCE, TERMINAL, StepGame, StepState

N = K.N_PLAYERS


NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)   # the kernels log nothing into an empty trace


def action_text(i: int) -> str:
    kind, v = int(K.dense_kind(i)), int(K.dense_value(i))
    if kind == K.K_CARD:
        return f"play {fmt40_card(v)}"
    if kind == K.K_CALL:
        return f"call {fmt40_card(v)}"
    if kind == K.K_TRUMP:
        return f"name {SUIT_NAMES40[v]} trump"
    if kind == K.K_BID:
        return BID_NAMES[v] if v == 0 else f"bid {BID_NAMES[v]}"
    return f"name seat {v} partner"


def _ids(kind: int, values) -> list[int]:
    """The step API's ids of the values ``values`` of decision ``kind`` (``kernels.trionfo.dense_id``)."""
    return [int(K.dense_id(kind, v)) for v in values]


def batch_deck(seed: int, session: int, hand: int, redeal: int = 0) -> list[int]:
    """The deck order the batch deals hand ``hand`` (0-based) of session ``session`` of run
    ``seed`` from, its deal number ``redeal`` (0: the first; a thrown-in deal is reshuffled from
    the same stream): the chance outcomes that replay that deal."""
    st = np.zeros(K.ST_SIZE, np.int64)
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, session, np.int64(K.STREAM_HAND + hand))
    for _ in range(redeal + 1):
        st[K.DECK:K.DECK + 40] = np.arange(40)
        shuffle(g, st, K.DECK, K.DECK + 40)
    return [int(c) for c in st[K.DECK:K.DECK + 40]]


def make_game(n: int, options) -> StepGame:
    opts = options.to_array(n)
    hands = int(opts[K.O_HANDS])
    per_deal = 40 + 4 * N                                    # a deal, its auction (a level each raise)
    per_hand = (K.MAX_REDEALS + 1) * per_deal + 2 + 40       # the deals, trump and partner, the cards
    most = 4 * int(max(opts[K.O_STAKE:K.O_STAKE + 4])) * hands
    return StepGame("trionfo", n, options, opts, K.N_ACTIONS, 40, max_game_length=hands * per_hand,
                    min_utility=-float(most), max_utility=float(most), observation_size=OBS_SIZE,
                    state_cls=TrionfoState)


# observation tensor: own hand, cards played this hand, the current trick's card of each seat, the
# called card, the thirds each seat won this hand / 35, each seat's highest bid (one-hot of 5:
# none, levels 1..4), passed, the contract's level (one-hot of 5: none, 1..4), trump, dealer,
# first speaker, declarer, the partner as this seat knows it, leader, the seat to act and this
# seat (one-hot each), the decision kind (bid, trump, call, name, card), session money / 100
OBS_SIZE = 40 + 40 + N * 40 + 40 + N + N * 5 + N + 5 + 4 + 7 * N + 5 + N
_KINDS = {"bid": K.K_BID, "trump": K.K_TRUMP, "call": K.K_CALL, "name": K.K_NAME, "card": K.K_CARD}


class TrionfoState(StepState):
    """One Trionfo session in the step API (see the module docstring)."""

    def __init__(self, game: StepGame):
        self.game = game
        self.n = N
        self.opts = o = game.opts
        self.st = st = np.zeros(K.ST_SIZE, np.int64)
        K.start_session(st, max(0, int(o[K.O_FIRST_DEALER])))
        self.phase = "deal"        # deal (chance), bid, trump, call, name, card (decisions), over
        self.speaker = 0           # the seat to speak next in the auction
        self.spoken = 0            # calls made in this auction
        self._deck: list[int] = []
        self._seen = [[] for _ in range(N)]
        self.history: list[int] = []
        self._start_hand()

    # ---- the kernel's steps (``kernels.trionfo.rules``), in the order play_session takes them ------
    def _start_hand(self) -> None:
        """A hand (``start_hand``) and its first deal."""
        st = self.st
        K.start_hand(st)
        self._tell(f"hand {int(st[K.HAND_IDX]) + 1}, dealer seat {int(st[K.DEALER])}")
        self._deal()

    def _deal(self) -> None:
        """A deal (``reset_deal``): forty chance nodes, a card each (``deal_card``)."""
        K.reset_deal(self.st)
        self._deck = []
        self.phase = "deal"

    def _deal_card(self, card: int) -> None:
        st = self.st
        i = len(self._deck)
        to = int(K.deal_to(st, i))
        K.deal_card(st, i, card)
        self._deck.append(card)
        self._tell(f"seat {to} is dealt a card", to, f"seat {to} is dealt {fmt40_card(card)}")
        if len(self._deck) < 40:
            return
        K.open_auction(st, NO_TRACE)
        self._tell(f"seat {int(st[K.FIRST_SPEAKER])} speaks first")
        self.spoken = 0
        self._auction_from(int(st[K.FIRST_SPEAKER]))

    def _auction_from(self, p: int) -> None:
        """The auction goes on from seat ``p`` (``next_speaker``), or it is over (``close_auction``:
        a contract, a deal thrown in, or the hand void)."""
        st, o = self.st, self.opts
        q = int(K.next_speaker(st, o, p, self.spoken))
        if q >= 0:
            self.speaker = q
            self.phase = "bid"
            return
        if q == -2:
            raise AssertionError("the auction ran past its guard (MAX_SPEECHES)")
        outcome = int(K.close_auction(st, o, NO_TRACE))
        if outcome == 1:
            d = int(K.declare(st))
            self._tell(f"seat {d} declares {BID_NAMES[int(st[K.HIGH_LEVEL])]}")
            self.phase = "trump"
        elif outcome == 0:
            self._tell(f"all pass: redeal {int(st[K.REDEALS])}, dealer seat {int(st[K.DEALER])}")
            self._deal()
        else:
            self._tell("all pass: the hand is void (redeal cap)")
            self._end_hand()

    def _open_play(self) -> None:
        """Trump and partner are set: the leader of trick 1 (``open_play``), then the cards."""
        K.open_play(self.st, self.opts, NO_TRACE)
        self._tell(f"seat {int(self.st[K.LEADER])} leads")
        self.phase = "card"

    def _end_hand(self) -> None:
        """The hand is over (``next_hand``): the next one, or the session's end."""
        if K.next_hand(self.st, self.opts):
            self.phase = "over"
        else:
            self._start_hand()

    def _to_play(self) -> int:
        return int(self.st[K.LEADER] + self.st[K.NCARDS]) % N

    # ---- what OpenSpiel calls a state -----------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == "deal":
            return CHANCE
        if ph == "over":
            return TERMINAL
        if ph == "bid":
            return self.speaker
        if ph in ("trump", "call", "name"):
            return int(self.st[K.DECLARER])
        return self._to_play()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._uniform(40, sum(1 << c for c in self._deck))

    def _callable(self) -> int:
        return int(K.callable_cards(self.st, self.opts, self.st[K.DECLARER]))

    def legal_actions(self) -> list[int]:
        ph, st = self.phase, self.st
        if ph == "deal":
            return [c for c, _ in self.chance_outcomes()]
        if ph == "bid":
            return _ids(K.K_BID, [0] + list(range(int(st[K.HIGH_LEVEL]) + 1, K.LEVELS + 1)))
        if ph == "trump":
            return _ids(K.K_TRUMP, range(4))
        if ph == "call":
            m = self._callable()
            return _ids(K.K_CALL, mask_cards(m))
        if ph == "name":
            d = int(st[K.DECLARER])
            return sorted(_ids(K.K_NAME, [q for q in range(N) if q != d]))
        if ph == "card":
            m = int(legal_cards(st[K.HAND + self._to_play()], st[K.LED]))
            return _ids(K.K_CARD, mask_cards(m))
        return []

    def apply(self, action: int) -> None:
        action = self._checked(action)
        st, ph = self.st, self.phase
        v = action if ph == "deal" else int(K.dense_value(action))   # a chance outcome is a card id
        if ph == "deal":
            self._deal_card(action)
        elif ph == "bid":
            p, level = self.speaker, v
            K.speak(st, p, level, NO_TRACE)
            self._tell(f"seat {p} {'passes' if level == 0 else 'bids ' + BID_NAMES[level]}")
            self.spoken += 1
            self._auction_from(int(K.nxt(p)))
        elif ph == "trump":
            partner = int(K.set_trump(st, self.opts, v))
            self._tell(f"seat {int(st[K.DECLARER])} names {SUIT_NAMES40[v]} trump")
            if partner < 0:
                self._tell("a solo")
                self._open_play()
            else:
                self.phase = "name" if partner == K.K_NAME else "call"
        elif ph == "call":
            d, c = int(st[K.DECLARER]), v
            K.set_called(st, c)
            self._tell(f"seat {d} calls {fmt40_card(c)}")
            q = int(st[K.PARTNER])
            if q != d:
                self._seen[q][-1] += f" (seat {q} holds it: the partner)"
            else:
                self._seen[d][-1] += " (his own card: a secret solo)"
            self._open_play()
        elif ph == "name":
            K.set_named(st, v)
            self._tell(f"seat {int(st[K.DECLARER])} names seat {v} partner")
            self._open_play()
        else:                                          # a card
            p = self._to_play()
            K.put_card(st, p, v, NO_TRACE)
            note = " (the called card: seat %d is the partner)" % p if v == st[K.CALLED] else ""
            self._tell(f"seat {p} plays {fmt40_card(v)}{note}")
            closed = int(K.after_card(st, self.opts, NO_TRACE))    # 1 a trick closed, 2 the hand settled too
            if closed:
                self._tell(f"seat {int(st[K.LAST_WINNER])} wins the trick")
            if closed == 2:
                self._tell(f"declarer side {int(st[K.SIDE_PTS])} points, {'won' if st[K.WON] else 'lost'}; "
                           "money " + " ".join(f"{int(st[K.HMONEY + q]):+d}" for q in range(N)))
                self._end_hand()
        self.history.append(action)

    def batch_outcome(self, seed: int, session: int) -> int:
        """At a chance node: the card the batch deals here in session ``session`` of run ``seed``."""
        st = self.st
        return batch_deck(seed, session, int(st[K.HAND_IDX]), int(st[K.REDEALS]))[len(self._deck)]

    def strategy_action(self, sid: int, prm, gplay) -> int:
        """The action cardsim's built-in strategy ``sid`` (its parameter row ``prm``) takes here,
        drawing from the play stream ``gplay`` as the batch kernel does: a session fed the
        batch's decks (``batch_deck``) and play stream replays the batch record."""
        st, o, p = self.st, self.opts, self.current_player()
        if self.phase == "bid":
            kind, v = K.K_BID, K.choose_bid(st, p, st[K.HIGH_LEVEL], sid, prm, gplay)
        elif self.phase == "trump":
            kind, v = K.K_TRUMP, K.choose_trump(st, p, sid, gplay)
        elif self.phase == "call":
            kind, v = K.K_CALL, K.choose_called(st, p, st[K.TRUMP], sid, prm, gplay, o[K.O_SELF_CALL] != 0)
        elif self.phase == "name":
            kind, v = K.K_NAME, K.choose_named(st, p, sid, gplay)
        else:
            kind, v = K.K_CARD, K.choose_card(st, o, p, legal_cards(st[K.HAND + p], st[K.LED]), sid, prm, gplay)
        return int(K.dense_id(kind, int(v)))

    def _table_choice(self, table, plug, gplay):
        """The batch's choice of the seat to act, as a table with a plug-in or search seat plays
        it (``bid_choice``, ``trump_choice``, ``call_choice``, ``name_choice``, ``card_choice``: its
        plug-in's where its kinds ask, else its search's or its built-in's)."""
        from cardsim.kernels.jit import search_callback, with_plugin_params
        from cardsim.kernels.trionfo.layout import N_PLUG_PARAMS, PLUGIN, S_SEARCH
        from cardsim.kernels.trionfo.play import bid_choice, call_choice, card_choice, name_choice, trump_choice
        from cardsim.kernels.trionfo.search import no_search, search_cfunc
        st, o, p, sids = self.st.copy(), self.opts, np.int64(self.current_player()), table.sids
        params = with_plugin_params(table.params, table.pprm, N_PLUG_PARAMS)
        srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
        if self.phase == "bid":
            kind, v = K.K_BID, bid_choice(st, o, p, sids, params, gplay, plug)
        elif self.phase == "trump":
            kind, v = K.K_TRUMP, trump_choice(st, o, p, sids, params, gplay, plug, srch)
        elif self.phase == "call":
            kind, v = K.K_CALL, call_choice(st, o, p, sids, params, gplay, plug)
        elif self.phase == "name":
            kind, v = K.K_NAME, name_choice(st, o, p, sids, params, gplay, plug)
        else:
            legal = np.int64(legal_cards(st[K.HAND + p], st[K.LED]))
            kind, v = K.K_CARD, card_choice(st, o, p, legal, sids[p], gplay, plug, params, True, srch)
        return None if v < 0 else int(K.dense_id(kind, int(v)))

    def action_values(self, worlds: int = 32, policy: str | None = "strong", seed: int = 0):
        """The critique's evaluation (``critique_eval``, seat to act) of every legal action; a call's
        ctx is the calls made before it in the auction (as the critique's)."""
        if self.phase not in _KINDS:
            return None
        kind = _KINDS[self.phase]
        ctx = self.spoken if self.phase == "bid" else 0
        ids = self.legal_actions()
        codes = [int(K.act_code(kind, int(K.dense_value(i)))) for i in ids]
        st, p = self.st.copy(), self.current_player()

        def run(acts, n, prm, key, row, out):
            K.critique_eval(st, self.opts, p, kind, ctx, acts, n, 0, prm, key, row, out)
        return self._values(codes, ids, run, worlds, policy, seed)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * N
        return [float(self.st[K.MONEY + p]) for p in range(N)]

    def resample(self, seat: int, rng) -> TrionfoState:
        """A state ``seat`` cannot tell from this one: the four other hands dealt again from the
        cards it has not seen, consistently with everything public (``kernels.trionfo.determinize``:
        hand sizes, shown voids, the 5 of coins with the first speaker of a session's first hand,
        an unplayed called card with one of the others, that seat the world's partner).
        ``rng``: a ``numpy.random.Generator``. (ISMCTS's determinization; during a deal, the state
        itself.)"""
        return self._resample_with(seat, rng, lambda st, g: K.determinize(st, self.opts, seat, g,
                                                                           np.zeros(64, np.int64)))

    # ---- what a seat sees --------------------------------------------------------------------
    def plugin_view(self, seat: int) -> np.ndarray | None:
        """What a plug-in at ``seat`` is given at its decision: the kernel's own view
        (``fill_view``, the V_* layout of ``cardsim.trionfo``), None when ``seat`` does not act."""
        if self.phase not in _KINDS or seat != self.current_player():
            return None
        view = np.zeros(K.VIEW_SIZE, np.int64)
        K.fill_view(self.st, self.opts, seat, _KINDS[self.phase], view)
        return view

    def _hand_of(self, seat: int) -> int:
        return int(self.st[K.HAND + seat])

    def _partner_seen(self, seat: int) -> int:
        """The partner as ``seat`` knows it: a seat, -1 none (a solo, or no contract yet), -2
        unknown (a called card not played, held by another)."""
        st = self.st
        if st[K.DECLARER] < 0 or self.phase in ("trump", "call", "name") or K.is_solo(st, self.opts):
            return -1
        q = int(st[K.PARTNER])
        if st[K.REVEALED] or seat == q or (seat == st[K.DECLARER] and q == seat):
            return q
        return -2

    def observation_string(self, seat: int) -> str:
        st = self.st
        trump = int(st[K.TRUMP])
        trick = " ".join(fmt40_card(int(st[K.TRICK + i])) for i in range(int(st[K.NCARDS]))) or "-"
        bids = " ".join(f"{q}:{'x' if st[K.PASSED] >> q & 1 else int(st[K.BID + q])}" for q in range(N))
        partner = {-1: "-", -2: "?"}.get(self._partner_seen(seat), str(self._partner_seen(seat)))
        called = int(st[K.CALLED])
        return (f"seat {seat} · to act {self.current_player()} · {self.phase} · hand "
                f"{fmt40_mask(self._hand_of(seat))} · hand {min(int(st[K.HAND_IDX]) + 1, int(self.opts[K.O_HANDS]))} deal {int(st[K.REDEALS]) + 1} · "
                f"dealer {int(st[K.DEALER])} · first speaker {int(st[K.FIRST_SPEAKER])} · bids {bids} · "
                f"declarer {int(st[K.DECLARER])} level {int(st[K.HIGH_LEVEL])} · trump "
                f"{SUIT_NAMES40[trump] if trump >= 0 else '-'} · called {fmt40_card(called) if called >= 0 else '-'} · "
                f"partner {partner} · leader "
                f"{int(st[K.LEADER])} · trick {trick} · played {fmt40_mask(int(st[K.PLAYED]))} · thirds "
                + "-".join(str(int(st[K.THIRDS + q])) for q in range(N)) + " · money "
                + " ".join(str(int(st[K.MONEY + q])) for q in range(N)))

    def observation_tensor(self, seat: int) -> np.ndarray:
        st = self.st.tolist()                       # Python ints: much faster to read one by one
        t = np.zeros(OBS_SIZE, np.float32)
        lead, ncards = st[K.LEADER], st[K.NCARDS]
        masks = [st[K.HAND + seat], st[K.PLAYED]]
        for q in range(N):
            i = (q - lead) % N
            masks.append(1 << st[K.TRICK + i] if i < ncards else 0)
        masks.append(1 << st[K.CALLED] if st[K.CALLED] >= 0 else 0)
        bits = np.unpackbits(np.array(masks, "<u8").view(np.uint8), bitorder="little")
        at = 40 * len(masks)
        t[:at] = bits.reshape(len(masks), 64)[:, :40].ravel()
        ones = []
        t[at:at + N] = [st[K.THIRDS + q] / 35.0 for q in range(N)]
        at += N
        for q in range(N):
            ones.append(at + st[K.BID + q])
            at += 5
        t[at:at + N] = [st[K.PASSED] >> q & 1 for q in range(N)]
        at += N
        ones.append(at + st[K.HIGH_LEVEL])
        at += 5
        if st[K.TRUMP] >= 0:
            ones.append(at + st[K.TRUMP])
        at += 4
        for v in (st[K.DEALER], st[K.FIRST_SPEAKER] if self.phase != "deal" else -1, st[K.DECLARER],
                  self._partner_seen(seat), st[K.LEADER] if self.phase == "card" else -1,
                  self.current_player(), seat):
            if 0 <= v < N:
                ones.append(at + v)
            at += N
        if self.phase in _KINDS:
            ones.append(at + _KINDS[self.phase])
        at += 5
        t[at:at + N] = [st[K.MONEY + q] / 100.0 for q in range(N)]
        t[ones] = 1.0
        return t

    def action_string(self, action: int) -> str:
        return f"card {fmt40_card(action)}" if self.is_chance() else action_text(action)

    def __str__(self) -> str:
        return "\n".join(f"seat {q}: {fmt40_mask(self._hand_of(q))}" for q in range(N)) + \
            f"\n{self.observation_string(0)}"
