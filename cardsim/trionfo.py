"""Trionfo for plug-in strategies, public as ``cardsim.trionfo``: the module is the game's own
``cardsim.sim.games.trionfo.plugin`` (its docstring lists the view layout, the decision kinds and the
action encoding; ``help(cardsim.trionfo)`` shows it)."""
from cardsim.sim.games.trionfo.plugin import *  # noqa: F401,F403 - the game package's plug-in surface
from cardsim.sim.games.trionfo.plugin import __doc__  # noqa: F401,E402
