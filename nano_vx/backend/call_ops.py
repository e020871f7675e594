"""Calls in MLIR, on a FunctionBuilder: `print` (print_ops.py) and the math built-ins
(scalar_ops.py), unless the program has a function of that name; a function of the program,
one level deeper (FunctionBuilder.call); a launch, a func.call with its topology as an
attribute. `fns` are the program's functions by name."""

from __future__ import annotations

from ..values.math import MATH
from .machine_types import vx_type
from .print_ops import print_arg
from .scalar_ops import math_builtin


def call(b, e, fns: dict):
    """A call: its (ssa, Vx type), ("", "void") for none."""
    callee = e.callee.name
    if callee == "print" and callee not in fns:
        print_arg(b, e.args[0], fns)
        return "", "void"
    if callee in MATH and callee not in fns:
        return math_builtin(b, callee, [b.lower(a) for a in e.args])
    return _call_fn(b, fns, callee, tuple(b.lower(a)[0] for a in e.args), None)


def launch(b, e, fns: dict):
    """`launch k on T(args)`: the call of the kernel, with the topology it runs on."""
    return _call_fn(b, fns, e.kernel, tuple(b.lower(a)[0] for a in e.args), e.topo.name)


def _call_fn(b, fns: dict, callee: str, args: tuple, topology):
    ret = vx_type(fns[callee].ret)
    return b.call(callee, args, topology, ret), ret
