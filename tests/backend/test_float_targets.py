"""Vx programs that compute with bf16 and f16 near and below their smallest normals (where an
instruction that reads subnormals as zero, or flushes them, differs from IEEE rounding), as
scalars and as vectors' lanes, print
what the interpreter prints, compiled for each x86-64 CPU this host can run code for; and the
code for every CPU LLVM knows, run here or not, has no instruction on bf16 (AVX512-BF16's,
AVX-NE-CONVERT's, AVX10.2's) and no call of a bf16 rounding routine: it rounds inline."""

from __future__ import annotations

import functools
import io
import re

import pytest
from cpus import READ, RUN, skip_unless_runnable

from nano_vx.backend.jit import compile_native, run_compiled
from nano_vx.backend.llvm import optimize
from nano_vx.backend.mlir import to_llvm_ir
from nano_vx.context import Compilation
from nano_vx.oracle import run_program
from nano_vx.parser import parse_text
from nano_vx.pipeline import NATIVE
from nano_vx.source import Source

# Slow (the whole suite's, not the inner loop's): programs compiled for each x86-64 CPU.
pytestmark = pytest.mark.slow

# k * 2^-149 is the f32 with integer significand k, exactly (k < 2^24): every bf16 subnormal
# and smallest normal is 2^16 of them apart, so these are the f32s at, next to and either side
# of the midpoint to each, of both signs.
BF16 = """
fn main() {
  let tiny: f32 = 0.000000000000000000000000000000000000000000001401298464324817;
  let half: bf16 = 0.5;
  for high in 0..256 {
    for mid in 0..2 {
      for low in -2..3 {
        let x: f32 = ((high * 65536 + mid * 32768 + low) as f32) * tiny;
        let b = x as bf16;
        print(b);
        print((x as f64) as bf16);
        print(b + b);
        print(b * half);
        print(b - (x * 0.75) as bf16);
        print(max(b, b * half));
        let v = vec<2 x bf16>(b, -b);
        print(v + v - vec<2 x bf16>(b, half));
        print(v * vec<2 x bf16>(half, b));
        print(b as f32);
        print(b as f64);
      }
    }
  }
}
"""

# The same for f16, whose subnormals are k * 2^-24 (2^11 f32 steps of 2^-35 apart), every
# third and the last few of them, and the smallest normals.
F16 = """
fn main() {
  let tiny: f32 = 0.0000000000291038304567337;
  let half: f16 = 0.5;
  for high in 0..1040 {
    if high % 3 == 0 || high > 1016 {
      for mid in 0..2 {
        for low in -2..3 {
          let x: f32 = ((high * 2048 + mid * 1024 + low) as f32) * tiny;
          let h = x as f16;
          print(h);
          print((x as f64) as f16);
          print(h + h);
          print(h * half);
          print(h - (x * 0.75) as f16);
          let v = vec<2 x f16>(h, -h);
          print(v + v - vec<2 x f16>(h, half));
          print(v * vec<2 x f16>(half, h));
          print(h as f32);
          print(h as f64);
        }
      }
    }
  }
}
"""
PROGRAMS = {"bf16": BF16, "f16": F16}


@functools.cache
def _compiled(name: str):
    """(the program as the interpreter runs it, its Lmlir module)."""
    text = PROGRAMS[name]
    tree, diagnostics = parse_text(text, f"{name}.vx")
    ctx = Compilation(Source(f"{name}.vx", text), diagnostics)
    source_tree = tree
    for p in NATIVE.passes[1:]:
        tree = p(tree, ctx)
    assert not diagnostics.has_errors, diagnostics.render()
    return source_tree, tree


@functools.cache
def _interpreted(name: str) -> str:
    out = io.StringIO()
    assert run_program(_compiled(name)[0], out=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("cpu", [*RUN, None], ids=[*RUN, "host"])
def test_native_code_for_each_cpu_prints_what_the_interpreter_prints(name, cpu):
    skip_unless_runnable(cpu)
    out = io.StringIO()
    assert run_compiled(compile_native(_compiled(name)[1], 2, cpu), out) == 0
    printed, expected = out.getvalue().splitlines(), _interpreted(name).splitlines()
    assert len(printed) == len(expected)
    wrong = [(i, got, want) for i, (got, want) in enumerate(zip(printed, expected))
             if got != want]
    assert wrong == []


_INSTRUCTION = re.compile(r"^\t(?:\{\w+\}\s*)?([a-z][a-z0-9]*)", re.M)


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("cpu", [*RUN, *READ])
def test_the_code_for_every_cpu_rounds_to_bf16_inline_without_bf16_instructions(name, cpu):
    module, tm = optimize(to_llvm_ir(_compiled(name)[1]), 2, cpu)
    assembly = tm.emit_assembly(module)
    mnemonics = set(_INSTRUCTION.findall(assembly))
    assert mnemonics and not {m for m in mnemonics if "bf16" in m}
    assert "__truncsfbf2" not in assembly and "__truncdfbf2" not in assembly
