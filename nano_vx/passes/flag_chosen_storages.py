"""flag-chosen-storages: Lsplit -> Lsplit.

Same IL: the flag says which of the two references holds the place the variable named, and
each statement reading through it runs once, through that reference, computing what it
computed in the same order; the starts name places without computing anything that can
stop. The interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..nanopass.verify import child_nodes
from ..scalars.aggregates import Names
from ..scalars.closures import chosen_elements, names
from ..scalars.storages import (Known, bound_locals, chosen_between_storages, chosen_values,
                                fresh_copy, known_places, storage, tensor_storage, unwrapped)


@dataclass
class _Flagged:
    """The variables one chosen reference `let mut` becomes."""

    byte: str  # the reference to places of the narrow storage
    value: str  # the reference to places of its value type
    flag: str  # whether the variable names the byte's place
    narrow: str  # the narrow storage


@dataclass
class State:
    flagged: dict = field(default_factory=dict)  # each reference written so -> its _Flagged
    starts: dict = field(default_factory=dict)  # each such reference -> (byte's, value's)
    known: Known | None = None
    names: Names | None = None
    returning: set = field(default_factory=set)  # the functions whose result holds a reference


flag_chosen_storages = Pass("flag-chosen-storages", L, L, """
Write a `let mut` reference that an `if` chooses between an element of a tensor of a narrow
type and a place of its value type, which rebind-chosen-references and
copy-rest-into-assigning-arms leave (assigned in a loop), as a reference per storage and a
flag saying which of them the variable names, so that each reference names places of one
storage.

