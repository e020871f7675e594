"""check-linearity: a transfer consumes its local; a later use is E4001."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_linearity import check_linearity
from front import run_front

CASES = Path(__file__).parent / "cases" / "check_linearity"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"straight", "branch", "loop", "unrolled", "match"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", check_linearity)
    assert ran.after is ran.before  # a check: the tree goes on as it came
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"check-linearity: {case}") == snapshot_dot


def _refusal(case):
    ran = run_front(CASES / f"{case}.vx", check_linearity)
    [diag] = ran.diagnostics.items
    assert diag.code == "E4001"
    text = diag.span.source.text
    return diag, (diag.span.line, text[diag.span.start:diag.span.end])


def test_a_use_after_the_transfer_names_the_variable_and_the_move():
    diag, where = _refusal("straight")
    assert where == (5, "host")
    assert diag.message == ("use of moved value 'host': it was moved to Memory::GPU_HBM "
                            "at line 4, column 15")
    assert diag.notes == ["'host' moved here, at 4:15: `transfer(host, Memory::GPU_HBM)`"]
    assert diag.data == {"name": "host", "moved_to": "GPU_HBM",
                         "moved_at": {"line": 4, "column": 15}}


def test_a_move_on_one_branch_counts_after_the_if():
    diag, where = _refusal("branch")
    assert where == (8, "t")
    assert "moved to Memory::NPU_HBM at line 6" in diag.message


def test_the_arms_of_a_match_are_branches():
    # The read in the other arm is not after the move; the one after the match is.
    diag, where = _refusal("match")
    assert where == (13, "t")
    assert "moved to Memory::NPU_HBM at line 7" in diag.message


def test_a_move_in_a_loop_of_an_outer_variable_fails_on_the_next_iteration():
    diag, where = _refusal("loop")
    assert where == (6, "t")
    assert "in an earlier iteration of the loop" in diag.message


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_interpreter_stops_on_the_refused_programs_too(case):
    before, after = run_front(CASES / f"{case}.vx", check_linearity).prints()
    assert "stopped: E9004" in before and after == before


def test_the_repaired_programs_are_admitted_and_run_unchanged():
    ran = run_front(CASES / "repaired.vx", check_linearity)
    assert not ran.diagnostics.items
    before, after = ran.prints()
    assert after == before == "1.5\n[2, 2]\n[1, 1]\n[4, 4]\n0\n"


def test_a_while_condition_that_reads_a_moved_value_is_refused():
    ran = run_front("fn main() { let t = Tensor<i32, [1]>::fill(1); let mut n = 0;\n"
                     "while t[0] > n { let d = transfer(t, Memory::NPU_HBM); n = n + 1; } }\n",
                     check_linearity)
    # Both uses on the second iteration: the condition, and the transfer itself.
    assert [d.code for d in ran.diagnostics.items] == ["E4001", "E4001"]
    assert [d.span.source.line_col(d.span.start) for d in ran.diagnostics.items] == [(2, 7), (2, 35)]
    assert all("earlier iteration" in d.message for d in ran.diagnostics.items)


def test_a_use_in_every_copy_of_an_unrolled_body_is_one_error():
    diag, where = _refusal("unrolled")
    assert where == (8, "t")
    assert diag.notes == ["'t' moved here, at 7:20: `transfer(t, Memory::CPU_DRAM)`",
                          "this applies to each of the 4 copies of this code that `unroll across` makes"]


def test_a_for_variable_is_a_fresh_value_each_time_round():
    text = ("fn main() {\n    for i in 0..3 {\n        let k = transfer(i, Memory::NPU_HBM);\n"
            "    }\n}\n")
    assert not run_front(text, check_linearity).diagnostics.items


def test_nested_loops_that_move_nothing_are_walked_once_each(monkeypatch):
    # Each loop walks its body twice to see the next iteration; without moves the second
    # walk repeats the first and is skipped, so nested loops cost their number, not 2^depth
    # (20 nested loops took 220 s).
    import nano_vx.passes.check_linearity as pass_module

    walks = []
    loop = pass_module._loop
    monkeypatch.setattr(pass_module, "_loop", lambda *a, **k: walks.append(1) or loop(*a, **k))
    depth = 16
    body = "".join("    " * i + "while x < 1 {\n" for i in range(1, depth + 1))
    body += "    " * (depth + 1) + "print(x);\n"
    body += "".join("    " * i + "}\n" for i in range(depth, 0, -1))
    text = f"fn main() {{\n    let x = 0;\n{body}}}\n"
    assert not run_front(text, check_linearity).diagnostics.items
    assert len(walks) == depth
