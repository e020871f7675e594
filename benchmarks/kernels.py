"""Kernels written in Vx against the same loops in C: run time and compile time.

    python benchmarks/kernels.py [--quick] [--runs N] [--json FILE]

For each kernel in benchmarks/kernels/ (matmul, stencil, reduction; and four that exercise
what native code gained later: particles, a struct passed and returned per element; generic,
a generic function at two types; dispatch, an enum made and matched per element; closure, a
closure called in the inner loop): the C file built with
`cc -O3 -march=native` and run; the Vx file compiled through nano-vx's API (the front and
back end's passes, then the native build: MLIR, LLVM at -O3 and MCJIT, timed apart) and run
natively in the forked child nano-vx runs every program in. Each program is compiled and run
--runs times (3; 1 with --quick) and its best times kept. A run is timed in wall time and in
CPU time (the child's user + system time); the target, Vx / C <= 1.25, is judged on CPU
time, because on a shared machine wall time also measures the neighbours. Both programs print
one integer checksum, which must be the same text: the exit status is 1 when one differs."""

from __future__ import annotations

import argparse
import io
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]  # nano_vx, uninstalled

from nano_vx.context import Compilation  # noqa: E402
from nano_vx.deep import run_deep  # noqa: E402
from nano_vx.diagnostics import Diagnostics  # noqa: E402
from nano_vx.driver import run_pipeline  # noqa: E402
from nano_vx.parser import decode_source  # noqa: E402
from nano_vx.pipeline import NATIVE  # noqa: E402

KERNELS = ("matmul", "stencil", "reduction", "particles", "generic", "dispatch", "closure")
KERNEL_DIR = HERE / "kernels"
C_FLAGS = ("-O3", "-march=native")
OPT_LEVEL = 3
TARGET_RATIO = 1.25
# The smallest program: compiling it first pays the one-time imports (MLIR, llvmlite) that
# would otherwise land on the first kernel; running it measures what a native run costs
# besides the program (the fork, the pipe, the child's start).
EMPTY = "fn main() {\n}\n"


