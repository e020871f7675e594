"""track-moved-captures: a variable a closure moves has a moved-flag, set by each `transfer`
of it and checked by each read, so that native code stops where the interpreter stops on a
read after the move (E9004), with its message."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.track_moved_captures import track_moved_captures
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "track_moved_captures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", track_moved_captures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_and_stops_as_the_input(case):
    assert_prints_the_same(CASES / f"{case}.vx", track_moved_captures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_transfer_of_a_flagged_variable_has_its_own_stop_message():
    ran = run_front(CASES / "chosen_by_an_if.vx", track_moved_captures)
    halts = {(n.code, n.message, n.span.line, n.span.col) for n in ran.nodes("Halt")}
    moved_t = "use of 't' after it moved to Memory::NPU_HBM at chosen_by_an_if.vx:8:21"
    moved_n = "use of 'n' after it moved to Memory::NPU_HBM at chosen_by_an_if.vx:8:65"
    # n is read by the `let` of c too, which checks it (before any call could move it).
    assert halts == {("E9004", moved_t, 8, 30), ("E9004", moved_n, 7, 11),
                     ("E9004", moved_n, 8, 74)}


def test_an_assignment_gives_the_variable_a_value_again():
    text = to_text(run_front(CASES / "moved_anew.vx", track_moved_captures).after)
    assert "let mut t_moved: ~i32 = 0;" in text
    assert "t = Tensor<i32, [2]>::fill(2);\n    t_moved = 0;" in text
    assert "t_moved = 1;\n        let u" in text


def test_a_function_without_a_closure_that_moves_is_left_as_it_is():
    ran = run_front(CASES / "called_in_loops.vx", track_moved_captures)
    assert ran.after is not ran.before
    plain = run_front("fn main() {\n  let t = Tensor<i32, [2]>::fill(1);\n"
                      "  let u = transfer(t, Memory::NPU_HBM);\n  print(u[0]);\n}\n",
                      track_moved_captures)
    assert plain.after is plain.before


def test_a_read_after_a_reference_to_an_element_through_a_dereference_is_checked_after_it():
    """hold-operands-before-moved-reads holds `&(*v)[i]` in a `let` (its index may stop
    first), after which the statement reads `t` first."""
    text = to_text(run_front(CASES / "read_after_a_reference_through_a_dereference.vx",
                             track_moved_captures).after)
    assert "let operand: ~_ = &(*v)[i];\n        if t_moved == 1 {" in text


def test_a_reference_lent_to_a_function_reading_it_first_is_checked_at_that_read():
    """The interpreter stops in the callee, at `x[0]`: the check in the copy of the callee
    stops with that place."""
    ran = run_front(CASES / "lent_to_a_call.vx", track_moved_captures)
    assert (6, 41) in {(halt.span.line, halt.span.col) for halt in ran.nodes("Halt")}


def test_a_reference_lent_to_a_function_printing_first_is_checked_in_a_copy_of_it():
    """The interpreter stops in the callee, at `x[0]`, after its print: the call is of a copy
    of `total` given the flag, which checks it before that statement."""
    ran = run_front(CASES / "lent_to_a_call_printing_first.vx", track_moved_captures)
    text = to_text(ran.after)
    assert "@print(@total$checking_x(&t, t_moved));" in text
    assert "fn total$checking_x(x: &Tensor<i32, [2], Memory::CPU_DRAM>, x_moved: i32) -> i32 {\n"\
           "    @print(5);\n    if x_moved == 1 {" in text
    assert {(halt.span.line, halt.span.col) for halt in ran.nodes("Halt")} == {(6, 51), (10, 46)}


def test_a_reference_lent_to_a_function_reading_it_first_in_a_loop_condition_is_checked():
    """The interpreter stops at `x[0]` in the loop's condition, the first thing the loop
    computes: the copy of the callee checks the flag before the loop, with that place."""
    ran = run_front(CASES / "lent_to_a_call_reading_it_in_a_loop_condition.vx",
                    track_moved_captures)
    text = to_text(ran.after)
    copy = text[text.index("fn least$checking_x"):text.index("fn main")]
    assert copy.index("if x_moved == 1 {") < copy.index("while x[0] > s {")
    assert (8, 9) in {(halt.span.line, halt.span.col) for halt in ran.nodes("Halt")}


def test_a_reference_lent_to_a_function_reading_it_in_a_loop_is_checked_there_and_after():
    text = to_text(run_front(CASES / "lent_to_a_call_reading_it_in_a_loop_that_may_not_run.vx",
                             track_moved_captures).after)
    copy = text[text.index("fn total$checking_x"):text.index("fn main")]
    assert copy.count("if x_moved == 1 {") == 2
    assert copy.index("@print(i);") < copy.index("if x_moved") < copy.index("s += x[i];")
    assert copy.index("@print(6);") < copy.rindex("if x_moved") < copy.index("s + x[1]")


def test_a_kernel_moving_through_a_lent_reference_is_lent_the_launchers_flag_beside_it():
    """The interpreter's launch moves the launcher's `x` with the kernel's `transfer(*x, ..)`
    of the `&mut x` it is lent, and the closure's read after the launch stops there: the
    kernel is lent the launcher's flag beside the reference, which its assignment of `*x`
    clears and its `transfer` sets."""
    text = to_text(run_front(CASES / "moved_through_a_lent_reference.vx",
                             track_moved_captures).after)
    assert "launch main$kernel0 on(Topology::CPU)(&mut x, &mut x_moved);" in text
    assert "fn main$kernel0(x: &mut i32, x_moved: &mut i32) on Topology::CPU {" in text
    assert "*x = 4;\n    *x_moved = 0;\n" in text
    assert "*x_moved = 1;\n    let y" in text


def test_a_reference_a_kernel_lends_on_is_checked_where_the_callee_assigns_through_it():
    """`bump(t)` in the kernel lends the `&mut t` it was lent: the interpreter's `bump` stops
    at its first statement, an assignment to an element through it, before computing its
    value: the call is of a copy of `bump` given the flag, which checks it there."""
    ran = run_front(CASES / "lent_on_by_a_kernel_to_a_call_assigning_first.vx",
                    track_moved_captures)
    assert (7, 5) in {(halt.span.line, halt.span.col) for halt in ran.nodes("Halt")}


def test_a_kernel_moving_a_flagged_variable_is_lent_the_launchers_flag():
    """The launch moves the launcher's variable (through the kernel it launches, here), so
    the kernel sets the launcher's flag, through a `&mut` it is lent and lends on."""
    text = to_text(run_front(CASES / "moved_by_a_kernel.vx", track_moved_captures).after)
    assert "launch run$kernel0 on(Topology::CPU)(t, &mut t_moved);" in text
    assert "t_moved: &mut i32) on Topology::CPU {" in text and "*t_moved = 1;" in text


