"""A topology's `replicas:` (how many pins `try_pin` may hold on it at once) and `dtypes:`,
and the built-in topologies."""

import io

import pytest

from nano_vx.cli import main
from nano_vx.model import build_model
from nano_vx.model.describe import describe_model
from nano_vx.parser import parse_text

POOL = "Memory Pool { capacity: 1 MiB }\n"


def built(fields: str):
    program, diagnostics = parse_text(POOL + f"Topology Pair {{ memory: Memory::Pool{fields} }}\n")
    assert not diagnostics.has_errors, diagnostics.render()
    return build_model(program.items, diagnostics), diagnostics


def test_replicas_is_read_and_one_when_left_out():
    model, diagnostics = built(", replicas: 2")
    assert not diagnostics.items and model.topologies["Pair"].replicas == 2
    assert "topology Pair: holds Pool, sees [Pool], 2 replicas\n" in describe_model(model)
    model, _ = built("")
    assert model.topologies["Pair"].replicas == 1 and model.topologies["GPU"].replicas == 1
    assert "topology Pair: holds Pool, sees [Pool]\n" in describe_model(model)


@pytest.mark.parametrize("value, code, says", [
    ("0", "E6008", "`replicas` of topology 'Pair' is 0; it must be positive"),
    ("1.5", "E6016", "`replicas` of topology 'Pair' must be a whole number"),
    ("many", "E6016", "`replicas` of topology 'Pair' must be a whole number"),
    ("2 KiB", "E6016", "`replicas` of topology 'Pair' must be a whole number"),
])
def test_a_malformed_count_is_refused_and_the_topology_keeps_one(value, code, says):
    model, diagnostics = built(f", replicas: {value}")
    [d] = diagnostics.items
    assert d.code == code and says in d.message, d.message
    assert model.topologies["Pair"].replicas == 1


# What a published data-centre GPU description lists: every scalar type, u16 among them, and
# the narrow formats of its tensor cores.
GPU_DTYPES = "[f64, f32, bf16, f16, f8e4m3, f8e5m2, f4e2m1, i64, i32, i16, i8, i4, u64, u32, " \
             "u16, u8, u4, bool]"


def test_dtypes_hold_every_element_type_u16_and_the_narrow_ones_included():
    model, diagnostics = built(f", dtypes: {GPU_DTYPES}")
    assert not diagnostics.items, diagnostics.render()
    assert model.topologies["Pair"].dtypes == tuple(GPU_DTYPES[1:-1].split(", "))


def test_bool_may_be_spelled_Bool_in_dtypes():
    model, diagnostics = built(", dtypes: [f32, Bool]")
    assert not diagnostics.items and model.topologies["Pair"].dtypes == ("f32", "bool")


def test_a_dtype_that_is_no_element_type_is_refused_and_the_help_lists_them():
    _, diagnostics = built(", dtypes: [f32, u12]")
    [d] = diagnostics.items
    assert d.code == "E6016" and "`u12` in `dtypes` of topology 'Pair'" in d.message
    assert "u16" in d.help[0] and "f8e4m3" in d.help[0]


@pytest.mark.parametrize("name, like", [
    ("AMX", "CPU"), ("CpuAvx512", "CPU"), ("CpuNeon", "CPU"), ("ANE", "NPU"), ("Slice", "NPU"),
])
def test_the_host_units_and_neural_engines_hold_and_read_as_cpu_and_npu_do(name, like):
    program, diagnostics = parse_text("fn main() {}\n")
    model = build_model(program.items, diagnostics)
    got, want = model.topologies[name], model.topologies[like]
    assert (got.memory, got.visible) == (want.memory, want.visible)


def test_a_neural_engine_reads_no_host_tensor_until_it_is_transferred(tmp_path):
    refused = ("fn main() {\n  let t = Tensor<f32, [4]>::fill(1.5);\n"
               "  spawn on(Topology::ANE) { print(t[0]); }\n}\n")
    repaired = refused.replace("let t = Tensor<f32, [4]>::fill(1.5);",
                               "let t = transfer(Tensor<f32, [4]>::fill(1.5), Memory::NPU_HBM);")
    says = "error[E6003]: 't' lives in CPU_DRAM but ANE sees only [NPU_HBM]"
    for text, status, reported in ((refused, 1, says), (repaired, 0, "")):
        path, err = tmp_path / "ane.vx", io.StringIO()
        path.write_text(text)
        assert main([str(path), "--action", "check"], stdout=io.StringIO(), stderr=err) == status
        assert reported in err.getvalue()
