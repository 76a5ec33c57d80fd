"""Trionfo in the step API (``sim.step``; issue 20): one session, decision by decision, on the
kernels' state and helpers (``kernels.trionfo``: ``reset_deal``, ``speak``, ``auction_over``,
``hand_strength``, ``is_solo``, ``owner_of``, ``put_card``, ``finish_trick``, ``settle``,
``determinize``; ``kernels.tricks.legal_cards``), in the order the batch kernel plays them
(``play_session``).

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

Action ids (``num_distinct_actions`` = 94): 0..39 play that card (40-card ids, suit x 10 +
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
from cardsim.kernels.tricks import FULL40, SUIT_NAMES40, best_trump, legal_cards
from cardsim.sim.games.trionfo import BID_NAMES
from cardsim.sim.notation import fmt40_card, fmt40_mask, mask_cards
from cardsim.sim.step import CHANCE, TERMINAL, StepGame, StepState

A_CALL = 40          # A_CALL + card: call that card
A_TRUMP = 80         # A_TRUMP + suit: name that suit trump
A_PASS = 84          # pass in the auction
A_BID = 84           # A_BID + level (1..4): bid that level
A_NAME = 89          # A_NAME + seat: name that seat partner
N_ACTIONS = 94
N = K.N_PLAYERS


NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)   # the kernels log nothing into an empty trace


def action_text(i: int) -> str:
    if i < 40:
        return f"play {fmt40_card(i)}"
    if i < A_TRUMP:
        return f"call {fmt40_card(i - A_CALL)}"
    if i < A_PASS:
        return f"name {SUIT_NAMES40[i - A_TRUMP]} trump"
    if i < A_NAME:
        return BID_NAMES[i - A_BID] if i == A_PASS else f"bid {BID_NAMES[i - A_BID]}"
    return f"name seat {i - A_NAME} partner"


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
    return StepGame("trionfo", n, options, opts, N_ACTIONS, 40, max_game_length=hands * per_hand,
                    min_utility=-float(most), max_utility=float(most), observation_size=OBS_SIZE,
                    state_cls=TrionfoState)


# observation tensor: own hand, cards played this hand, the current trick's card of each seat, the
# called card, the thirds each seat won this hand / 35, each seat's highest bid (one-hot of 5:
# none, levels 1..4), passed, the contract's level (one-hot of 5: none, 1..4), trump, dealer,
# first speaker, declarer, the partner as this seat knows it, leader, the seat to act and this
# seat (one-hot each), the decision kind (bid, trump, call, name, card), session money / 100
OBS_SIZE = 40 + 40 + N * 40 + 40 + N + N * 5 + N + 5 + 4 + 7 * N + 5 + N
_KINDS = {"bid": 0, "trump": 1, "call": 2, "name": 3, "card": 4}


class TrionfoState(StepState):
    """One Trionfo session in the step API (see the module docstring)."""

    def __init__(self, game: StepGame):
        self.game = game
        self.n = N
        self.opts = o = game.opts
        self.st = st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = N
        st[K.DEALER] = max(0, int(o[K.O_FIRST_DEALER]))
        st[K.FIRST_DEALER] = st[K.DEALER]
        self.phase = "deal"        # deal (chance), bid, trump, call, name, card (decisions), over;
                                   # auction, contract, trick_end, hand_end (passed through by _advance)
        self.speaker = 0           # the seat to speak next in the auction
        self.spoken = 0            # calls made in this auction
        self._deck: list[int] = []
        self._seen = [[] for _ in range(N)]
        self.history: list[int] = []
        self._new_hand()

    # ---- the flow of play_session, one step at a time -----------------------------------------
    def _new_hand(self) -> None:
        st = self.st
        st[K.REDEALS] = 0
        self._tell(f"hand {int(st[K.HAND_IDX]) + 1}, dealer seat {int(st[K.DEALER])}")
        self._new_deal()

    def _new_deal(self) -> None:
        K.reset_deal(self.st)
        self._deck = []
        self.phase = "deal"

    def _deal_to(self, i: int) -> int:
        return (int(self.st[K.DEALER]) + 1 + (i % 20) // 4) % N

    def _deal_card(self, card: int) -> None:
        st = self.st
        to = self._deal_to(len(self._deck))
        self._deck.append(card)
        st[K.HAND + to] |= 1 << card
        self._tell(f"seat {to} is dealt a card", to, f"seat {to} is dealt {fmt40_card(card)}")
        if len(self._deck) < 40:
            return
        st[K.DECK:K.DECK + 40] = self._deck
        st[K.FIRST_SPEAKER] = K.owner_of(st, K.FIVE_COINS) if st[K.HAND_IDX] == 0 else (st[K.DEALER] + 1) % N
        self._tell(f"seat {int(st[K.FIRST_SPEAKER])} speaks first")
        self.speaker = int(st[K.FIRST_SPEAKER])
        self.spoken = 0
        self.phase = "auction"

    def _to_play(self) -> int:
        return int(self.st[K.LEADER] + self.st[K.NCARDS]) % N

    def _advance(self) -> None:
        """Run what no one decides (the auction's turn order and end, a redeal, the leader, the
        end of a trick, the settlement, the next hand) up to the next decision or chance node."""
        st, o = self.st, self.opts
        while True:
            ph = self.phase
            if ph in ("deal", "bid", "trump", "call", "name", "card", "over"):
                return
            if ph == "auction":
                if K.auction_over(st, o, self.spoken):
                    self.phase = "contract"
                elif st[K.PASSED] >> self.speaker & 1:
                    self.speaker = (self.speaker + 1) % N
                else:
                    self.phase = "bid"
            elif ph == "contract":
                if st[K.HIGH_BIDDER] >= 0:
                    d = int(st[K.HIGH_BIDDER])
                    st[K.DECLARER] = d
                    st[K.STRENGTH] = K.hand_strength(st[K.HAND + d])
                    self._tell(f"seat {d} declares {BID_NAMES[int(st[K.HIGH_LEVEL])]}")
                    self.phase = "trump"
                elif st[K.REDEALS] < K.MAX_REDEALS:
                    st[K.REDEALS] += 1
                    st[K.ALL_REDEALS] += 1
                    if o[K.O_REDEAL_DEALER] == 1:
                        st[K.DEALER] = (st[K.DEALER] + 1) % N
                    self._tell(f"all pass: redeal {int(st[K.REDEALS])}, dealer seat {int(st[K.DEALER])}")
                    self._new_deal()
                else:
                    st[K.VOID_HAND] = 1
                    st[K.TRUNC] = 1
                    self._tell("all pass: the hand is void (redeal cap)")
                    self.phase = "hand_end"
            elif ph == "trick_end":
                if st[K.TRICK_NO] == K.TRICKS:
                    K.settle(st, o, NO_TRACE)
                    self._tell(f"declarer side {int(st[K.SIDE_PTS])} points, {'won' if st[K.WON] else 'lost'}; "
                               "money " + " ".join(f"{int(st[K.HMONEY + q]):+d}" for q in range(N)))
                    self.phase = "hand_end"
                else:
                    self.phase = "card"
            elif ph == "hand_end":
                st[K.DEALER] = (st[K.DEALER] + 1) % N
                st[K.HAND_IDX] += 1
                if st[K.HAND_IDX] >= o[K.O_HANDS]:
                    self.phase = "over"
                else:
                    self._new_hand()
            else:
                raise AssertionError(ph)

    def _lead(self) -> None:
        """Trump and partner are set: the leader of trick 1, then the cards."""
        st, d = self.st, int(self.st[K.DECLARER])
        fl = self.opts[K.O_FIRST_LEADER]
        st[K.LEADER] = st[K.FIRST_BIDDER] if fl == 0 else (st[K.FIRST_SPEAKER] if fl == 1 else d)
        self._tell(f"seat {int(st[K.LEADER])} leads")
        self.phase = "card"

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
        st = self.st
        hand = int(st[K.HAND + int(st[K.DECLARER])])
        return FULL40 if self.opts[K.O_SELF_CALL] else FULL40 & ~hand

    def legal_actions(self) -> list[int]:
        ph, st = self.phase, self.st
        if ph == "deal":
            return [c for c, _ in self.chance_outcomes()]
        if ph == "bid":
            return [A_PASS] + [A_BID + v for v in range(int(st[K.HIGH_LEVEL]) + 1, K.LEVELS + 1)]
        if ph == "trump":
            return [A_TRUMP + s for s in range(4)]
        if ph == "call":
            m = self._callable()
            return [A_CALL + c for c in mask_cards(m)]
        if ph == "name":
            d = int(st[K.DECLARER])
            return sorted(A_NAME + q for q in range(N) if q != d)
        if ph == "card":
            m = int(legal_cards(st[K.HAND + self._to_play()], st[K.LED]))
            return mask_cards(m)
        return []

    def apply(self, action: int) -> None:
        action = self._checked(action)
        st, ph = self.st, self.phase
        if ph == "deal":
            self._deal_card(action)
        elif ph == "bid":
            p, level = self.speaker, action - A_BID
            K.speak(st, p, level, NO_TRACE)
            self._tell(f"seat {p} {'passes' if level == 0 else 'bids ' + BID_NAMES[level]}")
            self.spoken += 1
            self.speaker = (p + 1) % N
            self.phase = "auction"
        elif ph == "trump":
            st[K.TRUMP] = action - A_TRUMP
            self._tell(f"seat {int(st[K.DECLARER])} names {SUIT_NAMES40[action - A_TRUMP]} trump")
            if K.is_solo(st, self.opts):
                self._tell("a solo")
                self._lead()
            else:
                self.phase = "name" if self.opts[K.O_PARTNER_METHOD] == 1 else "call"
        elif ph == "call":
            d, c = int(st[K.DECLARER]), action - A_CALL
            st[K.CALLED] = c
            st[K.PARTNER] = K.owner_of(st, c)
            self._tell(f"seat {d} calls {fmt40_card(c)}")
            q = int(st[K.PARTNER])
            if q != d:
                self._seen[q][-1] += f" (seat {q} holds it: the partner)"
            else:
                self._seen[d][-1] += " (his own card: a secret solo)"
            self._lead()
        elif ph == "name":
            q = action - A_NAME
            st[K.PARTNER] = q
            st[K.REVEALED] = 1
            self._tell(f"seat {int(st[K.DECLARER])} names seat {q} partner")
            self._lead()
        else:                                          # a card
            p = self._to_play()
            K.put_card(st, p, action, NO_TRACE)
            note = " (the called card: seat %d is the partner)" % p if action == st[K.CALLED] else ""
            self._tell(f"seat {p} plays {fmt40_card(action)}{note}")
            if st[K.NCARDS] == N:
                K.finish_trick(st, NO_TRACE)
                self._tell(f"seat {int(st[K.LAST_WINNER])} wins the trick")
                self.phase = "trick_end"
        self.history.append(action)
        self._advance()

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
            return A_BID + int(K.choose_bid(st, p, st[K.HIGH_LEVEL], sid, prm, gplay))
        if self.phase == "trump":
            return A_TRUMP + int(K.below(gplay, 4) if sid == K.S_RANDOM else best_trump(st[K.HAND + p]))
        if self.phase == "call":
            return A_CALL + int(K.choose_called(st, p, st[K.TRUMP], sid, prm, gplay, o[K.O_SELF_CALL] != 0))
        if self.phase == "name":
            return A_NAME + int(K.choose_named(st, p, sid, gplay))
        return int(K.choose_card(st, o, p, legal_cards(st[K.HAND + p], st[K.LED]), sid, prm, gplay))

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
