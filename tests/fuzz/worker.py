"""The process `runner` sends inputs to: `python -m fuzz.worker ENTRY MEMORY`.

ENTRY (`module:function`, `nano_vx.cli:main` but for the tests' planted compiler) is called
as `nano-vx` calls it, on the input written to a file. Requests come one JSON line each on
stdin: the bytes (base64), the file's name, the command line of the check and of the run of
an admitted input (none for an input that has no run), and the time bound of each phase. Answers go one JSON line each to the original stdout: `{"phase": "run"}` when the run
starts, then what the phase ended with. The worker runs in its own directory, so internal
error reports (`nano-vx-ice-PASS.txt`) land there, and bounds itself: its address space
to MEMORY bytes beyond what it holds after start-up, and its time with faulthandler, which
past the bound writes every thread's stack to `stack.txt` and exits; that file is how the
runner learns where a hang was.
"""

from __future__ import annotations

import base64
import faulthandler
import glob
import importlib
import io
import json
import os
import re
import resource
import sys
import time
import traceback

from nano_vx.deep import STACK_BYTES

CODE = re.compile(r"^(?:error|warning)\[([A-Z]\d+)\]", re.M)
KEEP_FRAMES = 60


class Sink(io.TextIOBase):
    """A stdout that keeps nothing: a program's output is not what is being checked, and an
    endless printer must not turn into a memory failure of the worker."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def _bound_memory(extra: int) -> None:
    pages = int(open("/proc/self/statm").read().split()[0])
    # The bound is on address space, and the big-stack thread of one input may still be
    # unmapping its stack when the next input starts its own: room for that second stack.
    limit = pages * os.sysconf("SC_PAGE_SIZE") + extra + STACK_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _internal_error() -> str | None:
    """The traceback of the internal error report the compiler wrote, if it wrote one."""
    reports = glob.glob("nano-vx-ice-*.txt")
    text = None
    for path in reports:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read().split("\n--- IR that went into", 1)[0]
        os.remove(path)
    return text


def _formatted(error: BaseException) -> str:
    """The traceback of `error` and of the errors it chains, each cut to its innermost
    frames: a RecursionError's holds a hundred thousand, which take minutes to format."""
    seen, link = set(), error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        frames, tb = [], link.__traceback__
        while tb is not None:
            frames.append(tb)
            tb = tb.tb_next
        if len(frames) > KEEP_FRAMES:
            link.__traceback__ = frames[-KEEP_FRAMES]
        link = link.__cause__ or link.__context__
    return "".join(traceback.format_exception(error))


def _phase(compile_, argv: list[str], bound: float, stack) -> dict:
    stack.seek(0)
    stack.truncate()
    faulthandler.dump_traceback_later(bound, exit=True, file=stack)
    err = io.StringIO()
    start = time.perf_counter()
    try:
        status, error = compile_(argv, stdout=Sink(), stderr=err), None
    except BaseException as escaped:  # noqa: BLE001 - what escapes is what the campaign seeks
        status, error = None, _formatted(escaped)
    finally:
        faulthandler.cancel_dump_traceback_later()
    text = err.getvalue()
    return {"status": status, "error": error, "seconds": time.perf_counter() - start,
            "codes": sorted(set(CODE.findall(text))), "ice": _internal_error(),
            "ice_reported": "internal compiler error" in text}


def main() -> None:
    module, function = sys.argv[1].split(":")
    compile_ = getattr(importlib.import_module(module), function)
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # what escapes the streams the compiler is given goes nowhere
    stack = open("stack.txt", "w")
    faulthandler.enable(stack)  # a fatal signal writes the stacks there too
    _bound_memory(int(sys.argv[2]))
    for line in sys.stdin:
        request = json.loads(line)
        with open(request["name"], "wb") as fh:
            fh.write(base64.b64decode(request["data"]))
        answer = _phase(compile_, request["check"], request["check_bound"], stack)
        answer["phase"] = "check"
        if answer["status"] == 0 and answer["error"] is None and request["run"]:
            answers.write(json.dumps({"phase": "run"}) + "\n")
            answer = _phase(compile_, request["run"], request["run_bound"], stack)
            answer["phase"] = "run"
        answers.write(json.dumps(answer) + "\n")


if __name__ == "__main__":
    main()
