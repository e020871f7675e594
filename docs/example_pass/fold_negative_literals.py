"""fold-negative-literals: `-k` on an integer literal becomes the one literal NegInt(k)."""

from nano_vx.languages import Lresolved
from nano_vx.nanopass import Pass

from .language import Lnegint

NegInt = Lnegint["NegInt"]

fold_negative_literals = Pass(
    "fold-negative-literals",
    Lresolved,
    Lnegint,
    """Fold `-k`, for an integer literal k, into the literal NegInt(k).

    A later range check can then accept `let m: i8 = -128;` by looking at one literal,
    where `-(128)` would have to be recognised as a pattern: 128 alone does not fit an i8.
    """,
)


@fold_negative_literals.on("Unary")
def _unary(run, node):
    if node.op == "-" and node.operand._prod == "Int":
        return NegInt(node.operand.value, span=node.span)
    return run.rebuild(node)  # any other Unary: the automatic clause
