"""kernels.separate: a kernel calls a separate callee without linking its code, with the same
results, and a caller loaded from the cache in a new process finds its callee."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import types

from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels import separate as S
from cardsim.kernels.jit import njit

MODULE = textwrap.dedent('''
    import numpy as np
    from numba import types
    from cardsim.kernels.jit import njit
    from cardsim.kernels.separate import separate

    @njit(cache=True)
    def big(a, x, flag):
        s = 0
        for i in range(a.shape[0]):
            s += a[i] * x
        if flag:
            a[0] = s
        return s

    big_sep = separate(big, types.int64(types.int64[::1], types.int64, types.boolean))

    @njit(cache=True)
    def caller(a):
        return big_sep(a[1:], 3, True) + 1
''')

RUN = ("import numpy as np, sepmod\n"
       "a = np.arange(5, dtype=np.int64)\n"
       "print(sepmod.caller(a), a.tolist(), sum(sepmod.caller.stats.cache_hits.values()))\n")


@njit
def _weighted(a, x, flag):
    s = 0
    for i in range(a.shape[0]):
        s += a[i] * (i + x)
    if flag:
        a[0] = -s
    return s


_weighted_sep = S.separate(_weighted, types.int64(types.int64[::1], types.int64, types.boolean))


@njit
def _calls(a, x):
    return _weighted_sep(a, x, False) + _weighted_sep(a[1:], 2, True)


def test_same_results_as_a_linked_call():
    for n in (2, 4, 9):
        a = np.arange(n, dtype=np.int64) * 3 - 5
        b = a.copy()
        got = _calls(a, 7)
        want = _weighted.py_func(b, 7, False) + _weighted.py_func(b[1:], 2, True)
        assert got == want and a.tolist() == b.tolist()


def test_the_caller_declares_the_callee_and_links_none_of_it():
    _calls(np.arange(3, dtype=np.int64), 1)
    ir = next(iter(_calls.inspect_llvm().values()))
    name = S.symbol_of(_weighted)
    assert any(ln.startswith("declare") and name in ln for ln in ir.splitlines())
    assert "_weighted" not in ir.replace(name, "")


def test_a_kernel_is_separate_once():
    with pytest.raises(ValueError, match="already separate"):
        S.separate(_weighted, types.int64(types.int64[::1], types.int64, types.boolean))


def test_a_cached_caller_finds_its_callee_in_a_new_process(tmp_path):
    (tmp_path / "sepmod.py").write_text(MODULE)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(S.__file__))))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), root, os.environ.get("PYTHONPATH", "")]))
    outs = [subprocess.run([sys.executable, "-c", RUN], env=env, cwd=tmp_path, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    assert outs[0][:5] == outs[1][:5] == ["31", "[0,", "30,", "2,", "3,"]
    assert outs[0][-1] == "0" and outs[1][-1] == "1"          # compiled, then loaded from the cache


def test_the_meld_solvers_are_separate():
    for k in (M.solve_contract, M.solve_hand, M.gen_search, M.gen_go_out, M.go_out_partition, F.solve_contract_ws):
        assert S.symbol_of(k) in S._TARGETS
