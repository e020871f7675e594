"""Speed of the spatial lane: its token oracle, and the lane itself on the reference programs.

    python benchmarks/spatial_bench.py [--gemms SIZE:ROWSxCOLS,...] [--repeat 3] [--quick]

(1) The token oracle. For each GEMM C = A @ B of size N on the mesh small_target(R, C): the
lane's passes, called directly without validation (as `--no-validate`), take it to
Schoreographed; then both runners of the fixed fair order run it on random inputs: the
stepper (`tokens.run`, one persistent State per step, the reference) and the compiled runner
(nano_vx/oracle/fast.py, what `eval_choreography` uses), which must agree on the outcome.
Reported: the steps, of them the data-movement events and the tile-compute events
(Finished.steps - Finished.fires, Finished.fires), the time to build the Machine (compile the
schedules to flat code) and to step it, events per second of run time overall and of data
movement (over the same run time: the two kinds interleave); for the compiled runner, the time
to write its generators (compiling the shapes not in its cache yet: repeated runs find them
all there), to run them, of that the time inside ops.fire (numpy, the same work for both
runners), its events per second, and its events per second outside numpy (steps over the run
time less the numpy time: the runner's own speed); and, from one GEMM to the next on the same
mesh (more tiles) or the same GEMM on a larger mesh, how the events grow against the work
(multiply-adds) and how each runner's run time grows against the events: an oracle linear in
its events keeps that last ratio near 1.
(2) The lane as `nano-vx spatial PROGRAM --target T` runs it, per reference program and
shipped target: the six passes, and the validation (the program as written on its inputs, then
every rewrite checked against its input on the corpus: the .npz beside the program and one
random input) apart.

Times are CPU time of this process (time.process_time), the fastest of --repeat runs: on a
shared machine wall time mostly measures the neighbours. The outputs of every run are checked
against numpy, so a fast wrong oracle cannot pass for a fast one.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]  # nano_vx uninstalled

from nano_vx.oracle.equivalence import corpus, evaluate  # noqa: E402
from nano_vx.oracle.fast import FastMachine  # noqa: E402
from nano_vx.oracle.outcomes import Finished  # noqa: E402
from nano_vx.oracle.tokens import Machine, run  # noqa: E402
from nano_vx.oracle.rewrites import check_rewrite  # noqa: E402
from nano_vx.spatial.context import SpatialContext  # noqa: E402
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE  # noqa: E402
from nano_vx.spatial import ops  # noqa: E402
from nano_vx.spatial.parse import parse_spatial  # noqa: E402
from nano_vx.spatial.target import known_targets, load_target, small_target  # noqa: E402
from nano_vx.spatial.validate import validate  # noqa: E402

EXAMPLES = HERE.parent / "examples" / "spatial"
GEMMS = "128:4x4,256:4x4,512:4x4,256:8x8,512:8x8,512:16x16"
QUICK_GEMMS = "32:2x2,64:2x2,64:4x4"
QUICK_PROGRAMS = ("gemv", "row_sums")
LINEAR_TARGET = 1.1  # run time may grow at most 1.1x faster than the events


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def gemm_text(n: int) -> str:
    return f"""\
