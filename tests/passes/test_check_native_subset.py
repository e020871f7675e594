"""check-native-subset: what native code does not lower is refused with E5010 (the default
action then runs the program in the interpreter, with W5001); the tree is unchanged."""

from pathlib import Path

import pytest

from nano_vx.passes.check_native_subset import check_native_subset
from front import assert_refused_then_repaired, run_front

# The cases native code refuses are type-scalars' (tests/test_native.py runs them too).
CASES = Path(__file__).parent / "cases" / "type_scalars"
REFUSED = {"e5010_assigning_closure": "a closure that assigns to 'total', which it captures",
           "e5010_element_reference": "a reference to an element of a tensor"}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_native_code_does_not_lower_is_refused(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_native_subset, "E5010",
                                 REFUSED[case])


def test_a_refusal_leaves_the_tree_as_it_was_for_the_interpreter():
    ran = run_front(CASES / "e5010_element_reference.vx", check_native_subset)
    assert ran.diagnostics.codes() == ["E5010"]
    assert ran.after is ran.before


# check-casts refuses these where the types are written; a closure's parameters are typed only
# by its calls, so the inference judges them again once every call is seen.
@pytest.mark.parametrize("text,what", [
    ("let f = |n| n as bool; print(f(5));", "a cast of _ to bool"),
    ("let g = |b| b as f32; print(g(true));", "a cast of bool to f32"),
    ("let s = \"no\"; let c = s; print(c);", "a variable holding a string"),
    ("let t = Tensor<i32, [2, 2]>::new(); let r = t[0];", "a row of a tensor used other than printed"),
    ("let h = |x| -x; let y: u8 = 3; print(h(y));", "'-' on u8"),
    ("let k = |a, b| a & b; print(k(1.5, 1.0));", "'&' on f64"),
])
def test_what_native_code_would_compute_differently_is_refused(text, what):
    ran = run_front(f"fn main() {{ {text} }}\n", check_native_subset)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5010" and what in diag.message


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
    ran = run_front(f"fn main() {{\n    {body}\n}}\n", check_native_subset)
    assert [d.message for d in ran.diagnostics.items] == \
        [f"native code does not lower {what} (in 'main')"]


def test_a_function_returning_a_reference_to_a_scalar_is_refused():
    ran = run_front("fn first(t: &Tensor<i32, [2]>) -> &i32 {\n    &t[0]\n}\n\n"
                    "fn main() {\n    let t = Tensor<i32, [2]>::fill(1);\n    print(*first(&t));\n}\n",
                    check_native_subset)
    assert {d.message for d in ran.diagnostics.items} == {
        "native code does not lower a function that returns a reference to a scalar (in "
        "'first')",
        "native code does not lower a function that returns a reference to a scalar (in "
        "'main')"}


def test_an_assignment_of_a_whole_tensor_through_a_reference_is_refused():
    ran = run_front("fn main() {\n    let mut t = Tensor<i32, [2]>::fill(1);\n"
                    "    let p = &mut t;\n    *p = Tensor<i32, [2]>::fill(2);\n}\n",
                    check_native_subset)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5010" and diag.span.line == 4
    assert diag.message == ("native code does not lower an assignment of a whole tensor "
                            "through a reference (in 'main')")


def test_a_tensor_whose_bytes_no_address_reaches_is_refused_not_compiled():
    # MLIR would abort on the memref's size; the interpreter stops on it when it is made.
    ran = run_front("fn main() { let t = Tensor<f32, [100000000000, 100000000]>::new(); }\n",
                    check_native_subset)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5010"
    assert "a tensor of 40000000000000000000 bytes, more than an address reaches" in diag.message



# Hand-written Lsplit: a match on a value, which desugar-value-matches writes as an `if`
# chain in the front end; native code has no lowering of its own for it.
VALUE_MATCH = """
    // IL: Lsplit
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
    ran = run_pass("check-native-subset", VALUE_MATCH)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5010", "native code does not lower a `match` on a value (in 'main')")]
    assert ran.dump == snapshot_txt
