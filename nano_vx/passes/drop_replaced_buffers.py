"""drop-replaced-buffers: Ldrops -> Ldrops.

Same IL: a drop is nothing to the interpreter, so it runs the output as it ran the input."""

from __future__ import annotations

from ..backend.buffers import fresh_results, makes_fresh, only_elements
from ..backend.machine_types import Tensor, vx_type
from ..languages.ldrops import Ldrops
from ..nanopass import Pass
from ..nanopass.verify import child_nodes
from ..scalars.block_scopes import successors

drop_replaced_buffers = Pass("drop-replaced-buffers", Ldrops, Ldrops, """
Drop the buffer a tensor variable that insert-drops does not drop holds, just before an
assignment gives it another, where on every way there that buffer is one the function made
for it and that only its elements (and extents) were read or written of since.

find-owned-buffers owns a variable, and insert-drops drops its buffers, only when every
buffer it holds is the function's own; one given anything else keeps them all. So
scalarize-aggregates' start `let mut b_1 = Tensor<..>::new();` that each arm of an `if`
replaces, one arm giving it a tensor another local holds (`b_1 = t;`, a variant's payload
of a `let` of an enum an `if` chooses), a function's result started so and given at each of
several `return`s, or a field a function assigns whole twice, its first tensor replaced by
the second (`t#1 = Tensor<..>::new(); t#1[i] = 2.0; t#1 = ..;` after
return-assigned-tensor-fields, whose variable starts at the parameter's buffer) kept one
buffer per run. Such a buffer is nobody else's: made by the `let` or the assignment
(a constructor, a transfer, a call of a function returning only what it made) and used
since only through its elements, never lent, moved, borrowed or passed; the value assigned
names the variable nowhere (`t = f(t)` hands the old buffer to the call). A variable
insert-drops drops somewhere is its: this pass leaves it.
""")

Drop = Ldrops["Drop"]


@drop_replaced_buffers.on("Program")
def _program(run, node):
    fresh = fresh_results(node)
    return node.replace(items=tuple(_fn(i, fresh) if i._prod == "Fn" else i
                                    for i in node.items))


def _fn(fn, fresh: frozenset):
    owned = {s.name for b in fn.blocks for s in b.stmts if s._prod == "Drop"}
    ranks = {s.name: len(t.dims) for b in fn.blocks for s in b.stmts
             if s._prod == "Let" and s.name in fn.cells and s.name not in owned
             and isinstance(t := vx_type(s.type), Tensor)}
    replaced = set()
    for name, rank in ranks.items():
        replaced |= _Replaced(fn, name, rank, fresh).assignments()
    if not replaced:
        return fn
    blocks = []
    for b in fn.blocks:
        stmts = []
        for s in b.stmts:
            if id(s) in replaced:
                stmts.append(Drop(s.target.name, span=s.span))
            stmts.append(s)
        blocks.append(b.replace(stmts=tuple(stmts)))
    return fn.replace(blocks=tuple(blocks))


class _Replaced:
    """Where one variable (`name`, of a tensor of rank `rank`) holds, on every way there, a
    buffer of its own only its elements were used of: a forward analysis, its greatest
    fixpoint (at the entry it holds none)."""

    def __init__(self, fn, name: str, rank: int, fresh: frozenset):
        self.fn, self.name, self.rank, self.fresh = fn, name, rank, fresh

    def assignments(self) -> set:
        """The ids of the assignments of the variable that replace such a buffer."""
        fn = self.fn
        ways_in: dict = {b.label: [] for b in fn.blocks}
        for b in fn.blocks:
            for t in successors(b):
                ways_in.setdefault(t, []).append(b.label)
        out = {b.label: True for b in fn.blocks}
        entry = fn.blocks[0].label
        changed = True
        while changed:
            changed = False
            for b in fn.blocks:
                now = self._through(b, self._start(b, entry, ways_in, out), None)
                if now != out[b.label]:
                    out[b.label], changed = now, True
        found: set = set()
        for b in fn.blocks:
            self._through(b, self._start(b, entry, ways_in, out), found)
        return found

    @staticmethod
    def _start(b, entry: str, ways_in: dict, out: dict) -> bool:
        return b.label != entry and all(out[p] for p in ways_in[b.label])

    def _through(self, b, now: bool, found: set | None) -> bool:
        """The state after block b, from `now` at its start; the assignments that replace
        such a buffer added to `found`."""
        for s in b.stmts:
            if s._prod == "Let" and s.name == self.name:
                now = makes_fresh(s.value, self.fresh)
            elif s._prod == "Assign" and s.op == "=" and s.target._prod == "Local" \
                    and s.target.name == self.name:
                alone = not self._named(s.value)
                if now and alone and found is not None:
                    found.add(id(s))
                now = alone and makes_fresh(s.value, self.fresh)
            elif self._named(s) and not self._elements(s):
                now = False
        return now and (not self._named(b.exit) or self._elements(b.exit))

    def _named(self, node) -> bool:
        stack = [node]
        while stack:
            n = stack.pop()
            if n._prod == "Local" and n.name == self.name:
                return True
            stack.extend(child_nodes(n))
        return False

    def _elements(self, node) -> bool:
        return only_elements(node, self.name, self.rank)
