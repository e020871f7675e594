"""Run deeply recursive work (parsing nested input, walking deep trees) on a thread with a
large stack and a raised recursion limit, so that depth is bounded by the compiler's own
limits (E1003) and never by Python's default 1,000 frames."""

from __future__ import annotations

import sys
import threading

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200_000

_local = threading.local()


def run_deep(fn, *args, **kwargs):
    """Call fn(*args, **kwargs) on a big-stack thread; return its result or raise its error."""
    if getattr(_local, "deep", False):
        return fn(*args, **kwargs)
    result: dict = {}

    def body():
        _local.deep = True
        try:
            result["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the calling thread, which re-raises it
            result["error"] = exc

    old_stack = threading.stack_size(STACK_BYTES)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    try:
        worker = threading.Thread(target=body, name="nano-vx-deep")
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if "error" in result:
        raise result["error"]
    return result["value"]
