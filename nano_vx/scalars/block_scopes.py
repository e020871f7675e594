"""The scope of a function of basic blocks (Lblocks to Lcells), for the back end's
well-formedness check: its labels, the block that dominates each one, where a local is bound.
Linear in the blocks (bar the dominators' iteration), however many a dump has."""

from __future__ import annotations

from .terms import Mismatch


def check_blocks(types, fn) -> None:
    """A function of basic blocks: labels that name one block each, every local used where
    a `let` of it dominates (the back end reads the blocks in order, so a block comes after
    the one that dominates it), `cells` that name locals; each statement and exit checked by
    `types` (well_formed's Check) with the locals bound there in `types.env`."""
    _labels(fn)
    order = {blk.label: i for i, blk in enumerate(fn.blocks)}
    idom = immediate_dominators(fn.blocks)
    children: dict = {}
    for blk in fn.blocks[1:]:
        up = idom.get(blk.label)
        if up is not None:
            if order[up] > order[blk.label]:
                raise Mismatch(blk, f"the block {blk.label} before {up}, which every way to "
                                    f"it passes through")
            children.setdefault(up, []).append(blk)
    env = types.env  # the parameters, then what the dominating blocks bind
    bound: dict = {}  # label -> {local: type} its statements bind
    stack: list = [(fn.blocks[0], None)]
    while stack:  # the dominator tree, depth first; (None, undo) leaves a block's subtree
        blk, undo = stack.pop()
        if blk is None:
            for name in undo:
                env.pop(name, None)
            continue
        bound[blk.label] = _block(types, blk)
        stack.append((None, list(bound[blk.label])))
        stack.extend((child, None) for child in reversed(children.get(blk.label, ())))
    met = dict(env)  # a block the entry does not reach sees all met before it, unchecked
    for blk in fn.blocks:  # by MLIR
        if blk.label not in bound:
            types.env = met
            bound[blk.label] = _block(types, blk)
        met.update(bound[blk.label])
    if "cells" in fn._fields:
        for cell in fn.cells:
            if cell not in met:
                raise Mismatch(fn, f"the cell '{cell}', which names no local of the "
                                   f"function")


def _block(types, blk) -> dict:
    """Check a block's statements and exit in `types.env`; the locals it binds."""
    before = set(types.env)
    for s in blk.stmts:
        types.stmt(s)
    types.exit(blk.exit)
    return {k: v for k, v in types.env.items() if k not in before}


def _labels(fn) -> None:
    """Each label once, and each jump to one of them."""
    if not fn.blocks:
        raise Mismatch(fn, "a function without blocks")
    blocks = {}
    for blk in fn.blocks:
        if blk.label in blocks:
            raise Mismatch(blk, f"a second block labelled {blk.label}")
        blocks[blk.label] = blk
    for blk in fn.blocks:
        for target in successors(blk):
            if target not in blocks:
                raise Mismatch(blk.exit, f"a jump to {target}, which labels no block")


def successors(blk) -> tuple:
    exit = blk.exit
    return tuple(getattr(exit, f) for f in ("target", "then", "orelse") if f in exit._fields)


def immediate_dominators(blocks: tuple) -> dict:
    """label -> the label of its immediate dominator, for each block the entry reaches but
    the entry (Cooper, Harvey and Kennedy's iteration over reverse postorder)."""
    succ = {b.label: successors(b) for b in blocks}
    entry = blocks[0].label
    post: list = []
    seen = {entry}
    stack = [(entry, iter(succ[entry]))]
    while stack:
        label, rest = stack[-1]
        nxt = next((s for s in rest if s not in seen), None)
        if nxt is None:
            post.append(label)
            stack.pop()
        else:
            seen.add(nxt)
            stack.append((nxt, iter(succ[nxt])))
    number = {label: i for i, label in enumerate(post)}
    preds: dict = {label: [] for label in post}
    for label in post:
        for s in succ[label]:
            preds[s].append(label)
    idom = {entry: entry}
    changed = True
    while changed:
        changed = False
        for label in reversed(post[:-1]):
            new = None
            for p in preds[label]:
                if p in idom:
                    new = p if new is None else _meet(p, new, idom, number)
            if idom.get(label) != new:
                idom[label], changed = new, True
    del idom[entry]
    return idom


def _meet(a: str, b: str, idom: dict, number: dict) -> str:
    while a != b:
        while number[a] < number[b]:
            a = idom[a]
        while number[b] < number[a]:
            b = idom[b]
    return a
