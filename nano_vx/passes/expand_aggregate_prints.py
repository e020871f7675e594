"""expand-aggregate-prints: Lmatched -> Lmatched.

Same IL: each `print` of an aggregate prints the literal of its parts, which is the text it
printed, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars.aggregate_types import Shaped, printed, settled, shape_of


expand_aggregate_prints = Pass("expand-aggregate-prints", L, L, """
Make each `print` of a struct, tuple or enum print the literal of its parts, each enum's
variant chosen by an `if` on it inside the literal.

`print(p)` of a `Point` is `print(Point { x: p.x, y: p.y })`; of a `Shape`, `print(if p is
Shape::Dot { Shape::Dot } else if ... else { Shape::Rect(p.Shape::Rect.0, p.Shape::Rect.1)
})`, and a struct holding two enums holds an `if` for each, so the literal grows with the
variants, not with their combinations. Native code prints such a literal as one line, a
record print site with a hole per scalar or tensor and a choice per `if`. A value computed
by more than reads of locals is held in a local first, but for an `if` on a local choosing
such values, a literal of this form already (split-closure-aggregates prints so an enum a
closure takes apart): held in a local, the tensors of its variants would be put together
again in one, a buffer made for each variant not held that no one drops.
""", state=Shaped)


@expand_aggregate_prints.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    return run.rebuild(program)


@expand_aggregate_prints.on("Fn")
def _fn(run, fn):
    st = run.state
    st.enter_function(fn)
    return run.rebuild(fn)


@expand_aggregate_prints.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    st, e = run.state, node.expr
    arg = printed(e, st.sigs)
    shape = shape_of(arg, st.shapes, st.sigs, st.env.get) if arg is not None else None
    if shape is None:
        return (run.rebuild(node),)
    arg, held = run.walk(arg), []
    if not settled(arg) and not _chosen(arg):
        name, span = st.names.fresh("printed"), arg.span
        held.append(L["Let"](name, False, L["OpaqueType"](span=span), arg, span=span))
        arg = L["Local"](name, span=span)
    return (*held, node.replace(expr=e.replace(args=(_literal(arg, shape),))))


def _chosen(e) -> bool:
    """Whether e is an `if` on a local choosing settled values, with no statements: a
    literal of this form already (split-closure-aggregates prints an enum it takes apart
    so), whose arms hold no value in a local would make a copy of."""
    if e._prod != "IfExpr" or e.cond._prod != "Local" or e.then.stmts or e.orelse.stmts:
        return False
    return all(settled(b.value) or _chosen(b.value) for b in (e.then, e.orelse))


def _literal(e, shape):
    """The literal e's value is, an `if` on the variant of each enum it holds choosing that
    enum's literal. e is settled (reading it again computes nothing) or _chosen."""
    if shape is None or shape.kind == "leaf":
        return e
    p, span = e._prod, e.span
    if p == "IfExpr":
        return e.replace(then=e.then.replace(value=_literal(e.then.value, shape)),
                         orelse=e.orelse.replace(value=_literal(e.orelse.value, shape)))
    if shape.kind == "enum":
        if p == "EnumValue":
            return _variant(shape.name, e.variant, e.args, shape.part(e.variant), span)
        arms = [(label, _variant(shape.name, label,
                                 [L["VariantField"](e, shape.name, label, k, span=span)
                                  for k in range(len(variant.parts))], variant, span))
                for label, variant in shape.variants()]
        out = arms[-1][1]
        for label, value in reversed(arms[:-1]):
            out = L["IfExpr"](L["VariantIs"](e, shape.name, label, span=span), False,
                              L["Block"]((), value, span=span),
                              L["Block"]((), out, span=span), span=span)
        return out
    if p == "StructLit":
        given = {f.name: f.value for f in e.fields}
        parts = [given[k] for k, _ in shape.parts]
    elif p == "Tuple":
        parts = list(e.elems)
    elif shape.kind == "struct":
        parts = [L["FieldGet"](e, k, span=span) for k, _ in shape.parts]
    else:
        parts = [L["TupleGet"](e, k, span=span) for k, _ in shape.parts]
    values = [_literal(x, s) for x, (_, s) in zip(parts, shape.parts)]
    if shape.kind == "struct":
        return L["StructLit"](shape.name, tuple(
            L["FieldInit"](str(k), v, span=span) for (k, _), v in zip(shape.parts, values)),
            span=span)
    return L["Tuple"](tuple(values), span=span)


def _variant(enum, variant, args, shape, span):
    """The literal of the variant enum::variant carrying args."""
    return L["EnumValue"](enum, variant, tuple(_literal(x, s) for x, (_, s) in
                                               zip(args, shape.parts)), span=span)
