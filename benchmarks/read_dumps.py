"""How long the text-dump reader (nano_vx/dump/reader.py) takes to read an example's dumps back.

    python benchmarks/read_dumps.py [--repeat 3] [EXAMPLE.vx ...]

For each example (by default examples/tour.vx, examples/contracts.vx and
examples/spatial/attention.vx), its dumps after every pass are written to a temporary folder
(`--action check --dump-dir`), then read back with resume.read.read_dump, each dump once per
run. Printed: the number of dumps, the CPU time of this process for reading them all the
first time (the reader's caches of forms cold, what one command pays) and the fastest of
--repeat runs (CPU time, because on a shared machine wall time mostly measures the
neighbours), and the time per dump. Each dump must read back: a dump that does not is an
error here, not a time. The slow tests read the same dumps (tests/test_resume.py,
tests/dump/test_read_round_trip.py, tests/dump/test_read_examples.py); the times are
measured here because a timing assert in a test fails on a loaded machine and passes a slow
change on a fast one.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

from nano_vx.cli import main as nano_vx
from nano_vx.diagnostics import Diagnostics
from nano_vx.resume.read import read_dump

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("examples/tour.vx", "examples/contracts.vx", "examples/spatial/attention.vx")


def make_dumps(example: Path, into: Path) -> list[tuple[str, str]]:
    """(name, text) of the example's text dump after every pass."""
    code = nano_vx([str(example), "--action", "check", "--dump-dir", str(into)],
                   io.StringIO(), io.StringIO())
    if code != 0:
        raise SystemExit(f"{example}: nano-vx exited with {code}")
    return [(f.name, f.read_text()) for f in sorted(into.iterdir())]


def read_all(dumps) -> float:
    """The CPU seconds reading every dump takes."""
    start = time.process_time()
    for name, text in dumps:
        diagnostics = Diagnostics()
        if read_dump(text, name, diagnostics) is None:
            raise SystemExit(f"{name} does not read back: {diagnostics}")
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("examples", nargs="*", default=EXAMPLES)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    total = 0.0
    for example in args.examples:
        with tempfile.TemporaryDirectory() as tmp:
            dumps = make_dumps(ROOT / example, Path(tmp))
        first = read_all(dumps)
        best = min(read_all(dumps) for _ in range(args.repeat))
        total += best
        print(f"{example:34} {len(dumps):3} dumps  first {first:6.2f} s  best {best:6.2f} s"
              f"  ({1000 * best / len(dumps):5.1f} ms a dump)")
    print(f"{'all':34} best {total:6.2f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
