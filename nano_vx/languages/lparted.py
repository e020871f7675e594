"""Lparted: removes `VariantIs` and `VariantField` and adds `GiveBack`, a tensor a function
returns through an out-parameter."""

from __future__ import annotations

from ..nanopass import prod
from .lmatched import Lmatched

Lparted = Lmatched.extend(
    "Lparted",
    "Lmatched without the reads of an enum, its tag and payload locals of their own, and with "
    "a tensor given back through an out-parameter",
    remove={"Expr": ["VariantIs", "VariantField"]},
    add={"Stmt": [prod("GiveBack", "param: uname, value: Expr",
                       "`*param = value` as the function ends: the tensor value, which no one "
                       "else holds, given back through the out-parameter param, a `&mut` to "
                       "the caller's tensor")]},
)
