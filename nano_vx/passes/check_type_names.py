"""check-type-names: Lresolved, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lresolved import Lresolved
from ..nanopass import Analysis, descendants

check_type_names = Analysis("check-type-names", Lresolved, """
Refuse a type name in a signature that names no type (E3029): a parameter's, a result's, a
struct field's or a constant's.

A name in type position is a struct or an enum the program declares, a generic parameter
of the function or struct it is written in, or `str`; the scalar types, tensors and the other
built-in types are read as types of their own by the parser. Any other name is a misspelling
or a type the program forgot to declare, which would otherwise stand for a type of no values
(refused, if at all, only where a value meets it). A `let`'s annotation is not judged here: it
sits in a body, where an `if comptime` branch not taken may name what does not exist, and
check-deferred-names judges it once monomorphize has pruned that branch.
""")

# The names of types a program uses without declaring them.
_BUILT_IN = frozenset({"str"})


@check_type_names.on("Program")
def _program(run, node):
    declared = _BUILT_IN | {i.name for i in node.items if i._prod in ("StructDecl", "EnumDecl")}
    for item in node.items:
        kind = item._prod
        if kind == "Fn":
            known = declared | {g.name for g in item.generics}
            for p in item.params:
                _judge(run, p.type, known, f"parameter '{p.name}' of '{item.name}'")
            _judge(run, item.ret, known, f"the result of '{item.name}'")
        elif kind == "StructDecl":
            known = declared | {g.name for g in item.generics}
            for f in item.fields:
                _judge(run, f.type, known, f"field '{f.name}' of struct '{item.name}'")
        elif kind == "ConstItem":
            _judge(run, item.type, declared, f"the constant '{item.name}'")


def _judge(run, ty, known: frozenset, where: str) -> None:
    if ty is None:
        return
    for n in descendants(ty):
        if n._prod in ("NamedType", "AppliedType") and n.name not in known:
            run.ctx.diagnostics.error(
                "E3029", n.span, f"the type '{n.name}' of {where} names no type",
                help=["declare it (`struct`, `enum`) or fix the name"], name=n.name)
