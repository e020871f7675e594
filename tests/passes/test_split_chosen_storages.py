"""split-chosen-storages: a reference an `if` chooses between places of two storages (a
narrow type's byte, its value type's) is bound in each arm, followed by the rest of its
block, so that specialize-storages finds each bound to places of one storage; the program
prints what it printed, and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.split_chosen_storages import split_chosen_storages
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_chosen_storages"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
# The programs of other passes' cases it lifts.
ELSEWHERE = [Path(__file__).parent / "cases" / "type_scalars" /
             "reference_chosen_between_two_storages.vx"]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_chosen_storages)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_chosen_storages)


@pytest.mark.parametrize("path", [CASES / f"{c}.vx" for c in NAMES] + ELSEWHERE,
                         ids=lambda p: p.stem)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(path):
    assert_native_as_interpreted(path)


def test_the_second_arms_copy_binds_its_locals_under_names_of_its_own():
    ran = run_front(CASES / "chosen.vx", split_chosen_storages)
    for fn in ran.after.items:
        if fn._prod == "Fn":
            lets = [n.name for n in descendants(fn) if n._prod == "Let"]
            assert len(lets) == len(set(lets)), fn.name
    # Each arm is made of nodes of its own: later passes note what they find by id(), as
    # erase-raw-pointers the size of a pointer type.
    made = [n for n in descendants(ran.after) if n._prod == "If" and n.then.stmts
            and n.then.stmts[0]._prod == "Let" and n.then.stmts[0].name == "r"]
    assert made
    for split in made:
        assert not {id(n) for n in descendants(split.then)} & \
            {id(n) for n in descendants(split.orelse)}


# A reference chosen between places of one storage, or bound with `let mut` and assigned in
# a loop (which rebind-chosen-references leaves as it is), is left as it is.
@pytest.mark.parametrize("let", ["let r = if c { &mut t[1] } else { &mut t[2] };",
                                 "let mut r = if c { &mut t[1] } else { &mut x };\n"
                                 "    while x > 1.0 { r = &mut x; }"])
def test_a_reference_of_one_storage_or_let_mut_is_left_as_it_is(let):
    ran = run_front("fn main() {\n  let mut t = Tensor<f8e4m3, [3]>::fill(1.0);\n"
                    "  let mut x: f32 = 0.0;\n  let c = x < 1.0;\n"
                    f"  {{\n    {let}\n    *r = 2.0;\n  }}\n  print(t);\n}}\n",
                    split_chosen_storages)
    assert ran.after is ran.before


def test_a_function_with_more_than_four_is_left_as_it_is():
    lets = "".join(f"    let r{k} = if c {{ &t[{k}] }} else {{ &x }};\n    print(*r{k});\n"
                   for k in range(5))
    ran = run_front("fn main() {\n    let t = Tensor<f8e4m3, [5]>::fill(1.0);\n"
                    f"    let x: f32 = 0.5;\n    let c = x < 1.0;\n{lets}}}\n",
                    split_chosen_storages)
    assert ran.after is ran.before


# Hand-written Lsplit: a block with a value (here a function's body) makes the `if` its
# value, each arm ending in the block's value (the second's copy reading its own locals).
VALUED = """
// IL: Lsplit
fn pick(c: bool) -> f32 {
    let mut t: Tensor<f8e4m3, [2], Memory::CPU_DRAM> = Tensor<f8e4m3, [2]>::fill(1.5);
    let mut x: f32 = 0.25;
    let r: &mut f32 = if c {
        &mut t[1]
    } else {
        &mut x
    };
    let k: f32 = *r + 1.0;
    k
}

fn main() {
    @print(@pick(true));
    @print(@pick(false));
}
"""


def test_handwritten_a_block_with_a_value_makes_the_if_its_value(run_pass):
    ran = run_pass("split-chosen-storages", VALUED)
    assert ran.codes == []
    assert "let r#1: &mut f32 = &mut x;\n        let k#2: f32 = *r#1 + 1.0;\n" \
           "        k#2\n    }\n}" in ran.dump
    assert "let r: &mut f32 = &mut t[1];\n        let k: f32 = *r + 1.0;\n" \
           "        k\n    } else {" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "2.5\n1.25\n"
