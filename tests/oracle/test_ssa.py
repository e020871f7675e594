"""The Lmlir interpreter (nano_vx/oracle/ssa.py) on hand-built programs: every operation and
terminator, wrapping and rounding at each type, memory, the runtime functions."""

import io
import itertools
import math
import struct

import pytest

from nano_vx.languages.lmlir import Lmlir
from nano_vx.oracle import run_program
from nano_vx.values.stops import MAX_CALL_DEPTH
from nano_vx.source import Source, Span
from nano_vx.values.stops import RuntimeStop

L = Lmlir


def const(r, v, t):
    return L["Constant"](r, v, t)


def arith(r, op, a, b, t):
    return L["Arith"](r, op, a, b, t)


def cmp(r, op, p, a, b, t):
    return L["Compare"](r, op, p, a, b, t)


def conv(r, op, v, src, t):
    return L["Convert"](r, op, v, src, t)


def ret(*values):
    return L["Ret"](list(values))


def block(label, ops, term, args=()):
    return L["Block"](label, [L["Arg"](n, t) for n, t in args], ops, term)


def func(name, blocks, results=(), args=(), topology=None):
    return L["Func"](name, [L["Arg"](n, t) for n, t in args], list(results), topology, blocks)


DECLARES = [L["Declare"]("vx_print", ["i32", "i64"], []),
            L["Declare"]("vx_stop", ["i32", "i64", "i64"], []),
            L["Declare"]("vx_check_alloc", ["i32", "i64"], [])]


def run(*items, **kw):
    """(printed text, main's value) of a program of these items and the runtime's."""
    out = io.StringIO()
    result = run_program(L["Module"](DECLARES + list(items)), out=out, **kw)
    return out.getvalue(), result


def stopped(*items, **kw) -> tuple[str, RuntimeStop]:
    out = io.StringIO()
    with pytest.raises(RuntimeStop) as info:
        run_program(L["Module"](DECLARES + list(items)), out=out, **kw)
    return out.getvalue(), info.value


def value(ops, result, type_):
    """The value of %result after `ops`, as main returns it."""
    return run(func("main", [block("bb0", ops, ret(result))], [type_]))[1]


def call(callee, args=(), results=(), launch=None):
    return L["Call"]([L["Arg"](n, t) for n, t in results], callee, list(args), launch)


_names = itertools.count()


def print_call(site, payload):
    name = f"site{next(_names)}"
    return [const(name, site, "i32"), call("vx_print", [name, payload])]


# -- integers --------------------------------------------------------------------------------


@pytest.mark.parametrize("t, op, a, b, expected", [
    ("i8", "addi", 127, 1, -128),
    ("i8", "subi", -128, 1, 127),
    ("i16", "subi", -32768, 1, 32767),
    ("i16", "muli", 300, 300, 24464),
    ("i32", "muli", 65536, 65536, 0),
    ("i32", "addi", 2147483647, 1, -2147483648),
    ("i64", "addi", 2 ** 63 - 1, 1, -2 ** 63),
    ("i64", "muli", 2 ** 62, 4, 0),
    ("index", "subi", -2 ** 63, 1, 2 ** 63 - 1),
    ("i1", "addi", 1, 1, 0),
    ("i1", "xori", 1, 1, 0),
    ("i1", "ori", 1, 0, 1),
    ("i8", "andi", -1, 0x5A, 0x5A),
    ("i8", "ori", -128, 1, -127),
    ("i8", "xori", -1, 0x0F, -16),
])
def test_integer_arithmetic_wraps_at_its_width(t, op, a, b, expected):
    ops = [const("a", a, t), const("b", b, t), arith("r", op, "a", "b", t)]
    assert value(ops, "r", t) == expected


@pytest.mark.parametrize("t, op, a, b, expected", [
    ("i32", "divsi", -7, 2, -3),
    ("i32", "remsi", -7, 2, -1),
    ("i32", "divsi", 7, -2, -3),
    ("i32", "remsi", 7, -2, 1),
    ("i8", "divui", -1, 2, 127),     # 255 / 2
    ("i8", "remui", -1, 10, 5),      # 255 % 10
    ("i8", "divsi", -1, 2, 0),
    ("i32", "divui", -2, 2, 2147483647),
    ("i64", "remui", -1, 10, 5),     # 18446744073709551615 % 10
    ("i8", "divui", 100, -1, 0),     # 100 / 255
])
def test_signed_and_unsigned_division(t, op, a, b, expected):
    ops = [const("a", a, t), const("b", b, t), arith("r", op, "a", "b", t)]
    assert value(ops, "r", t) == expected


def test_a_division_by_zero_is_a_compiler_bug():
    ops = [const("a", 1, "i32"), const("b", 0, "i32"), arith("r", "divsi", "a", "b", "i32")]
    _, stop = stopped(func("main", [block("bb0", ops, ret("r"))], ["i32"]))
    assert stop.code == "E9006"
    assert stop.message.startswith("internal error: arith.divsi by zero")


