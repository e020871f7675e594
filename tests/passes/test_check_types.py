"""check-types: a value of another type than its place takes (E3001, E3002, E3004-E3007, E3011),
each refused with a message that names both types, and the repaired program admitted."""

from pathlib import Path

import pytest

from nano_vx.cli import main as cli_main
from nano_vx.passes.check_types import check_types
from front import assert_judged, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_types"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "let_mismatch": ("E3001", "'level' is declared u8, but its value is {float}"),
    "return_mismatch": ("E3002", "'half' returns f32, but this `return` gives i32"),
    "bare_return": ("E3002", "'first_positive' returns i32, but this `return;` gives no value"),
    "mixed_operands": ("E3004", "`+` is given i32 and i64: it takes two numbers of one type"),
    "mixed_comparison": ("E3005", "`<` compares u32 with i64: both sides must be of one type"),
    "logical_number": ("E3006", "`&&` takes two bools, but its left operand is i32"),
    "if_branches": ("E3007", "the branches of this `if` are {float} and {integer}: an `if` "
                             "used as a value gives one type"),
    "cast_to_bool": ("E3011", "cannot cast i32 to bool: a number is never a bool"),
}


def _only(text) -> tuple[str, str]:
    [d] = run_front(text, check_types).diagnostics.items
    return d.code, d.message


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_types, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert _only(CASES / f"{case}.vx") == REFUSED[case]
    assert not run_front(CASES / f"{case}_repaired.vx", check_types).diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("body, code, message", [
    ("let x: f32 = 1;", "E3001", "'x' is declared f32, but its value is {integer}"),
    ("let mut x: i32 = 0; x = 2.5;", "E3001",
     "`x` is i32, but the value assigned to it is {float}"),
    ("let t = Tensor<f32, [4]>::fill(1.0); let d: Tensor<f32, [4], Memory::GPU_HBM> = t;",
     "E3001", "'d' is declared Tensor<f32, [4], Memory::GPU_HBM>, but its value is "
              "Tensor<f32, [4], Memory::CPU_DRAM>"),
    ("let n = 5; let x: i32 = n; let y: i64 = x;", "E3001",
     "'y' is declared i64, but its value is i32"),
    ("print(true + 1);", "E3004", "`+` does not apply to bool: it takes two numbers of one type"),
    ("let x: f32 = 2.0; print(x << 1);", "E3004",
     "`<<` does not apply to f32: it takes an integer, shifted by an integer"),
    ("print(1.5 & 2.0);", "E3004",
     "`&` does not apply to {float}: it takes two integers or two bools of one type"),
    ("let f: f32 = 1.0; print(f * 2);", "E3004",
     "`*` is given f32 and {integer}: it takes two numbers of one type"),
    ("let x: u32 = 3; print(-x);", "E3004", "`-` does not apply to u32: u32 is unsigned"),
    ("let b = true; print(-b);", "E3004", "`-` does not apply to bool: it negates a number"),
    ("let mut x: u8 = 1; x += 2.0;", "E3004",
     "`+=` is given u8 and {float}: it takes two numbers of one type"),
    ("print(1 == true);", "E3005",
     "`==` compares {integer} with bool: both sides must be of one type"),
    ("print(1 < 2.0);", "E3005", "`<` compares {integer} with {float}: both sides must be of "
                                 "one type"),
    ("print(true || 0);", "E3006", "`||` takes two bools, but its right operand is {integer}"),
    ("print(!2.5);", "E3006",
     "`!` takes a bool, or an integer whose bits it flips, but its operand is {float}"),
    ("let n: i32 = 3; if n { print(n); }", "E3007", "the condition of `if` is i32, not a bool"),
    ("while 1 { break; }", "E3007", "the condition of `while` is {integer}, not a bool"),
    ("assert(0);", "E3007", "the condition of `assert` is {integer}, not a bool"),
    ("print(true as f32);", "E3011", "cannot cast bool to f32: a bool converts only to an "
                                     "integer"),
    ("print(Tensor<f32, [4]>::fill(1.0) as i32);", "E3011",
     "cannot cast Tensor<f32, [4], Memory::CPU_DRAM> to i32: `as` converts a number or a bool "
     "to a number"),
    ("let x: i32 = 3; print(x as Tensor<i32, [1]>);", "E3011",
     "cannot cast i32 to Tensor<i32, [1]>: `as` converts a number or a bool to a number"),
])
def test_each_place_a_type_is_judged(body, code, message):
    assert _only(f"fn main() {{ {body} }}") == (code, message)


@pytest.mark.parametrize("text, code, message", [
    ("fn f() { return 3; }\nfn main() { f(); }", "E3002",
     "'f' has no result type, but this `return` gives a value of type {integer}"),
    ("fn f() -> f32 { 1 }\nfn main() { print(f()); }", "E3002",
     "'f' returns f32, but its body ends in {integer}"),
    ("fn f() -> i32 { 7 }\nfn g() { f() }\nfn main() { g(); }", "E3002",
     "'g' has no result type, but its body ends in a value of type i32"),
    ("const N: i32 = 2.5;\nfn main() { print(N); }", "E3001",
     "constant 'N' is declared i32, but its value is {float}"),
])
def test_results_and_constants(text, code, message):
    assert _only(text) == (code, message)


def test_literals_and_the_variables_bound_to_them_take_the_type_they_meet():
    assert not run_front(CASES / "agreeing.vx", check_types).diagnostics.items


def test_a_closures_return_is_not_the_functions():
    text = "fn f() -> i32 { let g = |x: i32| { return 2.5; }; 1 }\nfn main() { print(f()); }"
    assert not run_front(text, check_types).diagnostics.items


