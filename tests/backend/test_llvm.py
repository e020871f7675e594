"""The LLVM stage: llvmlite's new pass manager at -O0 and -O3 for the host, and what LLVM
refuses."""

from __future__ import annotations

import pytest
from lmlir_samples import Builder, every_op, main_program

from nano_vx.backend.errors import BackendBug
from nano_vx.backend.llvm import binding, optimize, optimized_ir
from nano_vx.backend.mlir import to_llvm_ir


def _through_a_cell():
    """main stores 20 in a cell, loads it, adds 22, prints the sum and returns 3."""
    b = Builder()
    cell = b.alloc("memref<i32>", "Alloca")
    b.store(b.const(20, "i32"), cell, (), "memref<i32>")
    total = b.arith("addi", b.load(cell, (), "memref<i32>"), b.const(22, "i32"), "i32")
    b.print_scalar(total, "i32", "i32")
    return to_llvm_ir(main_program(b, 3))


def test_at_O0_the_cell_stays_in_memory():
    ir = optimized_ir(_through_a_cell(), 0)
    assert "alloca i32" in ir
    assert "store i32 20, ptr %" in ir
    assert "add i32 %" in ir
    assert "call void @vx_print(i32 0, i64 %" in ir


def test_at_O3_the_cell_is_gone_and_the_sum_folded():
    ir = optimized_ir(_through_a_cell(), 3)
    assert "alloca" not in ir and "add i32" not in ir
    assert "tail call void @vx_print(i32 0, i64 42)" in ir
    assert "ret i32 3" in ir


def test_the_module_is_for_this_host():
    llvm = binding()
    module, tm = optimize(_through_a_cell(), 2)
    assert module.triple == tm.triple == llvm.get_process_triple()
    assert f'target triple = "{tm.triple}"' in str(module)


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_every_op_optimizes_at_every_level(level):
    ir = optimized_ir(to_llvm_ir(every_op()), level)
    assert "@main()" in ir and "call void @vx_print(i32 6, i64 0)" in ir
    # The divisor is 14: from -O1 on, the branch to the stop is folded away.
    assert ("call void @vx_stop(i32 8" in ir) == (level == 0)


def test_O3_inlines_the_kernel_launch_and_keeps_the_copy():
    ir = optimized_ir(to_llvm_ir(every_op()), 3)
    main = ir[ir.index("@main()"):]
    assert "main$kernel0" not in main
    assert "@llvm.memcpy" in main or "memcpy" in main


def test_a_level_outside_0_to_3_is_refused():
    with pytest.raises(ValueError, match="optimization level 4 is not 0, 1, 2 or 3"):
        optimize(_through_a_cell(), 4)


def test_ir_llvm_cannot_parse_is_a_backend_bug():
    with pytest.raises(BackendBug,
                       match="(?s)LLVM refused the IR MLIR produced: .*expected value token"):
        optimize("define i32 @main() {\n  ret i3x 0\n}\n", 2)
