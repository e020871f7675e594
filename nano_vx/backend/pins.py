"""The pins `try_pin` takes, in native code: one memref.global per topology kind counting the
pins held, as the interpreter's occupancy counts them (oracle/typestates.py), so a run takes
the same arms in both."""

from __future__ import annotations

from . import runtime_abi

_COUNT = runtime_abi.PINS_TYPE


def take_pin(b, topo: str, replicas: int) -> str:
    """Whether a pin of `topo` was free (fewer than `replicas` held): an i1, and the count
    one higher when it was."""
    cell = b.op("GetGlobal", b.module.pins(topo), _COUNT)
    held = b.op("Load", cell, (), _COUNT)
    took = b.op("Compare", "cmpi", "slt", held, b.const(replicas, "i64"), "i64")
    one_more = b.op("Convert", "arith.extui", took, "i1", "i64")
    b.emit("Store", b.op("Arith", "addi", held, one_more, "i64"), cell, (), _COUNT)
    return took


def release_pin(b, topo: str) -> None:
    cell = b.op("GetGlobal", b.module.pins(topo), _COUNT)
    held = b.op("Load", cell, (), _COUNT)
    b.emit("Store", b.op("Arith", "subi", held, b.const(1, "i64"), "i64"), cell, (), _COUNT)
