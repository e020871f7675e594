"""check-operand-types: an operator given an operand of a type it does not take (E3030) or
operands of two types (E3004, E3005, E3006), a string among them, and a list given elements no
tensor holds (E3018), each refused with a message that names the types, and the repaired
program admitted."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from nano_vx.cli import main as cli_main
from nano_vx.passes.check_operand_types import check_operand_types
from front import assert_judged, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_operand_types"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "mixed_operands": ("E3004", "`+` is given i32 and i64: it takes two numbers of one type"),
    "mixed_comparison": ("E3005", "`<` compares u32 with i64: both sides must be of one type"),
    "float_bitwise": ("E3030", "`&` does not apply to f32: it takes two integers or two bools "
                               "of one type"),
    "logical_number": ("E3006", "`&&` takes two bools, but its left operand is i32"),
    "text_operand": ("E3030", "`+` does not apply to str: it takes two numbers of one type"),
    "struct_equality": ("E3030", "`==` does not apply to P, a struct or an enum: it compares "
                                 "numbers, bools, topologies and memory spaces"),
    "tuple_equality": ("E3030", "`!=` does not apply to a tuple: it compares numbers, bools, "
                                "topologies and memory spaces"),
    "text_elements": ("E3018", "a tensor holds numbers or bools, but this element is str"),
    "tuple_elements": ("E3018", "a tensor holds numbers or bools, but this element is a tuple"),
    "empty_array": ("E3018", "an empty array literal has no element type or length to give "
                             "the tensor"),
    "tensor_arithmetic": ("E3030", "`+` does not apply to Tensor<f32, [2], Memory::CPU_DRAM>, "
                                   "a tensor: it takes two numbers of one type"),
    "scalar_indexed": ("E3030", "`[..]` takes a tensor, a raw pointer or a vector, but `t[0]` "
                                "is i32"),
    "tuple_indexed": ("E3030", "`[..]` takes a tensor, a raw pointer or a vector, but `t` is a "
                               "tuple"),
    "tensor_equality": ("E3030", "`==` does not apply to Tensor<i32, [2], Memory::CPU_DRAM>, "
                                 "a tensor: it takes two numbers or two bools of one type"),
    "vector_lanes": ("E3004", "`+` is given <4 x f32> and <2 x f32>: it takes two vectors of "
                              "one type (of one lane count and one lane type), or two numbers"),
    "mixed_elements": ("E3018", "this element is i32, but the list holds f32 (the tensor's "
                                "type writes f32): a tensor's elements are of one type"),
}


def _only(text) -> tuple[str, str]:
    [d] = run_front(text, check_operand_types).diagnostics.items
    return d.code, d.message


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_operand_types, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert _only(CASES / f"{case}.vx") == REFUSED[case]
    assert not run_front(CASES / f"{case}_repaired.vx", check_operand_types).diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("body, code, message", [
    ("print(true + 1);", "E3030", "`+` does not apply to bool: it takes two numbers of one type"),
    ("let x: f32 = 2.0; print(x << 1);", "E3030",
     "`<<` does not apply to f32: it takes an integer, shifted by an integer"),
    ("print(1.5 & 2.0);", "E3030",
     "`&` does not apply to {float}: it takes two integers or two bools of one type"),
    ("let f: f32 = 1.0; print(f * 2);", "E3004",
     "`*` is given f32 and {integer}: it takes two numbers of one type"),
    ("let x: u32 = 3; print(-x);", "E3030", "`-` does not apply to u32: u32 is unsigned"),
    ("let b = true; print(-b);", "E3030", "`-` does not apply to bool: it negates a number"),
    ("let mut x: u8 = 1; x += 2.0;", "E3004",
     "`+=` is given u8 and {float}: it takes two numbers of one type"),
    ("print(1 == true);", "E3005",
     "`==` compares {integer} with bool: both sides must be of one type"),
    ("print(1 < 2.0);", "E3005", "`<` compares {integer} with {float}: both sides must be of "
                                 "one type"),
    ("print(true || 0);", "E3006", "`||` takes two bools, but its right operand is {integer}"),
    ("print(!2.5);", "E3006",
     "`!` takes a bool, or an integer whose bits it flips, but its operand is {float}"),
    ("print(-\"a\");", "E3030", "`-` does not apply to str: it negates a number"),
    ("print(!\"a\");", "E3006",
     "`!` takes a bool, or an integer whose bits it flips, but its operand is str"),
    ("let mut s = \"a\"; s += \"b\";", "E3030",
     "`+=` does not apply to str: it takes two numbers of one type"),
    ("print(\"a\" == \"a\");", "E3005",
     "`==` does not apply to str: it takes two numbers or two bools of one type"),
    ("print(true && \"a\");", "E3006", "`&&` takes two bools, but its right operand is str"),
])
def test_each_operator_is_judged(body, code, message):
    assert _only(f"fn main() {{ {body} }}") == (code, message)


@pytest.mark.parametrize("body, message", [
    ("let s = \"x\"; let t = [s, s]; print(t[0]);",
     "a tensor holds numbers or bools, but this element is str"),
    ("let t = [Tensor<f32, [2]>::new()]; print(t[0]);",
     "a tensor holds numbers or bools, but this element is Tensor<f32, [2], Memory::CPU_DRAM>"),
    ("let t = [1, 2.5f32]; print(t);", "this element is {integer}, but the list holds f32 (its "
                                       "first typed element is f32): a tensor's elements are of "
                                       "one type"),
    ("let t = [true, 1]; print(t);", "this element is {integer}, but the list holds bool (its "
                                     "first typed element is bool): a tensor's elements are of "
                                     "one type"),
    ("let t = [1, 2.5]; print(t);", "this element is {float}, but the list holds i32 (its first "
                                    "element is {integer}): a tensor's elements are of one type"),
    ("let t = Tensor<i32, [2]>([1.5, 2]); print(t);",
     "this element is {float}, but the list holds i32 (the tensor's type writes i32): a "
     "tensor's elements are of one type"),
])
def test_each_list_element_is_judged(body, message):
    assert _only(f"fn main() {{ {body} }}") == ("E3018", message)


@pytest.mark.parametrize("body", ["print([1, 2u8]);", "print([1.5, 2.5f32]);",
                                  "print(Tensor<f32, [2]>([1.0, 2.0]));"])
def test_a_list_of_one_scalar_type_is_admitted(body):
    assert not run_front(f"fn main() {{ {body} }}", check_operand_types).diagnostics.items


def test_the_json_form_names_both_types():
    [d] = run_front(CASES / "mixed_operands.vx", check_operand_types).diagnostics.items
    assert d.data == {"operator": "+", "left": "i32", "right": "i64"}
    assert d.help == ["convert one side with `as`"]


def test_remainder_of_tensors_is_refused_and_of_their_elements_admitted():
    text = ("fn main() {\n  let t = Tensor<f32, [4]>::fill(3.0);\n"
            "  let u = Tensor<f32, [4]>::fill(2.0);\n  print(t % u);\n}\n")
    [d] = run_front(text, check_operand_types).diagnostics.items
    assert (d.code, d.message) == ("E3030", "`%` does not apply to Tensor<f32, [4], "
                                            "Memory::CPU_DRAM>, a tensor: it takes two numbers "
                                            "of one type")
    assert d.help == ["apply it to the elements: `t[i] % u[i]`"]
    assert not run_front(text.replace("t % u", "t[0] % u[0]"),
                         check_operand_types).diagnostics.items


def test_arithmetic_on_a_reference_is_refused_and_reading_through_it_admitted():
    text = "fn main() {\n  let x = 4;\n  let p = &x;\n  print(p + 1);\n}\n"
    said = [(d.code, d.message, d.help)
            for d in run_front(text, check_operand_types).diagnostics.items]
    assert said == [("E3030", "`+` does not apply to &i32, a reference",
                     ["read the value it names: `*p`"])]
    assert not run_front(text.replace("p + 1", "*p + 1"), check_operand_types).diagnostics.items


DEREF = """enum Dir {{ N, S(i32) }}
struct P {{ x: i32 }}

