"""flag-chosen-storages: a `let mut` reference an `if` chooses between an element of a
tensor of a narrow type and a place of its value type, assigned where
rebind-chosen-references and copy-rest-into-assigning-arms leave it (in a loop), is a
reference per storage and a flag saying which it names, each statement through it written
once per storage; the program prints what it printed, and native code runs it as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.check_native_subset import check_native_subset
from nano_vx.passes.flag_chosen_storages import flag_chosen_storages
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "flag_chosen_storages"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", flag_chosen_storages)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", flag_chosen_storages)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_reference_chosen_between_two_storages_is_left():
    for case in NAMES:
        ran = run_front(CASES / f"{case}.vx", flag_chosen_storages)
        assert not any(n._prod == "Let" and n.mutable and n.value._prod == "IfExpr"
                       for n in descendants(ran.after)), case


def test_a_reference_a_loops_condition_reads_through_is_flagged():
    text = to_text(run_front(CASES / "read_in_a_loops_condition.vx",
                             flag_chosen_storages).after)
    assert "    while true {\n        let more: ~bool = if r_in_byte {\n" \
        "            *r_byte < 5.0\n        } else {\n            *r_value < 5.0\n" in text


def test_a_reference_a_closure_reads_through_is_left_then_repaired():
    case = CASES / "e5010_read_in_a_closure_in_a_loop.vx"
    ran = run_front(case, flag_chosen_storages)
    assert ran.after is ran.before
    assert_refused_then_repaired(case, check_native_subset, "E5010",
                                 "a reference to a place of f32 where one to an element of a "
                                 "tensor of f8e4m3 is expected")
    assert_native_as_interpreted(case.with_name(f"{case.stem}_repaired.vx"))


# Hand-written Lsplit: `r`, assigned in a loop (and by an `if` choosing again), read and
# written through and given to a function, is a reference per storage and a flag, each
# statement naming it in an `if` on the flag, the `let` of `v` binding the `if`'s value; `q`,
# read by a closure, and `s`, whose only byte is an element of a tensor of `?` extents (no
# start that cannot stop), are left as they are (check-native-subset refuses them).
HANDWRITTEN = """
    // IL: Lsplit
    fn set(r: &mut f32, v: f32) {
        *r = v;
    }

    fn main() {
        let mut t: Tensor<f8e4m3, [2], Memory::CPU_DRAM> = Tensor<f8e4m3, [2]>::fill(1.0);
        let mut u: Tensor<f8e4m3, [?], Memory::CPU_DRAM> = Tensor<f8e4m3, [?]>::fill([2], 1.0);
        let mut x: f32 = 0.0;
        let c: ~bool = x < 1.0;
        let mut i: ~i32 = 0;
        let mut r: ~&mut f32 = if c {
            &mut t[1]
        } else {
            &mut x
        };
        while i < 3 {
            @set(r, 2.0);
            *r = *r + 1.0;
            let v: ~f32 = *r * 2.0;
            @print(v);
            r = if i < 1 {
                &mut x
            } else {
                &mut t[0]
            };
            i = i + 1;
        }
        let mut q: ~&mut f32 = if c {
            &mut t[1]
        } else {
            &mut x
        };
        q = &mut t[0];
        let read: ~_ = || {
            *q
        };
        @print(read());
        let mut s: ~&mut f32 = if c {
            &mut u[1]
        } else {
            &mut x
        };
        s = &mut x;
        *s = 4.0;
        @print(t);
        @print(x);
    }
"""


def test_handwritten_a_reference_named_only_through_it_is_flagged(run_pass, snapshot_txt):
    ran = run_pass("flag-chosen-storages", HANDWRITTEN)
    assert ran.codes == []
    assert "    let mut r_byte: ~&mut f32 = &mut t[0];\n" \
        "    let mut r_value: ~&mut f32 = &mut x;\n" in ran.dump
    assert "        if r_in_byte {\n            @set(r_byte, 2.0);\n        } else {\n" \
        "            @set(r_value, 2.0);\n        }\n" in ran.dump
    assert "        let v: ~f32 = if r_in_byte {\n            *r_byte * 2.0\n" in ran.dump
    assert "let mut q: ~&mut f32 = if c {" in ran.dump
    assert "let mut s: ~&mut f32 = if c {" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree)
    assert ran.dump == snapshot_txt
