"""track-uninit-elements: each tensor made by `::uninit()` that settle-written-tensors left
gets a written-flag per element, set by each write and checked by each read (those
read-printed-elements made before a print of the whole tensor or of a row too), through the names it is given and the copies
copy-tracked-functions made of the functions and kernels it is passed to or returned by, so
that native code stops with E9005 where the interpreter does; a use it does not follow is
E5010, and the default action runs the program in the interpreter."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.track_uninit_elements import track_uninit_elements
from front import (_printed, assert_interpreted_after_w5001, assert_native_as_interpreted,
                   assert_prints_the_same, assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "track_uninit_elements"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = sorted(n for n in NAMES if n.startswith("e5010_") and not n.endswith("_repaired"))
TRACKED = [n for n in NAMES if n not in REFUSED]
SAYS = "a use of a tensor made by ::uninit() whose written-flags it does not follow"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", track_uninit_elements)
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", TRACKED)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", track_uninit_elements)


@pytest.mark.parametrize("case", TRACKED)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case", REFUSED)
def test_a_use_not_followed_is_refused_and_its_repair_tracked(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", track_uninit_elements, "E5010", SAYS)


@pytest.mark.parametrize("case", REFUSED)
def test_the_default_action_then_stops_as_the_interpreter_does(case):
    assert_interpreted_after_w5001(CASES / f"{case}.vx", "E9005")


def _codes(body: str, items: str = "") -> list:
    return run_front(f"{items}fn main() {{\n{body}\n}}\n", track_uninit_elements) \
        .diagnostics.codes()


@pytest.mark.parametrize("body", [
    "let mut t = Tensor<i32, [3]>::uninit();\nt[0] = 1;\n"
    "let at = |x: &Tensor<i32, [3]>| x[0];\nlet g = at;\nprint(g(&t));",
    "print(Tensor<i32, [3]>::uninit()[0]);",
    "let t = Tensor<i32, []>::uninit();\nprint(t);",  # of rank 0: no element to index
    # an element of `?` extents lent at a computed index: no static extent to check it
    # against where it is taken, and the write through the reference would set no flag
    "let n = 3;\nlet mut t = Tensor<i32, [?]>::uninit([n]);\nlet i = 1;\n{\n"
    "let r = &mut t[i];\n*r = 4;\n}\nprint(t[1]);",
])
def test_what_the_flags_do_not_follow_is_refused(body):
    assert _codes(body) == ["E5010"]


def test_an_index_the_value_might_change_is_computed_once_before_the_write():
    ran = run_front("fn main() {\n    let mut t = Tensor<i32, [3]>::uninit();\n"
                    "    let mut k = 0;\n    t[k] = 1;\n    k += 1;\n    print(t[0]);\n}\n",
                    track_uninit_elements)
    assert ran.diagnostics.codes() == []
    assert "let index: ~_ = k;\n    t[index] = 1;\n    t_written[index] = true;" \
        in to_text(ran.after)


MAKE = "fn make() -> Tensor<i32, [3]> {\n  let mut t = Tensor<i32, [3]>::uninit();\n" \
       "  t[0] = 1;\n  t\n}\n"
SAME = "fn same(t: &Tensor<i32, [3]>) -> &Tensor<i32, [3]> {\n  t\n}\n"


@pytest.mark.parametrize("items, body", [
    (MAKE, "let g = || {\n  let u = make();\n  u\n};\nlet v = g();\nprint(v[0]);"),
    (SAME, "let mut t = Tensor<i32, [3]>::uninit();\nt[0] = 1;\nlet u = same(&t);\n"
           "print(u[0]);"),  # one it was lent, returned: no flags are handed back for it
])
def test_a_tensor_returned_whose_flags_are_not_handed_back_is_refused(items, body):
    # A closure naming it is refused, and so is its function, which something still calls.
    assert set(_codes(body, items)) == {"E5010"}


def test_a_row_printed_has_each_of_its_flags_checked_first_in_order():
    text = to_text(run_front(CASES / "e9005_row.vx", track_uninit_elements).after)
    assert "for at#1 in 0..2 {\n        written[t_written] t[k][at#1];\n    }\n    @print(t[k]);" \
        in text


def test_a_closure_given_a_tensor_made_otherwise_is_given_flags_all_set_made_once():
    text = to_text(run_front(CASES.parent / "mark_uninit_closures" / "e9005_given_others_too.vx",
                             track_uninit_elements).after)
    assert "let x_all_written: Tensor<bool, [2], Memory::CPU_DRAM> = " \
           "Tensor<bool, [2]>::fill(true);\n    let at" in text
    assert "@print(at(&u, 1, x_all_written));\n    @print(at(&t, 1, t_written));" in text


def test_a_closure_given_a_local_of_unknown_extents_is_given_flags_all_set_made_beside_it():
    text = to_text(run_front(CASES.parent / "mark_uninit_closures" /
                             "given_others_of_unknown_extents.vx", track_uninit_elements).after)
    # beside a parameter, as the function (or closure) starts; beside a `let`, after it
    assert "-> i32 {\n    let u_all_written: Tensor<bool, [?], Memory::CPU_DRAM> = " \
           "Tensor<bool, [?]>::fill([u.extent(0)], true);" in text
    assert "let y_all_written: Tensor<bool, [?], Memory::CPU_DRAM> = " \
           "Tensor<bool, [?]>::fill([y.extent(0)], true);\n        at(y, " in text
    assert "= &w;\n        let v_all_written: Tensor<bool, [?], Memory::CPU_DRAM> = " \
           "Tensor<bool, [?]>::fill([v.extent(0)], true);\n        s += at(v, k, v_all_written);" \
        in text
    # made again after the local is assigned a tensor, maybe of other extents
    assert "z = Tensor<i32, [?]>::fill([4], 20);\n    z_all_written = " \
           "Tensor<bool, [?]>::fill([z.extent(0)], true);" in text


def test_the_flags_of_a_result_of_unknown_extents_are_sized_from_the_arguments():
    text = to_text(run_front(CASES.parent / "copy_tracked_functions" /
                             "returned_of_unknown_extents.vx", track_uninit_elements).after)
    # an argument computing something is computed first, in order; a negative extent: none
    assert "let argument#1: ~_ = @g(2);\n    let argument#2: ~_ = @g(3) as i64;\n" \
           "    let mut b_written: Tensor<bool, [?, 3], Memory::CPU_DRAM> = " \
           "Tensor<bool, [?, 3]>::new([if argument#1 >= 0 {" in text
    assert "@make$written(argument#1, argument#2, b_written);" in text


# Hand-written Lallset: a tensor written in part, its written element read; the write sets its
# flag and the read checks it.
PART = """
    // IL: Lallset
    fn main() {
        let mut part: Tensor<i32, [3], Memory::CPU_DRAM> = Tensor<i32, [3]>::uninit();
        part[0] = 5;
        @print(part[0] + 1);
    }
