"""call-functions-by-name: Lconstparts -> Lconstparts.

Same IL: a call through a variable that only ever names one function calls what the call of
that function by its name calls, and naming a function computes nothing, so the interpreter
runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass
from ..scalars.closures import only_called


@dataclass
class State:
    fns: frozenset = frozenset()  # the program's functions
    named: dict = field(default_factory=dict)  # each local standing for a function -> it


call_functions_by_name = Pass("call-functions-by-name", L, L, """
Make each call through a variable a `let` binds to a function, which nothing assigns and
which is only called, the call of that function by its name, and drop the `let`: `let f =
spare; f(c)` is `spare(c)`, which scalarize-aggregates takes apart as any call by name.

A function used as a value otherwise (chosen by an `if`, given to a closure, printed) stays
for wrap-function-values.
""", state=State)


@call_functions_by_name.on("Program")
def _program(run, program):
    run.state.fns = frozenset(item.name for item in program.items if item._prod == "Fn")
    return run.rebuild(program)


@call_functions_by_name.on("Fn")
def _fn(run, fn):
    fns = run.state.fns
    run.state.named = only_called(fn, lambda value: value._prod == "Global" and value.name in fns)
    return run.rebuild(fn) if run.state.named else fn


@call_functions_by_name.on("Let", splice=True)
def _let(run, let):
    return () if let.name in run.state.named else (run.rebuild(let),)


@call_functions_by_name.on("Call")
def _call(run, call):
    callee = call.callee
    if callee._prod == "Local" and callee.name in run.state.named:
        callee = run.state.named[callee.name]
    else:
        callee = run.walk(callee)
    return call.replace(callee=callee, args=run.walk_seq(call.args))
