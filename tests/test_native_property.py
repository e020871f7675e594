"""Property: native code computes what the program computes in the IL it was decided in. For
random well-formed programs (tests/fuzz/programs.py), the reference interpreter running the
program as type-scalars typed it (Lscalars, where every literal has its type, as Rust infers
it) prints what the native code prints and ends the same way: everything after type-scalars
(lift-closures, explicate-control, select-instructions, MLIR, LLVM at -O2, the JIT and its
runtime) keeps the meaning. The interpreter on the source types an untyped literal as it runs,
which for arithmetic between two literals under a typed context (`a * (4294967295 % 6)` with
`a: u32`) is not Rust's choice; programs outside that corner agree on every IL (the game)."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz.programs import programs
from nano_vx.backend.jit import run_native
from nano_vx.context import Compilation
from nano_vx.oracle import run_program
from nano_vx.parser import parse_text
from nano_vx.pipeline import NATIVE
from nano_vx.source import Source
from nano_vx.values.stops import RuntimeStop


def _compiled(text: str):
    """(the Lscalars tree, the Lmlir module), or None when a pass refuses the program."""
    tree, diagnostics = parse_text(text, "random.vx")
    ctx = Compilation(Source("random.vx", text), diagnostics)
    typed = None
    for p in NATIVE.passes[1:]:
        if diagnostics.has_errors:
            return None
        tree = p(tree, ctx)
        if p.name == "type-scalars":
            typed = tree
    return None if diagnostics.has_errors else (typed, tree)


def _ending(run, tree):
    out = io.StringIO()
    try:
        result = run(tree, out)
    except RuntimeStop as stop:
        return out.getvalue(), (stop.code, stop.message)
    return out.getvalue(), result


@pytest.mark.slow
@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs(size=24))
def test_native_code_runs_as_the_interpreter_runs_the_typed_program(text):
    compiled = _compiled(text)
    if compiled is None:  # the fuzz campaign judges refusals; here only runs compare
        return
    typed, module = compiled
    interpreted = _ending(lambda t, out: run_program(t, out=out), typed)
    native = _ending(lambda t, out: run_native(t, out, 2), module)
    assert native == interpreted, text
