"""select-instructions: the MLIR operations of every statement, in SSA form, with the checks
the interpreter makes as branches to the runtime's stop sites."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.languages.lcalls import Lcalls
from nano_vx.nanopass import PassError
from nano_vx.passes.select_instructions import lowering, select_instructions
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "select_instructions"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", select_instructions)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"select-instructions: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", select_instructions)


def _module(case: str):
    return run_front(CASES / f"{case}.vx", select_instructions).after


def _sites(module, prod: str) -> list:
    return [i for i in module.items if i._prod == prod]


def test_a_division_by_a_variable_is_checked_for_zero_and_overflow_by_a_constant_not():
    module = _module("arithmetic")
    divide = next(i for i in module.items if i._prod == "Func" and i.name == "divide")
    text = to_text(module)
    messages = [s.message for s in _sites(module, "StopSite")]
    assert messages.count("attempt to divide {a} by zero (i32)") == 1  # divide's; not 100 / 7
    assert "attempt to compute {a} / -1, which overflows i32" in messages
    assert sum(1 for b in divide.blocks for op in b.ops if op._prod == "Arith"
               and op.op == "divsi") == 1
    assert "arith.divsi" in text and "arith.divui" not in text


def test_unsigned_values_compare_and_print_as_unsigned():
    module = _module("arithmetic")
    text = to_text(module)
    assert "arith.cmpi ugt" in text
    assert any(s.kind == "int" and s.type == "u32" for s in _sites(module, "PrintSite"))


def test_every_index_is_checked_against_its_extent_after_all_are_computed():
    module = _module("tensors")
    messages = {s.message for s in _sites(module, "StopSite")}
    assert "index {a} is out of bounds for dimension 1 of extent 3" in messages
    assert "index {a} is out of bounds for dimension 0 of extent 2" in messages


def test_a_tensor_of_dynamic_extents_is_allocated_with_them_and_checked_against_memref_dim():
    module = _module("dynamic_extents")
    text = to_text(module)
    assert "memref.alloc(" in text and ") : memref<?x3xf64>" in text
    assert "memref.alloca() : memref<memref<?xi8>>" in text  # flags, assigned: its cell
    total = next(i for i in module.items if i._prod == "Func" and i.name == "total")
    assert [a.type for a in total.args][0] == "memref<?x3xf64>"
    dims = [op for b in total.blocks for op in b.ops if op._prod == "Dim"]
    assert len(dims) == 1  # t[i]'s extent; j's, 3, is a constant
    messages = [s.message for s in _sites(module, "StopSite")]
    assert "index {a} is out of bounds for dimension 0 of extent {b}" in messages
    assert "index {a} is out of bounds for dimension 1 of extent 3" in messages
    # As make_tensor checks them: each extent, then the count; and the bytes an address holds.
    assert messages.count("a tensor extent must not be negative, found {a}") == 1  # rows'
    assert messages.count("a tensor of {a} elements is too large to address") == 4
    assert "cannot allocate `Tensor<f64, [?, 3]>::fill([rows, 3], 0.5)`: {a} elements of 8 " \
           "bytes, more than an address reaches" in messages
    # A print of one is a record whose slots hold its address and then its `?` extents,
    # after a stop when it holds more than a print shows, as the interpreter's.
    records = [s.text for s in _sites(module, "PrintSite") if s.kind == "record"]
    assert records == ["({bool[?]}, {i32})", "{i8[?]}", "{f64[?,3]}"]
    assert messages.count("refusing to print a tensor of {a} elements (more than 4096); print "
                          "some of its elements instead") == 3
    # A copy asks the runtime for room for the bytes its extents hold, and is vx.transfer.
    assert "cannot copy `grid` into Memory::GPU_HBM: {a} bytes is more than this machine's " \
           "memory" in messages
    assert '%dev = "vx.transfer"(' in text and ": (memref<?x3xf64>) -> memref<?x3xf64>" in text


def test_a_tensor_variable_assigned_after_its_let_lives_in_a_cell_of_its_memref():
    assert "memref.alloca() : memref<memref<2xi32>>" in to_text(_module("tensors"))


def test_a_transfer_keeps_its_route_and_a_launch_its_topology():
    text = to_text(_module("tensors"))
    assert '"vx.transfer"' in text and 'route = "CPU_DRAM -> GPU_HBM (50), cost 50"' in text
    assert '{vx.launch = "GPU"}' in text and 'attributes {vx.topology = "GPU"}' in text


def test_a_right_side_that_could_stop_or_print_is_branched_to_else_and_or():
    module = _module("logic")
    main = next(i for i in module.items if i._prod == "Func" and i.name == "main")
    joins = [b for b in main.blocks if b.args]
    assert len(joins) == 4  # b != 0 && a / b > 1, the two loud ||, the assert's a / b
    assert "arith.andi" in to_text(module)  # a > 1 && b == 0 needs no branch


def test_a_call_of_a_function_that_calls_none_checks_the_depth_and_writes_it_not():
    fns = {f.name: f for f in _module("call_depth").items if f._prod == "Func"}

    def writes(fn, callee):  # the depth stored before each call of callee in fn
        ops = [op for block in fn.blocks for op in block.ops]
        return [ops[k - 1]._prod == "Store" for k, op in enumerate(ops)
                if op._prod == "Call" and op.callee == callee]
    assert writes(fns["main"], "leaf") == [False] and writes(fns["main"], "rec") == [True] * 2
    assert writes(fns["rec"], "leaf") == [False] and writes(fns["rec"], "rec") == [True]


def test_a_bool_is_stored_as_a_byte_and_read_back_as_a_bool():
    text = to_text(_module("tensors"))
    assert "memref<2xi8>" in text and "xi1>" not in text
    assert "memref.alloc() : memref<2xi8>" in text  # zeroed: every element `false`
    ran = run_front("fn main() { let mut b = true; b = !b; let t = Tensor<bool, [1]>::new();"
                    " t[0] = b; print(t[0]); }\n", select_instructions)
    text = to_text(ran.after)
    assert "memref.alloca() : memref<i8>" in text and "arith.trunci" in text


# Hand-written Lcalls: a jump back to a function's first block, which explicate-control never
# makes (its first block is only entered). MLIR's entry block has no predecessors, so the
# first block is entered from an entry of its own, and the module parses and verifies.
JUMP_TO_THE_FIRST_BLOCK = """
    // IL: Lcalls
    fn spin(n: i32) -> i32 {
    bb0:
        branch n > 0i32, bb1, bb0;
    bb1:
        return n;
    }
