"""``python -m cardsim``: the command line."""
from cardsim.sim.cli import main

main()
