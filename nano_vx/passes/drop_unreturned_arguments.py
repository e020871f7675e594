"""drop-unreturned-arguments: Ldrops -> Ldrops.

Same IL: a drop is nothing to the interpreter, so it runs the output as it ran the input."""

from __future__ import annotations

from ..backend.buffers import (called, fresh_results, handed_parameters, keeping_calls,
                               kept_in_place, makes_fresh, only_elements, tensor_ranks)
from ..backend.last_drops import dropped_before_return
from ..languages.ldrops import Ldrops
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names

drop_unreturned_arguments = Pass("drop-unreturned-arguments", Ldrops, Ldrops, """
Drop the buffer a tensor variable held before a call given it that returns either that
buffer or one it made, where the call did not return it, and the variable's last buffer
before each `return`.

`fn reset(h: &mut Holder, i: i32) { if i % 2 == 0 { h.t = T::fill(1.0); } }` is, once
scalarize-aggregates and bind-assigned-starts are done, `fn reset(h_t: T, .., t: T) -> T
{ let mut t#1 = t; if .. { t#1 = T::fill(1.0); } return t#1; }` called as `h_t =
reset(h_t, .., h_t);`: the caller cannot tell whether it got its own buffer back, so
insert-drops drops none of h_t's, and a loop calling it kept one buffer a turn. Here the
old buffer is held first and dropped after the call where the new one's address differs
(`let held = h_t; h_t = reset(..); drop held apart from h_t;`), a variable given a fresh
tensor drops the one it held, and the last is dropped before each `return`.

For a variable the function binds once, in its first block, that insert-drops drops
nowhere: each `let` or assignment of it gives it a fresh tensor (a constructor, a transfer,
a call of a function returning only what it made) or such a call's, it is named otherwise
only by its elements and its extents (a `return`'s value too, then computed into a `let`
of its own before the drops); and a callee every `return` of which gives a parameter the
call gives the variable whole, a tensor it made, or a local given only those, named
otherwise only by its elements and extents, as those parameters are. So the variable holds
a buffer of its own at every point, and no other local of either function holds it.

A tensor such a call is lent beside the variable (`w_a` of `w_b = step(w_a, w_b, i, w_b);`,
the struct's other field), which insert-drops keeps as the call may return a tensor, is
dropped before each `return` too where its `let`, in the first block, gives it a fresh
tensor, nothing assigns it or drops it, and it is named otherwise only by its elements and
extents, as an argument of a call that cannot hand it on, or whole as one of a handing call
at parameters it never returns: no call hands its buffer back.
""")

Drop, DropApart, Let, Local = (Ldrops[p] for p in ("Drop", "DropApart", "Let", "Local"))


@drop_unreturned_arguments.on("Program")
def _program(run, node):
    fns = {i.name: i for i in node.items if i._prod == "Fn"}
    fresh, keeping = fresh_results(node), keeping_calls(node)
    handing = {name: found for name, fn in fns.items()
               if (found := handed_parameters(fn, fresh)) is not None}
    if not handing:
        return node
    return node.replace(items=tuple(_fn(i, handing, fresh, keeping) if i._prod == "Fn" else i
                                    for i in node.items))


def _target(s) -> str | None:
    if s._prod == "Let":
        return s.name
    return s.target.name if s.target._prod == "Local" else None


def _handed(value, name: str, handing: dict) -> bool:
    """Whether value is a call of a handing function given `name` whole at every parameter
    it may return, and elsewhere only by its elements."""
    callee = called(value) if value._prod == "Call" else None
    if callee not in handing:
        return False
    args = value.args
    return all(k < len(args) and args[k]._prod == "Local" and args[k].name == name
               for k in handing[callee])


