"""resolve-type-paths: Lflat -> Lpaths."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lflat, Lpaths
from ..nanopass import Pass

L = Lpaths


@dataclass
class State:
    functions: set = field(default_factory=set)  # the names of the program's functions
    generic: set = field(default_factory=set)  # the structs with generic parameters
    params: frozenset = frozenset()  # the current function's type parameters


resolve_type_paths = Pass("resolve-type-paths", Lflat, Lpaths, """
Tell the two meanings of `A::b(..)` apart: a call of a function of an impl block, or a variant
(E3047 for generic arguments on a variant).

`A::b(..)` parses alike whether `A` is a struct with `impl A { fn b(..) }` or an enum with a
variant `b`; now that impl blocks are flat, it is a call of the function `A::b` when the
program has one, and otherwise the variant `A::b` with what it carries. A variant written
without parentheses carries nothing.

`Pair<i32>::with<4>(1)` is the call `Pair::with<i32, 4>(1)`: the type's generic arguments
come first, as its impl's parameters do. A call that gives the function's own arguments must
then give a generic type's too (E3047), or they would be read as the type's. Whether the enum
and its variant exist is resolve-names' question (E2003, E2004); a generic argument given to
an enum's variant is E3047 here, since nano-vx's enums have no parameters. `T::area(x)` with T
a type parameter of its function is a call of `T::area`, a function of whatever T is in each
instance (monomorphize names it): a trait's method called through the parameter.
""", state=State)


@resolve_type_paths.on("Fn")
def _fn(run, node):
    run.state.params = frozenset(g.name for g in node.generics
                                 if g._prod == "TypeParam" and not g.topology)
    return run.rebuild(node)


@resolve_type_paths.on("Program")
def _program(run, node):
    run.state.functions = {i.name for i in node.items if i._prod == "Fn"}
    run.state.generic = {i.name for i in node.items if i._prod == "StructDecl" and i.generics}
    return run.rebuild(node)


@resolve_type_paths.on("PathCall")
def _path_call(run, node):
    name = f"{node.type}::{node.fn}"
    args = run.walk_seq(node.args)
    if name in run.state.functions or node.type in run.state.params:
        if node.fargs and not node.targs and node.type in run.state.generic:
            run.ctx.diagnostics.error(
                "E3047", node.span, f"'{name}' is given its own generic arguments but not "
                                    f"those of '{node.type}', which come first",
                help=[f"write the type's arguments too: `{node.type}<..>::{node.fn}<..>(..)`"])
        callee = L["Var"](name, span=node.span)
        return L["Call"](callee, run.walk_seq(node.targs + node.fargs), args, span=node.span)
    if node.targs or node.fargs:
        run.ctx.diagnostics.error(
            "E3047", node.span, f"'{node.type}' takes no generic arguments here: no impl block "
                                f"of it declares a function '{node.fn}'",
            help=[f"write the variant without them: `{node.type}::{node.fn}(..)`"])
    return L["EnumValue"](node.type, node.fn, args, span=node.span)


@resolve_type_paths.on("EnumValue")
def _variant(run, node):
    return L["EnumValue"](node.enum, node.variant, (), span=node.span)
