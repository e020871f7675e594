"""type-scalars: every literal, operator, cast, binder and result gets its machine type, as
Rust infers it; what native code does not lower is refused with E5001."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.type_scalars import type_scalars
from front import (assert_prints_the_same, assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "type_scalars"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5001"))
REFUSED = {"e5001_try_pin": "`match` on a hardware state",
           "e5001_assigning_closure": "a closure that assigns to 'total', which it captures",
           "e5001_element_reference": "a reference to an element of a tensor"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", type_scalars)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"type-scalars: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES + [f"{c}_repaired" for c in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", type_scalars)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_native_code_does_not_lower_is_refused(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", type_scalars, "E5001", REFUSED[case])


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


def test_a_refused_function_is_left_out_and_the_rest_typed():
    ran = run_front(CASES / "e5001_try_pin.vx", type_scalars)
    assert ran.diagnostics.codes() == ["E5001"]
    assert [i.name for i in ran.after.items if i._prod == "Fn"] == []


def _descendants(node):
    from nano_vx.nanopass import descendants

    return descendants(node)


# check-types refuses these where the types are written; a closure's parameters are typed only
# by its calls, so type-scalars judges them again once every call is seen.
@pytest.mark.parametrize("text,what", [
    ("let f = |n| n as bool; print(f(5));", "a cast of _ to bool"),
    ("let g = |b| b as f32; print(g(true));", "a cast of bool to f32"),
    ("let s = \"no\"; print(s);", "a variable holding a string"),
    ("let t = Tensor<i32, [2, 2]>::new(); let r = t[0];", "a row of a tensor used other than printed"),
    ("let h = |x| -x; let y: u8 = 3; print(h(y));", "'-' on u8"),
    ("let k = |a, b| a & b; print(k(1.5, 1.0));", "'&' on f64"),
])
def test_what_native_code_would_compute_differently_is_refused(text, what):
    ran = run_front(f"fn main() {{ {text} }}\n", type_scalars)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5001" and what in diag.message


def test_a_reference_to_a_tensor_is_erased_and_one_to_a_scalar_typed():
    ran = run_front(CASES / "references.vx", type_scalars)
    scale, bump, main = ran.after.items
    assert scale.params[0].type._prod == "TensorType"
    assert to_text(bump.params[0].type) == "&mut i64\n"
    lets = {s.name: s for s in main.body.stmts if s._prod == "Let"}
    assert lets["view"].type._prod == "TensorType" and lets["view"].value._prod == "Local"
    assert to_text(lets["p"].type) == "&i64\n"


@pytest.mark.parametrize("body,what", [
    ("let x: i32 = 1;\n    let p = &x;\n    print(p == p);", "'==' on &i32"),
    ("let x = 1.5;\n    let p = &x;\n    print(-p);", "'-' on &{float}"),
    ("let x = 1;\n    let p = &x;\n    let q = &p;", "a reference to a reference"),
    ("let p = &5;", "a reference to a temporary value"),
    ("let x = 1;\n    let p = &x;\n    let d = transfer(p, Memory::GPU_HBM);",
     "a transfer of a reference"),
    ("let mut x = 1;\n    let f = |k: i32| { let p = &mut x; *p = k; };\n    f(2);",
     "a closure that borrows 'x', which it captures"),
])
def test_what_native_code_does_not_lower_of_references(body, what):
    ran = run_front(f"fn main() {{\n    {body}\n}}\n", type_scalars)
    assert [d.message for d in ran.diagnostics.items] == \
        [f"native code does not lower {what} (in 'main')"]


def test_a_function_returning_a_reference_to_a_scalar_is_refused():
    ran = run_front("fn first(t: &Tensor<i32, [2]>) -> &i32 {\n    &t[0]\n}\n\n"
                    "fn main() {\n    let t = Tensor<i32, [2]>::fill(1);\n    print(*first(&t));\n}\n",
                    type_scalars)
    assert {d.message for d in ran.diagnostics.items} == {
        "native code does not lower a function that returns a reference to a scalar (in "
        "'first')",
        "native code does not lower a function that returns a reference to a scalar (in "
        "'main')"}


def test_an_assignment_of_a_whole_tensor_through_a_reference_is_refused():
    ran = run_front("fn main() {\n    let mut t = Tensor<i32, [2]>::fill(1);\n"
                    "    let p = &mut t;\n    *p = Tensor<i32, [2]>::fill(2);\n}\n",
                    type_scalars)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5001" and diag.span.line == 4
    assert diag.message == ("native code does not lower an assignment of a whole tensor "
                            "through a reference (in 'main')")


def test_a_tensor_whose_bytes_no_address_reaches_is_refused_not_compiled():
    # MLIR would abort on the memref's size; the interpreter stops on it when it is made.
    ran = run_front("fn main() { let t = Tensor<f32, [100000000000, 100000000]>::new(); }\n",
                    type_scalars)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5001"
    assert "a tensor of 40000000000000000000 bytes, more than an address reaches" in diag.message



# Hand-written Lassumed: a match on a value, which desugar-value-matches writes as an `if`
# chain in the front end; native code has no lowering of its own for it.
VALUE_MATCH = """
    // IL: Lassumed
    fn main() {
        let n: i32 = 2;
        match n {
            1 => {
                @print(10);
            },
            _ => {
                @print(20);
            },
        };
    }
"""


def test_handwritten_a_value_match_is_refused(run_pass, snapshot_txt):
    ran = run_pass("type-scalars", VALUE_MATCH)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5001", "native code does not lower a `match` on a value (in 'main')")]
    assert ran.dump == snapshot_txt
