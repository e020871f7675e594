"""split-sizing-calls: each `let r = f(..)` of a function returning a tensor made by
`::uninit()` whose `?` extents `let`s computing calls give calls a copy computing those
`let`s, writing them through `&mut` parameters, then a copy taking them, so that
copy-tracked-functions finds the extents f's parameters; each call and stop comes where it
came."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.split_sizing_calls import split_sizing_calls
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_sizing_calls"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_sizing_calls)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_sizing_calls)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_arguments_are_named_then_the_extents_computed_then_the_tensor_made():
    text = to_text(run_front(CASES / "two_extents_after_named_arguments.vx",
                             split_sizing_calls).after)
    assert "let argument: ~_ = @shown(2);\n    let mut m: i32 = 0;\n    let mut k: i32 = 0;\n" \
           "    @make$extents(argument, 7, &mut m, &mut k);\n" \
           "    let a: Tensor<i32, [?, ?], Memory::CPU_DRAM> = " \
           "@make$measured(argument, 7, m, k);" in text
    assert "fn make$extents(n: i32, v: i32, m_out: &mut i32, k_out: &mut i32) {" in text
    assert "fn make$measured(n: i32, v: i32, m: i32, k: i32)" in text
    assert "fn make(" not in text  # called no more


@pytest.mark.parametrize("items", [
    # arithmetic alone (hoist-sizing-lets'); a tensor parameter; a print before the `let`s
    "fn make(n: i32) -> Tensor<i32, [?]> {\n  let m = n * 2;\n"
    "  let mut t = Tensor<i32, [?]>::uninit([m]);\n  t\n}\n",
    "fn twice(n: i32) -> i32 {\n  n * 2\n}\nfn make(n: i32, u: Tensor<i32, [2]>) -> "
    "Tensor<i32, [?]> {\n  let m = twice(n);\n  let mut t = Tensor<i32, [?]>::uninit([m]);\n"
    "  t\n}\n",
    "fn twice(n: i32) -> i32 {\n  n * 2\n}\nfn make(n: i32) -> Tensor<i32, [?]> {\n"
    "  print(n);\n  let m = twice(n);\n  let mut t = Tensor<i32, [?]>::uninit([m]);\n  t\n}\n",
])
def test_any_other_function_is_left_as_it_is(items):
    args = "2, Tensor<i32, [2]>::fill(1)" if "u:" in items else "2"
    ran = run_front(f"{items}fn main() {{\n  let a = make({args});\n  print(a.extent(0));\n}}\n",
                    split_sizing_calls)
    assert ran.after is ran.before


# Hand-written Lsplit: a function making a tensor of a `?` extent a call computes, called by a
# `let` and read at once (that call calls it as it is, which stays).
SPLIT = """
    // IL: Lsplit
    fn twice(n: i32) -> i32 {
        n * 2
    }

    fn make(n: i32) -> Tensor<i32, [?], Memory::CPU_DRAM> {
        let m: i32 = @twice(n);
        let mut t: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::uninit([m]);
        t[0] = m;
        t
    }

    fn main() {
        let r: Tensor<i32, [?], Memory::CPU_DRAM> = @make(3);
        @print(r[0]);
        @print(@make(1)[0]);
    }
"""


def test_handwritten_a_let_of_a_call_is_split_and_another_call_kept(run_pass, snapshot_txt):
    ran = run_pass("split-sizing-calls", SPLIT)
    assert ran.codes == []
    assert "@make$extents(3, &mut m);" in ran.dump and "@print(@make(1)[0]);" in ran.dump
    assert ran.dump == snapshot_txt
