"""Bounded work (nano_vx/spatial/bounds.py, docs/spatial.md "Bounded work"): the hostile
programs of issue 30 each refused by counting, before anything runs, with a coded diagnostic
giving the figures (E7063 for the work a program asks for, E7001 for an integer past 64
bits, E7002 for an axis or a matmul the tokens do not have), and each repaired program accepted. Then the count itself:
exact against what the evaluators do, and a closed form for any figure the text can hold
(a count that ran the program would not end for 2^63 - 1). How long a refusal takes is
measured by benchmarks/refusals.py, not asserted here."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choreographies import PIPE
from nano_vx.cli import main
from nano_vx.diagnostics import Diagnostics
from nano_vx.explore.record import record_spatial
from nano_vx.oracle.equivalence import corpus, evaluate
from nano_vx.oracle.outcomes import Finished
from nano_vx.source import Source
from nano_vx.spatial.balance import repetitions
from nano_vx.spatial.bounds import ELEMENT_LIMIT, INTERPRETED_LIMIT, STEP_LIMIT, asked
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.load import check_program
from nano_vx.spatial.parse import INT_MAX, parse_spatial
from nano_vx.spatial.program import Program, ins, outs
from nano_vx.spatial.target import TARGET_DIR, load_target
from nano_vx.spatial.work import executions
from nano_vx.spatial_pipeline import passes_from
from test_firings import SETTINGS, layered_graphs

# Slow (the whole suite's, not the inner loop's): the spatial lane's counts of work on hostile
# programs.
pytestmark = pytest.mark.slow

WORMHOLE = load_target("wormhole")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "spatial"
GEMM = """\
spatial gemm {
    tensor A: i32[64, 64] input
    tensor B: i32[64, 64] input
    tensor C: i32[64, 64] output
    stream a: i32
    stream b: i32
    stream c: i32
    load load_a A -> a
    load load_b B -> b
    compute mm matmul_acc(a RATE, b RATE) -> c
    store store_c c -> C
}
"""

# A tile repeated once per r: the loop its index does not use.
REPEATED = """\
spatial rep: Stiled {
    tensor A: i32[8, 8] input
    tensor B: i32[8, 8] output
    stream a: i32
    stream b: i32
    load ld A[0, 0] tile [8, 8] for r in 0..N -> a
    compute sc scale 2 (a) -> b
    store st b -> B[0, 0] tile [8, 8] for r in 0..N
}
"""

ROW_MAX = """\
spatial row_max {
    tensor X: i32[64, 256] input
    tensor R: i32[64, 1] output
    stream xs: i32
    stream rs: i32
    load load_x X -> xs
    compute total max axis AXIS (xs) -> rs
    store store_r rs -> R
}
"""


def spatial(tmp_path: Path, text: str, *args) -> tuple[int, str, list[dict]]:
    """`nano-vx spatial` on `text`: exit code, stdout, the diagnostics."""
    path = tmp_path / "p.sdf"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = main(["spatial", str(path), "--target", "wormhole", "--error-format=json", *args],
                stdout=out, stderr=err)
    found = json.loads(err.getvalue())["diagnostics"] if err.getvalue() else []
    return code, out.getvalue(), found


def refused(tmp_path: Path, text: str, code: str, *args) -> dict:
    status, _, found = spatial(tmp_path, text, *args)
    assert status == 1 and [d["code"] for d in found] == [code], found
    return found[0]


def accepted(tmp_path: Path, text: str, *args) -> str:
    status, out, found = spatial(tmp_path, text, *args)
    assert status == 0 and not found, found
    return out


def figures(message: str) -> list[int]:
    return [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", message)]


# -- the hostile programs --------------------------------------------------------------------

def test_a_huge_rate_is_e7063_with_the_figures_at_once(tmp_path):
    d = refused(tmp_path, GEMM.replace("RATE", "x99999999"), "E7063")
    r = 99_999_999
    # Each load fires r times, taking nothing and putting one token; the matmul once, taking
    # r of each; the store once. Elements: r tiles loaded per load, r products of 64^3.
    steps = 2 * r * 2 + (1 + 2 * r + 1) + 2
    elements = 2 * r * 64 * 64 + r * 64 ** 3 + 64 * 64
    assert (d["steps"], d["elements"]) == (steps, elements)
    assert (d["step_limit"], d["element_limit"]) == (STEP_LIMIT, ELEMENT_LIMIT)
    assert d["message"] == (
        f"one run of the program takes {steps:,} steps and {elements:,} element operations "
        f"('mm' {r * 64 ** 3:,} element operations); nano-vx evaluates a spatial program of "
        f"at most 500,000 steps and 268,435,456 element operations a run")
    assert "lower the rates" in d["help"][0]


def test_the_gemm_at_a_small_rate_is_accepted(tmp_path):
    out = accepted(tmp_path, GEMM.replace("RATE", "x2").replace("64, 64", "64, 32", 1)
                   .replace("B: i32[64, 64]", "B: i32[32, 64]"))
    assert "outcome: finished" in out


def test_a_loop_repeating_a_tile_past_the_limit_is_e7063(tmp_path):
    d = refused(tmp_path, REPEATED.replace("N", str(INT_MAX)), "E7063")
    assert d["steps"] > INT_MAX and "('ld' " in d["message"]
    assert "outcome: finished" in accepted(tmp_path, REPEATED.replace("N", "3"))


def test_a_schedule_repeating_past_the_limit_is_e7063_naming_its_engine(tmp_path):
    # PIPE with its compute stage on the reader engine, which wormhole lets touch semaphores.
    pipe = PIPE.replace("DEPTH", "2").replace("place sc (0, 1) compute", "place sc (0, 1) reader")
    pipe = pipe.replace("schedule (0, 1) compute {", "schedule (0, 1) reader {")
    text = pipe.replace("schedule (0, 1) reader {\n        repeat 8 {",
                        f"schedule (0, 1) reader {{\n        repeat 1000 {{\n"
                        f"        repeat {INT_MAX} {{")
    text = text.replace("            signal x_credit 1\n        }\n",
                        "            signal x_credit 1\n        }\n        }\n")
    d = refused(tmp_path, text, "E7063")
    assert "('schedule (0, 1) reader' " in d["message"]
    assert d["steps"] > 1000 * INT_MAX
    assert "outcome: finished" in accepted(tmp_path, pipe)


def test_an_extent_of_5000_digits_is_e7001_not_a_traceback(tmp_path):
    d = refused(tmp_path, ROW_MAX.replace("AXIS", "1").replace("256", "9" * 5000), "E7001")
    assert d["message"] == ("the integer 99999999999999999999... (5,000 digits) is out of "
                            "range: the integers of a spatial program are 64-bit, from "
                            "-9223372036854775808 to 9223372036854775807")


@pytest.mark.parametrize("extent", [str(INT_MAX + 1), "1" + "0" * 23])
def test_an_extent_past_64_bits_is_e7001(tmp_path, extent):
    d = refused(tmp_path, ROW_MAX.replace("AXIS", "1").replace("256", extent), "E7001")
    assert f"the integer {extent} is out of range" in d["message"]


@pytest.mark.parametrize("axis", ["-1", "2", "9223372036854775807"])
def test_an_axis_out_of_range_is_e7002_with_the_figures_not_an_internal_error(tmp_path, axis):
    d = refused(tmp_path, ROW_MAX.replace("AXIS", axis), "E7002")
    assert d["message"] == (f"stage 'total' (max) cannot combine tokens of shapes [[64, 256]]: "
                            f"it reduces axis {axis}, and its tokens have axes 0 to 1")


def test_the_row_maximum_along_axis_1_is_accepted(tmp_path):
    assert "output R: int32[64, 1]" in accepted(tmp_path, ROW_MAX.replace("AXIS", "1"))


def test_no_python_exception_text_in_a_shape_diagnostic(tmp_path):
    matmul3 = GEMM.replace("RATE", "x1").replace("A: i32[64, 64]", "A: i32[64, 64, 1]")
    d = refused(tmp_path, matmul3, "E7002")
    assert d["message"] == ("stage 'mm' (matmul_acc) cannot combine tokens of shapes "
                            "[[64, 64, 1], [64, 64]]: matmul_acc multiplies two matrices "
                            "(tokens of rank 2)")
    for words in ("unpack", "index out of range", "Traceback"):
        assert words not in d["message"]


def test_a_pass_output_past_the_limit_is_e7063_naming_the_pass(tmp_path):
    """Within the limits as written, but a target of 64-byte sites makes `tile` cut the
    tensor into 262,144 tiles: refused before that output is run."""
    target = tmp_path / "tiny.toml"
    target.write_text(re.sub(r"^sram_bytes = .*$", "sram_bytes = 64",
                             (TARGET_DIR / "wormhole.toml").read_text(), count=1,
                             flags=re.MULTILINE))
    text = GEMM.split("    stream a")[0].replace("spatial gemm", "spatial big").replace(
        "64, 64", "1024, 1024") + ("    stream a: i32\n    stream b: i32\n"
                                  "    load ld A -> a\n    compute sc scale 3 (a) -> b\n"
                                  "    store st b -> C\n}\n")
    path = tmp_path / "big.sdf"
    path.write_text(text.replace("    tensor B: i32[1024, 1024] input\n", ""))
    err = io.StringIO()
    assert main(["spatial", str(path), "--target", str(target), "--error-format=json"],
                stdout=io.StringIO(), stderr=err) == 1
    (d,) = json.loads(err.getvalue())["diagnostics"]
    assert d["code"] == "E7063" and d["pass"] == "tile"
    assert d["message"].startswith("after tile, one run of the program takes ")
    assert d["steps"] > STEP_LIMIT and "larger tiles" in d["help"][0]


def test_the_explorer_refuses_the_huge_rate_before_running_a_pass():
    text = GEMM.replace("RATE", "x99999999")
    recording = record_spatial(Source("p.sdf", text), "wormhole")
    assert [d.code for d in recording.diagnostics] == ["E7063"]
    assert not recording.steps
    assert record_spatial(Source("p.sdf", GEMM.replace("RATE", "x1")), "wormhole").steps


def test_a_vx_kernel_too_long_to_interpret_is_e7063_before_the_interpreter_runs(tmp_path):
    """The reference interpreter, which checks from-vx, takes microseconds an element
    operation: a 256^3 matmul kernel is refused at once, the 64^3 one accepted."""
    gemm = (EXAMPLES / "gemm.vx").read_text()
    big = gemm.replace("64", "256").replace("r * 16..(r + 1) * 16", "r * 64..(r + 1) * 64")
    big = big.replace("jt * 16..(jt + 1) * 16", "jt * 64..(jt + 1) * 64")
    path = tmp_path / "gemm.vx"
    path.write_text(big)
    err = io.StringIO()
    assert main(["spatial", str(path), "--target", "wormhole", "--error-format=json"],
                stdout=io.StringIO(), stderr=err) == 1
    (d,) = json.loads(err.getvalue())["diagnostics"]
    assert d["code"] == "E7063" and d["element_limit"] == INTERPRETED_LIMIT
    assert d["elements"] == 256 ** 3 + 3 * 256 * 256
    assert d["message"] == (f"the Vx kernel 'gemm' takes {d['elements']:,} element operations "
                            f"a run; nano-vx spatial runs a kernel in the reference interpreter "
                            f"to check from-vx, and at most 4,194,304 element operations of one")
    path.write_text(gemm)
    out = io.StringIO()
    assert main(["spatial", str(path), "--target", "wormhole", "--corpus", "1",
                 "--stop-after", "from-vx"], stdout=out, stderr=io.StringIO()) == 0
    assert "the interpreter agrees on 1 input" in out.getvalue()


# -- the count --------------------------------------------------------------------------------

@SETTINGS
@given(layered_graphs(sites=((0, 0), (0, 1), (1, 0), (1, 1))))
def test_the_count_is_what_the_evaluators_do(text):
    """Before choreography, each stage's steps are its firings (as the actors fire them) with
    the tokens they move and its loop's points; after it, each engine's are the ops it
    executes (and the tokens they move)."""
    g = parse_spatial(text)
    p, work = Program(g), asked(g)
    outcome = evaluate(g, corpus(g, 0, 1)[0])
    assert isinstance(outcome, Finished)
    for name, stage in p.stages.items():
        moved = sum(port.rate for port in (*ins(stage), *outs(stage)))
        points = len(range(stage.loops[0].start, stage.loops[0].stop)) \
            if hasattr(stage, "loops") else 0
        assert work.steps[name] == outcome.ops[name] * (1 + moved) + points
    ctx = SpatialContext(load_target("wormhole"))
    for pass_ in passes_from("Splaced"):
        g = pass_(g, ctx)
    work, outcome = asked(g), evaluate(g, corpus(g, 0, 1)[0])
    assert isinstance(outcome, Finished)
    for sched in g.schedules:
        who = f"schedule {sched.site} {sched.engine}"
        counts = sum(times * getattr(op, "count", 0) for op, times in executions(sched.ops)
                     if op._prod in ("Reserve", "Push", "Send", "Multicast", "WaitFront", "Pop"))
        ops = sum(times for _, times in executions(sched.ops))
        assert work.steps[who] == ops + counts
    assert sum(work.steps[f"schedule {s.site} {s.engine}"] for s in g.schedules) >= outcome.steps


@settings(max_examples=40, deadline=None)
@given(st.integers(1, INT_MAX))
def test_any_rate_is_decided_by_counting_at_once(rate):
    """The closed form of the GEMM's work at rate r: refused exactly when past a limit, and
    decided by counting for r = 2^63 - 1 as for r = 1."""
    graph = parse_spatial(GEMM.replace("RATE", f"x{rate}"))
    steps = 4 * rate + (2 + 2 * rate) + 2
    elements = 2 * rate * 64 * 64 + rate * 64 ** 3 + 64 * 64
    diagnostics = Diagnostics()
    ok = check_program(graph, WORMHOLE, diagnostics)
    assert repetitions(Program(graph))["load_a"] == rate
    assert ok == (steps <= STEP_LIMIT and elements <= ELEMENT_LIMIT)
    if not ok:
        (d,) = diagnostics.items
        assert (d.data["steps"], d.data["elements"]) == (steps, elements)
        assert figures(d.message)[:2] == [steps, elements]
