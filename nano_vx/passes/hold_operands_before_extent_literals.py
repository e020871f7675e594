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
Give each operand computed before a tensor literal of several extents that name variables
(a call's argument, an operator's left operand) a `let` of its own before the statement,
so that bind-extent-literals finds the literal computed first.

bind-extent-literals binds such a literal to a `let` before its statement only when the
statement computes it before anything else, on the way down through the first argument of
a call that computes something (a call of a function that is not a local), the first
operand of an operator that does (the left of `&&` and `||`), a method's receiver, an
element's base or a cast. In `print(first(shown(5), Tensor<i32, [n, n +
1]>([1, 2])))`, `shown(5)` runs, and prints, before the literal: so each argument before
the one the literal is computed in (each that computes something, and each local before
one, which it might change) is held, in order, by `let argument = ..;` before the
statement, and read by its local: `let argument = shown(5);` then `print(first(argument,
Tensor<i32, [n, n + 1]>([1, 2])))`; so is an operator's left operand before the right one
the literal is computed in. Only a literal of elements that only read (numbers,
locals) is reached so, as bind-extent-literals binds; a literal after a borrow, or inside
another operand (right of `&&` or `||`, an `if`'s arm, a closure's argument), is left as
it is, and type-scalars refuses it (E5010).
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
    """The `let`s of the operands e computes before such a literal on its way down to it,
    in order, and e reading their locals; ([], e) when it reaches none so."""
    if not _holds(e):
        return [], e
    operands, rebuild = _operands(e)
    k = _reached_at(operands)
    # what is held runs before the locals left, which it might change: they are held too
    computing = [j for j, a in enumerate(operands[:k]) if a._prod not in _READS]
    upto = k if _holds(operands[k]) else computing[-1] + 1
    lets, before = [], operands[:k]
    for j, a in enumerate(before[:upto]):
        if a._prod not in _CONSTANT:
            name = run.state.names.fresh("argument")
            lets.append(L["Let"](name, False, L["OpaqueType"](span=a.span), a, span=a.span))
            before[j] = L["Local"](name, span=a.span)
    inner, operand = _held(run, operands[k])
    return lets + inner, rebuild([*before, operand, *operands[k + 1:]])


def _reached_at(operands: list) -> int | None:
    """The place of the first of the operands such a literal is computed in, when no borrow
    comes before it (bind-extent-literals binds none after one)."""
    k = next((k for k, a in enumerate(operands) if _reaches(a)), None)
    return None if k is None or any(a._prod == "Borrow" for a in operands[:k]) else k


def _holds(e) -> bool:
    """Whether something e computes before such a literal is held: an operand before the
    one it is computed in that computes something, there or further down."""
    operands = _operands(e)[0]
    k = _reached_at(operands)
    return k is not None and (any(a._prod not in _READS for a in operands[:k]) or
                              _holds(operands[k]))


# What reading changes nothing of, and of those what nothing changes.
_CONSTANT = frozenset({"Global", "Int", "Float", "Bool"})
_READS = _CONSTANT | {"Local"}

# The operand an expression computes first, on the way bind-extent-literals goes down.
_ON_THE_WAY = {"MethodCall": "receiver", "Index": "base", "Cast": "value"}


def _operands(e) -> tuple[list, object]:
    """The operands e computes one after another, on the way bind-extent-literals goes
    down (a call's arguments, both of an operator, but the right of `&&` and `||`, which
    may not be computed, the first of `_ON_THE_WAY`), and the function rebuilding e of
    them; ([], None) for any other e."""
    kind = e._prod
    if kind == "Call" and e.callee._prod == "Global":
        return list(e.args), lambda xs: e.replace(args=tuple(xs))
    if kind == "Binary" and e.op not in ("&&", "||"):
        return [e.left, e.right], lambda xs: e.replace(left=xs[0], right=xs[1])
    field = "left" if kind == "Binary" else _ON_THE_WAY.get(kind)
    if field is None:
        return [], None
    return [getattr(e, field)], lambda xs: e.replace(**{field: xs[0]})


def _reaches(e) -> bool:
    """Whether e is such a literal, or an expression on whose way down one is computed."""
    if e._prod == "TensorLit":
        return _bindable(e)
    return any(_reaches(a) for a in _operands(e)[0])


def _bindable(lit) -> bool:
    """Whether bind-extent-literals binds the literal: of several extents that name
    variables, its elements numbers or locals."""
    def inert(x):
        x = x.operand if x._prod == "Unary" and x.op == "-" else x
        return x._prod in _READS
    return sum(d._prod in VARIABLE for d in lit.type.dims) >= 2 and all(
        inert(x) for x in lit.elems)
