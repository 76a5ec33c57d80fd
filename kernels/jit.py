"""Numba helpers shared by the game kernels (no game logic)."""
import itertools
from concurrent.futures import ThreadPoolExecutor

import numba
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload


def njit(fn=None, **options):
    """``numba.njit(cache=..., ...)`` for the kernels, with one difference: a kernel that calls
    other kernels compiles one specialisation per argument *type*, not one per constant.

    Numba types a constant argument (``emit_run(..., 0, 0, ...)``, ``solve(..., True)``) as a
    literal and compiles the callee again for every distinct constant, with everything the
    callee links: Telefunken compiled 372 functions where 220 differ, the meld solvers up to
    three times each, and that was a third of its cold compile. Here the dispatcher sees the
    plain types of the arguments (``int64``, ``bool``). A *leaf* kernel (one that calls no other
    kernel) keeps numba's rule: its copies are small, and a constant folded into one mattered
    (Telefunken's Bolivia games ran 10 % slower with every constant unliteral). The kernels
    never ask for literal dispatch (``numba.literally``).
    ``inline='always'`` functions are inlined by numba before typing and keep numba's rule.
    """
    if fn is None:
        return lambda f: njit(f, **options)
    disp = numba.njit(**options)(fn)
    if options.get("inline", "never") == "never":
        typed_by_value = disp.get_call_template
        leaf = None              # known at the first call from a kernel, when fn's callees all exist

        def get_call_template(args, kws):
            nonlocal leaf
            if leaf is None:
                leaf = _calls_no_kernel(fn)
            if leaf:
                return typed_by_value(args, kws)
            return typed_by_value(tuple(types.unliteral(a) for a in args),
                                  {k: types.unliteral(v) for k, v in kws.items()})
        disp.get_call_template = get_call_template
    return disp


def _calls_no_kernel(fn) -> bool:
    """True when ``fn`` calls no other compiled kernel (a leaf: a specialisation per constant
    costs only its own few instructions, and lets LLVM fold the constant into it)."""
    from numba.core.registry import CPUDispatcher
    g = fn.__globals__
    for name in fn.__code__.co_names:
        v = g.get(name)
        if isinstance(v, CPUDispatcher):
            return False
        if isinstance(v, type(numba)):                         # a kernel module: M.solve(...)
            if any(isinstance(getattr(v, n, None), CPUDispatcher) for n in fn.__code__.co_names):
                return False
    return True


@intrinsic
def unowned(typingctx, arr):
    """A view of ``arr`` without reference counting (null meminfo and parent).

    Numba increments and decrements an array's reference count (an atomic operation, on a
    count that all threads share for the batch inputs) wherever a compiled function takes
    or hands on the array, tens of times per action in the play loop. ``play_deal`` and
    ``play_chunk`` work on views made by this function: the real arrays are their own
    arguments, so they outlive the views, which are never stored or returned.
    """
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    return arr(arr), codegen


@njit(cache=True, inline='always')
def trace_put(trace, st, at, c0, c1, c2, c3, c4, c5):
    """Append the row c0..c5 (cut to the trace's width) to ``trace`` if it has room, counting
    the rows in ``st[at]``. Replays pass a trace buffer; the batch loops pass an empty one,
    which makes every call a no-op."""
    i = st[at]
    if i < trace.shape[0]:
        w = trace.shape[1]
        trace[i, 0] = c0
        trace[i, 1] = c1
        trace[i, 2] = c2
        trace[i, 3] = c3
        if w > 4:
            trace[i, 4] = c4
        if w > 5:
            trace[i, 5] = c5
        st[at] = i + 1


def threaded_batch(play_chunk, seed, first, count, *args, least=1, align=1):
    """A game's ``play_batch``: play deals (games, sessions) ``first .. first+count-1`` into
    ``rec`` with the game's ``nogil`` kernel ``play_chunk(seed, first, lo, hi, *args)`` (args:
    opts, sids, params, check, rec, and a plug-in's function and parameters where the game
    takes plug-ins), which plays rec[lo:hi] with one set of buffers, on
    ``numba.get_num_threads()`` Python threads, one contiguous range each (as a static
    ``prange`` schedule would), at least ``least`` deals a thread, cut at multiples of
    ``align`` deal ids. Every record depends on its deal id alone, so any cut gives the same
    records.

    This replaces a ``parallel=True`` loop: numba compiles a parfor's gufunc and its wrappers as
    libraries of their own, each linking (re-optimising and emitting machine code for) every
    kernel of the game again, which was the largest single item of each game's cold compile.
    """
    threads = max(1, min(numba.get_num_threads(), count // max(1, least)))
    cuts = [0]
    for k in range(1, threads):
        c = (first + count * k // threads) // align * align - first
        if c > cuts[-1]:
            cuts.append(c)
    cuts.append(count)
    if len(cuts) == 2:
        play_chunk(seed, first, 0, count, *args)
        return
    play_chunk(seed, first, 0, 0, *args)      # compile (or load) once, here
    with ThreadPoolExecutor(len(cuts) - 2) as pool:
        futures = [pool.submit(play_chunk, seed, first, lo, hi, *args)
                   for lo, hi in itertools.pairwise(cuts[1:])]
        play_chunk(seed, first, cuts[0], cuts[1], *args)
        for f in futures:
            f.result()


def call_plug(plug, view, legal, n, prm):
    """``plug(view, legal, n, prm)`` for a plug-in strategy's function; -1 (every choice to the
    built-in) when ``plug`` is an integer, the built-in path's placeholder. The built-in path
    then holds no function value, so its kernels stay cacheable on disk (a function argument
    or global would make them "dynamic" and compile in every process)."""
    return -1 if isinstance(plug, int) else plug(view, legal, n, prm)


@overload(call_plug)
def _call_plug(plug, view, legal, n, prm):
    if isinstance(plug, types.Integer):
        return lambda plug, view, legal, n, prm: -1
    return lambda plug, view, legal, n, prm: plug(view, legal, n, prm)
