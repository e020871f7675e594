"""Contracts at run time: `requires`, `ensures` and `invariant` clauses, checked when the run
asks for it (`--check-contracts`) and otherwise skipped, as a compiled program skips them.

A clause is a statement at the start of the body it guards (see lsrc). `requires` is
checked on entry, `invariant` at the start of every iteration, `ensures` when the function
returns, over the result (`return`) and the parameters as they were on entry: the
postcondition speaks of the call, whatever the body did to its parameters since.
"""

from __future__ import annotations

from ..comptime.errors import written
from ..languages.lsrc import contract_clauses
from ..values.stops import stop
from .expressions import EXPRESSIONS
from .statements import STATEMENTS


def _skip(f):
    return None


class ContractMixin:
    """The interpreter's rules for contracts; `self.check_contracts` says whether to check."""

    @STATEMENTS.on("Requires")
    def s_Requires(self, node, sc):
        return self._clause(node, sc, "requires", "is false on entry")

    @STATEMENTS.on("Invariant")
    def s_Invariant(self, node, sc):
        return self._clause(node, sc, "loop invariant", "is false at the start of an iteration")

    @STATEMENTS.on("Ensures")
    def s_Ensures(self, node, sc):
        return _skip  # checked when the function returns (ensured)

    @EXPRESSIONS.on("ReturnValue")
    def x_ReturnValue(self, node, sc, hint):
        return self.name_value("return", sc, node.span)

    def _clause(self, node, sc, word: str, when: str):
        if not self.check_contracts:
            return _skip
        cond, span, truth = self.expr(node.cond, sc), node.span, self.truth
        message = f"{word} `{written(node.cond)}` {when}"

        def check(f):
            if not truth(cond(f), span):
                stop("E9007", span, message)
        return check

    def ensured(self, block, sc, compile_body):
        """A function body that checks its `ensures` clauses when it returns. `sc` holds the
        parameters and nothing else yet; `compile_body()` compiles the body in it."""
        ensures = [c for c in contract_clauses(block) if c._prod == "Ensures"]
        if not self.check_contracts or not ensures:
            return compile_body()
        entry = sc.nslots  # slots 1 .. entry-1: the parameters (and const generics)
        result = sc.declare("return")  # not an identifier: no variable of the body meets it
        # Compiled before the body, so that a `let` of the body cannot shadow a parameter.
        checks = [(self.expr(c.cond, sc), c.span, f"ensures `{written(c.cond)}` is false when "
                   f"the function returns") for c in ensures]
        body, truth = compile_body(), self.truth

        def run(f):
            on_entry = f[1:entry]
            value = body(f)
            g = list(f)
            g[1:entry] = on_entry
            g[result] = value
            for cond, span, message in checks:
                if not truth(cond(g), span):
                    stop("E9007", span, message)
            return value
        return run
