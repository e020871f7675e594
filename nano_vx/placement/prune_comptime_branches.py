"""prune-comptime-branches: Lerased -> Lerased, a helper rewrite of monomorphize.

Not in the pipeline: monomorphize runs it (`Pass.rewrite`) on each instance it makes, once
substitute-generic-parameters has made the instance's consts literals, and before it walks the
instance's body for the calls that ask for more instances.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..comptime import ComptimeError, Evaluator
from ..languages import Lerased
from ..nanopass import Pass


@dataclass
class Pruning:
    evaluator: Evaluator  # the program's: decides the conditions


prune = Pass("prune-comptime-branches", Lerased, Lerased, """
Keep, of each `if comptime` an instance decides, only the branch its condition takes.

An instance's consts are literals by now, so `if comptime N > 1 { .. }` is decided in each
instance. The branch not taken becomes an empty block (or goes, when it is an `else` of a
statement), so that it asks for no instance, and the condition becomes its value (`if comptime
false`): where N is 1 it does not call the generic again,
which is how a recursion over a const stops at its base case. What that branch names is never
looked up either, so it may name what does not exist. A condition that cannot be computed
while compiling is left as it is, for desugar-comptime to explain.
""", state=Pruning)


@prune.on("If", "IfExpr")
def _if(run, node):
    taken = _decided(run.state.evaluator, node.cond) if node.comptime else None
    if taken is None:
        return run.rebuild(node)
    empty = Lerased["Block"]((), None, span=node.then.span)
    then = run.walk(node.then) if taken else empty
    orelse = run.walk(node.orelse) if not taken and node.orelse is not None else \
        (empty if node._prod == "IfExpr" else None)
    # The condition is written as the value it has: the interpreter runs what the evaluator
    # decided (`Reachable<A, B>` needs the memory model, which the interpreter has not).
    return node.replace(cond=Lerased["Bool"](taken, span=node.cond.span), then=then,
                        orelse=orelse)


def _decided(evaluator: Evaluator, cond) -> bool | None:
    """The condition's value when it is known while compiling; None when it is not, or
    cannot be computed."""
    try:
        value = evaluator.value(cond)
    except ComptimeError:
        return None
    return value if type(value) is bool else None