@pytest.mark.parametrize("t, p, a, b, expected", [
    ("i32", "slt", -1, 1, 1), ("i32", "ult", -1, 1, 0),
    ("i32", "sgt", -1, 1, 0), ("i32", "ugt", -1, 1, 1),
    ("i8", "sle", -128, 127, 1), ("i8", "ule", -128, 127, 0),
    ("i8", "sge", 5, 5, 1), ("i8", "uge", 4, 5, 0),
    ("i64", "eq", -1, -1, 1), ("i64", "ne", -1, -1, 0),
    ("i1", "slt", 1, 0, 1), ("i1", "ult", 1, 0, 0),
    ("index", "ult", -1, 0, 0),
])
def test_integer_comparisons(t, p, a, b, expected):
    ops = [const("a", a, t), const("b", b, t), cmp("r", "cmpi", p, "a", "b", t)]
    assert value(ops, "r", "i1") == expected


@pytest.mark.parametrize("p, a, b, expected", [
    ("oeq", 1.0, 1.0, 1), ("une", 1.0, 1.0, 0),
    ("olt", 1.0, 2.0, 1), ("ole", 2.0, 2.0, 1), ("ogt", 1.0, 2.0, 0), ("oge", 2.0, 1.0, 1),
    ("oeq", math.nan, math.nan, 0), ("une", math.nan, math.nan, 1),
    ("olt", math.nan, 1.0, 0), ("oge", 1.0, math.nan, 0),
])
def test_float_comparisons_are_ordered_but_une(p, a, b, expected):
    ops = [const("a", a, "f64"), const("b", b, "f64"), cmp("r", "cmpf", p, "a", "b", "f64")]
    assert value(ops, "r", "i1") == expected


# -- floats ----------------------------------------------------------------------------------


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def f16(x):
    return struct.unpack("e", struct.pack("e", x))[0]


@pytest.mark.parametrize("t, op, a, b, expected", [
    ("f64", "addf", 0.1, 0.2, 0.1 + 0.2),
    ("f32", "addf", 0.1, 0.2, f32(f32(0.1) + f32(0.2))),
    ("f32", "mulf", 16777216.0, 1.0000001, 16777218.0),
    ("f16", "addf", 1000.0, 0.3, 1000.5),  # f16 steps by 0.5 there
    ("f16", "addf", 2048.0, 1.0, 2048.0),  # ties to even
    ("f16", "mulf", 300.0, 300.0, math.inf),  # past the largest f16
    ("bf16", "addf", 1.0, 0.001, 1.0),
    ("f64", "subf", 1.0, 3.0, -2.0),
    ("f64", "divf", 1.0, 0.0, math.inf),
    ("f64", "divf", -1.0, 0.0, -math.inf),
    ("f32", "divf", 1.0, 3.0, f32(1 / 3)),
    ("f64", "remf", -7.5, 2.0, -1.5),
    ("f32", "remf", 7.5, -2.0, 1.5),
])
def test_float_arithmetic_rounds_to_its_type(t, op, a, b, expected):
    ops = [const("a", a, t), const("b", b, t), arith("r", op, "a", "b", t)]
    assert value(ops, "r", t) == expected


def test_float_nan_from_zero_by_zero_and_remainder_by_zero():
    for op in ("divf", "remf"):
        ops = [const("a", 0.0, "f64"), const("b", 0.0, "f64"), arith("r", op, "a", "b", "f64")]
        assert math.isnan(value(ops, "r", "f64"))


def test_a_float_constant_rounds_to_its_type():
    assert value([const("a", 0.1, "f32")], "a", "f32") == f32(0.1)
    assert value([const("a", 0.1, "f16")], "a", "f16") == f16(0.1)
    assert value([const("a", 3, "f64")], "a", "f64") == 3.0


# -- conversions -----------------------------------------------------------------------------


