"""fold-sizeof: Linstances -> Lmono."""

from __future__ import annotations

from dataclasses import dataclass

from ..dump.text import to_text
from ..languages import Linstances, Lmono
from ..nanopass import Pass
from ..values.sizes import type_bytes


@dataclass
class State:
    builtin: bool = True  # `sizeof` is the builtin: no function of the program has its name


fold_sizeof = Pass("fold-sizeof", Linstances, Lmono, """
Replace `sizeof<T>()` by the number of bytes of a T, and drop every call's generic arguments
(E3047 for a T without a static size).

After monomorphize T is the instance's type, so `sizeof<T>()` in `bytes_of<T>` is `4` in
`bytes_of$f32`. It takes one type, a scalar or a tensor with numbers for extents, and no
argument; anything else is E3047 (and the call is `0`). A function of the program named
`sizeof` is called as any other.
""", state=State)


@fold_sizeof.on("Program")
def _program(run, node):
    run.state.builtin = not any(i._prod == "Fn" and i.name == "sizeof" for i in node.items)
    return run.rebuild(node)


@fold_sizeof.on("Call")
def _call(run, node):
    callee = node.callee
    if run.state.builtin and callee._prod == "Global" and callee.name == "sizeof":
        return _size_of(run, node)
    return Lmono["Call"](run.walk(callee), run.walk_seq(node.args), span=node.span)


def _size_of(run, call):
    targ = call.targs[0] if len(call.targs) == 1 and not call.args else None
    size = type_bytes(targ.type) if targ is not None and targ._prod == "TypeArg" else None
    if size is None:
        shown = ", ".join(to_text(t).strip() for t in call.targs)
        run.ctx.diagnostics.error(
            "E3047", call.span, f"`sizeof<{shown}>()` has no size: it takes one type, a "
                                f"scalar or a tensor with numbers for extents, and no argument",
            help=["write `sizeof<f32>()` or `sizeof<Tensor<f32, [4, 4]>>()`"])
        size = 0
    return Lmono["Int"](size, span=call.span)
