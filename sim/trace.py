"""Replay traces as data: the events of one deal, each with its readable line.

A game's ``trace_events(trace, state, seat_names) -> list[dict]`` turns the kernel trace of a
replayed deal into events, one per thing that happens, in the order it happens (an
out-of-turn draw comes before the out-of-turn discard). ``cardsim replay`` prints their
``text``; ``cardsim replay --json`` writes the events themselves.

Every event has:

* ``action``: a short name, the same for every game where it means the same thing:
  ``"hand"`` (a new hand or deal starts), ``"deal"`` (a seat's dealt cards), ``"draw"``,
  ``"take discard"``, ``"discard"``, ``"meld"`` (melds laid, including going down and going
  out), ``"lay off"``, ``"end"``, ``"score"``, ``"result"``; games add their own
  (``"bid"``, ``"play"``, ``"trick"``, ``"buy"``, ...);
* ``seat``: the seat acting (0..n-1), or None for table events;
* ``text``: the line ``cardsim replay`` prints.

and, where they apply:

* ``cards``: the cards the action moves, as card strings (``"7C"``, ``"10H"``, ``"JK"``); a
  joker that stands for a card on the table is written ``"JK(8D)"``;
* ``melds``: the melds laid, each a list of card strings in table order;
* ``target``: the meld a lay-off, swap or retrieval acts on, as its cards before the action;
* ``state``: a small dict of public facts after the event (cards held per seat, stock size,
  scores, chips, ...; each game documents its keys in its ``trace_events``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence


def event(action: str, text: str, seat: int | None = None, **fields) -> dict:
    """One trace event (see the module docstring); ``fields`` with value None are left out."""
    out = {"action": action, "seat": None if seat is None or seat < 0 else int(seat)}
    out.update((k, v) for k, v in fields.items() if v is not None)
    out["text"] = text
    return out


def joker_as(card: str) -> str:
    """The joker standing for ``card``: ``JK(8D)``."""
    return f"JK({card})"


def meld_text(cards: Sequence[str]) -> str:
    """A meld as its cards, ``7C 7D JK(7H)``."""
    return " ".join(cards)


def lines(events: Iterable[dict]) -> list[str]:
    """The readable play-by-play of events."""
    return [e["text"] for e in events]
