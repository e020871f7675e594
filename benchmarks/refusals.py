"""How long the compiler takes to say no to input built to make it work without end.

    python benchmarks/refusals.py [--repeat 3]

Each case is a hostile input of issue 30 or of the parser's limits; the compiler must answer
with the code in the table by counting or by a limit, never by doing the work the input asks
for. Printed: the case, the code it got, and the CPU time of this process for the answer: the first
run (imports and caches included, what one command pays) and the fastest of --repeat runs (CPU
time, because on a shared machine wall time mostly measures the neighbours). The target is
under a second each, first run included. The tests check the verdicts (tests/spatial/test_bounds.py,
tests/parser/test_parser_limits.py, tests/test_hostile_inputs2.py); the times are measured here
because a timing assert in a test fails on a loaded machine and passes a slow change on a fast
one.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from pathlib import Path

from nano_vx.cli import main as nano_vx
from nano_vx.parser import parse_text

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 1.0

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
    compute mm matmul_acc(a x99999999, b x99999999) -> c
    store store_c c -> C
}
"""


def parens() -> list[str]:
    """5,000 nested parentheses: E1003 at the nesting limit."""
    _, diagnostics = parse_text("fn main() { let x = " + "(" * 4999 + "1" + ")" * 4999 + "; }")
    return diagnostics.codes()


def command(name: str, text: str, *argv: str) -> list[str]:
    """The codes `nano-vx ARGV FILE` reports (JSON mode) for `text` written to FILE."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(text)
        err = io.StringIO()
        nano_vx([*argv[:1], str(path), *argv[1:], "--error-format=json"],
                stdout=io.StringIO(), stderr=err)
    said = err.getvalue()
    return [d["code"] for d in json.loads(said)["diagnostics"]] if said else []


def huge_rate() -> list[str]:
    """A matmul stage at rate 99,999,999: E7063 with the figures, before any pass runs."""
    return command("p.sdf", GEMM, "spatial", "--target", "wormhole")


def long_kernel() -> list[str]:
    """A 256^3 matmul kernel in Vx: E7063 before the reference interpreter checks from-vx."""
    gemm = (ROOT / "examples" / "spatial" / "gemm.vx").read_text()
    big = gemm.replace("64", "256").replace("r * 16..(r + 1) * 16", "r * 64..(r + 1) * 64")
    big = big.replace("jt * 16..(jt + 1) * 16", "jt * 64..(jt + 1) * 64")
    return command("gemm.vx", big, "spatial", "--target", "wormhole")


def constant_chain() -> list[str]:
    """60 constants, each naming the one before three times (3^60 reads if evaluated
    naively): checked, no code."""
    lines = ["const K0: i64 = 1;"]
    lines += [f"const K{i}: i64 = K{i - 1} + K{i - 1} - K{i - 1};" for i in range(1, 60)]
    return command("chain.vx", "\n".join(lines) + "\nfn main() {\n    print(K59);\n}\n",
                   "--action=check")


CASES = [
    ("5,000 nested parentheses", parens, ["E1003"]),
    ("spatial matmul at rate 99,999,999", huge_rate, ["E7063"]),
    ("Vx kernel of 256^3 element operations", long_kernel, ["E7063"]),
    ("chain of 60 constants (3^60 naive reads)", constant_chain, []),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'case':44} {'codes':10} {'first s':>8} {'best s':>8}")
    slow = wrong = 0
    for name, case, expected in CASES:
        times = []
        for _ in range(max(1, args.repeat)):
            start = time.process_time()
            codes = case()
            times.append(time.process_time() - start)
        wrong += codes != expected
        slow += times[0] >= TARGET_SECONDS
        mark = "" if codes == expected else f"  WRONG: expected {expected or 'none'}"
        mark += "  SLOW" if times[0] >= TARGET_SECONDS else ""
        print(f"{name:44} {','.join(codes) or '-':10} {times[0]:8.3f} {min(times):8.3f}{mark}")
    return 1 if wrong or slow else 0


if __name__ == "__main__":
    sys.exit(main())
