"""explicate-assertions: Lblocks -> Lstops."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsrc import assertion_message
from ..languages.lblocks import Lblocks
from ..languages.lstops import Lstops
from ..nanopass import Pass

BasicBlock, Branch, Stop = Lstops["BasicBlock"], Lstops["Branch"], Lstops["Stop"]


@dataclass
class _Labels:
    next: int = 0  # the number of the function's next new label


explicate_assertions = Pass("explicate-assertions", Lblocks, Lstops, """
Make each `assert` a branch: on to the rest of its block, or to a block that stops (E9002).

The block holding an `assert` ends at it, in a branch on the condition to a new block with
the statements after it (and the block's exit), or else to a new block whose exit is `Stop`
with the assertion's message; the new blocks follow it, the one that stops first, which is
the order select-instructions meets them in (it puts the blocks that stop last). The checks
inside expressions (a divisor, an index, a call's depth, an allocation) stay for
select-instructions: each stops in the middle of computing an expression, which no block
boundary of this IL can split without naming the values computed so far.
""", state=_Labels)


@explicate_assertions.on("Fn")
def _fn(run, node):
    run.state.next = 1 + max((int(b.label[2:]) for b in node.blocks), default=-1)
    return run.rebuild(node)


@explicate_assertions.on("BasicBlock", splice=True)
def _block(run, node):
    if not any(s._prod == "Assert" for s in node.stmts):
        return node
    out, label, stmts = [], node.label, []
    for s in node.stmts:
        if s._prod != "Assert":
            stmts.append(s)
            continue
        fail, cont = _fresh(run), _fresh(run)
        out.append(BasicBlock(label, tuple(stmts), Branch(s.cond, cont, fail, span=s.span),
                              span=node.span))
        out.append(BasicBlock(fail, (), Stop("E9002", assertion_message(s), span=s.span),
                              span=node.span))
        label, stmts = cont, []
    out.append(BasicBlock(label, tuple(stmts), node.exit, span=node.span))
    return tuple(out)


def _fresh(run) -> str:
    run.state.next += 1
    return f"bb{run.state.next - 1}"
