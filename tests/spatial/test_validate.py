"""`validate` (nano_vx/spatial/validate.py), rule by rule in the module's order: each case
breaks one well-formed program in one way and expects exactly the problems listed, and its
repair (the well-formed program, or another fix of the break) has none. Three bases: an
Sdataflow graph (names, streams, stages), an Stiled one (accesses, shapes) and a choreography
(places, buffers, groups, handshakes, schedules)."""

from __future__ import annotations

import pytest

from choreographies import MULTICAST, MULTICAST_RELAYED
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import small_target
from nano_vx.spatial.validate import code_of, validate

TARGET = small_target(2, 2)

DATAFLOW = """\
spatial df {
    tensor X: f32[4, 4] input
    tensor M: f32[4, 1] input
    tensor Y: f32[4, 4] output
    tensor S: f32[4, 1] output
    stream x: f32
    stream m: f32
    stream e: f32
    stream e2: f32
    stream f: f32
    stream y: f32
    stream y2: f32
    stream s: f32
    load ldX X -> x
    load ldM M -> m
    scalar ex(v: x, w: m) = exp(v - w) -> e, e2
    compute sc scale 0.5 (e) -> f
    compute pr mul(f, e2) -> y, y2
    compute sm sum axis 1 (y2) -> s
    store stY y -> Y
    store stS s -> S
}
"""

TILED = """\
spatial tiled: Stiled {
    tensor A: i32[8, 8] input
    tensor B: i32[8, 4] input
    tensor C: i32[8, 4] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ldA A[i, k] tile [4, 4] for i in 0..2, k in 0..2 -> a
    load ldB B[k, 0] tile [4, 4] for i in 0..2, k in 0..2 -> b
    compute mm matmul_acc(a x2, b x2) -> c
    store stC c -> C[i, 0] tile [4, 4] for i in 0..2
}
"""


BASES = {"dataflow": DATAFLOW, "tiled": TILED, "choreography": MULTICAST}


def _edit(text: str, edits) -> str:
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} is in the text {text.count(old)} times"
        text = text.replace(old, new)
    return text


def _after(line: str, added: str) -> tuple[str, str]:
    """An edit that adds a line after `line` (indented like it)."""
    indent = line[:len(line) - len(line.lstrip())]
    return line, f"{line}\n{indent}{added}"


def _case(name, base, edits, problems, repair=None):
    """A break of `base` by `edits`, exactly the `problems` it gives, and `repair`: edits of
    the broken text that fix it another way than undoing it (None: the base is the repair)."""
    return pytest.param(base, edits, problems, repair, id=name)


