"""check-calls: argument counts (E3010) and types (E3003) that do not match the callee (a
function of the program, the closure a variable holds, a math built-in, `print`, a tensor's
`::fill`), calls across topologies (E6001)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_calls import check_calls
from front import (assert_judged, assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_calls"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "arity": ("E3010", "'add' takes 2 arguments (i32, i32), but this call passes 3"),
    "closure_arity": ("E3010", "'step' takes 1 argument (i32), but this call passes 2"),
    "closure_argument": ("E3003", "argument 1 of 'half' is bool, but its parameter 'x' is f64"),
    "space": ("E3003", "argument 1 of 'total' is Tensor<f32, [4], Memory::GPU_HBM>, but its "
                       "parameter 'x' is Tensor<f32, [4], Memory::CPU_DRAM>"),
    "extent": ("E3003", "argument 1 of 'first' is Tensor<i32, [8], Memory::CPU_DRAM>"),
    "void_result": ("E3003", "'log' returns nothing, but its result is bound to 'r'"),
    "topology": ("E6001", "'kernel' runs on NPU (`fn kernel(..) on Topology::NPU`), but this "
                          "call runs on CPU"),
    "math_integer": ("E3003", "argument 1 of 'exp' is i32, but 'exp' takes a float (f32, f64, "
                              "..)"),
    "math_mixed": ("E3003", "'max' takes two numbers of one type, but these are f32 and f64"),
    "math_arity": ("E3010", "'sqrt' takes 1 argument, but this call passes 2"),
    "print_arity": ("E3010", "'print' takes 1 argument, but this call passes 2"),
    "fill_text": ("E3003", "the value of `::fill` is str, but the tensor holds f32"),
    "fill_tuple": ("E3003", "the value of `::fill` is a tuple, but the tensor holds i32"),
    "device_pointer": ("E6029", "argument 1 of 'total' is a pointer into Memory::GPU_HBM, but "
                                "the parameter wants a pointer into host memory"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_calls, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_calls, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_literals_fit_and_instances_take_their_arguments():
    assert_prints_the_same(CASES / "literals_and_generics.vx", check_calls)


def test_a_local_bound_to_a_literal_converts_to_the_parameter_it_is_given():
    ran = run_front(CASES / "plain_locals_given_to_typed_parameters.vx", check_calls)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert ran.prints() == ("15000000000\n0.33333334\n0.3333333333333333\n1410065408\n"
                            "5000000000\n",) * 2


def test_an_instance_is_judged_with_its_parameters_made_concrete():
    # T binds to i32 from the first argument; the second is then a float for an i32.
    text = (CASES / "literals_and_generics.vx").read_text().replace("pick(1, 2)",
                                                                     "pick(1, 2.5)")
    [d] = run_front(text, check_calls).diagnostics.items
    assert (d.code, d.message) == ("E3003", "argument 2 of 'pick$i32' is {float}, but its "
                                            "parameter 'b' is i32")


@pytest.mark.parametrize("call, message", [
    ('scale("s")', "argument 1 of 'scale' is str, but its parameter 'x' is f32"),
    ('sqrt("s")', "argument 1 of 'sqrt' is str, but 'sqrt' takes a float (f32, f64, ..)"),
])
def test_a_string_is_no_argument_of_a_number(call, message):
    text = "fn scale(x: f32) -> f32 { x * 2.0 }\nfn main() { print(CALL); }\n"
    [d] = run_front(text.replace("CALL", call), check_calls).diagnostics.items
    assert (d.code, d.message) == ("E3003", message)
    repaired = text.replace("CALL", call.replace('"s"', "1.5"))
    assert not run_front(repaired, check_calls).diagnostics.items


def test_a_tuple_of_literals_of_another_arity_is_no_argument_of_a_tuple():
    text = "fn first(p: (i32, i32)) -> i32 { p.0 }\nfn main() { print(first(ARG)); }\n"
    [d] = run_front(text.replace("ARG", "(1, 2, 3)"), check_calls).diagnostics.items
    assert (d.code, d.message) == ("E3003", "argument 1 of 'first' is (_, _, _), but its "
                                            "parameter 'p' is (i32, i32)")
    assert not run_front(text.replace("ARG", "(1, 2)"), check_calls).diagnostics.items


def test_a_tuple_of_literals_is_no_argument_of_a_struct_or_a_scalar():
    text = ("struct P { x: f32, y: f32 }\nfn norm(p: P) -> f32 { p.x + p.y }\n"
            "fn first(n: i32) -> i32 { n }\nfn main() { print(norm(POINT)); print(first(ONE)); }\n")
    wrong = run_front(text.replace("POINT", "(1.0, 2.0)").replace("ONE", "(1, 2)"), check_calls)
    assert [(d.code, d.message) for d in wrong.diagnostics.items] == [
        ("E3003", "argument 1 of 'norm' is (_, _), but its parameter 'p' is P"),
        ("E3003", "argument 1 of 'first' is (_, _), but its parameter 'n' is i32")]
    repaired = text.replace("POINT", "P { x: 1.0, y: 2.0 }").replace("ONE", "1")
    assert not run_front(repaired, check_calls).diagnostics.items


def test_a_variable_bound_to_a_string_holds_text():
    text = 'fn scale(x: f32) -> f32 { x * 2.0 }\nfn main() { let s = "s"; print(scale(s)); }\n'
    [d] = run_front(text, check_calls).diagnostics.items
    assert (d.code, d.message) == ("E3003", "argument 1 of 'scale' is str, but its parameter "
                                            "'x' is f32")
    assert not run_front(text.replace('s = "s"', "s: f32 = 1.5"), check_calls).diagnostics.items


def test_the_json_form_names_both_types():
    [d] = run_front(CASES / "space.vx", check_calls).diagnostics.items
    assert d.data == {"callee": "total", "argument": 1,
                      "expected": "Tensor<f32, [4], Memory::CPU_DRAM>",
                      "found": "Tensor<f32, [4], Memory::GPU_HBM>"}


def test_a_call_inside_a_spawn_on_the_functions_topology_is_accepted():
    text = (CASES / "topology.vx").read_text().replace(
        "let r = kernel();", "let r = spawn on(Topology::NPU[2]) { kernel() };")
    assert not run_front(text, check_calls).diagnostics.items


# Hand-written Lrouted: a function parameter without a type, which the parser builds only for
# a closure's. Such a parameter takes any argument; the count of arguments is still judged,
# the missing type shown as `_`.
UNTYPED_PARAMETER = """
    // IL: Lrouted
    fn twice(x, y: i32) -> i32 {
        y * 2
    }

    fn main() {
        @print(@twice(true, 1));
        @print(@twice(1));
    }
