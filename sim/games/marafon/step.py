"""Marafon in the step API (``sim.step``; issue 20): one match, decision by decision, driven on
the kernels' state by the kernels' own steps (``kernels.marafon``: ``start_game``, ``start_hand``,
``deal_card``, ``dealt``, ``set_trump``, ``count_extra``, ``declarable``, ``declare``,
``window_opens``, ``card_window_due``, ``resolve_claim``, ``put_card``, ``finish_trick``,
``close_hand``, ``next_dealer``, ``match_over``; ``kernels.tricks.legal_cards``), in the order the batch kernel
plays them (``play_match``); the adapter keeps only the state machine between them.

Chance: each hand is dealt card by card in the kernel's order (two rounds of packets of five from
the dealer's right: deck position i goes to seat ``dealer + 1 + (i mod 20) // 5``), each card
uniform among those not dealt yet. The first dealer is ``first_dealer`` (seat 0 when it is
``random``: the bridge has no run seed).

Decisions, in the rules' order: the battitore names trump; in trick 1, at a seat's turn, an
optional marafona (only when ``marafona_auto_declare`` is false; an automatic one is declared
for the seat); every claim window asks the four seats in turn from the seat that opened it (a
window is opened after each trick, after a declaration, and with ``claim_timing=every_card``
before each card; none in an extra hand or with claims off); then the seat's card.

Action ids (``num_distinct_actions`` = 47): 0..39 play that card (40-card ids, suit x 10 +
strength, ``kernels.tricks``), 40..43 name that suit trump, 44 no (no marafona, no claim), 45
declare the marafona, 46 claim the game. Chance outcomes are card ids 0..39. Returns are the
match result of each seat's side: +1 won, -1 lost (0 for a capped game ending level).
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import marafon as K
from cardsim.kernels.jit import no_plugin
from cardsim.kernels.marafon.actions import A_CLAIM, A_DECLARE, A_NO, A_TRUMP, N_ACTIONS, dense_id, dense_value
from cardsim.kernels.rng import seed_stream, shuffle
from cardsim.kernels.tricks import SUIT_NAMES40, legal_cards
from cardsim.sim.notation import fmt40_card, fmt40_mask, mask_cards
from cardsim.sim.step import CHANCE, TERMINAL, StepGame, StepState


NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)   # the kernels log nothing into an empty trace


def action_text(i: int) -> str:
    v = int(dense_value(i))
    if i < A_TRUMP:
        return f"play {fmt40_card(v)}"
    if i < A_NO:
        return f"name {SUIT_NAMES40[v]} trump"
    return {A_NO: "no", A_DECLARE: "declare the marafona", A_CLAIM: "claim the game"}[i]


def batch_deck(seed: int, match: int, hand: int) -> list[int]:
    """The deck order the batch deals hand ``hand`` (1-based, counted over the match) of match
    ``match`` of run ``seed`` from: the chance outcomes that replay that hand."""
    st = np.zeros(K.ST_SIZE, np.int64)
    st[K.DECK:K.DECK + 40] = np.arange(40)
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, match, np.int64(K.STREAM_HAND + hand))
    shuffle(g, st, K.DECK, K.DECK + 40)
    return [int(c) for c in st[K.DECK:K.DECK + 40]]


def make_game(n: int, options) -> StepGame:
    opts = options.to_array(n)
    games, hands = int(opts[K.O_GAMES]), int(opts[K.O_MAX_HANDS])
    per_hand = 40 + 1 + 40 + 4 + 4 * (10 + 4 + 40)       # deal, trump, cards, declarations, windows
    return StepGame("marafon", n, options, opts, N_ACTIONS, 40,
                    max_game_length=games * hands * per_hand, min_utility=-1.0, max_utility=1.0,
                    observation_size=OBS_SIZE, state_cls=MarafonState)


# observation tensor: own hand, cards played this hand, the current trick's card of each seat, the
# cards in each side's tricks, the cricche each seat declared (suits), trump, battitore, dealer,
# leader, the seat to act and this seat (one-hot each), the decision kind (trump, marafona,
# claim, card), game scores / 41, thirds won this hand / 35, games won, extra hand
OBS_SIZE = 40 + 40 + 4 * 40 + 2 * 40 + 4 * 4 + 4 * 6 + 4 + 2 + 2 + 2 + 1
_KINDS = {"trump": K.K_TRUMP, "declare": K.K_DECLARE, "claim": K.K_CLAIM, "card": K.K_CARD}   # 0, 1, 2, 3


class MarafonState(StepState):
    """One Marafon match in the step API (see the module docstring)."""

    def __init__(self, game: StepGame):
        self.game = game
        self.n = 4
        self.opts = o = game.opts
        self.st = st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = 4
        st[K.DEALER] = max(0, int(o[K.O_FIRST_DEALER]))
        st[K.FIRST_DEALER] = st[K.DEALER]
        self.phase = "deal"        # deal (chance), trump, declare, claim, card (decisions), over;
                                   # seat, trick_end, hand_end, game_end (passed through by _advance)
        self.stage = 0             # the seat to play: 0 its marafona next, 1 its card-time window, 2 its card
        self.window = [0, 0]       # a claim window: the seat that opened it, seats asked so far
        self.resume = "seat"       # where play goes on after the window
        self._deck: list[int] = []
        self._seen = [[] for _ in range(4)]
        self.history: list[int] = []
        self._new_game()

    # ---- the flow of play_match, one step at a time (the kernels' steps: ``start_game``,
    # ``start_hand``, ``deal_card``, ``dealt``, ``window_opens``, ``declare``, ``card_window_due``,
    # ``put_card``, ``finish_trick``, ``close_hand``, ``next_dealer``, ``match_over``) ----------------
    def _new_game(self) -> None:
        st = self.st
        K.start_game(st, NO_TRACE)
        self._tell(f"game {int(st[K.GAME_NO]) + 1}")
        self._new_hand()

    def _new_hand(self) -> None:
        st = self.st
        if not K.start_hand(st, self.opts, NO_TRACE):
            self.phase = "game_end"
            return
        K.reset_hand(st)
        self._deck = []
        self.phase = "deal"
        self._tell(f"hand {int(st[K.HAND_NO])}, dealer seat {int(st[K.DEALER])}")

    def _deal_card(self, card: int) -> None:
        st = self.st
        i = len(self._deck)
        to = int(K.deal_to(st, i))
        self._deck.append(card)
        K.deal_card(st, i, card)
        self._tell(f"seat {to} is dealt a card", to, f"seat {to} is dealt {fmt40_card(card)}")
        if len(self._deck) < 40:
            return
        K.dealt(st, NO_TRACE)
        self._tell(f"seat {int(st[K.BATT])} is the battitore")
        self.phase = "trump"

    def _open_window(self, first: int, resume: str) -> None:
        if not K.window_opens(self.st, self.opts):
            self.phase = resume
            return
        self.window = [first, 0]
        self.resume = resume
        self.phase = "claim"

    def _declare(self, p: int, c: int) -> None:
        K.declare(self.st, p, c, NO_TRACE)
        self._tell(f"seat {p} declares the marafona of {' '.join(SUIT_NAMES40[s] for s in range(4) if c >> s & 1)}")
        self._open_window(p, "seat")

    def _to_play(self) -> int:
        return int(self.st[K.LEADER] + self.st[K.NCARDS]) & 3

    def _advance(self) -> None:
        """Run what no one decides (automatic declarations, the end of a trick, of a hand, of a
        game) up to the next decision or chance node."""
        st, o = self.st, self.opts
        while True:
            ph = self.phase
            if ph in ("deal", "trump", "declare", "claim", "card", "over"):
                return
            if ph == "seat":
                p = self._to_play()
                if self.stage == 0:
                    self.stage = 1
                    c = int(K.declarable(st, o, p)) if st[K.TRICK_NO] == 0 else 0
                    if c:
                        if o[K.O_AUTO_DECLARE]:
                            self._declare(p, c)
                        else:
                            self.phase = "declare"
                elif self.stage == 1:
                    self.stage = 2
                    if K.card_window_due(st, o):
                        self._open_window(p, "seat")
                else:
                    self.phase = "hand_end" if st[K.OVER] else "card"
            elif ph == "trick_end":
                if st[K.OVER]:
                    self.phase = "hand_end"
                elif st[K.TRICK_NO] == K.TRICKS:
                    K.close_hand(st, o, False, NO_TRACE)
                    self._tell(f"hand points {int(st[K.PTS])}-{int(st[K.PTS + 1])}, "
                               f"score {int(st[K.SCORE])}-{int(st[K.SCORE + 1])}")
                    self.phase = "hand_end"
                else:
                    self.stage = 0
                    self.phase = "seat"
            elif ph == "hand_end":
                K.next_dealer(st, o)
                if st[K.OVER]:
                    self.phase = "game_end"
                else:
                    self._new_hand()
            elif ph == "game_end":
                self._tell(f"game over: side {int(st[K.WIN_SIDE])} wins" if st[K.WIN_SIDE] >= 0 else
                           "game over: level")
                if K.match_over(st, o):
                    self.phase = "over"
                else:
                    st[K.GAME_NO] += 1
                    self._new_game()
            else:
                raise AssertionError(ph)

    # ---- what OpenSpiel calls a state -----------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == "deal":
            return CHANCE
        if ph == "over":
            return TERMINAL
        if ph == "trump":
            return int(self.st[K.BATT])
        if ph == "claim":
            return (self.window[0] + self.window[1]) & 3
        return self._to_play()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._uniform(40, sum(1 << c for c in self._deck))

    def legal_actions(self) -> list[int]:
        ph = self.phase
        if ph == "deal":
            return [c for c, _ in self.chance_outcomes()]
        if ph == "trump":
            return [int(dense_id(K.K_TRUMP, s)) for s in range(4)]
        if ph == "declare":
            return [int(dense_id(K.K_DECLARE, v)) for v in (0, 1)]
        if ph == "claim":
            return [int(dense_id(K.K_CLAIM, v)) for v in (0, 1)]
        if ph == "card":
            st = self.st
            m = int(legal_cards(st[K.HAND + self._to_play()], st[K.LED]))
            return mask_cards(m)
        return []

    def apply(self, action: int) -> None:
        action = self._checked(action)
        st, ph = self.st, self.phase
        if ph == "deal":
            self._deal_card(action)
        elif ph == "trump":
            suit = int(dense_value(action))
            K.set_trump(st, suit, NO_TRACE)
            K.count_extra(st)
            self._tell(f"seat {int(st[K.BATT])} names {SUIT_NAMES40[suit]} trump")
            self.stage = 0
            self.phase = "seat"
        elif ph == "declare":
            p = self._to_play()
            if dense_value(action):
                self._declare(p, int(K.declarable(st, self.opts, p)))
            else:
                self._tell(f"seat {p} does not declare")
                self.phase = "seat"
        elif ph == "claim":
            p = self.current_player()
            if dense_value(action):
                K.resolve_claim(st, self.opts, p, NO_TRACE)
                self._tell(f"seat {p} claims: {'correct' if st[K.HAND_END] == 1 else 'wrong'}")
                self.phase = self.resume
            else:
                self.window[1] += 1
                if self.window[1] == 4:
                    self.phase = self.resume
        else:                                          # a card
            p, card = self._to_play(), int(dense_value(action))
            K.put_card(st, p, card, NO_TRACE)
            self._tell(f"seat {p} plays {fmt40_card(card)}")
            if st[K.NCARDS] == 4:
                K.finish_trick(st, NO_TRACE)
                self._tell(f"seat {int(st[K.LAST_WINNER])} wins the trick")
                self._open_window(int(st[K.LAST_WINNER]), "trick_end")
            else:
                self.stage = 0
                self.phase = "seat"
        self.history.append(action)
        self._advance()

    def batch_outcome(self, seed: int, match: int) -> int:
        """At a chance node: the card the batch deals here in match ``match`` of run ``seed``."""
        return batch_deck(seed, match, int(self.st[K.MATCH_HANDS]))[len(self._deck)]

    def strategy_action(self, sid: int, prm, gplay) -> int:
        """The action cardsim's built-in strategy ``sid`` (its parameter row ``prm``) takes here,
        drawing from the play stream ``gplay`` as the batch kernel does: a match fed the batch's
        decks (``batch_deck``) and play stream replays the batch record."""
        st, o, p = self.st, self.opts, self.current_player()
        if self.phase == "trump":
            return int(dense_id(K.K_TRUMP, K.choose_trump(st[K.HAND + p], sid, prm, o, gplay)))
        if self.phase == "declare":
            return int(dense_id(K.K_DECLARE, 1 if K.wants_declare(sid, gplay) else 0))
        if self.phase == "claim":
            return int(dense_id(K.K_CLAIM, 1 if K.wants_claim(st, o, p, sid, prm, gplay) else 0))
        card = K.choose_card(st, o, p, legal_cards(st[K.HAND + p], st[K.LED]), sid, prm, gplay)
        return int(dense_id(K.K_CARD, card))

    def _table_choice(self, table, plug, gplay):
        """The batch's choice of the seat to act, as a table with a plug-in or search seat plays
        it (``trump_choice``, ``declare_choice``, ``claim_choice``, ``card_choice``: its plug-in's
        where its kinds ask, else its search's or its built-in's)."""
        from cardsim.kernels.jit import with_plugin_params
        from cardsim.kernels.marafon.layout import N_PLUG_PARAMS
        from cardsim.kernels.marafon.play import card_choice, trump_choice
        from cardsim.kernels.marafon.windows import claim_choice, declare_choice
        st, o, p, sids = self.st.copy(), self.opts, np.int64(self.current_player()), table.sids
        params = with_plugin_params(table.params, table.pprm, N_PLUG_PARAMS)
        if self.phase == "trump":
            kind, v = K.K_TRUMP, trump_choice(st, o, p, sids, params, gplay, plug)
        elif self.phase == "declare":
            kind, v = K.K_DECLARE, declare_choice(st, o, p, sids, params, gplay, plug, True)
        elif self.phase == "claim":
            kind, v = K.K_CLAIM, claim_choice(st, o, p, sids, params, gplay, plug, True)
        else:
            legal = np.int64(legal_cards(st[K.HAND + p], st[K.LED]))
            kind, v = K.K_CARD, card_choice(st, o, p, legal, sids[p], params[p], gplay, plug, params, True)
        return None if v < 0 else int(dense_id(kind, int(v)))

    def action_values(self, worlds: int = 32, policy: str | None = "strong", seed: int = 0):
        """The critique's evaluation (``critique_eval``, seat to act) of every legal action; a claim
        window's ctx is 4 x the seat that opened it + the seats asked before (as the critique's)."""
        if self.phase not in _KINDS:
            return None
        kind = _KINDS[self.phase]
        ctx = 4 * self.window[0] + self.window[1] if self.phase == "claim" else 0
        ids = self.legal_actions()
        codes = [int(K.act_code(kind, int(dense_value(i)))) for i in ids]
        st, p = self.st.copy(), self.current_player()

        def run(acts, n, prm, key, row, out):
            K.critique_eval(st, self.opts, p, kind, ctx, acts, n, 0, prm, key, row, out, no_plugin)
        return self._values(codes, ids, run, worlds, policy, seed)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * 4
        g0, g1 = int(self.st[K.GAMES]), int(self.st[K.GAMES + 1])
        side = 0 if g0 > g1 else (1 if g1 > g0 else -1)
        return [0.0 if side < 0 else (1.0 if p % 2 == side else -1.0) for p in range(4)]

    def resample(self, seat: int, rng) -> MarafonState:
        """A state ``seat`` cannot tell from this one: the three other hands dealt again from the
        cards it has not seen, consistently with everything public (``kernels.marafon.determinize``:
        hand sizes, shown voids, declared cricche, the battitore's 4 of coins). ``rng``: a
        ``numpy.random.Generator``. (ISMCTS's determinization; during a deal, the state itself.)"""
        return self._resample_with(seat, rng, lambda st, g: K.determinize(st, self.opts, seat, g,
                                                                           np.zeros(64, np.int64)))

    # ---- what a seat sees --------------------------------------------------------------------
    def plugin_view(self, seat: int) -> np.ndarray | None:
        """What a plug-in at ``seat`` is given at its decision: the kernel's own view
        (``fill_view``, the V_* layout of ``cardsim.marafon``), None when ``seat`` does not act."""
        if self.phase not in _KINDS or seat != self.current_player():
            return None
        view = np.zeros(K.VIEW_SIZE, np.int64)
        K.fill_view(self.st, self.opts, seat, _KINDS[self.phase], view)
        return view

    def _hand_of(self, seat: int) -> int:
        return int(self.st[K.HAND + seat])

    def observation_string(self, seat: int) -> str:
        st = self.st
        trump = int(st[K.TRUMP])
        trick = " ".join(fmt40_card(int(st[K.TRICK + i])) for i in range(int(st[K.NCARDS]))) or "-"
        decl = " | ".join(f"{q}:{''.join(SUIT_NAMES40[s] for s in range(4) if st[K.DECL + q] >> s & 1) or '-'}"
                          for q in range(4))
        return (f"seat {seat} · to act {self.current_player()} · {self.phase} · hand "
                f"{fmt40_mask(self._hand_of(seat)) or '-'} · trump {SUIT_NAMES40[trump] if trump >= 0 else '-'} · "
                f"battitore {int(st[K.BATT])} · leader {int(st[K.LEADER])} · trick {trick} · played "
                f"{fmt40_mask(int(st[K.PLAYED])) or '-'} · thirds {int(st[K.THIRDS])}-{int(st[K.THIRDS + 1])} · "
                f"declared {decl} · score {int(st[K.SCORE])}-{int(st[K.SCORE + 1])} · games "
                f"{int(st[K.GAMES])}-{int(st[K.GAMES + 1])} · hand {int(st[K.HAND_NO])}"
                f"{' (extra)' if st[K.EXTRA] else ''}")

    def observation_tensor(self, seat: int) -> np.ndarray:
        st = self.st
        t = np.zeros(OBS_SIZE, np.float32)
        lead, ncards = int(st[K.LEADER]), int(st[K.NCARDS])
        masks = [self._hand_of(seat), int(st[K.PLAYED])]
        for q in range(4):
            i = (q - lead) & 3
            masks.append(1 << int(st[K.TRICK + i]) if i < ncards else 0)
        masks += [int(st[K.WON]), int(st[K.WON + 1])]
        bits = np.unpackbits(np.array(masks, "<u8").view(np.uint8), bitorder="little")
        at = 40 * len(masks)
        t[:at] = bits.reshape(len(masks), 64)[:, :40].ravel()
        for q in range(4):
            for s in range(4):
                t[at + s] = st[K.DECL + q] >> s & 1
            at += 4
        for v in (st[K.TRUMP], st[K.BATT], st[K.DEALER], st[K.LEADER], self.current_player(), seat):
            if 0 <= v < 4:
                t[at + int(v)] = 1.0
            at += 4
        if self.phase in _KINDS:
            t[at + _KINDS[self.phase]] = 1.0
        at += 4
        for s in range(2):
            t[at + s] = st[K.SCORE + s] / 41.0
            t[at + 2 + s] = st[K.THIRDS + s] / 35.0
            t[at + 4 + s] = st[K.GAMES + s]
        at += 6
        t[at] = st[K.EXTRA]
        return t

    def action_string(self, action: int) -> str:
        return f"card {fmt40_card(action)}" if self.is_chance() else action_text(action)

    def __str__(self) -> str:
        return "\n".join(f"seat {q}: {fmt40_mask(self._hand_of(q))}" for q in range(4)) + \
            f"\n{self.observation_string(0)}"
