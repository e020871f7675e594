"""erase-struct-arguments: Lresolved -> Lerased."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lerased, Lresolved
from ..languages.lerased import ERASED
from ..nanopass import Pass, descendants
from ..placement.instances import instance_name
from ..placement.literal_contexts import literal_arguments


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    enums: frozenset[str] = frozenset()
    fns: dict = field(default_factory=dict)  # name -> Fn, the non-generic ones
    given: dict = field(default_factory=dict)  # id of a literal -> the GArgs it is built with
    instances: dict = field(default_factory=dict)  # generic -> {instance name: StructDecl}
    binding: dict = field(default_factory=dict)  # while an instance is made: T -> its type,
    # N -> its number
    known: dict = field(default_factory=dict)  # a local of the function walked -> its struct
    own: frozenset[str] = frozenset()  # the type parameters of the generic function walked
    params: frozenset[int] = frozenset()  # the ids of its parameters
    keeping: bool = False  # while one of its parameters' types is walked


_ERASED = Lerased["NamedType"](ERASED, span=None)  # an instance's parameter nothing gives


erase_struct_arguments = Pass("erase-struct-arguments", Lresolved, Lerased, """
Erase the arguments of a generic struct (`Pair<f32, 4>` is `Pair`), but instantiate one
applied to aggregates or tensors: `Cell<Point>` is the struct `Cell$Point { v: Point }`.

A struct's values are built and read the same whatever its arguments, which only the checks
of its fields would need, so a generic struct is mostly not instantiated: a type `Pair<f32,
4>` is `Pair`, and `Pair::<f32, 4> { .. }` builds a `Pair`. The declaration keeps its
parameters until monomorphize, which drops every generic parameter; until then a field of
type `T` tells that its type is not known. Done before monomorphize, so a generic function's
argument of a struct type names its instance by the struct alone (`f$Pair`).

