"""Aggregates as trees of scalars, for their scalar replacement: the shape a struct, tuple or
enum type has (its fields in declaration order down to the scalars and tensors they hold),
and the same tree with an expression at each leaf, which is how scalarize-aggregates holds a
value made of several."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, count

from ..languages.lassumed import Lassumed as L
from ..nanopass import descendants
from ..values.literals import TYPE_WRAPPERS

TAG = "tag"  # the label of an enum's first leaf: the index of its variant


class Refused(Exception):
    """An aggregate a pass does not take apart, at the node that shows it: E5010."""

    def __init__(self, node, what: str):
        super().__init__(what)
        self.node, self.what = node, what


@dataclass(frozen=True)
class Tree:
    """A struct (name, parts by field), a tuple (parts by index), an enum (name, the tag and
    one `variant` part per variant, in declaration order) or a leaf. In a shape a leaf holds
    its type node (None where a generic parameter was erased); in a value, an expression."""

    kind: str  # "struct", "tuple", "enum", "variant" or "leaf"
    name: str | None = None
    parts: tuple = ()  # (label, Tree)
    leaf: object = None

    def part(self, label) -> "Tree":
        return dict(self.parts)[label]

    def leaves(self) -> list:
        if self.kind == "leaf":
            return [self.leaf]
        return [x for _, p in self.parts for x in p.leaves()]

    def paths(self, prefix: str = "") -> list:
        """Each leaf's path, `x`, `0_1`, `Circle_0`: what its local is named after."""
        if self.kind == "leaf":
            return [prefix]
        return [q for label, p in self.parts
                for q in p.paths(f"{prefix}_{label}" if prefix else str(label))]

    def rebuilt(self, leaves) -> "Tree":
        """This tree with `leaves` (an iterator, in order) in place of its own."""
        if self.kind == "leaf":
            return Tree("leaf", leaf=next(leaves))
        return Tree(self.kind, self.name, tuple((label, p.rebuilt(leaves))
                                                for label, p in self.parts))

    def form(self):
        """Its kinds and labels, not its leaves nor its names (an instance of a generic
        struct fits where the struct is asked for): what a value must share with the shape
        it is taken apart as, beyond its number of leaves."""
        if self.kind == "leaf":
            return None
        return self.kind, tuple((label, p.form()) for label, p in self.parts)

    def labels(self) -> list:
        return [label for label, _ in self.parts]

    def variants(self) -> list:
        return [(label, p) for label, p in self.parts if label != TAG]

    def filled(self, found: "Tree") -> "Tree":
        """This tree, each leaf not typed given found's part in its place (a type, or the
        shape of an aggregate an erased field holds), where the two agree in form."""
        if self.kind == "leaf":
            return found if self.leaf is None else self
        if found.kind != self.kind or found.labels() != self.labels():
            return self
        return Tree(self.kind, self.name, tuple((k, part.filled(found.part(k)))
                                                for k, part in self.parts))


def leaf_type(shape: Tree | None, label):
    """The type of `shape`'s part `label` when that part is a leaf, else None."""
    part = shape.part(label) if shape is not None else None
    return part.leaf if part is not None and part.kind == "leaf" else None


def strip(ty):
    while ty is not None and ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    return ty


class Shapes:
    """The shapes of a program's struct, enum and tuple types."""

    def __init__(self, program):
        self.structs = {i.name: i for i in program.items if i._prod == "StructDecl"}
        self.enums = {i.name: i for i in program.items if i._prod == "EnumDecl"}
        # enum name -> its shape, the erased fields of its variants typed as every value of
        # the program puts them (aggregate_types.program_types): what the other variants'
        # zeros are, which the declaration, its struct arguments erased, does not say.
        self.payloads: dict = {}

    def of(self, ty, seen: frozenset = frozenset(), typed=None) -> Tree | None:
        """The shape of a type node; None for a scalar, a tensor, what no declaration names.
        A reference's is its referent's: scalarize-aggregates takes it apart as well. A
        leaf's type is kept where `typed` (else `concrete`) holds of it."""
        typed = typed or concrete
        ty = strip(ty)
        if ty is not None and ty._prod == "BorrowType":
            ty = strip(ty.inner)
        if ty is None:
            return None
        if ty._prod == "TupleType":
            return Tree("tuple", None, tuple((k, self._part(t, seen, typed))
                                             for k, t in enumerate(ty.elems)))
        if ty._prod != "NamedType" or ty.name in seen:
            return None
        seen = seen | {ty.name}
        if ty.name in self.structs:
            return Tree("struct", ty.name, tuple((f.name, self._part(f.type, seen, typed))
                                                 for f in self.structs[ty.name].fields))
        if ty.name in self.enums:
            tag = (TAG, Tree("leaf", leaf=L["Scalar"]("i32", span=ty.span)))
            shape = Tree("enum", ty.name, (tag, *(
                (v.name, Tree("variant", v.name, tuple((k, self._part(t, seen, typed))
                                                       for k, t in enumerate(v.fields))))
                for v in self.enums[ty.name].variants)))
            found = self.payloads.get(ty.name)
            return shape if found is None else shape.filled(found)
        return None

    def _part(self, ty, seen, typed) -> Tree:
        return self.of(ty, seen, typed) or Tree("leaf", leaf=ty if typed(ty) else None)


