"""The MLIR and the LLVM IR of every example that compiles, as snapshots: a change to the back
end shows here as a diff of the code it emits. The LLVM IR is -O0's (what MLIR's translation
gives, before optimization), without the two lines that name the host (datalayout, triple),
so that the snapshot is the same on every x86-64 or Arm machine."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from nano_vx.cli import main
from test_examples import PROMISES

# Slow (the whole suite's, not the inner loop's): the back end's code for every example; each
# back-end pass has its own snapshots in the inner loop.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# Each example once, with the command line of its first promise that runs native code (one
# that promises only `--action interpret` has none: native code does not lower it yet). The
# Vx kernels of examples/spatial/ are the spatial lane's: their snapshots are the graphs
# from-vx reads them as (tests/spatial/test_from_vx.py), not host code.
COMPILED = {}
for promise in PROMISES:
    if promise.prints is not None and "interpret" not in promise.args \
            and not promise.example.startswith("spatial/") and promise.example not in COMPILED:
        COMPILED[promise.example] = promise.args
NAMES = sorted(COMPILED)


def _emit(example: str, *action: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(ROOT / "examples" / example), *COMPILED[example], *action],
                stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("example", NAMES)
def test_mlir(example, snapshot_txt):
    assert _emit(example, "--action", "emit-mlir") == snapshot_txt


@pytest.mark.parametrize("example", NAMES)
def test_llvm_ir(example, snapshot_txt):
    text = _emit(example, "--action", "emit-llvm", "-O0")
    lines = [line for line in text.splitlines(keepends=True)
             if not line.startswith(("target datalayout", "target triple"))]
    assert "".join(lines) == snapshot_txt
