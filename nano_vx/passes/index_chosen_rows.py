"""index-chosen-rows: Lsplit -> Lsplit.

Same IL: an `if` value choosing an index is Lsplit's own expression, and `halt_with` stops
as the interpreter's index check does, so the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregate_values import pure
from ..scalars.index_checks import checked_index


@dataclass
class State:
    types: dict = field(default_factory=dict)  # each local of the function -> its type


index_chosen_rows = Pass("index-chosen-rows", L, L, """
Write an `if` choosing among rows of one tensor variable (`if c { t[1] } else { t[k] }`,
borrowed or not) as the row of that variable at the index the `if` chooses (`t[if c { 1 }
else { k }]`), each arm checking its index as the interpreter checks it there.

A row is a view of its tensor's buffer, which native code lowers where a `let` binds it, a
call is given it or a `print` prints it, while an `if` value is explicate-control's
variable, started at a zero that a row has not. The tensor is a variable (or what a
reference variable refers to) of a static first extent and rank above 1, which nothing in
the `if` assigns, lends `&mut` or captures, so reading it before the condition reads what
each arm read; an arm's index is a number below that extent, or one computed without a
call, which its arm checks in the interpreter's words at its row's place (`if k < 0 {
halt_with("E9003", "index {a} is out of bounds for dimension 0 of extent 2", k) } else if k
as u64 >= 2 { .. }`): the row's own check, of the chosen index, then passes. An `else if` chain chooses in
each of its arms; an `if` an arm of which holds statements, or computes its index by a call,
stays as written, which split-chosen-tensor-references binds in each arm where a `let` binds
it, and check-native-subset refuses elsewhere.
""", state=State)


@index_chosen_rows.on("Fn")
def _fn(run, fn):
    run.state.types = {n.name: n.type for n in descendants(fn)
                       if n._prod in ("Let", "Param") and n.type is not None}
    return run.rebuild(fn)


@index_chosen_rows.on("IfExpr")
def _if(run, e):
    rows = _rows(e)
    if rows is None:
        return run.rebuild(e)
    first = rows[0]
    borrow = first if first._prod == "Borrow" else None
    base = (first.value if borrow else first).base
    extent = _extent(run.state.types, base)
    if extent is None or _changes(e, _root(base)) or \
            any(_base(r, borrow) != base for r in rows) or \
            not all(_checkable(_index_of(r, borrow), extent) for r in rows):
        return run.rebuild(e)
    row = L["Index"](base, _chosen(run, e, borrow, extent), span=e.span)
    return row if borrow is None else borrow.replace(value=row, span=e.span)


def _rows(e) -> list | None:
    """The values an `if` chain's arms give, each a row or a borrow of one, None when an arm
    holds a statement or gives anything else."""
    if e._prod != "IfExpr" or e.comptime:
        return [e] if _is_row(e) else None
    rows = []
    for arm in (e.then, e.orelse):
        if arm.stmts or arm.value is None:
            return None
        found = _rows(arm.value)
        if found is None:
            return None
        rows += found
    return rows


def _is_row(e) -> bool:
    return (e.value if e._prod == "Borrow" else e)._prod == "Index"


def _base(row, borrow):
    """The tensor a row is of, None when it is borrowed otherwise than `borrow` is."""
    if (row._prod == "Borrow") != (borrow is not None) or \
            borrow is not None and row.mutable != borrow.mutable:
        return None
    return (row.value if borrow else row).base


def _index_of(row, borrow):
    return (row.value if borrow else row).index


def _root(base) -> str:
    return base.value.name if base._prod == "Deref" else base.name


def _extent(types: dict, base) -> int | None:
    """The first extent of the tensor `base` names, a variable (`t`) or what a reference
    variable refers to (`*m`, or `m` itself), when it is a number and the tensor's rank is
    above 1 (an index gives a row); None for any other."""
    if base._prod == "Deref":
        base = base.value
    if base._prod != "Local":
        return None
    ty = types.get(base.name)
    while ty is not None and ty._prod == "BorrowType":
        ty = ty.inner
    if ty is None or ty._prod != "TensorType" or len(ty.dims) < 2 or \
            ty.dims[0]._prod != "DimInt":
        return None
    return ty.dims[0].value


def _changes(e, name: str) -> bool:
    """Whether anything in `if` e could change variable `name`: an assignment, a `&mut` of
    it, or a closure naming it."""
    for n in descendants(e):
        if n._prod == "Assign" and n.target._prod == "Local" and n.target.name == name or \
                n._prod == "Borrow" and n.mutable and n.value._prod == "Local" and \
                n.value.name == name or \
                n._prod == "Closure" and any(m._prod == "Local" and m.name == name
                                             for m in descendants(n)):
            return True
    return False


def _checkable(index, extent: int) -> bool:
    """Whether an arm can check its index before the row is taken: a number below the
    extent needs no check, another index is computed again for its check, so without a
    call."""
    return _within(index, extent) or pure(index)


def _within(index, extent: int) -> bool:
    return index._prod == "Int" and 0 <= index.value < extent


def _chosen(run, e, borrow, extent: int):
    """The `if` choosing the index of each row its arms give, each checked."""
    if e._prod != "IfExpr" or e.comptime:
        row = e.value if borrow else e
        return _checked(run.walk(row.index), extent, e.span)
    return e.replace(cond=run.walk(e.cond),
                     then=e.then.replace(value=_chosen(run, e.then.value, borrow, extent)),
                     orelse=e.orelse.replace(value=_chosen(run, e.orelse.value, borrow,
                                                           extent)))


def _checked(index, extent: int, span):
    """A row's index, stopping as the interpreter does when it is out of range, at the
    row's place (`span`: the row, or its borrow)."""
    return index if _within(index, extent) else checked_index(index, 0, extent, span)