class Refused(Exception):
    """A kernel nano-vx does not compile or run to its end, or C does not build or run: the
    diagnostics, to print instead of a table."""


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def children_cpu() -> float:
    """User + system seconds of this process's children that have been waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_of(runs: int, run) -> dict:
    """Call run() `runs` times; its output (the same every time) and the best wall and CPU
    seconds, each the minimum over the runs."""
    outputs, walls, cpus = set(), [], []
    for _ in range(runs):
        cpu, start = children_cpu(), time.perf_counter()
        outputs.add(run())
        walls.append(time.perf_counter() - start)
        cpus.append(children_cpu() - cpu)
    if len(outputs) != 1:
        raise AssertionError(f"the runs printed different outputs: {sorted(outputs)}")
    return {"output": outputs.pop(), "wall": min(walls), "cpu": min(cpus)}


def compile_vx(name: str, text: bytes) -> dict:
    """The program compiled to native code, with the seconds of its passes and of the native
    build (MLIR, LLVM -O3, MCJIT)."""
    from nano_vx.backend.jit import compile_native

    diagnostics = Diagnostics()
    start = time.perf_counter()
    source = decode_source(name, text, diagnostics)
    if source is None:
        raise Refused(diagnostics.render())
    ctx = Compilation(source, diagnostics)
    outcome = run_deep(run_pipeline, NATIVE, source, ctx)
    passes = time.perf_counter() - start
    if diagnostics.has_errors:  # E5010 included: what native code does not lower
        raise Refused(diagnostics.render())
    native = compile_native(outcome.tree, OPT_LEVEL)
    return {"native": native, "passes": passes, "build": time.perf_counter() - passes - start}


def run_vx(native) -> str:
    from nano_vx.backend.jit import run_compiled
    from nano_vx.values.stops import RuntimeStop

    out = io.StringIO()
    try:
        run_compiled(native, out)
    except RuntimeStop as stop:
        raise Refused(stop.to_diagnostic().render()) from stop
    return out.getvalue()


def build_c(cc: str, source: Path, directory: Path) -> Path:
    exe = directory / source.stem
    built = subprocess.run([cc, *C_FLAGS, str(source), "-o", str(exe)], capture_output=True,
                           text=True)
    if built.returncode != 0:
        raise Refused(f"{cc} {' '.join(C_FLAGS)} {source} failed:\n{built.stderr}")
    return exe


def run_c(exe: Path) -> str:
    done = subprocess.run([str(exe)], capture_output=True, text=True)
    if done.returncode != 0:
        raise Refused(f"{exe.name} exited with status {done.returncode}:\n{done.stderr}")
    return done.stdout


def bench_kernel(name: str, runs: int, cc: str | None, directory: Path) -> dict:
    path = KERNEL_DIR / f"{name}.vx"
    progress(f"{name}: compiling {path.name}, {runs} time(s)")
    builds = [compile_vx(str(path), path.read_bytes()) for _ in range(runs)]
    progress(f"{name}: running it natively, {runs} run(s)")
    vx = best_of(runs, lambda: run_vx(builds[-1]["native"]))
    row = {"kernel": name, "passes_ms": 1000 * min(b["passes"] for b in builds),
           "build_ms": 1000 * min(b["build"] for b in builds), "vx_wall_s": vx["wall"],
           "vx_cpu_s": vx["cpu"], "vx_output": vx["output"].strip()}
    if cc is not None:
        progress(f"{name}: building {name}.c with {cc} {' '.join(C_FLAGS)}, {runs} run(s)")
        exe = build_c(cc, KERNEL_DIR / f"{name}.c", directory)
        c = best_of(runs, lambda: run_c(exe))
        row.update(c_wall_s=c["wall"], c_cpu_s=c["cpu"], c_output=c["output"].strip(),
                   ratio_wall=vx["wall"] / c["wall"], ratio_cpu=vx["cpu"] / c["cpu"],
                   outputs_equal=vx["output"] == c["output"])
    return row


def report(rows: list[dict], overhead: dict, has_c: bool) -> None:
    print(f"Vx at -O{OPT_LEVEL} (nano-vx, MCJIT) against C ({' '.join(C_FLAGS)}); times are "
          f"the best of the runs; run times in wall seconds (cpu seconds)")
    header = f"{'kernel':<10} {'passes ms':>9} {'native ms':>9} {'Vx run s':>16}"
    if has_c:
        header += f" {'C run s':>16} {'Vx/C':>13} {'target':>8}  outputs"
    print(header)
    for r in rows:
        vx = f"{r['vx_wall_s']:.3f} ({r['vx_cpu_s']:.3f})"
        line = f"{r['kernel']:<10} {r['passes_ms']:>9.0f} {r['build_ms']:>9.0f} {vx:>16}"
        if has_c:
            c = f"{r['c_wall_s']:.3f} ({r['c_cpu_s']:.3f})"
            ratio = f"{r['ratio_wall']:.2f} ({r['ratio_cpu']:.2f})"
            verdict = "ok" if r["ratio_cpu"] <= TARGET_RATIO else "MISSED"
            same = "equal" if r["outputs_equal"] else \
                f"DIFFER: Vx {r['vx_output']!r}, C {r['c_output']!r}"
            line += f" {c:>16} {ratio:>13} {verdict:>8}  {same}"
        print(line)
    print(f"target: Vx/C <= {TARGET_RATIO} in cpu time. A native run of an empty program takes "
          f"{1000 * overhead['wall']:.1f} ms wall, {1000 * overhead['cpu']:.1f} ms cpu in the "
          f"child (fork, pipe, start): included above, not subtracted. The first compile, "
          f"which imports MLIR and llvmlite, took {1000 * overhead['first']:.0f} ms.",
          flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run of each program, not 3")
    parser.add_argument("--runs", type=int, default=None, help="runs of each program (3)")
    parser.add_argument("--json", metavar="FILE", help="also write the results to FILE")
    args = parser.parse_args(argv)
    runs = args.runs or (1 if args.quick else 3)
    if runs < 1:
        parser.error("--runs must be at least 1")
    cc = shutil.which("cc")
    if cc is None:
        progress("no `cc` on PATH: the C side is skipped, only Vx is timed")
    try:
        start = time.perf_counter()
        empty = compile_vx("empty.vx", EMPTY.encode())
        overhead = {"first": time.perf_counter() - start,
                    **best_of(max(runs, 3), lambda: run_vx(empty["native"]))}
        with tempfile.TemporaryDirectory(prefix="vx-kernels-") as tmp:
            rows = [bench_kernel(name, runs, cc, Path(tmp)) for name in KERNELS]
    except Refused as refused:
        print(refused, file=sys.stderr)
        return 1
    report(rows, overhead, cc is not None)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"opt_level": OPT_LEVEL, "c_compiler": cc, "c_flags": list(C_FLAGS), "runs": runs,
             "target_ratio": TARGET_RATIO, "empty_run": overhead, "kernels": rows},
            indent=2) + "\n")
    return 0 if all(r.get("outputs_equal", True) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
