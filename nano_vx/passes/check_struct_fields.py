"""check-struct-fields: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.linstances import as_written, generic_of
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis, descendants
from ..placement.ownership import owns_data
from ..placement.scopes import Scope, Where, scopes_of
from ..placement.type_checking import CheckingTyper
from ..placement.typer import OPAQUE, Typer, fits, known, literal, show, value_type
from ..placement.types import HOST, TEXT, Machine, placed


@dataclass
class State:
    typer: Typer | None = None
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    variants: dict = field(default_factory=dict)  # (enum, variant) -> Variant
    types: frozenset = frozenset()  # the names no generic parameter has: structs, enums, str
    scopes: dict[str, Scope] = field(default_factory=dict)
    scope: Scope | None = None
    where: Where | None = None


check_struct_fields = Analysis("check-struct-fields", Lrouted, """
Refuse a struct literal without every field (E3013), a field or a variant's value of another
type (E3012), a field a value has not (E2005: not its struct's, a field of a value that has
none, `.i` past a tuple's end), a literal of no struct (E2001), and a Copy struct's generic
field given a value that moves (E3031).

A field a literal gives twice is E2008, a name declared twice.

`S { a: 1, b: t }` gives every field S declares, each once, each a value of the field's type
(an unsuffixed literal fits any type of its kind); `s.f` names a field S declares. A generic
struct's parameters are erased (monomorphize), so within one literal the fields bind them:
`Pair { a: 1.5, b: true }` for `struct Pair<T> { a: T, b: T }` is E3012 (`a` made T a
float), and `Tensor<f32, [N]>` takes a tensor of f32 of one extent, the same N wherever N is
named (`Tensor<T, [2]>` a tensor of 2 whose elements bind T); so does `Pinned<T, Topology::X>`, which takes a value pinned on X. A literal of a name
that is no struct is E2001. A generic struct that implements `Copy` (`impl<T> Copy for
W<T> {}`) is copied wherever it is used, so what its parameters stand for must copy too:
desugar-traits judges the fields as written, and this check the values an instance gives
them (a tensor, or a struct without `Copy`, for a field of type T is E3031).

`E::V(a, b)` gives the values variant V carries, each of the type it declares, as a field is
given: `Shape::Circle(true)` for `Circle(f32)`, a number where V carries a struct, or a struct
where it carries a tuple, is E3012. resolve-names counted them (E2004).

What a value's type leaves unknown is not refused, but its kind is known all the same: a
tuple of unsuffixed literals is no struct, and a tuple of two no tuple of three, whatever its
elements become (`fits` judges that).
""", state=State, skip=DESCRIPTIONS, requires=("model",))


@check_struct_fields.on("Program")
def _program(run, node):
    st = run.state
    st.typer = CheckingTyper(node, Machine(run.ctx.model))  # which knows a string is text
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.variants = {(i.name, v.name): v for i in node.items if i._prod == "EnumDecl"
                   for v in i.variants}
    st.types = frozenset({*st.structs, TEXT.name,
                          *(i.name for i in node.items if i._prod == "EnumDecl")})
    st.scopes = scopes_of(node, st.typer)
    run.descend(node)


@check_struct_fields.on("Fn")
def _fn(run, node):
    st = run.state
    st.scope, st.where = st.scopes[node.name], Where.of(node, st.typer)
    run.descend(node)


@check_struct_fields.on("ConstItem")
def _const(run, node):
    """A constant's value is computed on the host, where no local is in scope."""
    st = run.state
    st.scope = Scope(st.typer)
    st.where = Where([HOST], [st.typer.machine.holds(HOST)])
    run.descend(node)


@check_struct_fields.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.where.inside(run, node, st.typer.machine)


@check_struct_fields.on("StructLit")
def _literal(run, lit):
    run.descend(lit)
    decl = run.state.structs.get(lit.name)
    report = run.ctx.diagnostics.error
    if decl is None:
        report("E2001", lit.span, f"`{lit.name} {{ .. }}` builds a struct, but no struct is "
                                  f"named '{lit.name}'", name=lit.name)
        return
    declared = {f.name: f for f in decl.fields}
    seen, bound = set(), {}
    for given in lit.fields:
        if given.name not in declared or given.name in seen:
            again = given.name in seen
            report("E2008" if again else "E2005", given.span,
                   f"'{given.name}' is given twice in this `{as_written(lit.name)}`"
                   if again else f"struct '{as_written(lit.name)}' has no field '{given.name}'",
                   help=[f"its fields: {', '.join(declared)}"], struct=lit.name,
                   field=given.name)
            continue
        seen.add(given.name)
        _judge(run, lit.name, declared[given.name], given.value, bound)
        if decl.copy:
            _copied(run, lit.name, declared[given.name], given.value)
    missing = [name for name in declared if name not in seen]
    if missing:
        report("E3013", lit.span,
               f"this `{as_written(lit.name)}` does not give its field"
               f"{'s' * (len(missing) > 1)} "
               f"{', '.join(repr(m) for m in missing)}",
               help=["a struct literal gives every field"], struct=lit.name, missing=missing)


def _judge(run, struct: str, declared, value, bound: dict) -> None:
    expected, found, conflict = _given(run, declared.type, value, bound, declared.name)
    if conflict is None:
        return
    run.ctx.diagnostics.error(
        "E3012", value.span,
        f"field '{declared.name}' of '{as_written(struct)}' is {show(expected)}{conflict}, "
        f"but this value is {_given_shown(found)}", struct=struct, field=declared.name,
        expected=show(expected), found=show(found))


def _given(run, declared, value, bound: dict, by: str):
    """The type a slot declared `declared` takes here, the type of `value`, and what
    `_unify` says of the two."""
    st = run.state
    here = st.where.here[-1]
    found = st.scope.typer.of(value, here)
    expected = placed(declared, here, st.typer.machine) if declared else OPAQUE
    return expected, found, _unify(expected, found, bound, st.types, by)


@check_struct_fields.on("EnumValue")
def _variant(run, node):
    """Each value of `E::V(..)` of the type V declares there (their count is resolve-names')."""
    run.descend(node)
    variant = run.state.variants.get((node.enum, node.variant))
    if variant is None:
        return
    named = f"{node.enum}::{node.variant}"
    for i, (declared, value) in enumerate(zip(variant.fields, node.args), 1):
        expected, found, conflict = _given(run, declared, value, {}, str(i))
        if conflict is not None:
            run.ctx.diagnostics.error(
                "E3012", value.span,
                f"value {i} of '{named}' is {show(expected)}{conflict}, but this value is "
                f"{_given_shown(found)}", struct=named, field=str(i), expected=show(expected),
                found=show(found))


def _copied(run, struct: str, declared, value) -> None:
    """E3031 for a value that moves given to a field of a Copy struct whose type names a
    generic parameter (a name no type has): the instance would copy what must move."""
    st = run.state
    if declared.type is None or not any(
            n._prod == "NamedType" and n.name not in st.types
            for n in descendants(declared.type)):
        return
    found = value_type(st.scope.typer.of(value, st.where.here[-1]))
    if literal(found) or not owns_data(found, st.structs):
        return
    run.ctx.diagnostics.error(
        "E3031", value.span,
        f"the struct '{as_written(struct)}' is Copy, but its field '{declared.name}' is "
        f"given {show(found)} here, which moves", struct=struct, field=declared.name,
        help=[f"remove `impl Copy for {generic_of(struct)}`, or give the field a value that "
              f"copies"],
        name=struct)


def _unify(expected, found, bound, types, by):
    """None when a value of type `found` fits a field of type `expected`; else what the
    message adds. A generic struct's parameters are erased (monomorphize), so a name in a
    field's type that no type has (`types`: a struct, an enum, str) is one of them: the first
    field that shows it binds it (`bound`: name -> (type or extent, field)), and every other
    field must agree."""
    if expected is OPAQUE or literal(expected):
        return None if fits(found, expected) else ""
    kind = expected._prod
    if kind in ("NamedType", "DimName") and (kind == "DimName" or expected.name not in types):
        if not known(found):
            return None
        prior = bound.get(expected.name)
        if prior is None:
            bound[expected.name] = (found, by)
            return None
        if fits(found, prior[0]):
            return None
        if fits(prior[0], found):  # a literal bound first takes the type it meets later
            bound[expected.name] = (found, prior[1])
            return None
        return f", and field '{prior[1]}' made {expected.name} = {show(prior[0])}"
    if kind == "PinnedType" and not literal(found) and found._prod == "PinnedType":
        # `Pinned<T, Topology::X>`: the unit is the field's own, T is bound like any other
        conflict = _unify(expected.inner, found.inner, bound, types, by)
        if conflict is not None or fits(found, expected.replace(inner=found.inner)):
            return conflict
        return ""
    # A tensor of a parameter's elements (`Tensor<T, [2]>`) fits no tensor as written: its
    # element type and its extents are bound below, as a parameter is.
    tensors = kind == "TensorType" and not literal(found) and \
        value_type(found)._prod == "TensorType" and \
        any(n._prod == "NamedType" and n.name not in types for n in descendants(expected))
    if not tensors and not fits(found, expected):
        return ""
    if known(expected) and not tensors:
        return None
    found = value_type(found)
    if not known(found) and (literal(found) or found._prod == "OpaqueType"):
        return None
    if kind == "TensorType" and not literal(found) and found._prod == "TensorType":
        if len(found.dims) != len(expected.dims) or \
                expected.place is not None and found.place is not None and \
                expected.place != found.place:
            return ""
        for want, got in ((expected.elem, found.elem), *zip(expected.dims, found.dims)):
            if want._prod == "DimName":
                got = got if got._prod == "DimInt" else OPAQUE
            conflict = _unify(want, got, bound, types, by)
            if conflict is not None:
                return conflict
        return None
    if kind == "DimInt":
        return None if found is OPAQUE or found._prod == "DimInt" and \
            found.value == expected.value else ""
    return None  # a shape this check does not take apart: not refused


# Types whose values have no fields to read (a struct's do; `t.shape` of a tensor is E3024,
# judged before this check).
_FIELDLESS = frozenset({"Scalar", "TupleType", "VectorType", "TensorType"})


def _base_type(run, get):
    """The type of the value whose field `get` reads, through any references (`p.x` reads
    through p)."""
    st = run.state
    t = value_type(st.scope.typer.of(get.base, st.where.here[-1]))
    while not isinstance(t, str) and t._prod == "BorrowType":
        t = value_type(t.inner)
    return t


@check_struct_fields.on("FieldGet")
def _field(run, get):
    run.descend(get)
    st = run.state
    t = _base_type(run, get)
    if literal(t) or t == TEXT or not isinstance(t, str) and t._prod in _FIELDLESS:
        shown = _shown(t)
        run.ctx.diagnostics.error(
            "E2005", get.span, f"{shown} has no field '{get.field}': only a struct has fields",
            help=["a tuple's elements are `.0`, `.1`; a vector's lanes and a tensor's "
                  "elements `[i]`"] if not literal(t) and t._prod != "Scalar" and t != TEXT else [],
            struct=shown, field=get.field)
        return
    if isinstance(t, str) or t._prod != "NamedType" or t.name not in st.structs:
        return
    names = [f.name for f in st.structs[t.name].fields]
    if get.field not in names:
        run.ctx.diagnostics.error(
            "E2005", get.span, f"struct '{as_written(t.name)}' has no field '{get.field}'",
            help=[f"its fields: {', '.join(names)}"], struct=t.name, field=get.field)


@check_struct_fields.on("TupleGet")
def _element(run, get):
    """`t.i` reads element i of a tuple: one of a tuple that has it. A tuple whose elements
    are not all known still has a known number of them."""
    run.descend(get)
    t = _base_type(run, get)
    if not literal(t) and t._prod == "OpaqueType":
        return
    shown = _shown(t)
    if literal(t) or t._prod != "TupleType":
        message, why = f"{shown} has no field '{get.index}'", "only a tuple has numbered fields"
    elif get.index >= len(t.elems):
        message = f"{shown} has no element {get.index}"
        why = f"its elements are .0 to .{len(t.elems) - 1}"
    else:
        return
    run.ctx.diagnostics.error("E2005", get.span, message, help=[why], struct=shown,
                              field=str(get.index))


def _given_shown(t) -> str:
    """A value's type as a message names it, a tuple whose parts are not all known by its
    length (`(_, _)` would say less)."""
    return show(t) if known(t) else _shown(t)


def _shown(t) -> str:
    """A type as a message names it; a tuple whose elements' types are not all known here
    (unsuffixed literals take theirs from where the tuple goes) by its length."""
    if not literal(t) and t._prod == "TupleType":
        return f"the tuple {show(t)}" if known(t) else f"a tuple of {len(t.elems)} elements"
    return show(t)