def _fn(fn, handing: dict, fresh: frozenset, keeping: frozenset):
    ranks = tensor_ranks(fn)
    dropped = {s.name for b in fn.blocks for s in b.stmts
               if s._prod in ("Drop", "DropApart")}
    entry = {s.name for s in fn.blocks[0].stmts if s._prod == "Let"}
    lets: dict = {}
    for b in fn.blocks:
        for s in b.stmts:
            if s._prod == "Let":
                lets[s.name] = lets.get(s.name, 0) + 1
    watched = [name for name in fn.cells if name in ranks and name not in dropped
               and name in entry and lets.get(name) == 1
               and _own(fn, name, ranks[name], handing, fresh, keeping)]
    if not watched:
        return fn
    beside = [name for name in ranks if name not in watched and name not in dropped
              and name in entry and lets.get(name) == 1
              and _lent_beside(fn, name, ranks[name], watched, handing, fresh, keeping)]
    names = Names(fn)
    blocks = []
    for b in fn.blocks:
        stmts = []
        for s in b.stmts:
            to = _target(s) if s._prod == "Assign" and s.op == "=" else None
            if to in watched and _handed(s.value, to, handing):
                held = names.fresh("held")
                stmts += [Let(held, False, _type(fn, to), Local(to, span=s.span),
                                  span=s.span), s,
                          DropApart(held, to, span=s.span)]
                continue
            if to in watched:  # a fresh tensor: the one it held is the variable's own
                stmts.append(Drop(to, span=s.span))
            stmts.append(s)
        b = b.replace(stmts=tuple(stmts))
        if b.exit._prod == "Return":
            b = dropped_before_return(fn, b, [*watched, *beside], names)
        blocks.append(b)
    return fn.replace(blocks=tuple(blocks))


def _type(fn, name: str):
    return next(s.type for b in fn.blocks for s in b.stmts
                if s._prod == "Let" and s.name == name)


def _own(fn, name: str, rank: int, handing: dict, fresh: frozenset,
         keeping: frozenset) -> bool:
    """Whether every definition of the variable gives it a fresh tensor or a handing call's
    of it, and it is named otherwise only by its elements and extents."""
    for b in fn.blocks:
        for s in (*b.stmts, b.exit):
            if s._prod in ("Let", "Assign") and _target(s) == name:
                if s._prod == "Assign" and s.op != "=":
                    return False
                if _handed(s.value, name, handing):
                    if not all(only_elements(a, name, rank) or a._prod == "Local"
                               for a in s.value.args):
                        return False
                elif not makes_fresh(s.value, fresh) or _names(s.value, name):
                    return False
            elif not kept_in_place(s, name, rank, keeping):
                return False
    return True


def _lent_beside(fn, name: str, rank: int, watched: list, handing: dict, fresh: frozenset,
                 keeping: frozenset) -> bool:
    """Whether the local's `let` gives it a fresh tensor, nothing assigns it, and it is named
    otherwise only by its elements and extents, and whole only as an argument of handing
    calls at parameters they never return, one of them given to a watched variable: no call hands its buffer back, so it is its own to the end."""
    beside = False
    for b in fn.blocks:
        for s in (*b.stmts, b.exit):
            if s._prod == "Let" and s.name == name:
                if not makes_fresh(s.value, fresh) or _names(s.value, name):
                    return False
            elif s._prod == "Assign" and _target(s) == name:
                return False
            elif _lent_unreturned(s, name, rank, handing):
                beside = beside or _target(s) in watched
            elif not kept_in_place(s, name, rank, keeping):
                return False
    return beside


def _lent_unreturned(s, name: str, rank: int, handing: dict) -> bool:
    """Whether s gives a local a handing call's result, the call given `name` whole only at
    parameters it never returns, and elsewhere only by its elements."""
    if s._prod not in ("Let", "Assign") or s._prod == "Assign" and s.op != "=":
        return False
    callee = called(s.value) if s.value._prod == "Call" else None
    if callee not in handing or not only_elements(s.value.callee, name, rank):
        return False
    args = s.value.args
    whole = {k for k, a in enumerate(args) if a._prod == "Local" and a.name == name}
    return bool(whole) and not whole & handing[callee] and all(
        k in whole or only_elements(a, name, rank) for k, a in enumerate(args))


def _names(node, name: str) -> bool:
    return any(n._prod == "Local" and n.name == name for n in descendants(node))