# Hand-written Lsafe: a parameter moved by a closure called in a loop whose condition reads
# nothing moved, after a read of it checked by a `let` first.
MOVED_PARAMETER = """
    // IL: Lsafe
    fn send_all(t: Tensor<i32, [2], Memory::CPU_DRAM>, n: i32) {
        let first: i32 = t[0];
        let send: ~_ = || {
            transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](t, Memory::NPU_HBM)
        };
        let mut i: i32 = 0;
        while i < n {
            @print(i + first);
            let a: ~_ = send();
            i += 1;
        }
    }

    fn main() {
        @send_all(Tensor<i32, [2]>::fill(3), 3);
    }
"""


def test_handwritten_a_parameter_moved_by_a_closure_in_a_loop(run_pass, snapshot_txt):
    ran = run_pass("track-moved-captures", MOVED_PARAMETER)
    assert ran.codes == []
    assert "let mut t_moved: ~i32 = 0;\n    if t_moved == 1 {" in ran.dump
    assert "t_moved = 1;\n        transfer" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == (
        "3\n4\nstopped: E9004: use of 't' after it moved to Memory::NPU_HBM at case.il:5:9\n")
    assert ran.dump == snapshot_txt


@pytest.mark.parametrize("use,says", [
    ("let mut i = 0; while i < t[0] { i += 1; }",
     "a use, in a loop's condition, of a variable a closure may move"),
    ("let mut a = 1; a = a * 2 + t[0];", "a read of 't', which a closure may move,"
                                         " not the first thing"),
])
def test_a_read_a_check_before_its_statement_would_not_match_is_refused(use, says):
    text = ("fn main() {\n  let t = Tensor<i32, [2]>::fill(1);\n"
            f"  let send = || {{ {use} transfer(t, Memory::NPU_HBM) }};\n"
            "  let a = send();\n}\n")
    [diag] = run_front(text, track_moved_captures).diagnostics.items
    assert diag.code == "E5010"
    assert says in diag.message
