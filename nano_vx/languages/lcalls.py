"""Lcalls: replaces `Call` and `Launch` by `Builtin` and `CallFn`, calls that say what they
call (a function of the runtime, or one of the program and whether it nests calls), and adds
`NoAliasParam`, a parameter no other argument of a call shares."""

from __future__ import annotations

from ..nanopass import prod
from .ldrops import Ldrops

Lcalls = Ldrops.extend(
    "Lcalls",
    "Ldrops with each call a call of the runtime's or of the program's, the latter marked "
    "when its callee calls or launches functions of the program, and the tensor parameters "
    "no other argument of a call shares marked",
    remove={"Expr": ["Call", "Launch"]},
    add={"Param": [prod("NoAliasParam", "name: uname, type: Type",
                        "a tensor parameter whose buffer no other argument of any call of its "
                        "function shares, and which it never keeps in a cell (LLVM's noalias)")],
         "Expr": [
        prod("Builtin", "name: name, args: Expr*",
             "a function of the runtime: `print`, or a math built-in (exp, log, sqrt, ..)"),
        prod("CallFn", "callee: iname, args: Expr*, launch: Topo?, nests: bool",
             "a call of the program's function callee, one level deeper than its caller "
             "(E9006 past the limit), or with `launch` its launch on that topology; nests: "
             "callee calls or launches functions of the program, so the depth its call "
             "reached is kept while it runs"),
    ]},
)
