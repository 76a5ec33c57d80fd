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


# Issue 42: a game lives in its packages (kernels/<game>/, sim/games/<game>/, its public plug-in
# module cardsim/<game>.py) and nothing else in the product or its tools names it: every consumer
# iterates the discovered games. Docstrings and comments may name a game as an example.
GAME_FREE = ("sim", "kernels", "cardsim", "scripts/tools")


def _docstring_lines(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.update(range(first.lineno, first.end_lineno + 1))
    return out


def _game_of(path: Path, names: tuple[str, ...]) -> str | None:
    """The game whose package ``path`` belongs to, if any."""
    parts = path.relative_to(ROOT).parts
    if parts[0] == "kernels" and len(parts) > 2 and parts[1] in names:
        return parts[1]
    if parts[:2] == ("sim", "games") and len(parts) > 3 and parts[2] in names:
        return parts[2]
    if parts[0] == "cardsim" and len(parts) == 2 and path.stem in names:
        return path.stem
    return None


def test_no_module_outside_a_game_package_names_that_game():
    import io
    import re
    import tokenize

    from cardsim.sim.registry import game_names
    names = game_names()
    word = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(names) + r")(?![A-Za-z0-9])", re.IGNORECASE)
    bad = []
    for top in GAME_FREE:
        for path in sorted((ROOT / top).rglob("*.py")) if (ROOT / top).is_dir() else []:
            own = _game_of(path, names)
            src = path.read_text(encoding="utf-8")
            docs = _docstring_lines(ast.parse(src))
            for tok in tokenize.generate_tokens(io.StringIO(src).readline):
                if tok.type not in (tokenize.NAME, tokenize.STRING) or tok.start[0] in docs \
                        or tok.string.strip("\"'").startswith("docs/rules/"):    # a rules document (shared)
                    continue
                for m in word.finditer(tok.string):
                    if m.group(1).lower() != own:
                        bad.append(f"{path.relative_to(ROOT)}:{tok.start[0]}: {m.group(1)}")
    assert not bad, "modules naming a game outside its packages:\n" + "\n".join(bad)
