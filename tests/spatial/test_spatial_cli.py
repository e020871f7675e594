"""`nano-vx spatial` as a user meets it: its dumps (text, dot, json, --dump-dir), how far it
runs (--stop-after), what it validates on (--no-validate, --inputs, --seed, --corpus), a
program written at a later IL entering the lane at its pass, and every way a program or a
target can be wrong, each a coded diagnostic and never a traceback. Last, a smoke run of
benchmarks/spatial_bench.py --quick (under a second)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from choreographies import FIFO_CHAIN, PIPE
from nano_vx.cli import main
from nano_vx.oracle.equivalence import corpus
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.target import TARGET_DIR, load_target
from nano_vx.spatial.text import language_of, to_spatial_text

# Slow (the whole suite's, not the inner loop's): `nano-vx spatial` end to end; the lane's passes
# have their own tests in the inner loop.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GEMV = ROOT / "examples" / "spatial" / "gemv.sdf"
PASSES = ", ".join(SPATIAL_PIPELINE.names())

SCALE = """\
spatial triple {
    tensor X: i32[8, 8] input
    tensor Y: i32[8, 8] output
    stream x: i32
    stream y: i32
    load ldX X -> x
    compute sc scale 3 (x) -> y
    store stY y -> Y
}
"""

PLACED = """\
spatial pl: Splaced {
    tensor X: i32[16, 8] input
    tensor Y: i32[16, 8] output
    stream x: i32
    stream y: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..8 -> x
    compute sc scale 3 (x) -> y
    store stY y -> Y[i, 0] tile [2, 8] for i in 0..8
    place ldX (0, 0) reader
    place sc (0, 1) compute
    place stY (0, 1) writer
}
"""

# `s` takes two tokens of `t` per firing, but `t` holds one: nothing can fire after the
# first token of `t`.
SHALLOW = FIFO_CHAIN.replace("buffer t (0, 0) depth 2 bytes 128",
                             "buffer t (0, 0) depth 1 bytes 64")

# PIPE with WRITES tiles written: at 9 the writer asks for a ninth tile of the eight the
# compute engine makes.
# The stage that waits on x's semaphores runs on the reader of (0, 1), as a target that keeps
# compute engines off semaphores (every shipped one) asks.
CHOREOGRAPHED = PIPE.replace("DEPTH", "2").replace(
    "repeat 8 {\n            wait_front y 1", "repeat WRITES {\n            wait_front y 1").replace(
    "place sc (0, 1) compute", "place sc (0, 1) reader").replace(
    "schedule (0, 1) compute {", "schedule (0, 1) reader {")


def spatial(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["spatial", *map(str, args)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def pass_report(out: str) -> list[str]:
    """The report's line per pass that ran."""
    names = set(SPATIAL_PIPELINE.names())
    return [line for line in out.splitlines()
            if line.startswith("  ") and line.split()[0] in names]


def pass_lines(out: str) -> list[str]:
    """The passes that ran, in order."""
    return [line.split()[0] for line in pass_report(out)]


def lane_until(graph, target, last: str):
    ctx = SpatialContext(target)
    for p in SPATIAL_PIPELINE:
        graph = p(graph, ctx)
        if p.name == last:
            return graph
    raise AssertionError(f"no pass {last}")


def diagnostics(err: str) -> list[dict]:
    return json.loads(err)["diagnostics"]


# -- dumps -------------------------------------------------------------------------------------

def test_dump_after_prints_the_pass_output_then_runs_on():
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--dump-after=place")
    assert (code, err) == (0, "")
    banner, _, rest = out.partition("\n")
    assert banner == "*** IR Dump After place (Stiled -> Splaced) ***"
    dumped, _, report = rest.partition("}\n")
    placed = lane_until(parse_spatial(GEMV.read_text()), load_target("gpu-sm"), "place")
    assert dumped + "}\n" == to_spatial_text(placed)
    assert report.startswith("gemv on gpu-sm (8 x 16 sites)\n")
    assert "\noutcome: finished in " in report


