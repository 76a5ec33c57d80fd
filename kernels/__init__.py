"""Numba kernels: stateless card arithmetic and one module per game.

Everything here is ``@njit(cache=True)`` code (plus the integer constants it reads).
Python-side concerns (options, registries, I/O) live in ``sim/``.

Cache: numba keys a cached function on its own source file only, so a kernel compiled
against an older version of a module it calls (or of that module's constants) would be
loaded stale. The cache therefore lives in a directory named after a digest of all the
kernel sources (every ``.py`` below ``kernels/``, the games' packages included, with its path;
under ``NUMBA_CACHE_DIR`` when set, else ``kernels/__pycache__/numba``): any change to any
kernel starts a fresh cache. Where that directory cannot be written,
numba falls back to its usual locations.

Compile time (issue 14; ``scripts/tools/compile_profile.py GAME`` shows where it goes). Numba
compiles every kernel called from another one as a library of its own and links into it the
libraries of everything it calls, then optimises and emits machine code for the whole linked
module again: a function costs its own size plus that of everything beneath it. So:

- kernels use ``jit.njit``, which compiles a callee once per argument *type*; numba's own
  ``njit`` compiles it again for every distinct constant passed (``Literal[int](0)``), with
  all it links (leaf kernels keep numba's rule: cheap copies, and the folded constant pays);
- ``play_batch`` is Python running the ``nogil`` ``play_chunk`` on threads
  (``jit.threaded_batch``); a ``prange`` loop's gufunc and wrappers linked the whole game
  three more times;
- a game's single-caller spine (``play_game``, ``play_hand``, ...) is ``inline='always'``
  into ``play_chunk``, so the whole game is linked once at the top rather than once per level.
  Inlining is not free: numba types an inlined body in its caller, and its type inference
  grows faster than linearly with a function's size (inlining every single-caller function of
  Telefunken made its cold compile 2.3 times longer), so the phase functions stay separate;
- numba copied an inlined callee's whole scope once per block of it (``numba_inline``, patched
  on import: once per inlining), which made a deep inlined spine cost minutes (Marafon's
  cold compile 101 s -> 49 s on a 2-core machine, the compiled code the same).
- the meld solvers are *separate* kernels (``separate``): their callers call them by a
  symbol, without linking their code, so they are optimised and emitted once, not again at
  every level above them (Telefunken's cold compile 204 s -> 143 s and Contract Rummy's
  142 s -> 128 s on a slow 2-core machine; the records the same).
"""
import hashlib
import os
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent
_SOURCES = sorted(p for p in _HERE.rglob("*.py") if "__pycache__" not in p.relative_to(_HERE).parts)
_DIGEST = hashlib.sha1(b"".join(p.relative_to(_HERE).as_posix().encode() + b"\0" + p.read_bytes()
                                for p in _SOURCES)).hexdigest()[:16]
numba.config.CACHE_DIR = os.path.join(os.environ.get("NUMBA_CACHE_DIR") or str(_HERE / "__pycache__" / "numba"),
                                      _DIGEST)

from . import numba_inline  # noqa: E402  (copies an inlined callee's scope once, not once per block)

numba_inline.install()

from . import separate  # noqa: E402  (a separate callee's address is known before its callers load)

separate.install()
