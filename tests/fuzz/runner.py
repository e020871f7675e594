"""Put one input through the whole pipeline, as `nano-vx` would, under a time and a memory
bound, and say how it ended.

A `Runner` keeps one worker process (`fuzz.worker`) and hands it inputs one at a time, each
in its `Form`: a program or a front-end dump is `nano-vx FILE --action check`, then, when
admitted, `nano-vx FILE`, which runs it; a spatial program or a dump of the spatial lane is
`nano-vx spatial FILE --target wormhole`, which validates every pass of the lane on it. The compiler keeps its promise when the check ends with
exit status 0, 1 or 2 and neither phase lets an exception out, reports an internal error,
runs past its time bound or past the memory bound. A worker that hung, crashed or ran out of
memory is replaced before the next input.

Each failure gets a key, the same for the same bug: the kind, the exception's type and the
innermost frame of the project for an exception, the outermost pass (or interpreter) frame
for a hang or a memory failure (of the 100 innermost frames a stack dump shows).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAILURES = ("traceback", "internal error", "exit status", "hang", "memory", "crash")
GRACE = 5.0  # seconds the worker has past its bound to write its stacks and exit
FRAME = re.compile(r'File "([^"]+)", line (\d+),? in (\S+)')
PASS_DIRS = ("nano_vx/passes/", "nano_vx/oracle/", "nano_vx/parser/", "nano_vx/resume/",
             "nano_vx/spatial_passes/", "nano_vx/spatial/")
WORKER = "fuzz/worker.py"


@dataclass(frozen=True)
class Form:
    """How an input reaches nano-vx: the file it is written to, the command line of its check
    and of the run of an admitted input (None: the check is the whole of it)."""
    name: str
    check: tuple[str, ...]
    run: tuple[str, ...] | None


def _front(name: str) -> Form:
    return Form(name, (name, "--action", "check"), (name,))


PROGRAM = _front("input.vx")
TEXT_DUMP = _front("input.txt")
JSON_DUMP = _front("input.json")
SPATIAL = Form("input.sdf", ("spatial", "input.sdf", "--target", "wormhole"), None)
SPATIAL_DUMP = Form("input.txt", ("spatial", "input.txt", "--target", "wormhole"), None)


@dataclass(frozen=True)
class Outcome:
    kind: str  # "admitted", "refused", "ran past bound" (a mutant's endless program), or a failure
    phase: str  # "check" or "run"
    status: int | None = None
    codes: tuple[str, ...] = ()
    seconds: float = 0.0
    detail: str = ""  # the traceback, or the stacks of a hang or a crash
    key: str = ""

    @property
    def failed(self) -> bool:
        return self.kind in FAILURES

    def report(self) -> str:
        return f"{self.key} (exit status {self.status}, {self.phase})\n{self.detail}"


def project_frames(text: str) -> list[tuple[str, str]]:
    """(path relative to the repository, function) of each frame of the project in the
    last traceback (or the busiest thread's stack) in `text`, outermost first."""
    blocks = re.split(r"Traceback \(most recent call last\):|Thread 0x|Current thread 0x", text)
    frames_of = [[(Path(f).resolve(), fn) for f, _, fn in FRAME.findall(b)] for b in blocks]
    if "Traceback" in text:
        frames = frames_of[-1]
    else:  # a faulthandler dump lists each thread's stack innermost first
        frames = list(reversed(max(frames_of, key=len)))
    out = []
    for path, fn in frames:
        if path.is_relative_to(ROOT) and not str(path).endswith(WORKER):
            out.append((str(path.relative_to(ROOT)), fn))
    return out


def exception_type(text: str) -> str:
    last = [line for line in text.strip().splitlines() if line and not line.startswith(" ")]
    return last[-1].split(":", 1)[0].strip() if last else "?"


def _where(frames: list[tuple[str, str]], innermost: bool) -> str:
    if not frames:
        return "outside the project"
    if not innermost:
        passes = [f for f in frames if f[0].startswith(PASS_DIRS)]
        frames = passes[:1] or frames[-1:]
    path, fn = frames[-1]
    return f"{path}:{fn}"


def failure_key(kind: str, phase: str, detail: str, status: int | None = None) -> str:
    if kind == "exit status":
        return f"exit status {status} from {phase}"
    if kind in ("traceback", "internal error"):
        at = _where(project_frames(detail), innermost=True)
        return f"{kind}: {exception_type(detail)} at {at}"
    return f"{kind} in {phase} at {_where(project_frames(detail), innermost=False)}"


class Runner:
    """One worker process and the bounds it runs each input under."""

    def __init__(self, check_bound: float = 10.0, run_bound: float = 10.0,
                 memory: int = 2 * 1024**3, entry: str = "nano_vx.cli:main"):
        self.check_bound = check_bound
        self.run_bound = run_bound
        self.memory = memory  # bytes beyond the worker's own, the deep stack's 512 MiB included
        self.entry = entry
        self.home = tempfile.mkdtemp(prefix="vx-fuzz-")
        self.proc: subprocess.Popen | None = None
        self.buffer = b""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._stop()
        shutil.rmtree(self.home, ignore_errors=True)

    def run(self, data: bytes, run: bool = True, terminates: bool = False,
            form: Form = PROGRAM) -> Outcome:
        """How `data` ends, given in `form`: checked, and run when admitted, `run` and the form
        has a run. A run past its bound is a failure only when the program `terminates` by
        construction."""
        request = {"data": base64.b64encode(data).decode(), "name": form.name,
                   "check": list(form.check), "run": list(form.run) if run and form.run else None,
                   "check_bound": self.check_bound, "run_bound": self.run_bound}
        self._send((json.dumps(request) + "\n").encode())
        phase, started = "check", time.monotonic()
        deadline = started + self.check_bound + GRACE
        while True:
            line = self._read_line(deadline)
            if not line:
                return self._lost(phase, terminates, time.monotonic() - started, line is None)
            answer = json.loads(line)
            if set(answer) == {"phase"}:
                phase, deadline = "run", time.monotonic() + self.run_bound + GRACE
                continue
            outcome = self._judge(answer)
            if outcome.kind in ("memory", "crash"):
                self._stop()
            return outcome

    # -- the answer ------------------------------------------------------------------------

    def _judge(self, answer: dict) -> Outcome:
        phase, status = answer["phase"], answer["status"]
        error = answer["error"] or answer["ice"] or ""
        common = {"phase": phase, "status": status, "codes": tuple(answer["codes"]),
                  "seconds": answer["seconds"]}
        if answer["error"] is not None or (answer["ice_reported"] and status == 70):
            kind = "traceback" if answer["error"] is not None else "internal error"
            if exception_type(error) == "MemoryError":
                kind = "memory"
        elif phase == "check" and status not in (0, 1, 2):
            kind = "exit status"
        else:
            kind = "admitted" if status == 0 or phase == "run" else "refused"
            return Outcome(kind, **common)
        detail = error or f"exit status {status}"
        return Outcome(kind, detail=detail, key=failure_key(kind, phase, detail, status), **common)

    def _lost(self, phase: str, terminates: bool, seconds: float, silent: bool) -> Outcome:
        """The worker stayed `silent` past the deadline, or ended: past its bound (having
        written its stacks) or by dying."""
        self._stop(kill=silent)
        stacks = Path(self.home, "stack.txt").read_text(errors="replace")
        if silent or "Timeout (" in stacks:
            kind = "hang" if phase == "check" or terminates else "ran past bound"
        else:
            kind = "crash"
            stacks += Path(self.home, "worker.err").read_text(errors="replace")[-4000:]
        key = failure_key(kind, phase, stacks) if kind in FAILURES else ""
        return Outcome(kind, phase, seconds=seconds, detail=stacks, key=key)

    # -- the worker ------------------------------------------------------------------------

    def _send(self, line: bytes) -> None:
        for _ in range(2):
            self._start()
            try:
                self.proc.stdin.write(line)
                self.proc.stdin.flush()
                return
            except BrokenPipeError:  # the worker died between inputs: a new one takes it
                self._stop(kill=True)
        raise RuntimeError(f"the fuzz worker does not start: see {self.home}/worker.err")

    def _start(self) -> None:
        if self.proc is not None:
            return
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT), str(ROOT / "tests"), *filter(None, [env.get("PYTHONPATH")])])
        with open(Path(self.home, "worker.err"), "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "fuzz.worker", self.entry, str(self.memory)],
                cwd=self.home, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=err)
        self.buffer = b""

    def _stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        if kill:
            self.proc.kill()
        with contextlib.suppress(BrokenPipeError):  # a dead worker leaves the pipe broken
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=GRACE)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.proc = None

    def _read_line(self, deadline: float) -> bytes | None:
        """The worker's next line; b"" when it ended, None when the deadline passed."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b""
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line