def test_dot_dump_draws_the_mesh_and_the_buffer_depths():
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--dump-after=size-buffers",
                             "--dump-format=dot")
    assert (code, err) == (0, "")
    dot = out[out.index("digraph spatial {"):out.index("\n}\n") + 3]
    sized = Program(lane_until(parse_spatial(GEMV.read_text()), load_target("gpu-sm"),
                               "size-buffers"))
    sites = {site for site, _ in sized.places.values()}
    assert len(sites) > 1
    assert dot.count("subgraph cluster_") == len(sites)
    assert set(re.findall(r'label = "site (\(\d+, \d+\))";', dot)) == {str(s) for s in sites}
    stages = re.findall(r"^( *)s\d+ \[label=", dot, re.MULTILINE)
    assert len(stages) == len(sized.stages)
    assert set(stages) == {" " * 8}, "every placed stage is drawn inside its site's cluster"
    edges = re.findall(r'^ *s\d+ -> s\d+ \[label="([^"]*)"', dot, re.MULTILINE)
    assert len(edges) == len(sized.streams)
    for label in edges:
        stream = label.split("\\n")[0]
        b = sized.buffers[stream]
        assert f"depth {b.depth} ({b.bytes:,} B)" in label


def test_json_dump_of_one_pass_is_the_whole_of_stdout():
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--dump-after=place",
                             "--dump-format=json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["node"] == "Graph"
    places = doc["fields"]["places"]
    assert sorted(p["fields"]["stage"] for p in places) == \
        sorted(s["fields"]["name"] for s in doc["fields"]["stages"])


def test_json_dump_of_every_pass_on_stdout_is_a_usage_error():
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--dump-after=all",
                             "--dump-format=json")
    assert (code, out) == (2, "")
    assert "--dump-format=json writes one document to stdout" in err


def test_dump_dir_writes_each_pass_output_in_its_il(tmp_path):
    directory = tmp_path / "dumps"
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--dump-dir", directory)
    assert (code, err) == (0, "")
    assert "*** IR Dump" not in out and "\noutcome: finished in " in out
    # Numbered as --list-passes lists the lane: from-vx (for a Vx kernel) is 01.
    names = [f"{i:02d}b-after-{p.name}.txt" for i, p in enumerate(SPATIAL_PIPELINE, 2)]
    assert sorted(f.name for f in directory.iterdir()) == names
    for name, p in zip(names, SPATIAL_PIPELINE):
        graph = parse_spatial((directory / name).read_text(), name)
        assert language_of(graph).name == p.output.name


def test_unknown_pass_names_the_spatial_passes():
    for option in ("--dump-after=nope", "--dump-before=tile,nope", "--stop-after=nope"):
        code, out, err = spatial(GEMV, "--target", "gpu-sm", option)
        assert (code, out) == (2, "")
        assert err == (f"nano-vx: error: no pass named nope (the passes, in order: {PASSES}; "
                       "`nano-vx --list-passes` says what each does)\n")


# -- how far, and on what ----------------------------------------------------------------------

def test_stop_after_ends_the_lane_at_that_pass(tmp_path):
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--stop-after=place",
                             "--dump-dir", tmp_path)
    assert (code, err) == (0, "")
    assert pass_lines(out) == ["tile", "place"]
    assert sorted(f.name for f in tmp_path.iterdir()) == ["02b-after-tile.txt",
                                                          "03b-after-place.txt"]
    # A placed program runs as a dataflow graph: firings, no data movement.
    assert re.search(r"\noutcome: finished in [\d,]+ steps\n", out)


