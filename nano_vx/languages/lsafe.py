"""Lsafe: removes raw pointers and `unsafe`: a pointer is the tensor it points into."""

from __future__ import annotations

from .lnative import Lnative

# erase-raw-pointers made each pointer the rank-1 tensor it points into (`p[i]` is already
# that tensor's element i, `*p` its element 0), and each `unsafe` block a plain one: what
# `unsafe` allows was checked by the front end, and makes no code.
Lsafe = Lnative.extend(
    "Lsafe",
    "Lnative without raw pointers or `unsafe`: a pointer is the tensor it points into",
    remove={
        "Expr": ["Unsafe", "AsPtr"],
        "Stmt": ["UnsafeFn"],
        "Type": ["PtrType"],
    },
)
