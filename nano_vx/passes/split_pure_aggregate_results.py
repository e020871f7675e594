"""split-pure-aggregate-results: Lmatched -> Lmatched.

Same IL: each copy computes what the function computed, which writes and prints nothing and
reads only its scalar parameters, so computing it once per part gives each part what the one
call gave it, and a stop where the one call stopped (the first copy computes all the
function's statements, and its part, in the order the function did)."""

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
    parts: dict = field(default_factory=dict)  # a function split -> {a part: its function}
    fns: dict = field(default_factory=dict)  # the program's functions by name


split_pure_aggregate_results = Pass("split-pure-aggregate-results", L, L, """
Make a function returning a struct or tuple literal holding two tensors of `?` extents, which
writes and prints nothing and reads only scalar parameters, a function per part, each
computing the function's statements and that part, and each call the literal of their
calls.

`fn make(n: i32) -> Pair { Pair { a: T::fill([n], n), b: T::fill([n + 1], 1) } }` is `fn
make$a(n: i32) -> T { T::fill([n], n) }` and `make$b`, and `let p = make(2);` is `let p =
Pair { a: make$a(2), b: make$b(2) };`: scalarize-aggregates returns one tensor of an
aggregate as the function's result and gives back the others through out-parameters, which
need a tensor of the extents to start from, which no type says. So each part computes the
function's statements again (a second part twice the work): one function giving each part
back through `&mut` would assign a tensor whole through a reference, which native code
does not lower (a reference to a tensor is its buffer, so the callee would rebind its own
parameter, not the caller's variable), and the caller cannot make a tensor of extents the
callee computes before calling it. It is for a function whose
value is the literal, whose body calls nothing (a constructor, a literal make tensors),
assigns only its own locals, and has no `return`, every call of which a `let` binds, each
argument a literal or a local.
""", state=State)

_IMPURE = frozenset({"Call", "MethodCall", "Closure", "Transfer", "Launch", "Return",
                     "Borrow", "AsPtr"})


@split_pure_aggregate_results.on("Program")
def _program(run, program):
    st = run.state
    st.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    structs = {i.name: i for i in program.items if i._prod == "StructDecl"}
    bound = [n.value for n in descendants(program) if n._prod == "Let"]
    named: dict[str, int] = {}
    for n in descendants(program):
        if n._prod == "Global" and n.name in st.fns:
            named[n.name] = named.get(n.name, 0) + 1
    taken = {i.name for i in program.items if hasattr(i, "name")}
    for name, fn in st.fns.items():
        labels = _parts(fn, structs)
        calls = [c for c in bound if c._prod == "Call" and c.callee._prod == "Global" and
                 c.callee.name == name]
        if labels and named.get(name) == len(calls) and \
                all(all(map(quiet, c.args)) for c in calls):
            st.parts[name] = {k: fresh_item(f"{name}${k}", taken) for k in labels}
    if not st.parts:
        return program
    made = run.rebuild(program)
    return made.replace(items=tuple(chain.from_iterable(
        _split(i, st.parts[i.name], structs) if i._prod == "Fn" and i.name in st.parts
        else (i,) for i in made.items)))


def _parts(fn, structs: dict):
    """The labels of the parts of fn's literal value (fields, or elements), where two are
    tensors of `?` extents and fn computes it purely; None else."""
    value, ret = fn.body.value, strip(fn.ret)
    if value is None or ret is None or fn.on is not None:
        return None
    if value._prod == "StructLit" and ret._prod == "NamedType" and ret.name in structs:
        types = {f.name: f.type for f in structs[ret.name].fields}
        labels = [f.name for f in value.fields]
    elif value._prod == "Tuple" and ret._prod == "TupleType":
        types, labels = dict(enumerate(ret.elems)), list(range(len(value.elems)))
    else:
        return None
    if sorted(map(str, labels)) != sorted(map(str, types)) or \
            sum(is_tensor(t) and not concrete(t) for t in types.values()) < 2:
        return None
    if any(strip(p.type) is None or strip(p.type)._prod != "Scalar" for p in fn.params):
        return None
    own = {n.name for n in descendants(fn.body) if n._prod in ("Let", "For")}
    for n in descendants(fn.body):
        if n._prod in _IMPURE or n._prod == "Assign" and _root(n.target) not in own:
            return None
    return labels


def _root(place):
    while place._prod in ("Index", "FieldGet", "TupleGet"):
        place = place.base
    return place.name if place._prod == "Local" else None


def _split(fn, parts: dict, structs: dict):
    """A copy of fn per part of its literal, returning that part."""
    value, ret = fn.body.value, strip(fn.ret)
    if value._prod == "StructLit":
        types = {f.name: f.type for f in structs[ret.name].fields}
        given = {f.name: f.value for f in value.fields}
    else:
        types, given = dict(enumerate(ret.elems)), dict(enumerate(value.elems))
    return tuple(fn.replace(name=parts[k], ret=types[k], body=fn.body.replace(value=given[k]))
                 for k in parts)


@split_pure_aggregate_results.on("Let")
def _let(run, let):
    st = run.state
    made = run.rebuild(let)
    call = made.value
    if call._prod != "Call" or call.callee._prod != "Global" or \
            call.callee.name not in st.parts:
        return made
    parts, span = st.parts[call.callee.name], call.span

    def part(k):
        return L["Call"](L["Global"](parts[k], span=call.callee.span),
                         tuple(map(fresh_copy, call.args)), span=span)
    value = st.fns[call.callee.name].body.value
    if value._prod == "StructLit":
        literal = L["StructLit"](value.name, tuple(
            L["FieldInit"](k, part(k), span=span) for k in parts), span=span)
    else:
        literal = L["Tuple"](tuple(part(k) for k in parts), span=span)
    return made.replace(value=literal)