def test_no_validate_skips_the_corpus_but_still_runs_the_result():
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--no-validate")
    assert (code, err) == (0, "")
    lines = pass_report(out)
    assert len(lines) == len(SPATIAL_PIPELINE)
    assert all(line.endswith("not validated (--no-validate)") for line in lines)
    assert "\noutcome: finished in " in out
    _, validated, _ = spatial(GEMV, "--target", "gpu-sm")
    assert "validated on 2 inputs in" in validated and "--no-validate" not in validated


def test_inputs_are_the_programs_given_tensors(tmp_path):
    program = write(tmp_path, "triple.sdf", SCALE)
    x = np.arange(64, dtype=np.int32).reshape(8, 8) - 20
    np.savez(tmp_path / "mine.npz", X=x)
    code, out, err = spatial(program, "--target", "wormhole", "--inputs", tmp_path / "mine.npz")
    assert (code, err) == (0, "")
    assert f"\noutput Y: int32[8, 8], sum {3 * x.sum():g}\n" in out


def test_the_npz_beside_the_program_is_its_default_input(tmp_path):
    program = write(tmp_path, "triple.sdf", SCALE)
    x = np.full((8, 8), 5, dtype=np.int32)
    np.savez(tmp_path / "triple.npz", X=x)
    code, out, err = spatial(program, "--target", "wormhole", "--corpus", 1)
    assert (code, err) == (0, "")
    assert "\noutput Y: int32[8, 8], sum 960\n" in out
    assert "validated on 1 input in" in out


@pytest.mark.parametrize("arrays, message", [
    ({"X": np.zeros((8, 4), np.int32)},
     "input 'X' in '{path}' is int32[8, 4]; the program declares i32[8, 8]"),
    ({"X": np.zeros((8, 8), np.float32)},
     "input 'X' in '{path}' is float32[8, 8]; the program declares i32[8, 8]"),
    ({"Z": np.zeros((8, 8), np.int32)}, "the inputs '{path}' have no array 'X' (they have Z)"),
])
def test_inputs_that_do_not_fit_the_program_are_e7002(tmp_path, arrays, message):
    program = write(tmp_path, "triple.sdf", SCALE)
    given = tmp_path / "given.npz"
    np.savez(given, **arrays)
    code, out, err = spatial(program, "--target", "wormhole", "--inputs", given,
                             "--error-format=json")
    assert (code, out) == (1, "")
    [d] = diagnostics(err)
    assert (d["code"], d["message"]) == ("E7002", message.format(path=given))


def _corrupt_npz() -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, X=np.arange(64, dtype=np.int32).reshape(8, 8))
    data = bytearray(buffer.getvalue())
    for i in range(60, 90):  # inside the compressed member
        data[i] ^= 0x55
    return bytes(data)


NOT_AN_ARCHIVE = "they are not an .npz archive of numeric arrays (numpy.savez writes one)"


@pytest.mark.parametrize("content, why", [
    (None, "no such file or directory"), (b"", NOT_AN_ARCHIVE), (b"not an npz", NOT_AN_ARCHIVE),
    # A zip header with nothing after it was a traceback (zipfile.BadZipFile).
    (b"PK\x03\x04garbage" * 4, NOT_AN_ARCHIVE), (_corrupt_npz(), NOT_AN_ARCHIVE),
])
def test_unreadable_inputs_are_e7002_in_words_of_its_own(tmp_path, content, why):
    program = write(tmp_path, "triple.sdf", SCALE)
    given = tmp_path / "given.npz"
    if content is not None:
        given.write_bytes(content)
    code, out, err = spatial(program, "--target", "wormhole", "--inputs", given,
                             "--error-format=json")
    assert (code, out) == (1, "")
    [d] = diagnostics(err)
    assert (d["code"], d["message"]) == ("E7002", f"cannot read the inputs '{given}': {why}")


