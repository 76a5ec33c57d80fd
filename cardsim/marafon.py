"""Marafon for plug-in strategies, public as ``cardsim.marafon``: the module is the game's own
``cardsim.sim.games.marafon.plugin`` (its docstring lists the view layout, the decision kinds and the
action encoding; ``help(cardsim.marafon)`` shows it)."""
from cardsim.sim.games.marafon.plugin import *  # noqa: F401,F403 - the game package's plug-in surface
from cardsim.sim.games.marafon.plugin import __doc__  # noqa: F401,E402
