"""Lshaped: Linitialised without `TensorCall`; every tensor constructor names its whole type."""

from __future__ import annotations

from ..nanopass import prod
from .linitialised import Linitialised

Lshaped = Linitialised.extend(
    "Lshaped",
    "Linitialised with each `Tensor<..>(..)` call written as the constructor or the literal it is, "
    "with all its extents",
    remove={"Expr": ["TensorCall"]},
    add={"Expr": [prod("TensorLit", "type: Type, elems: Expr*",
                       "`Tensor<f32, [2, 2]>([[1.0, 2.0], [3.0, 4.0]])`: the tensor's whole "
                       "type and its elements in row-major order")]},
)
