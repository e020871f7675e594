"""An integer literal against the types that can hold it, as check-literal-ranges and
desugar-literal-suffixes both judge it: its value, `-N` being the one literal -N as in
Rust; the types that would hold it; E3008 when the type it has cannot."""

from __future__ import annotations

from .numbers import INT_TYPES, IntType


def integer_literal(e) -> int | None:
    """The value of an integer literal or of a minus on one (`-128` is one literal, never
    128 negated); None for any other expression."""
    if e._prod == "Unary" and e.op == "-" and e.operand._prod == "Int":
        return -e.operand.value
    return e.value if e._prod == "Int" else None


def holders(value: int, like: IntType) -> list[IntType]:
    """The integer types that hold `value`, those as signed as `like` first, each the
    narrowest first: what a repair offers (not i128, which no program names)."""
    fits = [u for u in INT_TYPES.values() if u.lo <= value <= u.hi and u.bits <= 64]
    fits.sort(key=lambda u: (u.signed != like.signed, u.bits))
    return fits


def refuse_out_of_range(diagnostics, span, text: str, t: IntType, *, help, notes=()):
    """Report E3008 for the literal written `text`, which type t cannot hold; its data names
    the literal, the type and the range. The diagnostic."""
    return diagnostics.error(
        "E3008", span, f"literal out of range for `{t.name}`: `{text}` does not fit into "
                       f"`{t.name}`, whose range is {t.lo}..={t.hi}",
        notes=notes, help=help, literal=text, type=t.name, range=[t.lo, t.hi])
