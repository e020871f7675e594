"""find-owned-buffers: Lcells, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..backend.buffers import (borrowed_place, element_borrows, fresh_cells, fresh_lets,
                               fresh_results, keeping_calls, keeps_nothing)
from ..backend.machine_types import Tensor, vx_type
from ..languages.lcells import Lcells
from ..nanopass import Analysis
from ..nanopass.verify import child_nodes, descendants

find_owned_buffers = Analysis("find-owned-buffers", Lcells, """
Find the tensor locals whose buffer each function owns: made for it, and kept by nothing else.

A function owns the buffer of a local bound once (not a cell) to a tensor constructor, a
tensor literal, a transfer (which copies into a fresh buffer) or a call of a function that
returns only buffers it made (backend/buffers.py), as long as the local is only indexed,
asked its extents, printed, transferred (copied) or passed to a function whose result is no tensor and no
reference, or a tensor the call made: none of those can keep the buffer past the call, or
an element or a row of it borrowed by a `let` (`let r = &t[i];`, and a place borrowed from
r in turn) whose reference is used only in those ways or read and written through (`*r`,
`r[j]`): the buffer then lives as long as the reference is read (insert-drops counts its
reads as the tensor's). Any other use (returned, bound to another name, passed to a
function that may return an argument or a reference, or a row of it so passed, an
element borrowed in any other way or by a reference handed on, an arm of an `if` value)
may hand the buffer on, and the local is not owned: where ownership is not clear, the
buffer leaks rather than dangles. Parameters are never owned (a reference to a tensor was erased to the tensor, so a
callee cannot tell a buffer lent to it from one it owns). A tensor variable assigned after
its `let` (a cell) is owned when its `let` and every assignment give it a fresh tensor,
or a local bound to a fresh tensor in the block of the assignment and read nowhere else
but before it there, where the buffer stays its own (`h.t = t;` after scalarize-aggregates,
`t = u;` after `u[0] = 1;` in an arm assign-chosen-tensors wrote: the buffer moves to the
cell, and the local owns nothing), unless an
assignment makes the new tensor from the old one (`t = f(t)`: the tensor replaced dies
inside the statement, where no drop can go). The owned locals of each function are left
on the compilation for insert-drops.
""", provides=("owned_buffers",))


@find_owned_buffers.on("Program")
def _program(run, node):
    keeping, fresh = keeping_calls(node), fresh_results(node)
    run.ctx.owned_buffers = {fn.name: _owned(fn, keeping, fresh)
                             for fn in node.items if fn._prod == "Fn"}


def _owned(fn, keeping: frozenset, fresh_results: frozenset) -> frozenset:
    """The locals bound once to a fresh tensor and used only where the buffer stays theirs."""
    lets, ranks = frozenset(fresh_lets(fn, fresh_results)), _ranks(fn)
    fresh = lets | fresh_cells(fn, fresh_results, _moved_into_cells(fn, lets, keeping, ranks))
    # Not into a cell, which may be given a new buffer while a reference to the old lives.
    refs = element_borrows(fn, lets)
    watched = fresh | set(refs)
    escaped: set = set()
    for blk in fn.blocks:
        for node in (*blk.stmts, blk.exit):
            _escapes(node, watched, refs, keeping, ranks, escaped)
            if node._prod == "Assign" and node.target._prod == "Local" and any(
                    n._prod == "Local" and n.name == node.target.name
                    for n in descendants(node.value)):  # `t = f(t)`
                escaped.add(node.target.name)
    return fresh - escaped - {refs[r] for r in escaped if r in refs}


def _moved_into_cells(fn, lets: frozenset, keeping: frozenset, ranks: dict) -> frozenset:
    """The fresh locals `lets` read last by an assignment to a cell later in the block of
    their `let` (`h.t = t;` after scalarize-aggregates, `t = u;` in an arm of an `if` that
    assign-chosen-tensors wrote; a loop around the assignment alone would give the cell one
    buffer twice), read before it only in that block and where the buffer stays theirs (an
    element read or written, `u[0] = 1;`): the buffer is the cell's from then on, and
    nothing else names it."""
    reads: dict = {}
    for blk in fn.blocks:
        for node in (*blk.stmts, blk.exit):
            for n in descendants(node):
                if n._prod == "Local" and n.name in lets:
                    reads.setdefault(n.name, []).append(n)
    moved = set()
    for blk in fn.blocks:
        bound, before = set(), {}  # the locals bound so far, and their reads so far
        for s in blk.stmts:
            if (s._prod == "Assign" and s.op == "=" and s.target._prod == "Local"
                    and s.value._prod == "Local" and s.value.name in bound
                    and s.value.name in lets
                    and len(reads[s.value.name]) == before.get(s.value.name, 0) + 1):
                moved.add(s.value.name)
            escaped: set = set()
            _escapes(s, lets, {}, keeping, ranks, escaped)
            for n in descendants(s):
                if n._prod == "Local" and n.name in bound:
                    before[n.name] = before.get(n.name, 0) + 1
            bound -= escaped
            if s._prod == "Let":
                bound.add(s.name)
    return frozenset(moved)


def _escapes(node, fresh: frozenset, refs: dict, keeping: frozenset, ranks: dict, out: set):
    """Add to `out` the fresh locals and element references (`refs`) `node` reads where
    their buffer may outlive the read; `ranks` are the tensor locals' (_ranks)."""
    stack = [node]
    while stack:
        n = stack.pop()
        kind = n._prod
        if kind == "Local":
            if n.name in fresh:
                out.add(n.name)
            continue
        kids = child_nodes(n)
        if kind == "Assign" and n.target._prod == "Local":  # a cell given a fresh tensor
            kids = _lent(n.value, ranks)  # or a row: a view of the tensor's buffer
        elif kind == "Let" and n.name in refs:  # the place borrowed the tensor lives for
            kids = _indices(borrowed_place(n))
        elif kind == "Let":  # a row a cell holds: a view of the tensor's buffer
            kids = [part for k in kids for part in _lent(k, ranks)]
        elif kind == "Deref" and n.value._prod == "Local" and n.value.name in refs:
            continue  # read or written through: the place is used, not handed on
        elif kind == "Borrow" and n.value._prod == "Deref":  # `&*r`: the place handed on
            kids = [n.value.value]
        elif kind == "Borrow" and n.value._prod == "Index":
            kids = _indices(n.value)  # the place of an element may outlive the statement
            place = n.value
            while place._prod == "Index":
                place = place.base
            kids.append(place)
        elif kind in ("Index", "Transfer", "Extent"):  # an element or extent read; a copy
            kids = [k for k in kids if not (k._prod == "Local" and k is _held(n))]
        elif kind in ("Call", "Launch") and keeps_nothing(n, keeping):
            kids = [k for k in kids if k._prod != "Local"]
        elif kind == "Call":  # a row lent may come back
            kids = [part for k in kids for part in _lent(k, ranks)]
        stack.extend(kids)


def _ranks(fn) -> dict:
    """The rank of each tensor local of `fn` a `let` binds or a parameter names: `t[i]` of
    one of a higher rank is a row, a view of t's buffer."""
    typed = [*fn.params, *(s for blk in fn.blocks for s in blk.stmts if s._prod == "Let")]
    return {v.name: len(t.dims) for v in typed if isinstance(t := vx_type(v.type), Tensor)}


def _lent(arg, ranks: dict) -> list:
    """What a value that may be kept reads: of a row `t[i]` (its `&` erased), a view of
    t's buffer, t itself, and the indices; any other, itself."""
    indices = _indices(arg)
    base = arg
    while base._prod == "Index":
        base = base.base
    if base._prod == "Local" and 0 < len(indices) < ranks.get(base.name, 0):
        return [base, *indices]
    return [arg]


def _indices(place) -> list:
    """The index expressions of an element's place `t[i][j]`."""
    out = []
    while place._prod == "Index":
        out.append(place.index)
        place = place.base
    return out


def _held(n):
    """The operand whose buffer an Index reads, an Extent measures or a Transfer copies."""
    return n.base if n._prod == "Index" else n.tensor if n._prod == "Extent" else n.value