spatial gemm{n} {{
    tensor A: i32[{n}, {n}] input
    tensor B: i32[{n}, {n}] input
    tensor C: i32[{n}, {n}] output
    stream a: i32
    stream b: i32
    stream c: i32
    load load_a A -> a
    load load_b B -> b
    compute mm matmul_acc(a, b) -> c
    store store_c c -> C
}}
"""


def parse_gemms(spec: str) -> list[tuple[int, int, int]]:
    """`64:2x2,128:4x4` -> [(64, 2, 2), (128, 4, 4)]."""
    out = []
    for item in spec.split(","):
        try:
            size, mesh = item.split(":")
            rows, cols = mesh.split("x")
            out.append((int(size), int(rows), int(cols)))
        except ValueError:
            raise SystemExit(f"spatial_bench: --gemms takes SIZE:ROWSxCOLS items, not {item!r}")
    return out


def best(repeat: int, measure):
    """The run with the least total time of `repeat` runs of `measure()`."""
    return min((measure() for _ in range(repeat)), key=lambda r: r.total)


# -- (1) the token oracle on GEMMs -------------------------------------------------------------

@dataclass
class OracleRun:
    size: int
    mesh: tuple[int, int]
    engines: int
    steps: int
    fires: int
    build: float  # seconds to build the Machine
    seconds: float  # seconds to step it (tokens.run)
    compile: float  # seconds to compile it to generators (FastMachine)
    fast: float  # seconds to run those
    numpy: float  # of them, seconds inside ops.fire

    @property
    def total(self) -> float:
        return self.build + self.seconds + self.compile + self.fast

    @property
    def moves(self) -> int:
        return self.steps - self.fires


def timed_fire(spent: list[float]):
    """ops.fire, adding the CPU time it takes to spent[0]."""
    def fire(stage, inputs, dtype):
        start = time.process_time()
        made = ops.fire(stage, inputs, dtype)
        spent[0] += time.process_time() - start
        return made
    return fire


def choreographed(text: str, target):
    graph = parse_spatial(text, "bench.sdf")
    ctx = SpatialContext(target)
    for p in SPATIAL_PIPELINE:
        graph = p(graph, ctx)
    return graph


def oracle_run(size: int, rows: int, cols: int, repeat: int) -> OracleRun:
    progress(f"GEMM {size} on {rows} x {cols}: the lane, then the oracle x{repeat}")
    graph = choreographed(gemm_text(size), small_target(rows, cols))
    inputs = corpus(graph, 0, 1)[0]
    want = inputs["A"] @ inputs["B"]

    def check(outcome, runner: str) -> None:
        if not isinstance(outcome, Finished):
            raise SystemExit(f"spatial_bench: GEMM {size} on {rows} x {cols}, {runner}: "
                             f"{outcome.describe()}")
        if not np.array_equal(outcome.outputs["C"], want):
            raise SystemExit(f"spatial_bench: GEMM {size} on {rows} x {cols}, {runner}: "
                             f"C != A @ B")

    def measure() -> OracleRun:
        start = time.process_time()
        machine = Machine(graph, inputs)
        built = time.process_time()
        stepped = run(machine)
        done = time.process_time()
        check(stepped, "stepper")
        spent = [0.0]
        fast = FastMachine(machine, fire=timed_fire(spent))
        compiled = time.process_time()
        outcome = fast.run()
        finished = time.process_time()
        check(outcome, "compiled")
        if outcome != stepped:
            raise SystemExit(f"spatial_bench: GEMM {size} on {rows} x {cols}: the compiled "
                             f"runner {outcome.describe()}, the stepper {stepped.describe()}")
        return OracleRun(size, (rows, cols), len(machine.code), outcome.steps, outcome.fires,
                         built - start, done - built, compiled - done, finished - compiled,
                         spent[0])

    return best(repeat, measure)


def _per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def report_oracle(runs: list[OracleRun]) -> None:
    print("The token oracle on GEMMs, fastest run. The stepper (tokens.run, the reference):")
    print(f"{'GEMM':>6} {'mesh':>7} {'engines':>7} {'steps':>10} {'data moves':>10} "
          f"{'tile fires':>10} {'build s':>8} {'run s':>8} {'events/s':>10} {'moves/s':>10}")
    for r in runs:
        print(f"{r.size:>6} {r.mesh[0]:>3} x {r.mesh[1]:<2} {r.engines:>7} {r.steps:>10,} "
              f"{r.moves:>10,} {r.fires:>10,} {r.build:>8.3f} {r.seconds:>8.3f} "
              f"{_per_second(r.steps, r.seconds):>10,.0f} "
              f"{_per_second(r.moves, r.seconds):>10,.0f}")
    print()
    print("The compiled runner (fast.py, what eval_choreography runs) on the same Machines; "
          "numpy: the time inside ops.fire:")
    print(f"{'GEMM':>6} {'mesh':>7} {'compile s':>9} {'run s':>8} {'numpy s':>8} "
          f"{'events/s':>10} {'moves/s':>10} {'outside numpy':>13} {'vs stepper':>10}")
    for r in runs:
        print(f"{r.size:>6} {r.mesh[0]:>3} x {r.mesh[1]:<2} {r.compile:>9.3f} {r.fast:>8.3f} "
              f"{r.numpy:>8.3f} {_per_second(r.steps, r.fast):>10,.0f} "
              f"{_per_second(r.moves, r.fast):>10,.0f} "
              f"{_per_second(r.steps, r.fast - r.numpy):>13,.0f} "
              f"{_per_second(r.seconds, r.fast):>9.1f}x")
    print()
    for title, key in (("the same mesh, a larger GEMM (more tiles)", lambda r: r.mesh),
                       ("the same GEMM, a larger mesh", lambda r: r.size)):
        pairs = [(a, b) for b in runs if (a := _previous(runs, b, key)) is not None]
        for runner, seconds in (("stepper", lambda r: r.seconds),
                                ("compiled runner", lambda r: r.fast)):
            if pairs:
                print(f"Growth on {title}, {runner} (work = N^3 multiply-adds; run time "
                      f"against events, target <= {LINEAR_TARGET}):")
                for a, b in pairs:
                    print(_growth(a, b, seconds))
                print()


def _previous(runs: list[OracleRun], b: OracleRun, key) -> OracleRun | None:
    """The last run before `b` that shares its mesh (or its size)."""
    earlier = [a for a in runs[:runs.index(b)] if key(a) == key(b)]
    return earlier[-1] if earlier else None


def _growth(a: OracleRun, b: OracleRun, seconds) -> str:
    work = (b.size / a.size) ** 3
    events = b.steps / a.steps
    time_ratio = seconds(b) / seconds(a) if seconds(a) else float("inf")
    per_event = time_ratio / events
    verdict = "ok" if per_event <= LINEAR_TARGET else "MISSED"
    return (f"  {a.size:>4} on {a.mesh[0]}x{a.mesh[1]} -> {b.size:>4} on {b.mesh[0]}x"
            f"{b.mesh[1]}: work x{work:6.1f}, events x{events:6.1f} (per work x"
            f"{events / work:5.2f}), run time x{time_ratio:6.1f} = {per_event:5.2f} per event"
            f"  {verdict}")


# -- (2) the whole lane per reference program and target ---------------------------------------

@dataclass
class LaneRun:
    program: str
    target: str
    passes: float
    validation: float
    steps: int

    @property
    def total(self) -> float:
        return self.passes + self.validation


def computes_on(name: str, target_name: str) -> bool:
    """Whether the target has a rate for every type the program computes in (only wormhole
    computes the bf16 programs)."""
    graph = parse_spatial((EXAMPLES / f"{name}.sdf").read_text(encoding="utf-8"))
    return validate(graph, load_target(target_name)) == []


def lane_run(name: str, target_name: str, repeat: int) -> LaneRun:
    progress(f"{name} on {target_name}: the lane x{repeat}")
    text = (EXAMPLES / f"{name}.sdf").read_text(encoding="utf-8")
    target = load_target(target_name)
    with np.load(EXAMPLES / f"{name}.npz") as data:
        # numpy.savez writes a bf16 array as two-byte records
        given = {k: data[k].view(ml_dtypes.bfloat16) if data[k].dtype.kind == "V" else data[k]
                 for k in data.files}

    def measure() -> LaneRun:
        graph = parse_spatial(text, f"{name}.sdf")
        inputs = [given] + corpus(graph, 0, 1)
        ctx = SpatialContext(target)
        start = time.process_time()
        outcomes = [evaluate(graph, x) for x in inputs]
        checking = time.process_time() - start
        passing = 0.0
        for p in SPATIAL_PIPELINE:
            start = time.process_time()
            after = p(graph, ctx)
            middle = time.process_time()
            seen: list = []
            problem = check_rewrite(graph, after, target, inputs=inputs, reference=outcomes,
                                    seen=seen)
            passing += middle - start
            checking += time.process_time() - middle
            if problem is not None:
                raise SystemExit(f"spatial_bench: {name} on {target_name}: {p.name} changed "
                                 f"the meaning: {problem.describe()}")
            graph, outcomes = after, seen
        return LaneRun(name, target_name, passing, checking, outcomes[0].steps)

    return best(repeat, measure)


def report_lane(runs: list[LaneRun]) -> None:
    print("The lane per reference program and target (validation: the program as written "
          "and every rewrite, on 2 inputs), fastest run:")
    print(f"{'program':<10} {'target':<9} {'passes ms':>10} {'validation ms':>14} "
          f"{'total ms':>9} {'final steps':>12}")
    for r in runs:
        print(f"{r.program:<10} {r.target:<9} {r.passes * 1000:>10.1f} "
              f"{r.validation * 1000:>14.1f} {r.total * 1000:>9.1f} {r.steps:>12,}")
    passes = sum(r.passes for r in runs)
    checks = sum(r.validation for r in runs)
    print(f"{'all':<20} {passes * 1000:>10.1f} {checks * 1000:>14.1f} "
          f"{(passes + checks) * 1000:>9.1f}")
    print()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gemms", default=None,
                    help=f"SIZE:ROWSxCOLS items, the GEMMs and meshes (default {GEMMS})")
    ap.add_argument("--repeat", type=int, default=None,
                    help="runs per measurement; each reports its fastest (default 3, 1 with "
                         "--quick)")
    ap.add_argument("--quick", action="store_true",
                    help=f"a smoke run: GEMMs {QUICK_GEMMS}, the lane on "
                         f"{', '.join(QUICK_PROGRAMS)} and one target, one run each")
    args = ap.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    gemms = parse_gemms(args.gemms or (QUICK_GEMMS if args.quick else GEMMS))
    programs = QUICK_PROGRAMS if args.quick else sorted(p.stem for p in EXAMPLES.glob("*.sdf"))
    targets = ["wormhole"] if args.quick else known_targets()
    oracle = [oracle_run(size, rows, cols, repeat) for size, rows, cols in gemms]
    lane = [lane_run(name, t, repeat) for name in programs for t in targets
            if computes_on(name, t)]
    report_oracle(oracle)
    report_lane(lane)


if __name__ == "__main__":
    main()
