"""The scalar parts of a struct, tuple or enum a closure takes or returns, as
split-closure-results and split-closure-aggregates give them one by one, the literal that
puts them together, the arguments a call may give part by part, and the closures a local
only called may hold."""

from __future__ import annotations

from functools import reduce

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import descendants
from .aggregates import sized, unread_tensor, zero
from .storages import chosen_values


def struct_fields(program) -> dict:
    """Each struct's name -> its fields."""
    return {item.name: item.fields for item in program.items if item._prod == "StructDecl"}


def aggregate_parts(structs: dict, ty, whole: bool = True, erased: frozenset = frozenset()):
    """The (path, scalar type) of each part of a struct or tuple type; None for a type of no
    parts (a scalar's, a tensor's, a reference to a scalar), False for an aggregate left whole.
    A part of an aggregate (not `whole`) is a scalar or an aggregate split in turn. A part
    whose type is a name in `erased` (a generic struct's field, its arguments erased) has
    no type: a parameter of none, which native code types as each call gives it."""
    if ty is None:
        return False
    if ty._prod == "TupleType":
        labelled = list(enumerate(ty.elems))
    elif ty._prod == "NamedType" and ty.name in structs:
        labelled = [(f.name, f.type) for f in structs[ty.name]]
    elif ty._prod == "Scalar":
        return None
    elif not whole and ty._prod == "NamedType" and ty.name in erased:
        return [((), None)]
    elif not whole or ty._prod == "NamedType":  # an enum, or a generic struct's erased field
        return False
    elif ty._prod == "BorrowType":
        return None if ty.inner._prod == "Scalar" else False
    else:
        return None
    found = []
    for label, t in labelled:
        inner = aggregate_parts(structs, t, False, erased)
        if inner is False:
            return False
        found += [((label,), t)] if inner is None else \
            [((label,) + path, leaf) for path, leaf in inner]
    return found


def part_names(base: str, parts: list, taken: set) -> dict:
    """Each part's path -> a new local named after base and the path: `q_from_x`."""
    return {path: unused_name("_".join([display_name(base)] + [str(x) for x in path]), taken)
            for path, _ in parts}


def parts_literal(ty, path: tuple, names: dict, structs: dict, span):
    """The literal of type ty whose parts are the locals `names` names by path."""
    if ty._prod in ("Scalar", "TensorType") or ty._prod == "NamedType" and ty.name not in structs:
        return L["Local"](names[path], span=span)  # a scalar, a tensor, an erased field
    if ty._prod == "TupleType":
        return L["Tuple"](tuple(parts_literal(t, path + (k,), names, structs, span)
                                for k, t in enumerate(ty.elems)), span=span)
    return L["StructLit"](ty.name, tuple(
        L["FieldInit"](f.name, parts_literal(f.type, path + (f.name,), names, structs, span),
                       span=span) for f in structs[ty.name]), span=span)


