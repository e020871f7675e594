"""check-struct-arguments: Lresolved, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import Lresolved, display_name
from ..nanopass import Analysis, descendants
from ..placement.generic_arguments import count


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    known: frozenset = frozenset()  # the const items' names
    types: frozenset = frozenset()  # the names a type may have: structs, enums, `str`
    generics: frozenset = frozenset()  # the enclosing item's generic parameters


check_struct_arguments = Analysis("check-struct-arguments", Lresolved, """
Refuse a const argument of a generic struct that is not known while compiling (E3047): `Foo<n>`
with n a run-time local; another number of arguments than the struct's parameters (E3047), and
a type argument that names no type (E3029).

A struct's const parameter is a number fixed while compiling, as a function's is: its
argument is a literal, a `const` item, a const parameter of the function (or struct) it is
written in, or arithmetic on those. A local holds a value only when the program runs, so
`let t: Foo<n> = ..` is refused, as `f<n>()` is; erase-struct-arguments, which comes next,
would otherwise drop the argument unread, as it would drop an argument too many or a type
argument naming no type (`Cell<i32, f64>`, `Cell<Nope>` as a `let`'s type): erased, a `let`'s
type is `Cell` for check-deferred-names, which judges the names of a body's types. A name no
item declares names no type in any instance, so the arguments of a branch an `if comptime`
prunes are judged too.
""", state=State)


@check_struct_arguments.on("Program")
def _program(run, node):
    st = run.state
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.known = frozenset(i.name for i in node.items if i._prod == "ConstItem")
    st.types = frozenset(st.structs) | {"str"} | {
        i.name for i in node.items if i._prod == "EnumDecl"}
    run.descend(node)


@check_struct_arguments.on("Fn", "StructDecl")
def _item(run, node):
    run.state.generics = frozenset(g.name for g in node.generics)
    run.descend(node)
    run.state.generics = frozenset()


@check_struct_arguments.on("AppliedType", "StructLit")
def _applied(run, node):
    run.descend(node)
    decl = run.state.structs.get(node.name)
    args = node.args if node._prod == "AppliedType" else node.targs
    if decl is None:
        return
    if args and len(args) != len(decl.generics):
        run.ctx.diagnostics.error(
            "E3047", node.span, f"'{node.name}' takes {count(len(decl.generics))}, but "
            f"this gives it {len(args)}",
            help=["give one argument per parameter of the struct, in order"],
            struct=node.name)
        return
    for param, arg in zip(decl.generics, args):
        if param._prod == "TypeParam":
            _judge_type(run, arg, node.name)
        if param._prod != "ConstParam":
            continue
        unknown = [display_name(n) for n in _names(arg)
                   if n not in run.state.known | run.state.generics]
        if unknown:
            run.ctx.diagnostics.error(
                "E3047", arg.span or node.span,
                f"'{param.name}' of '{node.name}' is a const {_shown(param.type)}, but "
                f"'{unknown[0]}' is not known while compiling: it is a run-time value",
                help=["give a literal, a `const` item or a const parameter; a value known "
                      "only when the program runs is an ordinary field or argument"],
                struct=node.name, param=param.name, name=unknown[0])


def _judge_type(run, arg, struct: str) -> None:
    known = run.state.types | run.state.generics
    # A struct applied inside the argument has its own arguments judged where it is visited.
    inner = {id(d) for n in descendants(arg) if n._prod == "AppliedType"
             and n.name in run.state.structs for d in descendants(n) if d is not n}
    for n in descendants(arg):
        if id(n) in inner:
            continue
        if n._prod in ("NamedType", "AppliedType") and n.name not in known:
            run.ctx.diagnostics.error(
                "E3029", n.span, f"the type '{n.name}' given to '{struct}' names no type",
                help=["declare it (`struct`, `enum`) or fix the name"], name=n.name)


def _names(arg):
    """The names a generic argument reads: a bare name, or those of a dimension."""
    return [n.name for n in descendants(arg) if n._prod in ("DimName", "NamedType")]


def _shown(t):
    return t.name if t._prod == "Scalar" else t._prod