@pytest.mark.parametrize("op, v, src, dst, expected", [
    ("arith.extsi", -1, "i8", "i32", -1),
    ("arith.extsi", 1, "i1", "i32", -1),
    ("arith.extui", -1, "i8", "i32", 255),
    ("arith.extui", 1, "i1", "i64", 1),
    ("arith.extui", -1, "i32", "i64", 4294967295),
    ("arith.trunci", 300, "i32", "i8", 44),
    ("arith.trunci", 255, "i32", "i8", -1),
    ("arith.trunci", 3, "i32", "i1", 1),
    ("arith.index_cast", -1, "i32", "index", -1),
    ("arith.index_cast", 2 ** 40 + 5, "index", "i32", 5),
    ("arith.index_castui", -1, "i32", "index", 4294967295),
    ("arith.sitofp", -1, "i8", "f64", -1.0),
    ("arith.uitofp", -1, "i8", "f64", 255.0),
    ("arith.uitofp", -1, "i64", "f32", 18446744073709551616.0),
    ("arith.sitofp", 16777217, "i32", "f32", 16777216.0),
    ("arith.sitofp", 1, "i1", "f64", -1.0),
    ("arith.uitofp", 1, "i1", "f64", 1.0),
    ("arith.extf", f16(0.1), "f16", "f64", f16(0.1)),
    ("arith.extf", f32(0.1), "f32", "f64", f32(0.1)),
    ("arith.truncf", 0.1, "f64", "f32", f32(0.1)),
    ("arith.truncf", f32(0.1), "f32", "f16", f16(0.1)),
    ("arith.truncf", 1e300, "f64", "f32", math.inf),
    ("llvm.intr.fptosi.sat", 1e10, "f64", "i32", 2147483647),
    ("llvm.intr.fptosi.sat", -1e10, "f64", "i32", -2147483648),
    ("llvm.intr.fptosi.sat", 2.9, "f64", "i32", 2),
    ("llvm.intr.fptosi.sat", -2.9, "f64", "i8", -2),
    ("llvm.intr.fptosi.sat", math.nan, "f64", "i64", 0),
    ("llvm.intr.fptosi.sat", math.inf, "f32", "i64", 2 ** 63 - 1),
    ("llvm.intr.fptosi.sat", 1e30, "f64", "i16", 32767),
    ("llvm.intr.fptoui.sat", -5.0, "f64", "i32", 0),
    ("llvm.intr.fptoui.sat", 300.0, "f64", "i8", -1),   # 255
    ("llvm.intr.fptoui.sat", 3e9, "f64", "i32", -1294967296),  # 3000000000
    ("llvm.intr.fptoui.sat", math.nan, "f32", "i8", 0),
    ("llvm.intr.fptoui.sat", 1e30, "f64", "i64", -1),
])
def test_conversions(op, v, src, dst, expected):
    ops = [const("v", v, src), conv("r", op, "v", src, dst)]
    assert value(ops, "r", dst) == expected


@pytest.mark.parametrize("v, src, dst, expected", [
    (1.0, "f64", "i64", 0x3FF0000000000000),
    (-2.0, "f64", "i64", -0x4000000000000000),
    (1.0, "f32", "i32", 0x3F800000),
    (1.0, "f16", "i16", 0x3C00),
    (-1.0, "f16", "i16", -0x4400),
    (1.0, "bf16", "i16", 0x3F80),
    (0x3F800000, "i32", "f32", 1.0),
    (0x4000000000000000, "i64", "f64", 2.0),
    (0x3DCD, "i16", "bf16", struct.unpack("f", struct.pack("I", 0x3DCD0000))[0]),
    (-0x4400, "i16", "f16", -1.0),
])
def test_bitcasts(v, src, dst, expected):
    ops = [const("v", v, src), conv("r", "arith.bitcast", "v", src, dst)]
    assert value(ops, "r", dst) == expected


# -- control ---------------------------------------------------------------------------------


def sum_below(n):
    """main: s = 0; for i in 0..n { s += i }; return s (block arguments carry i and s)."""
    return func("main", [
        block("bb0", [const("zero", 0, "i32"), const("n", n, "i32")],
              L["Br"]("bb1", ["zero", "zero"])),
        block("bb1", [cmp("c", "cmpi", "slt", "i", "n", "i32")],
              L["CondBr"]("c", "bb2", [], "bb3", ["s"]), args=[("i", "i32"), ("s", "i32")]),
        block("bb2", [const("one", 1, "i32"), arith("s2", "addi", "s", "i", "i32"),
                      arith("i2", "addi", "i", "one", "i32")],
              L["Br"]("bb1", ["i2", "s2"])),
        block("bb3", [], ret("total"), args=[("total", "i32")]),
    ], ["i32"])


def test_a_loop_with_block_arguments():
    assert run(sum_below(10)) == ("", 45)
    assert run(sum_below(0)) == ("", 0)


def test_branch_arguments_are_read_before_any_is_written():
    # (a, b) -> (b, a + b) ten times: the 10th Fibonacci pair, with a rotation of arguments.
    main = func("main", [
        block("bb0", [const("zero", 0, "i32"), const("one", 1, "i32")],
              L["Br"]("bb1", ["zero", "one", "zero"])),
        block("bb1", [const("ten", 10, "i32"), cmp("c", "cmpi", "slt", "k", "ten", "i32")],
              L["CondBr"]("c", "bb2", [], "bb3", []),
              args=[("a", "i32"), ("b", "i32"), ("k", "i32")]),
        block("bb2", [arith("ab", "addi", "a", "b", "i32"), const("inc", 1, "i32"),
                      arith("k2", "addi", "k", "inc", "i32")],
              L["Br"]("bb1", ["b", "ab", "k2"])),
        block("bb3", [], ret("a")),
    ], ["i32"])
    assert run(main)[1] == 55


def test_a_call_binds_arguments_and_returns_results():
    add3 = func("add3", [block("bb0", [arith("s", "addi", "x", "y", "i64"),
                                       arith("t", "addi", "s", "x", "i64")],
                               ret("t", "s"))], ["i64", "i64"], args=[("x", "i64"), ("y", "i64")])
    main = func("main", [block("bb0", [
        const("a", 5, "i64"), const("b", 7, "i64"),
        call("add3", ["a", "b"], [("t", "i64"), ("s", "i64")]),
        arith("d", "subi", "t", "s", "i64"),
        conv("r", "arith.trunci", "d", "i64", "i32"),
    ], ret("r"))], ["i32"])
    assert run(add3, main)[1] == 5


