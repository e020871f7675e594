"""bind-chosen-storage-heads: the condition of a `while` or an `if` statement that reads
through a `let mut` reference an `if` chooses between places of two storages is a `let` of
its own, a `while`'s at the top of each turn, so that flag-chosen-storages writes it once
per storage; the program prints what it printed, and native code runs it as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_chosen_storage_heads import bind_chosen_storage_heads
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "bind_chosen_storage_heads"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_chosen_storage_heads)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_chosen_storage_heads)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_loops_condition_is_computed_at_the_top_of_each_turn():
    text = to_text(run_front(CASES / "read_in_a_loops_condition_with_continue.vx",
                             bind_chosen_storage_heads).after)
    assert "    while true {\n        let more: ~bool = *r < 6.0;\n" \
        "        if !more {\n            break;\n        }\n        i = i + 1;\n" in text


def test_an_else_ifs_condition_is_bound_in_its_arm():
    text = to_text(run_front(CASES / "read_in_ifs_conditions.vx",
                             bind_chosen_storage_heads).after)
    assert "        let cond#1: ~bool = *r > 3.0;\n        if cond#1 {\n" in text
    assert "        } else {\n            let cond: ~bool = @say(i) && *r > 1.5;\n" \
        "            if cond {\n" in text


# Hand-written Lsplit: `r`, chosen between a byte and an f32, read by a loop's condition and
# an `if`'s, whose conditions become `let`s; a loop reading through `y`, a reference to one
# place, and an `if` not reading `r`, stay.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let mut t: Tensor<f8e4m3, [2], Memory::CPU_DRAM> = Tensor<f8e4m3, [2]>::fill(1.0);
        let mut x: f32 = 0.0;
        let mut z: f32 = 3.0;
        let c: ~bool = x < 1.0;
        let mut i: ~i32 = 0;
        let mut r: ~&mut f32 = if c {
            &mut t[1]
        } else {
            &mut x
        };
        let y: ~&mut f32 = &mut z;
        while *r < 4.0 {
            *r = *r + 1.5;
            r = &mut t[0];
            i = i + 1;
        }
        if *r > 2.0 {
            @print(1);
        }
        while *y < 5.0 {
            *y = *y + 1.0;
        }
        if i > 1 {
            @print(i);
        }
        @print(t);
        @print(x);
    }
"""


def test_handwritten_heads_reading_a_chosen_reference_are_bound(run_pass, snapshot_txt):
    ran = run_pass("bind-chosen-storage-heads", HANDWRITTEN)
    assert ran.codes == []
    assert "    while true {\n        let more: ~bool = *r < 4.0;\n" \
        "        if !more {\n            break;\n        }\n" in ran.dump
    assert "    let cond: ~bool = *r > 2.0;\n    if cond {\n" in ran.dump
    assert "    while *y < 5.0 {\n" in ran.dump
    assert "    if i > 1 {\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree)
    assert ran.dump == snapshot_txt
