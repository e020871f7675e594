"""A constant whose value calls a function, in native code: computed at its first read, as
the interpreter computes it (the call prints once, whichever read comes first), and kept in
a memref.global that the reads after load. A second global says whether the value is not
computed yet, being computed or computed: a read while it is being computed is the
constant depending on itself, which the interpreter stops on (E9006)."""

from __future__ import annotations

from .machine_types import cell_type
from .runtime_abi import CONST_STATE_TYPE as STATE_TYPE

COMPUTING, DONE = 1, 2  # the state global starts at 0: not computed yet


def read_once(b, name: str, t: str, compute):
    """The value of the constant `name` of Vx scalar type t; compute() lowers its value
    (ssa, Vx type) in the block open when the state says it is the first read."""
    state_name, value_name = b.module.const_cells(name, t)
    state = b.op("GetGlobal", state_name, STATE_TYPE)
    cell = b.op("GetGlobal", value_name, cell_type(t))
    now = b.op("Load", state, (), STATE_TYPE)
    done = b.op("Compare", "cmpi", "eq", now, b.const(DONE, "i8"), "i8")

    def first():
        fresh = b.op("Compare", "cmpi", "ne", now, b.const(COMPUTING, "i8"), "i8")
        b.check(fresh, "E9006", f"the constant '{name}' depends on itself")
        b.emit("Store", b.const(COMPUTING, "i8"), state, (), STATE_TYPE)
        value, _ = compute()
        b.store(value, cell, (), cell_type(t), t)
        b.emit("Store", b.const(DONE, "i8"), state, (), STATE_TYPE)
        return value, t

    return b.choose(done, lambda: (b.load(cell, (), cell_type(t), t), t), first, b.span)
