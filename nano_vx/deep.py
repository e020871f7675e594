"""Run deeply recursive work (parsing nested input, walking deep trees) on a thread with a
large stack and a raised recursion limit, so that depth is bounded by the compiler's own
limits (E1003) and never by Python's default 1,000 frames.

The big-stack threads are kept and reused: a compile calls run_deep a dozen times, and a
fresh thread's stack is mapped, faulted in page by page and unmapped again for each call.
A thread whose call ran long goes away after it, so that the stack a deep input touched is
given back, and starting a thread costs little beside such a call.

CPython (3.11 to 3.13) keeps the frames of Python calls in chunks of a stack of its own, one
per thread: 16 KiB each unless a frame needs more, a chunk mapped when a call does not fit
in the last one and unmapped as soon as that call returns. A recursion that goes up and down
across the end of a chunk maps and unmaps it on every crossing: the compile-time evaluator
running a doubly recursive function (a million calls up and down a few dozen levels) spent
half its time in mmap and munmap. So a worker serves its calls from inside one frame with
room for 32,768 variables (256 KiB), which CPython puts in a chunk of 512 KiB of its own:
the calls made on the thread have the other half, a few thousand frames, before they reach
the end of a chunk (`strace -c`: 577 mmaps in a whole compile of that E8005 program, 332,000
before)."""

from __future__ import annotations

import functools
import queue
import sys
import threading
import time
import types

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200_000
# A call that took longer may have touched much of its stack; its thread is not kept.
KEEP_AFTER_SECONDS = 0.05

# The variables of the frame a worker serves from (see the docstring), never assigned: their
# room is what is wanted.
ROOM_VARIABLES = 32_768

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
            threading.Thread(target=_roomy(), args=(self._serve,), name="nano-vx-deep",
                             daemon=True).start()
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


def _call(fn):
    return fn()


@functools.cache
def _roomy():
    """`_call` with ROOM_VARIABLES more variables, for the frame a worker serves from (made
    once, for the first worker)."""
    code = _call.__code__
    names = tuple(map(str, range(ROOM_VARIABLES)))
    code = code.replace(co_varnames=code.co_varnames + names,
                        co_nlocals=code.co_nlocals + ROOM_VARIABLES)
    return types.FunctionType(code, globals(), "_roomy_call")


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