"""


def test_handwritten_a_jump_to_the_first_block(run_pass, snapshot_txt):
    from nano_vx.backend.mlir import emit_mlir

    ran = run_pass("select-instructions", JUMP_TO_THE_FIRST_BLOCK)
    assert ran.codes == []
    assert "func.func @spin(%n: i32) -> i32 {\n    cf.br ^bb1\n  ^bb1:\n" in ran.text
    assert "func.func @spin" in emit_mlir(ran.tree)
    assert ran.dump == snapshot_txt


def test_every_statement_exit_and_expression_of_lcalls_has_its_handler():
    for nonterminal in ("Stmt", "Exit", "Expr"):
        for p in Lcalls.nonterminals[nonterminal].productions:
            assert p.name in lowering.handlers, p.name


def test_a_handler_for_a_production_lcalls_has_not_is_refused_when_it_is_declared():
    # What a misspelt name, or a production an earlier pass removed, meets at import.
    with pytest.raises(PassError, match="Lcalls has no production Assert"):
        lowering.on("Assert")(lambda run, node: None)
    assert "Assert" not in lowering.handlers


# Hand-written Lcalls, as a dump edited by hand may be: a local assigned after its `let`
# that its function's `cells` leave out. choose-memory-cells never makes one.
AN_ASSIGNED_LOCAL_WITHOUT_ITS_CELL = """
    // IL: Lcalls
    fn main() -> void {
    bb0:
        let mut x: i32 = 1i32;
        x = 2i32;
        print!(x);
        return;
    }