An erased field is one scalar or tensor whose type the values put there tell
(scalars/aggregate_types.py), which an aggregate is not, nor a tensor two calls give two
sizes: a struct none of whose parameters is a topology, applied to types that name no
parameter, one of which is a struct, an enum, a tuple or a tensor of known extents, and to
numbers for its `const` parameters, is instantiated instead (its fields then checked against
its arguments by check-struct-fields), one struct per list of arguments, named as a
function's instance is (`Cell$Point`, `Pair$(i32,Point)`, `Buf$Point$3`), declared after
its generic, its fields' types the arguments (`Tensor<f32, [N]>` is `Tensor<f32, [3]>`). A
literal is built with the arguments it writes, else those of the type it is given as (a
`let`, a parameter, a result, a field, a variant's value:
placement/literal_contexts.py; `Cell { v: Cell { .. } }` as a `Cell<Cell<Point>>`
is a `Cell$<Cell$Point>`), else the ones its fields give: a struct literal, an enum value, a
local of a known struct, a call of a function returning one or an `if` choosing one given a
field of type `T` makes `T` that struct. Scalar arguments stay erased (type-generic-field-
literals typed the literals they reach). So a literal whose fields give some of its
arguments, one of them an aggregate, is an instance keeping the others erased, spelled `_`
(`Two { a: 1.5, b: Point { .. } }` is a `Two$_$Point { a: A, b: Point }`), which fits where
an instance of other arguments there is asked for (`Two<f64, Point>`). One whose fields give
no aggregate stays the erased struct, which fits where an instance of it is asked for and
the reverse (a generic function's `Cell<T>` is erased): an erased field holding an aggregate
is split as the values put there say (scalars/aggregate_types.py). But a generic function's
parameter keeps a struct applied to arguments naming the function's type parameters (`w:
Wrapper<T>`, the IL's AppliedType): monomorphize deduces T from the instance passed
(`Wrapper$Point`), and drops it.
""", state=State)


@erase_struct_arguments.on("Program")
def _program(run, node):
    st = run.state
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.enums = frozenset(i.name for i in node.items if i._prod == "EnumDecl")
    st.fns = {i.name: i for i in node.items if i._prod == "Fn" and not i.generics}
    st.given = literal_arguments(node)
    items = [run.walk(i) for i in node.items]
    out = []  # an instance goes right after its generic
    for item, walked in zip(node.items, items):
        out.append(walked)
        if item._prod == "StructDecl":
            out += [d for d in st.instances.get(item.name, {}).values() if d is not None]
    return Lerased["Program"](tuple(out), span=node.span)


@erase_struct_arguments.on("Fn")
def _fn(run, node):
    st = run.state
    st.known = {}
    st.own = frozenset(g.name for g in node.generics if g._prod == "TypeParam" and
                       not g.topology)
    st.params = frozenset(id(p) for p in node.params)
    return run.rebuild(node)


@erase_struct_arguments.on("Param")
def _param(run, node):
    st = run.state
    st.keeping = bool(st.own) and id(node) in st.params
    out = run.rebuild(node)
    st.keeping = False
    if out.type is not None and out.type._prod == "NamedType":
        run.state.known[out.name] = out.type.name
    return out


@erase_struct_arguments.on("Let")
def _let(run, node):
    out = run.rebuild(node)
    made = out.type if out.type is not None else out.value
    if made is not None and made._prod in ("NamedType", "StructLit"):
        run.state.known[node.name] = made.name
    return out


@erase_struct_arguments.on("StructLit")
def _struct_lit(run, node):
    """node as a literal of its instance, where the arguments it is built with (written, or
    the type's it is given as) ask for one, or the fields it is given do."""
    st = run.state
    decl, args = st.structs.get(node.name), st.given.get(id(node), node.targs)
    fields = run.walk_seq(node.fields)
    name = node.name
    if decl is not None and decl.generics:
        if len(args) == len(decl.generics):
            name = _instance(run, decl, _arguments(run, args)) or name
        else:
            name = _instance(run, decl, _given(run, decl, fields), partial=True) or name
    return Lerased["StructLit"](name, fields, span=node.span)


def _given(run, decl, fields) -> list:
    """The type each parameter of decl takes from the literal's fields: the struct or enum
    whose value a field of that parameter's type holds (_aggregate); None where none says."""
    found = {}
    declared = {f.name: f.type for f in decl.fields}
    for given in fields:
        ty, v = declared.get(given.name), given.value
        name = _aggregate(run, v)
        if ty is not None and ty._prod == "NamedType" and name is not None:
            found.setdefault(ty.name, Lerased["NamedType"](name, span=v.span))
    return [found.get(g.name) for g in decl.generics]


def _aggregate(run, v) -> str | None:
    """The struct or enum v's value is, by name, where its form says: a literal, an enum
    value, a local of a known struct, a call of a function that is not generic returning
    one, an `if` whose first arm's value is one of these (the checks make the other arm's
    the same)."""
    p = v._prod
    if p == "StructLit":
        return v.name
    if p == "EnumValue":
        return v.enum
    if p == "Local":
        return run.state.known.get(v.name)
    if p == "IfExpr":
        return _aggregate(run, v.then.value) if v.then.value is not None else None
    fn = run.state.fns.get(v.callee.name) if p == "Call" and \
        v.callee._prod == "Global" else None
    return fn.ret.name if fn is not None and fn.ret is not None and \
        fn.ret._prod == "NamedType" else None


def _arguments(run, args) -> list:
    """What each of the generic arguments args gives its parameter: a type, an extent's
    number (a `const` parameter's), or None (an extent a constant names: not known yet)."""
    return [run.walk(a.type) if a._prod == "TypeArg" else
            a.dim.value if a.dim._prod == "DimInt" else None for a in args]


def _instance(run, decl, types: list, partial: bool = False) -> str | None:
    """The name of decl's instance for what its parameters take (a type, or a `const`'s
    number), made on first use; None when decl stays erased: a topology parameter, a type not
    known or naming a parameter, or no aggregate among them. partial: a parameter given None
    stays erased in the instance (`Two$_$Point { a: A, b: Point }`), its field holding what
    the literal puts there, as the generic's does."""
    st = run.state
    if not all(t is None and partial or
               g._prod == "TypeParam" and not g.topology and t is not None and
               type(t) is not int and _concrete(st, t) or
               g._prod == "ConstParam" and type(t) is int
               for g, t in zip(decl.generics, types)) or \
            not any(t is not None and type(t) is not int and
                    t._prod in ("NamedType", "TupleType", "TensorType") for t in types):
        return None
    binding = {g.name: t for g, t in zip(decl.generics, types) if t is not None}
    name = instance_name(decl, {g.name: binding.get(g.name, _ERASED) for g in decl.generics})
    made = st.instances.setdefault(decl.name, {})
    if name not in made:
        made[name] = None  # asked for again while its fields are walked: one holding itself
        outer, st.binding = st.binding, binding
        fields = run.walk_seq(decl.fields)
        st.binding = outer
        made[name] = Lerased["StructDecl"](name, fields, (), decl.copy, span=decl.span)
    return name


def _concrete(st, ty) -> bool:
    """Whether the type ty (Lerased) names only scalars, tensors of known extents and the
    program's structs (not an erased generic one) and enums."""
    if ty._prod == "Scalar":
        return True
    if ty._prod == "NamedType":
        decl = st.structs.get(ty.name)
        return decl is not None and not decl.generics or ty.name in st.enums or \
            any(ty.name in made for made in st.instances.values())
    if ty._prod == "TensorType":
        return ty.place is None and _concrete(st, ty.elem) and \
            all(d._prod == "DimInt" for d in ty.dims)
    return ty._prod == "TupleType" and all(_concrete(st, t) for t in ty.elems)


@erase_struct_arguments.on("AppliedType")
def _applied(run, node):
    """The struct, its instance or the struct erased; but a generic function's parameter's
    `Wrapper<T>`, T its own, stays applied: the instance an argument is (`Wrapper$Point`)
    gives T, which monomorphize deduces from it."""
    st = run.state
    decl = st.structs.get(node.name)
    if st.keeping and decl is not None and len(node.args) == len(decl.generics) and \
            any(n._prod == "NamedType" and n.name in st.own for n in descendants(node)):
        return Lerased["AppliedType"](node.name, run.walk_seq(node.args), span=node.span)
    name = None
    if decl is not None and len(node.args) == len(decl.generics):
        name = _instance(run, decl, _arguments(run, node.args))
    return Lerased["NamedType"](name or node.name, span=node.span)


@erase_struct_arguments.on("NamedType")
def _named(run, node):
    """A field of an instance being made: its type parameter is the instance's argument."""
    bound = run.state.binding.get(node.name)
    return bound if bound is not None and type(bound) is not int else \
        Lerased["NamedType"](node.name, span=node.span)


@erase_struct_arguments.on("DimName")
def _dim_name(run, node):
    """An extent of a field of an instance being made: its `const` parameter is the
    instance's number."""
    bound = run.state.binding.get(node.name)
    return Lerased["DimInt"](bound, span=node.span) if type(bound) is int else node
