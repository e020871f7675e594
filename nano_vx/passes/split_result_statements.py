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
from ..scalars.aggregates import Names, concrete, fresh_item, is_tensor, strip
from ..scalars.returned_references import quiet
from ..scalars.storages import fresh_copy


@dataclass
class State:
    # a function split -> its statements' function, and the scalar locals they declare that
    # its literal reads, which that function returns and the literal's takes, with their types
    first: dict = field(default_factory=dict)
    names: Names | None = None  # the fresh locals of the function walked


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
which a `let` binds, each argument a literal or a local. A scalar local the statements
declare (at the top of the body) that the literal reads, the function of the statements
returns (several in a tuple) and the literal's takes as a parameter, which the call gives:
`fn make(n: i32) -> Pair { let k = n * 2; print(k); Pair { a: T::fill([k], n), .. } }` is
`fn make$first(n: i32) -> i32 { let k = n * 2; print(k); k }` and `fn make(n: i32, k: i32)
-> Pair { Pair { .. } }`, and `let p = make(2);` is `let first = make$first(2); let p =
make(2, first);`.
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
        found, kept = calls.get(fn.name, []), _kept(fn, structs)
        if kept is not None and named.get(fn.name) == len(found) and \
                all(all(map(quiet, c.args)) for c in found):
            st.first[fn.name] = fresh_item(f"{fn.name}$first", taken), kept
    if not st.first:
        return program
    made = run.rebuild(program)
    return made.replace(items=tuple(chain.from_iterable(
        _split(i, *st.first[i.name]) if i._prod == "Fn" and i.name in st.first else (i,)
        for i in made.items)))


def _kept(fn, structs: dict) -> list | None:
    """The `let`s of scalars of fn's body its literal reads, where fn returns a literal holding
    two tensors of `?` extents computed purely from them and its scalar parameters, after
    statements that print or call; None where it does not."""
    value, ret = fn.body.value, strip(fn.ret)
    if value is None or ret is None or fn.on is not None or not fn.body.stmts:
        return None
    if value._prod == "StructLit" and ret._prod == "NamedType" and ret.name in structs:
        types = [f.type for f in structs[ret.name].fields]
    elif value._prod == "Tuple" and ret._prod == "TupleType":
        types = list(ret.elems)
    else:
        return None
    if sum(is_tensor(t) and not concrete(t) for t in types) < 2 or \
            any(strip(p.type) is None or strip(p.type)._prod != "Scalar" for p in fn.params):
        return None
    params = {p.name for p in fn.params}
    stmts = [n for s in fn.body.stmts for n in (s, *descendants(s))]
    read = {n.name for n in descendants(value) if n._prod == "Local"}
    kept = [s for s in fn.body.stmts if s._prod == "Let" and s.name in read and
            strip(s.type) is not None and strip(s.type)._prod == "Scalar"]
    splits = read <= params | {s.name for s in kept} and \
        not any(n._prod in _IMPURE for n in descendants(value)) and \
        not any(n._prod == "Return" for n in stmts) and \
        not any(n._prod in ("Let", "For") and n.name in params for n in stmts) and \
        not any(n._prod == "Assign" and _root(n.target) in params for n in stmts) and \
        any(n._prod in ("Call", "MethodCall") for n in stmts)
    return kept if splits else None


def _root(place):
    while place._prod in ("Index", "FieldGet", "TupleGet"):
        place = place.base
    return place.name if place._prod == "Local" else None


def _split(fn, first: str, kept: list):
    """The function of fn's statements, returning the locals `kept`, and fn computing its
    literal alone, given them."""
    body, span = fn.body, fn.body.span
    got = [L["Local"](let.name, span=span) for let in kept]
    ret, value = (None, None) if not kept else (kept[0].type, got[0]) if len(kept) == 1 else \
        (L["TupleType"](tuple(let.type for let in kept), span=span), L["Tuple"](tuple(got),
                                                                              span=span))
    params = tuple(L["Param"](let.name, let.type, span=let.span) for let in kept)
    return (fn.replace(name=first, ret=ret, body=body.replace(value=value)),
            fn.replace(params=fn.params + params, body=body.replace(stmts=())))


@split_result_statements.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    return run.rebuild(fn)


@split_result_statements.on("Let", splice=True)
def _let(run, let):
    made = run.rebuild(let)
    call = made.value
    if call._prod != "Call" or call.callee._prod != "Global" or \
            call.callee.name not in run.state.first:
        return (made,)
    st, span = run.state, call.span
    name, kept = st.first[call.callee.name]
    first = L["Call"](L["Global"](name, span=call.callee.span),
                      tuple(map(fresh_copy, call.args)), span=span)
    if not kept:
        return (L["ExprStmt"](first, span=span), made)
    got = L["Let"](st.names.fresh("first"), False, kept[0].type if len(kept) == 1 else
                   L["TupleType"](tuple(k.type for k in kept), span=span), first, span=span)
    # Each a local of its own: split-pure-aggregate-results copies a call given locals.
    parts = [got] if len(kept) == 1 else [
        L["Let"](st.names.fresh(k.name), False, k.type,
                 L["TupleGet"](L["Local"](got.name, span=span), j, span=span), span=span)
        for j, k in enumerate(kept)]
    args = tuple(L["Local"](p.name, span=span) for p in parts)
    return (got, *parts[len(kept) == 1:],
            made.replace(value=call.replace(args=call.args + args)))