CASES = [
    # -- _names ----------------------------------------------------------------------------
    _case("tensor-twice", "dataflow",
          [_after("    tensor S: f32[4, 1] output", "tensor X: f32[2, 2] input")],
          ["tensor 'X' is declared twice"],
          [("tensor X: f32[2, 2] input", "tensor X2: f32[2, 2] input")]),
    _case("stream-twice", "dataflow", [_after("    stream s: f32", "stream e: f32")],
          ["stream 'e' is declared twice"]),
    _case("stage-twice", "dataflow", [("store stS s -> S", "store stY s -> S")],
          ["stage 'stY' is declared twice"], [("store stY s -> S", "store stS2 s -> S")]),
    _case("shape-zero", "dataflow", [("tensor M: f32[4, 1]", "tensor M: f32[4, 0]")],
          ["tensor 'M' has shape [4, 0]; every extent must be positive"]),
    _case("shape-empty", "dataflow", [("tensor M: f32[4, 1]", "tensor M: f32[]")],
          ["tensor 'M' has shape []; every extent must be positive"]),
    # -- _streams --------------------------------------------------------------------------
    _case("stream-undeclared", "dataflow", [("scale 0.5 (e) -> f", "scale 0.5 (e) -> g")],
          ["stage 'sc' names stream 'g', which is not declared",
           "stream 'f' has 0 producers (none); a stream joins one producer to one consumer"],
          [("stream f: f32", "stream g: f32"), ("mul(f, e2)", "mul(g, e2)")]),
    _case("rate-zero", "dataflow", [("sum axis 1 (y2)", "sum axis 1 (y2 x0)")],
          ["stage 'sm' has rate 0 on stream 'y2'; a rate is at least 1"]),
    _case("two-producers", "dataflow", [("load ldM M -> m", "load ldM M -> m, x")],
          ["stream 'x' has 2 producers (ldX, ldM); a stream joins one producer to one "
           "consumer"]),
    _case("two-consumers", "dataflow", [("sum axis 1 (y2)", "sum axis 1 (e2)")],
          ["stream 'e2' has 2 consumers (pr, sm); a stream joins one producer to one consumer",
           "stream 'y2' has 0 consumers (none); a stream joins one producer to one consumer"],
          [("-> e, e2", "-> e, e2, e3"), ("stream e2: f32", "stream e2: f32\n    stream e3: f32"),
           ("sum axis 1 (e2)", "sum axis 1 (e3)"), ("-> y, y2", "-> y"),
           ("    stream y2: f32\n", "")]),
    # -- _stage ----------------------------------------------------------------------------
    _case("param-twice", "dataflow",
          [("ex(v: x, w: m) = exp(v - w)", "ex(v: x, v: m) = exp(v - v)")],
          ["parameter of scalar 'ex': 'v' is declared twice"]),
    _case("param-unknown", "dataflow", [("exp(v - w)", "exp(v - z) * max(u, w)")],
          ["scalar 'ex' uses 'u' in its body, which is not one of its parameters (v, w)",
           "scalar 'ex' uses 'z' in its body, which is not one of its parameters (v, w)"]),
    _case("scalar-rates", "dataflow", [("ex(v: x, w: m)", "ex(v: x x2, w: m)")],
          ["scalar 'ex' has rates [1, 2]; a scalar stage takes and puts the same number of "
           "tokens on every port"]),
    _case("arity", "dataflow", [("mul(f, e2) -> y, y2", "mul(f) -> y, y2")],
          ["stream 'e2' has 0 consumers (none); a stream joins one producer to one consumer",
           "compute 'pr' (mul) has 1 inputs; mul takes 2"]),
    _case("no-axis", "dataflow", [("sum axis 1 (y2)", "sum (y2)")],
          ["compute 'sm' (sum) names no axis"]),
    _case("no-factor", "dataflow", [("scale 0.5 (e)", "scale (e)")],
          ["compute 'sc' (scale) names no factor"], [("scale (e)", "scale 2 (e)")]),
    _case("input-rates", "dataflow", [("mul(f, e2) -> y, y2", "mul(f x2, e2) -> y x2, y2 x2")],
          ["compute 'pr' (mul) takes [1, 2] tokens on its inputs; every input of one firing "
           "has the same rate",
           "compute 'pr' (mul) works token by token; its output rate [2] must equal its input "
           "rate [1, 2]"],
          [("mul(f x2, e2)", "mul(f x2, e2 x2)")]),
    _case("reduction-rate", "dataflow", [("sum axis 1 (y2) -> s", "sum axis 1 (y2 x2) -> s x2")],
          ["compute 'sm' (sum) combines its input tokens into one; its outputs have rate 1"],
          [("-> s x2", "-> s")]),
    _case("token-by-token-rate", "dataflow", [("scale 0.5 (e) -> f", "scale 0.5 (e) -> f x2")],
          ["compute 'sc' (scale) works token by token; its output rate [2] must equal its "
           "input rate [1]"],
          [("scale 0.5 (e)", "scale 0.5 (e x2)")]),
    _case("no-output", "dataflow",
          [("sum axis 1 (y2) -> s", "sum axis 1 (y2) ->"), ("    store stS s -> S\n", ""),
           ("    stream s: f32\n", "")],
          ["compute 'sm' has no output"]),
    # -- _access ---------------------------------------------------------------------------
    _case("tensor-undeclared", "tiled", [("load ldA A[i, k]", "load ldA Q[i, k]")],
          ["load 'ldA' names tensor 'Q', which is not declared"]),
    _case("load-of-output", "tiled", [("load ldB B[k, 0]", "load ldB C[k, 0]")],
          ["load 'ldB' reads 'C', an output tensor"]),
    _case("store-of-input", "tiled", [("-> C[i, 0]", "-> B[i, 0]")],
          ["store 'stC' writes 'B', an input tensor"]),
    _case("access-rate", "tiled", [("store stC c ->", "store stC c x2 ->")],
          ["store 'stC' has rate 2; a store moves one token per firing"]),
    _case("access-dtype", "tiled", [("stream c: i32", "stream c: i64")],
          ["store 'stC' joins stream 'c' of i64 to tensor 'C' of i32"],
          [("tensor C: i32[8, 4]", "tensor C: i64[8, 4]")]),
    _case("tile-rank", "tiled", [("B[k, 0] tile [4, 4]", "B[k, 0] tile [4]")],
          ["load 'ldB' has a tile of rank 1 and an index of rank 2 for tensor 'B' of rank 2"]),
    _case("index-rank", "tiled", [("B[k, 0] tile [4, 4]", "B[k] tile [4, 4]")],
          ["load 'ldB' has a tile of rank 2 and an index of rank 1 for tensor 'B' of rank 2"]),
    _case("tile-divides", "tiled", [("A[i, k] tile [4, 4]", "A[i, k] tile [3, 4]")],
          ["load 'ldA': tile extent 3 does not divide extent 8 of 'A' (dimension 0)"]),
    _case("tile-zero", "tiled", [("A[i, k] tile [4, 4]", "A[i, k] tile [0, 4]")],
          ["load 'ldA': tile extent 0 does not divide extent 8 of 'A' (dimension 0)"]),
    _case("loop-twice", "tiled",
          [("A[i, k] tile [4, 4] for i in 0..2", "A[i, k] tile [4, 4] for i in 0..2, i in 0..2")],
          ["loop variable of load 'ldA': 'i' is declared twice"]),
    _case("loop-empty", "tiled", [("[4, 4] for i in 0..2\n", "[4, 4] for i in 2..2\n")],
          ["store 'stC': loop i in 2..2 step 1 is empty or runs backwards"]),
    _case("loop-backwards", "tiled", [("[4, 4] for i in 0..2\n", "[4, 4] for i in 2..0\n")],
          ["store 'stC': loop i in 2..0 step 1 is empty or runs backwards"]),
    _case("loop-step-zero", "tiled", [("[4, 4] for i in 0..2\n", "[4, 4] for i in 0..2 step 0\n")],
          ["store 'stC': loop i in 0..2 step 0 is empty or runs backwards"]),
    _case("index-unbound", "tiled", [("load ldA A[i, k]", "load ldA A[i, j]")],
          ["load 'ldA' indexes dimension 1 by 'j', which no loop declares"]),
    _case("loop-beyond-tiles", "tiled",
          [("A[i, k] tile [4, 4] for i in 0..2", "A[i, k] tile [4, 4] for i in 0..3")],
          ["load 'ldA': loop i reaches tile 2 of dimension 0, which has 2 tiles"]),
    # The last point of a stepped loop is what counts: 0..5 step 3 reaches 3; 1..3 step 2
    # stops at 1, within the 2 tiles though its stop is beyond them.
    _case("stepped-loop-beyond-tiles", "tiled",
          [("A[i, k] tile [4, 4] for i in 0..2", "A[i, k] tile [4, 4] for i in 0..5 step 3")],
          ["load 'ldA': loop i reaches tile 3 of dimension 0, which has 2 tiles"],
          [("for i in 0..5 step 3", "for i in 1..3 step 2, r in 0..2")]),
    # -- _acyclic, token shapes, stored shapes ---------------------------------------------
    _case("cycle", "dataflow",
          [("scalar ex(v: x, w: m) = exp(v - w) -> e, e2",
            "scalar ex(v: x, w: m, u: f2) = exp(v - w) + u -> e, e2"),
           ("compute sc scale 0.5 (e) -> f", "compute sc scale 0.5 (e) -> f, f2"),
           ("stream f: f32", "stream f: f32\n    stream f2: f32")],
          ["stages 'ex' and 'sc' form a cycle; a cycle without initial tokens never fires"]),
    _case("token-shapes", "tiled", [("B[k, 0] tile [4, 4]", "B[k, 0] tile [2, 4]")],
          ["stage 'mm' (matmul_acc) cannot combine tokens of shapes [[4, 4], [2, 4]]: inner "
           "extents 4 and 2 differ"]),
    # An axis the tokens do not have, a matmul of other than matrices, extents that do not
    # broadcast: each named with the figures, not with the exception Python would raise.
    _case("axis-negative", "dataflow", [("sum axis 1 (y2)", "sum axis -1 (y2)")],
          ["stage 'sm' (sum) cannot combine tokens of shapes [[4, 4]]: it reduces axis -1, "
           "and its tokens have axes 0 to 1"]),
    _case("axis-beyond-rank", "dataflow", [("sum axis 1 (y2)", "sum axis 2 (y2)")],
          ["stage 'sm' (sum) cannot combine tokens of shapes [[4, 4]]: it reduces axis 2, "
           "and its tokens have axes 0 to 1"]),
    _case("matmul-rank", "tiled",
          [("tensor A: i32[8, 8]", "tensor A: i32[8, 8, 1]"),
           ("A[i, k] tile [4, 4]", "A[i, k, 0] tile [4, 4, 1]")],
          ["stage 'mm' (matmul_acc) cannot combine tokens of shapes [[4, 4, 1], [4, 4]]: "
           "matmul_acc multiplies two matrices (tokens of rank 2)"]),
    _case("broadcast-mismatch", "dataflow", [("tensor M: f32[4, 1]", "tensor M: f32[4, 3]")],
          ["stage 'ex' (scalar) cannot combine tokens of shapes [[4, 4], [4, 3]]: extents 3 "
           "and 4 meet at axis 1 of the result, and only equal extents or 1 broadcast (a row "
           "[1, n] goes down every row, a column [m, 1] across every column)"]),
    _case("stored-tensor-shape", "dataflow", [("tensor S: f32[4, 1]", "tensor S: f32[1, 4]")],
          ["store 'stS' writes tokens of shape [4, 1] over its tensor of shape [1, 4] in 'S'"],
          [("sum axis 1 (y2)", "sum axis 0 (y2)"), ("tensor M: f32[4, 1]", "tensor M: f32[1, 4]")]),
    _case("stored-tile-shape", "tiled", [("C[i, 0] tile [4, 4]", "C[i, 0] tile [4, 2]")],
          ["store 'stC' writes tokens of shape [4, 4] over its tile of shape [4, 2] in 'C'"]),
    # -- _places (and the target's mesh) ---------------------------------------------------
    _case("place-twice", "choreography",
          [_after("    place sc (0, 1) compute", "place sc (0, 1) compute")],
          ["place of stage 'sc' is declared twice"]),
    _case("no-place", "choreography", [("    place sm (1, 0) compute\n", "")],
          ["stage 'sm' has no place"]),
    _case("place-unknown-stage", "choreography",
          [_after("    place sc (0, 1) compute", "place zz (0, 0) reader")],
          ["place names stage 'zz', which is not declared"]),
    _case("site-off-the-mesh", "choreography",
          [("place stY1 (1, 0) writer", "place stY1 (2, 0) writer")],
          ["stage 'stY1' is placed on site (2, 0), outside the 2 x 2 mesh of small-2x2",
           "buffer 'y1' is on site (1, 0), but its consumer 'stY1' is on (2, 0)",
           "buffer 'y1' is a fifo between sites (1, 0) and (2, 0); a fifo joins two engines "
           "of one site"]),
    _case("site-of-three-coordinates", "choreography",
          [("place stY1 (1, 0) writer", "place stY1 (1, 0, 0) writer"),
           ("buffer y1 (1, 0)", "buffer y1 (1, 0, 0)")],
          ["stage 'stY1' is placed on site (1, 0, 0), outside the 2 x 2 mesh of small-2x2",
           "buffer 'y1' is a fifo between sites (1, 0) and (1, 0, 0); a fifo joins two engines "
           "of one site"]),
    _case("engine-unknown", "choreography",
          [("place stY1 (1, 0) writer", "place stY1 (1, 0) dma")],
          ["stage 'stY1' is placed on engine 'dma', which small-2x2 does not have"]),
    # -- _buffers --------------------------------------------------------------------------
    _case("buffer-twice", "choreography",
          [_after("    buffer y1 (1, 0) depth 2 bytes 32", "buffer y1 (1, 0) depth 1 bytes 16")],
          ["buffer of stream 'y1' is declared twice"]),
    _case("no-buffer", "choreography", [("    buffer y1 (1, 0) depth 2 bytes 32\n", "")],
          ["stream 'y1' has no buffer"]),
    _case("buffer-site", "choreography", [("buffer y1 (1, 0)", "buffer y1 (0, 0)")],
          ["buffer 'y1' is on site (0, 0), but its consumer 'stY1' is on (1, 0)"]),
    _case("buffer-depth", "choreography", [("y1 (1, 0) depth 2", "y1 (1, 0) depth -1")],
          ["buffer 'y1' has depth -1 and 32 bytes"]),
    _case("buffer-bytes", "choreography", [("depth 2 bytes 32", "depth 2 bytes -32")],
          ["buffer 'y1' has depth 2 and -32 bytes"]),
    # -- _groups ---------------------------------------------------------------------------
    _case("group-twice", "choreography",
          [("group g ldX -> x0, x1", "group g ldX -> x0\n    group g ldX -> x1")],
          ["group 'g' is declared twice"]),
    _case("group-member-twice", "choreography",
          [("group g ldX -> x0, x1", "group g ldX -> x0, x1, x0")],
          ["group member stream 'x0' is declared twice"]),
    # Multicasting y0 also makes the reader a second engine putting into it.
    _case("group-not-produced", "choreography",
          [("group g ldX -> x0, x1", "group g ldX -> x0, x1, y0")],
          ["group 'g' lists stream 'y0', which stage 'ldX' does not produce",
           "buffer 'y0' receives a multicast but has a fifo handshake",
           "more than one engine puts tokens into 'y0' ((0, 0) reader, (0, 1) compute); one "
           "engine may"]),
    # -- _handshakes -----------------------------------------------------------------------
    _case("handshake-twice", "choreography", [_after("    handshake y1 fifo", "handshake y1 fifo")],
          ["handshake of buffer 'y1' is declared twice"]),
    _case("semaphore-twice", "choreography",
          [_after("    semaphore x1_data (1, 0) initial 0", "semaphore x1_data (1, 0) initial 0")],
          ["semaphore 'x1_data' is declared twice"]),
    _case("no-handshake", "choreography", [("    handshake y1 fifo\n", "")],
          ["buffer 'y1' has no handshake"]),
    _case("fifo-across-sites", "choreography",
          [("handshake x1 barrier credit", "handshake x1 fifo credit")],
          ["buffer 'x1' is a fifo between sites (0, 0) and (1, 0); a fifo joins two engines of "
           "one site",
           "buffer 'x1' receives a multicast but has a fifo handshake"]),
    _case("barrier-not-grouped", "choreography",
          [("handshake y1 fifo", "handshake y1 barrier credit x1_credit data x1_data")],
          ["buffer 'y1' has a barrier handshake but is in no group"]),
    _case("semaphore-pair-without-semaphores", "choreography",
          [("handshake y1 fifo", "handshake y1 semaphore_pair")],
          ["buffer 'y1' (semaphore_pair) needs a credit and a data semaphore"]),
    _case("barrier-without-data", "choreography",
          [("credit x1_credit data x1_data", "credit x1_credit")],
          ["buffer 'x1' (barrier) needs a credit and a data semaphore"]),
    _case("semaphore-undeclared", "choreography",
          [("credit x1_credit data x1_data", "credit x1_credit data x1_ready")],
          ["buffer 'x1' names semaphore 'x1_ready', which is not declared"],
          [("semaphore x1_data (1, 0)", "semaphore x1_ready (1, 0)"),
           ("wait x1_data 1", "wait x1_ready 1"), ("signal x1_data 1", "signal x1_ready 1")]),
    # -- _schedules ------------------------------------------------------------------------
    _case("schedule-twice", "choreography",
          [("    schedule (1, 0) writer {", "    schedule (0, 1) writer {")],
          ["schedule of engine '(0, 1) writer' is declared twice"]),
    _case("op-unknown-buffer", "choreography", [("wait_front y1 1", "wait_front z1 1")],
          ["schedule (1, 0) writer: wait_front names buffer 'z1', which is not declared"]),
    _case("op-unknown-group", "choreography", [("barrier g", "barrier h")],
          ["schedule (0, 0) reader: barrier names group 'h', which is not declared"]),
    _case("op-unknown-semaphore", "choreography", [("signal x1_data 1", "signal x2_data 1")],
          ["schedule (0, 0) reader: signal names sem 'x2_data', which is not declared"]),
    _case("op-unknown-stage", "choreography", [("fire sm", "fire sm2")],
          ["schedule (1, 0) compute: fire names stage 'sm2', which is not declared"]),
    _case("read-of-a-compute", "choreography", [("read ldX g", "read sc g")],
          ["schedule (0, 0) reader: read names compute 'sc'; read takes a load"]),
    _case("write-of-a-compute", "choreography", [("write y1 stY1", "write y1 sm")],
          ["schedule (1, 0) writer: write names compute 'sm'; write takes a store"]),
    _case("fire-of-a-load", "choreography", [("fire sm", "fire ldX")],
          ["schedule (1, 0) compute: fire names load 'ldX'; fire takes a compute or scalar"]),
    _case("two-putters", "choreography", [_after("            push y0 1", "push y1 1")],
          ["more than one engine puts tokens into 'y1' ((0, 1) compute, (1, 0) compute); one "
           "engine may"]),
    _case("two-takers", "choreography", [_after("            write y0 stY0", "pop y1 1")],
          ["more than one engine takes tokens from 'y1' ((0, 1) writer, (1, 0) writer); one "
           "engine may"]),
    _case("two-waiters", "choreography", [_after("            wait x0_data 1", "wait x1_data 1")],
          ["more than one engine waits on 'x1_data' ((0, 1) compute, (1, 0) compute); one "
           "engine may"]),
    # A barrier waits on the credit semaphore of every receiver.
    _case("two-barriers", "choreography", [_after("            write y1 stY1", "barrier g")],
          ["more than one engine waits on 'x0_credit' ((0, 0) reader, (1, 0) writer); one "
           "engine may",
           "more than one engine waits on 'x1_credit' ((0, 0) reader, (1, 0) writer); one "
           "engine may"]),
]


