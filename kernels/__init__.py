"""Numba kernels: stateless card arithmetic and one module per game.

Everything here is ``@njit(cache=True)`` code (plus the integer constants it reads).
Python-side concerns (options, registries, I/O) live in ``sim/``.

Cache: numba keys a cached function on its own source file only, so a kernel compiled
against an older version of a module it calls (or of that module's constants) would be
loaded stale. The cache therefore lives in a directory named after a digest of all the
kernel sources (under ``NUMBA_CACHE_DIR`` when set, else ``kernels/__pycache__/numba``):
any change to any kernel starts a fresh cache. Where that directory cannot be written,
numba falls back to its usual locations.
"""
import hashlib
import os
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent
_DIGEST = hashlib.sha1(b"".join(p.read_bytes() for p in sorted(_HERE.glob("*.py")))).hexdigest()[:16]
numba.config.CACHE_DIR = os.path.join(os.environ.get("NUMBA_CACHE_DIR") or str(_HERE / "__pycache__" / "numba"),
                                      _DIGEST)
