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
    """The locals that only ever hold closures written in fn and are only called: local -> the
    closures it may hold. Such locals are bound by a `let` to a closure or to another of
    them, and only called or assigned a closure or another of them (`let mut f = f_0; f =
    f_1;`, as choose-closures-in-kernels writes, or `let ordered = s;`, as name-temporaries
    holds a callee); those holding one another's closures may hold them all, a group."""
    lets = [n for n in descendants(fn) if n._prod == "Let"]
    group = {n.name: n.name for n in lets}

    def find(name):
        while group[name] != name:
            name = group[name]
        return name

    closures: dict = {}
    ok = {n.name for n in lets if n.value._prod in ("Closure", "Local")}
    used = {id(n.callee) for n in descendants(fn) if n._prod == "Call"}
    bindings = [(n.name, n.value, None) for n in lets] + \
        [(n.target.name, n.value, n) for n in descendants(fn)
         if n._prod == "Assign" and n.target._prod == "Local" and n.target.name in group]
    for name, value, assign in bindings:
        if assign is not None:
            used.add(id(assign.target))
            if assign.op != "=" or value._prod not in ("Closure", "Local"):
                ok.discard(name)
        if value._prod == "Closure":
            closures.setdefault(name, []).append(value)
        elif value._prod == "Local" and value.name in group:
            used.add(id(value))
            group[find(name)] = find(value.name)
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
    else None."""
    name = node.name if node._prod == "Let" else \
        node.target.name if node.target._prod == "Local" else None
    return split.get(name) if node.value._prod == "Closure" else None
