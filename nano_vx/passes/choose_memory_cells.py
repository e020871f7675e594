"""choose-memory-cells: Lstops -> Lcells."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lcells import Lcells
from ..languages.lstops import Lstops
from ..nanopass import Analysis, Pass

choose_memory_cells = Pass("choose-memory-cells", Lstops, Lcells, """
Name the locals of each function that live in memory cells: those assigned or borrowed.

A local given its value once, by its `let` or as a parameter, is that value wherever it is
read, which is what an SSA value is. One that an assignment changes after its `let`, or
whose address a borrow (`&x`) takes, needs a place that holds its current value: a cell
(select-instructions makes it a memref.alloca). `Fn.cells` lists them in the order the
function first assigns or borrows them.
""")


@dataclass
class _Found:
    names: dict = field(default_factory=dict)  # local -> None: the cells, in order


_changed = Analysis("choose-memory-cells", Lstops, """
The locals a function assigns after their `let` or borrows.
""", state=_Found)


@_changed.on("Assign")
def _assign(run, node):
    if node.target._prod == "Local":
        run.state.names.setdefault(node.target.name)
    run.descend(node)


@_changed.on("Borrow")
def _borrow(run, node):
    if node.value._prod == "Local":
        run.state.names.setdefault(node.value.name)
    run.descend(node)


@choose_memory_cells.on("Fn")
def _fn(run, node):
    cells = tuple(_changed.collect(node).names)
    return Lcells["Fn"](node.name, node.params, node.on, node.ret, node.bounds, cells,
                        node.blocks, span=node.span)
