"""defer-kernel-moves: a kernel's move of a tensor it is lent `&mut` of (or given by such a
kernel) is a move of a copy, numbered in a flag the launch lends it, and the launcher moves
its variable after the launch where the flag says so, so that return-kernel-tensors can
make the kernel return the tensor; native code stops where the interpreter stops."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.defer_kernel_moves import defer_kernel_moves
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "defer_kernel_moves"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", defer_kernel_moves)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", defer_kernel_moves)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_launcher_moves_its_variable_where_the_flag_says():
    text = to_text(run_front(CASES / "moved_by_an_inner_kernel.vx", defer_kernel_moves).after)
    assert "    let mut t_moved: ~i32 = 0;\n" \
        "    launch main$kernel2 on(Topology::CPU)(&mut t, &mut s, &mut t_moved);\n" \
        "    if t_moved == 1 {\n        let _: Tensor<i32, [2], Memory::NPU_HBM> = " \
        "transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](t, Memory::NPU_HBM);\n    }\n" in text
    # The kernel given `*t` moves a copy, and sets the flag it is lent on.
    assert "    *t_moved = 1;\n    let t_sent: Tensor<i32, [2], Memory::CPU_DRAM> = t;\n" in text
    assert "    launch main$kernel0 on(Topology::CPU)(*t, s, t_moved);\n" in text
    # A kernel that only assigns the tensor clears the flag, where it is lent it.
    assert "    *t = Tensor<i32, [2]>::fill(4);\n    *t_moved = 0;\n" in text


def test_a_closure_the_kernel_calls_once_numbers_its_move_in_its_block():
    text = to_text(run_front(CASES / "moved_by_a_closure_of_the_kernel.vx",
                             defer_kernel_moves).after)
    assert "        }\n        *t_moved = 1;\n" \
        "        let t_sent: Tensor<i32, [2], Memory::CPU_DRAM> = *t;\n" \
        "        transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](t_sent, Memory::NPU_HBM)\n" \
        "    };\n" in text
    assert "    if t_moved == 1 {\n        transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50]" \
        "(t, Memory::NPU_HBM);\n    }\n" in text


@pytest.mark.parametrize("case,calls", [
    ("moved_by_a_closure_called_twice",
     "    let a: ~_ = call(send);\n    let b: ~_ = call(send);\n"),
    ("moved_by_a_closure_called_in_a_loop", "    while i < 2 {\n        let a: ~_ = call(send);\n"),
])
def test_a_closure_called_again_stops_where_its_flag_says_the_tensor_moved(case, calls):
    text = to_text(run_front(CASES / f"{case}.vx", defer_kernel_moves).after)
    assert "    let send: ~_ = || {\n        if *t_moved == 1 {\n            halt \"E9004\", " \
        "\"use of 't' after it moved to Memory::NPU_HBM at " in text
    assert calls in text


def test_a_closure_called_in_a_loop_assigning_the_tensor_after_it_is_numbered():
    text = to_text(run_front(CASES / "moved_by_a_closure_called_in_a_loop_reading_it.vx",
                             defer_kernel_moves).after)
    assert "        let a: ~_ = call(send);\n        s = s + a[1];\n" \
        "        *t = Tensor<i32, [2]>::fill(s);\n        *t_moved = 0;\n" in text
    assert "    if t_moved == 1 {\n" in text


def test_a_read_a_later_turn_may_make_after_the_move_checks_the_flag():
    text = to_text(run_front(CASES / ("moved_by_a_closure_called_in_a_loop_reading_it_before_"
                                      "assigning_it_again.vx"), defer_kernel_moves).after)
    assert "    while i < 3 {\n        if *t_moved == 1 {\n            halt \"E9004\", " \
        "\"use of 't' after it moved to Memory::NPU_HBM at " in text
    assert "        }\n        s = s + (*t)[0];\n        let a: ~_ = call(send);\n" in text


def test_a_read_after_an_operator_held_first_in_a_loop_calling_it_checks_the_flag():
    text = to_text(run_front(CASES / ("moved_by_a_closure_called_in_a_loop_reading_it_after_"
                                      "an_operator.vx"), defer_kernel_moves).after)
    assert "    while i < 3 {\n        let operand: ~_ = s + i;\n        if *t_moved == 1 {\n" \
        "            halt \"E9004\", " in text
    assert "        }\n        s = operand + (*t)[0];\n" in text


def test_a_read_in_a_loops_condition_calling_it_is_left_then_repaired():
    case = CASES / "e5010_moved_by_a_closure_called_in_a_loop_whose_condition_reads_it.vx"
    ran = run_front(case, defer_kernel_moves)
    assert ran.after is ran.before
    status, printed, err = run_cli(case)
    assert "an assignment of a whole tensor through a reference" in err
    assert "warning[W5001]" in err
    assert (status, printed) == run_cli(case, "--action", "interpret")[:2]
    assert_native_as_interpreted(case.with_name(f"{case.stem}_repaired.vx"))


# Hand-written Lparted: a kernel calling once a closure that moves its tensor, which is
# numbered; and changed so that something may read `*t` after the move, where the
# interpreter would stop and a copy's move would not: each is left as it is.
CLOSURE = """
    // IL: Lparted
    fn main() {
        let mut t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1);
        let mut s: i32 = 0;
        launch main$kernel0 on(Topology::CPU)(&mut t, &mut s);
        @print(s);
    }

    fn main$kernel0(t: &mut Tensor<i32, [2]>, s: &mut i32) on Topology::CPU {
        let peek: ~_ = || { (*t)[0] };
        let send: ~_ = || {
            transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](*t, Memory::NPU_HBM)
        };
        *t = Tensor<i32, [2]>::fill(2);
        let a: Tensor<i32, [2]> = send();
        *s = a[0];
    }
