"""scalarize-aggregates: each struct, tuple and enum value is the scalars it is made of; a
function returning one writes out-parameters, and gives back whole each tensor but its first
(copy-out-tensors copies it); a test of an enum's variant is one of its tag;
the literal `print` is given is made of scalars; the program prints what it printed, and
native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.scalarize_aggregates import scalarize_aggregates
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "scalarize_aggregates"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
# Outside a `print`, no aggregate is left: only scalars, tensors and references to scalars.
GONE = {"FieldGet", "TupleGet"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", scalarize_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert not {n._prod for n in ran.nodes()} & GONE
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", scalarize_aggregates)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_program_without_aggregates_comes_out_as_it_went_in():
    ran = run_front("fn main() { print(1); }\n", scalarize_aggregates)
    assert ran.after is ran.before


def test_a_struct_returned_is_written_through_out_parameters():
    ran = run_front(CASES / "structs.vx", scalarize_aggregates)
    shifted = next(i for i in ran.after.items if i.name == "shifted")
    assert [p.name for p in shifted.params] == ["p_x", "p_y", "d", "ret_x", "ret_y"]
    assert shifted.ret is None


def test_a_struct_holding_a_tensor_returns_the_tensor_and_writes_the_rest():
    ran = run_front(CASES / "tensor_fields.vx", scalarize_aggregates)
    stats = next(i for i in ran.after.items if i.name == "stats")
    assert [p.name for p in stats.params] == ["k", "ret_count"]
    assert stats.ret._prod == "TensorType" and stats.body.value.name == "ret_values"


def test_a_struct_returned_holding_two_tensors_returns_one_and_gives_back_the_other():
    ran = run_front(CASES / "two_tensors.vx", scalarize_aggregates)
    both = next(i for i in ran.after.items if i.name == "both")
    assert [p.name for p in both.params] == ["x", "s_tag", "s_By_0", "ret_b"]
    assert both.body.value.name == "ret_a"
    assert "give_back ret_b = agg#1;" in to_text(both)  # copy-out-tensors copies it
    grid = next(i for i in ran.after.items if i.name == "grid")
    assert "give_back ret_cols = cols;" in to_text(grid)


def test_a_generic_field_only_a_literal_types_is_the_type_the_result_gives_the_literal():
    ran = run_front(CASES / "literal_fields.vx", scalarize_aggregates)
    make = next(i for i in ran.after.items if i.name == "make")
    mixed = next(i for i in ran.after.items if i.name == "mixed")
    assert [to_text(p.type).strip() for p in make.params] == ["&mut f32", "&mut f32"]
    assert [to_text(p.type).strip() for p in mixed.params][1:] == \
        ["&mut i64", "&mut f32", "&mut bool"]


def test_a_generic_structs_fields_are_typed_as_its_calls_give_them():
    ran = run_front(CASES / "generic_arguments.vx", scalarize_aggregates)
    fns = {i.name: i for i in ran.after.items if i._prod == "Fn"}
    assert [to_text(p.type).strip() for p in fns["total"].params] == \
        ["i32", "Tensor<i32, [3]>"]
    assert [to_text(p.type).strip() for p in fns["same$Row"].params] == \
        ["i32", "Tensor<i32, [3]>", "&mut i32"]  # its tensor is its result
    assert to_text(fns["same$Row"].ret).strip() == "Tensor<i32, [3]>"
    assert [to_text(p.type).strip() for p in fns["third"].params] == ["f64"]
    assert to_text(fns["third"].body.value).strip() == "c_v as f32"
    assert "return c_v as i64;" in to_text(fns["wide"])


def test_a_generic_struct_holding_ever_deeper_aggregates_is_refused_then_repaired():
    # instantiate-aggregate-forms copies a function per form, a few rounds deep; the form a
    # recursive call nests deeper each time is left to a copy that takes every form. (With
    # its arguments written, `Cell<i32>`, check-struct-instances refuses the nesting.)
    assert_refused_then_repaired(CASES / "e5010_unwritten_arguments_holding_ever_deeper_"
                                         "aggregates.vx",
                                 scalarize_aggregates, "E5010",
                                 "a generic struct holding an aggregate")


def test_a_generic_struct_holding_an_aggregate_handed_between_functions_is_split_per_copy():
    ran = run_front(CASES / "generic_holding_aggregate_handed_between_functions.vx",
                    scalarize_aggregates)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    # Each copy takes one form: ping a Point's two fields, ping$2 a tuple's, and pong, which
    # hands its parameter back, the form of the copy of ping calling it.
    assert "fn ping(c_v_x: i32, c_v_y: i32, c_n: i32" in fns["ping"]
    assert "fn ping$2(c_v_0: i32, c_v_1: i32, c_n: i32" in fns["ping$2"]
    assert "@pong$2(" in fns["ping$2"] and "@ping$2(" in fns["pong$2"]


def test_a_reference_to_an_aggregate_is_a_reference_per_part():
    ran = run_front(CASES / "references.vx", scalarize_aggregates)
    fns = {i.name: i for i in ran.after.items if i._prod == "Fn"}
    assert [to_text(p.type).strip() for p in fns["norm1"].params] == ["i32", "i32"]
    assert [to_text(p.type).strip() for p in fns["shift"].params] == \
        ["&mut i32", "&mut i32", "i32"]
    assert "*p_x = *p_x + d;" in to_text(fns["shift"])
    assert "@shift(p_x, p_y, d);" in to_text(fns["shift_twice"])  # handed on as it is
    assert "@shift(&mut a_x, &mut a_y, 5);" in to_text(fns["main"])
    # `let r = &mut a` names a (inline-aggregate-references): `r.y = 0` writes a_y.
    assert "a_y = 0;" in to_text(fns["main"])
    grid = {i.name: i for i in run_front(CASES / "enum_references.vx",
                                         scalarize_aggregates).after.items}["fill"]
    cells, width = (to_text(p.type).strip() for p in grid.params[:2])
    assert cells.startswith("Tensor<i32, [4]") and width == "&mut i32"  # a buffer already


def test_a_tensor_assigned_whole_through_a_reference_is_copied_into_the_callers_buffer():
    ran = run_front(CASES / "tensor_part_assigned_through_a_reference.vx", scalarize_aggregates)
    reset = to_text(next(i for i in ran.after.items if i.name == "reset"))
    assert "reset(g_cells: Tensor<i32, [4]" in reset and "g_cells = " not in reset
    assert reset.count("g_cells[copied") == 4  # one copy per tensor assigned


# The buffer a callee whose call is passed on where it is made fills
# (return-assigned-tensor-fields returns the tensor of one a statement calls) held by another
# local: one a function given the buffer returned (it reads the old tensor in the
# interpreter). The caller cannot keep it itself: `let old = g.cells` moves the field, and
# lending g after that is E4001.
HELD_ELSEWHERE = {
    "take": "let old = take(&mut g);\n  print(reset(&mut g));",
}
HOLDER = """struct Grid {{ cells: Tensor<i32, [4]>, width: i32 }}
fn take(g: &mut Grid) -> Tensor<i32, [4]> {{ g.cells }}
fn reset(g: &mut Grid) {result} {{ g.cells = Tensor<i32, [4]>::fill(7); {value} }}
fn main() {{
  let mut g = Grid {{ cells: Tensor<i32, [4]>::new(), width: 0 }};
  {calls}
  print(old);
  print(g);
}}
"""


@pytest.mark.parametrize("where", sorted(HELD_ELSEWHERE))
def test_a_buffer_filled_that_another_local_holds_is_refused(where):
    ran = run_front(HOLDER.format(result="-> i32", value="g.width", calls=HELD_ELSEWHERE[where]),
                    scalarize_aggregates)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5010" and f"(in '{where}')" in diag.message
    assert "whose buffer another may hold" in diag.message


def test_a_buffer_a_function_without_a_result_assigns_whole_is_the_callers_field_again(
        tmp_path):
    program = tmp_path / "held.vx"
    program.write_text(HOLDER.format(result="", value="",
                                     calls="let old = take(&mut g);\n  reset(&mut g);"))
    ran = run_front(program, scalarize_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "g_cells = @reset(g_cells, &mut g_width, g_cells);" in to_text(ran.after)
    assert_native_as_interpreted(program)


@pytest.mark.parametrize("case, says", [
    ("e5010_two_tensor_parts_assigned_and_both_held_one_lent_mutably_before",
     "a tensor part of a `&mut` aggregate assigned whole, whose buffer another may hold"),
    ("e5010_tensor_assigned_whole_through_a_reference_to_a_parameters_struct_made_to_refer_"
     "elsewhere_whose_tensor_a_let_holds",
     "a tensor part of a `&mut` aggregate assigned whole, whose buffer another may hold"),
])
def test_a_reference_not_lowered_is_refused_then_repaired(case, says):
    assert_refused_then_repaired(CASES / f"{case}.vx", scalarize_aggregates, "E5010", says)


def test_a_tensor_holders_mut_local_refers_to_the_variable_holding_the_buffer():
    ran = run_front(CASES / "mut_reference_to_a_tensor_holder_made_to_refer_elsewhere.vx",
                    scalarize_aggregates)
    main = to_text(next(i for i in ran.after.items if i.name == "main"))
    assert "let mut r_cells: ~&mut Tensor<i32, [2], Memory::CPU_DRAM> = &mut a_cells;" in main
    assert "r_cells = &mut b_cells;" in main and "(*r_cells)[0] = 9;" in main
    # One bound from another such `&mut` takes its reference.
    assert "s_cells = r_cells;" in main


# Made to refer elsewhere in five `if`s (copy-rest-into-repointing-arms writes at most four),
# or in a loop to a `&mut` parameter's struct: the new tensor's elements are copied into the
# buffer the tensor part's `&mut` refers to, the variable's or the caller's.
@pytest.mark.parametrize("case, copied", [
    ("tensor_assigned_whole_through_a_reference_made_to_refer_elsewhere_in_five_ifs",
     "        (*r_cells)[copied#8] = filled#7[copied#8];\n"),
    ("tensor_assigned_whole_through_a_reference_to_a_parameters_struct_made_to_refer_"
     "elsewhere_in_a_loop", "            (*r_cells)[copied] = filled[copied];\n"),
])
def test_a_tensor_assigned_whole_through_a_mut_local_is_copied_into_its_buffer(case, copied):
    ran = run_front(CASES / f"{case}.vx", scalarize_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert copied in to_text(ran.after) and "*r_cells = " not in to_text(ran.after)


def test_a_mut_reference_returned_is_refused_in_the_function_and_where_it_is_bound():
    # The function returns from its statements on a condition after a `let` its arm reads:
    # neither split nor written at the call.
    early = "e5010_mut_reference_returned_early_on_a_condition_after_a_let_the_arm_reads"
    ran = run_front(CASES / f"{early}.vx", scalarize_aggregates)
    assert [(d.code, d.message.split(" (in ")[1]) for d in ran.diagnostics.items] == \
        [("E5010", "'early')"), ("E5010", "'main')")]
    assert "a function returning a `&mut` to an aggregate" in ran.diagnostics.items[0].message
    repaired = run_front(CASES / f"{early}_repaired.vx", scalarize_aggregates)
    assert not repaired.diagnostics.items, repaired.diagnostics.render()


def test_an_instance_of_a_generic_struct_is_taken_apart_as_any_struct():
    ran = run_front(CASES / "generic_holding_aggregate.vx", scalarize_aggregates)
    get = next(i for i in ran.after.items if i.name == "get")
    assert [(p.name, to_text(p.type).strip()) for p in get.params] == \
        [("c_v_x", "i32"), ("c_v_y", "i32")]


# Hand-written Lmatched: a local already named `p_x`, the name the pass gives the field x of
# a struct p; resolve-names never makes one that could collide, a dump edited by hand may.
NAME_TAKEN = """
    // IL: Lmatched
    struct Point {
        x: i32,
        y: i32,
    }

    fn main() {
        let p_x: i32 = 5;
        let p: Point = Point { y: 2, x: 1 };
        @print(p.x + p_x);
        @print(Point { x: p.x, y: p.y });
    }
