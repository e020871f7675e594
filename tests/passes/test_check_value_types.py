"""check-value-types: a value of another type than the variable or the result it gives
(E3001, E3002), a string where no text goes among them, and a `main` the program cannot start
with (E3009); each refused with a message that names both types, and the repaired program
admitted."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from nano_vx.cli import main as cli_main
from nano_vx.passes.check_value_types import check_value_types
from front import assert_judged, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_value_types"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "let_mismatch": ("E3001", "'level' is declared u8, but its value is {float}"),
    "return_mismatch": ("E3002", "'half' returns f32, but this `return` gives i32"),
    "bare_return": ("E3002", "'first_positive' returns i32, but this `return;` gives no value"),
    "text_let": ("E3001", "'count' is declared i32, but its value is str"),
    "text_typed": ("E3001", "'greeting' is declared str, but its value is {integer}"),
    "row_assigned": ("E3001", "`m[0]` is a row of a tensor, Tensor<f32, [2], Memory::CPU_DRAM>: "
                              "a row is not assigned whole"),
    "element_mismatch": ("E3001", "`pair.0` is i32, but the value assigned to it is {float}"),
    "tuple_arity": ("E3001", "`span` is (_, _), but the value assigned to it is (_, _, _)"),
    "spawn_return": ("E3002", "the `spawn on` block returns i32, but this `return` gives "
                              "{float}"),
    "main_result": ("E3009", "'main' returns f64, but its result is the program's exit "
                             "status, an integer"),
    "closure_parameter_typed_by_its_calls": ("E3001", "'m' is declared i64, but its value is "
                                                      "i32"),
}


def _only(text) -> tuple[str, str]:
    [d] = run_front(text, check_value_types).diagnostics.items
    return d.code, d.message


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_value_types, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert _only(CASES / f"{case}.vx") == REFUSED[case]
    assert not run_front(CASES / f"{case}_repaired.vx", check_value_types).diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("body, message", [
    ("let x: f32 = 1;", "'x' is declared f32, but its value is {integer}"),
    ("let mut x: i32 = 0; x = 2.5;", "`x` is i32, but the value assigned to it is {float}"),
    ("let t = Tensor<f32, [4]>::fill(1.0); let d: Tensor<f32, [4], Memory::GPU_HBM> = t;",
     "'d' is declared Tensor<f32, [4], Memory::GPU_HBM>, but its value is "
     "Tensor<f32, [4], Memory::CPU_DRAM>"),
    ("let n = 5; let x: i32 = n; let y: i64 = x;", "'y' is declared i64, but its value is i32"),
    ("let b: bool = \"x\";", "'b' is declared bool, but its value is str"),
    ("let mut s = \"a\"; s = 1;", "`s` is str, but the value assigned to it is {integer}"),
    ("let s = \"a\"; let f: f32 = s;", "'f' is declared f32, but its value is str"),
    ("let s: str = \"a\"; let f: bool = s;", "'f' is declared bool, but its value is str"),
    ("let r: (i32, i32) = (1, 2, 3);", "'r' is declared (i32, i32), but its value is (_, _, _)"),
    ("let r: (i32, (bool, u8)) = (1, (true, 2, 3));",
     "'r' is declared (i32, (bool, u8)), but its value is (_, (bool, _, _))"),
    ("let x: i32 = (1, 2);", "'x' is declared i32, but its value is (_, _)"),
])
def test_each_place_a_value_goes_is_judged(body, message):
    assert _only(f"fn main() {{ {body} }}") == ("E3001", message)


def test_a_tuple_of_literals_is_no_struct():
    """Its elements have no type yet, but it is a tuple all the same (admitted, it stopped in
    scalarize-aggregates)."""
    text = "struct P { x: f32, y: f32 }\nfn main() { let p: P = VALUE; print(p.x); }\n"
    assert _only(text.replace("VALUE", "(1.0, 2.0)")) == \
        ("E3001", "'p' is declared P, but its value is (_, _)")
    assert not run_front(text.replace("VALUE", "P { x: 1.0, y: 2.0 }"),
                         check_value_types).diagnostics.items


@pytest.mark.parametrize("text, code, message", [
    ("fn f() { return 3; }\nfn main() { f(); }", "E3002",
     "'f' has no result type, but this `return` gives a value of type {integer}"),
    ("fn f() -> f32 { 1 }\nfn main() { print(f()); }", "E3002",
     "'f' returns f32, but its body ends in {integer}"),
    ("fn f() -> i32 { 7 }\nfn g() { f() }\nfn main() { g(); }", "E3002",
     "'g' has no result type, but its body ends in a value of type i32"),
    ("fn f() -> i32 { return \"7\"; }\nfn main() { print(f()); }", "E3002",
     "'f' returns i32, but this `return` gives str"),
    ("fn f() -> (i32, i32) { (1, 2, 3) }\nfn main() { print(f()); }", "E3002",
     "'f' returns (i32, i32), but its body ends in (_, _, _)"),
    ("const N: i32 = 2.5;\nfn main() { print(N); }", "E3001",
     "constant 'N' is declared i32, but its value is {float}"),
    # a variable a constant's value binds is typed as a function's: a borrowed literal is an
    # &i32 in both, which no &i64 holds
    ("const R: &i64 = if true { let k = &3000000000; k } else { &1 };\n"
     "fn main() { print(*R); }", "E3001",
     "constant 'R' is declared &i64, but its value is &i32"),
    ("fn main() { let r: &i64 = if true { let k = &3000000000; k } else { &1 }; print(*r); }",
     "E3001", "'r' is declared &i64, but its value is &i32"),
    ("fn main() -> bool { true }", "E3009",
     "'main' returns bool, but its result is the program's exit status, an integer"),
    ("fn main(n: i32) { print(n); }", "E3009",
     "'main' takes 1 parameter, but the program starts by calling it with none"),
    ("fn main() -> Tensor<i32, [1]> { [1] }", "E3009",
     "'main' returns Tensor<i32, [1], Memory::CPU_DRAM>, but its result is the program's "
     "exit status, an integer"),
])
def test_results_and_constants(text, code, message):
    assert _only(text) == (code, message)


@pytest.mark.parametrize("result", ["", " -> i8", " -> i32", " -> i64", " -> u8", " -> u64"])
def test_main_returns_nothing_or_an_integer(result):
    value = " 0 " if result else " "
    assert not run_front(f"fn main(){result} {{{value}}}", check_value_types).diagnostics.items


def test_main_takes_no_parameters():
    text = "fn main(n: i32) {\n    print(n);\n}\n"
    [d] = run_front(text, check_value_types).diagnostics.items
    assert (d.code, d.help) == ("E3009", ["declare it `fn main()`"])
    repaired = text.replace("main(n: i32) {", "main() {\n    let n: i32 = 1;")
    assert not run_front(repaired, check_value_types).diagnostics.items


def test_literals_and_the_variables_bound_to_them_take_the_type_they_meet():
    # check-value-types runs after the other type checks: none of them refuses the program.
    assert not run_front(CASES / "agreeing.vx", check_value_types).diagnostics.items


def test_a_string_goes_to_print_to_an_assert_and_to_a_variable_of_its_own():
    text = 'fn main() {\n    let s = "hi";\n    let t = s;\n    print(t);\n' \
           '    assert(1 < 2, "always");\n    print(if true { s } else { "ho" });\n}\n'
    assert not run_front(text, check_value_types).diagnostics.items


def test_a_closures_return_is_not_the_functions():
    text = "fn f() -> i32 { let g = |x: i32| { return 2.5; }; 1 }\nfn main() { print(f()); }"
    assert not run_front(text, check_value_types).diagnostics.items


# A closure's parameter of no written type has the type every call of the closure (bound by
# a `let`, only called) gives it alike, as if written; a literal at one call, values of two
# types, a copy of the closure or a `let mut` leave it open, not judged.
@pytest.mark.parametrize("let, calls, codes", [
    ("let", "print(dbl(y)); print(dbl(y + 1));", ["E3001"]),
    ("let", "print(dbl(y)); print(dbl(5));", []),
    ("let", "let z: i64 = 1; print(dbl(y)); print(dbl(z));", []),
    ("let", "let k = dbl; print(k(y));", []),
    ("let mut", "print(dbl(y));", []),
])
def test_a_closure_parameter_is_typed_by_its_calls_alike(let, calls, codes):
    text = (f"fn main() {{\n    {let} dbl = |q| {{ let m: i64 = q * 2; m }};\n"
            f"    let y: i32 = 7;\n    {calls}\n}}\n")
    assert run_front(text, check_value_types).diagnostics.codes() == codes


def test_a_return_in_a_spawn_is_judged_against_the_blocks_value_not_the_functions():
    text = ("fn f() -> f32 { let r = spawn on(Topology::CPU) { if true { return 5; } 3 };\n"
            "print(r); 1.5 }\nfn main() { spawn on(Topology::CPU) { return; }; print(f()); }")
    ran = run_front(text, check_value_types)
    assert not ran.diagnostics.items, ran.diagnostics.render()


def test_a_spawn_of_no_value_returns_none_and_the_help_says_how_to_give_one():
    [d] = run_front("fn main() { let y = spawn on(Topology::CPU) { return 5; }; }",
                    check_value_types).diagnostics.items
    assert (d.code, d.message) == ("E3002", "the `spawn on` block has no result type, but this "
                                            "`return` gives a value of type {integer}")
    assert d.help == ["end the block with its value (a block of no value gives none), or drop "
                      "the value"]


def test_an_instance_is_judged_with_its_parameters_made_concrete():
    text = "fn twice<T>(x: T) -> T { let two: T = 2; x * two }\n" \
           "fn main() { print(twice(3)); print(twice(1.5)); }"
    [d] = run_front(text, check_value_types).diagnostics.items
    assert (d.code, d.message) == ("E3001", "'two' is declared f64, but its value is {integer}")
    assert d.notes == ["in 'twice$f64', the instance of 'twice' this is judged in"]


def test_a_fault_in_an_unrolled_body_is_reported_once():
    text = "fn main() { unroll across(Topology::NPU[0..3]) { |i| let x: u8 = 1.5; } }"
    [d] = run_front(text, check_value_types).diagnostics.items
    assert d.code == "E3001"
    assert d.notes == ["this applies to each of the 3 copies of this code that `unroll across` "
                       "makes"]


def test_the_branch_an_if_comptime_does_not_take_is_not_judged():
    text = "fn f<const N: i32>() -> i32 {\n" \
           "    if comptime N > 1 { let x: u8 = 2.5; }\n" \
           "    N\n" \
           "}\n" \
           "fn main() { print(f<1>()); }"
    assert not run_front(text, check_value_types).diagnostics.items
    [d] = run_front(text.replace("f<1>", "f<2>"), check_value_types).diagnostics.items
    assert d.code == "E3001"


def test_a_body_that_ends_in_a_spawn_of_nothing_gives_no_value():
    text = "fn main() {\n    spawn on(Topology::GPU) {\n        print(1);\n    }\n}\n"
    assert not run_front(text, check_value_types).diagnostics.items


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
    assert run_pass("check-value-types", UNTYPED_LETS).codes == []


def test_a_resumed_run_admits_a_literal_bound_without_a_type(tmp_path, capsys):
    # The dump tells the type infer-placement gave (`~i32`) from a written one.
    program = tmp_path / "loose.vx"
    program.write_text("fn main() {\n    let n = 0;\n    let m: i64 = n;\n    print(m);\n}\n")
    dumps = tmp_path / "d"
    assert cli_main([str(program), "--dump-before=check-value-types", f"--dump-dir={dumps}",
                     "--action", "check"]) == 0
    [dump] = dumps.glob("*-before-check-value-types.txt")
    capsys.readouterr()
    assert cli_main([str(dump)]) == 0
    assert capsys.readouterr().out == "0\n"


TYPES = ["i8", "i32", "u64", "f32", "f64", "bool"]
VALUES = {"i8": "-3", "i32": "7", "u64": "9", "f32": "1.5", "f64": "2.5", "bool": "true"}
PLACES = {  # each place a value goes, with the code a value of another type meets there
    "let": ("let v: {t} = {v};", "E3001"),
    "assign": ("let mut v: {t} = {ok}; v = {v};", "E3001"),
    "return": ("return {v};", "E3002"),
}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(TYPES), st.sampled_from(sorted(PLACES)))
def test_a_string_is_refused_wherever_a_typed_value_goes(ty, place):
    """A string is no value of any type a program writes, at any place a value goes, and a
    value of the place's type is admitted there."""
    statement, code = PLACES[place]
    text = "fn f() -> {t} {{ {s} }}\nfn main() {{ print(f()); }}"
    filled = statement.format(t=ty, ok=VALUES[ty], v='"x"')
    tail = "" if place == "return" else f" {VALUES[ty]}"
    refused = run_front(text.format(t=ty, s=filled + tail), check_value_types)
    assert refused.diagnostics.codes() == [code]
    repaired = statement.format(t=ty, ok=VALUES[ty], v=VALUES[ty])
    assert not run_front(text.format(t=ty, s=repaired + tail),
                         check_value_types).diagnostics.items


def test_the_four_type_checks_bind_a_program_s_locals_once(monkeypatch):
    """check-operand-types, check-casts, check-conditions and check-value-types share the
    locals bound for the program they all read; a new program is bound again."""
    import nano_vx.placement.type_checking as type_checking

    bound = []
    real = type_checking.scopes_of
    monkeypatch.setattr(type_checking, "scopes_of",
                        lambda program, *a, **k: bound.append(program) or real(program, *a, **k))
    text = "fn main() { let n = 3; if n > 2 { print(n as f32); } }\n"
    for _ in range(2):
        assert not run_front(text, check_value_types).diagnostics.items
    assert len(bound) == 2 and bound[0] is not bound[1]
