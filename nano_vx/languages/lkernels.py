"""Lkernels: a `spawn on` body is a kernel function of its own, and the spawn a launch of it."""

from __future__ import annotations

from ..nanopass import prod
from .lscheduled import Lscheduled

Lkernels = Lscheduled.extend(
    "Lkernels",
    "Lscheduled with kernels outlined: Spawn becomes Launch of an `on` function",
    remove={"Expr": ["Spawn"]},
    add={
        "Expr": [prod("Launch", "kernel: iname, topo: Topo, args: Expr*",
                      "run the kernel function on the topology with the values it captures "
                      "(a variable moved away given as such, which stops the kernel where it "
                      "reads it, as the spawn's body stopped), or a `&mut` of a variable the "
                      "body changes, whose parameter's `*p` is that variable: a Transfer of "
                      "`*p` moves it, as the body's `transfer` of it did (elsewhere a Transfer "
                      "of `*p` copies); its value is placed there, as a spawn's was")],
    },
)