fn get(d: &Dir) -> i32 {{
  match d {{
    Dir::S(k) => {read},
    Dir::N => 0,
  }}
}}

fn main() {{
  let x = 5;
  let t = Tensor<i32, [2]>::fill(3);
  let p = P {{ x: 1 }};
  let r = &x;
  print(get(&Dir::S(4)));
  print({other});
}}
"""


@pytest.mark.parametrize("read, other, refused", [
    ("*k", "*r", ["`*` takes a reference or a raw pointer, but `k` is i32"]),
    ("k", "*x", ["`*` takes a reference or a raw pointer, but `x` is {integer}"]),
    ("k", "*t", ["`*` takes a reference or a raw pointer, but `t` is Tensor<i32, [2], Memory::CPU_DRAM>"]),
    ("k", "*p", ["`*` takes a reference or a raw pointer, but `p` is P, a struct or an enum"]),
    ("k", "*r + x", []),
])
def test_only_a_reference_or_a_raw_pointer_is_read_through(read, other, refused):
    # A `match` on a `&Dir` binds its payload by value: the interpreter stops at `*k` with
    # E9006 "cannot dereference a value of type i32"; the check refuses it while compiling.
    ran = run_front(DEREF.format(read=read, other=other), check_operand_types)
    assert [d.message for d in ran.diagnostics.items] == refused
    assert all(d.code == "E3030" for d in ran.diagnostics.items)


SHAPES = "enum Shape { Circle, Square }\nenum Light { On, Off }\n"


def test_a_case_of_another_enum_is_no_case_of_the_match():
    text = SHAPES + ("fn main() { let s = Shape::Circle; match s { Shape::Circle => print(1), "
                     "Light::On | Light::Off => print(2), _ => print(3), } }")
    ran = run_front(text, check_operand_types)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3005", f"this case compares Shape with `Light::{v}`, a Light: a case's pattern is "
                  f"of its `match`'s type") for v in ("On", "Off")]
    repaired = text.replace("Light::On | Light::Off", "Shape::Square")
    assert not run_front(repaired, check_operand_types).diagnostics.items


OPERATORS = {  # each operator, the code a string among its operands meets, and a good operand
    **{op: ("E3030", "3") for op in "+ - * / % & | ^ << >>".split()},
    **{op: ("E3005", "3") for op in "== != < <= > >=".split()},
    **{op: ("E3006", "true") for op in ("&&", "||")},
}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(OPERATORS)), st.booleans())
def test_no_operator_takes_a_string(op, string_on_the_left):
    """Whichever operator and side, a string operand is refused with the operator's code, and
    the expression with the string replaced is admitted."""
    code, good = OPERATORS[op]
    sides = ('"s"', good) if string_on_the_left else (good, '"s"')
    refused = run_front(f"fn main() {{ print({sides[0]} {op} {sides[1]}); }}",
                        check_operand_types)
    assert refused.diagnostics.codes() == [code]
    admitted = run_front(f"fn main() {{ print({good} {op} {good}); }}", check_operand_types)
    assert not admitted.diagnostics.items


# Hand-written Lrouted: a string bound to a variable whose type infer-placement left open
# (`~_`) is text, which no operator takes; a type the dump writes `_` is not known here.
OPEN_TYPES = """
    // IL: Lrouted
    fn main() {
        let s: ~_ = "total";
        let t: _ = "total";
        @print(s + 1);
        @print(t + 1);
    }
