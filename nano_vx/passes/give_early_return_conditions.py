"""give-early-return-conditions: Lmatched -> Lmatched.

Same IL: the condition is the first thing the function computed, and its arguments read the
same again (literals, locals, references to places of variables), so the function of its
own computing it just before the call reads what the function read, and the function then
takes what it computed."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, Shapes, fresh_item, lent
from ..scalars.function_locals import changed_locals, place_root
from ..scalars.returned_references import quiet
from ..scalars.storages import fresh_copy


@dataclass
class State:
    conds: dict = field(default_factory=dict)  # a function given its condition -> its computer
    names: Names | None = None  # the fresh locals of the function walked


give_early_return_conditions = Pass("give-early-return-conditions", L, L, """
Make a function returning a `&mut` to a struct or tuple that returns early from an `if` statement of its
body, on a condition read through its `&mut` parameters or of parameters its body changes,
take that condition as a `bool` parameter, which a function of its own computes just before
each call after the statements before the `if`, so that defer-early-returned-references
finds a condition that reads the same again.

`fn early(p: &mut Pair) -> &mut Point { if p.a.x > 0 { p.a.x = 0 - 5; return &mut p.a; }
&mut p.b }` is `fn early$cond(p: &mut Pair) -> bool { p.a.x > 0 }` and `fn early(p: &mut
Pair, cond: bool) -> &mut Point { if cond { .. } &mut p.b }`, and `let r = early(&mut q);`
is `let cond = early$cond(&mut q); let r = early(&mut q, cond);`: the statements of the arm
may change what the condition reads, so it cannot be read again at the function's end. It
is for a function whose only `return` ends the first arm of that `if`, whose condition
reads only literals, parameters (their fields, through `*`) and locals the statements before
it bind, by arithmetic (`/` and `%` too: the interpreter computes the condition after those
statements, after arguments that compute nothing, so one that stops stops there),
comparisons and logic, called only as what a `let` or an assignment to a local stores, each
argument a literal, a local or a reference to a place of a variable. Those statements (`p.b.x
+= 1; if p.a.x / p.b.x > 0 { .. }`) run first, in the function computing the condition,
once: they may write through the `&mut` parameters, which the call lends again, but not
assign or lend one by value (the function's own copy) nor make one refer elsewhere, nor
bind a local the rest of the function reads.
""", state=State)

_READ = ("Int", "Float", "Bool", "Local", "FieldGet", "TupleGet", "Deref", "Unary", "Binary")


@give_early_return_conditions.on("Program")
def _program(run, program):
    st, shapes = run.state, Shapes(program)
    calls = [n.value for n in descendants(program) if _stores(n) and n.value._prod == "Call"
             and n.value.callee._prod == "Global"]
    # A function named other than as the callee of such a call (a value, a call elsewhere)
    # is left as it is.
    callees = {id(c.callee) for c in calls}
    elsewhere = {n.name for n in descendants(program)
                 if n._prod == "Global" and id(n) not in callees}
    taken = {i.name for i in program.items if hasattr(i, "name")}
    for fn in (i for i in program.items if i._prod == "Fn"):
        if fn.name not in elsewhere and shapes.of(fn.ret) is not None and \
                _returns_early(fn) and all(
                    len(c.args) == len(fn.params) and all(map(quiet, c.args))
                    for c in calls if c.callee.name == fn.name):
            st.conds[fn.name] = fresh_item(f"{fn.name}$cond", taken)
    if not st.conds:
        return program
    made = run.rebuild(program)
    return made.replace(items=tuple(chain.from_iterable(
        (_computer(i, st.conds[i.name]), _given(i)) if i._prod == "Fn" and i.name in st.conds
        else (i,) for i in made.items)))


def _stores(s) -> bool:
    """Whether s is a `let` or an assignment to a local, whose value a call's statement
    computed just before can follow."""
    return s._prod == "Let" or s._prod == "Assign" and s.target._prod == "Local"


def _returns_early(fn) -> bool:
    """Whether fn returns a `&mut` from its only `return`, ending the first arm of an `if`
    statement after statements that run first (`_first`), on a condition of parameters, one
    lent or changed, and of locals those statements bind."""
    if fn.on is not None or not lent(fn.ret) or not fn.body.stmts:
        return False
    k = _opening(fn)
    s = fn.body.stmts[k]
    if s._prod != "If" or s.comptime or not s.then.stmts or \
            s.then.stmts[-1]._prod != "Return" or \
            sum(n._prod == "Return" for n in descendants(fn.body)) != 1:
        return False
    bound = _first(fn, k)
    if bound is None:
        return False
    read = {n.name for n in descendants(s.cond) if n._prod == "Local"}
    params = {p.name: p for p in fn.params}
    return all(n._prod in _READ for n in (s.cond, *descendants(s.cond))) and \
        read <= params.keys() | bound and \
        (any(x in params and lent(params[x].type) for x in read) or
         bool(read & (changed_locals(fn) | bound)))


def _opening(fn) -> int:
    """The index of fn's first statement holding a `return`, or its last."""
    return next((k for k, s in enumerate(fn.body.stmts)
                 if any(n._prod == "Return" for n in descendants(s))),
                len(fn.body.stmts) - 1)


def _first(fn, k: int) -> set | None:
    """The locals the statements before fn's k-th bind, which run first, before the
    condition, in the function computing it: None where they assign or lend a parameter by
    value (the function's own copy) or make one refer elsewhere, or bind a local the rest
    reads, which a call given the condition would not run them for."""
    by_value = {p.name for p in fn.params if not lent(p.type)}
    params = {p.name for p in fn.params}
    for s in fn.body.stmts[:k]:
        for n in descendants(s):
            whole = n.target if n._prod == "Assign" else n.value if n._prod == "Borrow" \
                and n.mutable else None
            if whole is not None and (whole._prod == "Local" and whole.name in params or
                                      place_root(whole) in by_value):
                return None
    bound = {s.name for s in fn.body.stmts[:k] if s._prod == "Let"}
    rest = fn.body.replace(stmts=fn.body.stmts[k + 1:])
    arms = (fn.body.stmts[k].then, fn.body.stmts[k].orelse)
    read = {n.name for b in (rest, *arms) if b is not None
            for n in descendants(b) if n._prod == "Local"}
    return None if bound & read else bound


def _computer(fn, name: str):
    """The function running fn's first statements, then computing its condition."""
    k = _opening(fn)
    cond = fn.body.stmts[k].cond
    return fn.replace(name=name, ret=L["Scalar"]("bool", span=cond.span),
                      body=L["Block"](fn.body.stmts[:k], cond, span=cond.span))


def _given(fn):
    """fn, its first statements gone and its condition a `bool` parameter of its own."""
    k = _opening(fn)
    s = fn.body.stmts[k]
    given = Names(fn).fresh("cond")
    param = L["Param"](given, L["Scalar"]("bool", span=s.cond.span), span=s.cond.span)
    s = s.replace(cond=L["Local"](given, span=s.cond.span))
    return fn.replace(params=(*fn.params, param),
                      body=fn.body.replace(stmts=(s, *fn.body.stmts[k + 1:])))


@give_early_return_conditions.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    return run.rebuild(fn)


@give_early_return_conditions.on("Let", "Assign", splice=True)
def _stored(run, s):
    made = run.rebuild(s)
    if not _stores(made):
        return (made,)
    first, value = _computed_first(run, made.value)
    return (*first, made.replace(value=value))


def _computed_first(run, e) -> tuple:
    """The `let` computing, before e, the condition of the function e calls, and e given
    it; nothing and e where e calls no function given its condition."""
    st = run.state
    if e._prod != "Call" or e.callee._prod != "Global" or e.callee.name not in st.conds:
        return (), e
    callee = L["Global"](st.conds[e.callee.name], span=e.callee.span)
    held = L["Let"](st.names.fresh("cond"), False, L["Scalar"]("bool", span=e.span),
                    L["Call"](callee, tuple(map(fresh_copy, e.args)), span=e.span), span=e.span)
    return (held,), e.replace(args=(*e.args, L["Local"](held.name, span=e.span)))
