"""expand-aggregate-prints: Lmatched -> Lmatched.

Same IL: each `print` of an aggregate prints the literal of its parts, which is the text it
printed, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregate_types import (local_shapes, printed, program_types, settled,
                                       shape_of)
from ..scalars.aggregates import Names, Shapes

# The most `print`s one `print` of an aggregate becomes: one per choice of a variant for
# each enum it holds.
ARMS = 64


@dataclass
class State:
    shapes: Shapes | None = None
    sigs: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)  # the current function's aggregate locals' shapes
    names: Names | None = None
    fn: str = ""


expand_aggregate_prints = Pass("expand-aggregate-prints", L, L, """
Make each `print` of a struct, tuple or enum print the literal of its parts, under an `if`
chain on the variant of each enum it holds (E5010 past 64 arms).

`print(p)` of a `Point` is `print(Point { x: p.x, y: p.y })`; of a `Shape`, `if p is
Shape::Dot { print(Shape::Dot) } else if ... else { print(Shape::Rect(p.Shape::Rect.0,
p.Shape::Rect.1)) }`, and a struct holding two enums chooses a variant of each. Native code
prints such a literal as one line, a record print site with a hole per scalar or tensor. A value
computed by more than reads of locals is held in a local first.
""", state=State)


@expand_aggregate_prints.on("Program")
def _program(run, program):
    run.state.shapes, run.state.sigs = program_types(program)
    return run.rebuild(program)


@expand_aggregate_prints.on("Fn")
def _fn(run, fn):
    st = run.state
    st.env, st.names, st.fn = local_shapes(fn, st.shapes, st.sigs), Names(fn), fn.name
    return run.rebuild(fn)


@expand_aggregate_prints.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    st, e = run.state, node.expr
    arg = printed(e, st.sigs)
    shape = shape_of(arg, st.shapes, st.sigs, st.env.get) if arg is not None else None
    if shape is None:
        return (run.rebuild(node),)
    arg, held = run.walk(arg), []
    if not settled(arg):
        name, span = st.names.fresh("printed"), arg.span
        held.append(L["Let"](name, False, L["OpaqueType"](span=span), arg, span=span))
        arg = L["Local"](name, span=span)
    if _count(shape) > ARMS:
        refuse(run.ctx.diagnostics, st.fn, node,
               f"a `print` of an aggregate holding enums of more than {ARMS} combinations "
               "of variants")
        return (node,)
    arms = _arms(arg, shape)

    def printing(value):
        return L["Block"]((node.replace(expr=e.replace(args=(value,))),), None, span=node.span)
    out = printing(arms[-1][1])
    for tests, value in reversed(arms[:-1]):
        test = tests[0]
        for t in tests[1:]:
            test = L["Binary"]("&&", test, t, span=node.span)
        out = L["Block"]((L["If"](test, False, printing(value), out, span=node.span),), None,
                         span=node.span)
    return (*held, *out.stmts)


def _count(shape) -> int:
    """How many arms a value of `shape` may need, at most."""
    if shape.kind == "leaf":
        return 1
    counts = [_count(part) for _, part in shape.parts]
    if shape.kind == "enum":
        return sum(counts[1:])
    out = 1
    for n in counts:
        out *= n
    return out


def _arms(e, shape) -> list:
    """(tests, literal) for each choice of a variant of each enum e holds: the literal e's
    value is when every test holds. e is settled: reading it again computes nothing."""
    if shape is None or shape.kind == "leaf":
        return [((), e)]
    p, span = e._prod, e.span
    if shape.kind == "enum":
        if p == "EnumValue":
            return _joined((), shape.name, e.variant, e.args, shape.part(e.variant), span)
        return [arm for label, variant in shape.variants()
                for arm in _joined((L["VariantIs"](e, shape.name, label, span=span),),
                                   shape.name, label,
                                   [L["VariantField"](e, shape.name, label, k, span=span)
                                    for k in range(len(variant.parts))], variant, span)]
    if p == "StructLit":
        given = {f.name: f.value for f in e.fields}
        parts = [given[k] for k, _ in shape.parts]
    elif p == "Tuple":
        parts = list(e.elems)
    elif shape.kind == "struct":
        parts = [L["FieldGet"](e, k, span=span) for k, _ in shape.parts]
    else:
        parts = [L["TupleGet"](e, k, span=span) for k, _ in shape.parts]
    choices = [_arms(x, s) for x, (_, s) in zip(parts, shape.parts)]
    out = []
    for chosen in product(*choices):
        tests = tuple(t for ts, _ in chosen for t in ts)
        values = [v for _, v in chosen]
        if shape.kind == "struct":
            value = L["StructLit"](shape.name, tuple(
                L["FieldInit"](str(k), v, span=span) for (k, _), v in zip(shape.parts, values)),
                span=span)
        else:
            value = L["Tuple"](tuple(values), span=span)
        out.append((tests, value))
    return out


def _joined(tests, enum, variant, args, shape, span) -> list:
    """The arms of the variant enum::variant carrying args, under tests."""
    choices = [_arms(x, s) for x, (_, s) in zip(args, shape.parts)]
    return [((*tests, *(t for ts, _ in chosen for t in ts)),
             L["EnumValue"](enum, variant, tuple(v for _, v in chosen), span=span))
            for chosen in product(*choices)]