class Parts:
    """The parts of a program's structs, tuples and enums, an enum's where every variant
    carries scalars, tensors of integer or `?` extents, structs or tuples."""

    def __init__(self, program):
        self.structs = struct_fields(program)
        self.enums = {item.name: item.variants for item in program.items
                      if item._prod == "EnumDecl" and item.variants and all(
                          t._prod == "Scalar" or sized(t) or aggregate_parts(self.structs, t)
                          for v in item.variants for t in v.fields)}
        declared = set(self.structs) | {item.name for item in program.items
                                        if item._prod == "EnumDecl"} | {"str"}
        self.erased = frozenset(f.type.name for fields in self.structs.values() for f in fields
                                if f.type._prod == "NamedType" and f.type.name not in declared)

    def of(self, ty, untyped: bool = False):
        """aggregate_parts of ty, an enum's too: per variant, whether the value holds it (a
        `bool` at the variant's label, but for the last, held where no other is), then the
        scalar parts of what it carries (at the variant's label, its index and their path).
        Where `untyped`, a generic struct's erased field is a part of no type."""
        if self.enum(ty) is None:
            return aggregate_parts(self.structs, ty, erased=self.erased if untyped else frozenset())
        last = self.enums[ty.name][-1]
        return [part for v in self.enums[ty.name]
                for part in [((v.name,), L["Scalar"]("bool", span=ty.span))] * (v is not last)
                + [((v.name, k) + path, leaf) for k, t in enumerate(v.fields)
                   for path, leaf in aggregate_parts(self.structs, t) or [((), t)]]]

    def one_part(self, value, k: int) -> bool:
        """Whether the k-th value the enum value `value` carries is one part: a scalar or a
        tensor."""
        fields = next((v.fields for v in self.enums.get(value.enum, ())
                       if v.name == value.variant), None)
        return fields is not None and (fields[k]._prod == "Scalar" or sized(fields[k]))

    def carries_tensor(self, ty) -> bool:
        """Whether ty is an enum whose values are split a variant of which carries a tensor."""
        return self.enum(ty) is not None and any(
            sized(t) for v in self.enums[ty.name] for t in v.fields)

    def variant_read(self, e, names: dict):
        """What e, a `VariantIs` or a `VariantField` of a value whose parts the locals `names`
        names by path, reads of them: `s is Shape::Sq` is `s_Sq`, the last variant's test
        that no other is held, `s.Shape::Rect.1` is `s_Rect_1`."""
        span, variants = e.span, self.enums[e.enum]
        if e._prod == "VariantField":
            carried = next(v for v in variants if v.name == e.variant).fields[e.index]
            return parts_literal(carried, (e.variant, e.index), names, self.structs, span)
        *tested, last = variants
        if e.variant != last.name:
            return L["Local"](names[(e.variant,)], span=span)
        held = [L["Local"](names[(v.name,)], span=span) for v in tested]
        if not held:
            return L["Bool"](True, span=span)
        return L["Unary"]("!", reduce(lambda a, b: L["Binary"]("||", a, b, span=span), held),
                          span=span)

    def enum(self, ty):
        """The name of ty, an enum whose values are split, else None."""
        return ty.name if ty is not None and ty._prod == "NamedType" and ty.name in self.enums \
            else None

    def literal(self, ty, names: dict, span):
        """The value of type ty whose parts the locals `names` names by path; an enum's
        chooses its variant: `if s_Sq { Shape::Sq(s_Sq_0) } else { Shape::Rect(s_Rect_0,
        s_Rect_1) }`."""
        if self.enum(ty) is None:
            return parts_literal(ty, (), names, self.structs, span)
        *tested, last = self.enums[ty.name]

        def value(v):
            return L["EnumValue"](ty.name, v.name, tuple(
                parts_literal(t, (v.name, k), names, self.structs, span)
                for k, t in enumerate(v.fields)), span=span)
        made = value(last)
        for v in reversed(tested):
            made = L["IfExpr"](L["Local"](names[(v.name,)], span=span), False,
                               L["Block"]((), value(v), span=span),
                               L["Block"]((), made, span=span), span=span)
        return made


def part(e, path: tuple, ty=None, enum=None):
    """The expression of e's part at path, of type ty, of e an enum value of the enum `enum`
    else None: a variant's value not held is zero, what no read sees."""
    if enum is not None:
        return _variant_part(e, path, ty, enum)
    for label in path:
        if e._prod == "StructLit":
            e = next(f.value for f in e.fields if f.name == label)
        elif e._prod == "Tuple":
            e = e.elems[label]
        elif isinstance(label, int):
            e = L["TupleGet"](e, label, span=e.span)
        else:
            e = L["FieldGet"](e, label, span=e.span)
    return e


def _variant_part(e, path: tuple, ty, enum):
    variant, index, rest = path[0], path[1] if len(path) > 1 else None, path[2:]
    if e._prod == "EnumValue":
        if index is None:
            return L["Bool"](e.variant == variant, span=e.span)
        return part(e.args[index], rest) if e.variant == variant else _zero(ty, e.span)
    held = L["VariantIs"](e, enum, variant, span=e.span)
    if index is None:
        return held
    carried = part(L["VariantField"](e, enum, variant, index, span=e.span), rest)
    return L["IfExpr"](held, False, L["Block"]((), carried, span=e.span),
                       L["Block"]((), _zero(ty, e.span), span=e.span), span=e.span)