def test_an_array_of_objects_is_refused_from_its_header(tmp_path):
    program = write(tmp_path, "triple.sdf", SCALE)
    given = tmp_path / "given.npz"
    np.savez(given, X=np.array([1, "a", None], dtype=object))
    code, _, err = spatial(program, "--target", "wormhole", "--inputs", given,
                           "--error-format=json")
    [d] = diagnostics(err)
    assert (code, d["message"]) == (1, f"input 'X' in '{given}' is object[3]; the program "
                                       f"declares i32[8, 8]")


def test_a_npy_file_as_inputs_is_e7002(tmp_path):
    program = write(tmp_path, "triple.sdf", SCALE)
    np.save(tmp_path / "given.npy", np.zeros((8, 8), np.int32))
    code, _, err = spatial(program, "--target", "wormhole", "--inputs", tmp_path / "given.npy",
                           "--error-format=json")
    assert code == 1 and diagnostics(err)[0]["code"] == "E7002"


def test_seed_chooses_the_random_inputs(tmp_path):
    program = write(tmp_path, "triple.sdf", SCALE)
    graph = parse_spatial(SCALE)
    sums = {seed: 3 * corpus(graph, seed, 1)[0]["X"].sum() for seed in (0, 7)}
    assert sums[0] != sums[7]
    for seed, total in sums.items():
        code, out, err = spatial(program, "--target", "wormhole", "--seed", seed)
        assert (code, err) == (0, "")
        assert f"\noutput Y: int32[8, 8], sum {total:g}\n" in out


def test_corpus_is_how_many_inputs_each_pass_is_validated_on(tmp_path):
    program = write(tmp_path, "triple.sdf", SCALE)
    code, out, err = spatial(program, "--target", "wormhole", "--corpus", 3)
    assert (code, err) == (0, "")
    lines = pass_report(out)
    assert len(lines) == len(SPATIAL_PIPELINE)
    assert all("validated on 3 inputs in" in line for line in lines)


def test_an_empty_corpus_is_a_usage_error(tmp_path):
    program = write(tmp_path, "triple.sdf", SCALE)
    code, _, err = spatial(program, "--target", "wormhole", "--corpus", 0)
    assert code == 2 and "--corpus: expected a positive whole number, not '0' (inputs, at most 16)" in err


# -- programs at later ILs ---------------------------------------------------------------------

def test_a_placed_program_enters_the_lane_at_size_buffers(tmp_path):
    program = write(tmp_path, "placed.sdf", PLACED)
    code, out, err = spatial(program, "--target", "wormhole")
    assert (code, err) == (0, "")
    assert pass_lines(out) == SPATIAL_PIPELINE.names()[2:]
    assert ("placement:\n  site (0, 0): reader ldX\n  site (0, 1): compute sc; reader relay_x_in; "
            "writer stY\n") in out


def test_a_tiled_program_enters_the_lane_at_place(tmp_path):
    tiled = lane_until(parse_spatial(SCALE), load_target("wormhole"), "tile")
    program = write(tmp_path, "tiled.sdf", to_spatial_text(tiled))
    code, out, err = spatial(program, "--target", "wormhole")
    assert (code, err) == (0, "")
    assert pass_lines(out) == SPATIAL_PIPELINE.names()[1:]


def test_a_choreographed_program_is_run_as_written(tmp_path):
    program = write(tmp_path, "chor.sdf", CHOREOGRAPHED.replace("WRITES", "8"))
    code, out, err = spatial(program, "--target", "wormhole")
    assert (code, err) == (0, "")
    assert pass_lines(out) == []
    assert "\noutcome: finished in 104 steps (96 data movement, 8 tile compute)\n" in out



# -- the period ------------------------------------------------------------------------------

def test_the_report_gives_the_period_predicted_and_simulated():
    code, out, err = spatial(GEMV, "--target", "wormhole")
    assert (code, err) == (0, "")
    assert ("\noutput y: float32[1, 256], sum 7.0034\n"
            "period: 3,664 cycles a run (3.664 µs at 1 GHz) by the clock; critical cycle "
            "through reader[0, 0]\n"
            "simulated: 3,664 cycles a run (3.664 µs) over 16 runs; one run alone 4,193 "
            "cycles\n"
            "roofline: 1,838.22 cycles a run (dram)\n"
            "placement:\n") in out


