"""halt-unit-operations: Lmatched -> Lmatched.

Same IL: an operation given a value of type () is the stop the interpreter makes there
(E9006), after computing what it computes first, so native code stops with its message at
its span."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants


@dataclass
class State:
    units: set = field(default_factory=set)  # the function's locals a `let` types ()


halt_unit_operations = Pass("halt-unit-operations", L, L, """
Make each operation given values of type `()` (what `print` returns) the stop the
interpreter makes there (E9006), its operands computed first: `let b = print(1) ==
print(2);` is `print(1); print(2);` and the stop "cannot apply '==' to () and ()".

The operations are an operator given two such values (`==`, `+`, ...), `-` and `!` given
one, and `&&` or `||` given one on its left ("expected a bool, found ()", its right never
computed). A value of type `()` is a `print`, a variable a `let` of type `()` binds, or an
`if` whose arms give such values. The operation must be the first thing its statement (or
its block's value) computes, only names and literals before it, so that nothing of the
statement runs before the stop; the statement stays after the stop, the operation `false`
there, and never runs but keeps what it binds bound. Each operand is computed as a
statement of its own, in which an operation on () is stopped on in turn. Any other
operation on () stays for type-scalars, which refuses it (E5010).
""", state=State)

_PLAIN = ("Local", "Global", "Int", "Float", "Bool", "Str")
# The field of each statement holding what it computes first.
_COMPUTES = {"ExprStmt": "expr", "Let": "value", "If": "cond", "While": "cond",
             "Return": "value", "Assert": "cond", "Assign": "value"}


@halt_unit_operations.on("Fn")
def _fn(run, fn):
    run.state.units = {n.name for n in descendants(fn) if n._prod == "Let"
                       and n.type._prod == "Scalar" and n.type.name == "void"}
    if not any(n._prod in ("Binary", "Unary") and _stop(run, n) is not None
               for n in descendants(fn)):
        return fn
    return run.rebuild(fn)


def _unit(run, e) -> bool:
    if e._prod == "Call":
        return e.callee._prod == "Global" and e.callee.name == "print"
    if e._prod == "IfExpr":
        return all(arm.value is not None and _unit(run, arm.value)
                   for arm in (e.then, e.orelse))
    return e._prod == "Local" and e.name in run.state.units


def _stop(run, e):
    """(the message of the interpreter's stop at e, the operands it computes before), or
    None where e is no operation on ()."""
    if e._prod == "Unary" and e.op in ("-", "!") and _unit(run, e.operand):
        message = "cannot negate a value of type ()" if e.op == "-" else \
            "cannot apply '!' to a value of type ()"
        return message, (e.operand,)
    if e._prod != "Binary" or not _unit(run, e.left):
        return None
    if e.op in ("&&", "||"):
        return "expected a bool, found ()", (e.left,)
    if _unit(run, e.right):
        return f"cannot apply '{e.op}' to () and ()", (e.left, e.right)
    return None


# The fields each expression computes before itself, in the order it does (`&&` and `||`
# their right one after, as a later part of an expression this pass does not look into).
_COMPUTED_FIRST = {"Binary": ("left", "right"), "Call": ("args",), "Unary": ("operand",),
                   "Cast": ("value",), "IfExpr": ("cond",), "Index": ("base", "index")}


def _parts(e) -> tuple:
    if e._prod == "Binary" and e.op in ("&&", "||"):
        return (e.left,)
    if e._prod == "Call" and e.callee._prod not in _PLAIN:
        return ()
    return tuple(p for name in _COMPUTED_FIRST.get(e._prod, ())
                 for p in (getattr(e, name) if name == "args" else (getattr(e, name),)))


def _first(run, e):
    """The operation on () e computes first, when only names and literals come before it."""
    if _stop(run, e) is not None:
        return e
    for part in _parts(e):
        if part._prod not in _PLAIN:
            return _first(run, part)
    return None


def _replaced(e, old, new):
    """e with the node `old` (on the path _first took) replaced by `new`."""
    if e is old:
        return new
    return e.replace(**{name: tuple(_replaced(v, old, new) for v in value)
                        if isinstance(value, tuple) else _replaced(value, old, new)
                        for name in _COMPUTED_FIRST.get(e._prod, ())
                        for value in (getattr(e, name),)})


def _stopped(run, e):
    """The statements computing what e computes before its first operation on () and the
    stop there, and e with that operation `false`; None where e has none first."""
    first = _first(run, e)
    if first is None:
        return None
    message, operands = _stop(run, first)
    before = tuple(s for x in operands for s in _statement(run, L["ExprStmt"](x, span=x.span)))
    halt = L["Halt"]("E9006", message, span=first.span)
    return before + (halt,), _replaced(e, first, L["Bool"](False, span=first.span))


@halt_unit_operations.on(*_COMPUTES, splice=True)
def _statement(run, node):
    name = _COMPUTES[node._prod]
    e = getattr(node, name)
    if e is None or node._prod == "Assign" and node.target._prod != "Local":
        return (run.rebuild(node),)
    found = _stopped(run, e)
    if found is None:
        return (run.rebuild(node),)
    stmts, kept = found
    if node._prod == "ExprStmt":
        return stmts
    return stmts + (run.rebuild(node.replace(**{name: kept})),)


@halt_unit_operations.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    found = None if block.value is None else _stopped(run, block.value)
    if found is None:
        return block
    stmts, kept = found
    return block.replace(stmts=block.stmts + stmts, value=kept)
