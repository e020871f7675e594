"""prune-comptime-branches, monomorphize's helper rewrite, on one instance's body at a time:
which branch of each `if comptime` stays."""

from nano_vx.comptime import Evaluator
from nano_vx.dump.text import to_text
from nano_vx.passes.erase_struct_arguments import erase_struct_arguments
from nano_vx.placement.prune_comptime_branches import Pruning, prune
from front import run_front

# An instance's body, as substitute-generic-parameters leaves it: its consts are literals.
PROGRAM = """
const BIG: i32 = 8;

fn body(k: i32) -> i32 {
    if comptime 3 > 1 {
        print(1);
    } else {
        print(0);
    }
    if comptime 3 > BIG {
        print(2);
    }
    if comptime k > 1 {
        print(3);
    }
    if k > 1 {
        print(4);
    } else {
        print(5);
    }
    if comptime 3 == 1 { 10 } else { 20 }
}

fn main() { print(body(2)); }
"""


def _pruned() -> str:
    ran = run_front(PROGRAM, erase_struct_arguments)
    fn = next(i for i in ran.after.items if i._prod == "Fn" and i.name == "body")
    out = prune.rewrite(fn, ran.ctx, state=Pruning(Evaluator(ran.after)))
    assert not ran.diagnostics.items
    return to_text(out)


def test_a_decided_condition_keeps_the_branch_it_takes():
    text = _pruned()
    # The else goes, and the condition is written as its value.
    assert text.startswith("fn body(k: i32) -> i32 {\n    if comptime true {\n        "
                           "@print(1);\n    }\n    if comptime false {}\n")  # 3 > BIG too

    assert "@print(0)" not in text and "@print(2)" not in text


def test_an_if_used_as_a_value_keeps_an_empty_block_for_the_branch_it_drops():
    assert "(if comptime false {} else {\n        20\n    })" in _pruned()


def test_an_undecided_condition_and_a_run_time_if_keep_both_branches():
    text = _pruned()
    assert "if comptime k > 1 {\n        @print(3);\n    }" in text
    assert "@print(4);" in text and "@print(5);" in text
