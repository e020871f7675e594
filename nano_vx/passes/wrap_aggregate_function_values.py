"""wrap-aggregate-function-values: Lmatched -> Lmatched.

Same IL: a closure calling a function with its own parameters computes what the function
computes, so the interpreter runs the output as it ran the input; a local only called names
no value that `print` or `==` would tell apart from a function."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregate_types import program_types
from ..scalars.closure_parts import aggregate_parts, called_closures, rechoose, struct_fields
from ..scalars.closures import bound_in, calling_closure


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # the functions taking or returning an aggregate
    wrapped: set = field(default_factory=set)  # the locals given one, of the function walked
    taken: set = field(default_factory=set)  # the locals of the function walked


wrap_aggregate_function_values = Pass("wrap-aggregate-function-values", L, L, """
Make each function taking or returning a struct, a tuple or an enum that a local only called
may hold (a `let` or an assignment gives it the function, a closure, another such local or an
`if` choosing among those) a closure calling it, which split-closure-results and
split-closure-aggregates then take apart as any closure: `let f = if c { spare } else { other
};` is `let f = if c { |c: Cell| spare(c) } else { |c: Cell| other(c) };`.

scalarize-aggregates takes such a function's parameters and result apart, and each call of it
by name; the closure's call is one. Any other value of such a function (given to a closure,
returned, printed), and one of a function taking a reference to an aggregate or a generic
struct, which those passes would leave whole, stays, for number-aggregate-function-values to
number where a local only called holds it, or for check-aggregate-function-values to refuse
(E5010).
""", state=State)


@wrap_aggregate_function_values.on("Program")
def _program(run, program):
    _, sigs = program_types(program)
    structs = struct_fields(program)
    enums = {item.name for item in program.items if item._prod == "EnumDecl"}
    run.state.fns = {item.name: item for item in program.items
                     if item._prod == "Fn" and sigs[item.name].aggregate and all(
                         _taken_apart(ty, structs, enums)
                         for ty in [p.type for p in item.params] + [item.ret])}
    return run.rebuild(program) if run.state.fns else program


def _taken_apart(ty, structs: dict, enums: set) -> bool:
    """Whether a closure's parameter or result of type ty is one the closure passes take
    apart, or a scalar, or none: not a reference to an aggregate, nor a generic struct."""
    return ty is None or aggregate_parts(structs, ty) is not False or \
        ty._prod == "NamedType" and ty.name in enums


@wrap_aggregate_function_values.on("Fn")
def _fn(run, fn):
    st = run.state
    held = called_closures(fn, lambda v: v._prod == "Closure" or _named(run, v))
    st.wrapped = {name for name, values in held.items() if any(_named(run, v) for v in values)}
    if not st.wrapped:
        return fn
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


def _named(run, value) -> bool:
    return value._prod == "Global" and value.name in run.state.fns


@wrap_aggregate_function_values.on("Let", "Assign")
def _given(run, node):
    name = node.name if node._prod == "Let" else \
        node.target.name if node.target._prod == "Local" else None
    if name not in run.state.wrapped:
        return run.rebuild(node)
    return node.replace(value=rechoose(node.value, lambda v: calling_closure(
        L, run.state.fns[v.name], v, run.state.taken) if _named(run, v) else run.walk(v),
        run.walk))