"""


def test_handwritten_an_assigned_local_without_its_cell_is_refused(run_pass):
    ran = run_pass("select-instructions", AN_ASSIGNED_LOCAL_WITHOUT_ITS_CELL)
    assert ran.codes == ["E1007"]
    assert "'x' is assigned or borrowed, so it lives in a cell" in ran.dump


def test_vectors_are_mlir_vectors_combined_by_one_op_an_integer_divide_lane_by_lane():
    module = _module("vectors")
    text = to_text(module)
    assert "vector.from_elements" in text and "vector.broadcast" in text
    assert "arith.mulf" in text and ": vector<4xf32>" in text
    assert "memref.alloca() : memref<vector<4xf32>>" in text  # `acc`, assigned: in a cell
    ops = [op for f in module.items if f._prod == "Func" for b in f.blocks for op in b.ops]
    assert not any(op._prod == "Arith" and op.op == "divsi" and "vector" in op.type
                   for op in ops)
    assert sum(op._prod == "Arith" and op.op == "divsi" for op in ops) == 2  # one per lane
    messages = [s.message for s in _sites(module, "StopSite")]
    assert messages.count("attempt to divide {a} by zero (i32)") == 2  # each lane's
    # `q[i]` is checked; `acc[3]`, a constant the front end checked, is not.
    assert messages.count("lane {a} of a vector of 2 lanes") == 1
    assert not any("of 4 lanes" in m for m in messages)


def test_half_lanes_are_combined_one_scalar_op_per_lane_as_the_interpreter_rounds_them():
    module = _module("half_lanes")
    ops = [op for f in module.items if f._prod == "Func" for b in f.blocks for op in b.ops]
    arith = [op for op in ops if op._prod == "Arith"]
    assert not any("vector" in op.type for op in arith)
    assert {(op.op, op.type) for op in arith if op.type in ("f16", "bf16")} == \
        {("divf", "f16"), ("mulf", "f16"), ("subf", "f16"), ("mulf", "bf16"), ("addf", "bf16"),
         ("divf", "bf16")}
    assert sum(op.op == "addf" and op.type == "bf16" for op in arith) == 4  # one per lane
    assert_native_as_interpreted(CASES / "half_lanes.vx")


# Hand-written Lcalls: a vector built, combined, kept in a cell and read at a lane computed
# at run time, which is checked (E9003) before vector.extract, with an index clamped into
# range so that MLIR never folds an out-of-range constant position into the op.
VECTORS = """
    // IL: Lcalls
    fn main() -> void cells v {
    bb0:
        let mut v: <2 x i64> = vec<2 x i64>(3i64, 4i64);
        v += splat::<2 x i64>(10i64);
        let k: i32 = -1i32;
        print!(v);
        print!(v[lane 1i32] +[i64] v[lane k]);
        return;
    }