def test_a_kernel_launch_runs_like_a_call_and_shares_its_memref():
    kernel = func("main$kernel0", [block("bb0", [
        const("i", 1, "index"), const("v", 2.5, "f32"),
        L["Store"]("v", "t", ["i"], "memref<4xf32>")], ret())],
        args=[("t", "memref<4xf32>")], topology="GPU")
    main = func("main", [block("bb0", [
        L["Alloc"]("t", (), "memref<4xf32>"),
        const("i", 1, "index"),
        call("main$kernel0", ["t"], launch="GPU"),
        L["Load"]("x", "t", ["i"], "memref<4xf32>"),
        conv("r", "llvm.intr.fptosi.sat", "x", "f32", "i32"),
    ], ret("r"))], ["i32"])
    assert run(kernel, main)[1] == 2


def test_a_reference_names_a_place_a_cell_or_an_element_of_a_buffer():
    place = "memref<i32, strided<[], offset: ?>>"
    bump = func("bump", [block("bb0", [
        L["Load"]("x", "p", [], place), const("one", 1, "i32"),
        arith("y", "addi", "x", "one", "i32"), L["Store"]("y", "p", [], place)], ret())],
        args=[("p", place)])
    main = func("main", [block("bb0", [
        L["Alloc"]("t", (), "memref<2x3xi32>"), L["Alloca"]("c", "memref<i32>"),
        const("ten", 10, "i32"), L["Store"]("ten", "c", [], "memref<i32>"),
        const("i", 1, "index"), const("j", 2, "index"),
        L["Subview"]("e", "t", ["i", "j"], "memref<2x3xi32>", place),
        L["Cast"]("r", "c", "memref<i32>", place),
        call("bump", ["e"]), call("bump", ["e"]), call("bump", ["r"]),
        L["Load"]("a", "t", ["i", "j"], "memref<2x3xi32>"),
        L["Load"]("b", "c", [], "memref<i32>"),
        const("hundred", 100, "i32"), arith("s", "muli", "a", "hundred", "i32"),
        arith("v", "addi", "s", "b", "i32"),
    ], ret("v"))], ["i32"])
    assert run(bump, main)[1] == 211


def test_an_entry_block_may_name_the_arguments():
    inc = func("inc", [block("bb0", [const("one", 1, "i32"), arith("r", "addi", "y", "one",
                                                                   "i32")],
                             ret("r"), args=[("y", "i32")])], ["i32"], args=[("x", "i32")])
    main = func("main", [block("bb0", [const("a", 41, "i32"),
                                       call("inc", ["a"], [("b", "i32")])], ret("b"))], ["i32"])
    assert run(inc, main)[1] == 42


def test_main_without_a_result_returns_0():
    assert run(func("main", [block("bb0", [], ret())])) == ("", 0)


def test_the_call_depth_is_bounded_as_in_the_tree_interpreter():
    loop = func("main", [block("bb0", [call("main")], ret())])
    _, stop = stopped(loop, max_depth=50)
    assert (stop.code, stop.message) == (
        "E9006", "call depth exceeded 50 nested calls (in 'main'): unbounded recursion?")
    assert MAX_CALL_DEPTH == 10_000


def test_reaching_unreachable_is_a_compiler_bug():
    _, stop = stopped(func("main", [block("bb0", [], L["Unreachable"]())]))
    assert (stop.code, stop.message) == ("E9006", "internal error: llvm.unreachable was reached")


def test_an_undefined_value_is_a_compiler_bug():
    _, stop = stopped(func("main", [block("bb0", [], ret("nowhere"))], ["i32"]))
    assert stop.message == "internal error: %nowhere is not defined in 'main'"


def test_no_main():
    _, stop = stopped(func("other", [block("bb0", [], ret())]))
    assert stop.message == "the program has no function 'main' to run"


# -- memory ----------------------------------------------------------------------------------


def test_an_alloca_is_one_cell():
    ops = [L["Alloca"]("c", "memref<i32>"), const("v", 7, "i32"),
           L["Store"]("v", "c", [], "memref<i32>"), L["Load"]("x", "c", [], "memref<i32>")]
    assert value(ops, "x", "i32") == 7


def test_a_2d_buffer_is_row_major_and_its_collapse_shares_the_cells():
    ops = [L["Alloc"]("t", (), "memref<2x3xi32>"), const("i", 1, "index"),
           const("j", 2, "index"), const("v", 9, "i32"), L["Store"]("v", "t", ["i", "j"], "memref<2x3xi32>"),
           L["Collapse"]("flat", "t", "memref<2x3xi32>", "memref<6xi32>"),
           const("k", 5, "index"), L["Load"]("x", "flat", ["k"], "memref<6xi32>"),
           const("w", 4, "i32"), L["Store"]("w", "flat", ["k"], "memref<6xi32>"),
           L["Load"]("y", "t", ["i", "j"], "memref<2x3xi32>"),
           arith("r", "muli", "x", "y", "i32")]
    assert value(ops, "r", "i32") == 36