"""


def test_handwritten_a_field_takes_a_name_not_bound_yet(run_pass):
    ran = run_pass("scalarize-aggregates", NAME_TAKEN)
    assert ran.codes == []
    lets = [s.name for s in ran.tree.items[1].body.stmts if s._prod == "Let"]
    assert lets == ["p_x", "p_x#1", "p_y"]
    assert _printed(ran.before) == _printed(ran.tree) == "6\nPoint { x: 1, y: 2 }\n"


# Hand-written Lmatched: a struct with a vector field, returned. A vector is one value, a leaf
# of the struct like a scalar: its result comes back through a `&mut <2 x f32>`, and an enum
# variant that does not hold it starts it at the vector of zeros. (expand-aggregate-prints
# made `print(b)` the literal of its fields.)
VECTOR_FIELD = """
    // IL: Lmatched
    struct Body {
        at: <2 x f32>,
        mass: f32,
    }

    enum Shape {
        Dot,
        Arrow(<2 x f32>),
    }

    fn moved(b: Body) -> Body {
        Body { at: b.at + vec<2 x f32>(1.0, 0.5), mass: b.mass }
    }

    fn main() {
        let b: Body = @moved(Body { at: splat::<2 x f32>(2.0), mass: 3.0 });
        let s: Shape = Shape::Dot;
        @print(Body { at: b.at, mass: b.mass });
    }