"""


def test_handwritten_a_parameter_without_a_type_takes_any_argument(run_pass, snapshot_txt):
    ran = run_pass("check-calls", UNTYPED_PARAMETER)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3010", "'twice' takes 2 arguments (_, i32), but this call passes 1")]
    assert ran.dump == snapshot_txt


def test_a_mut_pointer_fits_a_const_parameter_and_not_the_other_way():
    text = ("fn get(p: *const i32) -> i32 {\n  unsafe { *p }\n}\n"
            "fn main() {\n  let mut t = Tensor<i32, [2]>::fill(3);\n"
            "  print(get(t.as_mut_ptr()));\n}\n")
    assert not run_front(text, check_calls).diagnostics.items
    wrong = text.replace("p: *const i32", "p: *mut i32").replace("t.as_mut_ptr()", "t.as_ptr()")
    assert run_front(wrong, check_calls).diagnostics.codes() == ["E3003"]


INSTANCES = """struct Point { x: i32, y: i32 }
struct Other { x: i32 }
struct Cell<T> { v: T }

fn get(c: Cell<Point>) -> i32 { c.v.x }

fn id<T>(c: Cell<T>) -> i32 { 1 }

fn make() -> Point { Point { x: 1, y: 2 } }

fn main() {
  let c: Cell<Point> = Cell { v: make() };
  print(id<Point>(c));
  let v = make();
  let w = if true { v } else { v };
  let d = Cell { v: w };
  print(get(d));
  print(get(Cell::<Other> { v: Other { x: 3 } }));
}
"""


def test_a_generic_struct_erased_and_an_instance_of_it_fit_each_other():
    # id's `Cell<T>` is erased, and so is `d`, whose field no struct names: each fits; an
    # instance of other arguments does not.
    said = [(d.code, d.message) for d in run_front(INSTANCES, check_calls).diagnostics.items]
    assert said == [("E3003", "argument 1 of 'get' is Cell<Other>, but its parameter 'c' is "
                              "Cell<Point>")]


@pytest.mark.parametrize("bound, call, said", [
    ("let f = |x| x + 1;", "f(1, 2)", ("E3010", "'f' takes 1 argument (_), but this call passes 2")),
    ("let f = |x| x;", "f(true)", None),
    ("let f = |x: i32, y: i32| x + y;", "f(1)",
     ("E3010", "'f' takes 2 arguments (i32, i32), but this call passes 1")),
    ("let f = |x: i32, y: i32| x + y;", "f(1, 2)", None),
    ("let g = |x: i32| x + 1; let f = |y: i32| g(y, y);", "f(1)",
     ("E3010", "'g' takes 1 argument (i32), but this call passes 2")),
])
def test_a_closure_a_variable_holds_is_called_as_it_takes(bound, call, said):
    text = f"fn main() {{ {bound} print({call}); }}\n"
    found = [(d.code, d.message) for d in run_front(text, check_calls).diagnostics.items]
    assert found == ([said] if said else [])