def test_a_buffer_of_dynamic_extents_has_those_alloc_was_given():
    # memref<?x3xi32> of 2 rows: memref.dim reads each extent, the cells are row-major, and
    # its collapse is of the 6 it holds.
    t, flat = "memref<?x3xi32>", "memref<?xi32>"
    ops = [const("n", 2, "index"), L["Alloc"]("t", ("n",), t), const("zero", 0, "index"),
           const("one", 1, "index"), L["Dim"]("rows", "t", "zero", t),
           L["Dim"]("cols", "t", "one", t), arith("last", "subi", "rows", "one", "index"),
           const("v", 9, "i32"), L["Store"]("v", "t", ["last", "one"], t),
           L["Collapse"]("f", "t", t, flat), L["Dim"]("size", "f", "zero", flat),
           const("k", 4, "index"), L["Load"]("x", "f", ["k"], flat),
           arith("n1", "muli", "rows", "cols", "index"),
           arith("n2", "addi", "n1", "size", "index"),
           conv("n64", "arith.index_cast", "n2", "index", "i32"),
           arith("r", "addi", "x", "n64", "i32")]
    assert value(ops, "r", "i32") == 9 + 6 + 6


def test_an_index_past_a_dynamic_extent_is_a_compiler_bug():
    t = "memref<?xi32>"
    ops = [const("n", 2, "index"), L["Alloc"]("t", ("n",), t), L["Load"]("x", "t", ["n"], t)]
    _, stop = stopped(func("main", [block("bb0", ops, ret("x"))], ["i32"]))
    assert stop.message.startswith("internal error: index 2 of dimension 0 of a buffer of 2")


def test_a_transfer_copies_a_buffer_and_passes_a_scalar():
    ops = [L["Alloc"]("t", (), "memref<2xi64>"), const("i", 0, "index"), const("v", 1, "i64"),
           L["Store"]("v", "t", ["i"], "memref<2xi64>"),
           L["Transfer"]("u", "t", "memref<2xi64>", "CPU_DRAM", "GPU_HBM", None, None),
           const("w", 100, "i64"), L["Store"]("w", "u", ["i"], "memref<2xi64>"),
           L["Load"]("a", "t", ["i"], "memref<2xi64>"),
           L["Load"]("b", "u", ["i"], "memref<2xi64>"),
           L["Transfer"]("s", "b", "i64", None, "GPU_HBM", None, None),
           arith("r", "addi", "a", "s", "i64")]
    assert value(ops, "r", "i64") == 101  # the source still holds 1


@pytest.mark.parametrize("t, zero", [("memref<2xi32>", 0), ("memref<3x2xf16>", 0.0),
                                     ("memref<1xi8>", 0)])
def test_an_alloc_starts_zeroed_as_the_runtime_gives_it(t, zero):
    last = [const(f"i{k}", 0, "index") for k in range(t.count("x"))]
    ops = [L["Alloc"]("t", (), t), *last, L["Load"]("x", "t", [op.result for op in last], t)]
    got = value(ops, "x", t.rsplit("x", 1)[1][:-1])
    assert got == zero and type(got) is type(zero)


def test_a_read_of_an_alloca_never_written_is_a_compiler_bug():
    ops = [L["Alloca"]("t", "memref<2xi32>"), const("i", 1, "index"),
           L["Load"]("x", "t", ["i"], "memref<2xi32>")]
    _, stop = stopped(func("main", [block("bb0", ops, ret("x"))], ["i32"]))
    assert (stop.code, stop.message) == (
        "E9006", "internal error: a load from %t of a cell never written")


def test_a_cell_may_hold_a_buffer():
    # A tensor variable assigned after its `let`: its cell holds the memref itself.
    cell, tensor = "memref<memref<2xi32>>", "memref<2xi32>"
    ops = [L["Alloca"]("c", cell), L["Alloc"]("a", (), tensor), L["Alloc"]("b", (), tensor),
           L["Store"]("a", "c", [], cell), L["Store"]("b", "c", [], cell),
           L["Load"]("t", "c", [], cell), const("i", 1, "index"), const("v", 5, "i32"),
           L["Store"]("v", "t", ["i"], tensor), L["Load"]("x", "b", ["i"], tensor),
           L["Load"]("y", "a", ["i"], tensor), arith("r", "addi", "x", "y", "i32")]
    assert value(ops, "r", "i32") == 5  # written through the cell into b, not a


@pytest.mark.parametrize("i", [2, -1])
def test_an_index_out_of_bounds_is_a_compiler_bug(i):
    ops = [L["Alloc"]("t", (), "memref<2xi32>"), const("i", i, "index"), const("v", 0, "i32"),
           L["Store"]("v", "t", ["i"], "memref<2xi32>")]
    _, stop = stopped(func("main", [block("bb0", ops, ret())]))
    assert stop.message.startswith(f"internal error: index {i} of dimension 0 of memref<2xi32>")


