"""The installed package is one top-level name (issue 17): ``cardsim``, with the repository's
``sim/`` and ``kernels/`` inside it as ``cardsim.sim`` and ``cardsim.kernels`` (issue 42: through
the links ``cardsim/sim`` and ``cardsim/kernels``, so every import names a file)."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_sim_and_kernels_are_reached_through_plain_links():
    """Issue 42: no package path is extended at run time; ``cardsim/sim`` and ``cardsim/kernels``
    are links to the top-level folders, so ``cardsim.sim.store`` is the file
    ``cardsim/sim/store.py`` for Python, a reader and a type checker alike."""
    for name in ("sim", "kernels"):
        link = ROOT / "cardsim" / name
        assert link.is_symlink() and link.resolve() == (ROOT / name).resolve(), link
    assert "__path__" not in (ROOT / "cardsim" / "__init__.py").read_text()
    cfg = _setuptools()
    assert "package-dir" not in cfg and cfg["packages"]["find"]["include"] == ["cardsim*"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["cardsim"] == "cardsim.sim.cli:main"


def _project_imports() -> set[str]:
    import ast
    names = set()
    for top in ("sim", "kernels", "cardsim", "scripts", "tests", "examples"):
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module)
                    names.update(f"{node.module}.{a.name}" for a in node.names)
    return {n for n in names if n == "cardsim" or n.startswith("cardsim.")}


def test_every_import_of_the_package_names_a_file():
    """Each ``cardsim.a.b`` imported anywhere is ``cardsim/a/b.py`` or ``cardsim/a/b/__init__.py``
    on disk (or a name defined in such a module), as a static resolver finds it."""
    def is_module(name: str) -> bool:
        path = ROOT.joinpath(*name.split("."))
        return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()
    missing = [n for n in sorted(_project_imports()) if not is_module(n) and not is_module(n.rpartition(".")[0])]
    assert not missing, missing


def test_mypy_resolves_every_import_of_the_package():
    """mypy (a static checker) finds every module of the package from the repository root."""
    api = pytest.importorskip("mypy.api")
    out, err, _ = api.run(["-p", "cardsim", "--follow-imports=silent", "--no-incremental",
                           "--no-error-summary", "--cache-dir", "/dev/null"])
    unresolved = [line for line in out.splitlines() if "import-not-found" in line and '"cardsim' in line]
    assert not unresolved and "cardsim" not in err, unresolved or err


def test_the_api_and_a_game_load_no_top_level_sim_or_kernels():
    code = ("import sys, cardsim\n"
            "from cardsim.sim.runner import make_config\n"
            "make_config('tonk', deals=1)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'sim', 'kernels'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT / "tests")
    assert out.stdout.strip() == "[]"
