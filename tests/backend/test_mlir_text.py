"""The MLIR text of Lmlir programs: every operation's form, symbols, strings, constants, the
site comments, the entry block, refusals, and the text dump's use of it."""

from __future__ import annotations

import math

import pytest
from lmlir_samples import RUNTIME, Builder, L, every_op, main_program, program

from nano_vx.dump.mlir_text import MlirTextError, string, symbol, to_mlir_text
from nano_vx.dump import to_text


def test_every_op_prints_as_mlir(snapshot_txt):
    assert to_mlir_text(every_op()) == snapshot_txt


def test_the_text_dump_of_an_lmlir_program_is_its_mlir_text():
    p = every_op()
    assert to_text(p) == to_mlir_text(p)


@pytest.mark.parametrize("name, text", [
    ("main", "@main"),
    ("_f2", "@_f2"),
    ("main$kernel0", '@"main$kernel0"'),
    ("stage$i32", '@"stage$i32"'),
    ("id$Tensor<f32,[4],CPU_DRAM>", '@"id$Tensor<f32,[4],CPU_DRAM>"'),
])
def test_symbols_that_are_not_bare_identifiers_are_quoted(name, text):
    assert symbol(name) == text


def test_strings_escape_quotes_backslashes_and_every_byte_outside_printable_ascii():
    assert string('a "b" \\ c') == '"a \\"b\\" \\\\ c"'
    assert string("line\nnext\t") == '"line\\0Anext\\09"'
    assert string("é") == '"\\C3\\A9"'


@pytest.mark.parametrize("value, mtype, text", [
    (7, "i32", "7"),
    (-1, "i64", "-1"),
    (1, "i1", "1"),
    (0, "index", "0"),
    (1.5, "f32", "1.5"),
    (3, "f32", "3.0"),
    (1e100, "f64", "1.0e+100"),
    (5e-324, "f64", "5.0e-324"),
    (-0.0, "f16", "-0.0"),
    (math.inf, "f64", "0x7FF0000000000000"),
    (-math.inf, "f32", "0xFF800000"),
    (math.nan, "f32", "0x7FC00000"),
    (math.inf, "f16", "0x7C00"),
    (-math.inf, "bf16", "0xFF80"),
    (math.nan, "bf16", "0x7FC0"),
])
def test_constants_are_literals_mlir_reads_back(value, mtype, text):
    b = Builder()
    b.const(value, mtype)
    assert f"%v1 = arith.constant {text} : {mtype}\n" in to_mlir_text(main_program(b))


def test_the_saturating_conversions_are_calls_of_the_llvm_intrinsics():
    b = Builder()
    x = b.const(1.5, "f16")
    b.convert("llvm.intr.fptosi.sat", x, "f16", "i8")
    b.convert("llvm.intr.fptoui.sat", x, "f16", "i64")
    text = to_mlir_text(main_program(b))
    assert '%v2 = llvm.call_intrinsic "llvm.fptosi.sat.i8.f16"(%v1) : (f16) -> i8\n' in text
    assert '%v3 = llvm.call_intrinsic "llvm.fptoui.sat.i64.f16"(%v1) : (f16) -> i64\n' in text


def test_a_function_without_arguments_labels_its_entry_block_and_one_with_arguments_not():
    text = to_mlir_text(every_op())
    assert "  func.func @main() -> i32 {\n  ^bb0:\n" in text
    assert "  func.func @twice(%x: i32) -> i32 {\n    %v1 = arith.addi" in text


def test_results_declarations_and_sites():
    two = L["Func"]("two", (), ("i32", "f64"), None, (
        L["Block"]("bb0", (), (L["Constant"]("a", 1, "i32"), L["Constant"]("b", 2.0, "f64")),
                   L["Ret"](("a", "b"))),))
    p = program(two, sites=(
        L["PrintSite"](0, "bool", None, None, ()),
        L["PrintSite"](1, "str", None, "say \"hi\"", ()),
        L["StopSite"](2, "E9006", "refusing {a} bytes", "u64"),
        L["StopSite"](3, "E9002", "assumption failed in a kernel", None),
    ))
    assert to_mlir_text(p) == (
        "// vx_print site 0: bool\n"
        '// vx_print site 1: str "say \\"hi\\""\n'
        '// vx_stop site 2: E9006 "refusing {a} bytes" (operands u64)\n'
        '// vx_stop site 3: E9002 "assumption failed in a kernel"\n'
        "module {\n"
        "  func.func private @vx_print(i32, i64)\n"
        "  func.func private @vx_stop(i32, i64, i64)\n"
        "  func.func private @vx_check_alloc(i32, i64)\n"
        "  func.func @two() -> (i32, f64) {\n"
        "  ^bb0:\n"
        "    %a = arith.constant 1 : i32\n"
        "    %b = arith.constant 2.0 : f64\n"
        "    func.return %a, %b : i32, f64\n"
        "  }\n"
        "}\n")


def test_a_call_of_a_function_the_program_does_not_have_is_refused():
    b = Builder()
    b.call("nowhere", ())
    with pytest.raises(MlirTextError, match="a call of nowhere, which the program does not"):
        to_mlir_text(main_program(b))


def test_a_branch_to_a_block_the_function_does_not_have_is_refused():
    b = Builder()
    b.end(L["Br"]("bb7", ()))
    with pytest.raises(MlirTextError, match=r"a branch to \^bb7, which the function"):
        to_mlir_text(program(b.func("main")))


def test_the_runtime_declarations():
    assert to_mlir_text(program()) == (
        "module {\n"
        "  func.func private @vx_print(i32, i64)\n"
        "  func.func private @vx_stop(i32, i64, i64)\n"
        "  func.func private @vx_check_alloc(i32, i64)\n"
        "}\n")
    assert [d.name for d in RUNTIME] == ["vx_print", "vx_stop", "vx_check_alloc"]
