"""Run an Lmlir program natively: MLIR to LLVM IR, optimized, compiled by MCJIT in this
process (so a build failure is raised here, with nothing started), then run in a child
process whose reports (runtime.py) this process turns into printed text, a RuntimeStop, or
main's value. The child is a fork of this process, or, once `use_runner()` asked for it, of
a small runner process (runner.py) that is sent the object code: a fork of a big process
costs its page tables and then a copy-on-write fault for each page it writes.

The child is what a crash of the native code takes down; this process survives to say so.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from dataclasses import dataclass
from typing import TextIO

from . import runtime
from .errors import BackendBug
from .mlir import to_llvm_ir
from ..values.sites import site_table
from .softfloat import link_softfloat

# What LLVM's code generator may call besides what the IR declares: memref.copy's memcpy
# and its kin, remf's fmod. (Its f16 and bf16 conversions are defined in every module:
# softfloat.py.)
LIBCALLS = ("memcpy", "memmove", "memset", "fmod", "fmodf")



@dataclass
class Native:
    """A program compiled to machine code: `main` calls it; `engine` owns the code, and
    `code` is its object file, `result` main's result type (None for none), for a runner."""
    engine: object
    main: object
    code: bytes
    result: str | None
    sites: dict


# The runner the native runs go to (runner.py), once use_runner() asked for one.
_runner = {"wanted": False}


def use_runner(wanted: bool = True) -> None:
    """Run native code in a runner process from now on (or, `wanted` False, in forks of
    this process again): for a process that is big and runs many programs, as a test worker
    does."""
    _runner["wanted"] = wanted


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
            any(t not in runtime.RESULT for t in main.results):
        raise BackendBug("the program has no `main` of type () -> () or () -> iN")
    module, tm = optimize(to_llvm_ir(program), opt_level, cpu)
    llvm = binding()
    link_softfloat(module, llvm)
    runtime.register(llvm)
    declared = [f.name for f in module.functions
                if f.is_declaration and not f.name.startswith("llvm.")]
    objects = []
    try:
        engine = llvm.create_mcjit_compiler(module, tm)  # makes the process's symbols known
        engine.set_object_cache(lambda _, code: objects.append(code), lambda _: None)
        # MCJIT links a symbol it cannot find as a null address: refuse before running it.
        missing = [name for name in (*declared, *LIBCALLS)
                   if not llvm.address_of_symbol(name)]
        if missing:
            raise BackendBug(f"native code would call {', '.join(missing)}, which this "
                             f"process does not have")
        engine.finalize_object()
    except RuntimeError as error:
        raise BackendBug(f"MCJIT could not compile the program: {error}") from error
    result = main.results[0] if main.results else None
    entry = ctypes.CFUNCTYPE(runtime.RESULT.get(result))(engine.get_function_address("main"))
    return Native(engine, entry, b"".join(objects), result, site_table(program))


def run_native(program, out: TextIO, opt_level: int = 2) -> int:
    """Run the program's main natively; its printed text goes to `out`. Returns main's value
    (0 when it has none), or raises the RuntimeStop the program stopped with."""
    return run_compiled(compile_native(program, opt_level), out)


def run_compiled(native: Native, out: TextIO) -> int:
    """Run a compiled program's main in a child process, as run_native does."""
    out.flush()  # the child must not inherit text this process has yet to write
    if _runner["wanted"]:
        from .runner import run_in_runner

        return run_in_runner(native, out)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        runtime.run_main(native.main, native.sites, write_end, runtime.checking_frees())
    os.close(write_end)
    try:
        reported = runtime.relay(read_end, out)
        _, status = os.waitpid(pid, 0)
        pid = None
    finally:
        if pid is not None:  # this process failed while the child ran (^C, a closed `out`)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return runtime.outcome(reported, status, native.sites)
