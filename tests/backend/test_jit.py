"""Native runs: what vx_print prints for every kind of value, the stops of vx_stop and
vx_check_alloc, kernel launches, transfers, main's value, at -O0 and -O3; and the child
process, a fork of the runner (as the tests run native code) or of this process (as the
command line does): a crash or a runtime failure is a BackendBug, and no child is left
behind; a run interrupted ends the runner, and the next run starts another."""

from __future__ import annotations

import io
import math
import os
import signal
import time
from pathlib import Path

import pytest
from lmlir_samples import Builder, L, every_op, main_program, program

from nano_vx.backend import runner
from nano_vx.backend.errors import BackendBug
from nano_vx.backend.jit import compile_native, run_compiled, run_native
from nano_vx.source import Source, Span
from nano_vx.values.stops import RuntimeStop

# Slow (the whole suite's, not the inner loop's): the native runs' machinery on every kind of
# value and stop; tests/test_examples.py runs every example natively in the inner loop.
pytestmark = pytest.mark.slow

LEVELS = [0, 3]


def run(p, level=2) -> tuple[str, int]:
    out = io.StringIO()
    value = run_native(p, out, level)
    return out.getvalue(), value


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_every_op(level):
    assert run(every_op(), level) == (
        "2\n0.2\n[[0, 9.5, 2], [3, 4, 5]]\n[[0, 1, 2], [3, 4, 5]]\n0.2\n2147483647\ndone\n9\n",
        2)


@pytest.mark.parametrize("level", LEVELS)
def test_integers_of_every_width_and_bools(level):
    b = Builder()
    for value, mtype, vx in [(-128, "i8", "i8"), (-32768, "i16", "i16"),
                             (2147483647, "i32", "i32"), (-(1 << 63), "i64", "i64"),
                             (255, "i8", "u8"), (4294967295, "i32", "u32"),
                             (-1, "i64", "u64"), (1, "i1", "bool"), (0, "i1", "bool")]:
        b.print_scalar(b.opaque(value, mtype), mtype, vx)
    assert run(main_program(b), level) == (
        "-128\n-32768\n2147483647\n-9223372036854775808\n255\n4294967295\n"
        "18446744073709551615\ntrue\nfalse\n", 0)


@pytest.mark.parametrize("level", LEVELS)
def test_floats_of_every_width(level):
    b = Builder()
    tenth = b.opaque(0.1, "f64")
    b.print_scalar(b.arith("addf", tenth, b.opaque(0.2, "f64"), "f64"), "f64", "f64")
    f32 = b.arith("mulf", b.opaque(0.1, "f32"), b.opaque(3.0, "f32"), "f32")
    b.print_scalar(f32, "f32", "f32")
    b.print_scalar(b.convert("arith.truncf", tenth, "f64", "f16"), "f16", "f16")
    third = b.arith("divf", b.opaque(1.0, "f64"), b.opaque(3.0, "f64"), "f64")
    b.print_scalar(b.convert("arith.truncf", third, "f64", "bf16"), "bf16", "bf16")
    big = b.opaque(65504.0, "f16")
    b.print_scalar(b.arith("addf", big, big, "f16"), "f16", "f16")
    zero = b.opaque(0.0, "f64")
    b.print_scalar(b.arith("divf", zero, zero, "f64"), "f64", "f64")
    b.print_scalar(b.arith("mulf", b.opaque(-1.0, "f32"), b.opaque(0.0, "f32"), "f32"),
                   "f32", "f32")
    b.print_scalar(b.opaque(1e20, "f64"), "f64", "f64")
    b.print_scalar(b.opaque(1e-45, "f32"), "f32", "f32")
    b.print_scalar(b.opaque(-math.inf, "bf16"), "bf16", "bf16")
    assert run(main_program(b), level)[0] == (
        "0.30000000000000004\n0.3\n0.1\n0.334\ninf\nNaN\n-0\n100000000000000000000\n"
        "0.000000000000000000000000000000000000000000001\n-inf\n")


@pytest.mark.parametrize("level", LEVELS)
def test_a_string(level):
    b = Builder()
    b.print_str('say "hi" \\ héllo')
    assert run(main_program(b), level)[0] == 'say "hi" \\ héllo\n'


