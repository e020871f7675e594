"""inline-returned-references: Lmatched -> Lmatched.

Same IL: the choice written at the call chooses the place the function chose, from the same
arguments at the same point, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, rebuild
from ..scalars.aggregates import Names, Shapes, lent, live_items
from ..scalars.returned_references import quiet, returned_parts


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # a function returning such a choice -> the Fn
    inlined: set = field(default_factory=set)  # those a call of which was written out
    names: Names | None = None  # the fresh locals of the function walked


inline_returned_references = Pass("inline-returned-references", L, L, """
Write a call of a function returning a `&mut` to a struct or tuple, choosing among places of
its `&mut` parameters, as that choice where a `let` binds the call's result or an
assignment gives it to a local.

`let r = pick(&mut q, true); shift(r, 1);`, with `fn pick(p: &mut Pair, first: bool) ->
&mut Point { if first { &mut p.a } else { &mut p.b } }`, is `let r = if true { &mut q.a }
else { &mut q.b }; shift(r, 1);`: native code returns one value, where the reference is one
per part, and a `&mut` local bound to a choice of places is one local per part
(scalarize-aggregates). It is for what split-returned-references left: a result passed on
or assigned whole, arguments that change while it lives, conditions reading through the
`&mut` parameters (the choice is made once, where the call was). A `&mut` argument must be a local or a reference to a local's place, which
the choice names as the call did; an argument by value more than a literal or a local is
held in a `let` first, computed once as the call computed it. A function no call calls any
more is dropped, and one called otherwise stays (E5010 in scalarize-aggregates).
""", state=State)


@inline_returned_references.on("Program")
def _program(run, program):
    st, shapes = run.state, Shapes(program)
    st.fns = {i.name: i for i in program.items
              if i._prod == "Fn" and returned_parts(i, shapes, reading=True) is not None}
    if not st.fns:
        return program
    made = run.rebuild(program)
    return made.replace(items=live_items(made.items, st.inlined)) if st.inlined else made


@inline_returned_references.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    return run.rebuild(fn)


@inline_returned_references.on("Let", splice=True)
def _let(run, let):
    made = run.rebuild(let)
    held, value = _choice(run, made.value)
    if value is made.value:
        return (made,)
    # A temporary's type, not written (`~_`), is the function's: a `&mut`, which a copy of
    # the place's values is not.
    ty = made.type if lent(made.type) else run.state.fns[made.value.callee.name].ret
    return (*held, made.replace(type=ty, value=value))


@inline_returned_references.on("Assign", splice=True)
def _assign(run, node):
    made = run.rebuild(node)
    if node.op != "=" or node.target._prod != "Local":
        return (made,)
    held, value = _choice(run, made.value)
    return (*held, made.replace(value=value))


def _choice(run, e) -> tuple:
    """The choice the function e calls makes, its parameters read as e's arguments, and the
    `let`s before it holding each argument by value that is more than a literal or a local
    (computed once, in order, as the call computed it); e itself where it calls no such
    function or a `&mut` argument is no reference to a local's place."""
    st = run.state
    if e._prod != "Call" or e.callee._prod != "Global" or e.callee.name not in st.fns:
        return (), e
    fn = st.fns[e.callee.name]
    if len(e.args) != len(fn.params) or not all(
            quiet(a) for p, a in zip(fn.params, e.args) if lent(p.type)):
        return (), e
    st.inlined.add(fn.name)
    given, held = {}, []
    for p, a in zip(fn.params, e.args):
        if not quiet(a):
            held.append(L["Let"](st.names.fresh(p.name), False, p.type, a, span=a.span))
            a = L["Local"](held[-1].name, span=a.span)
        given[p.name] = a

    def put(n):
        if n._prod == "Local" and n.name in given:
            return given[n.name]
        if n._prod in ("FieldGet", "TupleGet"):  # `p.a`, p given `&mut q`: `q.a`
            base = rebuild(n.base, put)
            return n.replace(base=base.value if base._prod == "Borrow" else base)
        if n._prod == "Deref":  # `*p`, p given `&mut q`: `q`
            value = rebuild(n.value, put)
            return value.value if value._prod == "Borrow" else n.replace(value=value)
        return None

    return tuple(held), rebuild(fn.body.value, put)