"""


def test_handwritten_a_string_bound_without_a_type_is_text(run_pass):
    ran = run_pass("check-operand-types", OPEN_TYPES)
    assert [d.message for d in ran.diagnostics.items] == [
        "`+` does not apply to str: it takes two numbers of one type"]


@pytest.mark.parametrize("body, code, message", [
    ("let v = t * u;", "E3030", "`*` does not apply to Tensor<f32, [2], Memory::CPU_DRAM>, a "
                               "tensor: it takes two numbers of one type"),
    ("let mut w = t; w += 1.0;", "E3030", "`+=` does not apply to Tensor<f32, [2], "
                                          "Memory::CPU_DRAM>, a tensor: it takes two numbers "
                                          "of one type"),
    ("let v = -t;", "E3030", "`-` does not apply to Tensor<f32, [2], Memory::CPU_DRAM>: it "
                            "negates a number"),
    ("let v = !t;", "E3006", "`!` takes a bool, or an integer whose bits it flips, but its "
                            "operand is Tensor<f32, [2], Memory::CPU_DRAM>"),
])
def test_an_operator_on_a_tensor_is_refused_at_check_time(body, code, message):
    text = ("fn main() { let t = Tensor<f32, [2]>::fill(1.0); "
            f"let u = Tensor<f32, [2]>::fill(2.0); {body} }}")
    assert _only(text) == (code, message)


def test_a_value_match_given_to_a_call_is_judged_without_an_enum():
    # Its scrutinee's type is an integer literal's, which names no enum (it once raised).
    assert not run_front(CASES / "value_match_in_a_call.vx", check_operand_types).diagnostics.items


@pytest.mark.parametrize("body, code, message", [
    ("print(v * 2.0);", "E3004", "`*` is given <2 x f32> and {float}: it takes two vectors of one "
                                "type (of one lane count and one lane type), or two numbers"),
    ("print(v % v);", "E3030", "`%` does not apply to <2 x f32>: it takes two numbers of one "
                              "type"),
    ("print(v == v);", "E3005", "`==` does not apply to <2 x f32>: it takes two numbers or two "
                               "bools of one type"),
    ("print(-v);", "E3030", "`-` does not apply to <2 x f32>: it negates a number"),
    ("let b = vec<2 x bool>(true, false); print(b + b);", "E3030",
     "`+` does not apply to <2 x bool>: its lanes are bools, and it takes numbers"),
    ("let w = vec<2 x f64>(1.0, 2.0); print(v - w);", "E3004",
     "`-` is given <2 x f32> and <2 x f64>: it takes two vectors of one type (of one lane count "
     "and one lane type), or two numbers"),
])
def test_each_operator_on_a_vector_is_judged(body, code, message):
    assert _only(f"fn main() {{ let v = vec<2 x f32>(1.0, 2.0); {body} }}") == (code, message)


def test_the_four_lanewise_operators_take_two_vectors_of_one_type():
    text = ("fn main() { let v = vec<2 x f32>(1.0, 2.0); let mut w = v + v - v * v / v; "
            "w += v; print(w); }")
    assert not run_front(text, check_operand_types).diagnostics.items


@pytest.mark.parametrize("index, shown", [("1.5", "{float}"), ("true", "bool"),
                                          ("x", "f32"), ("t[0][1]", "f32")])
def test_an_index_of_a_tensor_that_is_no_integer_is_refused_while_compiling(index, shown):
    text = ("fn main() {\n  let t = Tensor<f32, [4, 4]>::fill(1.0);\n  let x: f32 = 1.0;\n"
            "  let r = &t;\n"
            f"  print(t[{index}][0]);\n  print(r[1][{index}]);\n}}\n")
    said = [(d.code, d.message) for d in run_front(text, check_operand_types).diagnostics.items]
    assert said == [("E3030", f"`[..]` of a tensor takes an integer index, but this one is "
                              f"{shown}")] * 2
    repaired = text.replace(f"[{index}]", "[2]")
    assert not run_front(repaired, check_operand_types).diagnostics.items


def test_an_index_that_is_no_integer_is_refused_from_the_command_line(tmp_path, capsys):
    case = tmp_path / "index.vx"
    case.write_text("fn main() {\n  let t = Tensor<f32, [4]>::fill(1.0);\n  print(t[1.5]);\n}\n")
    repaired = tmp_path / "index_repaired.vx"
    repaired.write_text(case.read_text().replace("1.5", "1"))
    assert_refused_from_the_command_line(case, "E3030", capsys)


# A dump read after desugar-tensor-constructors may hold an empty list (the fuzzer's mutation
# of one): this pass refuses it, as it would any list whose element type it cannot tell, where
# the interpreter would otherwise be given a list of no element.
EMPTY_LIST_IN_A_DUMP = """// IL: Lresolved
fn main() {
    assert([] == 42);
    @print(1);
}
// after: resolve-names
"""


def test_handwritten_an_empty_list_in_a_dump_is_refused(tmp_path, capsys):
    dump = tmp_path / "after-resolve-names.txt"
    dump.write_text(EMPTY_LIST_IN_A_DUMP)
    assert cli_main([str(dump)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error[E3018]: an empty array literal has no element type or length "
                          "to give the tensor\n"), err
