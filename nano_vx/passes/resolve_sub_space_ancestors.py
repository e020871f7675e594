"""resolve-sub-space-ancestors: Lfolded -> Lrouted."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lfolded import Lfolded
from ..languages.lrouted import Lrouted
from ..model.build import HOST_MEMORY
from ..nanopass import Pass

@dataclass
class State:
    reported: set[str] = field(default_factory=set)  # unknown spaces already reported


resolve_sub_space_ancestors = Pass("resolve-sub-space-ancestors", Lfolded, Lrouted, """
Give every `Transfer` its route: the cheapest hops from its source space to its destination
(E6002 for no path, E6014 for host staging without `--host`).

A sub-space with no edges of its own is reached through its `within:` ancestors; a move
between siblings meets at their nearest common ancestor and pays both legs; a value already
in a sub-space starts there (nano_vx.model.routing). No path is E6002, naming both spaces:
the compiler never stages a copy on its own. Under a machine model that no `--host`
completed, a move to or from CPU_DRAM, or one whose only route would stage through it (the
machine's host links, kept aside, make one), is E6014. A destination no declaration names is
E2001.
A transfer whose source space is not known (a generic topology's) gets no route.
""", state=State, requires=("model",))


@resolve_sub_space_ancestors.on("Transfer")
def _transfer(run, node):
    value = run.walk(node.value)
    dest = node.dest.name
    src = node.src.name if node.src is not None else None
    known = _known(run, node, src, dest)
    route = _route(run, node, src, dest) if known and src is not None else None
    return Lrouted["Transfer"](value, node.dest, node.mark, node.src, route, span=node.span)


def _route(run, node, src: str, dest: str):
    model = run.ctx.model
    found = model.route(src, dest)
    if found is None and (staged := model.staged_route(src, dest)) is not None:
        _no_host(run, node, src, dest, f"the route from {src} to {dest} stages through host "
                                       f"memory ({' -> '.join(staged.path)})")
        return None
    if found is None:
        run.ctx.diagnostics.error(
            "E6002", node.span, f"no transfer path from {src} to {dest} in the declared model",
            help=[f"declare an edge (`transfer Memory::{src} -> Memory::{dest} : cost` in a "
                  f"Topology), or transfer through a space both connect to"],
            src=src, dest=dest)
        return None
    hops = [Lrouted["Hop"](leg.src, leg.dst, str(leg.cost), leg.via, span=node.span)
            for leg in found.legs]
    return Lrouted["Route"](hops, str(found.cost), span=node.span)


def _known(run, node, src, dest) -> bool:
    """Both spaces exist; E6014 or E2001 (once per name) when one does not."""
    model, diagnostics = run.ctx.model, run.ctx.diagnostics
    missing = [s for s in (src, dest) if s is not None and s not in model.spaces]
    for space in missing:
        if space == HOST_MEMORY and model.has_machine:
            _no_host(run, node, src, dest, f"this transfer ({src} -> {dest}) stages through "
                                           f"host memory ({HOST_MEMORY})")
        elif space not in run.state.reported:
            run.state.reported.add(space)
            diagnostics.error("E2001", node.dest.span if space == dest else node.span,
                              f"no memory space named '{space}'",
                              help=["the memory spaces are " + ", ".join(sorted(model.spaces))],
                              name=space)
    return not missing


def _no_host(run, node, src, dest, stages: str) -> None:
    """E6014: `stages` says how the move stages through the host memory no input declares."""
    run.ctx.diagnostics.error(
        "E6014", node.span,
        f"{stages}, which no input declares while a machine model is in force: `--host` (a "
        f"file, or `default`) declares it",
        notes=["a machine file describes the accelerator, not the host it hangs off"],
        help=["add the host with `--host default` or `--host FILE`"],
        src=src, dest=dest)
