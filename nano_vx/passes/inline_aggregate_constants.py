"""inline-aggregate-constants: Lassumed -> Lassumed.

Same IL: a constant's read is its value, which the interpreter computes where the read is,
as it computed it at the first read."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Shapes, is_tensor, strip
from ..values.numbers import FLOAT_TYPES, INT_TYPES


@dataclass
class State:
    shapes: Shapes | None = None
    consts: dict = field(default_factory=dict)  # aggregate constant name -> its ConstItem
    values: dict = field(default_factory=dict)  # its value, its reads of the others inlined
    refused: set = field(default_factory=set)


inline_aggregate_constants = Pass("inline-aggregate-constants", L, L, """
Replace each read of a constant holding a struct, a tuple or an enum by its value, and drop
the constant (E5010 for one whose value calls a function or holds a tensor).

Native code makes a constant one global scalar; one holding an aggregate is a literal at
each read instead, which the passes after take apart as any other (`ORIGIN.x` is `P { x: 0,
y: 3 }.x`). The interpreter computes the value once, at the first read, and every read sees
it: computed again at each read, a value made only of literals, operators and other
constants is the same, and a run that stops in it stops at the first read as well. A call
may print or run for as long as it likes, so a value calling a function is refused, and so is
one holding a tensor, whose buffer every read shares (a write through one copy shows in the
others). A number literal, alone or in arithmetic, is cast to the type the constant gives
it, which the interpreter converts the value to: in `const T: (i64, f32) = (1, 0.5);` no
context at the read would say it.
""", state=State)


@inline_aggregate_constants.on("Program")
def _program(run, program):
    st = run.state
    st.shapes = Shapes(program)
    st.consts = {i.name: i for i in program.items if i._prod == "ConstItem"
                 and i.value is not None and st.shapes.of(i.type) is not None}
    made = run.rebuild(program)
    return made.replace(items=tuple(
        i for i in made.items if i.name not in st.consts or i._prod != "ConstItem"
        or i.name in st.refused))


@inline_aggregate_constants.on("ConstItem")
def _const(run, item):
    """An aggregate constant's value is walked where it is read: unread, it is dropped."""
    return item if item.name in run.state.consts else run.rebuild(item)


@inline_aggregate_constants.on("Global")
def _global(run, e):
    st = run.state
    item = st.consts.get(e.name)
    if item is None or item.name in st.refused:
        return e
    if item.name not in st.values:
        value = run.walk(item.value)  # the constants it reads, inlined first
        made = [n for n in descendants(value) if n._prod in ("Call", "MethodCall", "Launch")]
        if made:
            return _refused(run, item, made[0], "a constant holding an aggregate whose value "
                                                "calls a function")
        if any(is_tensor(t) for t in st.shapes.of(item.type).leaves()):
            return _refused(run, item, item.value, "a constant holding a tensor in an aggregate")
        st.values[item.name] = _typed(st.shapes, value, item.type)
    return st.values[item.name]


def _refused(run, item, node, what):
    run.state.refused.add(item.name)
    refuse(run.ctx.diagnostics, item.name, node, what)
    return L["Global"](item.name, span=node.span)


def _typed(shapes, e, ty):
    """e with each number literal in it cast to the scalar type `ty` gives its place."""
    ty = strip(ty)
    if ty is None:
        return e
    p = e._prod
    if p == "Tuple" and ty._prod == "TupleType" and len(ty.elems) == len(e.elems):
        return e.replace(elems=tuple(_typed(shapes, x, t) for x, t in zip(e.elems, ty.elems)))
    if p == "StructLit" and e.name in shapes.structs:
        types = {f.name: f.type for f in shapes.structs[e.name].fields}
        return e.replace(fields=tuple(f.replace(value=_typed(shapes, f.value, types.get(f.name)))
                                      for f in e.fields))
    if p == "EnumValue" and e.enum in shapes.enums:
        fields = {v.name: v.fields for v in shapes.enums[e.enum].variants}.get(e.variant, ())
        if len(fields) == len(e.args):
            return e.replace(args=tuple(_typed(shapes, x, t) for x, t in zip(e.args, fields)))
        return e
    if ty._prod != "Scalar" or ty.name not in INT_TYPES and ty.name not in FLOAT_TYPES:
        return e
    if p in ("Int", "Float"):
        return L["Cast"](e, ty, span=e.span)
    if p == "Unary" and e.op == "-":
        return e.replace(operand=_typed(shapes, e.operand, ty))
    if p == "Binary" and e.op in ("+", "-", "*", "/", "%"):
        return e.replace(left=_typed(shapes, e.left, ty), right=_typed(shapes, e.right, ty))
    return e
