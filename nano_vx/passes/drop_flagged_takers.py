"""drop-flagged-takers: Ldrops -> Ldrops.

Same IL: a drop is nothing to the interpreter, and the flag is a cell nothing else reads,
so it runs the output as it ran the input."""

from __future__ import annotations

from ..backend.buffers import (defines, flags_lent, fresh_lets, fresh_results, kept_ranks, lent,
                               live_in, makes_fresh, reads, result_flagging, tensor_ranks)
from ..languages.ldrops import Ldrops as L
from ..nanopass import Pass
from ..nanopass.verify import descendants
from ..scalars.block_scopes import successors

drop_flagged_takers = Pass("drop-flagged-takers", L, L, """
Give a tensor variable holding, by turns, a buffer made for it and another local's a flag
saying which, and drop the buffer where the variable is dead and the flag says it is its own.

flag-maybe-lent-tensors' caller takes a tensor given back into a variable a constructor
made, which the callee fills, or, where its flag says it lent it, makes the variable the
tensor it lent (`let mut p_b = T::new(); wrap(t, u, p_b, &mut lent); if lent { p_b = t; }`;
renew-taken-tensors' `p_b = T::new();` before another such call), and takes its result
into a variable that may be the tensor it lent, its result flag saying which (`let p_a =
wrap(t, u, p_b, &mut lent, &mut lent_r);`, made where `lent_r` is false): find-owned-buffers
owns no variable given another local's buffer, so each call kept a buffer. The flag,
`let mut owns = false;` as the function starts, is set true after each assignment of a
tensor made (a constructor, a transfer, a call of a function returning only what it made),
to `!lent_r` after a call with a result flag, false after any other and after a drop
drop-replaced-buffers made (just before an assignment replacing a buffer of its own); where the variable's liveness, those drops counting as
reads, says it is read no more, as insert-drops places a drop, `branch owns` leads to a
block dropping it (a tensor made and never read is dropped at once). A tensor moved in from
a local bound to one made earlier in the assignment's block and named nowhere else counts
as made (`let agg#1 = T::fill(..); c_Full_0 = agg#1;` of `c = Buf::Full(..)` after
scalarize-aggregates, a `Buf::Empty`'s placeholder too): so an enum variable given its
parameter's tensor, then made ones, drops those. It is for a variable
dropped nowhere else (but there), given at least one tensor made and one other, whose
buffer nothing else holds: read by elements, printed, passed to a call that cannot hand it
on or to a parameter its callee only reads and writes elements of, never returned, and no
assignment of it reading it; a `return` whose value reads it so is computed into a `let`
first, the drop after it.
""")


@drop_flagged_takers.on("Program")
def _program(run, node):
    fns = {i.name: i for i in node.items if i._prod == "Fn"}
    fresh, kept = fresh_results(node), kept_ranks(node)
    elementwise = {name: _elementwise(fn) for name, fn in fns.items()}
    lending = frozenset(name for name, fn in fns.items() if flags_lent(fn, fresh))
    flagged = frozenset(name for name, fn in fns.items() if result_flagging(fn, lending))
    return node.replace(items=tuple(
        _Takers(i, fresh, kept, elementwise, flagged).rewrite() if i._prod == "Fn" else i
        for i in node.items))


def _elementwise(fn) -> frozenset:
    """The indices of fn's tensor parameters it names only to read or write an element."""
    ranks = tensor_ranks(fn)
    params = {p.name: k for k, p in enumerate(fn.params) if p.name in ranks}
    elements, borrowed, named = set(), set(), []
    for n in descendants(fn):
        if n._prod == "Borrow":
            borrowed |= {id(m) for m in descendants(n)}
        elif n._prod == "Local" and n.name in params:
            named.append(n)
        elif n._prod == "Index":
            base, depth = n, 0
            while base._prod == "Index":
                base, depth = base.base, depth + 1
            if base._prod == "Local" and depth == ranks.get(base.name):
                elements.add(id(base))
    whole = {n.name for n in named if id(n) not in elements or id(n) in borrowed}
    return frozenset(k for name, k in params.items() if name not in whole)