def _filled(b: Builder, mtype: str, values) -> str:
    """A buffer of type `mtype` holding `values`, row-major, written through its 1-D view."""
    ref = b.alloc(mtype)
    dims, elem = mtype[7:-1].split("x")[:-1], mtype[7:-1].split("x")[-1]
    flat = ref
    if len(dims) > 1:
        flat = b.emit(L["Collapse"](b.fresh(), ref, mtype,
                                    f"memref<{len(values)}x{elem}>")).result
    for i, v in enumerate(values):
        b.store(b.const(v, elem), flat, (b.index(i),), f"memref<{len(values)}x{elem}>")
    return ref


@pytest.mark.parametrize("level", LEVELS)
def test_tensors(level):
    b = Builder()
    grid = b.alloc("memref<2x3xi32>")
    for i in range(2):
        for j in range(3):
            b.store(b.const(10 * i + j, "i32"), grid, (b.index(i), b.index(j)),
                    "memref<2x3xi32>")
    b.print_tensor(grid, "memref<2x3xi32>", "i32", (2, 3))
    for mtype, vx, values in [("memref<3xi8>", "bool", (1, 0, 1)),
                              ("memref<2xi8>", "u8", (255, 0)),
                              ("memref<2x2xi64>", "u64", (-1, 1, 2, 3)),
                              ("memref<2xf16>", "f16", (0.1, 1.5)),
                              ("memref<2xbf16>", "bf16", (0.1, 100.7)),
                              ("memref<1x2xf64>", "f64", (0.5, -2.0))]:
        dims = tuple(int(d) for d in mtype[7:-1].split("x")[:-1])
        b.print_tensor(_filled(b, mtype, values), mtype, vx, dims)
    assert run(main_program(b), level)[0] == (
        "[[0, 1, 2], [10, 11, 12]]\n[true, false, true]\n[255, 0]\n"
        "[[18446744073709551615, 1], [2, 3]]\n[0.1, 1.5]\n[0.1, 100.5]\n[[0.5, -2]]\n")


@pytest.mark.parametrize("level", LEVELS)
def test_a_write_to_a_transferred_tensor_leaves_the_source_as_it_was(level):
    b = Builder()
    source = _filled(b, "memref<3xi64>", (1, 2, 3))
    copy = b.emit(L["Transfer"](b.fresh(), source, "memref<3xi64>", "CPU_DRAM", "GPU_HBM",
                                None, None)).result
    b.store(b.const(9, "i64"), copy, (b.index(0),), "memref<3xi64>")
    b.print_tensor(source, "memref<3xi64>", "i64", (3,))
    b.print_tensor(copy, "memref<3xi64>", "i64", (3,))
    assert run(main_program(b), level)[0] == "[1, 2, 3]\n[9, 2, 3]\n"


@pytest.mark.parametrize("level", LEVELS)
def test_a_kernel_launch_runs_the_kernel(level):
    kernel = Builder()
    first = kernel.load("xs", (kernel.index(0),), "memref<2xf32>")
    kernel.store(kernel.arith("mulf", first, kernel.const(4.0, "f32"), "f32"), "xs",
                 (kernel.index(1),), "memref<2xf32>")
    kernel.end(L["Ret"](()))
    b = Builder()
    xs = _filled(b, "memref<2xf32>", (1.25, 0.0))
    b.call("main$kernel0", (xs,), launch="GPU")
    b.print_tensor(xs, "memref<2xf32>", "f32", (2,))
    p = main_program(b, extra=(kernel.func("main$kernel0", (("xs", "memref<2xf32>"),),
                                           topology="GPU"),))
    assert run(p, level)[0] == "[1.25, 5]\n"


@pytest.mark.parametrize("level", LEVELS)
def test_integer_arithmetic(level):
    b = Builder()
    a, c = b.opaque(-7, "i32"), b.opaque(2, "i32")
    for op in "addi subi muli divsi divui remsi remui andi ori xori".split():
        b.print_scalar(b.arith(op, a, c, "i32"), "i32", "i32")
    assert run(main_program(b), level)[0].split() == [
        "-5", "-9", "-14", "-3", "2147483644", "-1", "1", "0", "-5", "-5"]


