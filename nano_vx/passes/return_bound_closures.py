"""return-bound-closures: Lsplit -> Lsplit.

Same IL: a closure value is made when its `let` runs, and nothing runs between that `let`
and the block's value, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants

return_bound_closures = Pass("return-bound-closures", L, L, """
Make a block whose value is the local its last statement binds by a `let` to a closure give
that closure as its value.

`|y: i32| { let h = || run(y); h }` is `|y: i32| { || run(y) }`: capture-environments
lowers a closure given back by the closure around it, reading that closure's parameters and
`let`s, where that closure's value is the closure itself, and type-scalars refuses another. The `let`
is the block's last statement and its local the value, named nowhere else, so the closure
is made where it was, nothing running between. A `let mut`, or a `let` of a written type, stays.
""")


@return_bound_closures.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    value, last = block.value, block.stmts[-1] if block.stmts else None
    if value is None or value._prod != "Local" or last is None or last._prod != "Let" or \
            last.name != value.name or last.mutable or last.value._prod != "Closure" or \
            last.type is not None and last.type._prod != "OpaqueType" or \
            any(n._prod == "Local" and n.name == last.name for n in descendants(last.value)):
        return block
    return block.replace(stmts=block.stmts[:-1], value=last.value)