def test_a_huge_buffer_holds_only_its_written_cells():
    t = "memref<1099511627776xf32>"
    ops = [L["Alloc"]("t", (), t), const("i", 2 ** 40 - 1, "index"), const("j", 7, "index"),
           const("v", -3.5, "f32"), L["Store"]("v", "t", ["i"], t),
           L["Transfer"]("u", "t", t, None, "GPU_HBM", None, None),
           L["Load"]("x", "u", ["i"], t), L["Load"]("z", "u", ["j"], t),
           arith("r", "addf", "x", "z", "f32")]
    assert value(ops, "r", "f32") == -3.5


# -- the runtime -----------------------------------------------------------------------------


def site(id_, kind, type_=None, text=None, dims=()):
    return L["PrintSite"](id_, kind, type_, text, list(dims))


def test_print_of_each_scalar_kind():
    ops = [
        const("a", -1, "i8"), conv("a64", "arith.extui", "a", "i8", "i64"),
        *print_call(0, "a64"),                                   # u8 255
        conv("s64", "arith.extsi", "a", "i8", "i64"),
        *print_call(1, "s64"),                                   # i8 -1
        const("m", -1, "i64"), *print_call(2, "m"),              # u64 max
        const("t", 1, "i1"), conv("t64", "arith.extui", "t", "i1", "i64"),
        *print_call(3, "t64"),                                   # true
        const("x", 0.1, "f32"), conv("x64", "arith.extf", "x", "f32", "f64"),
        conv("xb", "arith.bitcast", "x64", "f64", "i64"),
        *print_call(4, "xb"),                                    # f32 0.1
        const("h", 65504.0, "f16"), conv("h64", "arith.extf", "h", "f16", "f64"),
        conv("hb", "arith.bitcast", "h64", "f64", "i64"),
        *print_call(5, "hb"),                                    # f16 max
        const("n", math.nan, "f64"), conv("nb", "arith.bitcast", "n", "f64", "i64"),
        *print_call(6, "nb"),                                    # NaN
        const("z", 0, "i64"), *print_call(7, "z"),               # a string
    ]
    sites = [site(0, "int", "u8"), site(1, "int", "i8"), site(2, "int", "u64"),
             site(3, "bool", "bool"), site(4, "float", "f32"), site(5, "float", "f16"),
             site(6, "float", "f64"), site(7, "str", text="done")]
    out, _ = run(*sites, func("main", [block("bb0", ops, ret())]))
    assert out == "255\n-1\n18446744073709551615\ntrue\n0.1\n65500\nNaN\ndone\n"


def tensor_print(memref, elem, dims, values, site_id=0):
    """Ops storing `values` row-major into a fresh buffer and printing it through its
    pointer, as select-instructions prints a tensor."""
    n = len(values)
    flat = f"memref<{n}x{elem}>"
    ops = [L["Alloc"]("t", (), memref), L["Collapse"]("flat", "t", memref, flat)]
    for k, v in enumerate(values):
        ops += [const(f"k{k}", k, "index"), const(f"v{k}", v, elem),
                L["Store"](f"v{k}", "flat", [f"k{k}"], flat)]
    ops += [L["Pointer"]("p", "t", memref),
            conv("p64", "arith.index_cast", "p", "index", "i64"), *print_call(site_id, "p64")]
    return ops


@pytest.mark.parametrize("memref, elem, scalar, dims, values, text", [
    ("memref<2x2xi32>", "i32", "i32", (2, 2), [1, -2, 3, 4], "[[1, -2], [3, 4]]"),
    ("memref<3xi8>", "i8", "bool", (3,), [1, 0, 1], "[true, false, true]"),
    ("memref<2xi8>", "i8", "u8", (2,), [-1, 7], "[255, 7]"),
    ("memref<2xi64>", "i64", "u64", (2,), [-1, 0], "[18446744073709551615, 0]"),
    ("memref<2xf16>", "f16", "f16", (2,), [0.1, -2.5], "[0.1, -2.5]"),
    ("memref<2xbf16>", "bf16", "bf16", (2,), [0.1, 3.0], "[0.1, 3]"),
    ("memref<1x2xf32>", "f32", "f32", (1, 2), [0.1, math.inf], "[[0.1, inf]]"),
    ("memref<2xf64>", "f64", "f64", (2,), [0.1, -0.0], "[0.1, -0]"),
])
def test_print_of_a_tensor_reads_its_buffer(memref, elem, scalar, dims, values, text):
    ops = tensor_print(memref, elem, dims, values)
    out, _ = run(site(0, "tensor", scalar, dims=dims), func("main", [block("bb0", ops, ret())]))
    assert out == text + "\n"


def row_print(row_bytes, values):
    """Ops storing `values` into a 2x2 i32 buffer and printing the two elements `row_bytes`
    past its start, as select-instructions prints a row (`print(c[1])`)."""
    ops = tensor_print("memref<2x2xi32>", "i32", (2, 2), values)[:-2]  # all but the print
    return ops + [const("skip", row_bytes, "i64"), arith("row", "addi", "p64", "skip", "i64"),
                  *print_call(0, "row")]


