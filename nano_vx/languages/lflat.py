"""Lflat: Ltraitless without `Impl`; a function of an impl block is a top-level function."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .ltraitless import Ltraitless

_PATH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)?\Z")


def is_path_name(v) -> bool:
    return type(v) is str and _PATH_NAME.match(v) is not None


Lflat = Ltraitless.extend(
    "Lflat",
    "Ltraitless without Impl: `impl S { fn f() .. }` became the function `S::f`, its impl's "
    "generic parameters first, `Self` written out",
    terminals=[Terminal("fname", is_path_name,
                        "an identifier, or `Type::f`: a function of an impl block")],
    remove={"Item": ["Impl", "Fn"], "Expr": ["Var"]},
    add={"Item": [prod("Fn", "name: fname, generics: GParam*, params: Param*, on: Topo?, "
                             "ret: Type?, bounds: Bound*, body: Block")],
         "Expr": [prod("Var", "name: fname")]},
)
