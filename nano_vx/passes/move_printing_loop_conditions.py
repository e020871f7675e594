"""move-printing-loop-conditions: Lsplit -> Lsplit.

Same IL: `while true`, an `if` and `break` are Lsplit's own, and the condition is computed
where and as often as it was, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregate_values import pure

move_printing_loop_conditions = Pass("move-printing-loop-conditions", L, L, """
Write a `while` whose condition prints a value a call computes as a `while true` whose body
first tests the condition, in an `if` whose `else` breaks the loop, an `if` for each
operand of its `&&`s.

`while i + g(print(pick(i))) < 3 { B }` is `while true { if i + g(print(pick(i))) < 3 { }
else { break; } B }`, and `while a && b { B }` is `while true { if a { } else { break; } if
b { } else { break; } B }`: the condition is computed at the start of each turn, once, as
before, b only where a holds, and a `continue` in B still goes to it. bind-printed-strings
binds a string a call computes before the statement that prints it, by a `let`, and a loop's
condition has no statement before it that runs on each turn; an `if`'s condition has, and
each operand of `&&` is such a condition now, not the right of an `&&`, computed or not.
""")


@move_printing_loop_conditions.on("While")
def _while(run, loop):
    loop = run.rebuild(loop)
    if not any(_prints_computed(n) for n in descendants(loop.cond)):
        return loop
    stops = tuple(L["If"](c, False, L["Block"]((), None, span=c.span),
                          L["Block"]((L["Break"](span=c.span),), None, span=c.span),
                          span=c.span) for c in _conjuncts(loop.cond))
    body = loop.body.replace(stmts=(*stops, *loop.body.stmts))
    return loop.replace(cond=L["Bool"](True, span=loop.cond.span), body=body)


def _conjuncts(e) -> list:
    """The operands of e's `&&`s, in the order they are computed: each is computed only if
    those before it hold, as the `if`s one after the other compute them."""
    if e._prod == "Binary" and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _prints_computed(e) -> bool:
    """Whether e is a `print` of a value a call computes."""
    return e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
        len(e.args) == 1 and not pure(e.args[0])
