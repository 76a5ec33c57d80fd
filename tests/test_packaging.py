"""The installed package is one top-level name (issue 17): ``cardsim``, with the repository's
``sim/`` and ``kernels/`` inside it as ``cardsim.sim`` and ``cardsim.kernels``."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_is_under_cardsim_and_none_is_forgotten():
    cfg = _setuptools()
    packages, dirs = cfg["packages"], cfg["package-dir"]
    assert all(p == "cardsim" or p.startswith("cardsim.") for p in packages)

    def folder(pkg: str) -> Path:
        best = max((k for k in dirs if pkg == k or pkg.startswith(k + ".")), key=len)
        return ROOT / dirs[best] / Path(*pkg[len(best):].strip(".").split(".")) if pkg != best else ROOT / dirs[best]

    for pkg in packages:
        assert (folder(pkg) / "__init__.py").is_file(), pkg
    on_disk = {f"cardsim.{d.relative_to(ROOT).as_posix().replace('/', '.')}" if d.parts[len(ROOT.parts)] != "cardsim"
               else d.relative_to(ROOT).as_posix().replace("/", ".")
               for top in ("sim", "kernels", "cardsim") for d in [ROOT / top, *(ROOT / top).rglob("*")]
               if d.is_dir() and (d / "__init__.py").is_file()}
    assert on_disk == set(packages)
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["cardsim"] == "cardsim.sim.cli:main"


def test_the_api_and_a_game_load_no_top_level_sim_or_kernels():
    code = ("import sys, cardsim\n"
            "from cardsim.sim.runner import make_config\n"
            "make_config('tonk', deals=1)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'sim', 'kernels'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT / "tests")
    assert out.stdout.strip() == "[]"
