"""Running a function given as basic blocks (Lblocks on): each block compiled once to its
statements' closures and an exit closure, and a loop that follows the exits.

Locals have names unique in their function, so the blocks share one scope. A block is
compiled after the blocks that dominate it (reverse postorder from the entry), so a `let`
has its slot before any statement reading it is compiled, whatever order the blocks are
listed in.
"""

from __future__ import annotations

from ..languages.lblocks import Lblocks
from ..languages.lstops import Lstops
from ..nanopass import Handlers
from ..values.control import Return
from ..values.stops import stop

# Only Lblocks has blocks: Lmlir's functions run in ssa.py.
_EXITS = Handlers("the interpreter's block exits", (Lblocks, Lstops), "Exit")


def run_blocks(interp, blocks, sc):
    """The body closure `f(frame) -> value` of a function made of `blocks`."""
    if not blocks:
        return lambda f: None
    by_label = {b.label: b for b in blocks}
    # One cell per block, filled below: an exit closure refers to its target's cell, so a
    # jump to a block compiled later (a loop's back edge) needs no lookup at run time.
    cells = {label: [None, None] for label in by_label}
    for block in _dominance_order(blocks[0], by_label):
        cell = cells[block.label]
        cell[0] = tuple(interp.stmt(s, sc) for s in block.stmts)
        cell[1] = _exit(interp, block.exit, sc, cells)
    entry = cells[blocks[0].label]

    def body(f):
        cell = entry
        while True:
            for s in cell[0]:
                s(f)
            cell = cell[1](f)
            if type(cell) is Return:
                return cell.value
    return body


def _exit(interp, node, sc, cells):
    """A closure giving the next block's cell, or the Return that ends the call."""
    return _EXITS[node._prod](interp, node, sc, cells)


@_EXITS.on("Return")
def _return(interp, node, sc, cells):
    if node.value is None:
        done = Return(None)
        return lambda f: done
    value = interp.expr(node.value, sc, sc.ret)
    return lambda f: Return(value(f))


@_EXITS.on("Goto")
def _goto(interp, node, sc, cells):
    target = _cell(cells, node.target, node.span)
    return lambda f: target


@_EXITS.on("Stop")
def _stop(interp, node, sc, cells):
    code, message, span = node.code, node.message, node.span  # Lstops on: a failed check
    return lambda f: stop(code, span, message)


@_EXITS.on("Branch")
def _branch(interp, node, sc, cells):
    span = node.span
    cond, truth = interp.expr(node.cond, sc), interp.truth
    then, orelse = _cell(cells, node.then, span), _cell(cells, node.orelse, span)

    def branch(f):
        c = cond(f)
        if c is True or (c is not False and truth(c, span)):
            return then
        return orelse
    return branch


def _cell(cells, label, span):
    if label not in cells:
        stop("E9006", span, f"a jump to '{label}', which is no block of the function")
    return cells[label]


def _targets(exit_node):
    kind = exit_node._prod
    if kind == "Goto":
        return (exit_node.target,)
    if kind == "Branch":
        return (exit_node.then, exit_node.orelse)
    return ()


def _dominance_order(entry, by_label):
    """The blocks reachable from `entry` in reverse postorder (every block after its
    dominators); an unreachable block never runs and is not compiled."""
    post, seen = [], {entry.label}
    stack = [(entry, iter(_targets(entry.exit)))]
    while stack:
        block, succ = stack[-1]
        for label in succ:
            if label not in seen and label in by_label:
                seen.add(label)
                nxt = by_label[label]
                stack.append((nxt, iter(_targets(nxt.exit))))
                break
        else:
            stack.pop()
            post.append(block)
    post.reverse()
    return post
