"""The runtime native code calls (docs/backend.md): vx_print, vx_stop and vx_check_alloc, as
C callbacks, and the reports they send from the child process that runs the code to the
process that waits for it (jit.py; runner.py's runner forks the child, and its parent reads
the reports).

A report is a frame: a tag byte, the payload's length (8 bytes), the payload.
  P  text printed (UTF-8)            S  a stop: site, a, b (=iqq), the words it reads
  R  main's value (=q)               E  the child failed in Python: its traceback (UTF-8)
  F  a free the checked mode refused (UTF-8): which buffer, and why

NANO_VX_CHECK_FREES=1 in the environment of the process that runs a program asks for the
checked mode of the allocator (docs/backend.md, Memory): a tool to test the drop passes
with, not a user's option.
"""

from __future__ import annotations

import ctypes
import faulthandler
import mmap
import os
import resource
import signal
import sys
import struct
import traceback
from typing import TextIO

from .errors import BackendBug
from ..values.sites import allocation_limit, printed, reads_words, stopped

_FRAME = struct.Struct("=cQ")
_STOP = struct.Struct("=iqq")
_VALUE = struct.Struct("=q")
_U64_MASK = (1 << 64) - 1
_PR_SET_PDEATHSIG = 1
# main's result types, as ctypes calls it.
RESULT = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
          "i32": ctypes.c_int32, "i64": ctypes.c_int64}

# Only the child runs native code, so only the child sets this: the sites and the pipe's
# write end of the run in progress.
_run: dict = {}


def checking_frees() -> bool:
    """Whether this process's runs free in the checked mode (the parent's environment
    decides: a runner started before it changed must still follow it)."""
    return os.environ.get("NANO_VX_CHECK_FREES") == "1"


def run_main(main, sites: dict, fd: int, checked: bool = False) -> None:
    """In the child, just forked: run main() and report its value to `fd`, `sites` saying
    what the print sites print, its buffers freed in the checked mode if `checked`. Never
    returns (os._exit skips the cleanup and buffers the child inherited, which belong to
    its parent)."""
    # A crash is the parent's to report; a faulthandler here would dump the Python stack
    # the child inherited, which says nothing about the native code.
    faulthandler.disable()
    if sys.platform.startswith("linux"):  # the parent killed, the run goes with it
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    try:
        _run["sites"], _run["fd"], _run["checked"] = sites, fd, checked
        if checked:  # a fault is expected there, not a core to write
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        send_result(int(main() or 0))
    except BaseException:  # noqa: BLE001 - the parent reports it as a bug
        fail()
    os._exit(0)


def send(tag: bytes, payload: bytes) -> None:
    frame = _FRAME.pack(tag, len(payload)) + payload
    while frame:
        frame = frame[os.write(_run["fd"], frame):]


def send_result(value: int) -> None:
    send(b"R", _VALUE.pack(value))


def fail() -> None:
    """Report the exception being handled and end the child: a failure in the runtime is
    the compiler's bug, and the native code cannot go on past it. Never returns."""
    try:
        send(b"E", traceback.format_exc().encode())
    finally:
        os._exit(70)


def _guarded(fn):
    """A callback that reports its own failure: ctypes would print and drop an exception
    raised in a callback, and the native code would run on."""
    def callback(*args):
        try:
            fn(*args)
        except BaseException:  # noqa: BLE001 - anything here ends the run as a bug
            fail()
    return callback


def _print(site: int, payload: int) -> None:
    text = printed(_run["sites"][site], payload, ctypes.string_at)
    send(b"P", (text + "\n").encode())


def _stop(site: int, a: int, b: int) -> None:
    # The words are in the child's memory: they go with the stop to the parent.
    words = ctypes.string_at(a, 8 * b) if reads_words(_run["sites"][site].message) else b""
    send(b"S", _STOP.pack(site, a, b) + words)
    os._exit(0)


def _check_alloc(site: int, size: int) -> None:
    if size & _U64_MASK > allocation_limit():
        _stop(site, size, 0)


# A tensor's buffer: anonymous pages, zero until written, reserved neither in memory nor in
# swap (MAP_NORESERVE), so a 50 GiB tensor costs what is written of it, as in the
# interpreter. The address range itself may still be refused: then the code's null check
# stops the program with the tensor's name and size.
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                       ctypes.c_int, ctypes.c_long)
_MAP_FAILED = ctypes.c_void_p(-1).value


# Python's mmap module names MAP_NORESERVE only from 3.13; Linux's value is 0x4000.
_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)
_FLAGS = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _NORESERVE


_libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
# The length of each buffer mapped and not yet given back, by address: munmap needs it, and
# memref.dealloc passes only the address.
_mapped: dict = {}


def _alloc(size: int) -> int:
    size = max(size, 1)
    address = _libc.mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE, _FLAGS, -1, 0)
    if address in (None, _MAP_FAILED):
        return 0
    _mapped[address] = size
    return address


