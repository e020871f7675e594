"""desugar-value-matches: Ltyped -> Ltyped.

Same IL: a `match` on an enum stays, so `MatchValue` is still in it; this pass only rewrites
the ones whose patterns are numbers and bools."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.ltyped import Ltyped
from ..nanopass import Pass, descendants

L = Ltyped


@dataclass
class State:
    made: int = 0  # scrutinees named so far, in this function
    taken: set = field(default_factory=set)  # the names the function binds
    refs: dict = field(default_factory=dict)  # local -> how many references its type is in


desugar_value_matches = Pass("desugar-value-matches", Ltyped, Ltyped, """
Write a `match` on a number or a bool as the scrutinee in a variable and an `if` chain.

`let r = match e { 0 => a, 1 | 2 => b, n => c };` is `let match#1 = e; let r = if match#1 ==
0 { a } else if match#1 == 1 || match#1 == 2 { b } else { let n = match#1; c };`. e is
evaluated once; the cases are tried in order; a case `_` or a name takes the rest, and the
last case is the `else` (check-match-arms made sure the cases cover every value). A
variable holding a reference (`n: &i32`) is matched by the value it names, as in Rust: its
variable is `let match#1 = *n;`, so the tests compare numbers. A first
case that takes everything runs alone: its statements join the enclosing block. Only a
`match` whose value goes straight to a `let`, an assignment, a `return`, a statement or a
block's end is rewritten, since the variable's `let` goes before the statement; a `match` on
an enum stays as it is. The `if` chain is what native code lowers.
""", state=State)


@desugar_value_matches.on("Fn")
def _fn(run, node):
    run.state.made = 0
    run.state.taken = {n.var if n._prod == "For" else n.name for n in descendants(node)
                       if n._prod in ("Let", "Param", "PBind", "For")}
    run.state.refs = {n.name: _depth(n.type) for n in descendants(node)
                      if n._prod in ("Let", "Param") and n.type is not None and
                      _depth(n.type)}
    return run.rebuild(node)


def _depth(ty) -> int:
    """How many references `ty` is in: 1 for `&i32`, 2 for `&&i32`."""
    n = 0
    while ty._prod == "BorrowType":
        n, ty = n + 1, ty.inner
    return n


def _scalar(node) -> bool:
    """A `match` whose patterns are all numbers, bools, `_`, names and `|` of them."""
    def plain(p):
        return p._prod in ("PWild", "PBind", "PLit") or \
            p._prod == "POr" and all(plain(a) for a in p.alts)
    if node is None or node._prod != "MatchValue" or not node.cases or \
            not all(plain(c.pattern) for c in node.cases):
        return False
    # A first case that takes everything runs alone: it needs a value to leave in place.
    first = node.cases[0]
    return first.pattern._prod not in ("PWild", "PBind") or first.body.value is not None


def _named(run, match):
    """(the `let` of the scrutinee's variable, a read of it)."""
    st = run.state
    st.made += 1
    while f"match#{st.made}" in st.taken:  # a hand-written IL may bind one already
        st.made += 1
    name, span = f"match#{st.made}", match.scrutinee.span
    value = run.walk(match.scrutinee)
    if value._prod == "Local":
        for _ in range(st.refs.get(value.name, 0)):
            value = L["Deref"](value, span=span)
    let = L["Let"](name, False, L["OpaqueType"](span=match.span), value,
                   span=match.span)  # the type's span the let's: inferred (see _body)
    return let, (lambda: L["Local"](name, span=span))


def _rewritten(run, match, read):
    """(statements to run first, the value): the case that takes everything when it is the
    first, its statements joining the enclosing block (names are unique); else no statement
    and the `if` chain."""
    first = match.cases[0]
    if first.pattern._prod not in ("PWild", "PBind"):
        return (), _chain(run, match, read)
    body = _body(run, first, read)
    return body.stmts, body.value


def _chain(run, match, read):
    """The `if` chain of the cases, from the last one (the `else`) back."""
    cases = list(match.cases)
    for k, case in enumerate(cases):  # what follows a case that takes everything never runs
        if case.pattern._prod in ("PWild", "PBind"):
            cases = cases[:k + 1]
            break
    out = _body(run, cases[-1], read)
    for case in reversed(cases[:-1]):
        cond = _test(case.pattern, read)
        out = L["Block"]((), L["IfExpr"](cond, False, _body(run, case, read), out,
                                         span=case.span), span=case.span)
    return out.value  # an `if` (two cases at least: see _rewritten)


def _test(pattern, read):
    if pattern._prod == "POr":
        tests = [_test(a, read) for a in pattern.alts]
        out = tests[0]
        for t in tests[1:]:
            out = L["Binary"]("||", out, t, span=pattern.span)
        return out
    if pattern._prod == "PLit":
        return L["Binary"]("==", read(), pattern.value, span=pattern.span)
    return L["Bool"](True, span=pattern.span)


def _body(run, case, read):
    body = run.walk(case.body)
    if case.pattern._prod != "PBind":
        return body
    # The type carries the let's own span: an inferred type, as infer-placement marks one.
    span = case.pattern.span
    bind = L["Let"](case.pattern.name, False, L["OpaqueType"](span=span), read(), span=span)
    return body.replace(stmts=(bind, *body.stmts))


@desugar_value_matches.on("Let", "Assign", "Return", "ExprStmt", splice=True)
def _stmt(run, node):
    field = "expr" if node._prod == "ExprStmt" else "value"
    match = getattr(node, field)
    # An assignment to an element evaluates its indices after the value: the scrutinee's
    # `let` would come first, so only a variable's assignment is rewritten.
    if not _scalar(match) or node._prod == "Assign" and node.target._prod != "Local":
        return (run.rebuild(node),)
    let, read = _named(run, match)
    rest = run.rebuild(node.replace(**{field: L["Bool"](True, span=node.span)}))
    first, value = _rewritten(run, match, read)
    return (let, *first, rest.replace(**{field: value}))


@desugar_value_matches.on("Block")
def _block(run, node):
    if not _scalar(node.value):
        return run.rebuild(node)
    stmts = run.rebuild(node.replace(value=None)).stmts
    let, read = _named(run, node.value)
    first, value = _rewritten(run, node.value, read)
    return L["Block"]((*stmts, let, *first), value, span=node.span)