"""


def test_handwritten_a_write_sets_its_flag_and_a_read_checks_it(run_pass):
    ran = run_pass("track-uninit-elements", PART)
    assert ran.codes == []
    assert ran.text.startswith("// IL: Lwritten\n")
    assert "let mut part_written: Tensor<bool, [3], Memory::CPU_DRAM> = " \
           "Tensor<bool, [3]>::new();" in ran.dump
    assert "part_written[0] = true;" in ran.dump
    assert "@print(written[part_written] part[0] + 1);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "6\n"


# Hand-written Lallset: a copy given a tensor made by ::uninit() takes its flags after its own
# parameters, and the call gives them; one returning such a tensor writes its flags to the
# caller's, which the caller made.
COPIES = """
    // IL: Lallset
    fn first$written(u: &Tensor<i32, [2], Memory::CPU_DRAM>) -> i32 {
        written copy (u);
        return u[0];
    }

    fn make$written() -> Tensor<i32, [2], Memory::CPU_DRAM> {
        written copy () -> returned;
        let mut m: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        m[1] = 2;
        return m;
    }

    fn main() {
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        t[0] = 3;
        @print(@first$written(&t));
        let r: Tensor<i32, [2], Memory::CPU_DRAM> = @make$written();
        @print(r[1]);
    }
"""


def test_handwritten_a_copy_takes_the_flags_its_mark_names(run_pass):
    ran = run_pass("track-uninit-elements", COPIES)
    assert ran.codes == []
    assert "fn first$written(u: &Tensor<i32, [2], Memory::CPU_DRAM>, " \
           "u_written: Tensor<bool, [2], Memory::CPU_DRAM>) -> i32 {" in ran.dump
    assert "written copy" not in ran.dump
    assert "@print(@first$written(&t, t_written));" in ran.dump
    assert "fn make$written(result_written: Tensor<bool, [2], Memory::CPU_DRAM>)" in ran.dump
    assert "let r: Tensor<i32, [2], Memory::CPU_DRAM> = @make$written(r_written);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "3\n2\n"


# Hand-written Lallset: a closure mark-uninit-closures marked takes the flags of the parameter
# its mark names after its own parameters, and each call of it gives them.
MARKED = """
    // IL: Lallset
    fn main() {
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        t[1] = 7;
        let at: ~_ = |x: &Tensor<i32, [2], Memory::CPU_DRAM>, i: i32| {
            written copy (x);
            x[i]
        };
        @print(at(&t, 1));
    }
"""


def test_handwritten_a_marked_closure_takes_the_flags_its_mark_names(run_pass):
    ran = run_pass("track-uninit-elements", MARKED)
    assert ran.codes == []
    assert "i: i32, x_written: Tensor<bool, [2], Memory::CPU_DRAM>| {\n" \
           "        written[x_written] x[i]\n    };" in ran.dump
    assert "@print(at(&t, 1, t_written));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "7\n"


# Hand-written Lallset: a marked closure given a tensor made by ::uninit() at one call and, at
# another, one made otherwise with the flags all set make-all-set-flags made beside it: each
# call gives its flags after its own arguments.
ALL_SET = """
    // IL: Lallset
    fn main() {
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(4);
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        t[1] = 7;
        let x_all_written: Tensor<bool, [2], Memory::CPU_DRAM> = Tensor<bool, [2]>::fill(true);
        let at: ~_ = |i: i32, x: &Tensor<i32, [2], Memory::CPU_DRAM>| {
            written copy (x);
            x[i]
        };
        @print(at(0, all_written[x_all_written] (&u)) + at(1, &t));
    }
"""


def test_handwritten_a_tensor_made_otherwise_is_given_its_flags_all_set(run_pass):
    ran = run_pass("track-uninit-elements", ALL_SET)
    assert ran.codes == []
    assert "all_written" not in ran.text.replace("x_all_written", "")
    assert "@print(at(0, &u, x_all_written) + at(1, &t, t_written));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "11\n"
