"""name-given-aggregates: Lmatched -> Lmatched.

Same IL: the argument is computed by a `let` just before its statement, which computed it
before anything else, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import display_name
from ..nanopass import Pass
from ..scalars.aggregates import Names
from ..scalars.closure_parts import Parts, called_closures, giveable, taken_parts
from ..scalars.first_parts import NOTHING, first_found, replaced_first
from ..scalars.held_first import held_before


@dataclass
class State:
    parts: Parts | None = None  # the program's structs and enums, as closures take them apart
    params: dict = field(default_factory=dict)  # a closure's local -> its parameters
    names: Names | None = None  # fresh names of the function being rebuilt


name_given_aggregates = Pass("name-given-aggregates", L, L, """
Compute by a `let` of its own, before its statement, each struct a closure's call gives that
split-closure-aggregates could not give part by part, where the statement computes that
argument before anything else.

split-closure-aggregates gives a closure's aggregate parameter its argument's parts, each
in its place, where that reads what the whole would: an argument computing a call, or an
operator on literals alone (`Big { k: 1 << 40, n: 2 }`, whose literal types `1 << 40` as
its i64 field, a closure's argument as a plain i32 that wraps) would be computed otherwise,
and the closure is left whole. Held by a `let` of the parameter's type, it is a variable
whose parts are read as it is: `print(f(Big { k: 1 << 40, n: 2 }))` is `let b: Big = Big {
k: 1 << 40, n: 2 }; print(f(b));`. Only where the statement computes the argument first (a
`let`'s value, an expression statement's, a `return`'s, an `if` statement's condition, a
block's value, and on the way down to the call the left operand of an operator, a cast's,
an argument after ones computing nothing), so that the `let` computes it just when the
statement did; what the statement computes before it (an operator's left operand or an
earlier argument, on the way, a call by name or a cast of one: `side(3) + f(Big { .. })`;
the closure's call's own earlier arguments) is held by a `let` of its own first, in turn.
A tuple is left as it is (its literal's elements are typed by what they meet, not by a
`let`'s type), and so is an enum (one carrying a tensor would move its buffer).
""", state=State)


@name_given_aggregates.on("Program")
def _program(run, program):
    run.state.parts = Parts(program)
    return run.rebuild(program)


@name_given_aggregates.on("Fn")
def _fn(run, fn):
    st = run.state
    st.params = {}
    for name, closures in called_closures(fn).items():
        parts = taken_parts(closures, st.parts)
        if parts is not None:
            st.params[name] = list(zip(closures[0].params, parts))
    if not st.params:
        return fn
    st.names = Names(fn)
    return run.rebuild(fn)


@name_given_aggregates.on("Block")
def _block(run, block):
    return held_before(run.rebuild(block), lambda stmt, e: _held(run.state, e))


def _held(st: State, e) -> tuple[list, object]:
    """The `let`s of the arguments e computes first that a closure's call gives whole, and e
    reading their locals. What e computes before such a call, a call's value by name (or a
    cast of one: a typed value, which a `let` of no written type holds as it is), is held
    first, so that the call is then computed first: an operator's left operand, an earlier
    argument of a call by name or of the closure's call itself."""
    lets = []
    while True:
        call = first_found(e, lambda x: _named(st, x) is not None)
        if call is not None:
            k = _named(st, call)
            args = list(call.args)
            for j, a in enumerate(args[:k]):
                if a._prod not in NOTHING:
                    args[j] = _hold(st, lets, a, "arg", L["OpaqueType"](span=a.span))
            param = st.params[call.callee.name][k][0]
            args[k] = _hold(st, lets, args[k], param.name, param.type)
            e = replaced_first(e, call, call.replace(args=tuple(args)))
            continue
        before = _before(st, e)
        if before is None:
            return lets, e
        held, value = _held(st, before)
        lets += held
        e = replaced_first(e, before, _hold(st, lets, value, "operand",
                                            L["OpaqueType"](span=value.span)))


def _hold(st: State, lets: list, value, base: str, ty):
    name = st.names.fresh(display_name(base))
    lets.append(L["Let"](name, False, ty, value, span=value.span))
    return L["Local"](name, span=value.span)


def _before(st: State, e):
    """What e computes before a closure's call given an aggregate it cannot give by parts,
    that call reached through operators (not the right of `&&` or `||`, which may not be
    computed), casts and arguments of calls by name: the first left operand or earlier
    argument on the way computing something, if it is a typed value, else None."""
    if e._prod in ("Cast", "Unary"):
        field = "value" if e._prod == "Cast" else "operand"
        return _before(st, getattr(e, field))
    if e._prod == "Binary" and e.op not in ("&&", "||"):
        parts = [e.left, e.right]
    elif e._prod == "Call" and e.callee._prod == "Global":
        parts = list(e.args)
    else:
        return None
    k = next((k for k, x in enumerate(parts) if _leads(st, x)), None)
    if k is None:
        return None
    first = next((x for x in parts[:k] if x._prod not in NOTHING), None)
    if first is None:
        return _before(st, parts[k])
    return first if _typed(first) else None


def _leads(st: State, e) -> bool:
    """Whether e computes such a call, through what _before goes through."""
    if _named(st, e) is not None:
        return True
    if e._prod in ("Cast", "Unary"):
        return _leads(st, e.value if e._prod == "Cast" else e.operand)
    if e._prod == "Binary" and e.op not in ("&&", "||"):
        return _leads(st, e.left) or _leads(st, e.right)
    return e._prod == "Call" and e.callee._prod == "Global" and any(_leads(st, a) for a in e.args)


def _typed(e) -> bool:
    """Whether e's value is typed as a `let` of no written type holds it: a call by name's,
    or a cast of one."""
    while e._prod == "Cast":
        e = e.value
    return e._prod == "Call" and e.callee._prod == "Global"


def _named(st: State, e) -> int | None:
    """The position of the argument a `let` holds of e, a call of a closure's local: the
    first that is a struct or a tuple the call could not give by its parts."""
    params = st.params.get(e.callee.name) if e._prod == "Call" and \
        e.callee._prod == "Local" else None
    if params is None:
        return None
    for k, (a, (param, split)) in enumerate(zip(e.args, params)):
        if split and param.type._prod == "NamedType" and st.parts.enum(param.type) is None \
                and not giveable(a, param, split, st.parts):
            return k
    return None
