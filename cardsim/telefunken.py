"""Telefunken for plug-in strategies, public as ``cardsim.telefunken``: the module is the game's own
``cardsim.sim.games.telefunken.plugin`` (its docstring lists the view layout, the decision kinds and the
action encoding; ``help(cardsim.telefunken)`` shows it)."""
from cardsim.sim.games.telefunken.plugin import *  # noqa: F401,F403 - the game package's plug-in surface
from cardsim.sim.games.telefunken.plugin import __doc__  # noqa: F401,E402