def test_a_lane_stopped_before_the_schedule_has_no_period():
    code, out, err = spatial(GEMV, "--target", "wormhole", "--stop-after=place")
    assert (code, err) == (0, "")
    assert "period:" not in out and "simulated:" not in out


def test_a_program_the_clock_cannot_time_is_still_simulated(tmp_path):
    # The writer signals x_data too (by 0, so the run still finishes): two engines signal it.
    text = CHOREOGRAPHED.replace("WRITES", "8").replace(
        "            wait_front y 1\n", "            wait_front y 1\n            signal x_data 0\n")
    code, out, err = spatial(write(tmp_path, "two.sdf", text), "--target", "wormhole")
    assert (code, err) == (0, "")
    assert ("\nperiod: none (semaphore 'x_data' is signalled by reader[0, 0], writer[0, 1]: its "
            "waiter depends on the sum of their signals, which the clock's graph (one edge per "
            "dependence) cannot say)\nsimulated: ") in out

@pytest.mark.parametrize("name, text, where", [
    ("shallow.sdf", SHALLOW, "s waits at input 't' (1 of 2 tokens)"),
    ("chor.sdf", CHOREOGRAPHED.replace("WRITES", "9"), "writer[0, 1] waits at wait_front y 1"),
])
def test_a_hand_written_program_that_deadlocks_is_e7021(tmp_path, name, text, where):
    program = write(tmp_path, name, text)
    code, out, err = spatial(program, "--target", "wormhole", "--error-format=json")
    assert (code, out) == (1, "")
    [d] = diagnostics(err)
    assert d["code"] == "E7021"
    assert d["message"].startswith("the program as written does not finish on input 0: "
                                   "deadlock after ")
    assert where in d["message"]


# -- errors ------------------------------------------------------------------------------------

def test_text_that_does_not_parse_is_e7001_at_its_line_and_column(tmp_path):
    program = write(tmp_path, "bad.sdf",
                    "spatial bad {\n    tensor A: i32[4, 4] input\n    stream a i32\n}\n")
    code, out, err = spatial(program, "--target", "wormhole")
    assert (code, out) == (1, "")
    assert err.startswith("error[E7001]: expected ':' after stream a, found 'i32'\n")
    assert f" --> {program}:3:14\n" in err
    code, _, err = spatial(program, "--target", "wormhole", "--error-format=json")
    [d] = diagnostics(err)
    assert d["code"] == "E7001"
    assert (d["span"]["line"], d["span"]["column"]) == (3, 14)


def test_an_ill_formed_program_is_e7002_once_per_problem(tmp_path):
    program = write(tmp_path, "ill.sdf", SCALE.replace("store stY y", "store stY q"))
    code, out, err = spatial(program, "--target", "wormhole", "--error-format=json")
    assert (code, out) == (1, "")
    assert [(d["code"], d["message"]) for d in diagnostics(err)] == [
        ("E7002", "stage 'stY' names stream 'q', which is not declared"),
        ("E7002", "stream 'y' has 0 consumers (none); a stream joins one producer to one "
                  "consumer"),
    ]


def test_inconsistent_rates_are_e7003(tmp_path):
    program = write(tmp_path, "rates.sdf", """\
spatial rates {
    tensor A: i32[4, 4] input
    tensor C: i32[4, 4] output
    stream a1: i32
    stream a2: i32
    stream b: i32
    stream c: i32
    load ldA A -> a1, a2
    compute s1 sum axis 0 (a1 x2) -> b
    compute ad add(a2, b) -> c
    store stC c -> C
}
""")
    code, out, err = spatial(program, "--target", "wormhole", "--error-format=json")
    assert (code, out) == (1, "")
    [d] = diagnostics(err)
    assert d["code"] == "E7003"
    assert d["message"].startswith("the rates are inconsistent at stream 'b': ")


