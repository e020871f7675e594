"""stdout and stderr as `nano-vx` writes them: a write that fails is one line, not a
traceback."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO


class OutputError(Exception):
    """stdout or stderr cannot be written: a full disk (`> /dev/full`) or a closed
    descriptor (`>&-`)."""


class GuardedStream:
    """A standard stream whose write errors become one OutputError naming the stream. A
    stream closed before start-up (sys.stdout is None) fails on its first write only, so
    `nano-vx prog.vx --action check >&-` still succeeds when it prints nothing."""

    def __init__(self, stream: TextIO | None, name: str):
        self.stream = stream
        self.name = name
        self.failed = False

    def _call(self, method: str, *args):
        if self.stream is None:
            self.failed = True
            raise OutputError(f"cannot write to {self.name}: it is closed")
        try:
            return getattr(self.stream, method)(*args)
        except BrokenPipeError:
            raise  # the reader went away: entry stops quietly
        except OSError as err:
            self.failed = True
            raise OutputError(f"cannot write to {self.name}: {err.strerror or err}") from err

    def write(self, text: str) -> int:
        return self._call("write", text)

    def flush(self) -> None:
        if self.stream is not None:  # nothing was written to a closed stream
            self._call("flush")

    def fileno(self) -> int:
        if self.stream is None:
            raise OSError("the stream is closed")
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()


def drop_stdout() -> None:
    """Point stdout at /dev/null, so that Python's own flush at exit does not complain
    again about the buffer it could not write."""
    if sys.stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def say(stderr: GuardedStream, text: str) -> None:
    """A last word on stderr, unless stderr is what failed."""
    with contextlib.suppress(OSError, OutputError):
        stderr.write(text)
        stderr.flush()
