"""check-element-types: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lunrolled import OncePerPlace
from ..languages.ltyped import Ltyped
from ..nanopass import Analysis


@dataclass
class State:
    said: OncePerPlace = field(default_factory=OncePerPlace)


check_element_types = Analysis("check-element-types", Ltyped, """
Refuse a tensor placed on a device whose `dtypes:` does not list its element type (E6026).

A topology may declare the element types its device represents (`dtypes: [f16, i8]`, narrow
ones such as `i4` or `f8e4m3` included). A tensor whose type places it in the memory that
topology holds (`Tensor<f32, [8], Memory::NPU_HBM>`, or spelled by the device,
`Topology::NPU`) must have one of those element types: the message names the type, the
device and its list. A topology that declares no `dtypes:` represents every type.
""", state=State, requires=("model",))


@check_element_types.on("Program")
def _program(run, node):
    run.descend(node)
    run.state.said.note_copies()


@check_element_types.on("Let")
def _let(run, let):
    _judge(run, let.type, let.value.span or let.span)
    run.descend(let)


@check_element_types.on("Param")
def _param(run, param):
    _judge(run, param.type, param.span)


def _judge(run, ty, span) -> None:
    if ty is None or ty._prod != "TensorType" or ty.place is None or ty.elem._prod != "Scalar":
        return
    model = run.ctx.model
    place = ty.place
    if place._prod == "MemRef":
        devices = [t for t in model.topologies.values() if t.memory == place.name]
    elif place._prod == "TopoRef" and place.name in model.topologies:
        devices = [model.topologies[place.name]]
    else:
        return
    elem = ty.elem.name
    for device in devices:
        if device.dtypes is None or elem in device.dtypes:
            continue
        message = (f"a tensor of {elem} is placed in {device.memory}, the memory of "
                   f"topology '{device.name}', which represents only "
                   f"[{', '.join(device.dtypes)}]")
        # The copies `unroll across` makes share their body's nodes, spans included.
        if not run.state.said.again((span, message)):
            diag = run.ctx.diagnostics.error(
                "E6026", span, message,
                help=[f"use one of its element types, or add {elem} to its `dtypes:`"],
                element=elem, topology=device.name, dtypes=list(device.dtypes))
            run.state.said.said((span, message), diag)
