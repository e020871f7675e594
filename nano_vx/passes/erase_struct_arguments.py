"""erase-struct-arguments: Lresolved -> Lerased."""

from __future__ import annotations

from ..languages import Lerased, Lresolved
from ..nanopass import Pass

erase_struct_arguments = Pass("erase-struct-arguments", Lresolved, Lerased, """
Erase the arguments of a generic struct: `Pair<f32, 4>` is `Pair`.

A struct's values are built and read the same whatever its arguments, which only the checks
of its fields would need, so a generic struct is not instantiated: a type `Pair<f32, 4>` is
`Pair`, and `Pair::<f32, 4> { .. }` builds a `Pair`. The declaration keeps its parameters
until monomorphize, which drops every generic parameter; until then a field of type `T` tells
that its type is not known. Done before monomorphize, so a generic function's argument of a
struct type names its instance by the struct alone (`f$Pair`).
""")


@erase_struct_arguments.on("StructLit")
def _struct_lit(run, node):
    return Lerased["StructLit"](node.name, run.walk_seq(node.fields), span=node.span)


@erase_struct_arguments.on("AppliedType")
def _applied(run, node):
    return Lerased["NamedType"](node.name, span=node.span)
