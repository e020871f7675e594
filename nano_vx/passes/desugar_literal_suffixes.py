"""desugar-literal-suffixes: Lshaped -> Lplain."""

from __future__ import annotations

from ..languages import Lplain, Lshaped
from ..nanopass import Pass
from ..values.numbers import INT_TYPES

L = Lplain

desugar_literal_suffixes = Pass("desugar-literal-suffixes", Lshaped, Lplain, """
Make each literal with a written type (`0i64`, `10f32`, `0xFFu8`) a plain literal cast to it.

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
        return L["Unary"]("-", _desugared(run, operand, -operand.value.value), span=node.span)
    return run.rebuild(node)


@desugar_literal_suffixes.on("Suffixed")
def _suffixed(run, node):
    value = node.value.value if node.value._prod == "Int" else None
    return _desugared(run, node, value)


def _desugared(run, node, value):
    """The cast of the plain literal, once an integer's value (negated when a minus is
    written before it) is known to fit the suffix."""
    t = INT_TYPES.get(node.suffix)
    if t is not None and value is not None and not t.lo <= value <= t.hi:
        text = node.span.source.text[node.span.start:node.span.end] if node.span else \
            f"{node.value.value}{node.suffix}"
        shown = f"-{text}" if value < 0 else text
        run.ctx.diagnostics.error(
            "E3008", node.span,
            f"literal out of range for `{t.name}`: `{shown}` does not fit into `{t.name}`, "
            f"whose range is {t.lo}..={t.hi}",
            help=[f"use a suffix whose type holds it, such as `{_wider(value, t)}`"],
            literal=shown, type=t.name, range=[t.lo, t.hi])
    literal = run.walk(node.value)
    return L["Cast"](literal, L["Scalar"](node.suffix, span=node.span), span=node.span)


def _wider(value: int, written) -> str:
    """The smallest type that holds the value, of the written one's signedness if one does."""
    fits = [t for t in INT_TYPES.values() if t.lo <= value <= t.hi]
    fits.sort(key=lambda t: (t.signed != written.signed, t.bits))
    return fits[0].name if fits else "f64"
