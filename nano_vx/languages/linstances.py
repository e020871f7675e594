"""Linstances: removes generic parameters (`Fn`, `StructDecl`; an instance is `stage$i32`) and `AppliedType`; only `sizeof<T>()` keeps `targs`."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .lerased import ERASED, Lerased


def generic_of(name: str) -> str:
    """The generic function or struct an instance was made from: `stage$i32` is an instance
    of `stage`, `Cell$Point` of `Cell`; one that was never generic is its own."""
    return name.split("$", 1)[0]


def fit_instances(a: str, b: str) -> bool:
    """Whether a value of one of the structs a and b may stand where the other is asked for,
    as far as their arguments say: the same struct, or two of one generic of which one is
    the generic erased (a generic function's `Cell<T>`, which holds any instance of it) or
    keeps erased each argument the other differs in (`Two$_$Point` and `Two$f64$Point`)."""
    if generic_of(a) != generic_of(b):
        return False
    if a == b or "$" not in a or "$" not in b:
        return True
    return _arguments_match(a, b) or _arguments_match(b, a)


def _arguments_match(pattern: str, name: str) -> bool:
    parts = pattern.split("$")
    return re.fullmatch(r"\$".join(".+" if p == ERASED else re.escape(p) for p in parts),
                        name) is not None


def as_written(name: str) -> str:
    """A struct's name as a message shows it: an instance's as its generic applied to its
    arguments, `Cell<Point>`, `Two<_, Point>`, `Pair<(i32, Point)>` (dumps keep the name,
    which reads back)."""
    head, *args = _split(name)
    if not args:
        return name
    return f"{head}<{', '.join(_shown_argument(a) for a in args)}>"


def _shown_argument(text: str) -> str:
    text = _JOINED.sub(lambda m: m.group().replace("-", " "), text)
    if text.startswith("<"):  # an instance: `<Cell$Point>`
        return _shown_argument(text[1:-1])
    if text.startswith("("):
        return "(" + ", ".join(_shown_argument(e) for e in _split(text[1:-1], ",")) + ")"
    if "<" in text and "$" not in text.split("<", 1)[0]:  # a tensor: `Tensor<i32,[2]>`
        return text.replace(",", ", ")
    return as_written(text)


# A name holds no space, so the words of a type argument are joined by a `-` there, which
# no type writes between two words: `&mut i32` is `&mut-i32`, `*const f32 in Memory::X`
# is `*const-f32-in-Memory::X` (`mut`, `const` and `in` are keywords, so no name is one).
_JOINED = re.compile(r"\b(?:mut|const)-|-in-")
_SPACED = re.compile(r"\b(mut|const)\s+|\s+in\s+")


def spelled_type(text: str) -> str:
    """A type's text as an instance name spells it: `i32`, `Tensor<f32,[4],CPU_DRAM>`,
    `(i32,Point)`, `&mut-i32`."""
    return "".join(_SPACED.sub(lambda m: f"{m[1]}-" if m[1] else "-in-", text).split())


def _split(text: str, sep: str = "$") -> list[str]:
    """text cut at each sep outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([<"
        depth -= c in ")]>"
        if c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


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
        "Type": ["AppliedType"],
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
