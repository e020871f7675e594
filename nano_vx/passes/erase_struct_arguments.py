"""erase-struct-arguments: Lresolved -> Lerased."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lerased, Lresolved
from ..nanopass import Pass
from ..values.literal_ranges import holders, integer_literal, refuse_out_of_range
from ..values.numbers import INT_TYPES


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # name -> StructDecl


erase_struct_arguments = Pass("erase-struct-arguments", Lresolved, Lerased, """
Erase the arguments of a generic struct: `Pair<f32, 4>` is `Pair`.

A struct's values are built and read the same whatever its arguments, which only the checks
of its fields would need, so a generic struct is not instantiated: a type `Pair<f32, 4>` is
`Pair`, and `Pair::<f32, 4> { .. }` builds a `Pair`. The declaration keeps its parameters
until monomorphize, which drops every generic parameter; until then a field of type `T` tells
that its type is not known. Done before monomorphize, so a generic function's argument of a
struct type names its instance by the struct alone (`f$Pair`).

What the arguments say of a literal's fields is kept: an unsuffixed integer given to a field
of type `T`, where the literal's own arguments (or the `let` it is bound by, `let p: P<i64> =
P { v: 3000000000 };`) make T an integer type, is cast to it, as `3000000000i64` would be;
without the arguments it would be an i32 and wrap. An integer the type cannot hold is E3008.
""", state=State)


@erase_struct_arguments.on("Program")
def _program(run, node):
    run.state.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    return run.rebuild(node)


@erase_struct_arguments.on("Let")
def _let(run, node):
    """`let p: P<i64> = P { .. };`: the literal takes the arguments its `let` writes."""
    value, ty = node.value, node.type
    if value is None or ty is None or value._prod != "StructLit" or value.targs or \
            ty._prod != "AppliedType" or ty.name != value.name:
        return run.rebuild(node)
    return Lerased["Let"](node.name, node.mutable, run.walk(ty),
                          _literal(run, value, ty.args), span=node.span)


@erase_struct_arguments.on("StructLit")
def _struct_lit(run, node):
    return _literal(run, node, node.targs)


def _literal(run, node, args):
    decl = run.state.structs.get(node.name)
    ints = {}  # a type parameter -> the integer type the arguments give it
    if decl is not None and len(args) == len(decl.generics):
        ints = {g.name: a.type for g, a in zip(decl.generics, args)
                   if g._prod == "TypeParam" and a._prod == "TypeArg"
                   and a.type._prod == "Scalar" and a.type.name in INT_TYPES}
    declared = {f.name: f.type for f in decl.fields} if decl is not None else {}
    fields = []
    for given in node.fields:
        given = run.walk(given)
        ty = declared.get(given.name)
        if ty is not None and ty._prod == "NamedType" and ty.name in ints and \
                integer_literal(given.value) is not None and \
                _fits(run, given.value, ints[ty.name]):
            cast = Lerased["Cast"](given.value, ints[ty.name], span=given.value.span)
            given = given.replace(value=cast)
        fields.append(given)
    return Lerased["StructLit"](node.name, tuple(fields), span=node.span)


def _fits(run, value, scalar) -> bool:
    """Whether the integer literal `value` fits the integer type `scalar`; E3008 when it does
    not."""
    t, n = INT_TYPES[scalar.name], integer_literal(value)
    if t.lo <= n <= t.hi:
        return True
    text = value.span.source.text[value.span.start:value.span.end] if value.span else str(n)
    wider = holders(n, t)
    refuse_out_of_range(run.ctx.diagnostics, value.span, text, t,
                        help=[f"use a type that holds it, such as `{wider[0].name}`"] if wider
                        else ["no integer type holds it"])
    return False


@erase_struct_arguments.on("AppliedType")
def _applied(run, node):
    return Lerased["NamedType"](node.name, span=node.span)