@pytest.mark.parametrize("level", LEVELS)
def test_float_arithmetic(level):
    b = Builder()
    a, c, zero = b.opaque(7.5, "f64"), b.opaque(2.0, "f64"), b.opaque(0.0, "f64")
    for op in "addf subf mulf divf remf".split():
        b.print_scalar(b.arith(op, a, c, "f64"), "f64", "f64")
    b.print_scalar(b.arith("divf", a, zero, "f64"), "f64", "f64")
    b.print_scalar(b.arith("remf", b.opaque(-7.5, "f32"), b.opaque(2.0, "f32"), "f32"),
                   "f32", "f32")
    b.print_scalar(b.arith("remf", b.opaque(5.5, "f16"), b.opaque(2.0, "f16"), "f16"),
                   "f16", "f16")
    b.print_scalar(b.arith("subf", b.opaque(100.7, "bf16"), b.opaque(0.1, "bf16"), "bf16"),
                   "bf16", "bf16")
    assert run(main_program(b), level)[0].split() == [
        "9.5", "5.5", "15", "3.75", "1.5", "inf", "-1.5", "1.5", "100.5"]


@pytest.mark.parametrize("level", LEVELS)
def test_comparisons(level):
    b = Builder()
    minus_one, one = b.opaque(-1, "i32"), b.opaque(1, "i32")
    for p in "eq ne slt sle sgt sge ult ule ugt uge".split():
        b.print_scalar(b.compare("cmpi", p, minus_one, one, "i32"), "i1", "bool")
    nan = b.arith("divf", b.opaque(0.0, "f64"), b.opaque(0.0, "f64"), "f64")
    small, large = b.opaque(1.0, "f32"), b.opaque(2.0, "f32")
    for p in "oeq une olt ole ogt oge".split():
        b.print_scalar(b.compare("cmpf", p, nan, nan, "f64"), "i1", "bool")
        b.print_scalar(b.compare("cmpf", p, small, large, "f32"), "i1", "bool")
    assert run(main_program(b), level)[0].split() == (
        "false true true true false false false false true true".split()
        + "false false true true false true false true false false false false".split())


@pytest.mark.parametrize("level", LEVELS)
def test_conversions(level):
    b = Builder()

    def show(op, value, source, target, vx):
        b.print_scalar(b.convert(op, b.opaque(value, source), source, target), target, vx)

    show("arith.extsi", -1, "i8", "i32", "i32")
    show("arith.extui", -1, "i8", "i32", "i32")
    show("arith.trunci", 300, "i32", "i8", "i8")
    show("arith.sitofp", -3, "i32", "f64", "f64")
    show("arith.uitofp", -1, "i32", "f64", "f64")
    show("arith.uitofp", -1, "i64", "f32", "f32")
    show("arith.sitofp", 16973823, "i32", "bf16", "bf16")  # the f32 lands on a bf16 tie
    show("arith.extf", 0.1, "f32", "f64", "f64")
    show("arith.truncf", 0.1, "f64", "f32", "f32")
    show("arith.bitcast", 1.0, "f64", "i64", "i64")
    show("llvm.intr.fptosi.sat", 1e10, "f64", "i32", "i32")
    show("llvm.intr.fptosi.sat", -1e10, "f64", "i32", "i32")
    show("llvm.intr.fptosi.sat", math.nan, "f64", "i16", "i16")
    show("llvm.intr.fptosi.sat", -2.9, "f16", "i8", "i8")
    show("llvm.intr.fptoui.sat", -5.0, "f32", "i8", "u8")
    show("llvm.intr.fptoui.sat", 300.0, "f32", "i8", "u8")
    show("llvm.intr.fptoui.sat", 1e30, "f64", "i64", "u64")
    index = b.convert("arith.index_cast", b.opaque(-2, "i32"), "i32", "index")
    b.print_scalar(b.convert("arith.index_cast", index, "index", "i64"), "i64", "i64")
    index = b.convert("arith.index_castui", b.opaque(-2, "i32"), "i32", "index")
    b.print_scalar(b.convert("arith.index_castui", index, "index", "i64"), "i64", "i64")
    assert run(main_program(b), level)[0].split() == [
        "-1", "255", "44", "-3", "4294967295", "18446744000000000000", "17000000",
        "0.10000000149011612", "0.1", "4607182418800017408", "2147483647", "-2147483648",
        "0", "-2", "0", "255", "18446744073709551615", "-2", "4294967294"]


