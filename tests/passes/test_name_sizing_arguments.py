"""name-sizing-arguments: a call `let r = f$written(..)` whose caller sizes the flags of the
tensor of `?` extents it returns from its arguments has each argument computing something
(and a local before one) computed into a `let` first, in order, so that track-uninit-elements
makes the flags before the call from what it is given."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_sizing_arguments import name_sizing_arguments
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "name_sizing_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_sizing_arguments)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_sizing_arguments)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_arguments_computing_something_and_a_local_before_one_are_computed_first():
    text = to_text(run_front(CASES / "e9005_sized_from_arguments_computed_first.vx",
                             name_sizing_arguments).after)
    assert "let argument: ~_ = k;\n    let argument#1: ~_ = @bump(&mut k);\n" \
           "    let r: Tensor<i32, [?], Memory::CPU_DRAM> = " \
           "@make$written(argument, &s, argument#1, last);" in text
    assert "let argument#2: ~_ = @twice(2);\n    let q: Tensor<i32, [?], Memory::CPU_DRAM> = " \
           "@make$written(argument#2, &s, 0, last);" in text


def test_a_call_whose_flags_are_of_static_extents_is_left_as_it_is():
    text = to_text(run_front(
        "fn make(n: i32) -> Tensor<i32, [2]> {\n  let mut t = Tensor<i32, [2]>::uninit();\n"
        "  t[0] = n;\n  t\n}\n\nfn main() {\n  let r = make(1 + 2);\n  print(r[0]);\n}\n",
        name_sizing_arguments).after)
    assert "let r: Tensor<i32, [2], Memory::CPU_DRAM> = @make$written(1 + 2);" in text


# Hand-written Lallset: a copy returning a tensor of its parameter's extent, whose callers keep
# its flags, called with an argument computing something after a local it might not change:
# both are computed first, in order.
SIZED = """
    // IL: Lallset
    fn make$written(n: i32, m: i32) -> Tensor<i32, [?], Memory::CPU_DRAM> {
        written copy () -> returned;
        let mut t: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::uninit([n]);
        t[0] = m;
        return t;
    }

    fn main() {
        let k: i32 = 2;
        let r: Tensor<i32, [?], Memory::CPU_DRAM> = @make$written(k, k * 3);
        @print(r[0]);
    }
"""


def test_handwritten_the_arguments_are_computed_first_in_order(run_pass, snapshot_txt):
    ran = run_pass("name-sizing-arguments", SIZED)
    assert ran.codes == []
    assert "let argument: ~_ = k;\n    let argument#1: ~_ = k * 3;\n" \
           "    let r: Tensor<i32, [?], Memory::CPU_DRAM> = @make$written(argument, argument#1);" \
        in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "6\n"
    assert ran.dump == snapshot_txt
