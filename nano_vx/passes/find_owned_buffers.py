"""find-owned-buffers: Lcells, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..backend.buffers import (borrowers, defines, fresh_cells, fresh_lets, fresh_results,
                               hands_on, indices, keeps_nothing, kept_ranks, lent, live_in,
                               place_of, reads, tensor_ranks)
from ..languages.lcells import Lcells
from ..nanopass import Analysis
from ..nanopass.verify import child_nodes, descendants
from ..scalars.block_scopes import successors

find_owned_buffers = Analysis("find-owned-buffers", Lcells, """
Find the tensor locals whose buffer each function owns: made for it, and kept by nothing else.

A function owns the buffer of a local bound once (not a cell) to a tensor constructor, a
tensor literal, a transfer (which copies into a fresh buffer) or a call of a function that
returns only buffers it made (backend/buffers.py), as long as the local is only indexed,
asked its extents, printed (a part of an aggregate's literal too), transferred (copied) or passed to a function whose result is no tensor and no
reference, or a tensor the call made: none of those can keep the buffer past the call, or
an element of it borrowed by a `let` (`let r = &t[i];`) whose reference is used only in
those ways or read and written through (`*r`): the buffer then lives as long as the
reference is read (insert-drops counts its reads as the tensor's), or bound or assigned
whole, or a row of it, to another local (a reference to a tensor is the tensor by now:
`let r = &mut t;`, `let r = &mut t[i];`, a reference an `if` chooses, `r = &mut u;`, a
move) used in those ways, whose reads count alike, or lent (whole, a row, an element,
through such a local) to a function that may return it or a place in it: what the call
returns is read or written through, an element of it read, its extents asked, copied or
passed where the local could be, in the statement (`*first(&t)`, `view(&t)[i]`), or lent
to another such call, or bound or assigned, or a row of it, to a local used so (`let r =
first(&t);`), which holds the buffer as a move does, as long as none may be read on a way
that skips the local's `let` or be live where that `let`, or an assignment of a cell,
makes a new buffer (Vx lets a variable of an outer block point at a tensor of a loop's turn
and read it on the next; a row of a cell read after the cell is given a new tensor).
Any other use (returned, but a cell read only by a `return` of it, which insert-drops
does not drop there: each buffer it is given dies when it is given the next, and the last
is the caller's; a row of it returned, what such a call returns handed on
otherwise, an element borrowed in any other way or by a reference handed on, an arm of an
`if` value) may hand the buffer on, and the local is not owned: where ownership is not
clear, the buffer leaks rather than dangles. Parameters are never owned (a reference to a tensor was erased to the tensor, so a
callee cannot tell a buffer lent to it from one it owns). A tensor variable assigned after
its `let` (a cell) is owned when its `let` and every assignment give it a fresh tensor,
or a local bound to a fresh tensor in the block of the assignment and read nowhere else
but before it there, where the buffer stays its own (`h.t = t;` after scalarize-aggregates,
`t = u;` after `u[0] = 1;` in an arm assign-chosen-tensors wrote: the buffer moves to the
cell, and the local owns nothing; a local taking another cell's buffer so too, `let agg =
out; ret = agg;`, the cell it takes it from owning the others), unless an
assignment makes the new tensor from the old one (`t = f(t)`: the tensor replaced dies
inside the statement, where no drop can go). A local bound once to such a cell's buffer,
whole or a row (`let u = m;`, `let r = m[1];`), where the cell is read no more before it is
given a new one, takes that buffer and owns it (the cell owns the others), when nothing
else of the cell may hold its buffer. The owned locals of each function are left on the
compilation for insert-drops.
""", provides=("owned_buffers",))


@find_owned_buffers.on("Program")
def _program(run, node):
    kept, fresh = kept_ranks(node), fresh_results(node)
    run.ctx.owned_buffers = {fn.name: _owned(fn, kept, fresh)
                             for fn in node.items if fn._prod == "Fn"}


def _owned(fn, kept: dict, fresh_results: frozenset) -> frozenset:
    """The locals bound once to a fresh tensor and used only where the buffer stays theirs."""
    lets, ranks = frozenset(fresh_lets(fn, fresh_results)), tensor_ranks(fn)
    moved = _moved_into_cells(fn, lets, kept, ranks)
    cells = fresh_cells(fn, fresh_results, moved)
    taken = _taken_from_cells(fn, frozenset(cells), kept, ranks)
    # a local taking a cell's buffer and moving it on into another cell (`let agg = out;
    # ret = agg;`, scalarize-aggregates storing a variable into a function's result): the
    # buffer is that cell's from then on, and the local owns nothing
    passed = _moved_into_cells(fn, frozenset(taken), kept, ranks)
    cells = fresh_cells(fn, fresh_results, moved | passed) if passed else cells
    lets |= frozenset(taken)
    fresh = lets | cells
    refs = borrowers(fn, fresh, fresh, kept)
    watched = fresh | set(refs)
    escaped: set = set()
    returned = _returned_cells(fn, cells)
    for blk in fn.blocks:
        for node in (*blk.stmts, blk.exit):
            if node._prod == "Return" and node.value is not None and \
                    node.value._prod == "Local" and node.value.name in returned:
                continue  # its last buffer handed to the caller: insert-drops keeps it
            if _passed_on(node, passed, cells):
                continue  # the buffer moves to the cell, which insert-drops drops
            # a `let` taking a cell's buffer moves it: the cell holds it no more
            for part in (indices(node.value) if node._prod == "Let" and node.name in taken
                         else (node,)):
                _escapes(part, watched, refs, kept, ranks, escaped)
            if node._prod == "Assign" and node.target._prod == "Local" and any(
                    n._prod == "Local" and n.name == node.target.name
                    for n in descendants(node.value)):  # `t = f(t)`
                escaped.add(node.target.name)
    owned = fresh - escaped - {o for r in escaped if r in refs for o in refs[r]} - passed
    owned -= _outlived(fn, owned, refs)
    # a cell whose buffer a local not owned takes may not drop it either, unless that local
    # passes it on to a cell owned
    owned -= {cell for name, cell in taken.items() if name not in owned and not (
        name in passed and all(c in owned for c in _given_to(fn, name)))}
    return owned


def _passed_on(node, passed: frozenset, cells) -> bool:
    """Whether node is the assignment of a local of `passed` to a cell of `cells`."""
    return node._prod == "Assign" and node.op == "=" and node.target._prod == "Local" \
        and node.target.name in cells and node.value._prod == "Local" \
        and node.value.name in passed


def _given_to(fn, name: str) -> set:
    """The cells the local `name` is assigned to."""
    return {s.target.name for b in fn.blocks for s in b.stmts
            if s._prod == "Assign" and s.target._prod == "Local" and s.value._prod == "Local"
            and s.value.name == name}


def _returned_cells(fn, cells: set) -> set:
    """The cells of `cells` read nowhere but by a `return` of them whole (a function's
    result local, which scalarize-aggregates starts from a tensor every way out replaces):
    owned, each buffer dies when the next is given, and the one returned is the caller's."""
    reading = {c: {c} for c in cells}
    found = set(cells)
    for blk in fn.blocks:
        exit = blk.exit
        whole = exit._prod == "Return" and exit.value is not None and \
            exit.value._prod == "Local"
        for node in (*blk.stmts, *(() if whole else (exit,))):
            found -= reads(node, reading)
    return found


def _outlived(fn, owned: frozenset, refs: dict) -> set:
    """The locals of `owned` a local holding their buffer (`refs`) may outlive: read where
    the function may not have made the buffer yet (on a way that skips its `let`), or live
    where a `let` or an assignment makes the owner a new one, holding the old (a cell set to
    a tensor of the turn and read on the next, as a raw pointer may be; a row of a cell read
    after the cell is given a new tensor; check-dangling-references refuses that of a
    reference, E4005). Dropping the owner where it and what holds its buffer are read no more
    would free a buffer still read."""
    holders = {r: {o for o in ows if o in owned} for r, ows in refs.items()}
    reading = {**{o: {o} for o in owned},
               **{r: {r} | ows for r, ows in holders.items() if ows}}
    live = live_in(fn, reading)
    out = set(owned & live[fn.blocks[0].label])
    for b in fn.blocks:
        now = set().union(*(live.get(t, set()) for t in successors(b)), reads(b.exit, reading))
        for s in reversed(b.stmts):
            out.update(o for o in defines(s) & owned
                       if any(o in holders.get(r, ()) for r in now))
            now = (now - defines(s)) | reads(s, reading)
    return out


def _taken_from_cells(fn, cells: frozenset, kept: dict, ranks: dict) -> dict:
    """The locals bound once, outside a cell, to the buffer of one of the fresh cells
    `cells`, whole or a row (`let u = m;`, `let r = m[1];`), where the cell is read no more
    before it is given a new one (nor ever, on any way on): the buffer is theirs from then
    on, and they own it as a local bound to a fresh tensor does (a row's memref keeps the
    buffer's address), and the cell owns the others. Only of a cell read nowhere else but
    where its buffer stays its own, so that nothing else holds the buffer taken. Each
    with its cell."""
    reading = {c: {c} for c in cells}
    live, bound = live_in(fn, reading), {}
    for b in fn.blocks:
        for s in b.stmts:
            if s._prod == "Let":
                bound[s.name] = bound.get(s.name, 0) + 1
    taking: dict = {}  # the cell -> the `let`s taking its buffer
    for b in fn.blocks:
        now = set().union(*(live.get(t, set()) for t in successors(b)), reads(b.exit, reading))
        for s in reversed(b.stmts):
            cell = _cell_taken(s, ranks)
            if cell in cells and cell not in now and bound[s.name] == 1 \
                    and s.name not in fn.cells:
                taking.setdefault(cell, []).append(s)
            now = (now - defines(s)) | reads(s, reading)
    taken = {}
    for cell, by in taking.items():
        escaped: set = set()
        for b in fn.blocks:
            for node in (*b.stmts, b.exit):
                if not any(node is s for s in by):
                    _escapes(node, frozenset({cell}), {}, kept, ranks, escaped)
        if not escaped:
            taken.update((s.name, cell) for s in by)
    return taken


def _cell_taken(s, ranks: dict) -> str | None:
    """The local a `let` binds whole or a row of (`let u = m;`, `let r = m[i];`), if one."""
    if s._prod != "Let":
        return None
    base, depth = s.value, 0
    while base._prod == "Index":
        base, depth = base.base, depth + 1
    return base.name if base._prod == "Local" and depth < ranks.get(base.name, 0) else None


def _moved_into_cells(fn, lets: frozenset, kept: dict, ranks: dict) -> frozenset:
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
            _escapes(s, lets, {}, kept, ranks, escaped)
            for n in descendants(s):
                if n._prod == "Local" and n.name in bound:
                    before[n.name] = before.get(n.name, 0) + 1
            bound -= escaped
            if s._prod == "Let":
                bound.add(s.name)
    return frozenset(moved)


def _escapes(node, fresh: frozenset, refs: dict, kept: dict, ranks: dict, out: set):
    """Add to `out` the fresh locals and the locals holding one's buffer or a place in it
    (`refs`) `node` reads where their buffer may outlive the read; `kept` are the calls that
    may hand on an argument's (kept_ranks), `ranks` the tensor locals' (tensor_ranks)."""
    stack = [node]
    while stack:
        n = stack.pop()
        kind = n._prod
        if kind == "Local":
            if n.name in fresh:
                out.add(n.name)
            continue
        kids = child_nodes(n)
        holder = _given(n) if kind in ("Let", "Assign") else None
        names, rest = lent(n.value, kept, ranks) if holder in refs else ((), ())
        if holder in refs and all(m in refs or m in refs[holder] for m in names if m in fresh):
            # the buffer held by one more local, whose reads are watched: a local, a row, an
            # element borrowed, what a call lent the tensor returns (`let r = first(&t);`)
            kids = rest
        elif kind == "Assign" and n.target._prod == "Local":  # a cell given a fresh tensor
            kids = _handed(n.value, kept, ranks, fresh, out)  # or a view of a buffer
        elif kind in ("Let", "Return") or kind == "Call" and not keeps_nothing(n, kept):
            # what may be kept: a row lent may come back, one returned goes
            kids = [r for k in kids for r in _handed(k, kept, ranks, fresh, out)]
        elif kind == "Deref":  # read or written through: the place is used, not handed on
            kids = lent(n.value, kept, ranks)[1]
        elif kind == "ExprStmt":  # the value, a place a call lent the tensor returns, unread
            kids = lent(n.expr, kept, ranks)[1]
        elif kind == "Borrow" and n.value._prod == "Deref":  # `&*r`: the place handed on
            kids = [n.value.value]
        elif kind == "Borrow" and n.value._prod == "Index":
            # the place of an element may outlive the statement
            kids = [*indices(n.value), place_of(n.value)]
        elif kind == "Index" and hands_on(call := place_of(n), kept) \
                and len(indices(n)) == kept[call.callee.name]:
            # an element read of what a call lent the tensor returns
            kids = indices(n) + lent(call, kept, ranks)[1]
        elif kind in ("Index", "Transfer", "Extent"):  # an element or extent read; a copy
            held = _held(n)
            kids = [k for k in kids if k is not held] + (
                [held] if kind == "Index" and held._prod != "Local"
                else lent(held, kept, ranks)[1])
        elif kind in ("Call", "Launch") and keeps_nothing(n, kept):
            # what an argument lends (a place a call lent the tensor returns) dies with it,
            # and so does each part of the literal a `print` of an aggregate is given
            kids = [r for k in kids for part in _record_parts(k)
                    for r in lent(part, kept, ranks)[1]]
        stack.extend(kids)


def _record_parts(e) -> list:
    """The parts of e, a literal of an aggregate a `print` is given (expand-aggregate-prints
    wrote it: a `Select` on the variant of each enum it holds), which it reads and keeps
    none of; e itself when it is none."""
    if e._prod == "Select":
        return [e.cond, *_record_parts(e.then), *_record_parts(e.orelse)]
    if e._prod in ("EnumValue", "Tuple", "StructLit"):
        parts = e.args if e._prod == "EnumValue" else e.elems if e._prod == "Tuple" else \
            [f.value for f in e.fields]
        return [x for part in parts for x in _record_parts(part)]
    return [e]


def _handed(e, kept: dict, ranks: dict, fresh: frozenset, out: set) -> list:
    """Add to `out` the fresh locals whose buffer the value of `e`, which may be kept, may
    be (lent), and give what else it computes."""
    names, rest = lent(e, kept, ranks)
    out.update(m for m in names if m in fresh)
    return rest


def _given(n) -> str | None:
    """The local a `let` binds or an assignment gives a new value, if a local."""
    return n.name if n._prod == "Let" else \
        n.target.name if n.target._prod == "Local" and n.op == "=" else None


def _held(n):
    """The operand whose buffer an Index reads, an Extent measures or a Transfer copies."""
    return n.base if n._prod == "Index" else n.tensor if n._prod == "Extent" else n.value
