"""drop-last-buffers: Ldrops -> Ldrops.

Same IL: a drop is nothing to the interpreter, so it runs the output as it ran the input."""

from __future__ import annotations

from itertools import combinations

from ..backend.buffers import (called, defines, fresh_results, handed_parameters,
                               keeping_calls, kept_in_place, live_in, makes_fresh, reads,
                               tensor_ranks)
from ..backend.last_drops import dropped_before_return
from ..languages.ldrops import Ldrops
from ..nanopass import Pass
from ..scalars.aggregates import Names
from ..scalars.block_scopes import successors

drop_last_buffers = Pass("drop-last-buffers", Ldrops, Ldrops, """
Drop the buffers a function's tensor locals hand among themselves: those still held before
each `return`, one drop per buffer, and those a call may have returned apart from its result.

`p = swap(p);` of `fn swap(p: Pair) -> Pair { Pair { a: p.b, b: p.a } }` is, once
scalarize-aggregates and hand-on-lent-tensors are done, `let handed = p_a; p_a = swap(p_a,
p_b); p_b = handed;`: swap returns its second parameter, so each variable may hold a
buffer another held, and insert-drops owns neither; their last buffers were never given
back. Here, in a function none of whose tensor locals is given anything but a fresh tensor
(a constructor, a literal, a transfer, a call of a function returning only what it made),
another of them, or a call of a function returning a parameter they give it whole or a
tensor it made (handed_parameters), and which name them otherwise only by their elements,
their extents or as arguments of calls that cannot hand them on, a forward analysis follows which of them surely hold a buffer not given back and
which pairs surely hold different buffers (a drop gives back the dropped local's and those
of any other that may hold the same). Before each `return`, each local that surely holds
such a buffer is dropped, in the order of their `let`s, when it surely holds another than
those dropped before it. And after a call given to a local `to` that may return a local a
(`t = pick(w, v, k)`, each turn of a loop), where a surely holds such a buffer and neither it
nor any other local that may hold the same (but `to`) is read after the call or dropped
anywhere, `drop a apart from to;` (Ldrops' `DropApart`) gives a's buffer back where its
address differs from the result's: the buffer the call did not return is then nobody's.
The analysis runs again over those drops before the `return`s' are placed.
""")

DropApart = Ldrops["DropApart"]


@drop_last_buffers.on("Program")
def _program(run, node):
    fns = {i.name: i for i in node.items if i._prod == "Fn"}
    fresh, keeping = fresh_results(node), keeping_calls(node)
    handing = {name: found for name, fn in fns.items()
               if (found := handed_parameters(fn, fresh)) is not None}
    return node.replace(items=tuple(_fn(i, handing, fresh, keeping) if i._prod == "Fn" else i
                                    for i in node.items))


def _fn(fn, handing: dict, fresh: frozenset, keeping: frozenset):
    params = {p.name for p in fn.params}
    ranks = {name: rank for name, rank in tensor_ranks(fn).items() if name not in params}
    order = [s.name for b in fn.blocks for s in b.stmts if s._prod == "Let" and s.name in ranks]
    members = list(dict.fromkeys(order))
    if not members or not _kept_among(fn, ranks, handing, fresh, keeping):
        return fn
    fn = _unpicked_dropped(fn, members, handing)
    flow, names = _Flow(fn, members, handing), Names(fn)
    ends = flow.run()
    blocks = []
    for b in fn.blocks:
        if b.exit._prod == "Return" and ends.get(b.label) is not None:
            held, apart = ends[b.label]
            chosen: list = []
            for name in members:
                if name in held and all(frozenset((name, c)) in apart for c in chosen):
                    chosen.append(name)
            if chosen:
                b = dropped_before_return(fn, b, chosen, names)
        blocks.append(b)
    return fn.replace(blocks=tuple(blocks))


def _unpicked_dropped(fn, members: list, handing: dict):
    """fn with `drop a apart from to;` after each `to = f(.., a, ..)` of an f that may return
    a, where a surely holds a buffer not given back and is read no more, nor is any other
    local that may hold the same (but `to`), none of them dropped anywhere: a's buffer is
    then the call's result's or nobody's, which the pointers tell as the program runs."""
    flow = _Flow(fn, members, handing)
    out, ways_in = flow.run(), flow.ways_in()
    entry = fn.blocks[0].label
    watched = {m: {m} for m in members}
    live = live_in(fn, watched)
    dropped = {s.name for b in fn.blocks for s in b.stmts if s._prod == "Drop"}
    blocks = []
    for b in fn.blocks:
        state = flow.start(b.label, entry, ways_in, out)
        if state is None:
            blocks.append(b)
            continue
        after = set(reads(b.exit, watched))
        for t in successors(b):
            after |= live.get(t, set())
        live_after = []
        for s in reversed(b.stmts):
            live_after.append(frozenset(after))
            after = (after - defines(s)) | reads(s, watched)
        live_after.reverse()
        held, apart = state
        stmts: list = []
        for s, alive in zip(b.stmts, live_after):
            stmts.append(s)
            found = flow.unpicked(s, held, apart, alive | dropped)
            held, apart = flow.step(s, held, apart)
            for a, to in found:
                stmts.append(DropApart(a, to, span=s.span))
                held, apart = flow.step(stmts[-1], held, apart)
        blocks.append(b.replace(stmts=tuple(stmts)))
    return fn.replace(blocks=tuple(blocks))


