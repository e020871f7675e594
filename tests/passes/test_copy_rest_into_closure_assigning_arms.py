"""copy-rest-into-closure-assigning-arms: what follows an `if` statement an arm of which assigns
a `let mut` variable given both a function and a closure, read other than called, is copied
into each arm (the `if` the block's value where it has one), but into an arm ending leaving;
a variable only called, or assigned in a loop, stays; the program prints what it printed,
and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_rest_into_closure_assigning_arms import (
    copy_rest_into_closure_assigning_arms)
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "copy_rest_into_closure_assigning_arms"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_rest_into_closure_assigning_arms)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert ran.after is not ran.before
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_rest_into_closure_assigning_arms)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_assignment_is_followed_by_the_rest_its_second_copy_binding_anew():
    main = to_text(run_front(CASES / "assigned_in_an_arm_then_given.vx",
                             copy_rest_into_closure_assigning_arms).after.items[1])
    assert "        let r: ~_ = apply(g, 5);\n        @print(r);\n    } else {\n" \
        "        let r#1: ~_ = apply(g, 5);\n        @print(r#1);\n    }\n}\n" in main


def test_an_arm_ending_leaving_is_not_given_the_rest_and_a_later_if_is_written_again():
    run = to_text(run_front(CASES / "assigned_in_two_ifs_one_arm_returning.vx",
                            copy_rest_into_closure_assigning_arms).after.items[2])
    assert "            g = @mul;\n            apply(g, 3)\n        } else {\n" \
        "            apply(g, 3)\n        }\n    } else {\n        return apply(g, 7);\n" in run


_SHOW = "fn add(a: i32, b: i32) -> i32 { a + b }\nfn main() {\n" \
    "    let apply = |h, y: i32| h(y, y);\n    let mut g = add;\n    let mut i = 0;\n"


@pytest.mark.parametrize("rest", [
    # only called: either kind is called alike
    "    if i < 1 {\n        g = |a: i32, b: i32| a - b;\n    }\n    print(g(1, 2));\n",
    # assigned in a loop: the next turn reads what the `if` gave
    "    while i < 2 {\n        print(apply(g, i));\n        if i > 0 {\n"
    "            g = |a: i32, b: i32| a - b;\n        }\n        i += 1;\n    }\n",
    # read by a closure, which reads it when called
    "    let late = |y: i32| g(y, 1);\n    if i < 1 {\n        g = |a: i32, b: i32| a - b;\n"
    "    }\n    print(apply(g, late(2)));\n",
])
def test_a_variable_only_called_assigned_in_a_loop_or_read_by_a_closure_stays(rest):
    ran = run_front(_SHOW + rest + "}\n", copy_rest_into_closure_assigning_arms)
    assert ran.after is ran.before


# Hand-written Lpinned: a variable an `if` may assign a closure, given after it, and one a
# `let mut` binds to a closure only called after such an `if`: the rest is copied for the
# first, the second's `if` left followed by the rest in each copy.
HANDWRITTEN = """
    // IL: Lpinned
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }

    fn main() {
        let apply: ~_ = |h, y: i32| {
            h(y, 1)
        };
        let mut g: ~_ = @add;
        let c: bool = 1 > 0;
        if c {
            g = |a: i32, b: i32| {
                a - b
            };
        }
        let mut f: ~_ = |x: i32, z: i32| {
            x * z
        };
        if c {
            f = @add;
        }
        @print(apply(g, 5));
        @print(f(2, 3));
    }
"""


def test_handwritten_only_a_variable_read_other_than_called_copies_the_rest(run_pass,
                                                                           snapshot_txt):
    ran = run_pass("copy-rest-into-closure-assigning-arms", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("@print(apply(g, 5));") == 2
    # the second copy binds f anew; f, only called, is assigned in an `if` followed by the rest
    assert ran.dump.count("    f = @add;") == ran.dump.count("    f#1 = @add;") == 1
    assert ran.dump.count("@print(f(2, 3));") == ran.dump.count("@print(f#1(2, 3));") == 1
    assert _printed(ran.before) == _printed(ran.tree) == "4\n5\n"
    assert ran.dump == snapshot_txt


def test_a_constants_if_is_left_as_it_is():
    # Its blocks bind no variable of a function: the pass stopped at the constant's `if`
    # with no function's names (an internal error).
    text = ("const T: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);\n"
            "const X: &i32 = if true { &T[0] } else { &T[1] };\n"
            "fn main() {\n  print(*X);\n}\n")
    ran = run_front(text, copy_rest_into_closure_assigning_arms)
    assert not ran.diagnostics.items
    assert ran.prints() == ("4\n",) * 2
