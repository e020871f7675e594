"""bind-extent-literals: Lsplit -> Lsplit.

Same IL: the literal is computed by a `let` of its own just before the statement that
computed it first, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..scalars.aggregates import Names

VARIABLE = frozenset({"DimName", "DimBinary"})


@dataclass
class State:
    names: Names | None = None  # fresh names of the function being rebuilt


bind_extent_literals = Pass("bind-extent-literals", L, L, """
Bind each tensor literal of several extents that name variables to a `let` of its own, just
before the statement that computes it first.

erase-variable-extents lowers the `let` of such a literal (`let t = Tensor<i32, [n, m]>([1,
2, 3, 4]);`) as the statements computing what the interpreter computes, checks, `::new()`
and a write per element, which need a statement of their own to go before. So
`print(Tensor<i32, [n, m]>([1, 2, 3, 4]));` is `let literal = Tensor<i32, [n, m]>([1, 2,
3, 4]); print(literal);`. Only a literal the statement computes before anything else is
bound (a `let`'s value, a statement's expression, a block's value, and through the first
argument of a call of a function that is not a local, a number or a const read, a method's
receiver, an element's base, a cast, and the first operand of an operator that computes
something, `&&`'s and `||`'s left), so nothing the statement does runs before it
either way; and only a literal of elements that only read (numbers, locals), so that
computing it first changes none of the reads it came after; any other stays where it is written,
which type-scalars refuses (E5010).
""", state=State)


@bind_extent_literals.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    return run.rebuild(fn)


@bind_extent_literals.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts, changed = [], False
    for stmt in block.stmts:
        field = _FIRST.get(stmt._prod)
        bound = _bind(run, getattr(stmt, field), stmt._prod != "Let") if field else None
        if bound is None:
            stmts.append(stmt)
        else:
            let, value = bound
            stmts += [let, stmt.replace(**{field: value})]
            changed = True
    value = block.value
    bound = _bind(run, value, True) if value is not None else None
    if bound is not None:
        let, value = bound
        stmts.append(let)
        changed = True
    return block.replace(stmts=tuple(stmts), value=value) if changed else block


# The field of a statement its computation starts with.
_FIRST = {"ExprStmt": "expr", "Let": "value", "Return": "value"}


def _bind(run, e, alone: bool):
    """(the `let` of the literal e computes first, e reading it instead), or None when e
    computes no such literal first, or is the literal and not `alone` (a `let`'s value is
    bound already)."""
    rebuilds = []
    while e is not None and e._prod != "TensorLit":
        e, rebuild = _first(e)
        rebuilds.append(rebuild)
    if e is None or sum(d._prod in VARIABLE for d in e.type.dims) < 2 or \
            not (rebuilds or alone) or not all(_inert(x) for x in e.elems):
        return None
    name, span = run.state.names.fresh("literal"), e.span
    value = L["Local"](name, span=span)
    for rebuild in reversed(rebuilds):
        value = rebuild(value)
    return L["Let"](name, False, e.type, e, span=span), value


# What computing reads only: a literal computed before it instead changes nothing it reads.
_READS = frozenset({"Local", "Global", "Int", "Float", "Bool"})


def _inert(e) -> bool:
    """Whether computing the element e only reads (a number, negated or not, or a local):
    computed before the reads it came after, it changes none of them."""
    if e._prod == "Unary" and e.op == "-":
        e = e.operand
    return e._prod in _READS


def _first(e):
    """The operand e computes before anything but reads, when it is one a tensor can be,
    with the function giving e that operand replaced; (None, None) for any other."""
    kind = e._prod
    if kind == "Call" and e.callee._prod == "Global":
        k = next((k for k, a in enumerate(e.args) if a._prod not in _READS), None)
        if k is not None:
            return e.args[k], lambda v: e.replace(args=(*e.args[:k], v, *e.args[k + 1:]))
    if kind == "MethodCall":
        return e.receiver, lambda v: e.replace(receiver=v)
    if kind == "Index":
        return e.base, lambda v: e.replace(base=v)
    if kind == "Cast":
        return e.value, lambda v: e.replace(value=v)
    if kind == "Binary":  # the right one once the left only reads, but `&&`'s and `||`'s
        if e.left._prod not in _READS or e.op in ("&&", "||"):
            return e.left, lambda v: e.replace(left=v)
        return e.right, lambda v: e.replace(right=v)
    return None, None
