"""Contract Rummy for plug-in strategies, public as ``cardsim.contract_rummy``: the module is the game's own
``cardsim.sim.games.contract_rummy.plugin`` (its docstring lists the view layout, the decision kinds and the
action encoding; ``help(cardsim.contract_rummy)`` shows it)."""
from cardsim.sim.games.contract_rummy.plugin import *  # noqa: F401,F403 - the game package's plug-in surface
from cardsim.sim.games.contract_rummy.plugin import __doc__  # noqa: F401,E402
