"""number-aggregate-function-values: a local only called holding functions taking or
returning a struct, tuple or enum (a variable, or a parameter each call gives one by name)
holds the number of the one it holds, and each call of it calls each by name; any other value
of such a function stays for check-aggregate-function-values to refuse."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.number_aggregate_function_values import number_aggregate_function_values
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "number_aggregate_function_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", number_aggregate_function_values)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_every_function_is_called_by_name(case):
    ran = run_front(CASES / f"{case}.vx", number_aggregate_function_values)
    callees = {id(n.callee) for n in descendants(ran.after) if n._prod == "Call"}
    assert not [n.name for n in descendants(ran.after)
                if n._prod == "Global" and id(n) not in callees]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", number_aggregate_function_values)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_program_without_such_values_is_left_as_it_is():
    ran = run_front("struct P { x: i32 }\nfn get(p: P) -> i32 { p.x }\n"
                    "fn main() {\n    print(get(P { x: 1 }));\n}\n",
                    number_aggregate_function_values)
    assert ran.after is ran.before


# Hand-written Lmatched: functions taking a `&mut` to a struct chosen by an `if` for a local
# only called, and a closure whose parameter each call gives one by name, beside a closure
# given a local, which stays.
HANDWRITTEN = """
    // IL: Lmatched
    struct P {
        x: i32,
        y: i32,
    }

    fn grow(p: &mut P) -> i32 {
        p.x = p.x + 1;
        p.x
    }

    fn shrink(p: &mut P) -> i32 {
        p.y = p.y - 1;
        p.y
    }

    fn main() {
        let mut q: P = P { x: 2, y: 5 };
        let f: ~_ = if q.x > 1 {
            @shrink
        } else {
            @grow
        };
        let apply: ~_ = |g, r: &mut P| {
            g(r)
        };
        let n: ~i32 = 3;
        let add: ~_ = |h, k: i32| {
            h + k
        };
        @print(f(&mut q) + apply(@grow, &mut q) + add(n, 1));
    }
"""


def test_handwritten_a_chosen_function_and_one_given_by_name_are_numbered(run_pass,
                                                                          snapshot_txt):
    ran = run_pass("number-aggregate-function-values", HANDWRITTEN)
    assert ran.codes == []
    assert "let f: ~_ = if q.x > 1 {\n        0\n    } else {\n        1\n    };" in ran.dump
    assert "if f == 0 {\n        @shrink(&mut q)\n    } else {\n        @grow(&mut q)\n    }" \
        in ran.dump
    assert "|g: i32, r: &mut P| {\n        @grow(r)\n    }" in ran.dump
    assert "apply(0, &mut q)" in ran.dump and "add(n, 1)" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "11\n"
    assert ran.dump == snapshot_txt
