"""specialize-storages: a function whose reference or pointer parameters calls give places of
two storages (a narrow type's byte, its value type's) is called in a copy of its own per
storage, so that each copy reads and writes through its parameters as one machine type; the
program prints what it printed, and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.specialize_storages import specialize_storages
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "specialize_storages"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", specialize_storages)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", specialize_storages)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_places_of_one_storage_leave_the_program_as_it_is():
    ran = run_front(CASES / "one_storage.vx", specialize_storages)
    assert ran.after is ran.before


def test_each_copy_is_made_of_nodes_of_its_own():
    # erase-raw-pointers notes each pointer type's size by its id(): two copies sharing one
    # would be given one size.
    ran = run_front(CASES / "pointers.vx", specialize_storages)
    copies = [i for i in ran.after.items if i._prod == "Fn" and i.name.startswith("sum$")]
    assert [c.name for c in copies] == ["sum$f8e4m3", "sum$f32"]
    first, second = ({id(n) for n in descendants(c)} for c in copies)
    assert not first & second


BOTH = """
// IL: Lsplit
fn set(r: &mut f32, v: f32) {
    *r = v;
}

fn twice(r: &mut f32, v: f32) {
    @set(r, v);
    @set(r, v);
}

fn main() {
    let mut t: Tensor<f8e4m3, [2], Memory::CPU_DRAM> = Tensor<f8e4m3, [2]>::fill(1.0);
    let mut x: f32 = 0.0;
    let r: &mut f32 = &mut x;
    @twice(&mut t[0], 0.5);
    @twice(r, 0.25);
    @set(&mut t[1], 2.0);
    @print(t);
    @print(x);
}
"""


def test_handwritten_a_copy_per_storage_calls_copies_in_turn(run_pass):
    ran = run_pass("specialize-storages", BOTH)
    assert ran.codes == []
    assert "@twice$f8e4m3(&mut t[0], 0.5);" in ran.dump
    assert "@twice$f32(r, 0.25);" in ran.dump
    assert "@set$f8e4m3(&mut t[1], 2.0);" in ran.dump
    assert ran.dump.count("@set$f8e4m3(r, v);") == 2 and ran.dump.count("@set$f32(r, v);") == 2
    assert "fn set(" not in ran.dump and "fn twice(" not in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "[0.5, 2]\n0.25\n"
