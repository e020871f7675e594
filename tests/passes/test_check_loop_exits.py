"""check-loop-exits: E3054 for a `break` or `continue` with no loop of its own body around it."""

from __future__ import annotations

import pytest

from front import run_front
from nano_vx.pipeline import PIPELINE

check_loop_exits = PIPELINE.get("check-loop-exits")

ADMITTED = """
fn main() {
    let mut n = 0;
    loop {
        n += 1;
        if n % 2 == 0 { continue; }
        for i in 0..3 { if i == 1 { break; } }
        while n > 100 { break; }
        if n > 5 { break; }
    }
    let inner = |k: i32| { for j in 0..k { if j > 1 { break; } } k };
    print(inner(n));
}
"""


def test_loops_of_every_kind_are_left_and_restarted():
    ran = run_front(ADMITTED, check_loop_exits)
    assert ran.diagnostics.codes() == [] and ran.after is ran.before


@pytest.mark.parametrize("body, word, note", [
    ("fn main() { break; }", "break", None),
    ("fn main() { if true { continue; } }", "continue", None),
    ("fn main() { for i in 0..2 { let f = || { break; }; f(); } }", "break", "closure"),
    ("fn main() { while true { spawn on(Topology::GPU) { continue; }; } }", "continue",
     "spawn"),
])
def test_an_exit_with_no_loop_of_its_own_body_is_e3029(body, word, note):
    ran = run_front(body, check_loop_exits)
    [d] = ran.diagnostics.items
    assert (d.code, d.message) == ("E3054", f"`{word}` outside a loop")
    assert (note in d.notes[0]) if note else d.notes == []


BREAK_IN_A_SPAWN_IN_A_LOOP = """
    // IL: Lrouted
    fn main() {
        for i#1 in 0..2 {
            spawn on(Topology::GPU) {
                for j in 0..2 {
                    continue;
                }
                break;
            };
        }
    }
"""


def test_handwritten_the_loop_around_a_spawn_is_not_its_own(run_pass, snapshot_txt):
    # A `for` inside the spawn's body is the body's own loop; the one around it is not.
    ran = run_pass("check-loop-exits", BREAK_IN_A_SPAWN_IN_A_LOOP)
    assert ran.codes == ["E3054"]
    assert ran.diagnostics.items[0].span.line == 8
    assert ran.dump == snapshot_txt
