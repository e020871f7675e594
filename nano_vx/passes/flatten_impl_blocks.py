"""flatten-impl-blocks: Ltraitless -> Lflat."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lflat, Ltraitless
from ..nanopass import Pass

L = Lflat


@dataclass
class State:
    self_type: object = None  # the type `Self` stands for, inside an impl block
    self_targs: tuple = ()  # its generic arguments: the impl's own parameters
    types: set = field(default_factory=set)  # the program's structs and enums
    block_of: dict = field(default_factory=dict)  # id of a flattened function -> its impl's


flatten_impl_blocks = Pass("flatten-impl-blocks", Ltraitless, Lflat, """
Make each function of an `impl` block a top-level function named through its type (E2001 an
impl of no type, E3047 its parameters out of order, E3035 a function several impls define,
E2008 one an impl declares twice).

`impl<T> Pair<T> { fn new(a: T) -> Self { .. } }` becomes `fn Pair::new<T>(a: T) -> Pair<T>`:
the impl's generic parameters come before the function's own, so `Pair<i32>::new(1)` is the
call `Pair::new<i32>(1)`. Inside the block `Self` is the impl's type, written out: as a type,
as a struct literal's name (`Self { a: 1 }`) and as the type of a path (`Self::new(..)`,
`Self::Dot`). nano-vx has no methods: these functions are called through their type
(desugar-traits made each `impl Trait for T` an impl of T). An impl names a struct or an enum of the program (E2001 otherwise), with its generic
parameters in order as the type's arguments (E3047 otherwise: `impl<T> Pair<T, T>` would need
an impl per pattern of arguments). A function two impl blocks of one type both define (two
traits with a method of one name, implemented for one type, included) is E3035; one an impl
block declares twice is E2008, a name declared twice. Both are kept, so the output is still a
whole program.
""", state=State)


@flatten_impl_blocks.on("Program")
def _program(run, node):
    run.state.types = {i.name for i in node.items if i._prod in ("StructDecl", "EnumDecl")}
    flat = run.rebuild(node)
    seen = {}
    for fn in flat.items:
        if fn._prod != "Fn" or "::" not in fn.name:
            continue
        if fn.name in seen:
            other = seen[fn.name]
            where = f" at {other.span}" if other.span is not None else ""
            blocks = run.state.block_of
            if blocks.get(id(fn)) != blocks.get(id(other)):
                run.ctx.diagnostics.error(
                    "E3035", fn.span, f"the function '{fn.name}' is defined by two impl blocks "
                                      f"of '{fn.name.split('::')[0]}'",
                    notes=[f"the other '{fn.name}' is defined{where}"],
                    help=["keep one of them, or rename one (a call names one function)"],
                    name=fn.name)
            else:
                run.ctx.diagnostics.error(
                    "E2008", fn.span, f"the function '{fn.name}' is declared twice",
                    notes=[f"the other '{fn.name}' is declared{where}"],
                    help=["rename one of them"], name=fn.name)
        seen.setdefault(fn.name, fn)
    return flat


@flatten_impl_blocks.on("Impl", splice=True)
def _impl(run, node):
    fns = tuple(_flatten(run, node, run.state.types))
    run.state.block_of.update((id(fn), id(node)) for fn in fns)
    return fns


def _flatten(run, impl, types):
    """The impl's functions, each named through its type; none when it names no type."""
    ty = impl.type
    if ty._prod not in ("NamedType", "AppliedType"):
        run.ctx.diagnostics.error(
            "E2001", ty.span, "an impl block names a struct or an enum of the program",
            help=["declare a struct and implement it: `struct S { .. }` and `impl S { .. }`"])
        return []
    if ty.name not in types:
        run.ctx.diagnostics.error(
            "E2001", ty.span, f"there is no struct or enum named '{ty.name}' to implement",
            help=[f"declare it: `struct {ty.name} {{ .. }}`"], name=ty.name)
    params = [g.name for g in impl.generics]
    args = list(getattr(ty, "args", ()))
    if [_param_named(a) for a in args] != params:
        written = ", ".join(params)
        run.ctx.diagnostics.error(
            "E3047", ty.span, f"the impl's type must name its generic parameters in order: "
                              f"`{ty.name}<{written}>`" if params else
                              f"an impl without generic parameters names a type without "
                              f"arguments: `{ty.name}`",
            notes=["nano-vx has one impl per generic type, for every argument it is given"])
    run.state.self_type = run.walk(ty)
    run.state.self_targs = tuple(run.walk_seq(args))
    generics = run.walk_seq(impl.generics)
    fns = []
    for fn in impl.fns:
        if fn._prod != "Fn":  # the parser reads none; Ltraitless's Impl holds any Item
            run.ctx.diagnostics.error(
                "E1001", fn.span, f"expected a function in an impl block, found a {fn._prod}",
                help=["declare it outside the impl block"])
            continue
        flat = run.walk(fn)
        fns.append(flat.replace(name=f"{ty.name}::{fn.name}", generics=generics + flat.generics))
    run.state.self_type, run.state.self_targs = None, ()
    return fns


def _param_named(arg):
    """The generic parameter an argument of the impl's type names, if it is one."""
    inner = arg.type if arg._prod == "TypeArg" else arg.dim if arg._prod == "DimArg" else None
    if inner is not None and inner._prod in ("NamedType", "DimName"):
        return inner.name
    return None


@flatten_impl_blocks.on("NamedType")
def _named_type(run, node):
    if node.name == "Self" and run.state.self_type is not None:
        return run.state.self_type
    return run.rebuild(node)


@flatten_impl_blocks.on("StructLit")
def _struct_lit(run, node):
    if node.name == "Self" and run.state.self_type is not None:
        return L["StructLit"](run.state.self_type.name, run.walk_seq(node.targs),
                              run.walk_seq(node.fields), span=node.span)
    return run.rebuild(node)


@flatten_impl_blocks.on("PathCall")
def _path_call(run, node):
    if node.type == "Self" and run.state.self_type is not None:
        return L["PathCall"](run.state.self_type.name,
                             run.walk_seq(node.targs) or run.state.self_targs, node.fn,
                             run.walk_seq(node.fargs), run.walk_seq(node.args), span=node.span)
    return run.rebuild(node)


@flatten_impl_blocks.on("EnumValue", "PVariant")
def _variant(run, node):
    if node.enum == "Self" and run.state.self_type is not None:
        return run.rebuild(node).replace(enum=run.state.self_type.name)
    return run.rebuild(node)
