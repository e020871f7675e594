"""erase-raw-pointers: a raw pointer is the tensor it points into seen as one dimension
(`t.as_ptr()` is t, or `t.flatten()`; `*p` is `p[0]`, `*const T` that tensor's type), and
`unsafe` makes no code."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.erase_raw_pointers import erase_raw_pointers
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "erase_raw_pointers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
GONE = ("Unsafe", "UnsafeFn", "AsPtr", "PtrType")


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", erase_raw_pointers)
    assert not ran.diagnostics.items
    assert not [n for n in ran.nodes() if n._prod in GONE]
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", erase_raw_pointers)


def test_each_pointer_is_typed_as_the_tensor_it_points_into():
    ran = run_front(CASES / "pointers.vx", erase_raw_pointers)
    params = {p.name: to_text(p.type).strip() for p in ran.nodes("Param")}
    assert params["p"] == "Tensor<f32, [4], Memory::CPU_DRAM>"
    assert [to_text(n).strip() for n in ran.nodes("Index") if n.index._prod == "Int"
            and n.index.value == 0] == ["p[0]", *["q[0]"] * 4]  # `q[0]` once as written


def test_a_program_without_pointers_comes_out_as_it_went_in():
    ran = run_front("fn main() {\n    let x = 1;\n    let p = &x;\n    print(*p);\n}\n",
                    erase_raw_pointers)
    assert ran.after is ran.before


def test_a_pointer_into_another_rank_or_size_is_the_tensor_flattened_to_a_dynamic_extent():
    ran = run_front(CASES / "flattened_pointers.vx", erase_raw_pointers)
    params = {p.name: to_text(p.type).strip() for p in ran.nodes("Param")}
    assert params["p"] == "Tensor<i64, [?], Memory::CPU_DRAM>"  # peek's, given one of `?`
    flat = [to_text(n.value).strip() for n in ran.nodes("Flatten")]
    assert flat == ["grid", "wide", "grid", "line", "wide", "grid", "cube", "cube", "one",
                    "one"]


def test_a_pointer_into_a_tensor_of_a_narrow_type_is_a_tensor_of_that_type():
    ran = run_front(CASES / "narrow_pointers.vx", erase_raw_pointers)
    params = {p.name: to_text(p.type).strip() for p in ran.nodes("Param")}
    assert params["p"] == "Tensor<f8e4m3, [?], Memory::CPU_DRAM>"


# Hand-written Lnative that skipped check-native-subset: one parameter given pointers into
# a tensor of f8e4m3 and into one of f32, which no one tensor type stands for. The pass
# refuses it as the gate would (E5010) and leaves the function out; the other keeps its
# pointer, erased.
TWO_STORAGES = """
    // IL: Lnative
    fn both(a: Tensor<f8e4m3, [2], Memory::CPU_DRAM>,
            b: Tensor<f32, [2], Memory::CPU_DRAM>) -> f32 {
        let mut p: ~*const f32 in Memory::CPU_DRAM = a.as_ptr();
        p = b.as_ptr();
        unsafe {
            p[1]
        }
    }

    fn main() {
        let t: Tensor<i32, [3], Memory::CPU_DRAM> = Tensor<i32, [3]>::fill(4);
        let p: ~*const i32 in Memory::CPU_DRAM = t.as_ptr();
        @print(unsafe {
            *p
        });
    }
"""


def test_handwritten_a_pointer_the_gate_would_refuse_is_refused_and_left_out(run_pass,
                                                                             snapshot_txt):
    ran = run_pass("erase-raw-pointers", TWO_STORAGES)
    assert ran.codes == ["E5010"]
    assert "a pointer into a tensor of f8e4m3 where one into a tensor of f32" in \
        ran.diagnostics.items[0].message
    assert [i.name for i in ran.tree.items] == ["main"]
    assert _printed(ran.before) == _printed(ran.tree) == "4\n"
    assert ran.dump == snapshot_txt
