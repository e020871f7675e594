"""Lresolved: removes `Var` (and `ReturnValue`, now the Local `return`); adds `Local` (unique per function), `Global`; binders and extents take `uname`s."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .ltransfers import Ltransfers

_UNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(#[0-9]+)?\Z")


def is_uname(v) -> bool:
    return type(v) is str and _UNAME.match(v) is not None


def display_name(name: str) -> str:
    """A name as the programmer wrote it: resolve-names' `x#1` is the user's `x`."""
    return name.split("#", 1)[0]


def unused_name(base: str, taken: set[str], tried: dict[str, int] | None = None) -> str:
    """`base`, or the first of `base#1`, `base#2`, ... (numbered as resolve-names numbers a
    user's locals) that `taken` lacks; added to `taken`: a local a pass makes. A caller that
    makes many names from one `taken` (which only grows) hands every call the same `tried`,
    where each base's search stopped: the next search starts there, so k names of one base
    (a counter for each of k loops over `i`) cost k steps, not k * k / 2."""
    n = tried.get(base, 0) if tried is not None else 0
    name = f"{base}#{n}" if n else base
    while name in taken:
        n += 1
        name = f"{base}#{n}"
    taken.add(name)
    if tried is not None:
        tried[base] = n
    return name


Lresolved = Ltransfers.extend(
    "Lresolved",
    "Ltransfers with names resolved: Local(x#n) for locals, unique per function; Global for items",
    terminals=[Terminal("uname", is_uname, "a local's unique name: x, x#1, x#2, ...")],
    remove={"Expr": ["Var", "ReturnValue"], "Stmt": ["Let", "For"], "Param": ["Param"], "Pattern": ["PBind"],
            "Dim": ["DimName"]},
    add={
        "Expr": [
            prod("Local", "name: uname", "a local variable or parameter of this function; "
                                         "`return`, in an `ensures`, is the result"),
            prod("Global", "name: fname", "a function, const item, other item, or builtin"),
        ],
        "Stmt": [
            prod("Let", "name: uname, mutable: bool, type: Type?, value: Expr"),
            prod("For", "var: uname, start: Expr, end: Expr, body: Block"),
        ],
        "Param": [prod("Param", "name: uname, type: Type?")],
        "Pattern": [prod("PBind", "name: uname")],
        "Dim": [prod("DimName", "name: uname", "a local's unique name, or a const item's or a "
                                                "const generic's as written")],
    },
)
