"""split-choice-statements: a function returning a `&mut` to a struct or tuple that runs
statements before it chooses among places of its `&mut` parameters is two, the statements'
called just before each call a `let` or an assignment stores; one that only chooses, or
returns a `&mut` to a scalar, stays; the program prints what it printed, and native code
prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.split_choice_statements import split_choice_statements
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_choice_statements"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_choice_statements)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_choice_statements)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_statements_run_first_on_arguments_held_in_lets():
    fns = {i.name: to_text(i) for i in run_front(CASES / "statements_before_the_choice.vx",
                                                 split_choice_statements).after.items
           if i._prod == "Fn"}
    assert "@print(first);" in fns["loud$run"] and "if first" not in fns["loud$run"]
    assert "@print" not in fns["loud"] and "if first && p.a.x > 2" in fns["loud"]
    main = fns["main"]
    assert "let first#1: bool = n % 2 == 0;" in main and "let k: i32 = n;" in main
    assert main.index("@loud$run(&mut q, first#1, k);") < \
        main.index("let r: &mut Point = @loud(&mut q, first#1, k);")
    assert "@loud$run(&mut q, first, 2);\n        r#1 = @loud(&mut q, first, 2);" in main


def test_a_function_that_only_chooses_or_returns_a_reference_to_a_scalar_stays():
    ran = run_front(CASES / "kept.vx", split_choice_statements)
    assert ran.after is ran.before


# Hand-written Lmatched: pick prints, then chooses; the call a `let` binds runs pick$run
# first, and pick is the choice alone.
HANDWRITTEN = """
    // IL: Lmatched
    struct Point {
        x: i32,
        y: i32,
    }

    fn pick(a: &mut Point, b: &mut Point, first: bool) -> &mut Point {
        @print(a.x);
        if first {
            a
        } else {
            b
        }
    }

    fn main() {
        let mut p: Point = Point { x: 1, y: 2 };
        let mut q: Point = Point { x: 3, y: 4 };
        let r: &mut Point = @pick(&mut p, &mut q, false);
        r.x = 30;
        @print(Point { x: q.x, y: q.y });
    }
"""


def test_handwritten_the_statements_are_a_function_called_first(run_pass, snapshot_txt):
    ran = run_pass("split-choice-statements", HANDWRITTEN)
    assert ran.codes == []
    assert "fn pick$run(a: &mut Point, b: &mut Point, first: bool) {" in ran.dump
    assert "@pick$run(&mut p, &mut q, false);\n    let r: &mut Point = @pick(" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "1\nPoint { x: 30, y: 4 }\n"
    assert ran.dump == snapshot_txt