def _zero(ty, span):
    """The zero of the scalar type ty, a number cast to it as the parameter types it; of a
    tensor type, a tensor no read sees (an empty buffer where an extent is `?`)."""
    if sized(ty):
        return unread_tensor(ty, span)
    made = zero(ty, span)
    return made if ty.name == "bool" else L["Cast"](made, ty, span=span)


def computes_nothing(e) -> bool:
    """Whether e is a variable, a literal or a field of one, which computes nothing and
    cannot stop."""
    while e._prod in ("FieldGet", "TupleGet"):
        e = e.base
    return e._prod in ("Local", "Int", "Float", "Bool")


def rechoose(value, arm, walk):
    """value, each value v an `if` (and each `else if`) may give made arm(v), and each
    condition walk(cond)."""
    if value is None or value._prod != "IfExpr":
        return value if value is None else arm(value)
    return value.replace(cond=walk(value.cond), then=value.then.replace(
        value=rechoose(value.then.value, arm, walk)), orelse=value.orelse.replace(
        value=rechoose(value.orelse.value, arm, walk)))


def called_closures(fn, held=lambda value: value._prod == "Closure") -> dict:
    """The locals that only ever hold closures written in fn (the values `held` accepts) and
    are only called: local -> the closures it may hold. Such locals are bound by a `let` to a
    closure, to another of them or to an `if` choosing among those, and only called or
    assigned one of those (`let mut f = f_0; f = f_1;`, as choose-closures-in-kernels writes,
    or `let ordered = s;`, as name-temporaries holds a callee); those holding one another's
    closures may hold them all, a group."""
    lets = [n for n in descendants(fn) if n._prod == "Let"]
    group = {n.name: n.name for n in lets}

    def find(name):
        while group[name] != name:
            name = group[name]
        return name

    closures: dict = {}
    ok = set(group)
    used = {id(n.callee) for n in descendants(fn) if n._prod == "Call"}
    bindings = [(n.name, n.value, None) for n in lets] + \
        [(n.target.name, n.value, n) for n in descendants(fn)
         if n._prod == "Assign" and n.target._prod == "Local" and n.target.name in group]
    for name, value, assign in bindings:
        if assign is not None:
            used.add(id(assign.target))
            if assign.op != "=":
                ok.discard(name)
        for each in chosen_values(value):
            if held(each):
                closures.setdefault(name, []).append(each)
            elif each._prod == "Local" and each.name in group:
                used.add(id(each))
                group[find(name)] = find(each.name)
            else:
                ok.discard(name)
    for n in descendants(fn):
        if n._prod == "Local" and id(n) not in used:
            ok.discard(n.name)
    members: dict = {}
    for name in group:
        members.setdefault(find(name), []).append(name)
    found = {}
    for names in members.values():
        held = [c for name in names for c in closures.get(name, ())]
        if held and all(name in ok for name in names):
            found.update((name, held) for name in names)
    return found


def given_split(node, split: dict):
    """What `split` holds of the local a `let` or an assignment gives a closure written there,
    or an `if` choosing one, else None."""
    name = node.name if node._prod == "Let" else \
        node.target.name if node.target._prod == "Local" else None
    return split.get(name) if any(v._prod == "Closure" for v in chosen_values(node.value)) \
        else None


def taken_type(ty):
    """The type of the value whose parts a closure's parameter of type ty takes: a `&` to a
    struct, a tuple or an enum takes its parts' values, as a function's `&Point` parameter
    does (while the reference lives the borrow rules forbid any write to what it names)."""
    if ty is not None and ty._prod == "BorrowType" and not ty.mutable and \
            ty.inner._prod in ("NamedType", "TupleType"):
        return ty.inner
    return ty


def taken_parts(closures: list, parts: Parts) -> list | None:
    """Per parameter of the closures a local may hold, the parts split-closure-aggregates may
    take it as (None: a scalar's), alike in each closure and some aggregate's, else None."""
    each = [[parts.of(taken_type(p.type), untyped=True) for p in c.params] for c in closures]
    first = each[0]
    if not any(first) or any(p is False for p in first) or any(other != first for other in each):
        return None
    return first