def test_print_of_a_row_reads_from_inside_its_buffer():
    ops = row_print(8, [1, -2, 3, 4])
    out, _ = run(site(0, "tensor", "i32", dims=(2,)), func("main", [block("bb0", ops, ret())]))
    assert out == "[3, 4]\n"


@pytest.mark.parametrize("row_bytes, said", [
    (12, "print of 2 elements from byte 12 of a buffer of 4"),  # runs past the end
    (6, "print of 2 elements from byte 6 of a buffer of 4"),  # not on an element
])
def test_print_past_a_buffer_or_between_its_elements_is_a_compiler_bug(row_bytes, said):
    _, stop = stopped(site(0, "tensor", "i32", dims=(2,)),
                      func("main", [block("bb0", row_print(row_bytes, [1, 2, 3, 4]), ret())]))
    assert stop.message == f"internal error: {said}"


def test_print_of_a_tensor_with_a_cell_never_written_is_a_compiler_bug():
    ops = [L["Alloca"]("t", "memref<2xi32>"), L["Pointer"]("p", "t", "memref<2xi32>"),
           conv("p64", "arith.index_cast", "p", "index", "i64"), *print_call(0, "p64")]
    _, stop = stopped(site(0, "tensor", "i32", dims=(2,)),
                      func("main", [block("bb0", ops, ret())]))
    assert stop.message == "internal error: print of a buffer with a cell never written"


def test_two_pointers_to_one_buffer_and_its_view_agree():
    ops = [L["Alloc"]("t", (), "memref<2x2xi8>"),
           L["Collapse"]("flat", "t", "memref<2x2xi8>", "memref<4xi8>"),
           L["Pointer"]("p", "t", "memref<2x2xi8>"), L["Pointer"]("q", "flat", "memref<4xi8>"),
           cmp("same", "cmpi", "eq", "p", "q", "index"),
           L["Alloc"]("u", (), "memref<2x2xi8>"), L["Pointer"]("w", "u", "memref<2x2xi8>"),
           cmp("other", "cmpi", "ne", "p", "w", "index"),
           arith("r", "andi", "same", "other", "i1")]
    assert value(ops, "r", "i1") == 1


def span_of(text, part):
    start = text.index(part)
    return Span(Source("t.vx", text), start, start + len(part))


def test_a_stop_reports_its_site_with_the_operands():
    span = span_of("let q = a / b;", "a / b")
    stop_site = L["StopSite"](3, "E9001", "attempt to divide {a} by zero ({b})", "u32",
                              span=span)
    ops = [const("nothing", 0, "i64"), *print_call(0, "nothing"),
           const("s", 3, "i32"), const("a", 4294967295, "i64"), const("b", 0, "i64"),
           call("vx_stop", ["s", "a", "b"])]
    out, stop = stopped(site(0, "str", text="before"), stop_site,
                        func("main", [block("bb0", ops, L["Unreachable"]())]))
    assert out == "before\n"
    assert (stop.code, stop.span, stop.message) == (
        "E9001", span, "attempt to divide 4294967295 by zero (0)")


def test_check_alloc_refuses_more_than_the_machine_holds():
    stop_site = L["StopSite"](1, "E9006", "cannot allocate {a} bytes", "u64")
    ops = [const("s", 1, "i32"), const("n", 1 << 62, "i64"), call("vx_check_alloc", ["s", "n"]),
           *print_call(0, "n")]
    out, stop = stopped(stop_site, site(0, "str", text="allocated"),
                        func("main", [block("bb0", ops, ret())]))
    assert out == ""
    assert stop.message == f"cannot allocate {1 << 62} bytes"


def test_check_alloc_reads_the_bytes_unsigned():
    stop_site = L["StopSite"](1, "E9006", "cannot allocate {a} bytes", "u64")
    ops = [const("s", 1, "i32"), const("n", -1, "i64"), call("vx_check_alloc", ["s", "n"])]
    _, stop = stopped(stop_site, func("main", [block("bb0", ops, ret())]))
    assert stop.message == "cannot allocate 18446744073709551615 bytes"


def test_check_alloc_lets_a_small_allocation_through():
    stop_site = L["StopSite"](1, "E9006", "cannot allocate {a} bytes", "u64")
    ops = [const("s", 1, "i32"), const("n", 4096, "i64"), call("vx_check_alloc", ["s", "n"]),
           const("z", 0, "i64"), *print_call(0, "z")]
    out, _ = run(stop_site, site(0, "str", text="allocated"),
                 func("main", [block("bb0", ops, ret())]))
    assert out == "allocated\n"


def test_an_assumption_that_fails_stops_with_its_text():
    span = span_of("assume(i < n)", "i < n")
    ops = [const("i", 5, "i32"), const("n", 4, "i32"), cmp("c", "cmpi", "slt", "i", "n", "i32"),
           L["Assume"]("c", span=span)]
    _, stop = stopped(func("main", [block("bb0", ops, ret())]))
    assert (stop.code, stop.span, stop.message) == (
        "E9002", span, "assumption failed in a kernel: i < n")


