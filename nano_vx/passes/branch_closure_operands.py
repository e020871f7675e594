"""branch-closure-operands: Lcopied -> Lcopied.

Same IL: an `&&` or `||` becomes the `if` of Lcopied computing the same bool, its right
operand an arm's value, in the order the interpreter computed them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lcopied import Lcopied as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.held_first import held_before
from ..scalars.tensor_names import written_copy


@dataclass
class State:
    marked: set = field(default_factory=set)  # the function's locals bound to marked closures
    names: Names | None = None  # fresh names of the function being rebuilt


branch_closure_operands = Pass("branch-closure-operands", L, L, """
Write each `a && b` (`a || b`) whose right operand calls a closure mark-uninit-closures marked as `if a { b } else { false }` (`if a { true } else { b }`), so that name-closure-temporaries finds the call in an arm's value, computed only when it was.

name-closure-temporaries computes into a `let` before its statement each tensor no local
names (a call's result) that a call gives a marked closure, so that make-all-set-flags
makes its flags all set beside it; right of `&&` or `||` the call runs only when the left
operand says so, and a `let` before the statement would compute it always. As the value
of an arm it runs just as often, and the arm's block holds the `let`:
`print(ok && at(make(3), 1) > 2)` is `print(if ok { at(make(3), 1) > 2 } else { false })`,
which computes, prints and stops as the operator did. An operator a statement computes
first (a `let`'s value, an expression statement's, a `return`'s, an `if` statement's
condition, a block's value, and on the way down to it the left operand of an operator, `!`'s,
a cast's, an `if` value's condition, an argument after constants) is held by a `let` of
its own before the statement (a `let`'s whole value is the `if`); a chain of them is an `if`
per operand. Any other is left as it is, and track-uninit-elements refuses it (E5010).
""", state=State)


@branch_closure_operands.on("Fn")
def _fn(run, fn):
    run.state.marked = {s.name for s in descendants(fn.body) if s._prod == "Let" and
                        s.value._prod == "Closure" and written_copy(s.value) is not None}
    if not run.state.marked:
        return fn
    run.state.names = Names(fn)
    return run.rebuild(fn)


@branch_closure_operands.on("Block")
def _block(run, block):
    return held_before(run.rebuild(block), lambda stmt, e: _held(run, e, stmt))


def _held(run, e, stmt=None) -> tuple[list, object]:
    """The `let` of the `if` of such an operator e computes before anything else, and e
    reading its local (a `let`'s whole value the `if` itself, with none); ([], e) when it
    computes none first."""
    branched = _branched(run, e)
    if branched is not None and stmt is not None and stmt._prod == "Let" and stmt.value is e:
        return [], branched
    if branched is not None:
        name = run.state.names.fresh("operand")
        let = L["Let"](name, False, L["Scalar"]("bool", span=e.span), branched, span=e.span)
        return [let], L["Local"](name, span=e.span)
    kind = e._prod
    if kind in ("Call", "MethodCall"):
        # an argument before, computed before the `if` held, might be changed by it: only
        # constants may come before
        k = next((k for k, a in enumerate(e.args) if a._prod not in _CONSTANT), None)
        if k is None or kind == "MethodCall" and e.receiver._prod not in _CONSTANT:
            return [], e
        held, arg = _held(run, e.args[k])
        return held, e.replace(args=(*e.args[:k], arg, *e.args[k + 1:])) if held else e
    field_ = _ON_THE_WAY.get(kind)  # the left of `&&` and `||` too, which is always computed
    if field_ is None:
        return [], e
    held, value = _held(run, getattr(e, field_))
    return held, e.replace(**{field_: value}) if held else e


# What computes nothing, and reads nothing anything changes.
_CONSTANT = frozenset({"Global", "Int", "Float", "Bool"})
# The operand an expression computes first.
_ON_THE_WAY = {"Binary": "left", "Unary": "operand", "Cast": "value", "Index": "base",
               "IfExpr": "cond"}


def _branched(run, e):
    """The `if` computing the `&&` or `||` e, whose right operand calls a marked closure, an
    `if` for each operand of a chain of them, each but the first held by a `let` of the arm
    (`a && b && c` is `if a { let operand = b; if operand { c } else { false } } else {
    false }`); None for any other e."""
    if e._prod != "Binary" or e.op not in ("&&", "||"):
        return None
    chain = _chain(e, e.op)
    if not any(_calls_marked(x, run.state.marked) for x in chain[1:]):
        return None
    return _nested(run, chain, e.op, e.span, True)[1]


def _nested(run, chain: list, op: str, span, first: bool) -> tuple[tuple, object]:
    """The statements and the value of the block computing the chain of `op`s (the first
    operand, which the statement computes first, held by nothing)."""
    if len(chain) == 1:
        return (), chain[0]
    stmts, cond = (), chain[0]
    if not first and _calls_marked(cond, run.state.marked):
        name = run.state.names.fresh("operand")
        stmts = (L["Let"](name, False, L["Scalar"]("bool", span=span), cond, span=span),)
        cond = L["Local"](name, span=span)
    computed = L["Block"](*_nested(run, chain[1:], op, span, False), span=span)
    constant = L["Block"]((), L["Bool"](op == "||", span=span), span=span)
    then, orelse = (computed, constant) if op == "&&" else (constant, computed)
    return stmts, L["IfExpr"](cond, False, then, orelse, span=span)


def _chain(e, op: str) -> list:
    """The operands of the chain of `op`s e, left to right."""
    if e._prod == "Binary" and e.op == op:
        return _chain(e.left, op) + _chain(e.right, op)
    return [e]


def _calls_marked(e, marked: set) -> bool:
    """Whether e calls one of the locals `marked`."""
    return any(n._prod == "Call" and n.callee._prod == "Local" and n.callee.name in marked
               for n in descendants(e))