class _Takers:
    """One function's variables given both a buffer made for them and another's."""

    def __init__(self, fn, fresh: frozenset, kept: dict, elementwise: dict, flagged: frozenset):
        self.fn, self.fresh, self.kept, self.elementwise = fn, fresh, kept, elementwise
        self.flagged = flagged  # the functions whose result flag says it is not their own
        self.ranks = tensor_ranks(fn)
        self.moved = _moved_in(fn, fresh)
        self.names = {n.name for n in descendants(fn) if n._prod in ("Local", "Let", "Param")}
        self.next_label = max(int(b.label[2:]) for b in fn.blocks) + 1

    def rewrite(self):
        given = {s.name for b in self.fn.blocks for s in b.stmts
                 if s._prod == "Let" and _result_flag(s.value, self.flagged)}
        takers = sorted(x for x in (set(self.fn.cells) | given) & set(self.ranks)
                        if self._taker(x))
        fn = self.fn
        for x in takers:
            # `t#1` gives `t_1_owns#0`: a local's name has one `#`, before its number
            fn = self._flagged(fn, x, self._fresh_name(f"{x.replace('#', '_')}_owns"))
        return fn

    def _fresh_name(self, base: str) -> str:
        k = 0
        while f"{base}#{k}" in self.names:
            k += 1
        self.names.add(f"{base}#{k}")
        return f"{base}#{k}"

    def _taker(self, x: str) -> bool:
        fn = self.fn
        if x in {p.name for p in fn.params}:
            return False
        made = other = 0
        for b in fn.blocks:
            for at, s in enumerate(b.stmts):
                if s._prod == "Drop" and s.name == x and not (
                        at + 1 < len(b.stmts) and x in defines(b.stmts[at + 1])):
                    return False
                if s._prod == "DropApart" and x in (s.name, s.kept):
                    return False  # a pass before it owns which of the two buffers goes
                if x in defines(s):
                    if x in reads(s, {x: {x}}):
                        return False
                    both = _result_flag(s.value, self.flagged) is not None
                    if both or self._made(s.value):
                        made += 1
                    if both or not self._made(s.value):
                        other += 1
                elif s._prod in ("Let", "Assign") and self._held(s.value, x):
                    return False
                if any(n._prod == "Borrow" and x in _named(n) for n in descendants(s)):
                    return False
            if b.exit._prod == "Return" and b.exit.value is not None and \
                    self._held(b.exit.value, x):
                return False
        return bool(made and other)

    def _made(self, value) -> bool:
        """Whether value is a buffer made for the variable given it: made there, or moved
        from a local bound to one made just before."""
        return makes_fresh(value, self.fresh) or value._prod == "Local" and value.name in self.moved

    def _held(self, value, x: str) -> bool:
        """Whether what `value` computes may be x's buffer or a place in it: x is named
        other than as an argument its callee only reads and writes elements of."""
        if x not in lent(value, self.kept, self.ranks)[0]:
            return False
        given = {id(a) for n in descendants(value)
                 if n._prod == "Call" and n.callee._prod == "Global"
                 for k, a in enumerate(n.args)
                 if k in self.elementwise.get(n.callee.name, frozenset())}
        return any(n._prod == "Local" and n.name == x and id(n) not in given
                   for n in descendants(value))

    def _flagged(self, fn, x: str, owns: str):
        span = fn.span
        blocks = [self._returned_first(b.replace(stmts=tuple(
            _set_after(b.stmts, x, owns, self._made, self.flagged))), x, fn.ret)
            for b in fn.blocks]
        start = L["Let"](owns, True, L["Scalar"]("bool", span=span),
                         L["Bool"](False, span=span), span=span)
        blocks[0] = blocks[0].replace(stmts=(start, *blocks[0].stmts))
        fn = fn.replace(blocks=tuple(blocks), cells=(*fn.cells, owns))
        live = live_in(_dropped_read(fn, x), {x: {x}})
        out, edges = [], []
        for b in fn.blocks:
            held = set().union(*(live.get(t, set()) for t in successors(b))) | \
                reads(b.exit, {x: {x}})
            retarget = {}
            for field in ("target", "then", "orelse"):
                if field in b.exit._fields and x in held and \
                        x not in live.get(getattr(b.exit, field), set()):
                    label = self._label()
                    edges.extend(self._drop(label, x, owns, (), getattr(b.exit, field),
                                            b.span))
                    retarget[field] = label
            exit_node = b.exit.replace(**retarget) if retarget else b.exit
            out.extend(self._within(b, exit_node, x, owns, x in held))
        return fn.replace(blocks=tuple(out + edges))

    def _returned_first(self, b, x: str, ret):
        """Block b, its `return`'s value computed first into a `let` of its own where it
        reads x, so that x may be dropped after that read and before the `return`."""
        if b.exit._prod != "Return" or b.exit.value is None or x not in _named(b.exit.value):
            return b
        span, name = b.exit.span, self._fresh_name("returned")
        let = L["Let"](name, False, ret, b.exit.value, span=span)
        return b.replace(stmts=(*b.stmts, let),
                         exit=b.exit.replace(value=L["Local"](name, span=span)))

    def _within(self, b, exit_node, x: str, owns: str, held: bool) -> list:
        """Block b cut after each statement after which x is dead, the rest reached through
        a block dropping x where `owns` is set; but a buffer given and never read is dropped
        at once where it was made for x, and not at all where it was not, and one a drop
        of an earlier pass gave back is not dropped again."""
        live, cuts, at_once = held, [], set()
        for i in range(len(b.stmts) - 1, -1, -1):
            s = b.stmts[i]
            dropped = s._prod == "Drop" and s.name == x
            read, defined = dropped or x in reads(s, {x: {x}}), x in defines(s)
            if read and not live and not dropped:
                cuts.append(i + 1)
            elif defined and not live and self._made(s.value):
                at_once.add(i + 1)  # after the flag's assignment that follows it
            live = read or live and not defined
        cuts.reverse()
        stmts = tuple(t for i, s in enumerate(b.stmts) for t in (
            (s, L["Drop"](x, span=s.span)) if i in at_once else (s,)))
        cuts = [cut + sum(1 for k in at_once if k < cut) for cut in cuts]
        parts, label, at = [], b.label, 0
        for cut in cuts:
            rest = self._label()
            parts.extend(self._drop(label, x, owns, stmts[at:cut], rest, b.span))
            label, at = rest, cut
        parts.append(L["BasicBlock"](label, stmts[at:], exit_node, span=b.span))
        return parts

    def _drop(self, label: str, x: str, owns: str, stmts: tuple, then: str, span) -> list:
        """Block `label` running stmts, then dropping x where `owns` is set, then going to
        block `then`."""
        dropping = self._label()
        return [
            L["BasicBlock"](label, tuple(stmts), L["Branch"](
                L["Local"](owns, span=span), dropping, then, span=span), span=span),
            L["BasicBlock"](dropping, (L["Drop"](x, span=span),), L["Goto"](
                then, span=span), span=span)]

    def _label(self) -> str:
        self.next_label += 1
        return f"bb{self.next_label - 1}"


