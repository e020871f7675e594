"""insert-drops: Lcells -> Ldrops."""

from __future__ import annotations

from ..backend.buffers import borrowers, defines, kept_ranks, live_in, place_of, reads
from ..backend.machine_types import vx_type
from ..languages.lcells import Lcells
from ..languages.ldrops import Ldrops
from ..nanopass import Pass
from ..nanopass.verify import descendants
from ..scalars.block_scopes import successors

insert_drops = Pass("insert-drops", Lcells, Ldrops, """
Drop each tensor a function owns where it is dead: a loop that makes one per turn frees it.

A function owns the buffer of a local that find-owned-buffers found made for it and kept by
nothing else; a buffer that may be handed on is never dropped, nor is a parameter's.

An owned local dies where the liveness of the function's blocks says it is read no more,
a read of a local holding its buffer (a reference to it, to a row or to an element, a move,
what a call it was lent to returns) counting as its own:
after the statement that reads it last in its block (a local made and never read, at once);
on an edge out of a branch toward a block that does not read it, at the start of that block
when the edge is its only way in, else in a block of its own put on the edge; before a
`return`, after the returned value is computed into a new local when it reads the local,
but for the cell it returns whole (owned for the buffers it held before, the last one the
caller's). So
an early `return`, a `break` and a `continue` drop what they leave behind. A block that
stops ends the program, which gives everything back.
An owned local bound to an owned cell's buffer, whole or a row, takes it: the cell is not
dropped there, and the local drops it after its last read.
A tensor made for a call and bound to no local has a local of its own by now
(name-made-tensors), so it is owned and dropped as any other.
""", requires=("owned_buffers",))

Drop = Ldrops["Drop"]


@insert_drops.on("Program")
def _program(run, node):
    kept = kept_ranks(node)
    return node.replace(items=tuple(_fn(run, i, kept) if i._prod == "Fn" else i
                                    for i in node.items))


def _fn(run, node, kept: dict):
    owned = run.ctx.owned_buffers.get(node.name, frozenset())
    if not owned:
        return node
    return node.replace(blocks=_Liveness(node, owned, kept, _FreshNames(node)).place_drops())


# -- where each owned local dies ---------------------------------------------------------

class _Liveness:
    """The owned locals live into each block of one function, and the blocks with drops."""

    def __init__(self, fn, owned: frozenset, kept: dict, names):
        self.fn, self.owned, self.fresh_name = fn, owned, names
        self.labels = {b.label for b in fn.blocks}
        # find-owned-buffers owns a tensor whose buffer another local holds (a reference to
        # it, a row or an element, a move, what a call lent it returns) only when that local
        # is not handed on, and lives no longer than the owner: its reads are the last uses
        # of the buffer.
        self.holders = borrowers(fn, owned, owned, kept)
        reading = {**self.holders, **{name: {name} for name in owned}}
        self.reads = {b.label: [reads(s, reading) for s in b.stmts] for b in fn.blocks}
        self.exit_reads = {b.label: reads(b.exit, reading) for b in fn.blocks}
        self.live_in = live_in(fn, reading)

    def held(self, b) -> set:
        """What is live at the end of block b's statements: read by its exit or after it."""
        live = set(self.exit_reads[b.label])
        for t in successors(b):
            live |= self.live_in.get(t, set())
        return live

    def place_drops(self) -> tuple:
        ways_in: dict = {}
        for b in self.fn.blocks:
            for t in successors(b):
                ways_in[t] = ways_in.get(t, 0) + 1
        entry = self.fn.blocks[0].label
        heads: dict = {}  # label -> drops at its start
        blocks, split = [], []
        next_label = max(int(label[2:]) for label in self.labels) + 1
        for b in self.fn.blocks:
            stmts = self._within(b)
            exit_node = b.exit
            held = self.held(b)
            if exit_node._prod == "Return" and held:
                stmts, exit_node = self._before_return(b, stmts, held)
            retarget = {}
            for field in ("target", "then", "orelse"):
                if field not in exit_node._fields:
                    continue
                to = getattr(exit_node, field)
                dying = held - self.live_in.get(to, set())
                if not dying or to not in self.labels:
                    continue
                drops = _drops(dying, exit_node.span)
                if ways_in[to] == 1 and to != entry:
                    heads[to] = drops
                    continue
                label, next_label = f"bb{next_label}", next_label + 1
                split.append(Ldrops["BasicBlock"](label, drops, Ldrops["Goto"](
                    to, span=exit_node.span), span=b.span))
                retarget[field] = label
            blocks.append(b.replace(stmts=stmts, exit=exit_node.replace(**retarget)
                                    if retarget else exit_node))
        blocks = [b.replace(stmts=heads[b.label] + b.stmts) if b.label in heads else b
                  for b in blocks]
        return tuple(blocks + split)

    def _within(self, b) -> tuple:
        """Block b's statements, each followed by the drops of what it read (or made) last."""
        live, out = self.held(b), []
        for s, read in zip(reversed(b.stmts), reversed(self.reads[b.label])):
            dying = (read | defines(s) & self.owned) - live - self._taken(s)
            out.extend(reversed(_drops(dying, s.span)))
            out.append(s)
            live = (live - defines(s)) | read
        return tuple(reversed(out))

    def _taken(self, s) -> set:
        """The owned local whose buffer a `let` of an owned local takes, whole or a row
        (`let u = m;`, `let r = m[1];` of a cell m read no more before it is given a new
        one), or an owned cell is given from a local holding it (`let agg = out; ret =
        agg;`, find-owned-buffers owning the cell `ret` for it): the buffer moves, and the
        local it moves from does not drop it."""
        if s._prod == "Assign" and s.target._prod == "Local" and s.target.name in self.owned \
                and s.value._prod == "Local" and s.value.name not in self.owned:
            return self.holders.get(s.value.name, set()) & self.owned
        if s._prod != "Let" or s.name not in self.owned:
            return set()
        base = place_of(s.value)
        return {base.name} if base._prod == "Local" and base.name in self.owned else set()

    def _before_return(self, b, stmts: tuple, held: set):
        """Drop what a `return` reads (`held`, the locals its value reads), after computing
        the value into a new local; but for the cell it returns whole, whose buffer is the
        caller's (find-owned-buffers owns it for the buffers it held before)."""
        ret, span = b.exit, b.exit.span
        if ret.value is not None and ret.value._prod == "Local":
            held = held - {ret.value.name}
            if not held:
                return stmts, ret
        if vx_type(self.fn.ret) == "void":
            computed = Ldrops["ExprStmt"](ret.value, span=span)
            return stmts + (computed,) + _drops(held, span), ret.replace(value=None)
        name = self.fresh_name("result")
        computed = Ldrops["Let"](name, False, self.fn.ret, ret.value, span=span)
        return (stmts + (computed,) + _drops(held, span),
                ret.replace(value=Ldrops["Local"](name, span=span)))


class _FreshNames:
    """New local names, none of the function's."""

    def __init__(self, fn):
        self.fn, self.names = fn, None  # every name of the function, once one is needed

    def __call__(self, base: str) -> str:
        if self.names is None:
            self.names = {n.name for n in descendants(self.fn)
                          if n._prod in ("Local", "Let", "Param")}
        k = 0
        while f"{base}#{k}" in self.names:
            k += 1
        self.names.add(f"{base}#{k}")
        return f"{base}#{k}"


def _drops(names, span) -> tuple:
    return tuple(Drop(name, span=span) for name in sorted(names))
