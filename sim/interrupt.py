"""Ctrl-C at a safe point.

Python runs a SIGINT handler between two bytecodes of the main thread, wherever they are. When
that is inside numba's argument unboxing of a kernel call (a C callback argument is rebuilt by
Python code there), the KeyboardInterrupt surfaces as a numba internal error and the run exits
1 with a traceback instead of 130 with "rerun with --resume". ``held()`` keeps the first Ctrl-C
pending while a kernel runs and raises it as soon as the kernel returns; a second Ctrl-C during
the same call interrupts at once (the user insists: a long shard, or a first compile, is not
waited for), and the first says so on stderr.
"""
from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager


@contextmanager
def held():
    """Run the body with the first SIGINT held; raise KeyboardInterrupt after it if one came.
    Outside the main thread, or where SIGINT is not Python's default handler (a caller's own
    handler, or an enclosing ``held``), the body runs unchanged."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    pending = []

    def hold(signum, frame):
        if pending:                                   # the second Ctrl-C: now
            raise KeyboardInterrupt
        pending.append(signum)
        sys.stderr.write("Stopping when this shard is done (Ctrl-C again to stop now).\n")
        sys.stderr.flush()

    signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pending:
        raise KeyboardInterrupt
