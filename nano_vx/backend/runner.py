"""A small process that runs native code for a big one (jit.use_runner): the big process
compiles, sends the runner the object code MCJIT made, its sites and the write end of
a pipe; the runner forks a child that loads the code and runs main, reporting to the pipe
(runtime.py) as a fork of the big process would; the runner then sends the child's wait
status. A fork of the runner is cheap where one of a test process of 400 MB or more costs
its page tables and a copy-on-write fault for each page the test writes afterwards.

The child is what a crash of the native code takes down. A process that fails while a run
is under way (a time limit, ^C, a closed `out`) kills its runner, and the child goes with it
(its parent-death signal); the next run starts a new runner. A runner whose process ends
sees its socket close, kills the child it waits for and ends.

Linux only (a pidfd tells the runner its child ended), as the parent-death signal is.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import pickle
import selectors
import signal
import socket
import struct
import subprocess
import sys
from collections import namedtuple
from pathlib import Path
from typing import TextIO

from . import runtime
from .errors import BackendBug

_LENGTH = struct.Struct("=Q")
_STATUS = struct.Struct("=i")
# What vx_print reads of a print site (values/sites.py, printed), and vx_stop of a stop site
# (whether its message reads words from the child's memory, runtime.py).
PrintSite = namedtuple("PrintSite", "kind type text dims")
StopSite = namedtuple("StopSite", "message")

# This process's runner: the process, and the socket to it.
_current: dict = {}


def run_in_runner(native, out: TextIO) -> int:
    """Run a compiled program (jit.Native) in this process's runner, as jit.run_compiled
    runs it in a fork of this process."""
    runner = _current.get("runner")
    if runner is None or runner.process.poll() is not None or runner.owner != os.getpid():
        runner = _current["runner"] = _Runner()
    finished = False
    try:
        read_end = runner.send(native)
        reported = runtime.relay(read_end, out)
        status = runner.status()
        finished = True
    finally:
        if not finished:
            runner.kill()
            del _current["runner"]
    return runtime.outcome(reported, status, native.sites)


class _Runner:
    def __init__(self):
        self.owner = os.getpid()
        self.socket, theirs = socket.socketpair()
        # The runner imports this nano_vx, wherever it is, whatever the import path says.
        root = str(Path(__file__).resolve().parents[2])
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"import sys; sys.path.insert(0, {root!r}); "
                                   f"from nano_vx.backend.runner import serve; "
                                   f"serve({theirs.fileno()})"],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            start_new_session=True)  # ^C at a terminal is this process's to handle
        theirs.close()
        atexit.register(self.close)

    def send(self, native) -> int:
        """Send the program and a pipe's write end; the read end, for the child's reports."""
        sites = {i: PrintSite(s.kind, s.type, s.text, tuple(s.dims)) if s._prod == "PrintSite"
                 else StopSite(s.message) for i, s in native.sites.items()}
        request = pickle.dumps((native.code, native.result, sites, runtime.checking_frees()))
        read_end, write_end = os.pipe()
        try:
            socket.send_fds(self.socket, [_LENGTH.pack(len(request))], [write_end])
            self.socket.sendall(request)
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        return read_end

    def status(self) -> int:
        """The wait status of the child that ran the program."""
        data = _receive(self.socket, _STATUS.size)
        if data is None:
            raise BackendBug(f"the native runner ended (exit status "
                             f"{self.process.wait()}) without the run's status")
        return _STATUS.unpack(data)[0]

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.close()

    def close(self) -> None:
        """End the runner: it sees its socket close."""
        self.socket.close()
        self.process.wait()


def _receive(sock: socket.socket, size: int) -> bytes | None:
    """Exactly `size` bytes, or None when the other end closed first."""
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def serve(fd: int) -> None:
    """The runner: a run for each request on the socket `fd`, until it closes."""
    from .llvm import binding, target_machine

    sock = socket.socket(fileno=fd)
    llvm = binding()
    runtime.register(llvm)
    # Each child adds its object to this engine. Making it makes the process's symbols known
    # to LLVM, once, before any fork.
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), target_machine(0))
    engine.finalize_object()
    while True:
        header, fds, _, _ = socket.recv_fds(sock, _LENGTH.size, 1)
        if not header:
            return
        rest = _receive(sock, _LENGTH.size - len(header))
        request = rest is not None and _receive(sock, _LENGTH.unpack(header + rest)[0])
        if not request:
            return
        code, result, sites, checked = pickle.loads(request)

        def main():
            engine.add_object_file(llvm.ObjectFileRef.from_data(code))
            engine.finalize_object()
            address = engine.get_function_address("main")
            return ctypes.CFUNCTYPE(runtime.RESULT.get(result))(address)()

        pid = os.fork()
        if pid == 0:
            sock.close()
            runtime.run_main(main, sites, fds[0], checked)
        os.close(fds[0])
        status = _wait(pid, sock)
        if status is None:
            return
        sock.sendall(_STATUS.pack(status))


def _wait(pid: int, sock: socket.socket) -> int | None:
    """The child's wait status; None when the socket closed first (the child killed)."""
    with selectors.DefaultSelector() as selector:
        pidfd = os.pidfd_open(pid)
        selector.register(pidfd, selectors.EVENT_READ)
        selector.register(sock, selectors.EVENT_READ)
        try:
            ready = {key.fileobj for key, _ in selector.select()}
        finally:
            os.close(pidfd)
    if pidfd not in ready:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return None
    return os.waitpid(pid, 0)[1]
