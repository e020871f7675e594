"""type-scalars: every literal, operator, cast, binder and result gets its machine type, as
Rust infers it (check-native-subset refused what it cannot type: its tests hold the refusals)."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.languages.lpinned import Lpinned
from nano_vx.languages.lsafe import Lsafe
from nano_vx.languages.lwritten import Lwritten
from nano_vx.nanopass import LanguageError
from nano_vx.passes.type_scalars import type_scalars
from nano_vx.scalars.infer import EXPRESSIONS
from nano_vx.scalars.rules import Rules
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "type_scalars"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010"))
ROW = "a row of a tensor used other than printed, given or lent to a function, bound by a " \
    "`let` or returned"
REFUSED = {"e5010_counter_copied_in_a_loop_then_assigned_through_a_closure_a_variable_may_"
           "hold": "a closure used as a value that captures 'n', a variable of the closure around "
           "it",
           "e5010_rows_chosen_by_an_if_and_a_match_in_its_arm_given_to_a_closure_parameter_"
           "of_no_written_type": ROW,
           "e5010_closure_value_assigned_given_to_a_closure_printing_then_returning_it":
               "indexing _",
           "e5010_closure_binding_an_i64_of_its_untyped_parameter_given_an_i32_and_a_literal":
               "a value of type i32 where i64 is expected"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", type_scalars)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"type-scalars: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES + [f"{c}_repaired" for c in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", type_scalars)


@pytest.mark.parametrize("case", REFUSED)
def test_what_native_code_does_not_lower_runs_in_the_interpreter_saying_why(case):
    status, printed, err = run_cli(CASES / f"{case}.vx")
    assert f"does not lower {REFUSED[case]}" in " ".join(err.split())
    assert (status, printed) == run_cli(CASES / f"{case}.vx", "--action", "interpret")[:2]


@pytest.mark.parametrize("body", [
    "let m: i64 = -q * q;\n        m",
    "let n = q;\n        let m: i64 = n * n;\n        m",
    "let m: i64 = if q > 0 { q * q } else { 0 };\n        m",
    "let n = q + 1;\n        let m: i64 = q * 2;\n        m + n"])
def test_a_plain_parameter_computed_with_as_the_interpreter_does_or_refused(body, tmp_path):
    # the interpreter computes with q, given a literal, in the plain i32 (wrapping)
    path = tmp_path / "plain.vx"
    path.write_text("fn main() {\n    let h = |q| {\n        " + body +
                    "\n    };\n    print(h(2147483647));\n    print(h(100000));\n}\n")
    native = run_cli(path)
    assert native[:2] == run_cli(path, "--action", "interpret")[:2]


def test_closures_that_stay_where_their_variables_are_run_natively():
    assert_native_as_interpreted(CASES / "confined_closures.vx")


def test_a_closure_indexing_a_parameter_of_no_written_type_runs_natively():
    # its body is typed at its first call, which says what the parameter is
    assert_native_as_interpreted(CASES / "closure_indexing_an_untyped_parameter.vx")


def _lets(case: str) -> dict:
    after = run_front(CASES / f"{case}.vx", type_scalars).after
    main = next(i for i in after.items if i._prod == "Fn" and i.name == "main")
    return {s.name: s.type.name for s in main.body.stmts
            if s._prod == "Let" and s.type._prod == "Scalar"}


def test_a_variable_first_bound_to_a_literal_takes_the_type_assigned_to_it_later():
    lets = _lets("literals")
    assert lets["s"] == "i64" and lets["half"] == "f64" and lets["x"] == "f32"


def test_literals_take_the_type_of_what_they_meet_else_i32():
    after = run_front(CASES / "literals.vx", type_scalars).after
    literals = {(n.value, n.type) for n in _descendants(after) if n._prod == "Int"}
    assert (3000000000, "i64") in literals  # passed as an i64 parameter
    assert (300, "i64") in literals  # under a cast: its value kept
    assert (2147483647, "i32") in literals and (1, "i32") in literals


def test_a_kernel_returns_its_body_value_and_a_closure_parameter_takes_its_argument_type():
    after = run_front(CASES / "kernel_result.vx", type_scalars).after
    kernel = next(i for i in after.items if i._prod == "Fn" and "$kernel" in i.name)
    assert kernel.ret.name == "i32"
    closure = next(n for n in _descendants(after) if n._prod == "Closure")
    assert [p.type.name for p in closure.params] == ["u8"] and closure.ret.name == "u8"


def test_a_rule_for_a_production_the_il_has_not_is_refused_when_it_is_registered():
    rules = Rules(Lpinned)
    with pytest.raises(LanguageError, match="Lpinned has no production Itn"):
        @rules.on("Int", "Itn")
        def _literal(infer, e):
            return None
    assert set(EXPRESSIONS) <= set(Lpinned.productions) | set(Lwritten.productions) | \
        set(Lsafe.productions)
    assert "Int" in EXPRESSIONS


def _descendants(node):
    from nano_vx.nanopass import descendants

    return descendants(node)


def test_a_reference_to_a_tensor_is_erased_and_one_to_a_scalar_typed():
    ran = run_front(CASES / "references.vx", type_scalars)
    scale, bump, main = ran.after.items
    assert scale.params[0].type._prod == "TensorType"
    assert to_text(bump.params[0].type) == "&mut i64\n"
    lets = {s.name: s for s in main.body.stmts if s._prod == "Let"}
    assert lets["view"].type._prod == "TensorType" and lets["view"].value._prod == "Local"
    assert to_text(lets["p"].type) == "&i64\n"




# Hand-written Lsafe: a variable first bound to a literal takes the type of what is later
# assigned to it (an i64 result), and a closure's parameter the type of its argument.
FLOWS_BOTH_WAYS = """
    // IL: Lsafe
    fn twice(x: i64) -> i64 {
        x * 2
    }

    fn main() {
        let mut s: ~i32 = 1;
        s = @twice(s + 1);
        let h: ~_ = |x| {
            -x
        };
        let y: i8 = 3;
        @print(h(y));
        @print(s);
    }
