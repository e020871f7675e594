"""The correlation programs from the command line, as a user meets them (docs/correlation.md)."""

import io
import json
from pathlib import Path

from nano_vx.cli import main

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "examples" / "correlation"
MACHINES = ROOT / "machines"


def nano_vx(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_program_1_residency_across_a_call_names_both_spaces_and_the_cost():
    code, out, err = nano_vx(PROGRAMS / "01_residency_across_a_call.vx")
    assert code == 1 and out == ""
    assert ("error[E6003]: 'kv' lives in GPU_HBM but CPU sees only [CPU_DRAM, NPU_HBM]; "
            "insert an explicit transfer to CPU_DRAM (cost 50 on the declared path)") in err


def test_program_1_repaired_runs(tmp_path):
    text = (PROGRAMS / "01_residency_across_a_call.vx").read_text()
    repaired = text.replace("print(kv[0][0]);",
                            "let home = transfer(kv, Memory::CPU_DRAM);\n  print(home[0][0]);")
    assert repaired != text
    path = tmp_path / "repaired.vx"
    path.write_text(repaired)
    assert nano_vx(path) == (0, "0\n", "")


def test_program_6_is_refused_on_the_40_gb_part_with_exact_bytes():
    code, _, err = nano_vx(PROGRAMS / "06_capacity_against_a_declared_machine.vx",
                           "--action", "check", "--host", "default",
                           "--machine", MACHINES / "a100-40.vx")
    assert code == 1
    assert ("error[E6009]: transferred tensor needs 53687091200 bytes but memory space 'HBM' "
            "has capacity 42949672960 bytes") in err


def test_program_6_is_admitted_on_the_80_gb_part_and_json_shows_routes_and_residency():
    code, _, err = nano_vx(PROGRAMS / "06_capacity_against_a_declared_machine.vx",
                           "--action", "check", "--host", "default",
                           "--machine", MACHINES / "a100-80.vx", "--error-format=json")
    doc = json.loads(err)
    assert code == 0 and doc["diagnostics"] == []
    assert doc["routes"][0]["path"] == ["CPU_DRAM", "HBM"]
    [resident] = doc["resident"]
    assert (resident["space"], resident["bytes"], resident["capacity"]) == (
        "HBM", 53687091200, 85899345920)


def _repaired(tmp_path, program: str, old: str, new: str) -> Path:
    text = (PROGRAMS / program).read_text()
    assert old in text
    path = tmp_path / program
    path.write_text(text.replace(old, new))
    return path


def test_program_2_is_refused_along_the_path_through_the_instance():
    code, out, err = nano_vx(PROGRAMS / "02_working_set_across_a_call.vx", "--action", "check")
    assert code == 1 and out == ""
    assert ("error[E6027]: the working set along the call path main -> stage$i32 in memory "
            "space 'W' peaks at 6291456 bytes, over its 4194304 byte capacity") in err
    assert "'main' holds 3145728 bytes across its call of 'stage$i32'" in err
    assert "'stage$i32' itself peaks at 3145728 bytes" in err


def test_program_2_repaired_is_admitted(tmp_path):
    # `sx` leaves W before the call: sequential, the two 3 MiB tiles compose by max.
    path = _repaired(tmp_path, "02_working_set_across_a_call.vx",
                     "  let _r = stage(7);\n  let _back = transfer(sx, Memory::CPU_DRAM);",
                     "  let _back = transfer(sx, Memory::CPU_DRAM);\n  let _r = stage(7);")
    assert nano_vx(path) == (0, "", "")


def test_program_3_names_the_failing_clause_and_not_the_one_that_holds():
    code, _, err = nano_vx(PROGRAMS / "03_reachability_across_a_generic_call.vx",
                           "--action", "check")
    assert code == 1
    assert ("error[E6040]: unsatisfied `where Reachable<B, C>` in call to 'pipeline': "
            "no transfer path from CPU to Island") in err
    assert "Reachable<A, B>" not in err and err.count("error[") == 1


def test_program_3_repaired_is_admitted(tmp_path):
    path = _repaired(tmp_path, "03_reachability_across_a_generic_call.vx",
                     "  memory: Memory::Island,\n",
                     "  memory: Memory::Island,\n  transfer Memory::CPU_DRAM -> Memory::Island : 90\n")
    assert nano_vx(path) == (0, "", "")


def test_program_7_says_which_argument_bound_the_dimension():
    code, _, err = nano_vx(PROGRAMS / "07_shared_dimension.vx", "--action", "check")
    assert code == 1
    assert ("error[E3046]: 'S' is bound to 4 by argument 1, but argument 2 has extent 7"
            in err)


def test_program_7_with_both_extents_4_prints_what_main_returns(tmp_path):
    path = _repaired(tmp_path, "07_shared_dimension.vx",
                     "Tensor<f32, [7]>::fill(1.0)", "Tensor<f32, [4]>::fill(1.0)")
    text = path.read_text().replace("  return scores(q, k);",
                                    "  let r = scores(q, k);\n  print(r);\n  return r;")
    path.write_text(text)
    assert nano_vx(path) == (0, "0\n", "")


def _float_ops(*flags) -> dict:
    code, out, err = nano_vx(PROGRAMS / "05_certificate_across_the_launch.vx", "--action",
                             "emit-llvm", "-O3", *flags)
    assert code == 0 and not err
    words = out.split()
    return {op: words.count(op) for op in ("fmul", "fadd")}


def test_program_5_the_certificate_folds_the_fma_chain_at_O3_and_the_answer_stays():
    base, certified = _float_ops(), _float_ops("--emit-seam-certs")
    assert base["fmul"] > 0 and base["fadd"] > 0
    assert certified == {"fmul": 0, "fadd": 0}
    for flags in ((), ("--emit-seam-certs",)):
        assert nano_vx(PROGRAMS / "05_certificate_across_the_launch.vx", "-O3", *flags) == \
            (0, "0\n", "")


def test_program_5_the_assume_reaches_the_kernel_and_only_the_kernel():
    code, out, _ = nano_vx(PROGRAMS / "05_certificate_across_the_launch.vx", "--action",
                           "emit-mlir", "--emit-seam-certs")
    kernel = out[out.index('func.func @launch$kernel0'):]
    host = out[:out.index('func.func @launch$kernel0')]
    assert code == 0 and "llvm.intr.assume" in kernel and "llvm.intr.assume" not in host
