"""What name-temporaries holds in a local of its own, computed by a `let` before the statement
that computes it; expand-lazy-conditions asks the same of a condition that may not run, or
runs once per turn, where that `let` cannot go."""

from __future__ import annotations

from ..languages.lassumed import Lassumed as L
from ..nanopass import descendants
from ..values.literals import of_literals
from .aggregate_types import Shaped, shape_of
from .aggregate_values import pure
from .constant_values import may_stop


def makes_aggregate(st: Shaped, e) -> bool:
    """Whether e computes a struct, a tuple or an enum (a closure's call: one its `let` binds
    to a closure whose value is one)."""
    if e._prod == "Call" and e.callee._prod == "Local":
        return e.callee.name in st.results
    return shape_of(e, st.shapes, st.sigs, st.env.get) is not None


def held_aggregate(st: Shaped, e) -> bool:
    """Whether e is a call or an `if` that makes an aggregate: held, so that what
    scalarize-aggregates splits is a local."""
    return e._prod in ("Call", "IfExpr") and makes_aggregate(st, e)


def queried_temporary(e) -> bool:
    """Whether e is `f(..).topology()`, a query of what a call of a function by name (or of
    a closure) returns: held, so that decide-placement-queries and
    flag-assigned-placement-queries find a variable's query, which its type (the function's
    result) decides, or which, compared with a query variable, is never equal to it."""
    return e._prod == "MethodCall" and e.method == "topology" and not e.args and \
        e.receiver._prod == "Call" and e.receiver.callee._prod in ("Global", "Local")


def holds_statements(e) -> bool:
    """Whether e is an `if` whose arms hold statements, or give such an `if` (`if d { if c {
    let x = ..; x } else { .. } } else { .. }`): a statement's value, not a part of one."""
    return e._prod == "IfExpr" and (
        bool(e.then.stmts or e.orelse.stmts) or
        any(arm.value is not None and holds_statements(arm.value) for arm in (e.then, e.orelse)))


def reordered(st: Shaped, lit) -> bool:
    """Whether the struct literal lit is written out of its declaration's order, the order in
    which scalarize-aggregates computes its fields."""
    shape = st.shapes.of(L["NamedType"](lit.name, span=lit.span))
    return shape is not None and [f.name for f in lit.fields] != [k for k, _ in shape.parts]


def held_field(st: Shaped, value) -> bool:
    """Whether the value of a field of a reordered struct literal is held, so that its calls
    and its stops run in the order written: a call computes it, or an operator that may stop
    the run (`10 / z`; not one on literals alone, `1 << 40`, which a `let` of no written type
    would compute as a plain i32) (an aggregate's parts are held already)."""
    stops = not of_literals(value) and any(may_stop(n) for n in descendants(value))
    return (stops or not pure(value)) and not makes_aggregate(st, value)


def named_first(st: Shaped, e) -> bool:
    """Whether a part of e is computed by a `let` before e's statement: a `match` value, an
    aggregate a call or an `if` makes, an `if` whose arms hold statements, a held field of a
    reordered struct literal, a tensor a placement query is of (none of a closure's or an
    `unsafe` block's body: their blocks hold their `let`s)."""
    p = e._prod
    if p == "MatchValue" or held_aggregate(st, e) or holds_statements(e) or \
            queried_temporary(e):
        return True
    if p == "StructLit" and reordered(st, e) and any(held_field(st, f.value) for f in e.fields):
        return True
    if p in ("Closure", "Unsafe"):
        return False
    return any(named_first(st, c) for c in _parts(e))


def _parts(e) -> list:
    """e's expressions, and those of an `if`'s arms."""
    found = []
    for name in e._fields:
        child = getattr(e, name)
        for c in child if isinstance(child, tuple) else (child,):
            if not hasattr(c, "_prod"):
                continue
            if c._prod == "FieldInit":
                found.append(c.value)
            elif c._prod == "Block" and e._prod == "IfExpr":
                found += [x for x in (c.value,) if x is not None]
            elif c._prod in L.productions and L.productions[c._prod][0].name == "Expr":
                found.append(c)
    return found
