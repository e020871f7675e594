"""check-declared-tiles: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.ltyped import Ltyped
from ..nanopass import Analysis
from ..values.sizes import rounded, tensor_bytes
from ..placement.types import Machine, space_of

check_declared_tiles = Analysis("check-declared-tiles", Ltyped, """
Refuse a parameter, result or struct field whose type is a tile larger than its space (E6009).

A tensor type that places its value in a bounded space (`Tensor<f32, [N], Memory::SMEM>`, or
spelled by the device) names a tile no value can ever be: no call can pass one, no function
return one, no struct hold one. check-capacity refuses the tiles a program places; this
refuses the declarations, so a function nothing calls yet is judged too. The size counts the
space's granule.
""", requires=("model",))


@check_declared_tiles.on("Program")
def _program(run, node):
    machine = Machine(run.ctx.model)
    for item in node.items:
        if item._prod == "Fn":
            for p in item.params:
                _judge(run, machine, p.type, p.span, f"parameter '{p.name.split('#')[0]}'")
            if item.ret is not None:
                _judge(run, machine, item.ret, item.ret.span, f"the result of '{item.name}'")
        elif item._prod == "StructDecl":
            for f in item.fields:
                _judge(run, machine, f.type, f.span, f"field '{f.name}' of '{item.name}'")


def _judge(run, machine, ty, span, what: str) -> None:
    if ty is None or ty._prod != "TensorType":
        return
    space = run.ctx.model.spaces.get(space_of(ty, machine) or "")
    size = tensor_bytes(ty)
    if space is None or space.capacity is None or size is None:
        return
    footprint = rounded(size, space.granule)
    if footprint > space.capacity:
        run.ctx.diagnostics.error(
            "E6009", span, f"{what} is a tensor of {footprint} bytes, but memory space "
                           f"'{space.name}' has capacity {space.capacity} bytes",
            help=["split the tensor into tiles that fit, or place it in a larger space"],
            space=space.name, required=footprint, available=space.capacity,
            margin=space.capacity - footprint)
