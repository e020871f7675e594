"""Linstances: removes generic parameters (`Fn`, `StructDecl`; an instance is `stage$i32`); only `sizeof<T>()` keeps `targs`."""

from __future__ import annotations

from ..nanopass import Terminal, prod
from .lerased import Lerased


def generic_of(name: str) -> str:
    """The generic function or struct an instance was made from: `stage$i32` is an instance
    of `stage`, `Cell$Point` of `Cell`; one that was never generic is its own."""
    return name.split("$", 1)[0]


def topology_name(ref) -> str:
    """A topology reference as instance names spell it: `GPU`, `NPU[0]` (an index that is
    not a literal is left out)."""
    index = ref.index
    return ref.name + (f"[{index.value}]" if index is not None and index._prod == "Int" else "")


Linstances = Lerased.extend(
    "Linstances",
    "Lerased without generic parameters: each generic function is replaced by one instance "
    "per distinct argument list it is called with, its where clauses naming concrete "
    "topologies; a struct keeps none. A call keeps generic arguments only as `sizeof<T>()`, "
    "T the instance's",
    terminals=[
        Terminal("clause", lambda v: type(v) is str, "a where clause as written"),
    ],
    remove={
        "GParam": ["TypeParam", "ConstParam"],
        "Bound": ["ReachableBound"],
        "Expr": ["Global"],
        "Item": ["Fn", "StructDecl"],
    },
    add={
        "Item": [prod("Fn", "name: iname, params: Param*, on: Topo?, ret: Type?, "
                            "bounds: Bound*, body: Block",
                      "a function of the program, or an instance of a generic one"),
                 prod("StructDecl", "name: tname, fields: Param*, copy: bool",
                      "a generic struct's parameters are dropped: a field of type `T` is "
                      "of any type")],
        "Bound": [prod("ReachableBound", "src: Topo, dst: Topo, written: clause",
                       "where Reachable<src, dst>, the topologies the instance was made "
                       "for; written: the clause as the generic spells it")],
        "Expr": [prod("Global", "name: iname", "a function (an instance too), const item, or "
                                              "builtin")],
    },
)
