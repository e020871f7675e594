"""check-match-arms: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS, VARIANTS
from ..languages.lunrolled import OncePerPlace
from ..languages.ltyped import Ltyped
from ..nanopass import Analysis
from ..source import Span


@dataclass
class State:
    said: OncePerPlace = field(default_factory=OncePerPlace)  # by (span, message)
    enums: dict = field(default_factory=dict)  # name -> EnumDecl


check_match_arms = Analysis("check-match-arms", Ltyped, """
Refuse a `match` that misses a case: a variant of `try_pin`'s result, or values (E3020).

`x.try_pin(Topology::X)` comes back `Available(p)` when a unit of X was free to pin and
`Saturated(v)` when every unit was taken, which depends on what else holds X while the
program runs: no compile-time check can rule either out, so a `match` on it says what
happens in both cases. The message names each arm that is missing. A `match` in the body of
an `unroll across` is in every copy of it, and refused once.

A `match` on a value covers every value too: on an enum, each variant, by the cases whose
patterns together cover what it carries, nested patterns included (`Wrap(Inner::A(_))` and
`Wrap(Inner::B)` cover `Wrap`); on a bool, `true` and `false`; on anything else (an integer),
a case `_` or a name takes what the others do not list. A case `_` or a name covers
everything. The message names, for each variant not covered, a value no case takes
(`Outer::Wrap(Inner::B)`), since a case may take the variant in part.
""", state=State, skip=DESCRIPTIONS)

# What each arm is for, as the help of a refusal says it.
_WHEN = {
    "Available": "`Available(p) => { .. }` runs when a unit was free: `p` is the value pinned "
                 "on it",
    "Saturated": "`Saturated(v) => { .. }` runs when every unit was taken: `v` is the value, "
                 "not pinned",
}


@check_match_arms.on("Program")
def _program(run, node):
    run.state.enums = {i.name: i for i in node.items if i._prod == "EnumDecl"}
    run.descend(node)
    run.state.said.note_copies()


@check_match_arms.on("Match")
def _match(run, node):
    present = {arm.variant for arm in node.arms}
    missing = [v for v in VARIANTS if v not in present]
    if missing:
        arms = " and no ".join(f"`{v}(..)`" for v in missing)
        message = f"this `match` on the result of `try_pin` has no {arms} arm"
        head = node.span
        if head is not None and node.scrutinee.span is not None:  # `match <scrutinee>`
            head = Span(head.source, head.start, node.scrutinee.span.end)
        # The copies `unroll across` makes share their body's nodes, spans included.
        if not run.state.said.again((head, message)):
            diag = run.ctx.diagnostics.error(
                "E3020", head, message, help=[f"add an arm: {_WHEN[v]}" for v in missing],
                missing=missing)
            run.state.said.said((head, message), diag)
    run.descend(node)


@check_match_arms.on("MatchValue")
def _match_value(run, node):
    run.descend(node)
    patterns = [alt for case in node.cases for alt in _alternatives(case.pattern)]
    if any(_takes_all(p) for p in patterns):
        return
    variants = [p for p in patterns if p._prod == "PVariant"]
    bools = _bools(patterns)
    if variants and variants[0].enum in run.state.enums:
        enum = variants[0].enum
        rows = [(p,) for p in patterns]
        enums = run.state.enums
        missing = [f"`{_variant(enum, v, w)}`" for v in enums[enum].variants
                   for w in [_witness(enums, _variant_rows(rows, v), len(v.fields))]
                   if w is not None]
        if not missing:
            return
        message = f"this `match` on a `{enum}` has no case for {', '.join(missing)}"
    elif bools:
        if bools == {True, False}:
            return
        word = "false" if True in bools else "true"
        message, missing = f"this `match` on a bool has no case for `{word}`", [word]
    else:
        message = "this `match` does not cover every value: no case takes the ones it " \
                  "does not list"
        missing = ["_"]
    head = node.span
    if head is not None and node.scrutinee.span is not None:
        head = Span(head.source, head.start, node.scrutinee.span.end)
    run.ctx.diagnostics.error("E3020", head, message,
                              help=["add the cases, or a last case `_ => ..` for the rest"],
                              missing=missing)


def _alternatives(p):
    return [a for alt in p.alts for a in _alternatives(alt)] if p._prod == "POr" else [p]


def _takes_all(p) -> bool:
    return p._prod in ("PWild", "PBind") or p._prod == "POr" and any(map(_takes_all, p.alts))


# A case's patterns nest (`Outer::Wrap(Inner::A(n))`): the cases cover a value when, column by
# column, each variant (or bool) the first column may hold is covered by the cases that
# match it there, on the rest of the row and what the variant carries (Maranget's
# usefulness, for exhaustiveness alone). An integer is covered only by a pattern taking all.
# What is not covered is named by a value no case takes (`Outer::Wrap(Inner::B)`), as Rust
# names one, rather than by the variant alone, which some case may take in part.


def _witness(enums, rows, n: int) -> list[str] | None:
    """None when `rows`, tuples of n patterns for a value's parts in order, cover every
    value; else the patterns of one value's n parts that no row takes (`_` for any)."""
    rows = [(alt, *row[1:]) for row in rows for alt in _alternatives(row[0])] if n else rows
    if not rows:
        return ["_"] * n
    if n == 0:
        return None
    heads = [row[0] for row in rows]
    variant = next((h for h in heads if h._prod == "PVariant"), None)
    if variant is not None and variant.enum in enums:
        for v in enums[variant.enum].variants:
            k = len(v.fields)
            w = _witness(enums, _variant_rows(rows, v), k + n - 1)
            if w is not None:
                return [_variant(variant.enum, v, w[:k]), *w[k:]]
        return None
    bools = _bools(heads)
    if bools:
        for b in (True, False):
            w = _witness(enums, [row[1:] for row in rows if _takes_all(row[0])
                                 or row[0]._prod == "PLit" and row[0].value.value == b], n - 1)
            if w is not None:
                return ["true" if b else "false", *w]
        return None
    w = _witness(enums, [row[1:] for row in rows if _takes_all(row[0])], n - 1)
    return None if w is None else ["_", *w]


def _variant(enum: str, v, parts: list[str]) -> str:
    """The variant v of enum carrying the patterns parts: `E::V`, `E::V(..)` when each
    takes anything, else `E::V(a, b)`."""
    if not v.fields:
        return f"{enum}::{v.name}"
    return f"{enum}::{v.name}(..)" if all(p == "_" for p in parts) else \
        f"{enum}::{v.name}({', '.join(parts)})"


def _variant_rows(rows, variant):
    """The rows that match `variant` in their first column, that column replaced by what it
    carries."""
    return [(*(row[0].args if row[0]._prod == "PVariant" else (row[0],) * len(variant.fields)),
             *row[1:])
            for row in rows
            if _takes_all(row[0]) or row[0]._prod == "PVariant" and row[0].variant == variant.name]


def _bools(patterns) -> set:
    return {p.value.value for p in patterns if p._prod == "PLit" and p.value._prod == "Bool"}
