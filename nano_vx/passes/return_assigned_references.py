"""return-assigned-references: Lassumed -> Lassumed.

Same IL: the closure starts from the value the variable holds at the call, works on its own
copy, which nothing else reads while it runs, and the call's statement puts the copy back,
so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, direct_closures


@dataclass
class State:
    given: dict = field(default_factory=dict)  # a closure's local -> the reference it assigns
    renamed: dict = field(default_factory=dict)  # in such a closure: the reference -> its copy
    taken: set = field(default_factory=set)  # the names of the function's locals


return_assigned_references = Pass("return-assigned-references", L, L, """
Make each closure a `let` binds and only calls, in statements of their own, that assigns a
reference variable it captures take that variable's value and give back what it ends with,
which each call assigns to it: `let point = || { r = &y; }; point();` is `let point = |r_0:
&i32| { let mut r_1: &i32 = r_0; r_1 = &y; r_1 }; r = point(r);`.

lift-closures passes a closure what it assigns as a scalar's cell, and a reference to a
scalar or a tensor has none (type-scalars refuses it; one to an aggregate is its parts'
places, which scalarize-aggregates gives). Such a closure has no value of its own and no
`return`, borrows the variable nowhere and calls no closure (which could read it while the
copy stands for it); one assigning two references, or any other, is left as it is.
""", state=State)


@return_assigned_references.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn))
    types = {n.name: n.type for n in nodes if n._prod == "Let"}
    statements = {id(n.expr) for n in nodes if n._prod == "ExprStmt"}
    calls = [n for n in nodes if n._prod == "Call" and n.callee._prod == "Local"]
    given = {}
    for name, closure in direct_closures(fn).items():
        if not all(id(c) in statements for c in calls if c.callee.name == name):
            continue
        refs = _assigned_references(closure, types)
        if len(refs) == 1:
            given[name] = (refs[0], types[refs[0]])
    if not given:
        return fn
    run.state.given = given
    run.state.taken = bound_in(fn) | {n.name for n in nodes if n._prod == "Local"}
    return run.rebuild(fn)


def _assigned_references(closure, types: dict) -> list:
    """The reference variables around the closure it assigns, if it may give back the one."""
    inner = bound_in(closure) | {p.name for p in closure.params}
    nodes = list(descendants(closure.body))
    assigned = sorted({n.target.name for n in nodes if n._prod == "Assign"
                       and n.target._prod == "Local" and n.target.name not in inner})
    # a reference to an aggregate is one per part (inline-aggregate-references and the
    # passes beside it), which a closure may assign
    refs = [v for v in assigned if types.get(v) is not None
            and types[v]._prod == "BorrowType"
            and types[v].inner._prod in ("Scalar", "TensorType")]
    if len(refs) != 1 or closure.body.value is not None or any(
            n._prod in ("Return", "Closure") or n._prod == "Call" and n.callee._prod == "Local"
            or n._prod == "Borrow" and n.value._prod == "Local" and n.value.name == refs[0]
            or n._prod == "Assign" and n.target._prod == "Local" and n.target.name == refs[0]
            and n.op != "=" for n in nodes):
        return []
    return refs


@return_assigned_references.on("Let")
def _let(run, let):
    st = run.state
    if let.name not in st.given or let.value._prod != "Closure":
        return run.rebuild(let)
    closure, (ref, ty) = let.value, st.given[let.name]
    span = closure.span
    given = unused_name(display_name(ref), st.taken)
    copy = unused_name(display_name(ref), st.taken)
    around = st.renamed
    st.renamed = {**around, ref: copy}
    body = run.walk(closure.body)
    st.renamed = around
    start = L["Let"](copy, True, ty, L["Local"](given, span=span), span=span)
    body = body.replace(stmts=(start,) + body.stmts, value=L["Local"](copy, span=span))
    made = closure.replace(params=closure.params + (L["Param"](given, ty, span=span),),
                           body=body)
    return let.replace(value=made)


@return_assigned_references.on("ExprStmt")
def _statement(run, stmt):
    call = stmt.expr
    if call._prod != "Call" or call.callee._prod != "Local" or \
            call.callee.name not in run.state.given:
        return run.rebuild(stmt)
    ref, span = run.state.given[call.callee.name][0], stmt.span
    target = run.walk(L["Local"](ref, span=span))
    made = call.replace(args=run.walk_seq(call.args) + (L["Local"](ref, span=span),))
    return L["Assign"](target, "=", made, span=span)


@return_assigned_references.on("Local")
def _local(run, local):
    copy = run.state.renamed.get(local.name)
    return local if copy is None else local.replace(name=copy)
