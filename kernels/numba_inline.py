"""Faster ``inline='always'`` in numba's compiler (compile time only; the IR it builds is the same).

Numba inlines a callee by copying its IR block by block, each block with ``copy.deepcopy``
and a memo of its own. A block's variables point to the function's scope, and the scope holds
every variable of the function, so each block's copy copies the whole scope again: the cost
of one inlining is (blocks x variables), and a spine of nested ``inline='always'`` kernels
(each callee already holding its own inlined callees) spent most of its cold compile there
(Marafon: 158 of 237 profiled seconds in ``copy_ir``; numba issue #8989 reports the same).

``install()`` makes the blocks copied inside one ``InlineWorker.inline_ir`` call share one
memo: the scope (and every variable, constant and location shared between blocks) is copied
once per inlining, as one ``copy.deepcopy`` of all the blocks together would. The copies keep
the original's sharing, which the per-block copies broke (numba compared the resulting scope
copies by value to find them equal); everything the inliner then does to them is unchanged.

Installed by ``cardsim.kernels`` on import; a numba without these internals is left alone.
"""
from __future__ import annotations

import copy
import functools
import threading

_local = threading.local()


def _block_deepcopy(self, memo):
    """``copy.deepcopy`` of a block: its attributes copied with the memo shared by the
    current inlining (``memo`` outside one)."""
    shared = getattr(_local, "memo", None)
    if shared is not None:
        memo = shared
        if id(self) in memo:
            return memo[id(self)]
    new = self.__class__.__new__(self.__class__)
    memo[id(self)] = new
    for k, v in self.__dict__.items():
        setattr(new, k, copy.deepcopy(v, memo))
    return new


def install() -> bool:
    """Patch numba's inliner once; returns whether the patch is in place."""
    try:
        from numba.core import ir
        from numba.core.inline_closurecall import InlineWorker
    except ImportError:                          # pragma: no cover - another numba layout
        return False
    original = InlineWorker.inline_ir
    if getattr(original, "_cardsim_shared_memo", False):
        return True
    if "__deepcopy__" in ir.Block.__dict__:      # pragma: no cover - numba changed blocks
        return False

    @functools.wraps(original)
    def inline_ir(self, *args, **kwargs):
        outer = getattr(_local, "memo", None)
        _local.memo = {}
        try:
            return original(self, *args, **kwargs)
        finally:
            _local.memo = outer

    inline_ir._cardsim_shared_memo = True
    ir.Block.__deepcopy__ = _block_deepcopy
    InlineWorker.inline_ir = inline_ir
    return True
