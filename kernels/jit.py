"""Numba helpers shared by the game kernels (no game logic)."""
from numba import types
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
