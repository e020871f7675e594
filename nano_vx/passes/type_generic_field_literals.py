"""type-generic-field-literals: Lresolved -> Lresolved.

Same IL: a literal cast to the type it would have had (`0.1 as f32` is the interpreter's
`0.1f32`) is computed as before, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lresolved as L
from ..nanopass import Pass
from ..placement.literal_contexts import literal_arguments
from ..scalars.literal_hints import typed_literals


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    given: dict = field(default_factory=dict)  # id of a literal -> the GArgs it is built with


type_generic_field_literals = Pass("type-generic-field-literals", L, L, """
Cast each unsuffixed literal given to a generic struct's field of type `T` (or as an element
of a tensor literal given to one of type `Tensor<T, ..>`) to the scalar type the struct's
arguments make T, as `0.1f32` or `3000000000i64` would be written.

The arguments are those the literal writes or those of the type it is given as (a `let`, a
parameter, a call's written generic arguments, a result, a field, a variant's value:
placement/literal_contexts.py). erase-struct-arguments then drops them, and without
the casts `let c: Cell<f32> = Cell { v: 0.1 + 0.2 };` would sum two f64s and `bump(Cell { v:
250 })` for `fn bump(c: Cell<u8>)` pass an i32, where the interpreter types them from the
arguments: an f32 sum, a u8 that wraps. T reaches the literals a `let`'s type reaches in its
value (through arithmetic and an `if`'s or a `match`'s arms), an integer cast where T is an
integer type, a float where T is a float type. An integer the type cannot hold is E3008.
""", state=State)


@type_generic_field_literals.on("Program")
def _program(run, node):
    st = run.state
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.given = literal_arguments(node)
    return run.rebuild(node)


@type_generic_field_literals.on("StructLit")
def _struct_lit(run, node):
    st = run.state
    out = run.rebuild(node)
    decl, args = st.structs.get(node.name), st.given.get(id(node), node.targs)
    if decl is None or len(args) != len(decl.generics):
        return out
    scalars = {g.name: a.type for g, a in zip(decl.generics, args)
               if g._prod == "TypeParam" and a._prod == "TypeArg" and a.type._prod == "Scalar"}
    declared = {f.name: f.type for f in decl.fields}
    fields = []
    for given in out.fields:
        ty = declared.get(given.name)
        if ty is not None and ty._prod == "NamedType" and ty.name in scalars:
            given = given.replace(value=typed_literals(L, given.value, scalars[ty.name],
                                                       run.ctx.diagnostics))
        elif ty is not None and ty._prod == "TensorType" and ty.elem._prod == "NamedType" \
                and ty.elem.name in scalars:
            given = given.replace(value=_elements(run, given.value, scalars[ty.elem.name]))
        fields.append(given)
    return out.replace(fields=tuple(fields))


def _elements(run, value, scalar):
    """value, a tensor literal (`[a, b]`, of scalars) given to a field of type `Tensor<T,
    ..>`, with each element typed as a value of type T, as the interpreter types a tensor
    literal under a `let` of its type; any other value as it is."""
    if value._prod != "ArrayLit":
        return value
    return value.replace(elems=tuple(typed_literals(L, e, scalar, run.ctx.diagnostics)
                                     for e in value.elems))
