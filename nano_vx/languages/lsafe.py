"""Lsafe: removes raw pointers and `unsafe`: a pointer is the tensor it points into."""

from __future__ import annotations

from ..nanopass import prod
from .lnative import Lnative

# erase-raw-pointers made each pointer the tensor it points into seen as one dimension
# (`p[i]` is already that tensor's element i in row-major order, `*p` its element 0): a
# rank-1 tensor of static extent itself, any other Flattened; and each `unsafe` block a plain
# one: what `unsafe` allows was checked by the front end, and makes no code.
Lsafe = Lnative.extend(
    "Lsafe",
    "Lnative without raw pointers or `unsafe`: a pointer is the tensor it points into, seen "
    "as one dimension",
    remove={
        "Expr": ["Unsafe", "AsPtr"],
        "Stmt": ["UnsafeFn"],
        "Type": ["PtrType"],
    },
    add={
        "Expr": [prod("Flatten", "value: Expr",
                      "the tensor's elements in row-major order as one dimension of `?` "
                      "extent, sharing its buffer (a write through either is seen through "
                      "both)")],
    },
)
