"""flag-uninit-constants: a constant holding a tensor made by `::uninit()` gets a constant of
its written-flags, a part filled by the same first read as the tensor (its function marked
as a copy whose caller keeps the flags of what it returns), so that native code stops where
the interpreter stops on an element of it never written (E9005); one whose flags it does not
follow is E5010, and the default action runs the program in the interpreter."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.flag_uninit_constants import UNFOLLOWED, flag_uninit_constants
from front import (assert_interpreted_after_w5001, assert_native_as_interpreted,
                   assert_prints_the_same, assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "flag_uninit_constants"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = sorted(n for n in NAMES if n.startswith("e5010_") and not n.endswith("_repaired"))
FLAGGED = [n for n in NAMES if n not in REFUSED]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", flag_uninit_constants)
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", FLAGGED)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", flag_uninit_constants)


@pytest.mark.parametrize("case", FLAGGED)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case", REFUSED)
def test_a_constant_not_followed_is_refused_and_its_repair_flagged(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", flag_uninit_constants, "E5010",
                                 UNFOLLOWED)


@pytest.mark.parametrize("case", REFUSED)
def test_the_default_action_then_stops_as_the_interpreter_does(case):
    assert_interpreted_after_w5001(CASES / f"{case}.vx", "E9005")


# Hand-written Lallset: a constant outline-constant-values made a function's `let` of a
# tensor made by `::uninit()`, and one of a tensor made otherwise, which keeps no flags.
UNINIT = """
    // IL: Lallset
    fn C$fill() -> Tensor<i32, [2], Memory::CPU_DRAM> {
        let value: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        value
    }

    const C: Tensor<i32, [2], Memory::CPU_DRAM> = const_part 0 of C by C$fill;

    const F: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3);

    fn main() {
        @print(@F[1]);
        @print(@C[1]);
    }
"""


def test_handwritten_the_flags_are_a_part_before_the_tensor_and_the_function_marked(run_pass):
    ran = run_pass("flag-uninit-constants", UNINIT)
    assert ran.codes == []
    assert "const C_written: Tensor<bool, [2], Memory::CPU_DRAM> = const_part 0 of C by " \
        "C$fill;\n\nconst C: Tensor<i32, [2], Memory::CPU_DRAM> = const_part 1 of C by " \
        "C$fill;" in ran.dump
    assert "const F: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3);" \
        in ran.dump
    assert ran.dump.count("_written") == 1