@pytest.mark.parametrize("level", LEVELS)
def test_a_loop_through_block_arguments(level):
    b = Builder()
    b.end(L["Br"]("bb1", (b.const(1, "i32"), b.const(0, "i32"))), "bb1",
          (("i", "i32"), ("sum", "i32")))
    more = b.compare("cmpi", "sle", "i", b.const(10, "i32"), "i32")
    after = b.arith("addi", "sum", "i", "i32")
    b.end(L["CondBr"](more, "bb2", (), "bb3", ("sum",)), "bb2")
    b.end(L["Br"]("bb1", (b.arith("addi", "i", b.const(1, "i32"), "i32"), after)), "bb3",
          (("total", "i32"),))
    b.print_scalar("total", "i32", "i32")
    assert run(main_program(b, 3), level) == ("55\n", 3)


def test_a_compiled_program_runs_again_in_a_new_child(child):
    native = compile_native(_divide_by(2), 1)
    for _ in range(2):
        out = io.StringIO()
        assert run_compiled(native, out) == 0
        assert out.getvalue() == "before\n3\n"


def test_main_returns_its_value_as_its_type(child):
    assert run(main_program(Builder(), 3)) == ("", 3)
    assert run(main_program(Builder())) == ("", 0)
    b = Builder()
    b.end(L["Ret"]((b.const(-5, "i64"),)))
    assert run(program(b.func("main", results=("i64",)))) == ("", -5)


SPAN = Span(Source("t.vx", "fn main() { 7 / 0 }"), 12, 17)


def _divide_by(divisor: int):
    b = Builder()
    seven, d = b.opaque(7, "i32"), b.opaque(divisor, "i32")
    b.print_str("before")
    zero = b.compare("cmpi", "eq", d, b.const(0, "i32"), "i32")
    b.end(L["CondBr"](zero, "bb2", (), "bb1", ()), "bb1")
    b.print_scalar(b.arith("divsi", seven, d, "i32"), "i32", "i32")
    b.end(L["Ret"](()), "bb2")
    b.stop("E9001", "attempt to divide {a} by {b} (i32)", "i32",
           b.convert("arith.extsi", seven, "i32", "i64"),
           b.convert("arith.extsi", d, "i32", "i64"), span=SPAN)
    return program(b.func("main"), sites=b.sites)


@pytest.mark.parametrize("level", LEVELS)
def test_a_division_by_zero_stops_at_its_site(level, child):
    assert run(_divide_by(2), level) == ("before\n3\n", 0)
    out = io.StringIO()
    with pytest.raises(RuntimeStop) as stop:
        run_native(_divide_by(0), out, level)
    assert (stop.value.code, stop.value.message) == ("E9001", "attempt to divide 7 by 0 (i32)")
    assert stop.value.span is SPAN
    assert out.getvalue() == "before\n"


def _allocating(size: int):
    b = Builder()
    site = b.site("StopSite", "E9006", "refusing to allocate {a} bytes", "u64")
    b.call("vx_check_alloc", (site, b.opaque(size, "i64")))
    b.print_str("allocated")
    return main_program(b)


@pytest.mark.parametrize("size, shown", [(1 << 62, "4611686018427387904"),
                                         (-1, "18446744073709551615")])
def test_check_alloc_refuses_more_than_the_machine_holds(size, shown):
    with pytest.raises(RuntimeStop) as stop:
        run(_allocating(size))
    assert (stop.value.code, stop.value.message) == (
        "E9006", f"refusing to allocate {shown} bytes")


def test_check_alloc_lets_a_small_allocation_through():
    assert run(_allocating(1 << 20)) == ("allocated\n", 0)