def test_an_unknown_target_name_is_e7004_listing_the_known_ones():
    code, out, err = spatial(GEMV, "--target", "tpu", "--error-format=json")
    assert (code, out) == (1, "")
    [d] = diagnostics(err)
    assert d["code"] == "E7004"
    assert d["message"].startswith("unknown target 'tpu'; the known targets are fabric, "
                                   "gpu-sm, wormhole")


def _wormhole_with(tmp_path: Path, pattern: str, replacement: str) -> Path:
    """wormhole.toml with its first line matching `pattern` replaced."""
    text = (TARGET_DIR / "wormhole.toml").read_text()
    changed, n = re.subn(pattern, replacement, text, count=1, flags=re.MULTILINE)
    assert n == 1
    return write(tmp_path, "mesh.toml", changed)


@pytest.mark.parametrize("edit, message", [
    ((r"^granule = .*\n", ""), "{path}: missing field 'granule'"),
    ((r"^rows = .*", "rows = 0"), "{path}: field 'rows' must be a positive integer, not 0"),
    ((r"^rows = .*", "rows = ["), "{path}: not valid TOML: "),
])
def test_a_bad_target_file_is_e7004_naming_the_field(tmp_path, edit, message):
    target = _wormhole_with(tmp_path, *edit)
    code, out, err = spatial(GEMV, "--target", target, "--error-format=json")
    assert (code, out) == (1, "")
    [d] = diagnostics(err)
    assert d["code"] == "E7004"
    assert d["message"].startswith(message.format(path=target))


def test_a_missing_target_file_is_e7004(tmp_path):
    code, out, err = spatial(GEMV, "--target", tmp_path / "none.toml")
    assert (code, out) == (1, "")
    assert err.startswith(f"error[E7004]: {tmp_path / 'none.toml'}: cannot be read ")


def test_a_pass_that_cannot_apply_is_its_rejects_code(tmp_path):
    # (a GEMM that sums its K-blocks fits 256 bytes: 1 x 1 tiles, two of each stream)
    target = _wormhole_with(tmp_path, r"^sram_bytes = .*", "sram_bytes = 64")
    code, out, err = spatial(ROOT / "examples" / "spatial" / "gemm.sdf", "--target", target,
                             "--error-format=json")
    assert (code, out) == (1, "")
    [d] = diagnostics(err)
    assert (d["code"], d["pass"]) == ("E7010", "tile")
    assert d["message"].startswith("tile cannot apply: no tiling of 'gemm' fits one site ")


def test_a_missing_target_is_a_usage_error():
    code, out, err = spatial(GEMV)
    assert (code, out) == (2, "")
    assert err == "nano-vx: error: spatial: no --target (a file in machines/spatial/ or its name)\n"


def test_a_target_without_a_program_is_described():
    code, out, err = spatial("--target", "wormhole")
    assert (code, err) == (0, "")
    assert out.startswith("wormhole: Tenstorrent Wormhole n150")
    assert ("  mesh      9 x 8 (72 sites), engines reader, compute, writer (only reader, writer "
            "touch semaphores)\n") in out
    code, out, err = spatial("--target", "nowhere")
    assert (code, out) == (1, "") and "error[E7004]: unknown target 'nowhere'" in err


def test_an_unreadable_program_is_an_error_not_a_traceback(tmp_path):
    code, out, err = spatial(tmp_path / "none.sdf", "--target", "wormhole")
    assert (code, out) == (2, "")
    assert err.startswith(f"nano-vx spatial: error: cannot read '{tmp_path / 'none.sdf'}': ")


# -- the benchmark -----------------------------------------------------------------------------

def test_the_spatial_benchmark_runs_quick():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "spatial_bench.py"),
                           "--quick"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "events/s" in done.stdout
    assert "\ngemv       wormhole " in done.stdout


