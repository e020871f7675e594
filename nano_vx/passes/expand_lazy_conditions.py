"""expand-lazy-conditions: Lconstparts -> Lconstparts.

Same IL: a short circuit is the `if` it means and a loop's condition is computed at the top of
its body, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars.aggregate_types import Shaped
from ..scalars.aggregate_values import pure
from ..scalars.temporaries import holds_statements, named_first


@dataclass
class State(Shaped):
    units: set = field(default_factory=set)  # the function's locals a `let` types ()
    # id() of each expression of the function whose value goes straight to a variable, the
    # result or nowhere: where an `if` may hold statements in its arms
    placed: set = field(default_factory=set)


expand_lazy_conditions = Pass("expand-lazy-conditions", L, L, """
Write `a && b` as `if a { b } else { false }` (`a || b` as `if a { true } else { b }`) and
`while c { B }` as `while true { let cond = c; if !cond { break } B }` where b or c computes
what name-temporaries gives a `let` before its statement: a struct, tuple or enum a call or
an `if` makes, a `match`, a struct literal's field a call computes out of its declaration's
order, an `if` with statements in its arms. So too where b prints what halt-unit-operations
or bind-printed-strings needs a statement for: a `print`'s value given to an operator
(`c > 1 && print(1) == print(2)`, stopped on first in its statement), or a `print` of a
value a call computes (a string, bound by a `let` before its statement); such a condition of
an `if` statement is a `let` before it, whose value may hold the arm's statements, and such
a `&&` inside a larger expression (`print(c > 1 && print(1) == print(2))`) computes its
right in a `let` of the arm's own (`if c > 1 { let right = print(1) == print(2); right }
else { false }`), so that name-temporaries, holding an `if` with statements in its arms in
a local before its statement, gives the statements those passes write a place.

b may not run at all and c runs once per turn, so the `let` cannot go before their statement:
it goes into the `if`'s arm, which runs only when b did, and into the loop's body, which
computes c where the loop did, once per turn (`a && f(1).x` is `if a { f(1).x } else { false
}`, whose arm name-temporaries makes `{ let agg = f(1); agg.x }`). Other conditions keep their
form, and so does a `&&` or `||` whose left is a value of type (): halt-unit-operations stops
on it, its right never computed.
""", state=State)


@expand_lazy_conditions.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    return run.rebuild(program)


@expand_lazy_conditions.on("Fn")
def _fn(run, fn):
    st = run.state
    st.enter_function(fn)
    st.units = {n.name for n in descendants(fn) if n._prod == "Let"
                and n.type._prod == "Scalar" and n.type.name == "void"}
    st.placed = _placed(fn)
    return run.rebuild(fn)


# Each statement's field whose value goes straight where it goes, or to a `let` of its own
# (_if, _while).
_PLACED = {"Let": "value", "Return": "value", "Assign": "value", "ExprStmt": "expr",
           "If": "cond", "While": "cond"}


def _placed(fn) -> set:
    """id() of each expression of fn placed so (_PLACED), or a block's value: a block that
    is a statement's or a function's, or an arm of an `if` value itself placed (parents
    come first in descendants)."""
    nodes = list(descendants(fn))
    arms = {id(arm) for n in nodes if n._prod == "IfExpr" for arm in (n.then, n.orelse)}
    placed = set()
    for n in nodes:
        if n._prod in _PLACED:
            placed.add(id(getattr(n, _PLACED[n._prod])))
        elif n._prod == "Block" and id(n) not in arms and n.value is not None:
            placed.add(id(n.value))
        elif n._prod == "IfExpr" and id(n) in placed:
            placed.update(id(arm.value) for arm in (n.then, n.orelse) if arm.value is not None)
    return placed


@expand_lazy_conditions.on("Binary")
def _binary(run, e):
    placed = id(e) in run.state.placed
    e = run.rebuild(e)
    if e.op not in ("&&", "||"):
        return e
    lazy = _lazy_print(run, e)
    if not (lazy or named_first(run.state, e.right)):
        return e
    constant = _arm(L["Bool"](e.op == "||", span=e.span))
    right = _stated(run, e.right) if not placed and (lazy or holds_statements(e.right)) \
        else _arm(e.right)
    then, orelse = (right, constant) if e.op == "&&" else (constant, right)
    return L["IfExpr"](e.left, False, then, orelse, span=e.span)


def _stated(run, right):
    """The arm computing the right side by a `let` of its own, `{ let right = print(1) ==
    print(2); right }`, for an `if` inside a larger expression whose right prints (or is an
    `if` holding statements, a `&&` of such a right): the `if` then holds a statement
    already, so name-temporaries holds it in a local before its statement, where the
    statements halt-unit-operations or bind-printed-strings give that arm have a place."""
    span, name = right.span, run.state.names.fresh("right")
    let = L["Let"](name, False, L["Scalar"]("bool", span=span), right, span=span)
    return L["Block"]((let,), L["Local"](name, span=span), span=span)


def _lazy_print(run, e) -> bool:
    """Whether e is a `&&` or `||` whose right side prints as _prints says, and whose left is
    no value of type ()."""
    if e._prod != "Binary" or e.op not in ("&&", "||") or not _prints(e.right):
        return False
    left = e.left
    return not (_print_call(left) or left._prod == "Local" and left.name in run.state.units)


def _prints(e) -> bool:
    """Whether e (not a closure's body in it: that body's statements hold it) gives a
    `print`'s value to an operator, or prints a value a call computes."""
    inside = {id(n) for c in descendants(e) if c._prod == "Closure" for n in descendants(c)}
    return any(id(n) not in inside and _printing(n) for n in descendants(e))


def _printing(e) -> bool:
    if e._prod == "Call":
        return _print_call(e) and not pure(e.args[0])
    operands = (e.left, e.right) if e._prod == "Binary" else \
        (e.operand,) if e._prod == "Unary" else ()
    return any(_print_call(x) for x in operands)


def _print_call(e) -> bool:
    return e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
        len(e.args) == 1


def _arm(x):
    return L["Block"]((), x, span=x.span)


@expand_lazy_conditions.on("If", splice=True)
def _if(run, node):
    rebuilt = run.rebuild(node)
    if not _lazy_print(run, node.cond):
        return (rebuilt,)
    # Its arm's statements then have a place: a `let`'s value, computed where the `if` was.
    span, name = node.cond.span, run.state.names.fresh("cond")
    test = L["Let"](name, False, L["OpaqueType"](span=span), rebuilt.cond, span=span)
    return test, rebuilt.replace(cond=L["Local"](name, span=span))


@expand_lazy_conditions.on("While")
def _while(run, node):
    lazy = _lazy_print(run, node.cond)
    node = run.rebuild(node)
    if not (lazy or named_first(run.state, node.cond)):
        return node
    # The condition's `let`s then run once per turn, where it did.
    span, name = node.cond.span, run.state.names.fresh("cond")
    stop = L["If"](L["Unary"]("!", L["Local"](name, span=span), span=span), False,
                   L["Block"]((L["Break"](span=span),), None, span=span), None, span=span)
    test = (L["Let"](name, False, L["OpaqueType"](span=span), node.cond, span=span), stop)
    return node.replace(cond=L["Bool"](True, span=span),
                        body=node.body.replace(stmts=(*test, *node.body.stmts)))
