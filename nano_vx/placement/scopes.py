"""The locals of one typed function: each one's type, the space it was bound in, and how
many `spawn on` blocks enclose its binding. The checks after infer-placement look a local up
here instead of binding as they walk, so each of them handles only what it inspects."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.l0_source import DESCRIPTIONS
from ..languages.l7_routed import Lrouted
from ..nanopass import Analysis
from .typer import Typer, join, settle
from .types import OPAQUE


@dataclass
class Scope:
    typer: Typer
    depth: dict[str, int] = field(default_factory=dict)  # local -> enclosing `spawn on`s
    here: list[str | None] = field(default_factory=list)  # while binding: where code runs

    def type_of(self, expr, here: str | None):
        return settle(self.typer.of(expr, here))

    def space_of(self, expr, here: str | None) -> str | None:
        return self.typer.space(expr, here)

    def bind(self, name: str, ty) -> None:
        self.typer.bind(name, ty, self.here[-1])
        self.depth[name] = len(self.here) - 1


def scope_of(fn, typer: Typer) -> Scope:
    """The scope of function `fn` (whose names resolve-names made unique within it)."""
    return _bind_locals.collect(fn, state=Scope(typer, here=[typer.functions[fn.name].space]))


_bind_locals = Analysis("bind-locals", Lrouted, """
Bind every local of a function to its type, in source order (a helper of the checks).
""", skip=DESCRIPTIONS)


@_bind_locals.on("Fn")
def _fn(run, node):
    for g in node.generics:
        if g._prod == "ConstParam":
            run.state.bind(g.name, g.type)
    run.descend(node)


@_bind_locals.on("Param")
def _param(run, node):
    run.state.bind(node.name, node.type if node.type is not None else OPAQUE)


@_bind_locals.on("Let")
def _let(run, node):
    run.descend(node)
    run.state.bind(node.name, node.type)


@_bind_locals.on("For")
def _for(run, node):
    scope = run.state
    here = scope.here[-1]
    run.walk(node.start)
    run.walk(node.end)
    scope.bind(node.var, settle(join(scope.typer.of(node.start, here),
                                     scope.typer.of(node.end, here))))
    run.walk(node.body)


@_bind_locals.on("Spawn")
def _spawn(run, node):
    scope = run.state
    scope.here.append(scope.typer.machine.holds(node.topo.name))
    run.descend(node)
    scope.here.pop()
