"""infer-placement: every let typed, tensor types placed, transfers know their source space."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.languages import Ltyped
from nano_vx.passes.check_value_types import check_value_types
from nano_vx.passes.infer_placement import infer_placement
from nano_vx.values.sizes import rounded, tensor_bytes
from front import run_front

CASES = Path(__file__).parent / "cases" / "infer_placement"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
T = Ltyped.nodes


def _lets(ran) -> dict[str, str]:
    """Each let's name and its inferred type, as the text dump writes it."""
    return {n.name: to_text(n.type).strip() for n in ran.nodes("Let")}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", infer_placement)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"infer-placement: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    before, after = run_front(CASES / f"{case}.vx", infer_placement).prints()
    assert after == before


def test_host_tensors_live_in_cpu_dram_and_transfers_move_them():
    lets = _lets(run_front(CASES / "host_and_device.vx", infer_placement))
    assert lets["a"] == "Tensor<f32, [4, 4], Memory::CPU_DRAM>"
    assert lets["b"] == "Tensor<f32, [4, 4], Memory::CPU_DRAM>"  # the annotation, placed
    assert lets["on_gpu"] == "Tensor<f32, [4, 4], Memory::GPU_HBM>"
    assert lets["npu"] == "Tensor<f32, [4, 4], Memory::NPU_HBM>"  # .to_device()
    assert lets["c"] == "Tensor<i32, [2], Memory::GPU_HBM>"  # Topology::GPU is its space


def test_try_pin_is_a_hardware_state_and_its_arms_bind_pinned_and_verified():
    ran = run_front(CASES / "try_pin.vx", infer_placement)
    lets = _lets(ran)
    assert lets["attempt"] == ("HardwareState<Tensor<f32, [4], Memory::CPU_DRAM>, "
                               "Topology::GPU>")
    assert lets["read"] == "f32"  # both arms give an f32: the match's value
    assert lets["back"] == "Tensor<f32, [4], Memory::CPU_DRAM>"
    assert lets["copy"] == "Pinned<i32, Topology::NPU[0]>"
    arms = {n.binding.name: to_text(n.binding.type).strip() for n in ran.nodes("Arm")}
    assert arms == {
        "p": "Pinned<Tensor<f32, [4], Memory::GPU_HBM>, Topology::GPU>",  # lives on the GPU
        "v": "Verified<Tensor<f32, [4], Memory::CPU_DRAM>>",  # where it was
        "q": "Pinned<i32, Topology::NPU[0]>",
        "w": "Verified<i32>",
    }


def test_a_verified_value_computes_as_the_value_it_wraps():
    ran = run_front("fn main() {\n"
                    "    match Tensor<f32, [4]>::fill(2.0).try_pin(Topology::GPU) {\n"
                    "        Available(p) => { print(1); }\n"
                    "        Saturated(v) => { let first = v[0]; let twice = v[1] * 2.0; }\n"
                    "    }\n"
                    "}", infer_placement)
    lets = _lets(ran)
    assert lets["first"] == lets["twice"] == "f32"


def test_every_transfer_records_the_space_it_leaves():
    ran = run_front(CASES / "host_and_device.vx", infer_placement)
    moves = [(t.src.name, t.dest.name) for t in ran.nodes("Transfer")]
    assert moves == [("CPU_DRAM", "GPU_HBM"), ("CPU_DRAM", "NPU_HBM"), ("GPU_HBM", "CPU_DRAM")]


def test_the_return_type_carries_the_space_across_the_call():
    ran = run_front(CASES / "across_call.vx", infer_placement)
    assert _lets(ran)["kv"] == "Tensor<f32, [4, 4], Memory::GPU_HBM>"
    host_only = ran.after.items[1]
    assert to_text(host_only.ret).strip() == "Tensor<f32, [4, 4], Memory::CPU_DRAM>"
    assert to_text(host_only.params[0].type).strip() == "Tensor<f32, [4, 4], Memory::CPU_DRAM>"


def test_a_tensor_in_a_tuple_result_is_placed_as_a_bare_one():
    """`-> (Tensor<..>, bool)` was left without a space, and a body ending in a tuple of a
    host tensor did not fit it (E3002)."""
    text = ("fn f(y: Tensor<f32, [4]>, k: bool) -> (Tensor<f32, [4]>, bool) {\n  (y, k)\n}\n"
            "fn main() {\n  let p = f(Tensor<f32, [4]>::fill(1.0), true);\n  print(p.1);\n}\n")
    ran = run_front(text, infer_placement)
    assert to_text(ran.after.items[0].ret).strip() == \
        "(Tensor<f32, [4], Memory::CPU_DRAM>, bool)"
    assert not run_front(text, check_value_types).diagnostics.items


