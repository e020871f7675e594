"""mark-uninit-closures: a closure given tensors made by `::uninit()` as arguments, only called
by name and given them at the same places, opens with the `WrittenCopy` of a copy of a
function, naming its parameters given one, so that track-uninit-elements hands it their
written-flags and native code stops with E9005 where the interpreter does; any other
closure is left as it is."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.mark_uninit_closures import mark_uninit_closures
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "mark_uninit_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", mark_uninit_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", mark_uninit_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _main(body: str) -> str:
    return to_text(run_front(f"fn main() {{\n{body}\n}}\n", mark_uninit_closures).after)


TRACKED = "let mut t = Tensor<i32, [2]>::uninit();\nt[0] = 1;\n"


@pytest.mark.parametrize("body", [
    # seeing the tensor, handed on, mutable
    TRACKED + "let at = |i: i32| t[i];\nprint(at(0));",
    TRACKED + "let at = |x: &Tensor<i32, [2]>| x[0];\nlet g = at;\nprint(g(&t));",
    TRACKED + "let mut at = |x: &Tensor<i32, [2]>| x[0];\nprint(at(&t));",
])
def test_any_other_closure_is_left_as_it_is(body):
    assert "written copy" not in _main(body)


def test_a_closure_given_by_value_elsewhere_a_tensor_of_unknown_extents_no_local_names_is_marked():
    # make-all-set-flags names it first where its statement computes it first
    assert "written copy (x);" in _main(
        "let n = 2;\nlet mut t = Tensor<i32, [?]>::uninit([n]);\nt[0] = 1;\n"
        "let at = |x: Tensor<i32, [?]>, i: i32| x[i];\n"
        "print(at(Tensor<i32, [?]>::fill([n], 5), 1));\nprint(at(t, 0));")


# Hand-written Lcopied: a closure given a tensor made by ::uninit() at its first parameter at
# each call: it opens with the mark naming that parameter.
GIVEN = """
    // IL: Lcopied
    fn main() {
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        t[0] = 4;
        let first: ~_ = |x: &Tensor<i32, [2], Memory::CPU_DRAM>, k: i32| {
            x[0] + k
        };
        @print(first(&t, 1));
    }
"""


def test_handwritten_a_closure_given_a_tracked_tensor_is_marked(run_pass):
    ran = run_pass("mark-uninit-closures", GIVEN)
    assert ran.codes == []
    assert "k: i32| {\n        written copy (x);\n        x[0] + k\n    };" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "5\n"
