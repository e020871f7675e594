"""bind-extent-literals: a tensor literal of several extents naming variables, computed first
by its statement, is computed by a `let` of its own before it, which erase-variable-extents
then makes of its extents; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_extent_literals import bind_extent_literals
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "bind_extent_literals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_extent_literals)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_extent_literals)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_every_literal_of_two_variable_extents_is_a_lets_value():
    ran = run_front(CASES / "computed_first.vx", bind_extent_literals)
    lets = [n for n in ran.nodes() if n._prod == "Let" and n.value._prod == "TensorLit"]
    literals = [n for n in ran.nodes() if n._prod == "TensorLit"]
    assert len(lets) == len(literals) == 6
    assert sum(n.name.startswith("literal") for n in lets) == 6


# Hand-written Lsplit: a literal given after a call (which runs first, and prints), one of
# elements that call, and one of one variable extent stay where they are written; a literal
# after a read of a local, and one an arm gives as its value, are bound.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let n: i32 = 2;
        @print(@pair(@shown(1), Tensor<i32, [n, n]>([1, 2, 3, 4])));
        @print(@pair(n, Tensor<i32, [n, n]>([@shown(1), 2, 3, 4])));
        @print(Tensor<i32, [n]>([1, 2]));
        @print(@pair(n, Tensor<i32, [n, n]>([1, 2, 3, 4])));
        let t: Tensor<i32, [?, ?]> = if n == 2 {
            Tensor<i32, [n, n - 1]>([5, 6])
        } else {
            Tensor<i32, [1, 2]>([[7, 8]])
        };
        @print(t);
    }
"""


def test_handwritten_only_a_literal_computed_first_is_bound(run_pass, snapshot_txt):
    ran = run_pass("bind-extent-literals", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("let literal") == 2
    assert ran.dump == snapshot_txt
