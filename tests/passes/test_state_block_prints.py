"""state-block-prints: a block whose value is a `print` of an aggregate ends with that
`print` as a statement instead, which gives the same `()`; native code runs each case as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.state_block_prints import state_block_prints
from nano_vx.scalars.aggregate_types import printed
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "state_block_prints"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", state_block_prints)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", state_block_prints)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _block_values(case: str) -> list:
    """The text of each `print` left as a block's value."""
    ran = run_front(CASES / f"{case}.vx", state_block_prints)
    return [to_text(n.value) for n in ran.nodes("Block")
            if n.value is not None and printed(n.value, {}) is not None]


def test_only_the_print_of_a_scalar_is_left_a_blocks_value():
    assert _block_values("closure_printing_a_literal") == ["@print(n#1)\n"]
    assert _block_values("prints_ending_blocks") == []


HANDWRITTEN = """
    // IL: Lmatched
    struct P {
        x: i32,
    }

    fn main() {
        let c: ~bool = true;
        if c {
            @print(P { x: 1 })
        } else {
            @print(2)
        }
    }
"""


def test_handwritten_an_if_ending_a_block_with_an_arm_printing_an_aggregate_is_a_statement(
        run_pass, snapshot_txt):
    ran = run_pass("state-block-prints", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(P { x: 1 });" in ran.dump and "@print(2);" in ran.dump
    assert ran.dump == snapshot_txt