@pytest.mark.parametrize("base", BASES)
def test_each_base_is_well_formed(base):
    assert validate(parse_spatial(BASES[base]), TARGET) == []


@pytest.mark.parametrize("base, edits, problems, repair", CASES)
def test_a_break_gives_exactly_its_problems(base, edits, problems, repair):
    assert validate(parse_spatial(_edit(BASES[base], edits)), TARGET) == problems


@pytest.mark.parametrize("base, edits, problems, repair",
                         [c for c in CASES if c.values[3] is not None])
def test_another_repair_has_no_problem(base, edits, problems, repair):
    assert validate(parse_spatial(_edit(_edit(BASES[base], edits), repair)), TARGET) == []


# -- rules the text form cannot break, and rules that need a target ---------------------------


def test_a_scalar_with_fewer_parameters_than_inputs():
    graph = parse_spatial(DATAFLOW)
    stages = tuple(st.replace(params=("v",)) if st.name == "ex" else st for st in graph.stages)
    assert validate(graph.replace(stages=stages)) == [
        "scalar 'ex' has 1 parameters for 2 inputs",
        "scalar 'ex' uses 'w' in its body, which is not one of its parameters (v)"]


def test_a_stage_computes_only_in_a_type_the_target_has_a_rate_for():
    integers_only = small_target(2, 2, rates={"i32": 32})
    assert validate(parse_spatial(DATAFLOW), integers_only) == [
        f"stage '{name}' computes in f32, which small-2x2 has no rate for (it computes in i32)"
        for name in ("ex", "sc", "pr", "sm")]
    assert validate(parse_spatial(TILED), integers_only) == []


