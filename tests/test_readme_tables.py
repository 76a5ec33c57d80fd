"""The README's strategy tables are the registry's (``scripts/tools/readme_tables.py`` writes them)."""
import importlib.util
from pathlib import Path

from cardsim.sim.registry import GAME_NAMES

ROOT = Path(__file__).resolve().parent.parent


def _tables():
    spec = importlib.util.spec_from_file_location("readme_tables", ROOT / "scripts" / "tools" / "readme_tables.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_game_has_an_up_to_date_strategy_table():
    text = (ROOT / "README.md").read_text()
    for game in GAME_NAMES:
        assert f"<!-- strategies:{game} -->" in text and f"<!-- /strategies:{game} -->" in text, game
    assert _tables().rewrite(text) == text, "README strategy tables are stale: run python scripts/tools/readme_tables.py"
