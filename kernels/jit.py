"""Numba helpers shared by the game kernels (no game logic)."""
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


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
