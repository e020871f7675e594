"""choose-call-arguments: a shared reference to a tensor an `if` chooses between two calls of
one function is that call, each argument the arms borrow differently the `if` choosing it;
the program prints what it printed, and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.choose_call_arguments import choose_call_arguments
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "choose_call_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", choose_call_arguments)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", choose_call_arguments)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_borrows_given_differently_are_chosen_and_the_rest_kept():
    text = to_text(run_front(CASES / "chosen_between_calls_of_one_function.vx",
                             choose_call_arguments).after)
    assert "let r1: &Tensor<i32, [2], Memory::CPU_DRAM> = @first(if c {\n" \
        "                &a\n            } else {\n                &b\n            }, if c {\n" \
        "                &b\n            } else {\n                &a\n            }, i);" in text
    # literals given differently are chosen too
    assert "}, if c {\n                &b\n            } else {\n                &a\n" \
        "            }, if c {\n                2\n            } else {\n                3\n" \
        "            });" in text
    # a condition that may stop, references held by locals
    assert "let r2: &Tensor<i32, [2], Memory::CPU_DRAM> = if i % 2 == 0 {" in text
    assert "= if k > 1 && k < 5 {" in text


def test_a_condition_that_may_stop_is_left_as_it_is():
    ran = run_front(CASES / "condition_that_may_stop.vx", choose_call_arguments)
    text = to_text(ran.after)
    assert "@first(if c {" in text and "= if a[0] / z > 0 {" in text


# Hand-written Lsplit: a borrow of a variable declared twice (resolve-names gives each its
# own name, a dump edited by hand may not): no type says which it names, so it is left.
DIFFERING = """
// IL: Lsplit
fn first(p: &Tensor<i32, [?], Memory::CPU_DRAM>, q: &Tensor<i32, [?], Memory::CPU_DRAM>) -> &Tensor<i32, [?], Memory::CPU_DRAM> {
    p
}

fn main() {
    let a: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::fill([2], 1);
    let b: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::fill([3], 2);
    let c: bool = true;
    let r: &Tensor<i32, [?], Memory::CPU_DRAM> = if c {
        @first(&a, &b)
    } else {
        @first(&b, &a)
    };
    @print(r[0]);
    {
        let b: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::fill([1], 7);
        @print(b[0]);
    }
}
"""


def test_handwritten_only_borrows_of_variables_declared_once_alike_are_chosen(run_pass,
                                                                               snapshot_txt):
    ran = run_pass("choose-call-arguments", DIFFERING)
    assert ran.codes == []
    # b is declared twice: its borrow names either
    assert "= if c {\n        @first(&a, &b)\n    } else {\n        @first(&b, &a)\n    };" \
        in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "1\n7\n"
    assert ran.dump == snapshot_txt
