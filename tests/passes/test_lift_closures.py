"""lift-closures: a closure becomes a function of the program, its captures extra parameters
passed at each call."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.lift_closures import lift_closures
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "lift_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", lift_closures)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"lift-closures: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", lift_closures)


def test_captures_follow_the_parameters_and_a_closure_calling_one_passes_its_captures_on():
    after = run_front(CASES / "captures.vx", lift_closures).after
    fns = {i.name: i for i in after.items if i._prod == "Fn"}
    assert list(fns) == ["main", "main$closure0", "main$closure1"]
    assert [p.name for p in fns["main$closure0"].params] == ["n", "scale", "bias"]
    assert [p.name for p in fns["main$closure1"].params] == ["n#1", "scale", "bias"]
    assert "closure" not in to_text(fns["main"]).replace("main$closure", "")


# Hand-written Lscalars: a function already named as main's first closure would be, a name
# with a `$` no Vx program can write. The closure takes the next free number, not a second
# function of that name.
LIFTED_NAME_TAKEN = """
    // IL: Lscalars
    fn main$closure0(x: i32) -> i32 {
        x *[i32] 100i32
    }

    fn main() -> void {
        let k: i32 = 1i32;
        let f: _ = |x: i32| -> i32 {
            x +[i32] k
        };
        @print(f(2i32));
        @print(@main$closure0(2i32));
    }
"""


def test_handwritten_a_lifted_name_already_taken(run_pass, snapshot_txt):
    ran = run_pass("lift-closures", LIFTED_NAME_TAKEN)
    assert ran.codes == []
    assert [item.name for item in ran.tree.items] == ["main$closure0", "main", "main$closure1"]
    assert _printed(ran.before) == _printed(ran.tree) == "3\n200\n"
    assert ran.dump == snapshot_txt
