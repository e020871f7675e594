"""lower-matches: Lpinned -> Lmatched."""

from __future__ import annotations

from ..languages.lpinned import Lpinned
from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregate_types import settled
from ..scalars.aggregates import Refused


lower_matches = Pass("lower-matches", Lpinned, L, """
Write each `match` as an `if` chain on its cases' patterns, their names bound to the values
they take (E5010 for one it cannot).

`match s { Shape::Circle(r) => e, _ => f }` is `if s is Shape::Circle { let r =
s.Shape::Circle.0; e } else { f }`: `VariantIs` tests an enum's variant, `VariantField` reads
what it carries; a literal pattern is a test of `==`. Its scrutinee is a read of locals or a
literal (name-temporaries named any other), read again by each test and binding.
""")


@lower_matches.on("Fn")
def _fn(run, fn):
    try:
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


@lower_matches.on("ExprStmt")
def _statement(run, node):
    if node.expr._prod != "MatchValue":
        return run.rebuild(node)
    return _chain(run, node.expr, statement=True)


@lower_matches.on("MatchValue")
def _match(run, e):
    return _chain(run, e)


@lower_matches.on("Let", "Return", splice=True)
def _valued(run, node):
    e = node.value
    if e is None or e._prod != "MatchValue" or len(_cases(e)) != 1:
        return (run.rebuild(node),)
    body = _arm(run, _cases(e)[0], e.scrutinee)  # its statements join the block
    return (*body.stmts, node.replace(value=body.value))


def _cases(match) -> list:
    """The cases of match that may run: none after one that takes everything."""
    if not settled(match.scrutinee):  # name-temporaries named any other
        raise Refused(match.scrutinee, "a `match` on a value computed in place")
    cases = list(match.cases)
    for k, case in enumerate(cases):
        if _test(case.pattern, match.scrutinee) is None:
            return cases[:k + 1]
    return cases


def _arm(run, case, place):
    body = run.walk(case.body)
    return body.replace(stmts=(*_binds(case.pattern, place), *body.stmts))


def _chain(run, match, statement=False):
    """The `if` chain on the patterns: an `If` statement, or else an `IfExpr`."""
    place, span, cases = match.scrutinee, match.span, _cases(match)
    if len(cases) == 1:
        body = _arm(run, cases[0], place)
        if statement:
            return L["If"](L["Bool"](True, span=span), False, body, None, span=span)
        if body.stmts:
            raise Refused(match, "a `match` of one case binding names, inside an expression")
        return body.value
    out = _arm(run, cases[-1], place)
    for case in reversed(cases[:-1]):
        made = L["If" if statement else "IfExpr"](_test(case.pattern, place), False,
                                                   _arm(run, case, place), out, span=case.span)
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
