"""The type a place gives the unsuffixed literals of the value put there, as the interpreter
gives it (a struct's field, an enum variant's value, a constant's declared type): written
out as casts, for where the value is taken out of that place before type-scalars sees it
(`S { a: 1000000 * 10000, .. }.a` of an `a: i64` is `1000000 as i64 * 10000 as i64`)."""

from __future__ import annotations

from ..values.literal_ranges import holders, integer_literal, refuse_out_of_range
from ..values.numbers import INT_TYPES
from .terms import FLOATS

# The type an unsuffixed literal is where nothing fixes its type.
UNFIXED = {"Int": "i32", "Float": "f64"}


def hinted(lang, e, ty):
    """e with each literal the scalar type `ty` reaches cast to it."""
    if e._prod in ("Int", "Float"):
        return cast(lang, e, ty)
    return through(e, lambda x: hinted(lang, x, ty)) or e


def cast(lang, e, ty):
    """e as a `ty`; a literal of the type an unsuffixed one has already, and a scalar
    constant, typed as its declaration says, are left as they are."""
    if UNFIXED.get(e._prod) == ty.name or e._prod == "Global":
        return e
    return lang["Cast"](e, ty, span=e.span)


def settled(lang, e):
    """e, a value nothing types but its own literals (a tuple literal's element: the
    interpreter gives it no type from where it is used), computed as those literals are
    typed alone: `(1000000 * 10000, 0.1).0` is an i32, which a later use of another type
    does not change (type-scalars refuses such a use). A lone literal is left as it is: its
    value is the same in any type it takes."""
    kinds = literal_kinds(e)
    if e._prod in ("Int", "Float") or kinds is None or len(kinds) != 1:
        return e
    return lang["Cast"](e, lang["Scalar"](UNFIXED[kinds.pop()], span=e.span), span=e.span)


def literal_kinds(e) -> set | None:
    """The kinds of literal ("Int", "Float") that type e, when nothing else does: None
    when something else (a variable, a call, a cast) reaches e's type."""
    if e._prod in ("Int", "Float"):
        return {e._prod}
    found = []
    if through(e, lambda x: found.append(literal_kinds(x)) or x) is None or None in found:
        return None
    return set().union(*found)


def through(e, f):
    """e with f applied to each operand its type reaches, as the interpreter passes a type
    on: through arithmetic (a shift's amount has a type of its own) and the values of an
    `if`'s or a `match`'s arms; None for an e that passes its type to none."""
    p = e._prod
    if p == "Unary" and e.op == "-":
        return e.replace(operand=f(e.operand))
    if p == "Binary" and e.op in ("+", "-", "*", "/", "%", "&", "|", "^"):
        return e.replace(left=f(e.left), right=f(e.right))
    if p == "Binary" and e.op in ("<<", ">>"):
        return e.replace(left=f(e.left))
    if p == "IfExpr" and e.then.value is not None and e.orelse.value is not None:
        return e.replace(then=e.then.replace(value=f(e.then.value)),
                         orelse=e.orelse.replace(value=f(e.orelse.value)))
    if p == "MatchValue" and all(c.body.value is not None for c in e.cases):
        return e.replace(cases=tuple(c.replace(body=c.body.replace(value=f(c.body.value)))
                                     for c in e.cases))
    return None


def typed_literals(lang, value, scalar, diagnostics):
    """value with each unsuffixed literal of scalar's kind that scalar (a Scalar) reaches cast
    to it, as the interpreter types the literals under a `let` of that type (`-128` one
    literal, as `-128i8` would be): without it an integer would be an i32 and wrap, a float an
    f64 and round otherwise. An integer the type cannot hold is E3008, and is left as it is."""
    if integer_literal(value) is not None:
        if scalar.name in INT_TYPES and _fits(value, scalar, diagnostics):
            return cast(lang, value, scalar)
        return value
    if value._prod == "Float":
        return cast(lang, value, scalar) if scalar.name in FLOATS else value
    return through(value, lambda e: typed_literals(lang, e, scalar, diagnostics)) or value


def _fits(value, scalar, diagnostics) -> bool:
    """Whether the integer literal `value` fits the integer type `scalar`; E3008 when it does
    not."""
    t, n = INT_TYPES[scalar.name], integer_literal(value)
    if t.lo <= n <= t.hi:
        return True
    text = value.span.source.text[value.span.start:value.span.end] if value.span else str(n)
    wider = holders(n, t)
    refuse_out_of_range(diagnostics, value.span, text, t,
                        help=[f"use a type that holds it, such as `{wider[0].name}`"] if wider
                        else ["no integer type holds it"])
    return False
