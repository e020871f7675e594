"""erase-struct-arguments: Lresolved -> Lerased."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lerased, Lresolved
from ..derivatives.code import rebuild
from ..languages.lerased import ERASED
from ..nanopass import Pass, descendants
from ..placement.instances import instance_name
from ..values.literal_ranges import holders, integer_literal, refuse_out_of_range
from ..scalars.literal_hints import cast, through
from ..scalars.terms import FLOATS
from ..values.numbers import INT_TYPES


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    enums: frozenset[str] = frozenset()
    variants: dict = field(default_factory=dict)  # (enum, variant) -> its values' types
    fns: dict = field(default_factory=dict)  # name -> Fn, the non-generic ones
    callees: dict = field(default_factory=dict)  # name -> Fn, every one
    fn: object = None  # the function walked
    instances: dict = field(default_factory=dict)  # generic -> {instance name: StructDecl}
    binding: dict = field(default_factory=dict)  # while an instance is made: T -> its type,
    # N -> its number
    known: dict = field(default_factory=dict)  # a local of the function walked -> its struct
    result: object = None  # the result type (Lresolved) of the function whose body is walked
    # (but a closure's), and that body
    body: object = None


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
literal takes the arguments it writes, else those of the type it is given as, where one is
written and names no parameter of its function: the `let` that binds it (`let c:
Cell<Point> = Cell { .. };`), the parameter it is passed to (`get(Cell { .. })` for `fn
get(c: Cell<Point>)`; `px<i64>(P { .. })` for `fn px<T>(p: P<T>)`, whose call writes T,
passes a `P<i64>`), the function's result it is returned as, the field of a struct
that is not generic or the variant's value it is given to (through the arms of an `if` or
a `match`, an `unsafe` block's value and a tuple's elements, as the interpreter hands a
type on), a literal in its field those its field's parameter is given (`Cell { v: Cell {
.. } }` as a `Cell<Cell<Point>>`, whose instance is `Cell$<Cell$Point>`), else the ones
its fields give: a struct literal, an enum value, a local of a known struct, a
call of a function returning one or an `if` choosing one given a field of type `T` makes `T`
that struct. Scalar arguments stay erased, but type the literals given their fields (below).
So a literal whose fields give some of its arguments, one of them an aggregate,
is an instance keeping the others erased, spelled `_` (`Two { a: 1.5, b: Point { .. } }` is
a `Two$_$Point { a: A, b: Point }`), which fits where an instance of other arguments there
is asked for (`Two<f64, Point>`). One whose fields give no aggregate stays the erased
struct, which fits where an instance of it is asked for and the reverse (a generic
function's `Cell<T>` is erased): an erased field holding an aggregate is split as the values
put there say (scalars/aggregate_types.py).

What the arguments say of a literal's fields is kept, where they make T a scalar type: each
unsuffixed literal of a field of type `T` that T reaches, as a `let`'s type reaches the
literals of its value (through arithmetic and an `if`'s arms), an integer given an integer
type or a float a float type, is cast to it, as `0.1f32` or `3000000000i64` would be:
`let c: Cell<f32> = Cell { v: 0.1 + 0.2 };` sums two f32s, and `bump(Cell { v: 250 })` for
`fn bump(c: Cell<u8>)` passes a u8 (the interpreter types them so from the arguments;
without the casts they would be an f64 and an i32 after the erasure). An integer the type
cannot hold is E3008. A struct assigned is left: its literals take the types of what the
variable holds, as the interpreter and type-scalars both give them.
""", state=State)


@erase_struct_arguments.on("Program")
def _program(run, node):
    st = run.state
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.enums = frozenset(i.name for i in node.items if i._prod == "EnumDecl")
    st.variants = {(i.name, v.name): v.fields for i in node.items if i._prod == "EnumDecl"
                   for v in i.variants}
    st.fns = {i.name: i for i in node.items if i._prod == "Fn" and not i.generics}
    st.callees = {i.name: i for i in node.items if i._prod == "Fn"}
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
    st.fn, st.known = node, {}
    st.result, st.body = _fixed(node.ret, node), node.body
    out = run.rebuild(node)
    st.result = st.body = None
    return out


