"""Calls in MLIR, on a FunctionBuilder: `print` (print_ops.py) and the math built-ins
(scalar_ops.py), unless the program has a function of that name; a function of the program,
one level deeper (FunctionBuilder.call, which writes the new depth only for a callee that
reads it: one that calls); a launch, a func.call with its topology as an
attribute. `fns` are the program's functions by name."""

from __future__ import annotations

from ..nanopass import descendants
from ..values.math import MATH
from .machine_types import vx_type
from .print_ops import print_arg
from .scalar_ops import math_builtin


def call(b, e, fns: dict, leaves: frozenset):
    """A call: its (ssa, Vx type), ("", "void") for none."""
    callee = e.callee.name
    if callee == "print" and callee not in fns:
        print_arg(b, e.args[0], fns)
        return "", "void"
    if callee in MATH and callee not in fns:
        return math_builtin(b, callee, [b.lower(a) for a in e.args])
    return _call_fn(b, fns, leaves, callee, tuple(b.lower(a)[0] for a in e.args), None)


def launch(b, e, fns: dict, leaves: frozenset):
    """`launch k on T(args)`: the call of the kernel, with the topology it runs on."""
    return _call_fn(b, fns, leaves, e.kernel, tuple(b.lower(a)[0] for a in e.args),
                    e.topo.name)


def _call_fn(b, fns: dict, leaves: frozenset, callee: str, args: tuple, topology):
    ret = vx_type(fns[callee].ret)
    return b.call(callee, args, topology, ret, callee in leaves), ret


def leaf_functions(fns: dict) -> frozenset:
    """The functions that call no function of the program and launch nothing: one level
    deeper than its caller, such a function reads the depth of calls nowhere, so its call
    need not write it (and a loop calling it, inlined, keeps no store that stops LLVM from
    vectorizing it)."""
    def calls(n):
        return n._prod == "Launch" or n._prod == "Call" and n.callee._prod == "Global" and \
            n.callee.name in fns
    return frozenset(name for name, fn in fns.items() if not any(map(calls, descendants(fn))))
