"""read-printed-elements: a print of a tensor whose written-flags are kept, whole or a row,
reads each element it prints first, in order (a row's index that might compute otherwise
once into a `let`), only where the interpreter prints it, so that track-uninit-elements
checks them as any read and native code stops at the print with E9005 where the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.read_printed_elements import read_printed_elements
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "read_printed_elements"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", read_printed_elements)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", read_printed_elements)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_row_at_a_call_is_read_at_its_index_computed_once_and_a_block_s_print_is_a_statement():
    text = to_text(run_front(CASES / "e9005_printed_whole_and_rows.vx",
                             read_printed_elements).after)
    assert "let index: ~_ = @pick(0);\n    for at in 0..2 {\n        t[index][at];\n    }\n" \
           "    @print(t[index]);" in text
    assert "|| {\n        for at#1 in 0..2 {\n            t[0][at#1];\n        }\n" \
           "        @print(t[0]);\n    };" in text


def test_a_tensor_of_unknown_extents_is_read_only_where_it_prints():
    text = to_text(run_front(CASES / "e9005_printed_of_unknown_extents.vx",
                             read_printed_elements).after)
    assert "if t.extent(1) <= 4096 {\n        for at in 0..t.extent(1) {\n" \
           "            t[0][at];\n        }\n    }\n    @print(t[0]);" in text
    assert "if t.extent(0) <= 4096 && (t.extent(1) <= 4096 && " \
           "t.extent(0) * t.extent(1) <= 4096) {" in text


def test_a_print_the_interpreter_refuses_for_its_size_reads_nothing():
    ran = run_front("fn main() {\n    let mut t = Tensor<i32, [70, 70]>::uninit();\n"
                    "    t[0][0] = 1;\n    print(t);\n}\n", read_printed_elements)
    assert ran.diagnostics.codes() == []
    assert "t[0][0] = 1;\n    @print(t);" in to_text(ran.after)


# Hand-written Lallset: a tensor made by ::uninit() printed whole, and a row of it at an index
# read from another one: each element printed is read first, the row's index once.
PRINTED = """
    // IL: Lallset
    fn main() {
        let mut t: Tensor<i32, [2, 2], Memory::CPU_DRAM> = Tensor<i32, [2, 2]>::fill(1);
        let mut k: Tensor<i32, [1], Memory::CPU_DRAM> = Tensor<i32, [1]>::uninit();
        k[0] = 1;
        let mut u: Tensor<i32, [2, 2], Memory::CPU_DRAM> = Tensor<i32, [2, 2]>::uninit();
        u[1][0] = 3;
        u[1][1] = 4;
        @print(u[k[0]]);
        @print(k);
    }
"""


def test_handwritten_each_element_printed_is_read_first(run_pass, snapshot_txt):
    ran = run_pass("read-printed-elements", PRINTED)
    assert ran.codes == []
    assert "let index: ~_ = k[0];\n    for at in 0..2 {\n        u[index][at];\n    }\n" \
           "    @print(u[index]);" in ran.dump
    assert "for at#1 in 0..1 {\n        k[at#1];\n    }\n    @print(k);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "[3, 4]\n[1]\n"
    assert ran.dump == snapshot_txt
