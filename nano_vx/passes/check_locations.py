"""check-locations: Lmono, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lunrolled import OncePerPlace
from ..languages.lmono import Lmono
from ..nanopass import Analysis


@dataclass
class State:
    said: OncePerPlace = field(default_factory=OncePerPlace)


check_locations = Analysis("check-locations", Lmono, """
Refuse a placement or a `spawn on` that names no declared location (E6025).

A tensor type places its value in a memory space (`Memory::GPU_HBM`) or on a device
(`Topology::GPU`, meaning the memory it holds), and `spawn on(Topology::X)` runs code on a
device: each must be declared, by the program, a machine or host file, or the built-in model
when no machine is given. The message names the location and the ones that are declared.
monomorphize has run, so a generic's topology parameter is the topology of its instance.
""", state=State, requires=("model",))


@check_locations.on("Program")
def _program(run, node):
    run.descend(node)
    run.state.said.note_copies()


@check_locations.on("TensorType")
def _tensor_type(run, node):
    place = node.place
    if place is not None and place._prod == "MemRef":
        _space(run, place)
    elif place is not None and place._prod == "TopoRef":
        _topology(run, place)
    run.descend(node)


@check_locations.on("Spawn")
def _spawn(run, node):
    if node.topo._prod == "TopoRef":
        _topology(run, node.topo)
    run.descend(node)


def _space(run, ref) -> None:
    model = run.ctx.model
    # A topology's memory exists with it (the host's CPU_DRAM under a machine model too,
    # though model.spaces has it only when an input declares it).
    known = set(model.spaces) | {t.memory for t in model.topologies.values()}
    if ref.name in known:
        return
    _refuse(run, ref, f"`Memory::{ref.name}` names no declared memory space",
            f"the memory spaces are {', '.join(sorted(known))}", location=ref.name)


def _topology(run, ref) -> None:
    model = run.ctx.model
    if model.topology_of(ref.name) is not None:
        return
    _refuse(run, ref, f"`Topology::{ref.name}` names no declared topology",
            f"the topologies are {', '.join(sorted(model.topologies))}", location=ref.name)


def _refuse(run, ref, message: str, note: str, **data) -> None:
    # The copies `unroll across` makes share their body's nodes, spans included.
    key = (ref.span, message)
    if not run.state.said.again(key):
        diag = run.ctx.diagnostics.error("E6025", ref.span, message, notes=[note],
                                         help=["declare it (`Memory NAME { .. }`, "
                                               "`Topology NAME { .. }`), or name one of "
                                               "those"], **data)
        run.state.said.said(key, diag)