def lent(ty) -> bool:
    """Whether ty is a `&mut` reference."""
    ty = strip(ty)
    return ty is not None and ty._prod == "BorrowType" and ty.mutable


def concrete(ty) -> bool:
    """A scalar, a vector or a tensor of integer extents: a type a local of native code may
    be given."""
    ty = strip(ty)
    if ty is None:
        return False
    if ty._prod == "NamedType":  # a string, which number-texts makes the number of its text
        return ty.name == "str"
    if ty._prod in ("Scalar", "VectorType"):
        return True  # check-vector-types refused a vector of other lanes than a scalar's
    return ty._prod == "TensorType" and strip(ty.elem)._prod == "Scalar" and \
        all(d._prod == "DimInt" for d in ty.dims)


def sized(ty) -> bool:
    """A tensor of scalars whose extents are integers or `?`: a type a parameter of native
    code may be given, and whose `?` extents a value may make 0."""
    ty = strip(ty)
    return ty is not None and ty._prod == "TensorType" and strip(ty.elem)._prod == "Scalar" \
        and all(d._prod in ("DimInt", "DimAny") for d in ty.dims)


def zero(ty, span):
    """The literal a local of scalar, string or vector type `ty` starts from (a vector's: its
    lane type's zero in every lane), None for any other type."""
    ty = strip(ty)
    if ty is not None and ty._prod == "VectorType":
        return L["Splat"](zero(ty.elem, span), ty, span=span)
    if ty is not None and ty._prod == "NamedType" and ty.name == "str":
        return L["Str"]("", span=span)  # what no read of an enum's other variant sees
    if ty is None or ty._prod != "Scalar":
        return None
    if ty.name == "bool":
        return L["Bool"](False, span=span)
    if ty.name.startswith("f") or ty.name == "bf16":
        return L["Float"](0.0, span=span)
    return L["Int"](0, span=span)


def unread_tensor(ty, span):
    """The tensor `::new()` makes of ty, each `?` extent 0 (an empty buffer), else None: what
    stands for a variant's tensor that no read sees, and is dropped with the value."""
    if not sized(ty):
        return None
    ty = strip(ty)
    if all(d._prod == "DimInt" for d in ty.dims):
        return L["TensorNew"](ty, "new", (), span=span)
    extents = L["ArrayLit"](tuple(L["Int"](d.value if d._prod == "DimInt" else 0, span=span)
                                  for d in ty.dims), span=span)
    return L["TensorNew"](ty, "new", (extents,), span=span)


class Names:
    """Fresh local names in one function: `wanted`, else `wanted#1`, `wanted#2`, ..."""

    def __init__(self, fn):
        self.taken = {getattr(n, "name", None) or getattr(n, "var", None)
                      for n in descendants(fn)}
        self.made = 0
        self.given: list[str] = []  # the names fresh handed out, in order, for undo

    def fresh(self, wanted: str) -> str:
        name = wanted
        while name in self.taken:
            self.made += 1
            name = f"{wanted}#{self.made}"
        self.taken.add(name)
        self.given.append(name)
        return name

    def mark(self) -> tuple[int, int]:
        """Where the names stand now, for undo: a pass that tries a rewrite and drops it
        gives its names back without copying every name of the function."""
        return len(self.given), self.made

    def undo(self, mark: tuple[int, int]) -> None:
        count, self.made = mark
        self.taken.difference_update(self.given[count:])
        del self.given[count:]