def test_an_assumption_that_holds_goes_on():
    ops = [const("t", 1, "i1"), L["Assume"]("t"), const("r", 3, "i32")]
    assert value(ops, "r", "i32") == 3


def test_a_call_of_an_undeclared_runtime_function_is_a_compiler_bug():
    program = L["Module"]([func("main", [block("bb0", [call("vx_print", [])], ret())])])
    with pytest.raises(RuntimeStop) as info:
        run_program(program, out=io.StringIO())
    assert "neither a function nor a runtime function declared" in info.value.message


def test_print_of_a_fresh_alloc_shows_its_zeros():
    ops = [L["Alloc"]("t", (), "memref<2x1xi8>"), L["Pointer"]("p", "t", "memref<2x1xi8>"),
           conv("p64", "arith.index_cast", "p", "index", "i64"), *print_call(0, "p64")]
    out, _ = run(site(0, "tensor", "bool", dims=(2, 1)), func("main", [block("bb0", ops, ret())]))
    assert out == "[[false], [false]]\n"


# -- vectors ---------------------------------------------------------------------------------


def _lanes(ops, result, vector="vector<2xi8>"):
    """The lanes of %result after `ops`, read one at a time by vector.extract."""
    reads = [const("k0", 0, "index"), const("k1", 1, "index"),
             L["Extract"]("x0", result, "k0", vector, vector[9:-1]),
             L["Extract"]("x1", result, "k1", vector, vector[9:-1])]
    return value(ops + reads, "x0", vector[9:-1]), value(ops + reads, "x1", vector[9:-1])


def test_arith_on_vectors_computes_each_lane_at_the_lanes_type():
    ops = [const("a", 100, "i8"), const("b", -7, "i8"),
           L["FromElements"]("v", ["a", "b"], "vector<2xi8>"),
           L["Broadcast"]("w", "a", "i8", "vector<2xi8>"),
           arith("r", "addi", "v", "w", "vector<2xi8>")]
    assert _lanes(ops, "r") == (-56, 93)  # 200 wraps at 8 bits


def test_float_lanes_round_to_their_type_and_math_runs_lane_by_lane():
    ops = [const("a", 0.1, "f32"), const("b", 16.0, "f32"),
           L["FromElements"]("v", ["a", "b"], "vector<2xf32>"),
           arith("s", "mulf", "v", "v", "vector<2xf32>"),
           L["Math"]("r", "sqrt", "s", "vector<2xf32>")]
    assert _lanes(ops, "r", "vector<2xf32>") == (0.10000000149011612, 16.0)


def test_a_vector_lives_in_a_cell_of_its_own():
    cell = "memref<vector<2xi8>>"
    ops = [const("a", 3, "i8"), L["Broadcast"]("v", "a", "i8", "vector<2xi8>"),
           L["Alloca"]("c", cell), L["Store"]("v", "c", [], cell), L["Load"]("r", "c", [], cell)]
    assert _lanes(ops, "r") == (3, 3)


@pytest.mark.parametrize("lane", [2, -1])
def test_a_lane_out_of_range_is_a_compiler_bug(lane):
    ops = [const("a", 3, "i8"), L["Broadcast"]("v", "a", "i8", "vector<2xi8>"),
           const("k", lane, "index"), L["Extract"]("r", "v", "k", "vector<2xi8>", "i8")]
    _, stop = stopped(func("main", [block("bb0", ops, ret("r"))], ["i8"]))
    assert stop.message.startswith(f"internal error: lane {lane} of vector<2xi8>")


def test_a_comparison_and_a_conversion_of_vectors_run_lane_by_lane():
    ops = [const("a", -1, "i8"), const("b", 2, "i8"),
           L["FromElements"]("v", ["a", "b"], "vector<2xi8>"),
           L["Broadcast"]("w", "b", "i8", "vector<2xi8>"),
           L["Compare"]("c", "cmpi", "ult", "v", "w", "vector<2xi8>"),
           conv("r", "arith.extui", "c", "vector<2xi1>", "vector<2xi8>")]
    assert _lanes(ops, "r") == (0, 0)  # 255 and 2 are not below 2
    ops[-2] = L["Compare"]("c", "cmpi", "slt", "v", "w", "vector<2xi8>")
    assert _lanes(ops, "r") == (1, 0)


@pytest.mark.parametrize("op", [
    L["FromElements"]("v", ["a"], "vector<2xi8>"),
    L["Broadcast"]("v", "a", "i8", "i8"),
    conv("v", "arith.extsi", "a", "i8", "vector<2xi16>"),
])
def test_what_lmlir_has_not_on_vectors_is_a_compiler_bug(op):
    _, stop = stopped(func("main", [block("bb0", [const("a", 3, "i8"), op], ret())]))
    assert stop.code == "E9006" and stop.message.startswith("internal error: ")
