"""The MLIR stage with the real bindings: the text parses and verifies, transfers become
copies, bf16 conversions go through f32, bf16 arithmetic runs in f32 and rounds to bf16 in
integer operations, the pipeline reaches the LLVM dialect, and what
MLIR refuses is a BackendBug naming MLIR's diagnostic."""

from __future__ import annotations

import io

import pytest
from lmlir_samples import Builder, L, every_op, main_program

from nano_vx.backend.errors import BackendBug
from nano_vx.cli import main as cli_main
from nano_vx.backend.mlir import (BF16_IN_F32, PIPELINE, bf16_in_integers, bf16_through_f32,
                                  emit_mlir, lower_transfers, to_llvm_ir)


def _parsed(text: str):
    from mlir import ir

    context = ir.Context()
    context.allow_unregistered_dialects = True
    with context, ir.Location.unknown():
        return context, ir.Module.parse(text)


def test_every_op_verifies_and_keeps_its_transfers_and_attributes():
    text = emit_mlir(every_op())
    comments, module = text.split("module {\n", 1)
    assert comments.startswith("// vx_print site ") and all(
        line.startswith("// vx_") for line in comments.splitlines())
    assert module.startswith("  func.func private @vx_print(i32, i64)\n")
    assert ('"vx.transfer"(%alloc) {dest = "GPU_HBM", route = "CPU_DRAM -> GPU_HBM", '
            'slot = "slot0", source = "CPU_DRAM"} : (memref<2x3xf32>) -> memref<2x3xf32>'
            in text)
    assert '"vx.transfer"(%4) {dest = "CPU_DRAM"} : (i32) -> i32' in text
    assert 'func.func @main$kernel0(%arg0: memref<6xf32>) attributes {vx.topology = "GPU"}' \
        in text
    assert 'call @main$kernel0(%collapse_shape_2) {vx.launch = "GPU"} : (memref<6xf32>) -> ()' \
        in text
    assert 'llvm.call_intrinsic "llvm.fptosi.sat.i32.f32"(%cst_4) : (f32) -> i32' in text
    assert "llvm.intr.assume %10 : i1" in text
    assert "cf.cond_br %2, ^bb5, ^bb1(%1 : i32)" in text  # MLIR numbers blocks in order
    assert ("memref.subview %alloc[%c1_1, %c2] [1, 1] [1, 1] : memref<2x3xf32> to "
            "memref<f32, strided<[], offset: ?>>" in text)


def test_the_lowering_pipeline():
    assert PIPELINE == (
        "builtin.module(convert-vector-to-llvm, expand-strided-metadata, lower-affine, "
        "finalize-memref-to-llvm{use-generic-functions=true}, "
        "convert-math-to-llvm, convert-arith-to-llvm, convert-cf-to-llvm, "
        "convert-func-to-llvm, reconcile-unrealized-casts)")


def test_a_memref_transfer_becomes_a_fresh_buffer_and_a_copy_and_a_scalar_one_its_operand():
    context, module = _parsed(
        "func.func @f(%m: memref<4xi8>, %x: f32) -> (memref<4xi8>, f32) {\n"
        '  %a = "vx.transfer"(%m) {dest = "GPU_HBM"} : (memref<4xi8>) -> memref<4xi8>\n'
        '  %b = "vx.transfer"(%x) {dest = "GPU_HBM"} : (f32) -> f32\n'
        "  return %a, %b : memref<4xi8>, f32\n"
        "}\n")
    with context:
        lower_transfers(module)
        assert module.operation.verify()
        assert str(module) == (
            "module {\n"
            "  func.func @f(%arg0: memref<4xi8>, %arg1: f32) -> (memref<4xi8>, f32) {\n"
            "    %alloc = memref.alloc() : memref<4xi8>\n"
            "    memref.copy %arg0, %alloc : memref<4xi8> to memref<4xi8>\n"
            "    return %alloc, %arg1 : memref<4xi8>, f32\n"
            "  }\n"
            "}\n")


def test_conversions_to_bf16_from_f64_and_integers_go_through_f32():
    context, module = _parsed(
        "func.func @f(%d: f64, %f: f32, %i: i64, %u: i32) -> (bf16, bf16, bf16, bf16) {\n"
        "  %a = arith.truncf %d : f64 to bf16\n"
        "  %b = arith.truncf %f : f32 to bf16\n"
        "  %c = arith.sitofp %i : i64 to bf16\n"
        "  %e = arith.uitofp %u : i32 to bf16\n"
        "  return %a, %b, %c, %e : bf16, bf16, bf16, bf16\n"
        "}\n")
    with context:
        bf16_through_f32(module)
        assert module.operation.verify()
        body = str(module).splitlines()[2:-3]
    assert body == [
        "    %0 = arith.truncf %arg0 : f64 to f32",
        "    %1 = arith.truncf %0 : f32 to bf16",
        "    %2 = arith.truncf %arg1 : f32 to bf16",
        "    %3 = arith.sitofp %arg2 : i64 to f32",
        "    %4 = arith.truncf %3 : f32 to bf16",
        "    %5 = arith.uitofp %arg3 : i32 to f32",
        "    %6 = arith.truncf %5 : f32 to bf16",
    ]


