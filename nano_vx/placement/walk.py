"""Walking a typed program in evaluation order, knowing where the code runs and the type of
every local in scope: the frame the checks after infer-placement share."""

from __future__ import annotations

from ..nanopass import child_nodes
from .typer import Typer, join, settle
from .types import HOST, OPAQUE, Machine

_NOT_VALUES = frozenset({"Type", "Dim", "Mem", "GArg"})


class PlacedWalk:
    """Subclasses override `visit(node)`, called on every value node before its children.

    `self.topo` is the stack of topologies the code runs on (a base name such as `NPU`; the
    host is `CPU`), `self.here` the spaces they hold, `self.depth(name)` how many `spawn on`
    blocks enclosed a local's binding."""

    def __init__(self, tree, model):
        self.machine = Machine(model)
        self.model = model
        self.typer = Typer(tree, self.machine)
        self.tree = tree
        self.topo: list[str] = []
        self.here: list[str | None] = []
        self.bound_depth: dict[str, int] = {}
        self.fn = None

    def run(self):
        for item in self.tree.items:
            if item._prod == "Fn":
                self.function(item)
        return self

    def function(self, fn):
        self.fn = fn
        topo = fn.on.name if fn.on is not None else HOST
        self.topo, self.here = [topo], [self.typer.functions[fn.name].space]
        for g in fn.generics:
            if g._prod == "ConstParam":
                self.bind(g.name, g.type)
        for p in fn.params:
            self.bind(p.name, p.type if p.type is not None else OPAQUE)
        self.node(fn.body)

    def bind(self, name, ty):
        self.typer.bind(name, ty, self.here[-1])
        self.bound_depth[name] = len(self.topo)

    def captured(self, local) -> bool:
        """Is this local bound outside the innermost `spawn on` that reads it?"""
        return self.bound_depth.get(local.name, len(self.topo)) < len(self.topo)

    def type_of(self, expr):
        return settle(self.typer.of(expr, self.here[-1]))

    def space_of(self, expr) -> str | None:
        return self.typer.space(expr, self.here[-1])

    def visit(self, node) -> None:
        """Called on each value node (statement or expression) before its children."""

    def node(self, n):
        if n._nt in _NOT_VALUES:
            return
        self.visit(n)
        kind = n._prod
        if kind == "Let":
            self.node(n.value)
            self.bind(n.name, n.type)
            return
        if kind == "For":
            self.node(n.start)
            self.node(n.end)
            here = self.here[-1]
            self.bind(n.var, settle(join(self.typer.of(n.start, here), self.typer.of(n.end, here))))
            self.node(n.body)
            return
        if kind == "Param":  # a closure's
            self.bind(n.name, n.type if n.type is not None else OPAQUE)
            return
        if kind == "Spawn":
            self.node(n.topo)
            self.topo.append(n.topo.name)
            self.here.append(self.machine.holds(n.topo.name))
            self.node(n.body)
            self.topo.pop()
            self.here.pop()
            return
        for child in child_nodes(n):
            self.node(child)