"""
CALL = "        let a: Tensor<i32, [2]> = send();\n"
READ = "        *s = a[0];\n"
MOVE = "transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](*t, Memory::NPU_HBM)"
READ_AFTER = {
    "by a closure": [(READ, "        *s = a[0] + peek();\n")],
    "by a closure calling one": [(READ, "        let p: ~_ = || { peek() + 1 };\n"
                                        "        *s = a[0] + p();\n")],
    "by a copy made before": [(CALL, "        let q: ~_ = peek;\n" + CALL),
                              (READ, "        *s = a[0] + q();\n")],
    "by a closure given one before": [
        (CALL, "        let keep: ~_ = |f| { || { f() } };\n"
               "        let g: ~_ = keep(peek);\n" + CALL),
        (READ, "        *s = a[0] + g();\n")],
    "in the closure's block": [("{\n            " + MOVE + "\n        }",
                                "{ let m: Tensor<i32, [2]> = " + MOVE + "; m[1] + peek() }"),
                               (CALL + READ, "        *s = send();\n")],
    "by a loop reading it after an operator's value": [
        (CALL + READ, "        while *s < 4 {\n"
                      "            *s = *s + 1 + (*t)[1];\n"
                      "            let a: Tensor<i32, [2]> = send();\n"
                      "            *s += a[0];\n        }\n")],
    "after a move of the body": [
        (READ, "        *t = Tensor<i32, [2]>::fill(3);\n"
               "        let c: Tensor<i32, [2]> = " + MOVE + ";\n"
               "        *s = a[0] + c[0] + peek();\n")],
}


def test_handwritten_a_closure_called_once_is_numbered(run_pass):
    ran = run_pass("defer-kernel-moves", CLOSURE)
    text = to_text(ran.tree)
    assert "        *t_moved = 1;\n        let t_sent: Tensor<i32, [2]> = *t;\n" in text
    assert "    launch main$kernel0 on(Topology::CPU)(&mut t, &mut s, &mut t_moved);\n" in text
    assert _printed(ran.tree) == _printed(ran.before) == "2\n"


def test_handwritten_a_closure_called_twice_is_numbered_and_checked(run_pass):
    ran = run_pass("defer-kernel-moves", CLOSURE.replace(READ, "        let b: Tensor<i32, [2]> "
                                                               "= send();\n" + READ))
    text = to_text(ran.tree)
    assert "        if *t_moved == 1 {\n            halt \"E9004\", \"use of 't' after it " \
        "moved to Memory::NPU_HBM at case.il:" in text
    assert _printed(ran.before) == _printed(ran.tree)
    assert _printed(ran.tree).startswith("stopped: E9004: use of 't' after it moved")


def test_handwritten_a_closure_given_to_one_calling_it_twice_is_checked(run_pass):
    ran = run_pass("defer-kernel-moves", CLOSURE.replace(CALL, (
        "        let twice: ~_ = |f| { f()[0] + f()[0] };\n"
        "        let a: i32 = twice(send);\n")).replace(READ, "        *s = a;\n"))
    assert "    launch main$kernel0 on(Topology::CPU)(&mut t, &mut s, &mut t_moved);\n" in \
        to_text(ran.tree)
    assert _printed(ran.before) == _printed(ran.tree)
    assert _printed(ran.tree).startswith("stopped: E9004: use of 't' after it moved")


# A loop calling it after reading `*t` first in a statement: the flag is checked there, and
# the second turn's read stops.
READ_IN_A_LOOP = {
    "assigning it after on no turn": [(CALL + READ, "        while *s < 6 {\n"
                                                    "            *s += (*t)[1];\n"
                                                    "            let a: Tensor<i32, [2]> = send();\n"
                                                    "            *s += a[0];\n        }\n")],
    "assigning it after but for a `continue`": [
        (CALL + READ, "        while *s < 6 {\n"
                      "            *s += (*t)[1];\n"
                      "            let a: Tensor<i32, [2]> = send();\n"
                      "            *s += a[0];\n"
                      "            if *s > 2 {\n                continue;\n            }\n"
                      "            *t = Tensor<i32, [2]>::fill(2);\n        }\n")],
}


def _changed(changes) -> str:
    """CLOSURE with each (old, new) of `changes` made."""
    program = CLOSURE
    for old, new in changes:
        assert old in program
        program = program.replace(old, new)
    return program


@pytest.mark.parametrize("loop", sorted(READ_IN_A_LOOP))
def test_handwritten_a_loop_reading_it_first_then_calling_it_checks_the_flag(run_pass, loop):
    ran = run_pass("defer-kernel-moves", _changed(READ_IN_A_LOOP[loop]))
    assert "    while *s < 6 {\n        if *t_moved == 1 {\n" in to_text(ran.tree)
    assert _printed(ran.before) == _printed(ran.tree)
    assert _printed(ran.tree).startswith("stopped: E9004: use of 't' after it moved")


@pytest.mark.parametrize("read", sorted(READ_AFTER))
def test_handwritten_a_closure_whose_move_may_be_read_after_is_left(run_pass, read):
    ran = run_pass("defer-kernel-moves", _changed(READ_AFTER[read]))
    assert not ran.codes
    assert ran.tree == ran.before


# Hand-written Lparted: a kernel moving its tensor inside an expression (not a `let`'s
# value) and one launched twice: both are left as they are.
LEFT = """
    // IL: Lparted
    fn main() {
        let mut t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1);
        let mut s: i32 = 0;
        launch main$kernel0 on(Topology::CPU)(&mut t, &mut s);
        launch main$kernel1 on(Topology::CPU)(&mut t, &mut s);
        launch main$kernel1 on(Topology::CPU)(&mut t, &mut s);
        @print(s);
    }

    fn main$kernel0(t: &mut Tensor<i32, [2]>, s: &mut i32) on Topology::CPU {
        *t = Tensor<i32, [2]>::fill(2);
        *s = transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](*t, Memory::NPU_HBM)[0];
    }

    fn main$kernel1(t: &mut Tensor<i32, [2]>, s: &mut i32) on Topology::CPU {
        *t = Tensor<i32, [2]>::fill(3);
        let a: Tensor<i32, [2]> = transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](*t, Memory::NPU_HBM);
        *s += a[0];
    }
"""


def test_handwritten_a_move_in_an_expression_or_launched_twice_is_left(run_pass):
    ran = run_pass("defer-kernel-moves", LEFT)
    assert not ran.codes
    assert ran.tree == ran.before
    assert _printed(ran.tree) == "8\n"


def test_handwritten_a_move_a_let_binds_is_deferred(run_pass):
    ran = run_pass("defer-kernel-moves", LEFT.replace(
        "        launch main$kernel1 on(Topology::CPU)(&mut t, &mut s);\n", "", 1))
    text = to_text(ran.tree)
    assert "launch main$kernel0 on(Topology::CPU)(&mut t, &mut s);" in text
    assert "    launch main$kernel1 on(Topology::CPU)(&mut t, &mut s, &mut t_moved);\n" \
        "    if t_moved == 1 {\n" in text
    assert "    *t_moved = 1;\n    let t_sent: Tensor<i32, [2]> = *t;\n" in text
    assert _printed(ran.tree) == "5\n"
