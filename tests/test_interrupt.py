"""Ctrl-C is held while a kernel runs and raised when it returns (sim.interrupt)."""
import os
import signal
import threading

import pytest

from cardsim.sim.interrupt import held


def test_first_sigint_waits_for_the_body(capsys):
    done = []
    with pytest.raises(KeyboardInterrupt):
        with held():
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):                   # bytecodes run: the handler has had its chance
                done.append(1)
            done.append("end")
    assert done[-1] == "end"
    assert "Ctrl-C again" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_second_sigint_interrupts_at_once():
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with held():
            os.kill(os.getpid(), signal.SIGINT)
            sum(range(1000))
            os.kill(os.getpid(), signal.SIGINT)
            sum(range(1000))
            reached.append(1)
    assert reached == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_no_signal_no_change_and_other_threads_untouched():
    with held():
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    seen = []

    def body():
        with held():                                # not the main thread: signal.signal would fail
            seen.append(signal.getsignal(signal.SIGINT))
    t = threading.Thread(target=body)
    t.start()
    t.join()
    assert seen == [signal.default_int_handler]
