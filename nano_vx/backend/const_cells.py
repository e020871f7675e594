"""A constant whose value calls a function, or that holds a tensor, in native code:
computed at its first read, as the interpreter computes it (the call prints once, whichever
read comes first), and kept in a memref.global that the reads after load (a tensor's holds
its buffer, which every read then shares, as the interpreter's reads share it). A second
global says whether the value is not computed yet, being computed or computed: a read
while it is being computed is the constant depending on itself, which the interpreter
stops on (E9006). A constant split-computed-constants split into parts has one such state
and a global per part, which the first read of any part fills by calling the constant's
function with a reference to each; a tensor part's buffer, which no reference gives back,
is the function's result, stored into its global; a tensor part given to the function (the
written-flags flag-uninit-constants keeps of a tensor constant, which the function writes)
is a new buffer, zeroed, stored into its global before the call."""

from __future__ import annotations

from .machine_types import Ref, Tensor, cell_type, mtype
from .runtime_abi import CONST_STATE_TYPE as STATE_TYPE
from .tensor_ops import allocate

COMPUTING, DONE = 1, 2  # the state global starts at 0: not computed yet


def read_once(b, name: str, t, compute):
    """The value of the constant `name` of Vx scalar or vector type t; compute() lowers its
    value (ssa, Vx type) in the block open when the state says it is the first read."""
    return _once(b, name, [(name, t)], 0, lambda cells: compute(), stores=True)


def read_part(b, name: str, parts: list, k: int, fill: str, returns: bool):
    """Part k of the constant `name`, whose parts are (global's name, Vx type) in order; its
    first read, of any part, calls the function `fill` with a reference to each part's
    global but the last when fill `returns` it (a tensor), as deep in calls as the
    interpreter's read of the whole constant computes it; a tensor part given, a new
    buffer kept in its global."""
    def given_place(cell, t):
        if not isinstance(t, Tensor):
            return b.op("Cast", cell, Ref(t).cell, Ref(t).mtype)
        buffer = allocate(b, t, f"the constant '{name}'")
        b.store(buffer, cell, (), cell_type(t), t)
        return buffer

    def compute(cells):
        given = cells[:-1] if returns else cells
        places = tuple(given_place(cell, t) for cell, t in given)
        results = (b.arg(mtype(cells[-1][1])),) if returns else ()
        b.emit("Call", results, fill, places, None)
        if returns:
            b.store(results[0].name, cells[-1][0], (), cell_type(cells[-1][1]), cells[-1][1])
        return b.load(cells[k][0], (), cell_type(cells[k][1]), cells[k][1]), cells[k][1]

    return _once(b, name, parts, k, compute, stores=False)


def _once(b, name: str, parts: list, k: int, compute, stores: bool):
    """Part k of the constant `name` whose parts' globals are (name, Vx type): loaded when
    the constant's state says it is computed, else compute(cells)'s value, which is stored
    into part k's global when `stores`."""
    state = b.op("GetGlobal", b.module.const_state(name), STATE_TYPE)
    cells = [(b.op("GetGlobal", b.module.const_value(part, t), cell_type(t)), t)
             for part, t in parts]
    now = b.op("Load", state, (), STATE_TYPE)
    done = b.op("Compare", "cmpi", "eq", now, b.const(DONE, "i8"), "i8")
    cell, t = cells[k]

    def first():
        fresh = b.op("Compare", "cmpi", "ne", now, b.const(COMPUTING, "i8"), "i8")
        # A part computed apart (split-computed-constants' `C$b`) is the constant C's own:
        # only C's computation reads it again before it is computed.
        b.check(fresh, "E9006", f"the constant '{name.partition('$')[0]}' depends on itself")
        b.emit("Store", b.const(COMPUTING, "i8"), state, (), STATE_TYPE)
        value, _ = compute(cells)
        if stores:
            b.store(value, cell, (), cell_type(t), t)
        b.emit("Store", b.const(DONE, "i8"), state, (), STATE_TYPE)
        return value, t

    return b.choose(done, lambda: (b.load(cell, (), cell_type(t), t), t), first, b.span)