@erase_struct_arguments.on("Param")
def _param(run, node):
    out = run.rebuild(node)
    if out.type is not None and out.type._prod == "NamedType":
        run.state.known[out.name] = out.type.name
    return out


@erase_struct_arguments.on("Let")
def _let(run, node):
    """`let p: P<i64> = P { .. };`: the literal takes the arguments its `let` writes."""
    st = run.state
    ty = run.walk(node.type) if node.type is not None else None
    out = Lerased["Let"](node.name, node.mutable, ty,
                         _given_as(run, node.value, _fixed(node.type, st.fn)), span=node.span)
    made = out.type if out.type is not None else out.value
    if made is not None and made._prod in ("NamedType", "StructLit"):
        st.known[node.name] = made.name
    return out


@erase_struct_arguments.on("Return")
def _return(run, node):
    """`return Cell { .. };` takes the arguments the function's result writes."""
    value = node.value
    return Lerased["Return"](_given_as(run, value, run.state.result) if value is not None
                             else None, span=node.span)


@erase_struct_arguments.on("Block")
def _block(run, node):
    """The value a function's body ends with takes the arguments its result writes, as a
    `return`'s does."""
    st = run.state
    return _arm(run, node, st.result) if node is st.body else run.rebuild(node)


@erase_struct_arguments.on("Closure")
def _closure(run, node):
    """A closure's `return` is its own, of a type no one writes."""
    st = run.state
    result, st.result = st.result, None
    out = run.rebuild(node)
    st.result = result
    return out


@erase_struct_arguments.on("EnumValue")
def _enum_value(run, node):
    """`Slot::Full(Cell { .. })`: a literal a variant carries takes the arguments its type
    there writes."""
    types = run.state.variants.get((node.enum, node.variant), ())
    args = tuple(_given_as(run, a, t) for a, t in zip(node.args, types))
    return Lerased["EnumValue"](node.enum, node.variant,
                                args + run.walk_seq(node.args[len(args):]), span=node.span)


@erase_struct_arguments.on("Call")
def _call(run, node):
    """`get(Cell { .. })`: a literal passed takes the arguments its parameter writes, with
    the generic arguments the call writes for the callee's (`px::<i64>(P { .. })` for `fn
    px<T>(p: P<T>)` passes a `P<i64>`, as the interpreter hints it)."""
    st = run.state
    fn = st.callees.get(node.callee.name) if node.callee._prod == "Global" else None
    if fn is None:
        return run.rebuild(node)
    bound = {g.name: a.type for g, a in zip(fn.generics, node.targs)
             if g._prod == "TypeParam" and a._prod == "TypeArg"}

    def written(ty):
        """ty with the callee's parameters the call binds replaced; None where it still names
        one of the callee's, or one of the caller's a written argument names."""
        if ty is not None and bound:
            ty = rebuild(ty, lambda n: bound.get(n.name) if n._prod == "NamedType" else None)
        return _fixed(_fixed(ty, fn), st.fn)
    args = tuple(_given_as(run, a, written(p.type)) for a, p in zip(node.args, fn.params))
    return Lerased["Call"](run.walk(node.callee), run.walk_seq(node.targs),
                           args + run.walk_seq(node.args[len(args):]), span=node.span)


def _given_as(run, value, ty):
    """value walked, as a value of the type ty (Lresolved, or None): a struct literal that
    writes no arguments takes those ty writes for it, through what the interpreter hands a
    type on to (the arms of an `if` or a `match`, an `unsafe` block's value, a tuple's
    elements)."""
    p = value._prod
    if ty is not None and ty._prod == "TupleType" and p == "Tuple" and \
            len(ty.elems) == len(value.elems):
        return Lerased["Tuple"](tuple(_given_as(run, e, t) for e, t in
                                      zip(value.elems, ty.elems)), span=value.span)
    if ty is None or ty._prod != "AppliedType":
        return run.walk(value)
    if p == "StructLit" and not value.targs and ty.name == value.name:
        return _literal(run, value, ty.args)
    if p == "IfExpr":
        return Lerased["IfExpr"](run.walk(value.cond), value.comptime,
                                 _arm(run, value.then, ty), _arm(run, value.orelse, ty),
                                 span=value.span)
    if p == "MatchValue":
        cases = tuple(Lerased["Case"](run.walk(c.pattern), _arm(run, c.body, ty), span=c.span)
                      for c in value.cases)
        return Lerased["MatchValue"](run.walk(value.scrutinee), cases, span=value.span)
    if p == "Unsafe":
        return Lerased["Unsafe"](_arm(run, value.body, ty), span=value.span)
    return run.walk(value)


