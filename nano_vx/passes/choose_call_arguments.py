"""choose-call-arguments: Lsplit -> Lsplit.

Same IL: the condition reads only locals and literals and cannot stop, and the arguments it
now chooses are borrows of variables and literals, which compute nothing, so computing it
once per argument before the one call computes what it computed once before one of two
calls."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..dump.text import to_text
from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.storages import fresh_copy

@dataclass
class State:
    types: dict = field(default_factory=dict)  # a local declared once -> its type written


choose_call_arguments = Pass("choose-call-arguments", L, L, """
Write a `let` of a shared reference to a tensor that an `if` chooses between two calls of
one function as that call, each argument the arms give differently the `if` choosing it.

`let r = if c { first(&a, &b) } else { first(&b, &a) };` is `let r = first(if c { &a }
else { &b }, if c { &b } else { &a });`: a reference chosen between variables is one
assign-chosen-tensors starts at a place, where split-chosen-tensor-references would write
the rest of the block once per arm (and leaves a function with more than four such `let`s
as it is). It is for arms computing nothing but the call, on a condition of locals and
literals by arithmetic other than `/` and `%` (which may stop), comparisons and logic,
whose arguments are each the same local or literal in both arms, two literals of one kind
(the parameter types the `if` as it typed each: an `if` passes its context on to its
values), or shared borrows of two variables whose `let`s or parameters write the same type.
""", state=State)

_QUIET = ("Int", "Float", "Bool", "Local", "Unary", "Binary")


@choose_call_arguments.on("Fn")
def _fn(run, fn):
    declared = [n for n in descendants(fn) if n._prod in ("Let", "Param")]
    once = Counter(n.name for n in declared)
    run.state.types = {n.name: to_text(n.type) for n in declared
                       if once[n.name] == 1 and n.type is not None and
                       n.type._prod != "OpaqueType"}
    return run.rebuild(fn)


@choose_call_arguments.on("Let")
def _let(run, s):
    s = run.rebuild(s)
    call = _one_call(s.value, run.state.types) if _shared_tensor_reference(s.type) else None
    return s if call is None else s.replace(value=call)


def _shared_tensor_reference(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable and \
        ty.inner._prod == "TensorType"


def _one_call(e, types: dict):
    """The call `if` e chooses between, its differing arguments chosen; None where e is no
    such `if`."""
    if e._prod != "IfExpr" or e.comptime or e.orelse is None or \
            not all(n._prod in _QUIET and not (n._prod == "Binary" and n.op in ("/", "%"))
                    for n in (e.cond, *descendants(e.cond))):
        return None
    calls = [arm.value for arm in (e.then, e.orelse) if not arm.stmts]
    if len(calls) != 2 or any(c is None or c._prod != "Call" or c.callee._prod != "Global"
                              for c in calls):
        return None
    then, orelse = calls
    if then.callee.name != orelse.callee.name or len(then.args) != len(orelse.args):
        return None
    args = []
    for x, y in zip(then.args, orelse.args):
        if x._prod in ("Int", "Float", "Bool", "Local") and to_text(x) == to_text(y):
            args.append(x)
        elif x._prod == y._prod and x._prod in ("Int", "Float", "Bool") or \
                _borrowed(x) is not None and _borrowed(y) is not None and \
                types.get(_borrowed(x)) is not None and \
                types.get(_borrowed(x)) == types.get(_borrowed(y)):
            args.append(L["IfExpr"](fresh_copy(e.cond), False,
                                    L["Block"]((), x, span=x.span),
                                    L["Block"]((), y, span=y.span), span=x.span))
        else:
            return None
    return then.replace(args=tuple(args), span=e.span)


def _borrowed(e):
    """The variable `&x` names, None for any other value."""
    return e.value.name if e._prod == "Borrow" and not e.mutable and \
        e.value._prod == "Local" else None
