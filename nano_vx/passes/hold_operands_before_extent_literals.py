"""hold-operands-before-extent-literals: Lsplit -> Lsplit.

Same IL: each operand held is a `let` of Lsplit computing it, read by its local where it was,
in the order the interpreter computed it; the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.held_first import held_before

VARIABLE = frozenset({"DimName", "DimBinary"})


@dataclass
class State:
    names: Names | None = None  # fresh names of the function being rebuilt


hold_operands_before_extent_literals = Pass(
    "hold-operands-before-extent-literals", L, L, """
Give each argument a call computes before a tensor literal of several extents that name
variables a `let` of its own before the statement, so that bind-extent-literals finds the
literal computed first.

bind-extent-literals binds such a literal to a `let` before its statement only when the
statement computes it before anything else, on the way down through the first argument of
a call that computes something (a call of a function that is not a local), a method's
receiver, an element's base or a cast. In `print(first(shown(5), Tensor<i32, [n, n +
1]>([1, 2])))`, `shown(5)` runs, and prints, before the literal: so each argument before
the one the literal is computed in (each that computes something, and each local before
one, which it might change) is held, in order, by `let argument = ..;` before the
statement, and read by its local: `let argument = shown(5);` then `print(first(argument,
Tensor<i32, [n, n + 1]>([1, 2])))`. Only a literal of elements that only read (numbers,
locals) is reached so, as bind-extent-literals binds; a literal after a borrow, or inside
another operand (right of an operator, an `if`'s arm), is left as it is, and type-scalars
refuses it (E5010).
""", state=State)


@hold_operands_before_extent_literals.on("Fn")
def _fn(run, fn):
    if not any(n._prod == "TensorLit" and _bindable(n) for n in descendants(fn)):
        return fn
    run.state.names = Names(fn)
    return run.rebuild(fn)


@hold_operands_before_extent_literals.on("Block")
def _block(run, block):
    # bind-extent-literals binds no literal an `if`'s condition computes
    return held_before(run.rebuild(block), lambda _, e: _held(run, e),
                       frozenset({"ExprStmt", "Let", "Return"}))


def _held(run, e) -> tuple[list, object]:
    """The `let`s of the arguments e computes before such a literal on its way down to it,
    in order, and e reading their locals; ([], e) when it reaches none so."""
    if e is None:
        return [], e
    kind = e._prod
    if kind == "Call" and e.callee._prod == "Global":
        k = next((k for k, a in enumerate(e.args) if _reaches(a)), None)
        if k is None or any(a._prod == "Borrow" for a in e.args[:k]):
            return [], e
        inner, arg = _held(run, e.args[k])
        # what is held runs before the locals left, which it might change: they are held too
        computing = [j for j, a in enumerate(e.args[:k]) if a._prod not in _READS]
        upto = k if inner else computing[-1] + 1 if computing else 0
        lets, before = [], list(e.args[:k])
        for j, a in enumerate(before[:upto]):
            if a._prod not in _CONSTANT:
                name = run.state.names.fresh("argument")
                lets.append(L["Let"](name, False, L["OpaqueType"](span=a.span), a, span=a.span))
                before[j] = L["Local"](name, span=a.span)
        if not lets and not inner:
            return [], e
        return lets + inner, e.replace(args=(*before, arg, *e.args[k + 1:]))
    field = _ON_THE_WAY.get(kind)
    if field is None:
        return [], e
    inner, value = _held(run, getattr(e, field))
    return (inner, e.replace(**{field: value})) if inner else ([], e)


# What reading changes nothing of, and of those what nothing changes.
_CONSTANT = frozenset({"Global", "Int", "Float", "Bool"})
_READS = _CONSTANT | {"Local"}

# The operand an expression computes first, on the way bind-extent-literals goes down.
_ON_THE_WAY = {"MethodCall": "receiver", "Index": "base", "Cast": "value"}


def _reaches(e) -> bool:
    """Whether e is such a literal, or an expression on whose way down one is computed."""
    if e._prod == "TensorLit":
        return _bindable(e)
    if e._prod == "Call" and e.callee._prod == "Global":
        return any(_reaches(a) for a in e.args)
    field = _ON_THE_WAY.get(e._prod)
    return field is not None and _reaches(getattr(e, field))


def _bindable(lit) -> bool:
    """Whether bind-extent-literals binds the literal: of several extents that name
    variables, its elements numbers or locals."""
    def inert(x):
        x = x.operand if x._prod == "Unary" and x.op == "-" else x
        return x._prod in _READS
    return sum(d._prod in VARIABLE for d in lit.type.dims) >= 2 and all(
        inert(x) for x in lit.elems)