def _fixed(ty, fn):
    """ty (Lresolved, or None), where it names none of the generic parameters of fn, a
    function or a struct, else None: `Cell<T>` leaves T erased, its field holding what the
    literal puts there (the interpreter's hint for it is none), and the literal the instance
    its own fields give."""
    names = {g.name for g in fn.generics} if fn is not None else ()
    return None if ty is None or any(n._prod in ("NamedType", "DimName") and n.name in names
                                     for n in descendants(ty)) else ty


def _arm(run, block, ty):
    """A block whose value is one of the type ty."""
    value = block.value
    return Lerased["Block"](run.walk_seq(block.stmts),
                            _given_as(run, value, ty) if value is not None else None,
                            span=block.span)


@erase_struct_arguments.on("StructLit")
def _struct_lit(run, node):
    return _literal(run, node, node.targs)


def _literal(run, node, args):
    """node with the arguments args (GArgs, or none)."""
    st = run.state
    decl = st.structs.get(node.name)
    scalars = {}  # a type parameter -> the scalar type the arguments give it
    if decl is not None and len(args) == len(decl.generics):
        scalars = {g.name: a.type for g, a in zip(decl.generics, args)
                   if g._prod == "TypeParam" and a._prod == "TypeArg"
                   and a.type._prod == "Scalar"}
    declared = {f.name: f.type for f in decl.fields} if decl is not None else {}
    applied = {g.name: a.type for g, a in zip(decl.generics, args) if a._prod == "TypeArg"
               and a.type._prod == "AppliedType"} \
        if decl is not None and len(args) == len(decl.generics) else {}
    fields = []
    for given in node.fields:
        ty = declared.get(given.name)
        inner = applied.get(ty.name) if ty is not None and ty._prod == "NamedType" else None
        v = given.value
        if inner is not None and v._prod == "StructLit" and not v.targs and \
                v.name == inner.name:
            # `Cell { v: Cell { v: p } }` as a `Cell<Cell<Point>>`: the inner literal takes
            # the argument its field's parameter is given, `Cell<Point>`'s.
            given = given.replace(value=_literal(run, v, inner.args))
        elif _fixed(ty, decl) is not None:  # `Holder { c: Cell { .. } }`
            given = given.replace(value=_given_as(run, v, ty))
        else:
            given = run.walk(given)
        if ty is not None and ty._prod == "NamedType" and ty.name in scalars:
            given = given.replace(value=_typed(run, given.value, scalars[ty.name]))
        fields.append(given)
    name = node.name
    if decl is not None and decl.generics:
        if len(args) == len(decl.generics):
            name = _instance(run, decl, _arguments(run, args)) or name
        else:
            name = _instance(run, decl, _given(run, decl, fields), partial=True) or name
    return Lerased["StructLit"](name, tuple(fields), span=node.span)


def _typed(run, value, scalar):
    """value with each unsuffixed literal of scalar's kind that scalar reaches cast to it, as
    the interpreter types the literals under a `let` of that type (`-128` one literal, as
    `-128i8` would be): without it an integer would be an i32 and wrap, a float an f64 and
    round otherwise. An integer the type cannot hold is E3008."""
    if integer_literal(value) is not None:
        if scalar.name in INT_TYPES and _fits(run, value, scalar):
            return cast(Lerased, value, scalar)
        return value
    if value._prod == "Float":
        return cast(Lerased, value, scalar) if scalar.name in FLOATS else value
    return through(value, lambda e: _typed(run, e, scalar)) or value


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
    decl = run.state.structs.get(node.name)
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
