"""desugar-loops: `loop { B }` is `while true { B }`; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_loops import desugar_loops
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "desugar_loops"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", desugar_loops)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-loops: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", desugar_loops)


def test_every_loop_is_a_while_on_true():
    ran = run_front(CASES / "loop.vx", desugar_loops)
    assert not list(ran.nodes("Loop"))
    whiles = list(ran.nodes("While"))
    assert len(whiles) == 2 and all(w.cond._prod == "Bool" and w.cond.value for w in whiles)


def test_handwritten_loop_with_an_invariant(run_pass, snapshot_txt):
    # A `loop` with an invariant in its header, which programs write on `while` and `for`
    # and hardly ever here: it stays at the head of the `while true` body.
    ran = run_pass("desugar-loops", """
        // IL: Lplain
        fn main() {
            let mut i = 0;
            loop invariant i <= 3 {
                if i == 3 {
                    break;
                }
                i += 1;
            }
            print(i);
        }
    """)
    assert ran.codes == []
    assert _printed(ran.tree) == "3\n"
    assert ran.dump == snapshot_txt