def fresh_item(wanted: str, taken: set) -> str:
    """A name for a new function no item of `taken` has: `wanted`, else `wanted_1`, ...
    (`#`, which Names adds, is no part of a function's name)."""
    name = next(n for n in chain([wanted], (f"{wanted}_{k}" for k in count(1)))
                if n not in taken)
    taken.add(name)
    return name


def referred(tree) -> set:
    """The names of the functions tree calls or launches, or takes as a value."""
    return {n.name if n._prod == "Global" else n.kernel for n in descendants(tree)
            if n._prod == "Global" or n._prod == "Launch"}


def live_items(items, droppable: set) -> tuple:
    """`items` less each function named in `droppable` (never `main`) that nothing but itself
    refers to; again until none is, a function dropped having maybe been all that called
    another."""
    items = list(items)
    refs = {id(i): referred(i) for i in items}
    while True:
        kept = [i for i in items if i._prod != "Fn" or i.name not in droppable
                or i.name == "main" or any(i.name in refs[id(o)] for o in items if o is not i)]
        if len(kept) == len(items):
            return tuple(items)
        items = kept


def fresh_locals(names: Names, base: str, shape: Tree, span):
    """A tree of reads of new locals for a value of `shape`, named after `base`, and their
    names: `p_x`, `p_y`."""
    stem = base.split("#")[0]
    made = [names.fresh(f"{stem}_{path}") for path in shape.paths()]
    return shape.rebuilt(iter(L["Local"](n, span=span) for n in made)), made


def declared_locals(names: Names, base: str, shape: Tree, at):
    """New locals for a value of `shape`, each starting at its type's zero, and their lets."""
    rep, made = fresh_locals(names, base, shape, at.span)
    lets = []
    for name, ty in zip(made, shape.leaves()):
        start = start_value(ty, at.span)
        if start is None:
            raise Refused(at, "an aggregate computed in place whose fields are not all "
                              "scalars of known types")
        lets.append(L["Let"](name, True, ty, start, span=at.span))
    return rep, lets


def out_parameters(names: Names, shape: Tree, k: int | None, span):
    """What a function returning an aggregate of `shape` writes it to: the tree of its places
    (`*ret_x` for an out-parameter, the local `ret_t` for its result), the `let` of its
    result and the out-parameters, `&mut` each. Its leaf k, a tensor, is its result (a
    tensor is not assigned through a reference: aggregate_types.Sig.result)."""
    out, _ = fresh_locals(names, "ret", shape, span)
    places, held, params = [], [], []
    for j, (x, t) in enumerate(zip(out.leaves(), shape.leaves())):
        if j == k:
            places.append(x)
            held.append(L["Let"](x.name, True, t, start_value(t, span), span=span))
            continue
        places.append(L["Deref"](x, span=span))
        params.append(L["Param"](x.name, L["BorrowType"](t, True, span=span), span=span))
    return out.rebuilt(iter(places)), held, params


def start_value(ty, span):
    """What a local of type `ty` starts from before it is written: its zero, or a new tensor
    of a tensor type of integer extents (an empty buffer where one is `?`); None for any
    other type."""
    return unread_tensor(ty, span) or zero(ty, span)


def is_tensor(ty) -> bool:
    return ty is not None and strip(ty)._prod == "TensorType"


def copy_into(names: Names, place, source, ty, span) -> list:
    """Statements copying the tensor `source` element by element into the tensor `place`
    refers to (`*place`), of type `ty`: nested loops over its extents, which are integers."""
    return copy_elements(names, L["Deref"](place, span=span), source, ty, span)


def copy_elements(names: Names, target, source, ty, span) -> list:
    """Statements copying the tensor `source` element by element into the tensor `target`
    (a buffer), of type `ty`: nested loops over its extents, which are integers."""
    loops = [(names.fresh("copied"), d.value) for d in strip(ty).dims]
    for name, _ in loops:
        target = L["Index"](target, L["Local"](name, span=span), span=span)
        source = L["Index"](source, L["Local"](name, span=span), span=span)
    stmt = L["Assign"](target, "=", source, span=span)
    for name, extent in reversed(loops):
        stmt = L["For"](name, L["Int"](0, span=span), L["Int"](extent, span=span),
                        L["Block"]((stmt,), None, span=span), span=span)
    return [stmt]
