"""Calls in MLIR, on a FunctionBuilder, as explicate-calls said what each calls: `print`
(print_ops.py) and the math built-ins (scalar_ops.py), functions of the runtime; a function
of the program, one level deeper (FunctionBuilder.call, which writes the new depth only for a
callee that nests calls); a launch, a func.call with its topology as an attribute. `fns` are
the program's functions by name."""

from __future__ import annotations

from .machine_types import vx_type
from .print_ops import print_arg
from .scalar_ops import math_builtin


def builtin(b, e, fns: dict):
    """A call of the runtime: its (ssa, Vx type), ("", "void") for none."""
    if e.name == "print":
        print_arg(b, e.args[0], fns)
        return "", "void"
    return math_builtin(b, e.name, [b.lower(a) for a in e.args])


def call(b, e, fns: dict):
    """A call of a function of the program, or its launch with the topology it runs on."""
    ret = vx_type(fns[e.callee].ret)
    args = tuple(v for v, t in map(b.lower, e.args) if t != "void")  # () is no operand
    topology = e.launch.name if e.launch is not None else None
    return b.call(e.callee, args, topology, ret, not e.nests), ret
