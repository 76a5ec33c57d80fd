"""kernels.numba_inline: numba's inliner copies an inlined callee's scope once per inlining
(not once per block); the IR it inlines is unchanged (the records of the fixed runs are
byte-identical, tests/test_records_fixed.py)."""
import copy

import numba
from numba.core import ir
from numba.core.inline_closurecall import InlineWorker

from cardsim.kernels import numba_inline


def test_installed_once():
    assert numba_inline.install() is True
    assert numba_inline.install() is True
    assert InlineWorker.inline_ir._cardsim_shared_memo


@numba.njit(inline='always')
def _leaf(x):
    s = 0
    for i in range(x):
        if i % 3 == 0:
            s += i
        else:
            s -= 1
    return s


@numba.njit(inline='always')
def _middle(x):
    return _leaf(x) + _leaf(x + 1) * 2


@numba.njit
def _top(x):
    t = 0
    for k in range(x):
        t += _middle(k) - _leaf(k)
    return t


def test_nested_inlining_computes_as_python():
    for x in (0, 1, 7, 20):
        assert _top(x) == _top.py_func(x)


def test_blocks_share_one_scope_copy_inside_an_inlining():
    scope = ir.Scope(None, ir.Loc("f", 1))
    v = scope.define("v", ir.Loc("f", 1))
    blocks = []
    for k in range(3):
        b = ir.Block(scope, ir.Loc("f", k))
        b.append(ir.Assign(ir.Const(k, b.loc), v, b.loc))
        blocks.append(b)
    plain = [copy.deepcopy(b) for b in blocks]           # outside an inlining: a scope each
    assert len({id(b.scope) for b in plain}) == 3
    numba_inline._local.memo = {}
    try:
        shared = [copy.deepcopy(b) for b in blocks]
    finally:
        numba_inline._local.memo = None
    assert len({id(b.scope) for b in shared}) == 1
    assert shared[0].scope is not scope and shared[0].scope == scope
    assert [s.value.value for b in shared for s in b.body] == [0, 1, 2]
    assert shared[1].body[0].target is shared[2].body[0].target    # the same variable, as before the copy
