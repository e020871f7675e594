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

A `match` on a value covers every value too: on an enum, each variant has a case (one whose
pattern takes whatever the variant carries); on a bool, `true` and `false`; on anything else
(an integer), a case `_` or a name takes what the others do not list. A case `_` or a name
covers everything.
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
    bools = {p.value.value for p in patterns if p._prod == "PLit" and p.value._prod == "Bool"}
    if variants and variants[0].enum in run.state.enums:
        enum = variants[0].enum
        covered = {p.variant for p in variants if all(_takes_all(a) for a in p.args)}
        missing = [f"`{enum}::{v.name}{'(..)' if v.fields else ''}`"
                   for v in run.state.enums[enum].variants if v.name not in covered]
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
