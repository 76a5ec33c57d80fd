"""Ctrl-C at a safe point.

Python runs a SIGINT handler between two bytecodes of the main thread, wherever they are. When
that is inside numba's argument unboxing of a kernel call (a C callback argument is rebuilt by
Python code there), the KeyboardInterrupt surfaces as a numba internal error and the run exits
1 with a traceback instead of 130 with "rerun with --resume". ``held()`` keeps the first Ctrl-C
pending while a kernel runs and raises it as soon as the kernel returns; a second Ctrl-C during
the same call interrupts at once (the user insists: a long shard, or a first compile, is not
waited for), and the first says so on stderr.

Python runs that handler only when the main thread runs bytecode, never while it is inside a
kernel (numba code holds no Python frame), so a kernel that never returns (a plug-in's decide
that loops) could not be stopped by Ctrl-C at all. ``held_call`` therefore runs the kernel in a
daemon thread while the main thread waits, where a signal handler does run: the second Ctrl-C
raises KeyboardInterrupt at once and the kernel is left running (``abandoned()``), so the
command line ends the process with ``os._exit`` after its message (interpreter exit would wait
for that thread forever).
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


_ABANDONED: list = []      # (thread, finished event) of kernels left running by a second Ctrl-C


def abandoned() -> bool:
    """Whether a second Ctrl-C left a kernel running (the process must then end with os._exit)."""
    return any(not done.is_set() for done in _ABANDONED)


def held_call(fn, *args):
    """``fn(*args)`` (a kernel call) under ``held``: in the main thread with Python's own SIGINT
    handler, in a daemon thread (with this thread's numba thread count) while the main thread
    waits, so that the first Ctrl-C waits for the call and the second interrupts at once, even
    if the call never returns. Elsewhere it is a plain call."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        return fn(*args)
    import numba
    threads = numba.get_num_threads()
    box = {}
    done = threading.Event()

    def body():
        try:
            numba.set_num_threads(threads)
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            box["error"] = exc
        finally:
            done.set()
    with held():
        threading.Thread(target=body, name="cardsim-kernel", daemon=True).start()
        try:
            while not done.wait(0.25):     # a wait that a signal handler interrupts
                pass
        except KeyboardInterrupt:
            if not done.is_set():
                _ABANDONED.append(done)
            raise
    if "error" in box:
        raise box["error"]
    return box.get("value")
