"""expand-lazy-conditions: Lconstparts -> Lconstparts.

Same IL: a short circuit is the `if` it means and a loop's condition is computed at the top of
its body, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass
from ..scalars.aggregate_types import Shaped
from ..scalars.temporaries import named_first


expand_lazy_conditions = Pass("expand-lazy-conditions", L, L, """
Write `a && b` as `if a { b } else { false }` (`a || b` as `if a { true } else { b }`) and
`while c { B }` as `while true { let cond = c; if !cond { break } B }` where b or c computes
what name-temporaries gives a `let` before its statement: a struct, tuple or enum a call or
an `if` makes, a `match`, a struct literal's field a call computes out of its declaration's
order, an `if` with statements in its arms.

b may not run at all and c runs once per turn, so the `let` cannot go before their statement:
it goes into the `if`'s arm, which runs only when b did, and into the loop's body, which
computes c where the loop did, once per turn (`a && f(1).x` is `if a { f(1).x } else { false
}`, whose arm name-temporaries makes `{ let agg = f(1); agg.x }`). Other conditions keep their
form.
""", state=Shaped)


@expand_lazy_conditions.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    return run.rebuild(program)


@expand_lazy_conditions.on("Fn")
def _fn(run, fn):
    st = run.state
    st.enter_function(fn)
    return run.rebuild(fn)


@expand_lazy_conditions.on("Binary")
def _binary(run, e):
    e = run.rebuild(e)
    if e.op not in ("&&", "||") or not named_first(run.state, e.right):
        return e
    constant = L["Bool"](e.op == "||", span=e.span)
    then, orelse = (e.right, constant) if e.op == "&&" else (constant, e.right)
    return L["IfExpr"](e.left, False, _arm(then), _arm(orelse), span=e.span)


def _arm(x):
    return L["Block"]((), x, span=x.span)


@expand_lazy_conditions.on("While")
def _while(run, node):
    node = run.rebuild(node)
    if not named_first(run.state, node.cond):
        return node
    # The condition's `let`s then run once per turn, where it did.
    span, name = node.cond.span, run.state.names.fresh("cond")
    stop = L["If"](L["Unary"]("!", L["Local"](name, span=span), span=span), False,
                   L["Block"]((L["Break"](span=span),), None, span=span), None, span=span)
    test = (L["Let"](name, False, L["OpaqueType"](span=span), node.cond, span=span), stop)
    return node.replace(cond=L["Bool"](True, span=span),
                        body=node.body.replace(stmts=(*test, *node.body.stmts)))