def test_bf16_arithmetic_runs_in_f32_and_rounds_in_integers_and_f16_stays():
    from mlir.passmanager import PassManager

    context, module = _parsed(
        "func.func @f(%a: bf16, %b: bf16, %h: f16) -> (bf16, bf16, f16, f16) {\n"
        "  %s = arith.addf %a, %b : bf16\n"
        "  %r = math.sqrt %a : bf16\n"
        "  %t = arith.addf %h, %h : f16\n"
        "  %u = math.sqrt %h : f16\n"
        "  return %s, %r, %t, %u : bf16, bf16, f16, f16\n"
        "}\n")
    with context:
        PassManager.parse(BF16_IN_F32).run(module.operation)
        bf16_in_integers(module)
        assert module.operation.verify()
        body = module.body.operations[0].regions[0].blocks[0].operations
        ops = [(op.name, str(op.results[0].type)) for op in body if op.results]
        returned = [op.owner.name for op in body[len(body) - 1].operands]
    computed = [(name, t) for name, t in ops if name in ("arith.addf", "math.sqrt")]
    assert computed == [("arith.addf", "f32"), ("math.sqrt", "f32"),
                        ("arith.addf", "f16"), ("math.sqrt", "f16")]
    assert not any(name == "arith.truncf" for name, _ in ops)
    assert returned == ["arith.bitcast", "arith.bitcast", "arith.addf", "math.sqrt"]


def test_the_llvm_ir_of_every_op():
    ir = to_llvm_ir(every_op())
    for line in (
        "declare void @vx_print(i32, i64)",
        "declare ptr @_mlir_memref_to_llvm_alloc(i64)",
        "define i32 @vx.twice(i32 %0) {",
        'define void @"vx.main$kernel0"(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4) {',
        "define i32 @main() {",
        "call i32 @llvm.fptosi.sat.i32.f32(float 3.000000e+09)",
        "call void @llvm.memcpy.p0.p0.i64(",
        "call void @llvm.assume(i1 %",
        "bitcast i16 %",
        "unreachable",
    ):
        assert line in ir
    assert "vx.transfer" not in ir and "memref<" not in ir
    assert "fptrunc" not in ir  # the one conversion, to bf16, rounds in integer operations


def test_a_module_mlir_does_not_verify_is_a_backend_bug_naming_the_diagnostic():
    b = Builder()
    b.const(1, "i32")
    b.end(L["Ret"](()))
    broken = L["Module"]((b.func("main", results=("i32",)),))
    with pytest.raises(BackendBug, match=r"(?s)MLIR failed parsing and verifying the module: "
                                         r".*'func.return' "
                                         r"op has 0 operands, but enclosing function "
                                         r"\(@main\) returns 1"):
        emit_mlir(broken)


def test_an_op_on_the_wrong_type_is_a_backend_bug():
    b = Builder()
    b.arith("addi", b.const(1.5, "f32"), b.const(2.5, "f32"), "f32")
    with pytest.raises(BackendBug, match=r"(?s)MLIR failed parsing and verifying the module: "
                                         r".*'arith.addi' op "
                                         r"operand #0 must be signless-integer-like"):
        to_llvm_ir(main_program(b))


LIBRARY_NAMES = """fn exp(x: f64) -> f64 { x + 1.0 }
fn sqrt(x: f64) -> f64 { x * 2.0 }
fn free(x: i32) -> i32 { x + 5 }
fn main() {
  let t = Tensor<f32, [4]>::fill(1.5);
  print(exp(1.0));
  print(sqrt(4.0));
  print(free(1));
  print(t[2]);
}
"""


def test_a_function_named_as_a_c_library_function_is_the_programs_own(tmp_path):
    """LLVM took a program's `exp` for libm's (and folded exp(1.0) to e); the program's
    functions reach it as `vx.NAME`, and `main` stays `main`."""
    path = tmp_path / "library_names.vx"
    path.write_text(LIBRARY_NAMES)

    def run(*args):
        out, err = io.StringIO(), io.StringIO()
        return cli_main([str(path), *args], stdout=out, stderr=err), out.getvalue(), err.getvalue()

    assert run() == run("--action", "interpret") == (0, "2\n8\n6\n1.5\n", "")
    llvm = run("--action", "emit-llvm")[1]
    assert {"@vx.exp(", "@vx.sqrt(", "@vx.free(", "@main("} <= {
        line.split()[2][:line.split()[2].index("(") + 1]
        for line in llvm.splitlines() if line.startswith("define")}
