"""wrap-function-values: Lsplit -> Lsplit.

Same IL: a closure calling a function with its own parameters computes what the function
computes, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars import infer_program
from ..scalars.closures import bound_in, calling_closure


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    taken: set = field(default_factory=set)  # the locals of the function walked


wrap_function_values = Pass("wrap-function-values", L, L, """
Make each function used as a value (not called) a closure calling it: `let f = add;` is
`let f = |a: i32, b: i32| add(a, b);`, which the closure passes then lower.

A function keeps its function values as they are, for check-native-subset to refuse (E5010),
where native code would not lower the closures (scalar inference refuses the function with
them): the interpreter, which runs a refused program, names a function value `function`
where it stops on printing or comparing one, not `closure`. halt-closure-prints has already
made each stop it makes name what the interpreter names.
""", state=State)


@wrap_function_values.on("Program")
def _program(run, program):
    st = run.state
    st.fns = {item.name: item for item in program.items if item._prod == "Fn"}
    if not any(n._prod == "Global" and n.name in st.fns for n in descendants(program)):
        return program
    wrapped = run.rebuild(program)
    refused = infer_program(wrapped).refused
    return wrapped.replace(items=tuple(
        item if item.name in refused else new for item, new in zip(program.items, wrapped.items)))


@wrap_function_values.on("Fn")
def _fn(run, fn):
    run.state.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


@wrap_function_values.on("Call")
def _call(run, call):
    # A callee is called, not used as a value.
    callee = call.callee if call.callee._prod == "Global" else run.walk(call.callee)
    return call.replace(callee=callee, args=run.walk_seq(call.args))


@wrap_function_values.on("Global")
def _global(run, e):
    fn = run.state.fns.get(e.name)
    if fn is None:
        return e
    return calling_closure(L, fn, e, run.state.taken)
