"""Numba helpers shared by the game kernels (no game logic)."""
import functools
import itertools
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic


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


# A plug-in strategy's decide(view, legal, n, prm) -> index of the chosen legal action, or -1.
PLUG_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.float64[::1])
# ... and the argument types decide itself is compiled for: the arrays read-only, so that a
# decide writing into the view, the legal list or its parameter row (shared by the threads) does
# not compile (sim.plugin says so in one line).
PLUG_ARGS = (types.int64[::1].copy(readonly=True), types.int64[::1].copy(readonly=True), types.int64,
             types.float64[::1].copy(readonly=True))
# What the callback answers when decide raised (an exception cannot cross a C callback): not -1
# and no index, so every kernel stops the deal as it does for an illegal answer (E_PLUGIN), and
# sim.plugin finds out which exception by asking decide again, outside the kernel.
PLUG_RAISED = -(1 << 62)


@intrinsic
def read_only(typingctx, arr):
    """``arr`` typed as a read-only array (the same data; a write to it is a typing error)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        return impl_ret_borrowed(context, builder, sig.return_type, args[0])
    return arr.copy(readonly=True)(arr), codegen


@intrinsic
def address_ptr(typingctx, addr):
    """The integer ``addr`` as a ``void*`` (for ``numba.carray``: a buffer that Python owns)."""
    if not isinstance(addr, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(addr), codegen


def guarded(fn):
    """``fn`` (a plug-in's decide) called on read-only views of its arrays, an exception it
    raises answered as PLUG_RAISED: the numba function the kernels' callback runs."""
    @numba.njit
    def call(view, legal, n, prm):
        try:
            return fn(read_only(view), read_only(legal), n, read_only(prm))
        except Exception:  # noqa: BLE001 - numba catches every exception here; sim.plugin names it
            return PLUG_RAISED
    return call


def plug_cfunc(fn):
    """``fn`` (a numba function of PLUG_SIG's arguments, ``guarded``) compiled as a C callback. A kernel
    takes it as a first-class function of type PLUG_SIG, the same type for every plug-in, so
    one compiled kernel (cached on disk) serves the built-in strategies and any plug-in: a new
    plug-in costs only its own compile. (A dispatcher argument would be typed by its identity:
    a new kernel compile, and a new cache entry, in every process.)"""
    return numba.cfunc(PLUG_SIG)(fn)


def recording_cfunc(fn, ints, floats):
    """A callback running ``fn`` (``guarded``) that keeps, in the Python-owned buffers ``ints``
    (int64) and ``floats`` (float64), the first call whose answer is neither -1 nor a legal
    index: ints = [1, answer, n, view length, prm length, view..., legal[:n]...], floats = prm.
    ``sim.plugin`` replays a stopped deal with it to show the decision that stopped it. The
    buffers must outlive every call (the caller keeps them)."""
    iaddr, icap = ints.ctypes.data, len(ints)
    faddr, fcap = floats.ctypes.data, len(floats)

    @numba.njit
    def record(view, legal, n, prm):
        r = fn(view, legal, n, prm)
        b = numba.carray(address_ptr(iaddr), (icap,), np.int64)
        if b[0] == 0 and not (r == -1 or 0 <= r < n):
            nv, npm = len(view), len(prm)
            if 5 + nv + n <= icap and npm <= fcap:
                f = numba.carray(address_ptr(faddr), (fcap,), np.float64)
                b[0] = 1
                b[1] = r
                b[2] = n
                b[3] = nv
                b[4] = npm
                b[5:5 + nv] = view
                b[5 + nv:5 + nv + n] = legal[:n]
                f[:npm] = prm
        return r
    return numba.cfunc(PLUG_SIG)(record)


def plugin_params(pprm, seats, n_plug):
    """A plug-in's parameter rows ``pprm`` as the kernels take them (float64; one row per seat:
    ``n_plug`` parameters and the kinds mask), zeros for a table without a plug-in (None)."""
    if pprm is None:
        return np.zeros((seats, n_plug + 1), dtype=np.float64)
    return np.ascontiguousarray(pprm, dtype=np.float64)


def with_plugin_params(params, pprm, n_plug):
    """The seats' built-in parameters with the plug-in's rows appended (columns from
    ``params.shape[1]`` on): for the kernels that read both from one matrix."""
    params = np.asarray(params, dtype=np.float64)
    return np.ascontiguousarray(np.hstack([params, plugin_params(pprm, len(params), n_plug)]))


@numba.cfunc(PLUG_SIG, cache=True)
def no_plugin(view, legal, n, prm):
    """The plug-in argument of a table without one: leaves every choice to the built-in."""
    return -1


def lazy_cfunc(sig, fn):
    """A function that returns ``fn`` compiled as a C callback of signature ``sig`` (cached on
    disk), compiling it at its first call in the process, not at import.

    The search strategies (issue 19) reach the batch kernels this way: a game's ``play_chunk``
    takes its search as a first-class function of ``sig``, the same type whether or not a
    search seat plays, so the batch kernel compiles without the search's rollouts (a third or
    more of its compile time) and a table without a search seat never compiles them; a table
    with one compiles this callback once (``search_callback``)."""
    return functools.cache(lambda: numba.cfunc(sig, cache=True)(fn))


def search_callback(sids, search_sid, plugin, compiled, none):
    """The search callback a table needs: ``compiled()`` (a ``lazy_cfunc``) when one of the
    seats ``sids`` is a search seat (sid ``search_sid``, or a plug-in ``plugin + search_sid``
    whose undecided choices the search makes), else ``none``, a cached callback that is never
    called."""
    base = np.asarray(sids) % plugin
    return compiled() if bool((base == search_sid).any()) else none


def plugged_callback(sids, search_sid, plugin, compiled, none):
    """The callback of a table's plug-in / search play loop (Marafon, Trionfo): ``compiled()``
    (a ``lazy_cfunc``) when one of the seats ``sids`` is a plug-in (sid >= ``plugin``) or a
    search seat (``search_sid``), the kernels' own test for that loop, else ``none``."""
    sids = np.asarray(sids)
    return compiled() if bool(((sids >= plugin) | (sids == search_sid)).any()) else none