`let mut r = if c { &mut t[1] } else { &mut x }; while i < 2 { set(r, 4.0); r = &mut t[0];
.. }` is `let mut r_byte = &mut t[0]; let mut r_value = &mut x; let mut r_in_byte = false;
if c { r_byte = &mut t[1]; r_in_byte = true; } else { r_value = &mut x; r_in_byte = false; }
while i < 2 { if r_in_byte { set(r_byte, 4.0); } else { set(r_value, 4.0); } r_byte = &mut
t[0]; r_in_byte = true; .. }`: native code reads through a reference as one machine type, a
byte or its value type, and which place the variable names on a turn depends on the turns
before it, which the flag keeps. Each reference starts at a place an arm names that computes
nothing that can stop: a variable of the value type (`&mut x`), or the first element of a
tensor whose extents are static and none 0 (`&mut t[0]`); each assignment of the variable
assigns the reference of the storage of its place and the flag, and each statement naming
it (a `let`, an assignment, an expression statement, a `return`) is written once per
storage, in an `if` on the flag (a `let`'s value, which the `let` binds after it, and a
block's value alike). Only a variable named only through it (`*r`) or as an argument of a
function returning no reference is written so, none a closure names or a loop's or an
`if`'s head reads (bind-chosen-storage-heads binds a `while`'s and an `if`'s to a `let`
first): elsewhere check-native-subset refuses it.
""", state=State)


@flag_chosen_storages.on("Program")
def _program(run, program):
    run.state.returning = {i.name for i in program.items if i._prod == "Fn" and
                           i.ret is not None and
                           any(n._prod == "BorrowType" for n in descendants(i.ret))}
    return run.rebuild(program)


@flag_chosen_storages.on("Fn")
def _fn(run, fn):
    known = known_places(fn, {})
    lets = [n for n in descendants(fn.body) if n._prod == "Let" and n.mutable and
            chosen_between_storages(n, known)]
    if not lets:
        return fn
    st = run.state
    st.known, st.names, st.flagged, st.starts = known, Names(fn), {}, {}
    for let in lets:
        found = {storage(e, known) for e in chosen_values(let.value)}
        narrow = next(iter(found - {""}), None)
        starts = _starts(let, known, narrow)
        if len(found) != 2 or "" not in found or None in found or starts is None or \
                not _only_through(fn.body, let.name, {narrow, ""}, known, st.returning):
            continue
        base = let.name.split("#")[0]
        st.flagged[let.name] = _Flagged(st.names.fresh(f"{base}_byte"),
                                        st.names.fresh(f"{base}_value"),
                                        st.names.fresh(f"{base}_in_byte"), narrow)
        st.starts[let.name] = starts
    return run.rebuild(fn) if st.flagged else fn


def _starts(let, known: Known, narrow) -> tuple | None:
    """The places the two references start at, (the byte's, the value's), each one an arm of
    the `if` names that computes nothing that can stop: a variable (`&mut x`), or the first
    element of a tensor bound before it whose extents are static and none 0; None where an
    arm names none."""
    found = {}
    for e in chosen_values(let.value):
        if e._prod == "Borrow" and e.value._prod == "Local" and \
                e.value.name not in bound_locals(let.value):
            found.setdefault("", fresh_copy(e))
    for tensor, rank in chosen_elements(let.value):
        ty = unwrapped(known.types.get(tensor))
        kind = tensor_storage(ty)
        if kind is not None and ty._prod == "TensorType" and len(ty.dims) == rank and \
                all(d._prod == "DimInt" and d.value > 0 for d in ty.dims):
            place = L["Local"](tensor, span=let.span)
            for _ in range(rank):
                place = L["Index"](place, L["Int"](0, span=let.span), span=let.span)
            found.setdefault(kind, L["Borrow"](place, True, span=let.span))
    return (found[narrow], found[""]) if narrow in found and "" in found else None


def _only_through(block, name: str, kinds: set, known: Known, returning: set) -> bool:
    """Whether the statements of block (and of the blocks under them) name the reference
    `name` only in assignments of it a place of a storage of `kinds` (or an `if` choosing
    among such), and in statements
    reading or writing through it (`*r`) or giving it to a function of the program returning
    no reference (a block's value too), none in a closure or a loop's or an `if`'s head."""
    for s in block.stmts:
        if not names(s, name) and not (s._prod == "Assign" and _assigns(s, name)):
            continue
        if s._prod == "Assign" and _assigns(s, name):
            if s.op != "=" or names(s.value, name) or any(
                    storage(e, known) not in kinds for e in chosen_values(s.value)):
                return False
        elif s._prod in ("Let", "ExprStmt", "Assign", "Return"):
            if not _through(s, name, returning):
                return False
        elif s._prod in _HEADS and not any(names(getattr(s, h), name) for h in _HEADS[s._prod]):
            if not all(_only_through(getattr(s, arm), name, kinds, known, returning)
                       for arm in ("then", "orelse", "body") if getattr(s, arm, None) is not None):
                return False
        else:
            return False
    return block.value is None or _through(block.value, name, returning)


# The heads of the statements holding blocks, computed before them.
_HEADS = {"If": ("cond",), "While": ("cond",), "For": ("start", "end")}


def _assigns(s, name: str) -> bool:
    return s.target._prod == "Local" and s.target.name == name


def _through(s, name: str, returning: set) -> bool:
    """Whether each name of the reference in the statement s reads or writes through it, or
    gives it to a function of the program returning no reference, outside closures and
    assignments of it."""
    def walk(node, parent, grand) -> bool:
        if node._prod == "Local" and node.name == name:
            return parent is not None and (
                parent._prod == "Deref" and getattr(grand, "_prod", None) != "Borrow" or
                parent._prod == "Call" and parent.callee._prod == "Global" and
                parent.callee.name not in returning and any(a is node for a in parent.args))
        if node._prod == "Closure" and names(node, name) or \
                node._prod == "Assign" and _assigns(node, name):
            return False
        return all(walk(c, node, parent) for c in child_nodes(node))
    return walk(s, None, None)


@flag_chosen_storages.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts, value = [], block.value
    for s in block.stmts:
        stmts += _written(run.state, s)
    for name in run.state.flagged:
        if value is not None and names(value, name):
            value = _per_storage_value(run.state, value, name)
    return block.replace(stmts=tuple(stmts), value=value)


def _written(st: State, s) -> list:
    """The statements s becomes."""
    if s._prod == "Let" and s.name in st.flagged:
        f, (byte, value) = st.flagged[s.name], st.starts[s.name]
        span = s.span
        ty = fresh_copy(s.type) if s.type is not None else None
        return [L["Let"](f.byte, True, ty, byte, span=span),
                L["Let"](f.value, True, fresh_copy(ty) if ty is not None else None, value,
                         span=span),
                L["Let"](f.flag, True, L["Scalar"]("bool", span=span),
                         L["Bool"](False, span=span), span=span),
                *_chosen(st, f, s.value)]
    if s._prod == "Assign" and s.target._prod == "Local" and s.target.name in st.flagged:
        return _chosen(st, st.flagged[s.target.name], s.value)
    for name in st.flagged:
        if s._prod in ("Let", "ExprStmt", "Assign", "Return") and names(s, name):
            done = _per_storage(st, s, name)
            return _written(st, done) if done._prod == "Let" else [done]
    return [s]


def _chosen(st: State, f: _Flagged, value) -> list:
    """The statements giving the references and the flag the place `value` chooses."""
    if value._prod != "IfExpr":
        return _given(st, f, value)
    arms = {}
    for field_, arm in (("then", value.then), ("orelse", value.orelse)):
        arms[field_] = L["Block"](arm.stmts + tuple(_chosen(st, f, arm.value)), None,
                                  span=arm.span)
    return [L["If"](value.cond, value.comptime, arms["then"], arms["orelse"], span=value.span)]


def _given(st: State, f: _Flagged, place) -> list:
    """The reference of the storage of `place` given it, and the flag saying which."""
    span, narrow = place.span, storage(place, st.known) == f.narrow
    return [L["Assign"](L["Local"](f.byte if narrow else f.value, span=span), "=", place,
                        span=span),
            L["Assign"](L["Local"](f.flag, span=span), "=", L["Bool"](narrow, span=span),
                        span=span)]


def _per_storage(st: State, s, name: str):
    """The statement s naming the reference `name`, written once per storage in an `if` on
    its flag: a `let`'s value so, the `let` binding it after."""
    if s._prod == "Let":
        return s.replace(value=_per_storage_value(st, s.value, name))
    f, span = st.flagged[name], s.span
    byte, value = _copies(st, s, name)
    return L["If"](L["Local"](f.flag, span=span), False,
                   L["Block"](tuple(_written(st, byte)), None, span=span),
                   L["Block"](tuple(_written(st, value)), None, span=span), span=span)


def _per_storage_value(st: State, e, name: str):
    """The expression e naming the reference `name` as an `if` on its flag, computing it
    once per storage."""
    f, span = st.flagged[name], e.span
    byte, value = _copies(st, e, name)
    return L["IfExpr"](L["Local"](f.flag, span=span), False, L["Block"]((), byte, span=span),
                       L["Block"]((), value, span=span), span=span)


def _copies(st: State, node, name: str) -> tuple:
    """node naming the byte's reference, and naming the value's (its locals named anew)."""
    f = st.flagged[name]
    return fresh_copy(node, {name: f.byte}), fresh_copy(node, {
        name: f.value, **{old: st.names.fresh(old.split("#")[0]) for old in bound_locals(node)}})
