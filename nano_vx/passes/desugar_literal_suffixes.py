"""desugar-literal-suffixes: Lshaped -> Lplain."""

from __future__ import annotations

from ..languages import Lplain, Lshaped
from ..nanopass import Pass
from ..values.literal_ranges import holders, integer_literal, refuse_out_of_range
from ..values.numbers import INT_TYPES

L = Lplain

desugar_literal_suffixes = Pass("desugar-literal-suffixes", Lshaped, Lplain, """
Make each literal with a written type (`0i64`, `10f32`, `0xFFu8`) a plain literal cast to it,
once it fits the type (E3008).

`300u16` is `300 as u16`, and means the same: the literal is a value of that type. What the
cast does not say, the pass checks first: an integer literal must fit its suffix, counting a
minus written before it (`-128i8` fits, `128i8` and `256u8` do not: E3008, naming the literal
and the type's range), so the cast never wraps one. A float suffix on an integer literal makes
it a float (`10f32` is `10.0 as f32`).
""")


@desugar_literal_suffixes.on("Unary")
def _unary(run, node):
    operand = node.operand
    if node.op == "-" and operand._prod == "Suffixed" and operand.value._prod == "Int":
        return L["Unary"]("-", _desugared(run, operand, -operand.value.value, minus=True),
                          span=node.span)
    return run.rebuild(node)


@desugar_literal_suffixes.on("Suffixed")
def _suffixed(run, node):
    # The parser puts a minus outside the Suffixed; a hand-written IL may put it inside.
    return _desugared(run, node, integer_literal(node.value))


def _desugared(run, node, value, minus=False):
    """The cast of the plain literal, once an integer's value (negated when a minus is
    written before it, `minus`) is known to fit the suffix."""
    t = INT_TYPES.get(node.suffix)
    if t is not None and value is not None and not t.lo <= value <= t.hi:
        if node.span:
            text = node.span.source.text[node.span.start:node.span.end]
            shown = f"-{text}" if minus else text
        else:
            shown = f"{value}{node.suffix}"
        refuse_out_of_range(
            run.ctx.diagnostics, node.span, shown, t,
            help=[f"use a suffix whose type holds it, such as `{_wider(value, t)}`"])
    literal = run.walk(node.value)
    return L["Cast"](literal, L["Scalar"](node.suffix, span=node.span), span=node.span)


def _wider(value: int, written) -> str:
    """The smallest type that holds the value, of the written one's signedness if one does."""
    fits = holders(value, written)
    return fits[0].name if fits else "f64"
