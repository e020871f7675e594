"""Throughput of the front end and the back end's passes on generated programs of growing size.

    python benchmarks/bench.py [--sizes 1000,10000,100000] [--seed 0] [--no-memory] [--repeat 3]
                               [--only table,within,function,comptime,nesting,help]

For each size: parse rate in lines/s, then every later pass of `nano_vx.pipeline.NATIVE` in
IR nodes/s (nodes of the tree the pass reads), seconds, and peak memory. Timing and memory
are separate runs, because tracemalloc slows allocation-heavy code several times over and
would distort the rates. Then how each step scales from one size to the next; inputs grown
tenfold that once took super-linear time (a `within:` chain, one function of 2,000 and 20,000
statements beside a tensor function of the shapes that once made a pass quadratic, a
comptime loop, an `else if` chain, nested `unroll across`); and the start-up time of
`nano-vx --help`. Every figure is printed beside its target.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the generator, and nano_vx uninstalled

from generate import HEADER, function, generate, tensor_function  # noqa: E402

from nano_vx.context import Compilation  # noqa: E402
from nano_vx.deep import run_deep  # noqa: E402
from nano_vx.driver import paused_collector  # noqa: E402
from nano_vx.nanopass import descendants  # noqa: E402
from nano_vx.pipeline import NATIVE  # noqa: E402
from nano_vx.source import Source  # noqa: E402

PARSE_TARGET = 3_000  # lines/s
PASS_TARGET = 500_000  # nodes/s
LINEAR_TARGET = 1.1  # time may grow at most 1.1x faster than the input
HELP_TARGET_MS = 150
PARTS = ("table", "within", "function", "comptime", "nesting", "help")


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def count_nodes(tree) -> int:
    return sum(1 for _ in descendants(tree))


def run_pipeline(text: str, name: str, measure_memory: bool) -> list[dict]:
    """Run every pass once; per step: the work it read, seconds, and (optionally) peak bytes."""
    source = Source(name, text)
    ctx = Compilation(source)
    with paused_collector():  # as the driver runs the pipeline
        return _steps(source, ctx, measure_memory)


def _steps(source: Source, ctx: Compilation, measure_memory: bool) -> list[dict]:
    tree, steps = source, []
    for i, p in enumerate(NATIVE):
        progress(f"  {p.name} ...")
        if measure_memory:
            tracemalloc.start()
        # CPU time of this process: on a shared 2-core machine wall time mostly measures the
        # neighbours (the `--help` start-up below is wall time: it is a whole process).
        start = time.process_time()
        out = p(tree, ctx)
        seconds = time.process_time() - start
        peak = None
        if measure_memory:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        # Counted after the pass, as the driver times it: a count just before would bring a
        # small tree into the caches for the pass, and freeing its input (`tree = out`) is
        # no work of the pass's. The count is a bare walk of the tree the pass read, timed
        # as the floor of what a walk of that tree costs on this machine.
        start = time.process_time()
        work = len(source.line_starts) if i == 0 else count_nodes(tree)
        walk = None if i == 0 else time.process_time() - start
        steps.append({"name": p.name, "work": work, "seconds": seconds, "peak": peak,
                      "walk": walk})
        tree = out
    if ctx.diagnostics.has_errors:
        progress(f"  note: the generated program has diagnostics: {ctx.diagnostics.codes()[:5]}")
    return steps


def help_ms(repeats: int = 5) -> float:
    """Best-of-N wall time of `nano-vx --help`, the start-up a user feels on every call."""
    exe = Path(sys.executable).with_name("nano-vx")
    # Uninstalled, run what the console script runs (nano_vx.cli has no `__main__` guard).
    command = [str(exe)] if exe.exists() else [
        sys.executable, "-c", "import sys; from nano_vx.cli import main; sys.exit(main())"]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run([*command, "--help"], check=True, capture_output=True,
                              text=True, cwd=HERE.parent)
        best = min(best, time.perf_counter() - start)
    assert "usage" in done.stdout, "`nano-vx --help` printed no usage"
    return best * 1000


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(sizes: list[int], results: dict[int, list[dict]]) -> None:
    print(f"{'lines':>8}  {'step':<26} {'rate':>16}  {'target':>14}  {'seconds':>8}  "
          f"{'peak MiB':>8}")
    for size in sizes:
        for i, s in enumerate(results[size]):
            rate = s["work"] / s["seconds"] if s["seconds"] else float("inf")
            unit, target = ("lines/s", PARSE_TARGET) if i == 0 else ("nodes/s", PASS_TARGET)
            peak = "-" if s["peak"] is None else f"{s['peak'] / 2**20:.1f}"
            print(f"{size:>8}  {s['name']:<26} {rate:>10,.0f} {unit}  >= {target:>8,} "
                  f"{verdict(rate >= target):<6} {s['seconds']:>7.3f}  {peak:>8}")
        print()
    for small, big in zip(sizes, sizes[1:]):
        print(f"scaling {small} -> {big} lines (time ratio / input ratio, target <= "
              f"{LINEAR_TARGET}):")
        for a, b in zip(results[small], results[big]):
            grow = b["work"] / a["work"]
            ratio = b["seconds"] / a["seconds"] if a["seconds"] else float("inf")
            print(f"  {a['name']:<26} time x{ratio:6.2f} for input x{grow:6.2f}  "
                  f"= {ratio / grow:5.2f}  {verdict(ratio / grow <= LINEAR_TARGET)}")
        print()


def tenfold_growth(title: str, unit: str, make, n: int, repeat: int) -> None:
    """The pipeline on `make(n)` and `make(10 n)`: each pass may take at most ten times as
    long on the larger input (steps under 50 ms there are not judged), and so may all of them
    together."""
    best = []
    for size in (n, 10 * n):
        progress(f"{title} of {size:,} {unit}, {repeat} runs")
        text = make(size)
        runs = [run_deep(run_pipeline, text, f"{unit}-{size}.vx", False) for _ in range(repeat)]
        best.append([min(step, key=lambda s: s["seconds"]) for step in zip(*runs)])
    print(f"{title} of {n:,} -> {10 * n:,} {unit} (time ratio, target <= "
          f"{10 * LINEAR_TARGET:g}; steps under 50 ms on the larger are not judged; `walk`: "
          f"how a bare walk of the tree the step read grew, and `nodes`, the tree):")
    for a, b in zip(*best):
        ratio = b["seconds"] / a["seconds"] if a["seconds"] else float("inf")
        judged = verdict(ratio <= 10 * LINEAR_TARGET) if b["seconds"] >= 0.05 else "-"
        print(f"  {a['name']:<26} {a['seconds'] * 1000:9.1f} ms -> {b['seconds'] * 1000:9.1f} ms"
              f"  x{ratio:6.2f}  {judged:<6} {_grown(a, b)}")
    total = [sum(s["seconds"] for s in steps) for steps in best]
    print(f"  {'all passes':<26} {total[0] * 1000:9.1f} ms -> {total[1] * 1000:9.1f} ms"
          f"  x{total[1] / total[0]:6.2f}  {verdict(total[1] <= 10 * LINEAR_TARGET * total[0])}")
    walks = [sum(s["walk"] or 0 for s in steps) for steps in best]
    print(f"  {'bare walks of those trees':<26} {walks[0] * 1000:9.1f} ms -> "
          f"{walks[1] * 1000:9.1f} ms  x{walks[1] / walks[0]:6.2f}  (the machine's floor: "
          f"a larger tree leaves the caches)")
    print()


def _grown(a: dict, b: dict) -> str:
    if a["walk"] is None:
        return ""
    walk = b["walk"] / a["walk"] if a["walk"] else float("inf")
    return f"walk x{walk:5.2f}  nodes x{b['work'] / a['work']:5.2f}"


def within_chain(spaces: int) -> str:
    """A `within:` chain of memory spaces, each inside the one before (every third sized, so
    each is compared with a sized ancestor), and a transfer into the innermost."""
    lines = ["Memory W0 { within: Memory::GPU_HBM, capacity: 1 GiB, scope: sm }"]
    lines += [f"Memory W{i} {{ within: Memory::W{i - 1}"
              f"{', capacity: 1 MiB' if i % 3 == 0 else ''} }}" for i in range(1, spaces)]
    lines.append(f"fn main() {{ let t = Tensor<i32, [4]>::new(); "
                 f"let w = transfer(t, Memory::W{spaces - 1}); }}")
    return "\n".join(lines) + "\n"


def one_function(statements: int, seed: int = 0) -> str:
    """One function of `statements` generated statements (the generator's mix: lets, loops,
    branches, tensors, transfers, spawns), a tensor function of a tenth as many turns of the
    shapes that once took quadratic time (loops over one `i` reading a tile, a chain of
    aliases, early returns), and a `main` that calls both: every pass is meant to be linear
    or n log n in the size of one function, not only of the program."""
    lines = HEADER.format(lines=statements, seed=seed).splitlines() + [""]
    lines[0] = f"// Generated by benchmarks/bench.py: one function of {statements} statements."
    lines += function(random.Random(seed), 0, statements)
    lines += tensor_function(0, statements // 10)
    lines += ["fn main() -> i32 {", "  print(f_0(1, 2));", "  let g = g_0(3);", "  print(g[0]);",
              "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def comptime_loop_growth(repeat: int) -> None:
    """A comptime loop of n and of 10 n iterations (10 n: the evaluator's whole budget of
    steps): desugar-comptime, which runs them, may take at most ten times as long on the
    longer one. Then a loop of 2^31 - 1 iterations: how long E8005 takes to arrive."""
    from nano_vx.comptime.budget import MAX_STEPS

    def program(loop: str) -> str:
        return (f"fn main() {{\n  let v = comptime {{\n    let mut s = 0;\n    {loop} {{\n"
                f"      s = (s + i) % 7;\n    }}\n    s\n  }};\n  print(v);\n}}\n")

    def best(loop: str, name: str) -> float:
        progress(f"comptime loop `{loop}`, {repeat} runs")
        runs = [run_deep(run_pipeline, program(loop), name, False) for _ in range(repeat)]
        return min(s["seconds"] for run in runs for s in run if s["name"] == "desugar-comptime")

    n = MAX_STEPS // 10
    short, long = (best(f"for i in 0..{k}", f"comptime-{k}.vx") for k in (n, 10 * n))
    endless = best("for i in 0..2147483647", "comptime-endless.vx")
    ratio = long / short
    print(f"comptime loop of {n:,} -> {10 * n:,} iterations (desugar-comptime, time ratio, "
          f"target <= {10 * LINEAR_TARGET:g}):")
    print(f"  {short * 1000:9.1f} ms -> {long * 1000:9.1f} ms  x{ratio:6.2f}  "
          f"{verdict(ratio <= 10 * LINEAR_TARGET)}  ({long / (10 * n) * 1e6:.2f} µs per "
          f"iteration; E8005 for the loop of 2^31 - 1 after {endless:.2f} s)")
    print()


def nesting_growth(repeat: int) -> None:
    """Inputs that once took super-linear time: an `else if` chain of 2,000 and 20,000 links
    (refused with E1003 past 256, in time linear in the text), and nested `unroll across`
    making 400 and 4,000 copies (admitted): the whole pipeline may take at most ten times as
    long on the larger."""
    def chain(links: int) -> str:
        arms = "".join(f" else if x == {i} {{ print({i}); }}" for i in range(1, links))
        return f"fn main() {{ let x = 1; if x == 0 {{ print(0); }}{arms} }}\n"

    def nest(copies: int) -> str:
        return ("fn main() {\n  unroll across(Topology::NPU[0..20]) { |i|\n"
                f"    unroll across(Topology::NPU[0..{copies // 20}]) {{ |j|\n"
                "      let t = Tensor<i32, [4]>::fill(1);\n    }\n  }\n}\n")

    for title, make, small, large in (("`else if` chain, links", chain, 2_000, 20_000),
                                      ("nested `unroll across`, copies", nest, 400, 4_000)):
        totals = []
        for size in (small, large):
            progress(f"{title} of {size:,}, {repeat} runs")
            text = make(size)
            runs = [run_deep(run_pipeline, text, "nesting.vx", False) for _ in range(repeat)]
            totals.append(min(sum(s["seconds"] for s in run) for run in runs))
        ratio = totals[1] / totals[0]
        print(f"{title} of {small:,} -> {large:,} (whole pipeline, time ratio, target <= "
              f"{10 * LINEAR_TARGET:g}): {totals[0] * 1000:.1f} ms -> {totals[1] * 1000:.1f} ms"
              f"  x{ratio:.2f}  {verdict(ratio <= 10 * LINEAR_TARGET)}")
    print()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000",
                    help="comma-separated line counts (default 1000,10000,100000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    ap.add_argument("--repeat", type=int, default=3,
                    help="timing runs per size; each step reports its fastest (default 3: one "
                         "run on a shared machine can be a third slower than the next)")
    ap.add_argument("--only", default=",".join(PARTS),
                    help="comma-separated parts to run, of " + ", ".join(PARTS) +
                         " (default all): a re-measured row need not wait for the rest")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    if only - set(PARTS):
        ap.error(f"--only: no part {', '.join(sorted(only - set(PARTS)))}")
    if "table" in only:
        table(args)
    if "within" in only:
        tenfold_growth("within: chain", "spaces", within_chain, 1_000, args.repeat)
    if "function" in only:
        tenfold_growth("one function", "statements", one_function, 2_000, args.repeat)
    if "comptime" in only:
        comptime_loop_growth(args.repeat)
    if "nesting" in only:
        nesting_growth(args.repeat)
    if "help" in only:
        ms = help_ms()
        print(f"nano-vx --help: {ms:.0f} ms best of 5 (target <= {HELP_TARGET_MS} ms) "
              f"{verdict(ms <= HELP_TARGET_MS)}")


def table(args) -> None:
    """Every pass on generated programs of each size, and how each scales to the next."""
    sizes = [int(s) for s in args.sizes.split(",")]
    results = {}
    for size in sizes:
        text = generate(size, args.seed)
        name = f"generated-{size}.vx"
        runs = []
        for i in range(args.repeat):
            progress(f"{size} lines: timing, run {i + 1} of {args.repeat}")
            runs.append(run_deep(run_pipeline, text, name, False))
        results[size] = [min(step, key=lambda s: s["seconds"]) for step in zip(*runs)]
        if not args.no_memory:
            progress(f"{size} lines: peak memory")
            peaks = run_deep(run_pipeline, text, name, True)
            for step, measured in zip(results[size], peaks):
                step["peak"] = measured["peak"]
    report(sizes, results)


if __name__ == "__main__":
    main()