def _kept_among(fn, ranks: dict, handing: dict, fresh: frozenset, keeping: frozenset) -> bool:
    """Whether the tensor locals (`ranks`) are given only what the analysis follows and named
    otherwise only in place (a `return` too)."""
    tensors = set(tensor_ranks(fn)) - set(ranks)
    for b in fn.blocks:
        for s in (*b.stmts, b.exit):
            if s._prod == "DropApart" and (s.name in ranks or s.kept in ranks):
                return False
            if s._prod == "Drop":
                continue
            to = s.name if s._prod == "Let" else s.target.name if (
                s._prod == "Assign" and s.target._prod == "Local") else None
            if s._prod == "Assign" and to in tensors:
                return False  # a tensor parameter given another: the caller's
            if to in ranks:
                if s._prod == "Assign" and s.op != "=" or _given(s.value, ranks, handing,
                                                                  fresh, keeping) is None:
                    return False
                continue
            if not all(kept_in_place(s, name, rank, keeping) for name, rank in ranks.items()):
                return False
    return True


def _given(value, ranks: dict, handing: dict, fresh: frozenset, keeping: frozenset):
    """What a tensor local is given: ("fresh",), ("local", name) or ("call", the locals
    the call may return); None for anything else."""
    if value._prod == "Local":
        return ("local", value.name) if value.name in ranks else None
    callee = called(value) if value._prod == "Call" else None
    if callee in handing:
        args = value.args
        returned = [args[k] for k in handing[callee] if k < len(args)]
        if len(returned) != len(handing[callee]) or any(
                a._prod != "Local" or a.name not in ranks for a in returned):
            return None
        if not all(a._prod == "Local" or all(kept_in_place(a, n, r, keeping)
                                             for n, r in ranks.items()) for a in args):
            return None
        return ("call", tuple(a.name for a in returned))
    if makes_fresh(value, fresh) and all(kept_in_place(value, n, r, keeping)
                                         for n, r in ranks.items()):
        return ("fresh",)
    return None


class _Flow:
    """Per block, at its end: the locals that surely hold a buffer not given back, and the
    pairs of locals surely holding different buffers (a local holding none is apart from
    every other); the greatest fixpoint, meeting by intersection."""

    def __init__(self, fn, members: list, handing: dict):
        self.fn, self.members, self.handing = fn, members, handing
        self.ranks = set(members)
        self.every = frozenset(frozenset(p) for p in combinations(members, 2))

    def ways_in(self) -> dict:
        ways: dict = {b.label: [] for b in self.fn.blocks}
        for b in self.fn.blocks:
            for t in successors(b):
                ways.setdefault(t, []).append(b.label)
        return ways

    def run(self) -> dict:
        fn, ways_in = self.fn, self.ways_in()
        out: dict = {b.label: None for b in fn.blocks}  # None: not reached yet (the top)
        entry = fn.blocks[0].label
        changed = True
        while changed:
            changed = False
            for b in fn.blocks:
                state = self.start(b.label, entry, ways_in, out)
                now = state
                if state is not None:
                    for s in b.stmts:
                        now = self.step(s, *now)
                if now != out[b.label]:
                    out[b.label], changed = now, True
        return out

    def start(self, label: str, entry: str, ways_in: dict, out: dict):
        if label == entry:
            return frozenset(), self.every
        reached = [out[p] for p in ways_in[label] if out[p] is not None]
        if not reached:
            return None
        held = frozenset.intersection(*(r[0] for r in reached))
        apart = frozenset.intersection(*(r[1] for r in reached))
        return held, apart

    def step(self, s, held: frozenset, apart: frozenset):
        """The state after statement s."""
        if s._prod in ("Drop", "DropApart") and s.name in self.ranks:
            kept = getattr(s, "kept", None)  # a DropApart never gives back kept's buffer
            gone = {s.name} | {x for x in self.members if x not in (s.name, kept)
                               and frozenset((s.name, x)) not in apart}
            return held - gone, apart
        to = s.name if s._prod == "Let" else s.target.name if (
            s._prod == "Assign" and s.target._prod == "Local") else None
        if to not in self.ranks:
            return held, apart
        kind = self._kind(s.value)
        others = [x for x in self.members if x != to]
        if kind[0] == "fresh":
            sources, is_held = (), True
        elif kind[0] == "local":
            sources, is_held = (kind[1],), kind[1] in held
        else:
            sources, is_held = kind[1], all(a in held for a in kind[1])
        new = {x for x in others if x not in sources
               and all(frozenset((a, x)) in apart for a in sources)}
        apart = frozenset({p for p in apart if to not in p} | {frozenset((to, x)) for x in new})
        return (held | {to}) if is_held else (held - {to}), apart

    def unpicked(self, s, held: frozenset, apart: frozenset, kept: frozenset) -> list:
        """The (a, to) pairs of the locals a call s given to `to` may return that can be
        dropped apart from it after s: each surely holds a buffer not given back, and
        neither it nor another local that may hold the same, but `to` and those before it,
        is in `kept` (read after s, or dropped somewhere)."""
        to = s.name if s._prod == "Let" else s.target.name if (
            s._prod == "Assign" and s.target._prod == "Local") else None
        if to not in self.ranks or self._kind(s.value)[0] != "call":
            return []
        found: list = []
        for a in dict.fromkeys(self._kind(s.value)[1]):
            if a == to or a not in held or a in kept:
                continue
            if any(frozenset((a, c)) not in apart for c in found):
                continue
            sharing = {x for x in self.members if x not in (a, to)
                       and frozenset((a, x)) not in apart}
            if not sharing & kept:
                found.append(a)
        return [(a, to) for a in found]

    def _kind(self, value):
        if value._prod == "Local":
            return ("local", value.name)
        callee = called(value) if value._prod == "Call" else None
        if callee in self.handing:
            return ("call", tuple(value.args[k].name for k in self.handing[callee]))
        return ("fresh",)
