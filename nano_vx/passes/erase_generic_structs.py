"""erase-generic-structs: Lresolved -> Lerased."""

from __future__ import annotations

from ..languages import Lerased, Lresolved
from ..nanopass import Pass

erase_generic_structs = Pass("erase-generic-structs", Lresolved, Lerased, """
Erase a generic struct's parameters: `Pair<f32, 4>` is `Pair`.

A struct's values are built and read the same whatever its arguments, which only the checks
of its fields would need, so it is not instantiated: `struct Pair<T, const N: i32>` loses its
parameters (a field of type `T` keeps the name and takes any value), a type `Pair<f32, 4>`
is `Pair`, and `Pair::<f32, 4> { .. }` builds a `Pair`. Done before monomorphize, so a generic
function's argument of a struct type names its instance by the struct alone (`f$Pair`).
""")


@erase_generic_structs.on("StructDecl")
def _struct(run, node):
    return Lerased["StructDecl"](node.name, run.walk_seq(node.fields), span=node.span)


@erase_generic_structs.on("StructLit")
def _struct_lit(run, node):
    return Lerased["StructLit"](node.name, run.walk_seq(node.fields), span=node.span)


@erase_generic_structs.on("AppliedType")
def _applied(run, node):
    return Lerased["NamedType"](node.name, span=node.span)
