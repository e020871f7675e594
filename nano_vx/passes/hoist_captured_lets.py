"""hoist-captured-lets: Lscalars -> Lscalars."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lscalars import Lscalars as L
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, outliving_variables, reference_to_zero, zero


@dataclass
class State:
    hoisted: set = field(default_factory=set)  # the function's variables bound at its top now
    taken: set = field(default_factory=set)  # the names of its locals


hoist_captured_lets = Pass("hoist-captured-lets", L, L, """
Bind at the top of its function each variable of a block or a loop that a closure value may
read once the block is over, and make its `let` an assignment.

The interpreter gives each variable of a call one slot of the call's frame, which a closure
reads when it is called: after the block, or in a later iteration of a loop, it holds what the
`let` (or the loop) last stored there. lift-closures reads a closure's variables where it is
called, so they must be in scope there: the variable becomes `let mut k: T = 0;` at the top of
the function's body, the zero of its type (a tensor made by `::new()`, a `?` extent 0, a
vector a splat of 0, a reference one to a zero bound before it, a closure value a closure of
its type returning its result's zero, which nothing calls: each closure reading k is made
after k's `let` ran), its `let` the assignment `k = ..;`, and a loop over it a loop over a
fresh variable whose body starts by assigning it to k. type-scalars refused such a variable of a type without a zero.
A closure a `let` of the block binds and only calls is not such a variable: each call calls
its function, passing what it reads, so a closure value calling it reads those variables,
which are hoisted instead; and a closure value kept in a hoisted variable may be called
after the block too, so what it reads is hoisted with it. A tensor's variable is
then a cell given a fresh tensor by each assignment, whose buffer insert-drops frees when the
next replaces it and after the last call that may read it. A variable of a closure's own is not hoisted: each
call of the closure has its own.
""", state=State)


@hoist_captured_lets.on("Fn")
def _fn(run, fn):
    st = run.state
    st.hoisted = outliving_variables(fn)
    if not st.hoisted:
        return fn
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    body = run.walk(fn.body)
    lets = []
    for n in descendants(fn.body):
        if n._prod == "Let" and n.name in st.hoisted:
            lets += _zero_let(st, n.name, n.type, n.span)
        elif n._prod == "For" and n.var in st.hoisted:
            ty = L["Scalar"](n.type, span=n.span)
            lets.append(L["Let"](n.var, True, ty, zero(ty, n.span), span=n.span))
    return fn.replace(body=body.replace(stmts=tuple(lets) + body.stmts))


@hoist_captured_lets.on("Let", splice=True)
def _let(run, let):
    if let.name not in run.state.hoisted:
        return (run.rebuild(let),)
    return (_assign(let.name, run.walk(let.value), let.span),)


@hoist_captured_lets.on("For")
def _for(run, loop):
    if loop.var not in run.state.hoisted:
        return run.rebuild(loop)
    step = unused_name(display_name(loop.var), run.state.taken)
    body = run.walk(loop.body)
    first = _assign(loop.var, L["Local"](step, span=loop.span), loop.span)
    return loop.replace(var=step, start=run.walk(loop.start), end=run.walk(loop.end),
                        body=body.replace(stmts=(first,) + body.stmts))


def _zero_let(st: State, name: str, ty, span) -> list:
    """`let mut name: ty` bound to its type's zero; a reference's the reference to a zero
    bound before it, which nothing reads (a closure reads it only once its `let` ran)."""
    if ty._prod != "BorrowType":
        return [L["Let"](name, True, ty, _zero(st, ty, span), span=span)]
    return reference_to_zero(name, ty, st.taken, span)


def _zero(st: State, ty, span):
    """A type's zero; a vector's a splat of its lanes' zero; a closure value's a closure of
    its signature returning the zero of its result (a reference's to a zero its body binds),
    never called (each closure that reads the variable is made after its `let`)."""
    if ty._prod == "VectorType":
        return L["Splat"](zero(ty.elem, span), ty, span=span)
    if ty._prod != "ClosureType":
        return zero(ty, span)
    params = tuple(L["Param"](unused_name("_", st.taken), p, span=span) for p in ty.params)
    if ty.ret._prod == "Scalar" and ty.ret.name == "void":
        return L["Closure"](params, ty.ret, L["Block"]((), None, span=span), span=span)
    lets = _zero_let(st, "zero", ty.ret, span)  # its value only: the `let` is not kept
    body = L["Block"](tuple(lets[:-1]), lets[-1].value, span=span)
    return L["Closure"](params, ty.ret, body, span=span)


def _assign(name: str, value, span):
    return L["Assign"](L["Local"](name, span=span), "=", value, span=span)