"""


def test_handwritten_vectors(run_pass, snapshot_txt):
    from nano_vx.backend.mlir import emit_mlir

    ran = run_pass("select-instructions", VECTORS)
    assert ran.codes == []
    assert "arith.addi" in ran.text and ": vector<2xi64>" in ran.text
    assert "arith.minui" in ran.text and "vector.extract" in ran.text
    assert "vector.extract" in emit_mlir(ran.tree)
    assert _printed(ran.before) == _printed(ran.tree) == \
        "<13, 14>\nstopped: E9003: lane -1 of a vector of 2 lanes\n"
    assert ran.dump == snapshot_txt


def test_a_vector_is_an_llvm_vector():
    from nano_vx.backend.mlir import to_llvm_ir

    ir = to_llvm_ir(_module("vectors"))
    assert "define <4 x float> @vx.axpy(float %0, <4 x float> %1, <4 x float> %2)" in ir
    assert "fmul <4 x float>" in ir and "fadd <4 x float>" in ir
    assert "alloca <4 x float>" in ir  # `acc`'s cell


# A narrow tensor's element is a byte: Lmlir reads it through arith.bitcast and arith.extf
# and writes it through arith.truncf, which the Lmlir interpreter computes as ml_dtypes does.
NARROW = """fn main() {
    let zero: f32 = 0.0;
    let mut a = Tensor<f8e4m3, [4]>::fill(1.0625);
    a[1] = 465.0;
    a[2] = zero / zero;
    a[3] += 0.0009766;
    let mut b = Tensor<f8e5m2, [2, 2]>::fill(61440.0);
    b[1][0] = -7.77;
    let mut f = Tensor<f4e2m1, [3]>::fill(0.25);
    f[1] = 4.9;
    f[2] = -100.0;
    let mut n = Tensor<i4, [2]>::fill(7);
    n[0] += 1;
    let mut u = Tensor<u4, [2]>::fill(15);
    u[1] += 2;
    print(a);
    print(b);
    print(f);
    print(n);
    print(u);
    print(a[0] + b[1][0]);
}
"""


def test_narrow_tensors_print_as_the_interpreter_prints_them():
    ran = run_front(NARROW, select_instructions)
    assert not ran.diagnostics.items
    before, after = ran.prints()
    assert after == before and "NaN" in after and "[-8, 7]" in after


def test_a_row_past_a_dynamic_extent_prints_as_a_record_of_its_address_and_extents():
    module = _module("sized_rows")
    records = [site.text for site in _sites(module, "PrintSite") if site.kind == "record"]
    # `w[1][2]` of a `Tensor<i32, [2, ?, 2]>` too: static, but where it starts is not
    assert records == ["{i32[?]}", "{f32[?]}", "{f32[?]}", "{i32[2,?]}", "{i32[?]}",
                       "{i32[?]}", "{i32[?]}", "{i32[2]}", "{f32[?]}"]
    assert "memref.dim" in to_text(module)


@pytest.mark.parametrize("case", ["erase_raw_pointers/flattened_pointers",
                                  "erase_raw_pointers/narrow_pointers",
                                  "type_scalars/narrow_references"])
def test_pointers_seen_flat_and_references_to_narrow_elements_run_in_lmlir_as_written(case):
    # The views (memref.collapse_shape, expand_shape, cast) and the bytes of narrow elements
    # read and written through a reference, in the Lmlir evaluator.
    assert_prints_the_same(CASES.parent / f"{case}.vx", select_instructions)


@pytest.mark.parametrize("case", ["e9005_direct", "e9005_rank_three",
                                  "e9005_rank_four_of_many_sites",
                                  "e9005_rank_five_of_unknown_extents"])
def test_an_element_never_written_stops_naming_all_its_indices_in_lmlir(case):
    # One stop site per read, of any rank: its indices written to a stack buffer the
    # evaluator reads for the message, as the runtime does.
    path = CASES.parent / "track_uninit_elements" / f"{case}.vx"
    assert_prints_the_same(path, select_instructions)
    module = run_front(path, select_instructions).after
    assert {s.message for s in _sites(module, "StopSite") if s.code == "E9005"} == \
        {"read of element {[a[0]]..[a[b-1]]}, never written, of a tensor made with ::uninit()"}


def test_a_constant_calling_a_function_is_kept_in_a_global_once_computed():
    module = _module("constants_calling_functions")
    globals_ = {i.name: i.type for i in _sites(module, "Global")}
    # B and D, reading A, are computed where they are read; A and C call f.
    assert {n: t for n, t in globals_.items() if n.startswith("vx_const")} == {
        "vx_const_state_A": "memref<i8>", "vx_const_A": "memref<i32>",
        "vx_const_state_C": "memref<i8>", "vx_const_C": "memref<f32>"}
    messages = [s.message for s in _sites(module, "StopSite")]
    assert "the constant 'A' depends on itself" in messages


def test_a_lent_row_is_a_view_of_its_tensors_buffer():
    module = _module("lent_rows")
    rows = [op for f in _sites(module, "Func") for b in f.blocks for op in b.ops
            if op._prod == "Row"]
    # c[1] (rank 2), p[1] and c[0][1] (rank 1), d[1] of a `?` extent, sized by memref.dim
    assert sorted((len(op.indices), len(op.sizes)) for op in rows) == \
        [(1, 0), (1, 0), (1, 1), (2, 0)]
    assert_native_as_interpreted(CASES / "lent_rows.vx")


def test_rows_borrowed_by_lets_run_in_lmlir_as_written():
    # a `let`'s row, a row of it, one a `let mut` is made to refer to: each a Row
    assert_prints_the_same(CASES.parent / "type_scalars" / "rows_borrowed_by_lets.vx",
                           select_instructions)


# A view (a row lent or borrowed, an element's place) at an index outside its extent that
# MLIR folds to a constant: its offset is clamped once the index is checked, so the stop is
# the interpreter's rather than a negative offset expand-strided-metadata refuses.
VIEWED_OUTSIDE = ["fn f(r: &mut Tensor<i32, [2]>) { r[1] = 5; }\n"
                  "fn main() { let mut m = Tensor<i32, [3, 2]>::fill(4); let i = -1;\n"
                  "  f(&mut m[i]); print(m); }\n",
                  "fn f(r: &mut i32) { *r = 5; }\n"
                  "fn main() { let mut m = Tensor<i32, [3, 2]>::fill(4); let i = -1;\n"
                  "  f(&mut m[0][i]); print(m); }\n",
                  "fn main() { let m = Tensor<i32, [3, 3, 2]>::fill(4); let i = -1;\n"
                  "  let r = &m[0][i]; print(r); }\n",
                  "fn f(r: &Tensor<i32, [2]>) -> i32 { r[0] }\n"
                  "fn main() { let m = Tensor<i32, [3, 2]>::fill(4);\n"
                  "  let i: i64 = 4611686018427387904; print(f(&m[i])); }\n"]


@pytest.mark.parametrize("source", VIEWED_OUTSIDE)
def test_a_view_at_a_constant_index_outside_stops_as_the_interpreter(source, tmp_path):
    path = tmp_path / "outside.vx"
    path.write_text(source)
    assert_native_as_interpreted(path)
