"""Tripoli for plug-in strategies, public as ``cardsim.tripoli``: the module is the game's own
``cardsim.sim.games.tripoli.plugin`` (its docstring lists the view layout, the decision kinds and the
action encoding; ``help(cardsim.tripoli)`` shows it)."""
from cardsim.sim.games.tripoli.plugin import *  # noqa: F401,F403 - the game package's plug-in surface
from cardsim.sim.games.tripoli.plugin import __doc__  # noqa: F401,E402
