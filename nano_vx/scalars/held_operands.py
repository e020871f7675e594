"""The operands a statement computes before a read of a variable that a check before the
statement would come too early for, each held by a `let` of its own before the statement, in
order, so that the read is the first thing the statement computes:
hold-operands-before-moved-reads holds them before the reads of a variable a closure may
move, hold-operands-before-kernel-moved-reads before those of a tensor a kernel moves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..languages.lresolved import unused_name
from ..nanopass import descendants
from ..nanopass.verify import child_nodes
from .moved_flags import IN_ORDER, LEAVES, late_reads


@dataclass
class Holding:
    """What holding operands in one function asks: the IL of the `let`s it makes, the
    function's names (each `let` takes one), its flagged variables and its references that
    cannot stop (`moved_flags.quiet_references`), which stay where they are."""

    lang: object
    taken: set
    flagged: set
    quiet: frozenset = frozenset()


def held_operands(h: Holding, e, events_of: Callable) -> tuple[list, object]:
    """The `let`s of the operands e computes before a read of a flagged variable a check
    before the statement would come too early for, and e reading their locals instead;
    `events_of(e)` is what computing e does, as `moved_flags.collect` finds it."""
    held = []
    while True:
        events = events_of(e)
        late = {id(ev[2]) for ev in late_reads(events)}
        late = next((ev for ev in events if ev[0] == "read" and (ev[3] or id(ev[2]) in late)),
                    None)
        path = _path(e, late[2]) if late is not None else None
        if path is None:
            return held, e
        lets: list = []
        rebuilt = _operands_held(h, path, lets)
        if rebuilt is None or not lets:
            return held, e
        held += lets
        e = rebuilt


def _path(e, target):
    """The nodes from e down to target (by identity), or None."""
    if e is target:
        return [e]
    for c in child_nodes(e):
        below = _path(c, target)
        if below is not None:
            return [e] + below
    return None


def _operands_held(h: Holding, path: list, lets: list):
    """path[0] with each operand computed before path[1] held in a `let` appended to lets,
    and path[1] rebuilt likewise; None where that would change what runs or its types."""
    node = path[0]
    if len(path) == 1:
        return node
    on_path = path[1]
    if node._prod == "Binary" and node.op in ("&&", "||"):
        return _choice_held(h, node, path, lets)
    # `a[i][j]` locates both indices once both are computed: `a[i]` held would check i first.
    if node._prod not in IN_ORDER or node._prod == "Index" and node.base._prod == "Index" \
            and on_path is node.index:
        return None
    before = []
    for c in child_nodes(node):
        if c is on_path:
            break
        before.append(c)
    if any(c._prod == "Borrow" and id(c) not in h.quiet and not _element(h, c) or
           node._prod == "Call" and c is node.callee and c._prod not in LEAVES or
           c._prod not in LEAVES and
           not any(n._prod in ("Local", "Global") for n in descendants(c)) for c in before):
        return None
    swap = {}
    for c in before:
        if c._prod not in LEAVES and id(c) not in h.quiet:
            name = unused_name("operand", h.taken)
            h.taken.add(name)
            lets.append(h.lang["Let"](name, False, h.lang["OpaqueType"](span=c.span), c, span=c.span))
            swap[id(c)] = h.lang["Local"](name, span=c.span)
    below = _operands_held(h, path[1:], lets)
    if below is None:
        return None
    swap[id(on_path)] = below
    return _with_children(node, swap)


def _element(h: Holding, e) -> bool:
    """`e` is `&u[i]` (`&mut u[i][j]`) of a variable no closure moves, or an element through
    a reference naming none (`&(*v)[i]`, `&(*same(&u))[i]`: a reference to a flagged variable
    is lent where it is made, which track-moved-captures checks or refuses there): held by a
    `let`, it locates the element (an index out of bounds stops there) before the read."""
    base, indexed = e.value, False
    while base._prod == "Index":
        base, indexed = base.base, True
    if base._prod == "Deref":
        return indexed and not any(n._prod == "Local" and n.name in h.flagged
                                   for n in descendants(base))
    return indexed and base._prod == "Local" and base.name not in h.flagged


def _choice_held(h: Holding, node, path: list, lets: list):
    """`a && b` (`a || b`) on the way to a read: down its left, which runs first, or, the read
    in its right, held as `let operand = if a { b } else { false };` (`if a { true } else
    { b }`), whose arm reads the variable first, where its check goes."""
    if path[1] is node.left:
        below = _operands_held(h, path[1:], lets)
        return None if below is None else _with_children(node, {id(node.left): below})
    span = node.span
    right = h.lang["Block"]((), node.right, span=node.right.span)
    known = h.lang["Block"]((), h.lang["Bool"](node.op == "||", span=span), span=span)
    then, orelse = (right, known) if node.op == "&&" else (known, right)
    name = unused_name("operand", h.taken)
    h.taken.add(name)
    lets.append(h.lang["Let"](name, False, h.lang["OpaqueType"](span=span),
                         h.lang["IfExpr"](node.left, False, then, orelse, span=span), span=span))
    return h.lang["Local"](name, span=span)


def _with_children(node, swap: dict):
    """node with each child whose id() swap names replaced."""
    changed = {}
    for f in node._fields:
        v = getattr(node, f)
        if isinstance(v, tuple):
            if any(id(c) in swap for c in v):
                changed[f] = tuple(swap.get(id(c), c) for c in v)
        elif id(v) in swap and swap[id(v)] is not v:
            changed[f] = swap[id(v)]
    return node.replace(**changed) if changed else node
