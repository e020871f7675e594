"""What a Vx kernel computes, by the reference interpreter: the outputs `nano-vx spatial
prog.vx` holds the bridged graph's outputs to, input by input."""

from __future__ import annotations

import io

import numpy as np

from ..oracle.interpreter import Interpreter
from ..spatial.ops import NUMPY_DTYPES
from ..oracle.references import Ref
from ..values.numbers import unplace
from ..values.tensors import make_tensor, tensor_of


def run_kernel(program, name: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Call the kernel `name` of `program` (any IL the interpreter runs) with `inputs` (by
    parameter name; an output parameter starts as zeros, as a spatial output does) and give
    back its `&mut` parameters' tensors. A run-time stop propagates as RuntimeStop."""
    interp = Interpreter(program, io.StringIO())
    fn = interp.functions[name]
    args, outputs = [], {}
    for p in fn.node.params:
        out = p.type._prod == "BorrowType"
        ty = p.type.inner if out else p.type
        elem, dims = ty.elem.name, [d.value for d in ty.dims]
        space = ty.place.name if ty.place is not None else None
        if out:
            t = make_tensor(elem, dims, "new", [], space, p.span)
            outputs[p.name] = (t, elem)
            args.append(Ref([t], 0, True))
        else:
            values = np.asarray(inputs[p.name]).reshape(-1).tolist()
            args.append(tensor_of(elem, dims, values, space, p.span))
    fn.call(args, [], fn.node.span)
    return {n: _array(t, elem) for n, (t, elem) in outputs.items()}


def _array(t, elem: str) -> np.ndarray:
    flat = [unplace(t.read(off, None)) for off in range(t.size())]
    return np.array([getattr(v, "v", v) for v in flat],
                    dtype=NUMPY_DTYPES[elem]).reshape(t.dims)
