"""Run an Lmlir program natively: MLIR to LLVM IR, optimized, compiled by MCJIT in this
process (so a build failure is raised here, with nothing forked), then run in a forked child
whose reports (runtime.py) the parent turns into printed text, a RuntimeStop, or main's value.

The child is what a crash of the native code takes down; the parent survives to say so.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import os
import signal
import sys
from dataclasses import dataclass
from typing import TextIO

from . import runtime
from .errors import BackendBug
from .mlir import to_llvm_ir
from ..values.sites import site_table, stopped
from .softfloat import link_softfloat

# What LLVM's code generator may call besides what the IR declares: memref.copy's memcpy
# and its kin, remf's fmod. (Its f16 and bf16 conversions are defined in every module:
# softfloat.py.)
LIBCALLS = ("memcpy", "memmove", "memset", "fmod", "fmodf")

_PR_SET_PDEATHSIG = 1
_RESULT = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
           "i32": ctypes.c_int32, "i64": ctypes.c_int64}


@dataclass
class Native:
    """A program compiled to machine code: `main` calls it; `engine` owns the code."""
    engine: object
    main: object
    sites: dict


def compile_native(program, opt_level: int = 2, cpu: str | None = None) -> Native:
    """The program compiled for this host (or `cpu`, an LLVM CPU name, which this host must
    be able to run) at -O`opt_level`, linked against the runtime."""
    from .llvm import binding, optimize

    unknown = {item.name for item in program.items if item._prod == "Declare"} \
        - set(runtime.FUNCTIONS)
    if unknown:  # select-instructions declares the runtime's functions and nothing else
        raise BackendBug(f"the program declares {', '.join(sorted(unknown))}, which the "
                         f"runtime does not provide")
    main = next((item for item in program.items
                 if item._prod == "Func" and item.name == "main"), None)
    if main is None or main.args or len(main.results) > 1 or \
            any(t not in _RESULT for t in main.results):
        raise BackendBug("the program has no `main` of type () -> () or () -> iN")
    module, tm = optimize(to_llvm_ir(program), opt_level, cpu)
    llvm = binding()
    link_softfloat(module, llvm)
    runtime.register(llvm)
    declared = [f.name for f in module.functions
                if f.is_declaration and not f.name.startswith("llvm.")]
    try:
        engine = llvm.create_mcjit_compiler(module, tm)  # makes the process's symbols known
        # MCJIT links a symbol it cannot find as a null address: refuse before running it.
        missing = [name for name in (*declared, *LIBCALLS)
                   if not llvm.address_of_symbol(name)]
        if missing:
            raise BackendBug(f"native code would call {', '.join(missing)}, which this "
                             f"process does not have")
        engine.finalize_object()
    except RuntimeError as error:
        raise BackendBug(f"MCJIT could not compile the program: {error}") from error
    restype = _RESULT[main.results[0]] if main.results else None
    entry = ctypes.CFUNCTYPE(restype)(engine.get_function_address("main"))
    return Native(engine, entry, site_table(program))


def run_native(program, out: TextIO, opt_level: int = 2) -> int:
    """Run the program's main natively; its printed text goes to `out`. Returns main's value
    (0 when it has none), or raises the RuntimeStop the program stopped with."""
    return run_compiled(compile_native(program, opt_level), out)


def run_compiled(native: Native, out: TextIO) -> int:
    """Run a compiled program's main in a forked child, as run_native does."""
    out.flush()  # the child must not inherit text the parent has yet to write
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(native, write_end)
    os.close(write_end)
    return _parent(pid, read_end, out, native.sites)


def _child(native: Native, fd: int) -> None:
    """Run main and report its value; never returns (os._exit skips the parent's cleanup
    and buffers, which belong to the parent)."""
    # A crash is the parent's to report; a faulthandler here would dump the Python stack
    # the child inherited, which says nothing about the native code.
    faulthandler.disable()
    if sys.platform.startswith("linux"):  # the parent killed, the run goes with it
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    try:
        runtime.start(native.sites, fd)
        runtime.send_result(int(native.main() or 0))
    except BaseException:  # noqa: BLE001 - the parent reports it as a bug
        runtime.fail()
    os._exit(0)


def _parent(pid: int, fd: int, out: TextIO, sites: dict) -> int:
    reports = runtime.Reports()
    outcome = None
    try:
        while data := os.read(fd, 1 << 16):
            for tag, payload in reports.feed(data):
                if tag == b"P":
                    out.write(payload.decode())
                else:
                    outcome = (tag, payload)
        _, status = os.waitpid(pid, 0)
        pid = None
    finally:
        os.close(fd)
        if pid is not None:  # the parent failed while the child ran (^C, a closed `out`)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return _outcome(outcome, status, reports, sites)


def _outcome(outcome, status: int, reports, sites: dict) -> int:
    tag, payload = outcome or (None, b"")
    if tag == b"S":
        site, a, b = runtime.decode_stop(payload)
        raise stopped(sites[site], a, b)
    if tag == b"R" and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return runtime.decode_result(payload)
    if tag == b"E":
        raise BackendBug(f"the runtime failed in the native run:\n{payload.decode()}")
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        raise BackendBug(f"the native code died of signal {number} "
                         f"({signal.Signals(number).name}: {signal.strsignal(number)})")
    raise BackendBug(f"the native run exited with status {os.waitstatus_to_exitcode(status)} "
                     f"without reporting main's value"
                     + (" (it left a report unfinished)" if reports.pending() else ""))