def test_a_handshake_touched_by_an_engine_kept_off_semaphores_is_reported():
    kept_off = small_target(2, 2, semaphore_engines=["reader", "writer"])
    assert validate(parse_spatial(MULTICAST), kept_off) == [
        f"buffer '{b}' has a barrier handshake, whose semaphores its consumer '{st}' would "
        f"touch from the compute engine, but small-2x2 lets only reader, writer touch "
        f"semaphores (relay-tokens gives such a buffer a relay)"
        for b, st in (("x0", "sc"), ("x1", "sm"))]
    assert validate(parse_spatial(MULTICAST), TARGET) == []
    assert validate(parse_spatial(MULTICAST_RELAYED), kept_off) == []


@pytest.mark.parametrize("text", [
    _edit(MULTICAST, [("place stY1 (1, 0) writer", "place stY1 (1, 0) dma")]),
    MULTICAST.replace("(1, 0)", "(5, 5)"),  # the whole site moves off the mesh
], ids=["engine", "site"])
def test_without_a_target_the_mesh_and_engines_are_not_checked(text):
    graph = parse_spatial(text)
    assert validate(graph) == []
    assert validate(graph, TARGET) != []


def test_a_stream_without_ends_in_a_choreography_is_reported_not_a_crash():
    text = _edit(MULTICAST, [
        _after("    stream y1: i32", "stream lost: i32"),
        _after("    buffer y1 (1, 0) depth 2 bytes 32", "buffer lost (1, 0) depth 1 bytes 32"),
        _after("    handshake y1 fifo", "handshake lost fifo"),
        ("group g ldX -> x0, x1", "group g ldX -> x0, x1\n    group h sm -> lost")])
    assert validate(parse_spatial(text), TARGET) == [
        "stream 'lost' has 0 producers (none); a stream joins one producer to one consumer",
        "stream 'lost' has 0 consumers (none); a stream joins one producer to one consumer",
        "group 'h' lists stream 'lost', which stage 'sm' does not produce",
        "buffer 'lost' receives a multicast but has a fifo handshake"]


