"""Module structure (issue 17): game modules depend only downward (on the shared types and
helpers, never on each other or on the registry that finds them), and no ``sim`` or
``kernels`` modules import each other in a circle (imports inside functions included)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "kernels", "cardsim")


def _module(path: Path) -> str:
    """The module's import name: sim/ and kernels/ are installed as cardsim.sim, cardsim.kernels."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[0] in ("sim", "kernels"):
        parts = ("cardsim",) + parts
    return ".".join(parts).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """Every project module ``path`` imports (anywhere in it)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        out.update(n for n in names if n.split(".")[0] == "cardsim")
    return out


def graph() -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if (ROOT / pkg).is_dir()]
    mods = {_module(p): p for p in files}
    return {m: {i for i in _imports(p) if i in mods and i != m} for m, p in mods.items()}


def test_game_modules_depend_only_downward():
    g = graph()
    for m, deps in g.items():
        if m.startswith("cardsim.sim.games."):
            own = ".".join(m.split(".")[:4])       # a game's package: its modules may use each other
            bad = {d for d in deps if (d.startswith("cardsim.sim.games") and d.split(".")[:4] != own.split("."))
                   or d in ("cardsim.sim.registry", "cardsim.sim.runner", "cardsim.sim.cli")}
            assert not bad, f"{m} imports {sorted(bad)}"


def test_no_import_cycles():
    g = graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for d in sorted(g[m]):
            if state.get(d) == 1:
                cycle = stack[stack.index(d):] + [d]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m)
