"""What a place a reference or raw pointer names stores: an element of a tensor of a narrow
type (`f8e4m3`, a byte), or a value of its value type. Native code reads and writes through
a reference as one machine type, so specialize-storages and split-chosen-storages ask which
places a reference may name; a copy of a tree whose nodes are its own, as those passes make
of code they write twice; and a `let` of what an `if` chooses written as that `if` choosing
between `let`s, each arm followed by the rest of its block."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..languages.lsplit import Lsplit as L
from ..nanopass import Node, descendants
from ..values.literals import TYPE_WRAPPERS
from ..values.narrow import NARROW_TYPES

# The productions binding or naming a function's locals, and their fields that do.
_LOCAL_NAMES = {"Let": ("name",), "LetState": ("name", "took", "held"),
                "LetElement": ("name",), "For": ("var",),
                "Param": ("name",), "PBind": ("name",), "Local": ("name",)}


@dataclass
class Known:
    """What the places of one function's references and pointers store, where known."""

    stores: dict  # a local bound to a place (a parameter, a `let`) -> what the place stores
    types: dict  # each local -> its type as written


def known_places(fn, stores: dict) -> Known:
    """What the places of the function's references and pointers store, where known: those
    `stores` gives (its parameters'), and those of the `let`s binding such a place, each
    assignment of which gives it a place of the same storage (`let mut r = &mut t[0]; ..; r =
    &mut t[i];`)."""
    known = Known(dict(stores), {p.name: p.type for p in fn.params})
    assigned: dict = {}
    for n in descendants(fn.body):
        if n._prod in ("Let", "Param"):
            known.types[n.name] = n.type
        elif n._prod == "Assign" and n.target._prod == "Local":
            assigned.setdefault(n.target.name, []).append(n.value if n.op == "=" else None)
    for n in descendants(fn.body):
        if n._prod == "Let":
            found = {storage(v, known) if v is not None else None
                     for v in (n.value, *assigned.get(n.name, ()))}
            if len(found) == 1 and None not in found:
                known.stores[n.name] = found.pop()
    return known


def unwrapped(ty):
    while ty is not None and ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    return ty


def tensor_storage(ty) -> str | None:
    """What an element of a tensor of type `ty` (or a reference to one) stores: a narrow
    type's name, "" its value type, None for a type that is no tensor's."""
    ty = unwrapped(ty)
    if ty is not None and ty._prod == "BorrowType":
        ty = unwrapped(ty.inner)
    if ty is None or ty._prod != "TensorType":
        return None
    return ty.elem.name if ty.elem._prod == "Scalar" and ty.elem.name in NARROW_TYPES else ""


def storage(e, known: Known) -> str | None:
    """What the place a reference or pointer `e` names stores, or None where not known."""
    if e._prod == "Local":
        return known.stores.get(e.name)
    if e._prod == "AsPtr" and e.value._prod == "Local":
        return tensor_storage(known.types.get(e.value.name))
    if e._prod != "Borrow":
        return None
    place = e.value
    if place._prod == "Local":
        return ""  # a variable's cell, of its own type
    if place._prod == "Deref" and place.value._prod == "Local":
        return known.stores.get(place.value.name)
    if place._prod == "Index":
        while place._prod == "Index":
            place = place.base
        if place._prod == "Local":
            return tensor_storage(known.types.get(place.name))
    return None


def chosen_values(e) -> list:
    """The values an `if` (and each `else if`) may give."""
    if e is None:
        return []
    if e._prod != "IfExpr":
        return [e]
    return chosen_values(e.then.value) + chosen_values(e.orelse.value)


def chosen_between_storages(s, known: Known) -> bool:
    """`s` is a `let` of a place an `if` chooses among places of two storages."""
    if s._prod != "Let" or s.value._prod != "IfExpr":
        return False
    found = {storage(e, known) for e in chosen_values(s.value)}
    return len(found - {None}) > 1


def fresh_copy(node, renamed: dict | None = None):
    """A copy of `node` made of nodes of its own (the passes after these note what they find
    of a node by its id(), and each copy's may differ), each local of `renamed` named anew."""
    renamed = renamed or {}
    fields = {}
    for name in node._fields:
        value = getattr(node, name)
        if isinstance(value, Node):
            fields[name] = fresh_copy(value, renamed)
        elif isinstance(value, tuple):
            fields[name] = tuple(fresh_copy(v, renamed) if isinstance(v, Node) else v
                                 for v in value)
        elif name in _LOCAL_NAMES.get(node._prod, ()) and value in renamed:
            fields[name] = renamed[value]
    return node.replace(**fields)


def bound_locals(node) -> list:
    """The locals `node` binds, in order."""
    return [getattr(n, f) for n in descendants(node) if n._prod != "Local"
            for f in _LOCAL_NAMES.get(n._prod, ())]


def split_into_arms(block, at: int, fresh: Callable[[str], str],
                    note: Callable[[dict], None] = lambda renamed: None):
    """`block` with its `let` at `at`, of a value an `if` chooses, written as that `if`
    choosing between the `let`s of its arms' values, each arm followed by what followed the
    `let` in the block: the `if` the block's value where the block has one, the second arm's
    copy of the rest binding its locals under names `fresh` makes (`note` is told each old
    name's new one), an arm without a value (it leaves) as it is."""
    let = block.stmts[at]
    choice = let.value
    arms = (_arm(choice.then, let, block, at, {}),
            _arm(choice.orelse, let, block, at, _renamed(let, block, at, fresh, note)))
    if block.value is None:
        return block.replace(stmts=block.stmts[:at] + (
            L["If"](choice.cond, False, *arms, span=choice.span),))
    return block.replace(stmts=block.stmts[:at], value=choice.replace(
        then=arms[0], orelse=arms[1]))


def _renamed(let, block, at: int, fresh, note) -> dict:
    rest = block.replace(stmts=block.stmts[at + 1:])
    renamed = {old: fresh(old.split("#")[0]) for old in [let.name] + bound_locals(rest)}
    note(renamed)
    return renamed


def _arm(arm, let, block, at: int, renamed: dict):
    """The arm: its statements, the `let` of its value, then what followed the `let` in the
    block, its locals those of `renamed` named anew (a copy of its own where any is)."""
    if arm.value is None:
        return arm
    rest, value = block.stmts[at + 1:], block.value
    if renamed:
        rest = tuple(fresh_copy(s, renamed) for s in rest)
        value = fresh_copy(value, renamed) if value is not None else None
    bound = let.replace(name=renamed.get(let.name, let.name),
                        type=fresh_copy(let.type) if renamed else let.type, value=arm.value)
    return arm.replace(stmts=(*arm.stmts, bound, *rest), value=value)


def gives_rows(choice) -> bool:
    """Whether the `if` choice gives a row (`t[1]` of a matrix, or `&t[1]`) in some arm,
    through an `else if` chain too: a view of its tensor's buffer, which no start of a
    variable of its own would give back."""
    return any(arm.value is not None and (_row(arm.value) or
                                          arm.value._prod == "IfExpr" and gives_rows(arm.value))
               for arm in (choice.then, choice.orelse))


def _row(e) -> bool:
    return e._prod == "Index" or e._prod == "Borrow" and e.value._prod == "Index"
