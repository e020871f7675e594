"""cast-returned-generic-fields: Lmatched -> Lmatched.

Same IL: the interpreter converts a value returned to the function's result type, which the
cast says, so it runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars.aggregate_types import Typed, holds_aggregates
from ..scalars.aggregates import strip
from ..scalars.terms import FLOATS
from ..values.numbers import INT_TYPES


@dataclass
class State(Typed):
    ret: object = None  # its result's type when that is a scalar's


cast_returned_generic_fields = Pass("cast-returned-generic-fields", L, L, """
Make each field of a generic struct holding an f64 or an i32 (as an unsuffixed literal is)
that a function returns as another float or integer type a cast to that type.

The interpreter converts such a value returned; scalarize-aggregates types the field's local
as what puts it there (`Cell { v: 1.5 }` an f64), so native code needs the conversion
written: `fn third(c: Cell<f32>) -> f32 { c.v }` returns `c.v as f32`. A closure's `return`
is its own, and is left.
""", state=State)


@cast_returned_generic_fields.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    return run.rebuild(program)


@cast_returned_generic_fields.on("Fn")
def _fn(run, fn):
    st = run.state
    ret = strip(fn.ret)
    if not holds_aggregates(fn, st.sigs) or ret is None or ret._prod != "Scalar":
        return fn
    st.ret = ret
    st.enter_function(fn)
    body = run.walk(fn.body)
    value = _returned(run, fn.body.value, body.value)
    if value is not body.value:
        body = body.replace(value=value)
    return fn if body is fn.body else fn.replace(body=body)


@cast_returned_generic_fields.on("Return")
def _return(run, node):
    value = _returned(run, node.value, run.walk(node.value)) if node.value is not None else None
    return node if value is node.value else node.replace(value=value)


@cast_returned_generic_fields.on("Closure")
def _closure(run, e):
    st = run.state
    ret, st.ret = st.ret, None  # its `return` is its own
    made = run.rebuild(e)
    st.ret = ret
    return made


def _returned(run, e, made):
    """What a function returning a scalar returns, made of e: a field of a generic struct
    holding an f64 (or an i32), as an unsuffixed literal is, converted to the result's other
    float (or integer) type, as the interpreter converts such a value returned."""
    st = run.state
    ret, p = st.ret, e._prod if e is not None else None
    if ret is None or p not in ("FieldGet", "TupleGet", "VariantField"):
        return made
    base = st.shape(e.base)
    if base is not None and p == "VariantField":
        base = dict(base.parts).get(e.variant)
    part = dict(base.parts).get(e.field if p == "FieldGet" else e.index) \
        if base is not None else None
    held = strip(part.leaf) if part is not None and part.kind == "leaf" else None
    if held is None or held._prod != "Scalar" or held.name == ret.name or not (
            held.name == "f64" and ret.name in FLOATS or
            held.name == "i32" and ret.name in INT_TYPES):
        return made
    return L["Cast"](made, ret, span=e.span)
