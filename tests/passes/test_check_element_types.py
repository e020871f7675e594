"""check-element-types: a tensor placed on a device whose `dtypes:` does not list its element
type (E6026), a narrow storage type anywhere but as a tensor's element type (E3053), and a
tensor whose elements are no scalars (E1012)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_element_types import check_element_types
from front import assert_prints_the_same, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_element_types"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "narrow_device": ("E6026", "a tensor of f32 is placed in NPU_SRAM, the memory of topology "
                               "'Npu', which represents only [f16, i8, i4, f8e4m3]"),
    "by_device": ("E6026", "a tensor of i32 is placed in NPU_SRAM, the memory of topology "
                           "'Npu', which represents only [i8]"),
    "narrow_element": ("E6026", "a tensor of f8e5m2 is placed in NPU_SRAM, the memory of "
                                "topology 'Npu', which represents only [f8e4m3, i4]"),
    "narrow_elsewhere": ("E3053", None),
    "struct_elements": ("E1012", "a tensor's elements are numbers or bools, but Particle is a "
                                 "struct"),
    "vector_elements": ("E1012", "a tensor's elements are numbers or bools, but <4 x f32> is "
                                 "a vector"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_element_types)
    assert ran.after is ran.before
    assert set(ran.diagnostics.codes()) == ({REFUSED[case][0]} if case in REFUSED else set())
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_placement_is_refused_and_the_repair_admitted(case):
    code, says = REFUSED[case]
    ran = run_front(CASES / f"{case}.vx", check_element_types)
    assert ran.diagnostics.codes() and set(ran.diagnostics.codes()) == {code}
    assert says is None or all(d.message == says for d in ran.diagnostics.items)
    repaired = run_front(CASES / f"{case}_repaired.vx", check_element_types)
    assert not repaired.diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_element_types)


def test_a_tensor_no_let_binds_is_judged_where_it_is_moved_or_made():
    items = run_front(CASES / "narrow_element.vx", check_element_types).diagnostics.items
    assert [(d.span.line, d.data["element"]) for d in items] == [(13, "f8e5m2"),
                                                                       (15, "f8e5m2")]


def test_each_narrow_type_outside_a_tensor_is_named_with_the_type_its_elements_are_read_as():
    items = sorted(run_front(CASES / "narrow_elsewhere.vx", check_element_types).diagnostics.items,
                   key=lambda d: d.span.start)
    assert [(d.data["type"], d.span.line) for d in items] == [
        ("f8e4m3", 3), ("f8e4m3", 13), ("i4", 14), ("f4e2m1", 15)]
    assert items[0].message == "f8e4m3 is a narrow storage type: only a tensor's elements are of it"
    assert items[2].help == ["write `Tensor<i4, [..]>`, whose elements are read and written as "
                             "i8, or use i8 here"]


def test_the_json_form_names_the_type_the_device_and_its_list():
    d = run_front(CASES / "by_device.vx", check_element_types).diagnostics.items[0]
    assert d.data == {"element": "i32", "topology": "Npu", "dtypes": ["i8"]}


def test_a_device_without_dtypes_holds_every_type():
    text = (CASES / "by_device.vx").read_text().replace(", dtypes: [i8]", "")
    assert not run_front(text, check_element_types).diagnostics.items


# Hand-written Ltyped: tensor types placed by a device, `Topology::Npu`, which infer-placement
# always rewrites to the memory the device holds, so no program's Ltyped has one; and one on a
# topology nobody declares, which check-locations refuses. The first is judged by the device's
# `dtypes:` as its memory would be; the second names no device to judge by.
PLACED_BY_DEVICE = """
    // IL: Ltyped
    Memory NPU_SRAM { capacity: 1 MiB }

    Topology Npu { memory: Memory::NPU_SRAM, dtypes: [i8] }

    fn first(t: Tensor<i32, [4], Topology::Npu>, u: Tensor<i32, [4], Topology::Ghost>) -> i32 {
        return 0;
    }

    fn main() {
        @print(1);
    }
"""


def test_handwritten_a_type_placed_by_device_is_judged_by_its_dtypes(run_pass, snapshot_txt):
    ran = run_pass("check-element-types", PLACED_BY_DEVICE)
    assert ran.codes == ["E6026"]
    assert ran.diagnostics.items[0].data == {"element": "i32", "topology": "Npu",
                                             "dtypes": ["i8"]}
    assert ran.dump == snapshot_txt


def test_a_generic_structs_tensor_field_of_its_parameter_is_left_to_the_instance():
    text = ("struct Row<T> { data: Tensor<T, [2]> }\n"
            "fn main() { let r = Row { data: Tensor<i32, [2]>::fill(3) }; print(r.data[0]); }\n")
    assert not run_front(text, check_element_types).diagnostics.items
