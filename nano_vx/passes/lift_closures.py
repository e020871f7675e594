"""lift-closures: Lscalars -> Llifted."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lscalars import Lscalars
from ..languages.llifted import Llifted
from ..nanopass import Pass
from ..nanopass.verify import child_nodes

L = Llifted


@dataclass
class State:
    fn: object = None  # the function being walked
    types: dict = field(default_factory=dict)  # its locals -> their types
    lifted: dict = field(default_factory=dict)  # closure local -> (function, captures)
    made: list = field(default_factory=list)  # the functions lifted out of it
    taken: set = field(default_factory=set)  # the names of the program's functions


lift_closures = Pass("lift-closures", Lscalars, Llifted, """
Make each closure a function of the program, and each call of it a call of that function.

`let f = |x: T| body;` in function g becomes the function `g$closure<n>` (the n-th closure of
g, in source order, or the next number no function has), whose parameters are the closure's and then the variables of g the body
reads, in order of first use; a call `f(a)` passes them after its arguments: `g$closure0(a,
k)`. The values are read at the call, so a closure sees what its variables hold when it is
called, as it did. (check-native-subset refused a closure that assigns to a variable it captures.)
The `let` of the closure disappears. Lifted functions follow the function they came from.
""", state=State)


@lift_closures.on("Program")
def _program(run, program):
    items = []
    run.state.taken = {item.name for item in program.items if item._prod == "Fn"}
    for item in program.items:
        if item._prod != "Fn":
            items.append(run.walk(item))
            continue
        run.state.fn, run.state.types = item, _binder_types(item)
        run.state.lifted, run.state.made = {}, []
        items.append(run.walk(item))
        items += run.state.made
    return L["Program"](tuple(items), span=program.span)


@lift_closures.on("Let", splice=True)
def _let(run, let):
    if let.value._prod != "Closure":
        return (run.rebuild(let),)
    closure, fn = let.value, run.state.fn
    body = run.walk(closure.body)  # closures it defines are lifted first
    captured = []
    for local in _captures(closure):  # a closure it calls passes on that one's captures
        inner = run.state.lifted[local][1] if local in run.state.lifted else [local]
        captured += [c for c in inner if c not in captured]
    n = len(run.state.made)
    while f"{fn.name}$closure{n}" in run.state.taken:  # only a hand-written IL has one
        n += 1
    name = f"{fn.name}$closure{n}"
    run.state.taken.add(name)
    params = run.walk_seq(closure.params) + tuple(
        L["Param"](local, run.state.types[local], span=closure.span) for local in captured)
    run.state.made.append(L["Fn"](name, params, fn.on, run.walk(closure.ret), (), body,
                                  span=closure.span))
    run.state.lifted[let.name] = (name, captured)
    return ()


@lift_closures.on("Call")
def _call(run, call):
    callee = call.callee
    if callee._prod != "Local" or callee.name not in run.state.lifted:
        return run.rebuild(call)
    name, captured = run.state.lifted[callee.name]
    args = run.walk_seq(call.args) + tuple(L["Local"](c, span=call.span) for c in captured)
    return L["Call"](L["Global"](name, span=callee.span), args, span=call.span)


@lift_closures.on("Closure", "OpaqueType")
def _closure(run, node):
    # check-native-subset refused every closure that is not bound by a `let` and called, and only
    # such a `let`, which _let removes, has an opaque type.
    raise AssertionError(f"a {node._prod} outside a closure's `let` reached lift-closures")


def _binder_types(fn) -> dict:
    """Every local of a function (unique names from resolve-names on) -> its type."""
    types, stack = {}, [fn]
    while stack:
        node = stack.pop()
        if node._prod in ("Param", "Let"):
            types[node.name] = node.type
        elif node._prod == "For":
            types[node.var] = Lscalars["Scalar"](node.type, span=node.span)
        stack.extend(child_nodes(node))
    return types


def _captures(closure) -> list[str]:
    """The locals a closure's body reads but does not bind, in order of first use."""
    bound = {p.name for p in closure.params}
    used: list[str] = []
    stack = [closure.body]
    while stack:
        node = stack.pop()
        if node._prod == "Let":
            bound.add(node.name)
        elif node._prod == "For":
            bound.add(node.var)
        elif node._prod == "Local" and node.name not in used:
            used.append(node.name)
        stack.extend(reversed(child_nodes(node)))
    return [name for name in used if name not in bound]
