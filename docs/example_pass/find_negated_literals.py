"""find-negated-literals: every `-k` on an integer literal still in an Lnegint tree."""

from dataclasses import dataclass, field

from nano_vx.nanopass import Analysis

from .language import Lnegint


@dataclass
class Found:
    negated: list = field(default_factory=list)  # Unary('-', Int(k)) nodes, in walk order


find_negated_literals = Analysis(
    "find-negated-literals",
    Lnegint,
    """Find every `-k` on an integer literal: after fold-negative-literals there is none.

    Lnegint cannot forbid the pattern (a grammar of productions has no "except"), so the
    pass's promise is checked by looking. The result is the state: `collect(tree).negated`.
    """,
    state=Found,
)


@find_negated_literals.on("Unary")
def _unary(run, node):
    if node.op == "-" and node.operand._prod == "Int":
        run.state.negated.append(node)
    run.descend(node)  # the operand may hold another one: -(-5)