"""


def test_handwritten_types_flow_from_later_uses(run_pass, snapshot_txt):
    ran = run_pass("type-scalars", FLOWS_BOTH_WAYS)
    assert ran.codes == []
    assert "let mut s: ~i64 = 1i64;" in ran.text and "|x: i8| -> i8" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "-3\n4\n"
    assert ran.dump == snapshot_txt


# Hand-written Lsafe that skipped check-native-subset: a closure's parameter typed u8 by its
# call is negated. type-scalars refuses it as the gate would, and leaves the function out.
NEGATED_UNSIGNED = """
    // IL: Lsafe
    fn neg(n: u8) -> i32 {
        let h: ~_ = |x| {
            -x
        };
        @print(h(n));
        return 0;
    }

    fn main() {
        @print(2);
    }
"""


def test_handwritten_what_the_gate_would_refuse_is_refused_and_left_out(run_pass, snapshot_txt):
    ran = run_pass("type-scalars", NEGATED_UNSIGNED)
    assert ran.codes == ["E5010"]
    assert [i.name for i in ran.tree.items] == ["main"]
    assert ran.dump == snapshot_txt


# Hand-written Lsafe: vectors. An operator on two is a VecBinary of their type, `v[i]` a Lane
# (a tensor's `t[i]` stays an Index), a lane literal takes the lanes' type, an untyped `let`
# of a vector its vector type.
VECTORS = """
    // IL: Lsafe
    fn main() {
        let v: ~_ = vec<2 x u8>(250, 3) + splat::<2 x u8>(10);
        let t: ~_ = Tensor<i32, [2]>::fill(7);
        @print(v);
        @print(v[1] + 1);
        @print(t[1]);
    }
"""


def test_handwritten_vectors(run_pass, snapshot_txt):
    ran = run_pass("type-scalars", VECTORS)
    assert ran.codes == []
    assert "let v: ~<2 x u8> = vec<2 x u8>(250u8, 3u8) +[<2 x u8>] splat::<2 x u8>(10u8);" \
        in ran.text
    assert "v[lane 1i32] + 1u8" in ran.text and "@print(t[1i32]);" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "<4, 13>\n14\n7\n"
    assert ran.dump == snapshot_txt


def test_a_row_lent_or_borrowed_by_a_let_is_a_view_of_its_tensor_and_runs_natively():
    after = run_front(CASES / "rows_borrowed_by_lets.vx", type_scalars).after
    main = next(i for i in after.items if i._prod == "Fn" and i.name == "main")
    lets = {s.name: s for s in main.body.stmts if s._prod == "Let"}
    assert to_text(lets["w"].type).startswith("Tensor<i64, [2, 3]")
    assert lets["w"].value._prod == "Index"  # the reference erased: c[1], a view of c
    assert_native_as_interpreted(CASES / "rows_borrowed_by_lets.vx")
    assert_native_as_interpreted(CASES / "lent_rows.vx")


def test_a_reference_to_a_tensor_of_a_type_left_open_takes_the_tensors_type():
    after = run_front(CASES / "references_into_a_field_through_a_reference.vx",
                      type_scalars).after
    set_ = next(i for i in after.items if i._prod == "Fn" and i.name == "set")
    lets = {s.name: to_text(s.type).strip() for s in set_.body.stmts if s._prod == "Let"}
    assert lets == {"k": "i32", "whole": "Tensor<i32, [2, 3], Memory::CPU_DRAM>",
                    "row": "Tensor<i32, [3], Memory::CPU_DRAM>"}
    assert_native_as_interpreted(CASES / "references_into_a_field_through_a_reference.vx")


def test_a_row_a_function_returns_is_a_view_of_its_tensor_and_runs_natively():
    after = run_front(CASES / "rows_returned_by_functions.vx", type_scalars).after
    fns = {i.name: i for i in after.items if i._prod == "Fn"}
    assert to_text(fns["row"].ret).startswith("Tensor<i32, [3]")
    assert fns["row"].body.value._prod == "Index"  # `&mut m[i]`, the reference erased
    assert_native_as_interpreted(CASES / "rows_returned_by_functions.vx")


def test_vectors_of_every_kind_of_lane_run_natively():
    assert_native_as_interpreted(CASES / "half_lanes.vx")
    assert_native_as_interpreted(CASES / "vectors.vx")


def test_an_extent_known_only_as_the_program_runs_is_read_then():
    after = run_front(CASES / "extents.vx", type_scalars).after
    text = to_text(after)
    assert "z.extent[i32](0) * 10i32 + 2i32" in text  # extent 1 of a variable: its number
    assert "let wide: i64 = z.extent[i64](0);" in text
    assert "@make(4i32).extent[i32](0)" in text and "::new().extent[i32](1)" in text
    assert_native_as_interpreted(CASES / "extents.vx")


def test_a_reference_to_an_element_of_a_narrow_tensor_is_typed_by_what_the_element_stores():
    ran = run_front(CASES / "narrow_references.vx", type_scalars)
    params = {(fn.name, p.name): to_text(p.type).strip() for fn in ran.after.items
              for p in fn.params}
    assert params[("set", "r")] == "&mut f8e4m3" and params[("twice", "r")] == "&i4"
    at = next(fn for fn in ran.after.items if fn.name == "at")
    assert to_text(at.ret).strip() == "&mut f8e4m3"
