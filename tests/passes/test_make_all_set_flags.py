"""make-all-set-flags: a tensor made otherwise that a call gives a marked closure's parameter
is given beside it (`AllWritten`) flags all set of its extents, made once just before the
closure for a parameter of static extents, else beside the local given (again after each
assignment of it), so that track-uninit-elements hands every call of the closure flags."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.make_all_set_flags import make_all_set_flags
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "make_all_set_flags"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", make_all_set_flags)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", make_all_set_flags)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_flags_of_static_extents_are_made_once_before_the_closure():
    text = to_text(run_front(CASES / "e9005_given_others_once.vx", make_all_set_flags).after)
    assert text.count("let x_all_written: Tensor<bool, [2], Memory::CPU_DRAM> = "
                      "Tensor<bool, [2]>::fill(true);\n    let at") == 1
    assert "let y_all_written: Tensor<bool, [2, 2], Memory::CPU_DRAM> = " \
           "Tensor<bool, [2, 2]>::fill(true);\n    let down" in text
    assert "at(all_written[x_all_written] (&ones), 0) + at(&t, 1) + " \
           "at(all_written[x_all_written] (&ones), 1)" in text
    assert "down(1, all_written[y_all_written] (&grid))" in text
    assert "down(0, &g)" in text


def test_flags_of_unknown_extents_are_made_beside_the_local_given():
    text = to_text(run_front(CASES / "e9005_given_others_beside_of_unknown_extents.vx",
                             make_all_set_flags).after)
    # beside a parameter, as the function (or closure) starts; beside a `let`, after it
    assert "-> i32 {\n    let u_all_written: Tensor<bool, [?], Memory::CPU_DRAM> = " \
           "Tensor<bool, [?]>::fill([u.extent(0)], true);" in text
    assert "| {\n        let y_all_written: Tensor<bool, [?], Memory::CPU_DRAM> = " \
           "Tensor<bool, [?]>::fill([y.extent(0)], true);\n        at(all_written[y_all_written] y" \
        in text
    assert "let mut w_all_written: Tensor<bool, [?], Memory::CPU_DRAM> = " \
           "Tensor<bool, [?]>::fill([w.extent(0)], true);\n    let mut s" in text
    # made again after the local is assigned a tensor, maybe of other extents
    assert "w = Tensor<i32, [?]>::fill([5], 20);\n    w_all_written = " \
           "Tensor<bool, [?]>::fill([w.extent(0)], true);" in text
    assert "at(&t, 1)" in text and "at(&t, 2)" in text


def test_flags_of_a_copy_s_parameter_are_made_after_its_mark():
    text = to_text(run_front(CASES / "e9005_given_others_in_a_copy_of_unknown_extents.vx",
                             make_all_set_flags).after)
    assert "    written copy (t);\n    let u_all_written: Tensor<bool, [?], Memory::CPU_DRAM>" \
           in text


# Hand-written Lcopied: a marked closure given a tensor made by ::uninit() at one call and one
# made otherwise at two others: flags all set are made once, before the closure, and both
# calls give them.
OTHERS = """
    // IL: Lcopied
    fn main() {
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(4);
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        t[1] = 7;
        let at: ~_ = |x: &Tensor<i32, [2], Memory::CPU_DRAM>, i: i32| {
            written copy (x);
            x[i]
        };
        @print(at(&u, 0) + at(&t, 1) + at(&u, 1));
    }
"""


def test_handwritten_flags_all_set_are_made_once_and_given_beside_each_other_tensor(
        run_pass, snapshot_txt):
    ran = run_pass("make-all-set-flags", OTHERS)
    assert ran.codes == []
    assert ran.text.startswith("// IL: Lallset\n")
    assert ran.dump.count("Tensor<bool, [2]>::fill(true)") == 1
    assert "@print(at(all_written[x_all_written] (&u), 0) + at(&t, 1) + " \
           "at(all_written[x_all_written] (&u), 1));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "15\n"
    assert ran.dump == snapshot_txt