def test_an_instance_is_judged_with_its_parameters_made_concrete():
    text = "fn twice<T>(x: T) -> T { let two: T = 2; x * two }\n" \
           "fn main() { print(twice(3)); print(twice(1.5)); }"
    [d] = run_front(text, check_types).diagnostics.items
    assert (d.code, d.message) == ("E3001", "'two' is declared f64, but its value is {integer}")
    assert d.notes == ["in 'twice$f64', the instance of 'twice' this is judged in"]


def test_a_fault_in_an_unrolled_body_is_reported_once():
    text = "fn main() { unroll across(Topology::NPU[0..3]) { |i| let x: u8 = 1.5; } }"
    [d] = run_front(text, check_types).diagnostics.items
    assert d.code == "E3001"
    assert d.notes == ["this applies to each of the 3 copies of this code that `unroll across` "
                       "makes"]


def test_the_json_form_names_both_types():
    [d] = run_front(CASES / "mixed_operands.vx", check_types).diagnostics.items
    assert d.data == {"operator": "+", "left": "i32", "right": "i64"}
    assert d.help == ["convert one side with `as`"]


def test_the_branch_an_if_comptime_does_not_take_is_not_judged():
    text = "fn f<const N: i32>() -> i32 {\n" \
           "    if comptime N > 1 { let x: u8 = 2.5; }\n" \
           "    N\n" \
           "}\n" \
           "fn main() { print(f<1>()); }"
    assert not run_front(text, check_types).diagnostics.items
    [d] = run_front(text.replace("f<1>", "f<2>"), check_types).diagnostics.items
    assert d.code == "E3001"


def test_a_body_that_ends_in_a_spawn_of_nothing_gives_no_value():
    text = "fn main() {\n    spawn on(Topology::GPU) {\n        print(1);\n    }\n}\n"
    assert not run_front(text, check_types).diagnostics.items


def test_arithmetic_on_a_reference_is_refused_and_reading_through_it_admitted():
    text = "fn main() {\n  let x = 4;\n  let p = &x;\n  print(p + 1);\n}\n"
    said = [(d.code, d.message, d.help) for d in run_front(text, check_types).diagnostics.items]
    assert said == [("E3004", "`+` does not apply to &i32, a reference",
                     ["read the value it names: `*p`"])]
    assert not run_front(text.replace("p + 1", "*p + 1"), check_types).diagnostics.items


# Hand-written Lrouted: casts to types that are no scalar. The reference grammar takes only a
# scalar after `as`; the parser takes any type, and such a cast went through unrefused to
# crash select-instructions. A closure's result is not known here, yet the cast is refused.
CASTS_TO_NO_SCALAR = """
    // IL: Lrouted
    struct Pair {
        a: i32,
        b: i32,
    }

    fn main() {
        let x: i32 = 3;
        let f: _ = || {
            1
        };
        @print(x as Tensor<i32, [1]>);
        @print(x as Pair);
        @print(f() as (i32, i32));
        @print(f() as i64);
    }
"""


def test_handwritten_a_cast_to_no_scalar_is_refused(run_pass, snapshot_txt):
    ran = run_pass("check-types", CASTS_TO_NO_SCALAR)
    assert ran.codes == ["E3011", "E3011", "E3011"]
    assert [d.message for d in ran.diagnostics.items] == [
        "cannot cast i32 to Tensor<i32, [1]>: `as` converts a number or a bool to a number",
        "cannot cast i32 to Pair: `as` converts a number or a bool to a number",
        "cannot cast this value to (i32, i32): `as` converts a number or a bool to a number",
    ]
    assert ran.dump == snapshot_txt


# Hand-written Lrouted: `let`s whose type infer-placement always writes left as `_`. A value
# of a type not known here is not judged: neither where it is bound nor where it is used.
UNTYPED_LETS = """
    // IL: Lrouted
    fn main() {
        let x: _ = 1.5;
        let y: i32 = x;
        let z: _ = y;
        let w: bool = z;
    }
"""


def test_handwritten_a_let_left_untyped_is_not_judged(run_pass):
    assert run_pass("check-types", UNTYPED_LETS).codes == []


def test_a_resumed_run_admits_a_literal_bound_without_a_type(tmp_path, capsys):
    # The dump tells the type infer-placement gave (`~i32`) from a written one.
    program = tmp_path / "loose.vx"
    program.write_text("fn main() {\n    let n = 0;\n    let m: i64 = n;\n    print(m);\n}\n")
    dumps = tmp_path / "d"
    assert cli_main([str(program), "--dump-before=check-types", f"--dump-dir={dumps}",
                     "--action", "check"]) == 0
    [dump] = dumps.glob("*-before-check-types.txt")
    capsys.readouterr()
    assert cli_main([str(dump)]) == 0
    assert capsys.readouterr().out == "0\n"


SHAPES = "enum Shape { Circle, Square }\nenum Light { On, Off }\n"


def test_a_case_of_another_enum_is_no_case_of_the_match():
    text = SHAPES + ("fn main() { let s = Shape::Circle; match s { Shape::Circle => print(1), "
                     "Light::On | Light::Off => print(2), _ => print(3), } }")
    ran = run_front(text, check_types)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3005", f"this case compares Shape with `Light::{v}`, a Light: a case's pattern is "
                  f"of its `match`'s type") for v in ("On", "Off")]
    repaired = text.replace("Light::On | Light::Off", "Shape::Square")
    assert not run_front(repaired, check_types).diagnostics.items
