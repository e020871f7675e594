"""The reference interpreter taught one more production: NegInt evaluates as the literal -k.

The interpreter compiles each expression through the handler its table holds for the
production, so a new expression production is one handler, registered on a subclass in a
table extended with the new IL (the table refuses a handler for a production none of its
ILs has). A literal takes the integer type its context fixes (a typed `let`, a parameter)
and wraps at it, exactly as `-k` did before the fold.
"""

import sys

from nano_vx.deep import run_deep
from nano_vx.oracle.interpreter import Interpreter
from nano_vx.values.numbers import INT_TYPES, coerce

from .language import Lnegint

EXPRESSIONS = Interpreter.expressions.extend("the interpreter's expressions", [Lnegint])


class NegIntInterpreter(Interpreter):
    expressions = EXPRESSIONS

    @EXPRESSIONS.on("NegInt")
    def x_NegInt(self, node, scope, hint):
        value = -node.value
        if hint in INT_TYPES:
            value = coerce(value, hint, node.span)
        return lambda frame: value


def run_program(program, *, out=sys.stdout, entry: str = "main") -> int:
    """Run a program in any IL of the chain, Lnegint included; main's return value."""
    return run_deep(lambda: NegIntInterpreter(program, out).run(entry))