# -- E7020: a rewrite that changes what the program computes -------------------------------

# Each row sums 4,096 terms near 1,000,000 and subtracts their total: what is left is the low
# bits of numbers near 4e9, which depend on the order of the additions. `tile` cuts the rows
# on wormhole, and the sums, reassociated, differ by far more than the tolerance.
CANCEL = """\
spatial cancel {
    tensor X: f32[64, 4096] input
    tensor D: f32[64, 1] output
    stream x: f32
    stream a: f32
    stream s: f32
    stream d: f32
    load ld X -> x
    scalar shifted(v: x) = v * 10000 + %s -> a
    compute total sum axis 1 (a) -> s
    scalar unshifted(t: s) = t - %s -> d
    store st d -> D
}
"""


def test_a_float_result_the_tiling_changes_is_e7020_naming_the_pass_and_the_element(tmp_path):
    program = write(tmp_path, "cancel.sdf", CANCEL % (1000000, 4096000000))
    code, _, err = spatial(program, "--target", "wormhole", "--error-format=json")
    [found] = diagnostics(err)
    assert code == 1 and found["code"] == "E7020"
    assert (found["pass"], found["divergence"]) == ("tile", "OutputDiffers")
    assert "tensor 'D' differs first at [" in found["message"]
    assert "reorders float additions" in found["help"][0]


def test_the_same_sum_without_the_cancellation_is_admitted(tmp_path):
    program = write(tmp_path, "cancel.sdf", CANCEL % (0, 0))
    code, out, err = spatial(program, "--target", "wormhole")
    assert (code, err) == (0, "") and "outcome: finished" in out


def test_timing_prints_each_pass_on_stderr_and_no_verify_still_runs(tmp_path):
    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--timing", "--no-verify")
    assert code == 0 and "outcome: finished" in out
    rows = [line.split()[0] for line in err.splitlines()]
    assert rows == ["pass", *SPATIAL_PIPELINE.names(), "total"]


FRONT_END = "nano-vx FILE"


@pytest.mark.parametrize("words, flag, owners", [
    ("--machine machines/a100-40.vx", "--machine", "nano-vx FILE and nano-vx explore"),
    ("--host default", "--host", "nano-vx FILE and nano-vx explore"),
    ("--action check", "--action", FRONT_END), ("--verify-seams", "--verify-seams", FRONT_END),
    ("--emit-seam-certs", "--emit-seam-certs", FRONT_END),
    ("--passes=tile", "--passes", FRONT_END), ("--start-after tile", "--start-after", FRONT_END),
    ("-O3", "-O", FRONT_END), ("--check-contracts", "--check-contracts", FRONT_END),
    ("--list-passes", "--list-passes", FRONT_END),
    ("--no-graphs", "--no-graphs", "nano-vx explore"), ("-o page.html", "-o", "nano-vx explore"),
])
def test_an_option_of_another_command_is_refused_naming_it(words, flag, owners):
    code, out, err = spatial(GEMV, "--target", "gpu-sm", *words.split())
    assert (code, out) == (2, "")
    assert err == (f"nano-vx spatial: error: {flag} is not an option of nano-vx spatial "
                   f"(it belongs to {owners})\n")


def test_an_svg_dump_is_one_document_of_the_mesh(tmp_path):
    """--dump-format=svg renders the Graphviz form: the sites as clusters, nothing else on
    stdout (no banner, no report)."""
    import xml.etree.ElementTree as ET

    code, out, err = spatial(GEMV, "--target", "gpu-sm", "--dump-after=place",
                             "--dump-format=svg")
    assert (code, err) == (0, "")
    root = ET.fromstring(out)
    assert root.tag.endswith("svg")
    titles = [t.text for t in root.iter() if t.tag.endswith("title")]
    assert "cluster_0" in titles and "site (0, 0)" in out
