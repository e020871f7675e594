"""index-chosen-rows: an `if` choosing among rows of one tensor variable is the row at the
index the `if` chooses, each arm checking its index as the interpreter checks the row; native
code runs each case as the interpreter does, stops included."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.index_chosen_rows import index_chosen_rows
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "index_chosen_rows"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", index_chosen_rows)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", index_chosen_rows)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_number_inside_the_extent_is_not_checked_and_elements_stay_chosen():
    text = to_text(run_front(CASES / "chosen_rows.vx", index_chosen_rows).after)
    assert "= t[if i == 0 {\n            0\n        } else if i == 1 {\n            if j < 0 {" \
        in text
    assert "&mut u[if k > 1 {\n            1\n        } else {\n            0\n        }];" in text
    assert "= if k > 0 {\n        v[0]\n    } else {\n        v[2]\n    };" in text


def test_an_index_past_the_extent_stops_at_the_borrow_of_its_row():
    ran = run_front(CASES / "out_of_range.vx", index_chosen_rows)
    assert _printed(ran.after) == _printed(ran.before) == \
        "stopped: E9003: index 18446744073709551615 is out of bounds for dimension 0 of extent 300\n"


# Hand-written Lsplit: rows of two tensors, rows whose arms hold a statement or compute their
# index by a call: each `if` stays as written.
KEPT = """
    // IL: Lsplit
    fn at(k: i32) -> i32 {
        k
    }
    fn main() {
        let mut a: Tensor<i32, [2, 2], Memory::CPU_DRAM> = Tensor<i32, [2, 2]>::fill(1);
        let b: Tensor<i32, [2, 2], Memory::CPU_DRAM> = Tensor<i32, [2, 2]>::fill(2);
        @print(if true {
            a[1]
        } else {
            b[0]
        });
        @print(if true {
            let k: i32 = 1;
            a[k]
        } else {
            a[0]
        });
        @print(if true {
            a[@at(1)]
        } else {
            a[0]
        });
    }
"""


def test_handwritten_ifs_no_index_can_choose_stay(run_pass):
    ran = run_pass("index-chosen-rows", KEPT)
    assert ran.codes == []
    assert ran.tree == ran.before
