"""return-chosen-rows: Lsplit -> Lsplit.

Same IL: an `if` whose arms each `return` their value is Lsplit's own statement, and a
function returns what its body's value or a `return` would have given, so the interpreter
runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..scalars.storages import chosen_values


@dataclass
class State:
    rows: bool = False  # the function walked returns a tensor or a reference to one


return_chosen_rows = Pass("return-chosen-rows", L, L, """
Write a function's result that an `if` chooses, an arm of which gives a row of a tensor (`if
c { &m[0] } else { &m[1] }`, the body's value or a `return`'s), as that `if` returning each
arm's value, so that each row is returned by a `return` of its own, which native code lowers.

`fn pick(m: &T, c: bool) -> &R { if c { &m[0] } else { &m[1] } }` is `fn pick(m: &T, c:
bool) -> &R { if c { return &m[0]; } else { return &m[1]; } }`: a row is a view of its
tensor's buffer, which type-scalars lowers where a `return` (or the body's value) names it,
while an `if` value is explicate-control's variable, started at a zero that a row has not.
An `else if` chain returns in each of its arms, and an arm that ends without a value (a
`return`, a stop) is left as it is. A closure's body is not the function's: its `return`s
stay.
""", state=State)


@return_chosen_rows.on("Fn")
def _fn(run, fn):
    run.state.rows = _tensor(fn.ret)
    fn = run.rebuild(fn)
    body = fn.body
    if not run.state.rows or not _chooses_a_row(body.value):
        return fn
    return fn.replace(body=body.replace(stmts=(*body.stmts, _returning(body.value)),
                                        value=None))


@return_chosen_rows.on("Closure")
def _closure(run, closure):
    outer, run.state.rows = run.state.rows, False
    closure = run.rebuild(closure)
    run.state.rows = outer
    return closure


@return_chosen_rows.on("Return")
def _return(run, ret):
    ret = run.rebuild(ret)
    if not run.state.rows or not _chooses_a_row(ret.value):
        return ret
    return _returning(ret.value)


def _tensor(ty) -> bool:
    """Whether a function's result type is a tensor or a reference to one."""
    if ty is not None and ty._prod == "BorrowType":
        ty = ty.inner
    return ty is not None and ty._prod == "TensorType"


def _chooses_a_row(e) -> bool:
    """Whether e is an `if` an arm of which gives a row: of a tensor result, any element."""
    if e is None or e._prod != "IfExpr" or e.comptime:
        return False
    return any((v.value if v._prod == "Borrow" else v)._prod == "Index"
               for v in chosen_values(e))


def _returning(choice):
    """The `if` statement of the `if` value `choice`, each arm returning its value."""
    return L["If"](choice.cond, False, _arm(choice.then), _arm(choice.orelse),
                   span=choice.span)


def _arm(block):
    value = block.value
    if value is None:  # it leaves by a jump or a stop
        return block
    last = _returning(value) if value._prod == "IfExpr" and not value.comptime else \
        L["Return"](value, span=value.span)
    return block.replace(stmts=(*block.stmts, last), value=None)