def test_a_buffer_or_handshake_of_a_stream_not_declared_is_reported():
    graph = parse_spatial("""\
spatial stray: Shandshaked {
    tensor A: i32[4, 4] input
    tensor B: i32[4, 4] output
    stream a: i32
    load ld A[0, 0] tile [4, 4] -> a
    store st a -> B[0, 0] tile [4, 4]
    place ld (0, 0) reader
    place st (0, 0) writer
    buffer a (0, 0) depth 1 bytes 64
    buffer ghost (0, 0) depth 1 bytes 64
    handshake a fifo
    handshake ghost fifo
}
""")
    assert validate(graph) == ["buffer 'ghost' names no declared stream",
                               "handshake 'ghost' names no declared stream"]


# -- E7005: a broadcast or a transpose whose tokens do not fit ---------------------------------

# The row maximum of X taken back across its row by `sub` (M is a column), then transposed.
SHIFT = """\
spatial shift {
    tensor X: f32[4, 6] input
    tensor Y: f32[6, 4] output
    stream x1: f32
    stream x2: f32
    stream m: f32
    stream d: f32
    stream y: f32
    load ld X -> x1, x2
    compute top max axis 1 (x1) -> m
    compute less sub(x2, m) -> d
    compute flip transpose(d) -> y
    store st y -> Y
}
"""