def test_spawn_makes_tensors_in_the_spawned_space_and_yields_pinned():
    ran = run_front(CASES / "spawn.vx", infer_placement)
    lets = _lets(ran)
    assert lets["out"] == "Tensor<f32, [4], Memory::GPU_HBM>"
    assert lets["on_gpu"] == "Pinned<Tensor<f32, [4], Memory::GPU_HBM>, Topology::GPU>"
    assert lets["count"] == "Pinned<i32, Topology::NPU[1]>"
    assert lets["nothing"] == "Pinned<void, Topology::NPU[0]>"
    assert lets["back"] == "Tensor<f32, [4], Memory::CPU_DRAM>"
    kernel = ran.after.items[0]
    assert to_text(kernel.ret).strip() == "Tensor<i32, [2], Memory::NPU_HBM>"


def test_scalars_are_typed_only_as_far_as_certain():
    lets = _lets(run_front(CASES / "scalars.vx", infer_placement))
    assert (lets["n"], lets["half"], lets["ok"]) == ("i32", "f64", "bool")
    assert (lets["sum"], lets["limit"], lets["doubled"]) == ("u8", "u8", "u8")
    assert lets["mixed"] == lets["f"] == lets["applied"] == "_"
    # A literal's type does not depend on its value: nothing fixes this one, so it is an
    # i32 as in Rust, and check-literal-ranges refuses it there (E3008).
    assert lets["big"] == "i32"
    assert lets["moved"] == "Ref<i32, Memory::NPU_HBM>"


def test_an_instance_has_static_sizes():
    ran = run_front(CASES / "generic_instance.vx", infer_placement)
    types = {n.name: n.type for n in ran.nodes("Let")}
    assert to_text(types["staged"]).strip() == "Tensor<f32, [3], Memory::NPU_HBM>"
    assert tensor_bytes(types["staged"]) == 12
    assert tensor_bytes(types["tile"]) == 24


@pytest.mark.parametrize("elem, size", [
    ("i8", 1), ("u8", 1), ("bool", 1), ("i16", 2), ("f16", 2), ("bf16", 2),
    ("i32", 4), ("u32", 4), ("f32", 4), ("i64", 8), ("u64", 8), ("f64", 8)])
def test_element_sizes(elem, size):
    ty = T["TensorType"](T["Scalar"](elem), (T["DimInt"](3), T["DimBinary"](
        "*", T["DimInt"](2), T["DimInt"](5))), None)
    assert tensor_bytes(ty) == size * 30


def test_granule_rounding():
    assert rounded(1, 16384) == 16384
    assert rounded(16384, 16384) == 16384
    assert rounded(16385, 16384) == 32768
    assert rounded(100, None) == 100


# Hand-written Lmono: a spawn on a topology and a tensor in a space nobody declares, which
# check-locations refuses before this pass runs. Code on the unknown topology runs in no known
# space, so the tensor made there stays unplaced; a transfer out of the unknown space still
# records it as the space its value leaves.
UNDECLARED_PLACES = """
    // IL: Lmono
    fn main() {
        let v = spawn on(Topology::Ghost) {
            let t = Tensor<i32, [2]>::new();
            t
        };
        let g = Tensor<i32, [2], Memory::Ghost>::new();
        let u = transfer[sync](g, Memory::GPU_HBM);
        @print(v);
    }
"""


def test_handwritten_undeclared_places_leave_tensors_unplaced(run_pass, snapshot_txt):
    ran = run_pass("infer-placement", UNDECLARED_PLACES)
    assert ran.codes == []
    spawn, _, transfer = (s.value for s in ran.tree.items[0].body.stmts[:3])
    assert spawn.body.stmts[0].type.place is None  # the tensor made on Ghost
    assert transfer.src.name == "Ghost"
    assert ran.dump == snapshot_txt


def test_a_name_is_typed_by_the_local_of_its_own_function_not_one_of_another():
    path = CASES / "names_of_other_functions.vx"
    assert _lets(run_front(path, infer_placement))["u"] != "Two"
    assert not run_front(path, check_value_types).diagnostics.items


def test_a_name_a_pattern_binds_has_the_type_the_matched_value_holds_there():
    lets = _lets(run_front(CASES / "match_bindings.vx", infer_placement))
    assert lets["u"] == "Tensor<i32, [4], Memory::GPU_HBM>"
    assert (lets["j"], lets["n"]) == ("i32", "i32")


def test_a_constants_tensor_type_that_writes_no_space_is_the_hosts():
    """`const T: Tensor<i64, [2]> = ..` was left without a space, and its value, a host
    tensor, did not fit it (E3001, 'declared Tensor<i64, [2]>, but its value is Tensor<i64,
    [2], Memory::CPU_DRAM>'); a `let` of that type was placed and fitted."""
    text = ("const T: Tensor<i64, [2]> = [3000000000i64, 1i64];\n"
            "const F: Tensor<f32, [2]> = Tensor<f32, [2]>::fill(1.5);\n"
            "fn main() {\n  let t: Tensor<i64, [2]> = T;\n  print(t[0] + T[1]);\n"
            "  print(F[1]);\n}\n")
    ran = run_front(text, infer_placement)
    assert [to_text(i.type).strip() for i in ran.after.items[:2]] == \
        ["Tensor<i64, [2], Memory::CPU_DRAM>", "Tensor<f32, [2], Memory::CPU_DRAM>"]
    assert not run_front(text, check_value_types).diagnostics.items