"""


def test_handwritten_a_vector_field_is_one_leaf(run_pass, snapshot_txt):
    ran = run_pass("scalarize-aggregates", VECTOR_FIELD)
    assert ran.codes == []
    assert "ret_at: &mut <2 x f32>" in ran.text
    assert "splat::<2 x f32>(0.0)" in ran.text  # the Arrow payload of a Dot
    assert _printed(ran.before) == _printed(ran.tree) == "Body { at: <3, 2.5>, mass: 3 }\n"
    assert ran.dump == snapshot_txt


def test_a_tensor_of_unknown_extents_returned_in_an_enum_is_the_functions_result():
    ran = run_front(CASES / "enum_carrying_a_tensor_of_unknown_extents_returned.vx",
                    scalarize_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    [make] = [f for f in ran.after.items if f._prod == "Fn" and f.name == "make"]
    assert [p.name for p in make.params] == ["n", "ret_tag"]
    assert to_text(make.ret).strip() == "Tensor<i32, [?]>"


def test_a_second_tensor_of_unknown_extents_returned_is_refused_then_repaired():
    # The function prints a tensor its literal holds: split-result-statements and
    # split-pure-aggregate-results leave it.
    assert_refused_then_repaired(
        CASES / "e5010_two_tensors_of_unknown_extents_returned_by_a_function_printing_a_tensor_"
        "they_hold.vx",
        scalarize_aggregates, "E5010", "a tensor of `?` extents beside its result")
