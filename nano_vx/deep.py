"""Run deeply recursive work (parsing nested input, walking deep trees) on a thread with a
large stack and a raised recursion limit, so that depth is bounded by the compiler's own
limits (E1003) and never by Python's default 1,000 frames.

The big-stack threads are kept and reused: a compile calls run_deep a dozen times, and a
fresh thread's stack is mapped, faulted in page by page and unmapped again for each call.
A thread whose call ran long goes away after it, so that the stack a deep input touched is
given back, and starting a thread costs little beside such a call."""

from __future__ import annotations

import queue
import sys
import threading
import time

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200_000
# A call that took longer may have touched much of its stack; its thread is not kept.
KEEP_AFTER_SECONDS = 0.05

_local = threading.local()
_idle: list[_Worker] = []  # threads waiting for a call, the most recently used last
_idle_lock = threading.Lock()


class _Call:
    def __init__(self, fn, args, kwargs):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.value = self.error = None
        self.done = threading.Event()


class _Worker:
    def __init__(self):
        self.calls: queue.SimpleQueue = queue.SimpleQueue()
        old_stack = threading.stack_size(STACK_BYTES)
        try:
            # A daemon: a kept thread waiting for its next call must not hold up the exit.
            threading.Thread(target=self._serve, name="nano-vx-deep", daemon=True).start()
        finally:
            threading.stack_size(old_stack)

    def _serve(self):
        _local.deep = True
        while True:
            call = self.calls.get()
            started = time.monotonic()
            try:
                call.value = call.fn(*call.args, **call.kwargs)
            except BaseException as exc:  # handed to the calling thread, which re-raises it
                call.error = exc
            call.fn = call.args = call.kwargs = None
            keep = time.monotonic() - started < KEEP_AFTER_SECONDS
            if keep:
                with _idle_lock:
                    _idle.append(self)
            call.done.set()
            del call
            if not keep:
                return


def run_deep(fn, *args, **kwargs):
    """Call fn(*args, **kwargs) on a big-stack thread; return its result or raise its error."""
    if getattr(_local, "deep", False):
        return fn(*args, **kwargs)
    with _idle_lock:
        worker = _idle.pop() if _idle else None
    call = _Call(fn, args, kwargs)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    try:
        (worker or _Worker()).calls.put(call)
        call.done.wait()
    finally:
        sys.setrecursionlimit(old_limit)
    if call.error is not None:
        raise call.error
    return call.value
