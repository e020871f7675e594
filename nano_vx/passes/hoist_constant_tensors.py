"""hoist-constant-tensors: Lconstparts -> Lconstparts.

Same IL: a tensor a constant's literal holds is a constant of its own, which the interpreter
computes once, at its first read, as it computed the whole constant once."""

from __future__ import annotations

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass
from ..scalars.aggregates import Shapes, fresh_item, is_tensor
from ..scalars.constant_values import calls, computed, may_stop

hoist_constant_tensors = Pass("hoist-constant-tensors", L, L, """
Give each tensor that the literal of a constant holding a struct, a tuple or an enum makes
as one of its parts a constant of its own, read where the literal made it, when the value
calls no function and may not stop the run: `const C: H = H { t: Tensor<f32, [3]>([1.0,
2.0]), n: 2 };` is `const C_t: Tensor<f32, [3]> = Tensor<f32, [3]>([1.0, 2.0]);` and
`const C: H = H { t: @C_t, n: 2 };`.

The interpreter computes a constant's value once, at its first read, and every read shares
the buffer of the tensor in it: a write through a copy (`let mut a = C; a.t[0] = 5.0;`)
shows in `C.t`. inline-aggregate-constants makes each read of an aggregate constant its
literal, which would make the tensor again at each read; a constant of its own, the tensor
is made once, at the first read of the part, and kept in a global every read shares
(select-instructions). A value that calls nothing and cannot stop computes nothing a program
sees but the tensor, so when the tensor is made is not seen either; split-computed-constants
computed any other value holding one tensor at its first read, and inline-aggregate-constants
refuses what is left.
""")


@hoist_constant_tensors.on("Program")
def _program(run, program):
    shapes = Shapes(program)
    consts = [i for i in program.items if i._prod == "ConstItem" and i.value is not None]
    scalars = {i.name: i.value for i in consts if shapes.of(i.type) is None}
    taken = {i.name for i in program.items if "name" in i._fields}
    items = []
    for item in program.items:
        shape = shapes.of(item.type) if item._prod == "ConstItem" and item.value is not None \
            else None
        nodes = computed(item.value, scalars) if shape is not None else ()
        if shape is None or not any(map(is_tensor, shape.leaves())) or calls(nodes) or \
                any(map(may_stop, nodes)):
            items.append(item)
            continue
        made = []
        value = _hoisted(item.value, shape, item.name, taken, made)
        items.extend([*made, item.replace(value=value)])
    return program.replace(items=tuple(items)) if len(items) > len(program.items) else program


def _hoisted(e, shape, path: str, taken: set, made: list):
    """e, a part of a constant's literal of this shape at `path`, each tensor it makes as a
    part of it a read of a constant of its own, appended to `made`."""
    if shape.kind == "leaf":
        if not is_tensor(shape.leaf) or e._prod not in ("TensorNew", "TensorLit"):
            return e
        name = fresh_item(path, taken)
        made.append(L["ConstItem"](name, shape.leaf, e, span=e.span))
        return L["Global"](name, span=e.span)
    if e._prod == "StructLit" and shape.kind == "struct":
        return e.replace(fields=tuple(
            f.replace(value=_hoisted(f.value, shape.part(f.name), f"{path}_{f.name}", taken,
                                     made)) for f in e.fields))
    if e._prod == "Tuple" and shape.kind == "tuple":
        return e.replace(elems=tuple(_hoisted(x, shape.part(k), f"{path}_{k}", taken, made)
                                     for k, x in enumerate(e.elems)))
    if e._prod == "EnumValue" and shape.kind == "enum":
        variant = shape.part(e.variant)
        return e.replace(args=tuple(
            _hoisted(x, variant.part(k), f"{path}_{e.variant}_{k}", taken, made)
            for k, x in enumerate(e.args)))
    return e