def _free(address: int | None) -> None:
    """Unmap a buffer insert-drops found dead: a read of it after this faults."""
    if _run.get("checked"):
        _free_checked(address)
        return
    size = _mapped.pop(address, None)
    if size is not None:
        _libc.munmap(address, size)


_MADV_DONTNEED, _PROT_NONE = getattr(mmap, "MADV_DONTNEED", 4), 0
_libc.mprotect.argtypes = _libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t,
                                                    ctypes.c_int)
# The checked mode's buffers given back, by address: they stay mapped, so no later buffer
# takes their addresses and a second free of one is told from a free of an unknown address.
_freed: dict = {}


def _free_checked(address: int | None) -> None:
    """Free in the checked mode: the buffer keeps its address range, its pages made
    inaccessible (a later read or write faults, which the parent reports as the drop
    passes' bug) and their memory released; a second free, or a free of an address the
    allocator never gave, ends the run as the drop passes' bug."""
    size = _mapped.pop(address, None)
    if size is None:
        what = "freed twice" if address in _freed else "never allocated"
        send(b"F", f"the buffer at {address or 0:#x} is given back but was {what}".encode())
        os._exit(70)
    if _libc.madvise(address, size, _MADV_DONTNEED) or \
            _libc.mprotect(address, size, _PROT_NONE):
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    _freed[address] = size


_ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint64)(_alloc)
_FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(_guarded(_free))

_PRINT = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int64)(_guarded(_print))
_STOP_FN = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int64, ctypes.c_int64)(
    _guarded(_stop))
_CHECK_ALLOC = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int64)(_guarded(_check_alloc))
FUNCTIONS = {"vx_print": _PRINT, "vx_stop": _STOP_FN, "vx_check_alloc": _CHECK_ALLOC}
ALLOCATOR = {"_mlir_memref_to_llvm_alloc": _ALLOC, "_mlir_memref_to_llvm_free": _FREE}


def register(llvm) -> None:
    """Make the runtime's functions known to LLVM's symbol resolution, which MCJIT consults
    when it links the compiled code (so before the engine is finalized)."""
    for name, fn in {**FUNCTIONS, **ALLOCATOR}.items():
        llvm.add_symbol(name, ctypes.cast(fn, ctypes.c_void_p).value)


class Reports:
    """The parent's side: frames decoded as the bytes arrive."""

    def __init__(self):
        self.buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        """The frames the data completes, as (tag, payload); a partial one waits."""
        self.buffer += data
        frames, start = [], 0
        while len(self.buffer) - start >= _FRAME.size:
            tag, size = _FRAME.unpack_from(self.buffer, start)
            end = start + _FRAME.size + size
            if len(self.buffer) < end:
                break
            frames.append((tag, bytes(self.buffer[start + _FRAME.size:end])))
            start = end
        del self.buffer[:start]  # once per read: a program printing much sends many frames
        return frames

    def pending(self) -> bool:
        """Bytes of a frame the child never finished."""
        return bool(self.buffer)


def relay(fd: int, out: TextIO):
    """Read the child's reports from `fd` until it closes, writing printed text to `out`:
    the reports (Reports) and the last that was not printed text, if any."""
    reports = Reports()
    last = None
    try:
        while data := os.read(fd, 1 << 16):
            for tag, payload in reports.feed(data):
                if tag == b"P":
                    out.write(payload.decode())
                else:
                    last = (tag, payload)
    finally:
        os.close(fd)
    return reports, last


def outcome(reported, status: int, sites: dict) -> int:
    """Main's value, from the child's reports (relay's) and its wait status; or the
    RuntimeStop it stopped with, or the BackendBug of its crash."""
    reports, last = reported
    tag, payload = last or (None, b"")
    if tag == b"S":
        site, a, b = _STOP.unpack_from(payload)
        raise stopped(sites[site], a, b, lambda address, nbytes: payload[_STOP.size:])
    if tag == b"R" and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return _VALUE.unpack(payload)[0]
    if tag == b"E":
        raise BackendBug(f"the runtime failed in the native run:\n{payload.decode()}")
    if tag == b"F":
        raise BackendBug(f"the drop passes freed wrongly: {payload.decode()}")
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number in (signal.SIGSEGV, signal.SIGBUS) and checking_frees():
            raise BackendBug(f"the native code died of signal {number} "
                             f"({signal.Signals(number).name}) in the checked mode of "
                             f"frees: a read or write of a buffer the drop passes gave "
                             f"back, most likely")
        raise BackendBug(f"the native code died of signal {number} "
                         f"({signal.Signals(number).name}: {signal.strsignal(number)})")
    raise BackendBug(f"the native run exited with status {os.waitstatus_to_exitcode(status)} "
                     f"without reporting main's value"
                     + (" (it left a report unfinished)" if reports.pending() else ""))