def giveable(a, param, split: list, parts: Parts) -> bool:
    """Whether a call may give the parts `split` of a for param: a value of an enum carrying a
    tensor only as a literal or a variable, whose tensor part scalarize-aggregates gives as
    the variable's own part, whatever variant it holds (another's part of a value made
    elsewhere would be a buffer made for the call, that no one drops); a `&` parameter's, a
    borrow `&x` of such a value, whose parts are x's, or a reference variable."""
    if taken_type(param.type) is not param.type:
        if a._prod == "Borrow" and not a.mutable:
            a = a.value
        elif a._prod != "Local":  # a reference variable, read through as the closure does
            return False
    return (_plain(a, parts) or _read_once(a, (), [path for path, _ in split], parts)) and \
        (a._prod in ("EnumValue", "Local") or not parts.carries_tensor(taken_type(param.type)))


def _read_once(e, at: tuple, paths: list, parts: Parts) -> bool:
    """Whether e, a struct or tuple literal at the path `at` of the argument whose parts are
    at `paths` (in order), given part by part computes each operator of its fields once, in
    the order written: a field that is one part (`Two { a: 1 << 40, .. }`) is the argument
    in that part's place, so it may compute an operator on what reads alike each time; a
    field split in turn is such a literal too, or plain (no operator on literals alone:
    `P { k: 1 << 40, .. }`). The fields computing operators
    are written in the order of their parts, which the call computes in turn (one may stop
    the run: `x / y`)."""
    if e._prod == "StructLit":
        labelled = [(f.name, f.value) for f in e.fields]
    elif e._prod == "Tuple":
        labelled = list(enumerate(e.elems))
    else:
        return False
    computing = [label for label, v in labelled if not _plain(v, parts)]
    if computing != [label for label in dict.fromkeys(p[len(at)] for p in paths
                                                      if p[:len(at)] == at)
                     if label in computing]:
        return False
    return all(_plain(v, parts) or (at + (label,) in paths and _computed(v, parts) and not any(
        _of_literals(n) for n in descendants(v))) or _read_once(v, at + (label,), paths, parts)
               for label, v in labelled)


def _of_literals(e) -> bool:
    """Whether e is an operator on literals alone, which a closure's argument computes as a
    plain i32 or f64 (`1 << 40` wraps), where the literal's field or element gave it its
    type (a generic struct's field is given its arguments' by a cast: `1 as i64 << 40`)."""
    if e._prod == "Binary":
        return all(x._prod in ("Int", "Float") or _of_literals(x) for x in (e.left, e.right))
    return e._prod == "Unary" and (e.operand._prod in ("Int", "Float") or _of_literals(e.operand))


def _computed(e, parts: Parts) -> bool:
    """Whether e is an operator (or a cast, or an element of a tensor) on what reads alike
    each time, read once."""
    if e._prod == "Binary":
        return all(_plain(x, parts) or _computed(x, parts) for x in (e.left, e.right))
    if e._prod == "Unary":
        return _plain(e.operand, parts) or _computed(e.operand, parts)
    if e._prod == "Index":  # an element, its index checked where the part is given
        return all(_plain(x, parts) or _computed(x, parts) for x in (e.base, e.index))
    return e._prod == "Cast" and (_plain(e.value, parts) or _computed(e.value, parts))


def _plain(e, parts: Parts) -> bool:
    """Whether reading e's parts one by one reads what reading it once would: a constant's
    (a `Global`, or a part split-computed-constants made of one) is computed at its first
    read, once; an enum value computes each value it carries that is one part once, in the
    order written."""
    if e._prod in ("Local", "Global", "Int", "Float", "Bool"):
        return True
    if e._prod in ("FieldGet", "TupleGet"):
        return _plain(e.base, parts)
    if e._prod == "Deref":  # what a reference local refers to
        return e.value._prod == "Local"
    if e._prod == "Unary":  # a negative constant
        return e.op == "-" and e.operand._prod in ("Int", "Float")
    if e._prod == "Cast":  # a literal typed by the generic struct's arguments it is given
        return e.value._prod in ("Int", "Float", "Unary") and _plain(e.value, parts)
    if e._prod == "StructLit":
        return all(_plain(f.value, parts) for f in e.fields)
    if e._prod == "Tuple":
        return all(_plain(x, parts) for x in e.elems)
    if e._prod == "EnumValue":
        return all(_plain(x, parts) or parts.one_part(e, k) for k, x in enumerate(e.args))
    return False
