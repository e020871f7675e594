"""defer-early-returned-references: Lmatched -> Lmatched.

Same IL: the `if` statement runs what ran before the `return` where the condition holds and
what followed the `if` where it does not, and the `if` value after it, on a condition that
reads the same again, gives what the `return` or the body's value gave, so the interpreter
runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import lent, strip
from ..scalars.function_locals import changed_locals, computed_from
from ..scalars.storages import bound_locals

defer_early_returned_references = Pass("defer-early-returned-references", L, L, """
Make a function returning a `&mut` to a struct or tuple that returns one early, from an
`if` statement of its body, return it at its end, from an `if` value on the same condition,
so that split-choice-statements finds its statements before the choice.

`fn early(p: &mut Pair, first: bool) -> &mut Point { if first { print(1); return &mut p.a;
} &mut p.b }` is `fn early(..) -> &mut Point { if first { print(1); } if first { &mut p.a }
else { &mut p.b } }`: native code returns one reference, where one to a struct is one per
part, which split-returned-references or inline-returned-references makes of a choice at
the function's end. It is for one `if` statement (with or without `else`) whose first arm
ends with the function's only `return`, whose condition reads only literals and parameters
by value that nothing assigns or lends (it reads the same again), where what the `return`
gives reads no local its arm binds, nor the body's value one bound after the `if` (the rest
of the body goes into the `else`).
""")


@defer_early_returned_references.on("Fn")
def _fn(run, fn):
    body = fn.body
    if not lent(fn.ret) or body.value is None:
        return fn
    leaving = [at for at, s in enumerate(body.stmts)
               if any(n._prod == "Return" for n in descendants(s))]
    if len(leaving) != 1 or any(n._prod == "Return" for n in descendants(body.value)):
        return fn
    at = leaving[0]
    s = body.stmts[at]
    if s._prod != "If" or s.comptime or s.then.value is not None or not s.then.stmts:
        return fn
    last, before = s.then.stmts[-1], s.then.stmts[:-1]
    if last._prod != "Return" or last.value is None or \
            any(n._prod == "Return" for t in before for n in descendants(t)) or \
            not computed_from(s.cond, _values(fn)):
        return fn
    orelse = s.orelse if s.orelse is not None else L["Block"]((), None, span=s.span)
    rest = orelse.replace(stmts=orelse.stmts + body.stmts[at + 1:])
    if _reads(last.value) & set(bound_locals(s.then)) or \
            _reads(body.value) & set(bound_locals(rest)):
        return fn
    stated = s.replace(then=s.then.replace(stmts=before), orelse=rest if rest.stmts else None)
    value = L["IfExpr"](s.cond, False, L["Block"]((), last.value, span=last.span),
                        L["Block"]((), body.value, span=body.value.span), span=s.span)
    stmts = body.stmts[:at] + ((stated,) if before or rest.stmts else ())
    return fn.replace(body=body.replace(stmts=stmts, value=value))


def _values(fn) -> set:
    """fn's parameters by value that nothing in its body assigns or lends."""
    changed = changed_locals(fn)
    return {p.name for p in fn.params if p.name not in changed and
            (strip(p.type) is None or strip(p.type)._prod not in ("BorrowType", "PtrType"))}


def _reads(e) -> set:
    return {n.name for n in descendants(e) if n._prod == "Local"}
