"""flag-assigned-placement-queries: Lpinned -> Lpinned.

Same IL: each flag holds, at every point, whether the variable's placement equals its option
(a query computes nothing but the placement), so each comparison of the variable reads the
`bool` the interpreter computes there."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names


@dataclass
class State:
    flags: dict = field(default_factory=dict)  # each variable flagged -> [(option, flag)]
    copies: dict = field(default_factory=dict)  # a `let` copying such a variable -> it


flag_assigned_placement_queries = Pass("flag-assigned-placement-queries", L, L, """
Make each `let mut` variable holding a placement query, assigned other queries and only
compared with `Some(Topology::X)` or `None`, a `bool` flag per option it is compared with:
`let mut p = t.topology(); p = d.topology(); p == None` is `let mut p#1: bool = t.topology()
== None; p#1 = d.topology() == None; p#1`.

Native code holds no placement at run time; decide-placement-queries decides each
comparison of a query of a variable with an option, and the flags make every comparison of
the variable one of those. A comparison of the variable with another such variable, or with
a query of a variable (`p != q`, `p == d.topology()`), is the `bool` the interpreter
computes whatever each holds: two placement queries are never equal (values/places.py's
`same` equals a placement only to an option), so `==` is `false` and `!=` `true`; a
variable compared only so needs no flag, and its `let` and assignments go. A variable given
a query of what no variable names (which a flag per option would compute again), or used
otherwise (printed, passed on) stays, for the native-code gate to refuse. A `let` copying
such a variable (name-temporaries reads it so before a call of its statement, `let ordered
= p;`) is one too, its flags copying the variable's.
""", state=State)


def _query(e) -> bool:
    return e._prod == "MethodCall" and e.method == "topology" and not e.args and \
        e.receiver._prod == "Local"


def _compared(e, name):
    """The option e compares the variable `name` with (`==` or `!=`), else None."""
    if e._prod != "Binary" or e.op not in ("==", "!="):
        return None
    for mine, other in ((e.left, e.right), (e.right, e.left)):
        if mine._prod == "Local" and mine.name == name and \
                other._prod in ("SomeTopo", "NoneTopo"):
            return other
    return None


@flag_assigned_placement_queries.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn))
    held = {n.name for n in nodes if n._prod == "Let" and n.mutable and _query(n.value)}
    for n in nodes:
        if n._prod == "Assign" and n.target._prod == "Local" and not _query(n.value):
            held.discard(n.target.name)
    copies = {}
    for n in nodes:  # in order: a copy of a copy follows it
        if n._prod == "Let" and not n.mutable and n.value._prod == "Local" and \
                n.value.name in held:
            copies[n.name] = n.value.name
            held.add(n.name)
    # a variable used otherwise stays (for the gate), and then so does one compared with it
    # or copying it
    while True:
        options, seen = _uses(nodes, held)
        unseen = {n.name for n in nodes if n._prod == "Local" and n.name in held and
                  id(n) not in seen}
        unseen |= {name for name, source in copies.items() if source not in held - unseen}
        if not (unseen & held):
            break
        held -= unseen
    run.state.copies = {name: source for name, source in copies.items() if name in held}
    for name, source in reversed(run.state.copies.items()):
        options[source] += [o for o in options[name] if o not in options[source]]
    names = Names(fn)
    run.state.flags = {n.name: [(option, names.fresh(n.name)) for option in options[n.name]]
                       for n in nodes if n._prod == "Let" and n.name in held}
    return run.rebuild(fn) if run.state.flags else fn


def _uses(nodes, held) -> tuple[dict, set]:
    """The options each variable of `held` is compared with, and the ids of the variables'
    uses as a comparison's side or a target."""
    options: dict = {name: [] for name in held}
    seen = set()
    for n in nodes:
        if n._prod == "Assign" and n.target._prod == "Local":
            seen.add(id(n.target))
        if n._prod == "Let" and n.value._prod == "Local" and n.name in held:
            seen.add(id(n.value))
        if _queries_compared(n, held):
            seen.update(id(side) for side in (n.left, n.right))
        for name in held:
            option = _compared(n, name)
            if option is not None:
                seen.update(id(side) for side in (n.left, n.right))
                if option not in options[name]:
                    options[name].append(option)
    return options, seen


def _queries_compared(e, held) -> bool:
    """Whether e compares (`==`, `!=`) two placement queries, one side at least a variable
    of `held`, the other one too or a query of a variable."""
    if e._prod != "Binary" or e.op not in ("==", "!="):
        return False
    sides = (e.left, e.right)
    return any(x._prod == "Local" and x.name in held for x in sides) and \
        all(x._prod == "Local" and x.name in held or _query(x) for x in sides)


def _is(option, query):
    return L["Binary"]("==", query, option, span=query.span)


@flag_assigned_placement_queries.on("Let", splice=True)
def _let(run, let):
    flags = run.state.flags.get(let.name)
    if flags is None:
        return (run.rebuild(let),)
    return tuple(L["Let"](flag, True, L["Scalar"]("bool", span=let.span),
                          run.walk(_is(option, let.value)), span=let.span)
                 for option, flag in flags)


@flag_assigned_placement_queries.on("Assign", splice=True)
def _assign(run, node):
    flags = run.state.flags.get(node.target.name) if node.target._prod == "Local" else None
    if flags is None:
        return (run.rebuild(node),)
    return tuple(L["Assign"](L["Local"](flag, span=node.target.span), "=",
                             _is(option, node.value), span=node.span)
                 for option, flag in flags)


@flag_assigned_placement_queries.on("Binary")
def _binary(run, e):
    if _queries_compared(e, run.state.flags):
        return L["Bool"](e.op == "!=", span=e.span)
    for name, flags in run.state.flags.items():
        option = _compared(e, name)
        if option is not None:
            flag = L["Local"](next(f for o, f in flags if o == option), span=e.span)
            return flag if e.op == "==" else L["Unary"]("!", flag, span=e.span)
    return run.rebuild(e)
