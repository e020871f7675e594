"""name-temporaries: Lassumed -> Lassumed.

Same IL: each moved value is computed by a `let` of its own just before the statement that
used it, in the order the statement computed it, so the interpreter runs the output as it
ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregate_types import local_shapes, program_types, settled, shape_of
from ..scalars.aggregate_values import pure
from ..scalars.aggregates import Names, Refused, Shapes


@dataclass
class State:
    shapes: Shapes | None = None
    sigs: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)  # the current function's aggregate locals' shapes
    names: Names | None = None
    pending: list = field(default_factory=list)  # the `let`s to run before this statement
    effects: bool = False  # a call of this statement ran already, in place
    every: bool = False  # every call of this statement is held in a local, in order


name_temporaries = Pass("name-temporaries", L, L, """
Give each struct, tuple or enum a call or an `if` makes inside an expression, each `match`
inside one, and each value a `match` is on, a local of its own, computed by a `let` before
the statement (E5010 where that would change when calls run).

`g(f(1))` and `f(1).x` of an `f` returning a struct are `let agg = f(1); g(agg)` and `let agg
= f(1); agg.x`: what scalarize-aggregates splits then is only ever a local, a literal, or a
call, `if` or `match` whose value a statement stores; and `match f(1) { .. }` is `let
matched = f(1); match matched { .. }`, which lower-matches tests once per case. A field of
a struct literal written out of its declaration's order is held in a local too when a call
computes it, so that the calls run in the order written. When a call of the statement that stays in place would have run before
the one moved, every call of the statement is held in a local, in the order they ran. What
the right of `&&` or `||` computes may not run at all, and a loop's condition runs once per
turn: one that needs a `let` is first written as the `if` it means (`a && f(1).x` is `if a {
f(1).x } else { false }`), and such a loop as `while true { let cond = c; if !cond { break }
.. }`. Moving a call is refused after a `transfer` or a launch of the statement.
""", state=State)


@name_temporaries.on("Program")
def _program(run, program):
    run.state.shapes, run.state.sigs = program_types(program)
    return run.rebuild(program)


@name_temporaries.on("Fn")
def _fn(run, fn):
    st = run.state
    st.env, st.names = local_shapes(fn, st.shapes, st.sigs), Names(fn)
    try:
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _aggregate(run, e) -> bool:
    st = run.state
    return shape_of(e, st.shapes, st.sigs, st.env.get) is not None


_AFTER = "an aggregate computed after a call of the same statement ran"


def _statement(run, make) -> list:
    """make()'s statements, after the `let`s their expressions need first; made again with
    every call held in a local when one would run out of order."""
    st = run.state
    saved = st.pending, st.effects, st.every
    try:
        for every in (False, True):
            st.pending, st.effects, st.every = [], False, every
            try:
                made = make()
                return [*st.pending, *made]
            except Refused as bad:
                if every or bad.what != _AFTER:
                    raise
    finally:
        st.pending, st.effects, st.every = saved


def _spliced(out) -> list:
    return list(out) if isinstance(out, tuple) else [out]


@name_temporaries.on("Block")
def _block(run, block):
    stmts = []
    for s in block.stmts:
        stmts += _statement(run, lambda s=s: _spliced(run.walk(s)))
    if block.value is None:
        return block.replace(stmts=tuple(stmts))
    held = []
    stmts += _statement(run, lambda: held.append(_in_place(run, block.value)) or [])
    return block.replace(stmts=tuple(stmts), value=held[0])


@name_temporaries.on("Let", "Return", splice=True)
def _valued(run, node):
    if node.value is None:
        return (node,)
    return (node.replace(value=_in_place(run, node.value)),)


@name_temporaries.on("Assign", splice=True)
def _assign(run, node):
    value = _in_place(run, node.value)
    return (node.replace(target=run.walk(node.target), value=value),)


@name_temporaries.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    return (node.replace(expr=_in_place(run, node.expr)),)


def _in_place(run, e):
    """e, the whole value of its statement, which stores it where it goes: a call, or an `if`
    making an aggregate, stays, and its parts are walked; so does a `match`, its scrutinee
    named."""
    if e._prod == "MatchValue":
        out = _matched(run, e)
    elif e._prod == "Call" or e._prod == "IfExpr" and _aggregate(run, e):
        out = run.rebuild(e)
    else:
        return run.walk(e)
    run.state.effects = True
    return out


def _temp(run, x, made, base="agg"):
    """A read of a new local holding `made` (x's walked form), its `let` run first."""
    if run.state.effects:
        raise Refused(x, _AFTER)
    name = run.state.names.fresh(base)
    run.state.pending.append(L["Let"](name, False, L["OpaqueType"](span=x.span), made,
                                      span=x.span))
    return L["Local"](name, span=x.span)


@name_temporaries.on("Call", "IfExpr", "Launch", "MethodCall", "Transfer")
def _call(run, e):
    st = run.state
    before = st.effects
    out = run.rebuild(e)
    if e._prod == "Call" and st.every or e._prod in ("Call", "IfExpr") and _aggregate(run, e):
        st.effects = before  # what the call computes moves with it
        return _temp(run, e, out)
    st.effects = st.effects or e._prod != "IfExpr"
    return out


def _matched(run, e):
    """The `match` e with its scrutinee a read of locals, or a literal, and its cases walked."""
    st = run.state
    before = st.effects
    scrutinee = run.walk(e.scrutinee)
    if not settled(scrutinee):
        st.effects = before
        scrutinee = _temp(run, e.scrutinee, scrutinee, "matched")
    return e.replace(scrutinee=scrutinee, cases=tuple(run.walk(c) for c in e.cases))


@name_temporaries.on("MatchValue")
def _match(run, e):
    st = run.state
    before = st.effects
    out = _matched(run, e)
    st.effects = before  # its `if` chain needs statements of its own: a `let`
    return _temp(run, e, out)


@name_temporaries.on("StructLit")
def _struct(run, e):
    shape = run.state.shapes.of(L["NamedType"](e.name, span=e.span))
    if shape is None or [f.name for f in e.fields] == [k for k, _ in shape.parts]:
        return run.rebuild(e)
    # scalarize-aggregates computes the fields in the declaration's order.
    fields = []
    for f in e.fields:
        before = run.state.effects
        value = run.walk(f.value)
        if not pure(f.value) and not _aggregate(run, f.value):
            run.state.effects = before  # its calls move with it
            value = _temp(run, f.value, value)
        fields.append(f.replace(value=value))
    return e.replace(fields=tuple(fields))


@name_temporaries.on("While")
def _while(run, node):
    cond = _alone(run, node.cond)
    if cond is not None:
        return node.replace(cond=cond, body=run.walk(node.body))
    # `while c { B }` is `while true { let cond = c; if !c { break } B }`: the condition's
    # `let`s then run once per turn, where it did.
    span, name = node.cond.span, run.state.names.fresh("cond")
    stop = L["If"](L["Unary"]("!", L["Local"](name, span=span), span=span), False,
                   L["Block"]((L["Break"](span=span),), None, span=span), None, span=span)
    test = (L["Let"](name, False, L["OpaqueType"](span=span), node.cond, span=span), stop)
    body = node.body.replace(stmts=(*test, *node.body.stmts))
    return node.replace(cond=L["Bool"](True, span=span), body=run.walk(body))


@name_temporaries.on("Binary")
def _binary(run, e):
    if e.op not in ("&&", "||"):
        return run.rebuild(e)
    left = run.walk(e.left)
    right = _alone(run, e.right)
    if right is not None:
        return e.replace(left=left, right=right)
    # `a && b` is `if a { b } else { false }`, `a || b` is `if a { true } else { b }`: b's
    # `let`s then run in its arm, only when b did.
    def arm(x):
        return run.walk(L["Block"]((), x, span=x.span))
    constant = L["Bool"](e.op == "||", span=e.span)
    then, orelse = (e.right, constant) if e.op == "&&" else (constant, e.right)
    # An `if` with statements in its arms is a statement's value, not a part of one.
    return _temp(run, e, L["IfExpr"](left, False, arm(then), arm(orelse), span=e.span), "cond")


def _alone(run, e):
    """e walked, or None when it needs a `let` first: it may run other than once, so the
    `let` cannot go before its statement."""
    st = run.state
    saved = len(st.pending), st.effects, st.names.mark()
    every, st.every = st.every, False
    try:
        out = run.walk(e)
    except Refused as bad:
        if bad.what != _AFTER:
            raise
        out = None
    finally:
        st.every = every
    if out is None or len(st.pending) != saved[0]:
        del st.pending[saved[0]:]
        st.effects = saved[1]
        st.names.undo(saved[2])
        return None
    return out