def test_a_column_goes_across_every_column_and_a_row_down_every_row():
    assert validate(parse_spatial(SHIFT), TARGET) == []
    # The maximum along axis 0 is a row of 6, X's rows are of 6.
    rows = SHIFT.replace("max axis 1", "max axis 0")
    assert validate(parse_spatial(rows), TARGET) == []


def test_an_operand_that_is_neither_a_row_nor_a_column_of_the_other_is_e7005():
    crossed = SHIFT.replace("compute top max axis 1 (x1) -> m", "compute top transpose(x1) -> m")
    [problem] = validate(parse_spatial(crossed), TARGET)
    assert problem == ("stage 'less' (sub) cannot combine tokens of shapes [[4, 6], [6, 4]]: "
                       "extents 4 and 6 meet at axis 0 of the result, and only equal extents "
                       "or 1 broadcast (a row [1, n] goes down every row, a column [m, 1] "
                       "across every column)")
    assert code_of(problem) == "E7005"


def test_a_transpose_of_other_than_a_matrix_is_e7005_and_of_a_matrix_admitted():
    flat = SHIFT.replace("tensor X: f32[4, 6]", "tensor X: f32[24]").replace(
        "compute top max axis 1 (x1) -> m\n", "").replace("stream m: f32\n", "").replace(
        "compute less sub(x2, m) -> d", "compute less transpose(x2) -> d").replace(
        "load ld X -> x1, x2", "load ld X -> x2").replace("stream x1: f32\n", "")
    [problem] = validate(parse_spatial(flat), TARGET)
    assert problem == ("stage 'less' (transpose) cannot combine tokens of shapes [[24]]: "
                       "transpose swaps the two axes of a matrix, and its tokens have rank 1")
    assert code_of(problem) == "E7005"
    square = flat.replace("tensor X: f32[24]", "tensor X: f32[4, 6]")
    # Transposed twice, X comes back [4, 6], which Y [6, 4] is not: the store's E7002.
    [stored] = validate(parse_spatial(square), TARGET)
    assert code_of(stored) == "E7002" and stored.startswith("store 'st' writes tokens of shape")
    once = square.replace("compute less transpose(x2) -> d", "compute less scale 1 (x2) -> d")
    assert validate(parse_spatial(once), TARGET) == []


def test_a_problem_of_another_rule_is_e7002():
    [problem] = validate(parse_spatial(SHIFT.replace("store st y -> Y", "store st y -> Z")),
                         TARGET)
    assert code_of(problem) == "E7002"
