"""hoist-lets-of-chosen-closures: Lpinned -> Lpinned.

Same IL: no statement between the new `let` and the assignment names the variable (its
`let` came after them), and a closure reads its variables when it is called, so the
interpreter runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars.closures import captures, runs_until
from ..values.numbers import FLOAT_TYPES, INT_TYPES

hoist_lets_of_chosen_closures = Pass("hoist-lets-of-chosen-closures", L, L, """
Bind before the `let mut` of a closure variable that a launch in a closure's body gives a
kernel, as a `let mut` of its zero, each scalar variable that a closure assigned to it
reads and a later `let` of the function's body binds, that `let` becoming an assignment,
so that choose-closures-in-kernels binds that closure where the variable is.

`let mut f = |x: i32| x + k; let run = |y: i32| spawn on(T) { f(y) }; .. let m = 5; f =
|x: i32| x * m;` is `let mut m: i32 = 0; let mut f = ..; .. m = 5; f = ..;`: the launch in
run's body may run after the assignment, where its kernel needs the closure f is given
there, which choose-closures-in-kernels binds after the `let`s of what it reads, out of
the launch's scope when they come after run's. Hoisted, they are all before it. Only where
a launch in a closure's body, bound at or before such a `let`, gives the variable and may
run after that `let` (run called in a closure given back, `let mk = |y: i32| || run(y);`,
whose value is called after it), each closure it is given written there (`f = |..| ..`),
the variable never lent, and each such local of a scalar type bound once in the function.
""")


@hoist_lets_of_chosen_closures.on("Fn")
def _fn(run, fn):
    stmts = list(fn.body.stmts)
    hoisted = _hoisted(fn, stmts)
    if not hoisted:
        return fn
    out = []
    for s in stmts:
        for v in hoisted.get(id(s), ()):
            out.append(L["Let"](v.name, True, v.type, _zero(v.type), span=v.span))
        if s._prod == "Let" and any(s is v for vs in hoisted.values() for v in vs):
            s = L["Assign"](L["Local"](s.name, span=s.span), "=", s.value, span=s.span)
        out.append(s)
    return fn.replace(body=fn.body.replace(stmts=tuple(out)))


def _hoisted(fn, stmts) -> dict:
    """id() of each `let mut` of such a closure variable -> the later `let`s to hoist
    before it, in order."""
    lent = {n.value.name for n in descendants(fn.body)
            if n._prod == "Borrow" and n.value._prod == "Local"}
    once = {}
    for n in descendants(fn):
        if n._prod in ("Let", "Param"):
            once[n.name] = n.name not in once
        elif n._prod == "For":
            once[n.var] = False
    # each launch in a closure's body that gives a local, and where it stands
    launched: dict = {}
    for at, s in enumerate(stmts):
        inner = {id(n) for c in descendants(s) if c._prod == "Closure"
                 for n in descendants(c.body)}
        for n in descendants(s):
            if n._prod == "Launch" and id(n) in inner:
                for a in n.args:
                    if a._prod == "Local":
                        launched.setdefault(a.name, []).append((n, at))
    lets = {s.name: at for at, s in enumerate(stmts) if s._prod == "Let"}
    found, taken = {}, set()
    for at, let in enumerate(stmts):
        if let._prod != "Let" or not let.mutable or let.value._prod != "Closure" or \
                let.name not in launched or let.name in lent:
            continue
        assigns = [n for n in descendants(fn) if n._prod == "Assign"
                   and n.target._prod == "Local" and n.target.name == let.name]
        if any(a.op != "=" or a.value._prod != "Closure" for a in assigns):
            continue
        read = {v for a in assigns for v in captures(a.value)}
        later = sorted(lets[v] for v in read if lets.get(v, -1) > at)
        # a launch that may run once a closure bound after these `let`s is given
        if not any(where <= place < runs_until(fn, where, launch)
                   for launch, where in launched[let.name] for place in later):
            continue
        moved = [stmts[p] for p in later]
        if all(once.get(v.name) and _zero(v.type) is not None for v in moved) and \
                not taken & {v.name for v in moved}:
            found[id(let)] = moved
            taken |= {v.name for v in moved}
    return found


def _zero(ty):
    """The zero of a scalar type, a literal the `let`'s type types; None for another type."""
    if ty._prod != "Scalar":
        return None
    if ty.name == "bool":
        return L["Bool"](False, span=ty.span)
    if ty.name in INT_TYPES:
        return L["Int"](0, span=ty.span)
    return L["Float"](0.0, span=ty.span) if ty.name in FLOAT_TYPES else None
