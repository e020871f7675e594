"""What makes an instance of a generic function itself, once a call's binding is known (as
`generic_arguments.py` works it out): its name, the generic's with each argument after a `$`
(`stage$i32`, `scores$4`, `pipeline$GPU$CPU$Island`), and its where clauses, naming the
topologies it was made for. monomorphize makes the instances."""

from __future__ import annotations

from ..dump.text import to_text
from ..languages.linstances import Linstances, spelled_type, topology_name


def instance_name(fn, binding: dict) -> str:
    """The name of the instance of the generic `fn` that `binding` asks for."""
    return fn.name + "".join("$" + _spelled(binding[g.name]) for g in fn.generics)


def concrete_bound(bound, binding: dict):
    """A where clause with its topology parameters replaced by what they are bound to (a
    function that is not generic binds nothing: its clause names topologies already)."""
    src, dst = (b if (b := binding.get(n)) is not None and type(b) is not int
                and b._prod == "TopoRef"
                else Linstances["TopoRef"](n, None, None, span=bound.span)
                for n in (bound.src, bound.dst))
    return Linstances["ReachableBound"](src, dst, f"Reachable<{bound.src}, {bound.dst}>",
                                        span=bound.span)


def _spelled(value) -> str:
    """A generic argument as an instance name spells it: `i32`, `4`, `true`, `GPU`, `NPU[0]`,
    `&mut-i32`; one naming an instance in `<..>`, so that its arguments are told from the
    outer one's (`Cell$<Cell$Point>`, `Two$<Cell$Point>$i32`)."""
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) in (int, float):
        return str(value)
    if value._prod == "TopoRef":
        return topology_name(value)
    text = spelled_type(to_text(value))
    return f"<{text}>" if "$" in text else text
