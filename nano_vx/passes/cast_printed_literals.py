"""cast-printed-literals: Lmatched -> Lmatched.

Same IL: a cast of an unsuffixed literal to the type its field gives it is what the
interpreter computes of the literal there, so it runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars.aggregate_types import Typed, holds_aggregates, printed
from ..scalars.aggregates import leaf_type
from ..scalars.literal_hints import cast


cast_printed_literals = Pass("cast-printed-literals", L, L, """
Make each unsuffixed number that the literal a `print` is given puts in a field, or a
variant's value, of another scalar type a cast to that type.

expand-aggregate-prints wrote the literal; scalarize-aggregates keeps its form, made of
scalars, where no declaration says its fields' types any more: `print(Wide { n: 5 })` of an
`n: u64` is `print(Wide { n: 5 as u64 })`, as `let n: u64 = 5` makes it (else native code
would print an i32, or an f64 where the field is an f32). A literal given a tuple's element
has its own type already: no declaration says another.
""", state=Typed)


@cast_printed_literals.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    return run.rebuild(program)


@cast_printed_literals.on("Fn")
def _fn(run, fn):
    st = run.state
    if not holds_aggregates(fn, st.sigs):
        return fn
    st.enter_function(fn)
    return run.rebuild(fn)


@cast_printed_literals.on("ExprStmt")
def _expr_stmt(run, node):
    e = node.expr
    arg = printed(e, run.state.sigs)
    if arg is not None and run.state.shape(arg) is not None:
        return node.replace(expr=e.replace(args=(_record(run, arg),)))
    return run.rebuild(node)


def _record(run, e, ty=None):
    """The literal e, an unsuffixed literal given to a field or a variant's value of type `ty`
    cast to that type."""
    p = e._prod
    if p == "StructLit":
        shape = run.state.shape(e)
        return e.replace(fields=tuple(
            f.replace(value=_record(run, f.value, leaf_type(shape, f.name))) for f in e.fields))
    if p == "Tuple":
        return e.replace(elems=tuple(_record(run, x) for x in e.elems))
    if p == "EnumValue":
        variant = run.state.shape(e).part(e.variant)
        return e.replace(args=tuple(_record(run, x, leaf_type(variant, k))
                                    for k, x in enumerate(e.args)))
    if p in ("Int", "Float") and ty is not None and ty._prod == "Scalar":
        return cast(L, e, ty)
    if p == "IfExpr":  # an enum's variant, chosen by its tag
        return e.replace(then=e.then.replace(value=_record(run, e.then.value)),
                         orelse=e.orelse.replace(value=_record(run, e.orelse.value)))
    return e
