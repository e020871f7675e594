"""lower-matches: Lassumed -> Lmatched."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lassumed import Lassumed
from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregate_types import settled
from ..scalars.aggregates import Names, Refused


@dataclass
class State:
    names: Names | None = None


lower_matches = Pass("lower-matches", Lassumed, L, """
Write each `match` as an `if` chain on its cases' patterns, their names bound to the values
they take (E5001 for one it cannot).

`match s { Shape::Circle(r) => e, _ => f }` is `if s is Shape::Circle { let r =
s.Shape::Circle.0; e } else { f }`: `VariantIs` tests an enum's variant, `VariantField` reads
what it carries; a literal pattern is a test of `==`. A scrutinee computed by more than reads
of locals is held in a local first, which the statement the `match` is the value of computes
before it; inside a larger expression it is refused.
""", state=State)


@lower_matches.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    try:
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _lowered(e) -> bool:
    return e is not None and e._prod == "MatchValue"


def _held(run, match):
    """The `let` holding match's scrutinee, if it needs one, and the match reading it."""
    if settled(match.scrutinee):
        return [], match
    name = run.state.names.fresh("matched")
    span = match.scrutinee.span
    let = L["Let"](name, False, L["OpaqueType"](span=span), run.walk(match.scrutinee),
                   span=span)
    return [let], match.replace(scrutinee=L["Local"](name, span=span))


@lower_matches.on("ExprStmt", "Let", "Assign", "Return", splice=True)
def _statement(run, node):
    value = node.expr if node._prod == "ExprStmt" else node.value
    if not _lowered(value):
        return (run.rebuild(node),)
    held, match = _held(run, value)
    if node._prod == "ExprStmt":
        return (*held, _chain(run, match, statement=True))
    if node._prod == "Assign":
        node = node.replace(target=run.walk(node.target))
    return (*held, node.replace(value=_chain(run, match)))


@lower_matches.on("Block")
def _block(run, block):
    if not _lowered(block.value):
        return run.rebuild(block)
    stmts = tuple(s for stmt in block.stmts for s in _spliced(run.walk(stmt)))
    held, match = _held(run, block.value)
    return block.replace(stmts=(*stmts, *held), value=_chain(run, match))


def _spliced(out) -> tuple:
    return out if isinstance(out, tuple) else (out,)


@lower_matches.on("MatchValue")
def _match(run, e):
    if not settled(e.scrutinee):
        raise Refused(e, "a `match` on a value computed inside an expression")
    return _chain(run, e)


def _chain(run, match, statement=False):
    """The `if` chain on the variant: an `If` statement, or else an `IfExpr`."""
    place, span = match.scrutinee, match.span
    cases = list(match.cases)
    for k, case in enumerate(cases):  # what follows a case that takes everything never runs
        if _test(case.pattern, place) is None:
            cases = cases[:k + 1]
            break

    def arm(case):
        body = run.walk(case.body)
        return body.replace(stmts=(*_binds(case.pattern, place), *body.stmts))
    if len(cases) == 1:
        body = arm(cases[0])
        if statement:
            return L["If"](L["Bool"](True, span=span), False, body, None, span=span)
        if body.stmts:
            raise Refused(match, "a `match` of one case binding names, inside an expression")
        return body.value
    out = arm(cases[-1])
    for case in reversed(cases[:-1]):
        made = L["If" if statement else "IfExpr"](_test(case.pattern, place), False,
                                                   arm(case), out, span=case.span)
        out = L["Block"]((made,), None, span=case.span) if statement else \
            L["Block"]((), made, span=case.span)
    return out.stmts[0] if statement else out.value


def _test(pattern, place):
    """The condition under which the value at `place` matches, None when it always does."""
    p, span = pattern._prod, pattern.span
    if p in ("PWild", "PBind"):
        return None
    if p == "PLit":
        return L["Binary"]("==", place, pattern.value, span=span)
    if p == "POr":
        tests = [_test(a, place) for a in pattern.alts]
        if None in tests:
            return None
        out = tests[0]
        for t in tests[1:]:
            out = L["Binary"]("||", out, t, span=span)
        return out
    out = L["VariantIs"](place, pattern.enum, pattern.variant, span=span)
    for k, sub in enumerate(pattern.args):
        test = _test(sub, _payload(pattern, place, k))
        if test is not None:
            out = L["Binary"]("&&", out, test, span=span)
    return out


def _payload(pattern, place, k):
    return L["VariantField"](place, pattern.enum, pattern.variant, k, span=pattern.span)


def _binds(pattern, place) -> list:
    p, span = pattern._prod, pattern.span
    if p == "PBind":
        return [L["Let"](pattern.name, False, L["OpaqueType"](span=span), place, span=span)]
    if p == "PVariant":
        return [b for k, sub in enumerate(pattern.args)
                for b in _binds(sub, _payload(pattern, place, k))]
    if p == "POr" and any(_binds(a, place) for a in pattern.alts):
        raise Refused(pattern, "a pattern `|` that binds names")
    return []
