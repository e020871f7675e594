"""The scalar parts of a struct or tuple a closure takes or returns, as split-closure-results
and split-closure-aggregates give them one by one, the literal that puts them together, and
the closures a local only called may hold."""

from __future__ import annotations

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import descendants


def struct_fields(program) -> dict:
    """Each struct's name -> its fields."""
    return {item.name: item.fields for item in program.items if item._prod == "StructDecl"}


def aggregate_parts(structs: dict, ty, whole: bool = True):
    """The (path, scalar type) of each part of a struct or tuple type; None for a type of no
    parts (a scalar's, a tensor's, a reference to a scalar), False for an aggregate left whole.
    A part of an aggregate (not `whole`) is a scalar or an aggregate split in turn."""
    if ty is None:
        return False
    if ty._prod == "TupleType":
        labelled = list(enumerate(ty.elems))
    elif ty._prod == "NamedType" and ty.name in structs:
        labelled = [(f.name, f.type) for f in structs[ty.name]]
    elif ty._prod == "Scalar":
        return None
    elif not whole or ty._prod == "NamedType":  # an enum, or a generic struct's erased field
        return False
    elif ty._prod == "BorrowType":
        return None if ty.inner._prod == "Scalar" else False
    else:
        return None
    found = []
    for label, t in labelled:
        inner = aggregate_parts(structs, t, False)
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
    if ty._prod == "Scalar":
        return L["Local"](names[path], span=span)
    if ty._prod == "TupleType":
        return L["Tuple"](tuple(parts_literal(t, path + (k,), names, structs, span)
                                for k, t in enumerate(ty.elems)), span=span)
    return L["StructLit"](ty.name, tuple(
        L["FieldInit"](f.name, parts_literal(f.type, path + (f.name,), names, structs, span),
                       span=span) for f in structs[ty.name]), span=span)


def called_closures(fn) -> dict:
    """The locals a `let` binds to a closure, each only called by name or, bound by a `let
    mut`, given another closure by an assignment: local -> its closures."""
    found = {n.name: [n.value] for n in descendants(fn)
             if n._prod == "Let" and n.value._prod == "Closure"}
    mutable = {n.name for n in descendants(fn) if n._prod == "Let" and n.mutable}
    used = {id(n.callee) for n in descendants(fn) if n._prod == "Call"}
    for n in descendants(fn):
        if n._prod == "Assign" and n.target._prod == "Local" and n.target.name in found:
            if n.target.name in mutable and n.op == "=" and n.value._prod == "Closure":
                found[n.target.name].append(n.value)
                used.add(id(n.target))
            else:
                found.pop(n.target.name)
    # A copy `let ordered = s` (name-temporaries holds a callee so) calls what s holds.
    copies = {n.name: n.value.name for n in descendants(fn) if n._prod == "Let"
              and not n.mutable and n.value._prod == "Local" and n.value.name in found}
    used |= {id(n.value) for n in descendants(fn) if n._prod == "Let" and n.name in copies}
    for copy, name in copies.items():
        found.setdefault(copy, found[name])
    for n in descendants(fn):
        if n._prod == "Local" and id(n) not in used:
            found.pop(n.name, None)
    for copy, name in copies.items():
        if copy not in found:
            found.pop(name, None)
    return {name: closures for name, closures in found.items()
            if copies.get(name, name) in found}
