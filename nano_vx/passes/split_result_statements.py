"""split-result-statements: Lmatched -> Lmatched.

Same IL: the function of the statements runs them on the arguments the call gave, just
before it, which read the same again (literals and locals), and the function left computes
its literal from its parameters alone, which the statements neither assign nor shadow, so
the program runs as it ran, in its order."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import concrete, fresh_item, is_tensor, strip
from ..scalars.returned_references import quiet
from ..scalars.storages import fresh_copy


@dataclass
class State:
    first: dict = field(default_factory=dict)  # a function split -> its statements' function


split_result_statements = Pass("split-result-statements", L, L, """
Make the statements of a function returning a struct or tuple literal holding two tensors
of `?` extents, which print or call, a function of their own, called just before each call
of it, so that split-pure-aggregate-results finds the literal alone.

`fn make(n: i32) -> Pair { print(n); Pair { a: T::fill([n], n), b: T::fill([n + 1], 1) } }`
is `fn make$first(n: i32) { print(n); }` and `fn make(n: i32) -> Pair { Pair { .. } }`, and
`let p = make(2);` is `make$first(2); let p = make(2);`: a function per part would print
once per part, and one returning the parts through out-parameters has no tensor of the
extents to start from. It is for a function of scalar parameters and no `return` whose
literal calls nothing and reads only parameters the statements do not assign, every call of
which a `let` binds, each argument a literal or a local.
""", state=State)

_IMPURE = frozenset({"Call", "MethodCall", "Closure", "Transfer", "Launch", "Return",
                     "Borrow", "AsPtr"})


@split_result_statements.on("Program")
def _program(run, program):
    st = run.state
    fns = [i for i in program.items if i._prod == "Fn"]
    structs = {i.name: i for i in program.items if i._prod == "StructDecl"}
    bound = {id(n.value) for n in descendants(program) if n._prod == "Let"}
    calls: dict[str, list] = {}
    named: dict[str, int] = {}
    for n in descendants(program):
        if n._prod == "Global":
            named[n.name] = named.get(n.name, 0) + 1
        if n._prod == "Call" and n.callee._prod == "Global" and id(n) in bound:
            calls.setdefault(n.callee.name, []).append(n)
    taken = {i.name for i in program.items if hasattr(i, "name")}
    for fn in fns:
        found = calls.get(fn.name, [])
        if _splits(fn, structs) and named.get(fn.name) == len(found) and \
                all(all(map(quiet, c.args)) for c in found):
            st.first[fn.name] = fresh_item(f"{fn.name}$first", taken)
    if not st.first:
        return program
    made = run.rebuild(program)
    return made.replace(items=tuple(chain.from_iterable(
        _split(i, st.first[i.name]) if i._prod == "Fn" and i.name in st.first else (i,)
        for i in made.items)))


def _splits(fn, structs: dict) -> bool:
    """Whether fn returns a literal holding two tensors of `?` extents computed purely from
    its scalar parameters, after statements that print or call."""
    value, ret = fn.body.value, strip(fn.ret)
    if value is None or ret is None or fn.on is not None or not fn.body.stmts:
        return False
    if value._prod == "StructLit" and ret._prod == "NamedType" and ret.name in structs:
        types = [f.type for f in structs[ret.name].fields]
    elif value._prod == "Tuple" and ret._prod == "TupleType":
        types = list(ret.elems)
    else:
        return False
    if sum(is_tensor(t) and not concrete(t) for t in types) < 2 or \
            any(strip(p.type) is None or strip(p.type)._prod != "Scalar" for p in fn.params):
        return False
    params = {p.name for p in fn.params}
    stmts = [n for s in fn.body.stmts for n in (s, *descendants(s))]
    read = {n.name for n in descendants(value) if n._prod == "Local"}
    return read <= params and \
        not any(n._prod in _IMPURE for n in descendants(value)) and \
        not any(n._prod == "Return" for n in stmts) and \
        not any(n._prod in ("Let", "For") and n.name in params for n in stmts) and \
        not any(n._prod == "Assign" and _root(n.target) in params for n in stmts) and \
        any(n._prod in ("Call", "MethodCall") for n in stmts)


def _root(place):
    while place._prod in ("Index", "FieldGet", "TupleGet"):
        place = place.base
    return place.name if place._prod == "Local" else None


def _split(fn, first: str):
    """The function of fn's statements, and fn computing its literal alone."""
    body = fn.body
    return (fn.replace(name=first, ret=None, body=body.replace(value=None)),
            fn.replace(body=body.replace(stmts=())))


@split_result_statements.on("Let", splice=True)
def _let(run, let):
    made = run.rebuild(let)
    call = made.value
    if call._prod != "Call" or call.callee._prod != "Global" or \
            call.callee.name not in run.state.first:
        return (made,)
    first = L["Call"](L["Global"](run.state.first[call.callee.name], span=call.callee.span),
                      tuple(map(fresh_copy, call.args)), span=call.span)
    return (L["ExprStmt"](first, span=call.span), made)
