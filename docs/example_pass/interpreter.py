"""The reference interpreter taught one more production: NegInt evaluates as the literal -k.

The interpreter compiles each production through a method `x_<Prod>`, so a new expression
production is one method on a subclass. A literal takes the integer type its context fixes
(a typed `let`, a parameter) and wraps at it, exactly as `-k` did before the fold.
"""

import sys

from nano_vx.deep import run_deep
from nano_vx.oracle.interpreter import Interpreter
from nano_vx.values.numbers import INT_TYPES, coerce


class NegIntInterpreter(Interpreter):
    def x_NegInt(self, node, scope, hint):
        value = -node.value
        if hint in INT_TYPES:
            value = coerce(value, hint, node.span)
        return lambda frame: value


def run_program(program, *, out=sys.stdout, entry: str = "main") -> int:
    """Run a program in any IL of the chain, Lnegint included; main's return value."""
    return run_deep(lambda: NegIntInterpreter(program, out).run(entry))