def _moved_in(fn, fresh: frozenset) -> frozenset:
    """The locals bound once to a tensor made (`let agg#1 = T::fill(..);` of an enum's
    part) whose one other mention is an assignment of a variable, whole, later in the
    block of that `let`: each run of the block hands the variable a new buffer, which
    nothing else names, so the variable may own it as one made for it."""
    made, mentions = fresh_lets(fn, fresh), {}
    for n in descendants(fn):
        if n._prod == "Local":
            mentions[n.name] = mentions.get(n.name, 0) + 1
        elif n._prod in ("Drop", "DropApart"):
            for name in {n.name, getattr(n, "kept", n.name)}:
                mentions[name] = mentions.get(name, 0) + 2  # another pass drops it
    out = set()
    for b in fn.blocks:
        bound = set()
        for s in b.stmts:
            if s._prod == "Let" and made.get(s.name) is s:
                bound.add(s.name)
            elif s._prod == "Assign" and s.op == "=" and s.target._prod == "Local" and \
                    s.value._prod == "Local" and s.value.name in bound and \
                    mentions.get(s.value.name) == 1:
                out.add(s.value.name)
    return frozenset(out)


def _named(node) -> set:
    return {n.name for n in descendants(node) if n._prod == "Local"}


def _result_flag(value, flagged: frozenset) -> str | None:
    """The local whose `&mut` a call of a function of `flagged` (`result_flagging`) is given
    as its result flag: false where the call's result is a buffer it made."""
    if value._prod != "Call" or value.callee._prod != "Global" or \
            value.callee.name not in flagged or not value.args:
        return None
    last = value.args[-1]
    if last._prod == "Borrow" and last.value._prod == "Local":
        return last.value.name
    return None


def _set_after(stmts, x: str, owns: str, made, flagged: frozenset):
    """The statements, the flag set after each giving x a buffer (to the call's result flag
    negated where it has one), and unset after a drop of it (drop-replaced-buffers' before
    an assignment replacing it)."""
    for s in stmts:
        yield s
        if x in defines(s) or s._prod == "Drop" and s.name == x:
            flag = None if s._prod == "Drop" else _result_flag(s.value, flagged)
            span = s.span
            owned = L["Unary"]("!", "bool", L["Local"](
                flag, span=span), span=span) if flag is not None else L["Bool"](
                s._prod != "Drop" and made(s.value), span=span)
            yield L["Assign"](L["Local"](owns, span=span), "=", owned, span=span)


def _dropped_read(fn, x: str):
    """fn with each drop of x a statement reading it, for x's liveness: a drop an earlier
    pass made is where that buffer dies."""
    return fn.replace(blocks=tuple(b.replace(stmts=tuple(
        L["ExprStmt"](L["Local"](x, span=s.span), span=s.span)
        if s._prod == "Drop" and s.name == x else s for s in b.stmts)) for b in fn.blocks))
