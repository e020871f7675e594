"""name-sizing-calls: Lsplit -> Lsplit.

Same IL: the call is computed by a `let` just before its statement, which computed it before
anything else, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.first_parts import NOTHING, first_found, first_part, part, replaced_first
from ..scalars.held_first import held_before
from ..scalars.sizing import opening_lets


@dataclass
class State:
    sized: dict = field(default_factory=dict)  # each function sized so by name
    scalar: set = field(default_factory=set)  # the functions declared to return a scalar
    names: Names | None = None  # the function's names, for the new ones


name_sizing_calls = Pass("name-sizing-calls", L, L, """
Give each call of a function returning a tensor made by `::uninit()` whose `?` extents `let`s opening its body compute, that its statement computes before anything else without a `let` naming it (`print(make(3)[0])`), a `let` of its own just before the statement, so that split-sizing-calls and hoist-sizing-lets, which split such a `let`'s call, find it.

The statement is an expression statement, a `let`, a `return` or an `if`'s condition, or a
block's value (the `let` after the block's statements); what it computes first is found
along first parts as copy-tracked-functions finds it (an element's base, an operator's left
operand or the right of one whose left computes nothing, a call's first argument that
computes something), so the call runs where it ran. A call an operator's right operand
computes first, after a left operand that computes something (`make(2)[3] + make(1)[0]`), is
named once that operand is a `let`'s of its own (`let operand = sized[3];`), computed first
before it as it was; so is one an argument computes first after earlier arguments that are
elements, operators' values or calls of functions of the program declared to return a
scalar (`add(make(2)[3], make(1)[0])`, `add(twice(3), make(1)[0])`), each held so in turn.
A call computed after another earlier argument (`g(h(), make(3)[0])` of a closure h, whose
result no declared type says), right of `&&` or `||`, or in a `while`'s condition stays,
which copy-tracked-functions refuses (E5010) while the function is still called itself.
""", state=State)


@name_sizing_calls.on("Program")
def _program(run, program):
    run.state.sized = {i.name: i for i in program.items
                       if i._prod == "Fn" and opening_lets(i, calls=True) is not None}
    run.state.scalar = {i.name for i in program.items
                        if i._prod == "Fn" and i.ret is not None and i.ret._prod == "Scalar"}
    return run.rebuild(program) if run.state.sized else program


@name_sizing_calls.on("Fn")
def _fn(run, fn):
    if not any(_sizing(run.state, n) for n in descendants(fn.body)):
        return fn
    run.state.names = Names(fn)
    return run.rebuild(fn)


@name_sizing_calls.on("Block")
def _block(run, block):
    return held_before(run.rebuild(block), lambda stmt, e: _named(run, stmt, e))


def _named(run, stmt, e) -> tuple[list, object]:
    """The `let`s of the calls `e` computes first, each in turn, and e reading their locals;
    none for a `let`'s value that is the call itself, which split-sizing-calls splits, nor
    for an expression statement's (`make(3);`), whose tensor nothing reads. An operator's
    left operand that computes something before such a call (`make(2)[3] + make(1)[0]`) is
    a `let`'s first, as named so, so that the call is then computed first."""
    lets = []
    while True:
        call = first_found(e, lambda x: _sizing(run.state, x))
        if call is not None and not (call is e and stmt is not None and
                                     stmt._prod in ("Let", "ExprStmt")):
            name = run.state.names.fresh("sized")
            lets.append(L["Let"](name, False, run.state.sized[call.callee.name].ret, call,
                                 span=call.span))
            e = replaced_first(e, call, L["Local"](name, span=call.span))
            continue
        left = _before_call(run.state, e) if call is None else None
        if left is None:
            return lets, e
        operand = L["Let"](run.state.names.fresh("operand"), False,
                           L["OpaqueType"](span=left.span), left, span=left.span)
        held, value = _named(run, operand, left)
        lets += [*held, operand.replace(value=value)]
        e = replaced_first(e, left, L["Local"](operand.name, span=left.span))


def _before_call(st: State, e):
    """The left operand, along what e computes first, of an operator (not `&&` or `||`,
    whose right may not be computed) that computes something before its right operand
    computes such a call first, or the argument of a call computing something first, an
    element or an operator's value, before a later argument that computes such a call
    first, if any."""
    while (field := first_part(e)) is not None:
        if e._prod == "Binary" and e.op not in ("&&", "||") and e.left._prod not in NOTHING \
                and first_found(e.right, lambda x: _sizing(st, x)) is not None:
            return e.left
        if e._prod == "Call" and _held(st, part(e, field)) and any(
                first_found(a, lambda x: _sizing(st, x)) is not None
                for a in e.args[int(field[5:]) + 1:]):
            return part(e, field)
        e = part(e, field)
    return None


# The arguments held by a `let` before a later one's call: scalars, which a `let` copies.
_HELD = ("Index", "Binary", "Unary", "Cast")


def _held(st: State, arg) -> bool:
    """Whether an argument is a scalar a `let` holds before a later argument's call: an
    element, an operator's value, or a call of a function of the program declared to
    return a scalar (a closure's call, whose result no declared type says, stays)."""
    return arg._prod in _HELD or arg._prod == "Call" and arg.callee._prod == "Global" and \
        arg.callee.name in st.scalar


def _sizing(st: State, e) -> bool:
    """Whether e calls a function sized so, given each of its parameters."""
    return e._prod == "Call" and e.callee._prod == "Global" and e.callee.name in st.sized \
        and len(e.args) == len(st.sized[e.callee.name].params)
