"""The correlation programs from the command line, as a user meets them (correlation.md)."""

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
