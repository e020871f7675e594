"""Native code built once per program: the sweeps (every example resumed from each of its
dumps, every example under several hash seeds) lower the same program to the same LLVM IR again
and again, and building that IR once, then running it each time, checks the same. Only the
build is shared: every run still goes through every pass to the IR, and the native code runs
every time, with the site table (print and stop sites, with their spans) of its own program."""

from __future__ import annotations

import dataclasses

from nano_vx.backend import jit
from nano_vx.backend.errors import BackendBug
from nano_vx.backend.mlir import to_llvm_ir
from nano_vx.values.sites import site_table

_build = jit.compile_native
_built: dict[tuple[str, int], jit.Native] = {}


def compile_native(program, opt_level: int = 2) -> jit.Native:
    """jit.compile_native, built once per (LLVM IR, level)."""
    try:
        key = (to_llvm_ir(program), opt_level)
    except BackendBug:  # the build refuses it, as it would have
        return _build(program, opt_level)
    if key not in _built:
        _built[key] = _build(program, opt_level)
    native = _built[key]
    return dataclasses.replace(native, sites=site_table(program))


def share_native_builds(monkeypatch=None) -> None:
    """Make the command line build each program's native code once in this process."""
    if monkeypatch is None:
        jit.compile_native = compile_native
    else:
        monkeypatch.setattr(jit, "compile_native", compile_native)
