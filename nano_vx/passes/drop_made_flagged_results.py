"""drop-made-flagged-results: Ldrops -> Ldrops.

Same IL: a drop is nothing to the interpreter, so it runs the output as it ran the input."""

from __future__ import annotations

from ..backend.buffers import flags_lent, fresh_results, live_in, names_local, tensor_ranks
from ..languages.ldrops import Ldrops
from ..nanopass import Pass
from ..nanopass.verify import child_nodes
from ..scalars.block_scopes import successors

drop_made_flagged_results = Pass("drop-made-flagged-results", Ldrops, Ldrops, """
Drop the tensor a call of a function that says through a `&mut bool` flag whether it
returned its parameter's tensor made, where the flag says it made it and the local the call
is bound to is read no more.

flag-maybe-lent-tensors gives `fn maybe(x: T, k: f32, lent: &mut bool) -> T` its flag, and
the function giving back its result copies it (`let agg = maybe(x, 3.0, &mut lent#2);
branch lent#2, bb1, bb2;`, bb2 copying agg's elements into the caller's). insert-drops
drops no result of `maybe`, which may be the caller's `x`; but where the flag is false the
result is a buffer `maybe` made (every `return` of it not setting the flag gives a
constructor's, a literal's or a transfer's tensor, or a call's of a function returning only
those), which nobody else holds. So the local, read only by its elements and only on the
flag's false branch, is dropped at the start of each block of that branch it is dead in
whose only way in is from a block it is live out of, or, where such a block has other
ways in, in a block of its own on the way there.
""")

Drop = Ldrops["Drop"]


@drop_made_flagged_results.on("Program")
def _program(run, node):
    fns = {i.name: i for i in node.items if i._prod == "Fn"}
    fresh = fresh_results(node)
    flagging = frozenset(name for name, fn in fns.items() if flags_lent(fn, fresh))
    if not flagging:
        return node
    return node.replace(items=tuple(_fn(i, flagging) if i._prod == "Fn" else i
                                    for i in node.items))


def _fn(fn, flagging: frozenset):
    ranks = tensor_ranks(fn)
    drops: dict = {}  # a block's label -> the drops at its start
    edges: dict = {}  # (a block's label, a way out of it) -> the drops on that way
    for b in fn.blocks:
        for i, s in enumerate(b.stmts):
            if s._prod == "Let" and s.name in ranks:
                flag = _flag_of(s, flagging)
                if flag is not None and _made_alone(fn, b, i, flag, ranks[s.name]):
                    for edge, alone in _dead_ends(fn, b, s.name):
                        at = (drops, edge[1]) if alone else (edges, edge)
                        at[0].setdefault(at[1], []).append(Drop(s.name, span=s.span))
    if not drops and not edges:
        return fn
    blocks = [b.replace(stmts=(*drops[b.label], *b.stmts)) if b.label in drops else b
              for b in fn.blocks]
    return fn.replace(blocks=tuple(_split(blocks, edges)))


def _split(blocks: list, edges: dict) -> list:
    """The blocks, each way out in `edges` led through a block of its own making its drops:
    the way's target has other ways in, where the buffer is not this one."""
    next_label = max(int(b.label[2:]) for b in blocks) + 1
    made, out = {}, []
    for (source, target), dropped in edges.items():
        made[source, target] = f"bb{next_label}"
        next_label += 1
        span = dropped[0].span
        out.append(Ldrops["BasicBlock"](made[source, target], tuple(dropped), Ldrops["Goto"](
            target, span=span), span=span))
    split = []
    for b in blocks:
        retarget = {f: made[b.label, getattr(b.exit, f)] for f in ("target", "then", "orelse")
                    if f in b.exit._fields and (b.label, getattr(b.exit, f)) in made}
        split.append(b.replace(exit=b.exit.replace(**retarget)) if retarget else b)
    return split + out


def _flag_of(let, flagging: frozenset) -> str | None:
    """The local whose `&mut` a call of a flagging function the `let` binds is given."""
    v = let.value
    if v._prod != "Call" or v.callee._prod != "Global" or v.callee.name not in flagging \
            or not v.args:
        return None
    last = v.args[-1]
    if last._prod == "Borrow" and last.mutable and last.value._prod == "Local":
        return last.value.name
    return None


def _made_alone(fn, b, i: int, flag: str, rank: int) -> bool:
    """Whether the flag is a cell its `let` sets false in b before the call and that b's
    exit alone reads, and the local bound (b.stmts[i]) is bound once, not dropped, read only
    by its elements after b, and b ends branching on the flag."""
    name = b.stmts[i].name
    if b.exit._prod != "Branch" or b.exit.cond._prod != "Local" \
            or b.exit.cond.name != flag or name in fn.cells:
        return False
    before = b.stmts[:i]
    if not any(s._prod == "Let" and s.name == flag and s.value._prod == "Bool"
               and s.value.value is False for s in before):
        return False
    flag_uses = sum(1 for blk in fn.blocks for s in (*blk.stmts, blk.exit)  # the call, the branch
                    if names_local(s, flag))
    if flag_uses != 2 or any(names_local(s, name) for s in b.stmts[i + 1:]):
        return False
    for blk in fn.blocks:
        for s in (*blk.stmts, blk.exit):
            if s is b.stmts[i]:
                continue
            if s._prod in ("Let", "Drop") and s.name == name:
                return False
            if names_local(s, name) and not _elements(s, name, rank):
                return False
    return True


def _elements(node, name: str, rank: int) -> bool:
    """Whether node names the local only to read or write an element of it."""
    if node._prod == "Local":
        return node.name != name
    if node._prod == "Index":
        base, index = node, []
        while base._prod == "Index":
            index.append(base.index)
            base = base.base
        if base._prod == "Local" and base.name == name:
            return len(index) == rank and all(_elements(k, name, rank) for k in index)
    return all(_elements(k, name, rank) for k in child_nodes(node))


def _dead_ends(fn, b, name: str) -> list:
    """The ways (source, target) of the flag's false branch out of b, or out of a block
    the local is live into, into a block it is dead in, each with whether it is the
    target's only way in (the drop goes at the target's start, else on the way itself);
    none if the true branch reads it."""
    live = live_in(fn, {name: {name}})
    then, orelse = b.exit.then, b.exit.orelse
    if name in live[then] or then == orelse:
        return []
    ways_in: dict = {blk.label: [] for blk in fn.blocks}
    for blk in fn.blocks:
        for t in successors(blk):
            ways_in.setdefault(t, []).append(blk.label)
    edges = [(b.label, orelse)] + [(blk.label, t) for blk in fn.blocks
                                   if name in live[blk.label] for t in successors(blk)]
    return [((source, target), ways_in[target] == [source]) for source, target in edges
            if name not in live[target]]