def _printing_site(site_id: int, kind: str, address: int):
    b = Builder()
    b.site("PrintSite", kind, "i32", None, (4,) if kind == "tensor" else ())
    b.call("vx_print", (b.const(site_id, "i32"), b.opaque(address, "i64")))
    return main_program(b)


def test_native_code_that_crashes_is_a_backend_bug_naming_the_signal(child):
    with pytest.raises(BackendBug, match=r"the native code died of signal 11 \(SIGSEGV"):
        run(_printing_site(0, "tensor", 8))  # the runtime reads a tensor at address 8


def test_a_runtime_failure_is_a_backend_bug_with_its_traceback(child):
    with pytest.raises(BackendBug, match=r"(?s)the runtime failed in the native run:\n"
                                         r"Traceback.*KeyError: 5"):
        run(_printing_site(5, "int", 1))


def test_a_declaration_the_runtime_does_not_provide_is_a_backend_bug():
    b = Builder()
    b.end(L["Ret"](()))
    p = L["Module"]((L["Declare"]("puts", ("i64",), ("i32",)), b.func("main")))
    with pytest.raises(BackendBug, match="the program declares puts, which the runtime does"):
        run(p)


class _Recording(io.StringIO):
    def __init__(self):
        super().__init__()
        self.events = []

    def flush(self):
        self.events.append("flush")

    def write(self, text):
        self.events.append(text)
        return super().write(text)


def test_out_is_flushed_before_the_child_starts_and_written_as_reports_come(child):
    out = _Recording()
    run_native(_divide_by(4), out)
    assert out.events == ["flush", "before\n", "1\n"]


class _Closed(io.StringIO):
    def write(self, text):
        raise BrokenPipeError("closed")


def test_no_child_is_left_behind_whatever_the_run_ends_with(child):
    run(_divide_by(1))
    with pytest.raises(RuntimeStop):
        run(_divide_by(0))
    with pytest.raises(BackendBug):
        run(_printing_site(0, "tensor", 8))
    with pytest.raises(BrokenPipeError):
        run_native(_divide_by(1), _Closed())
    run(_divide_by(1))
    # This process's one child is the runner (the earlier tests' or this one's), and it has
    # none.
    runners = [runner._current["runner"].process.pid] if "runner" in runner._current else []
    assert _children(os.getpid()) == runners
    assert all(_children(pid) == [] for pid in runners)


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def _looping():
    b = Builder()
    b.print_str("looping")
    b.end(L["Br"]("bb1", ()), "bb1")
    b.end(L["Br"]("bb1", ()))
    return program(b.func("main"), sites=b.sites)


class _TimeLimit(Exception):
    pass


def test_a_run_interrupted_ends_the_runner_and_its_child_and_the_next_run_starts_another():
    seen = {}

    class Interrupting(io.StringIO):
        def write(self, text):  # the child runs: interrupt the wait for its next report
            seen["runner"] = runner._current["runner"].process.pid
            seen["children"] = _children(seen["runner"])
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            return super().write(text)

    def interrupt(*_):
        raise _TimeLimit  # as pytest-timeout's signal does

    out = Interrupting()
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        with pytest.raises(_TimeLimit):
            run_native(_looping(), out, 0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert out.getvalue() == "looping\n" and len(seen["children"]) == 1
    assert "runner" not in runner._current and not _running(seen["runner"])
    deadline = time.monotonic() + 10  # the parent-death signal is delivered, not awaited
    while _running(seen["children"][0]) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _running(seen["children"][0])
    assert run(_divide_by(2)) == ("before\n3\n", 0)
    assert runner._current["runner"].process.pid != seen["runner"]


def test_a_runner_that_ended_between_runs_is_replaced():
    run(_divide_by(2))
    ended = runner._current["runner"].process
    ended.kill()
    ended.wait()
    assert run(_divide_by(2)) == ("before\n3\n", 0)
    assert runner._current["runner"].process.pid != ended.pid


def test_a_runner_ends_when_the_process_that_started_it_closes_its_end():
    started = runner._Runner()
    started.socket.close()
    assert started.process.wait(timeout=60) == 0
