"""split-choice-statements: Lmatched -> Lmatched.

Same IL: the statements run once, where the call ran them, on the same arguments, and then
the choice is made on arguments that read the same again and parameters the statements do
not assign, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, Shapes, fresh_item, lent
from ..scalars.returned_references import quiet, returned_parts
from ..scalars.storages import fresh_copy


@dataclass
class State:
    runs: dict = field(default_factory=dict)  # a function split -> the one running its statements
    fns: dict = field(default_factory=dict)  # the program's functions by name
    names: Names | None = None  # the fresh locals of the function walked


split_choice_statements = Pass("split-choice-statements", L, L, """
Make a function returning a `&mut` to a struct or tuple that runs statements before it
chooses among places of its `&mut` parameters two: one running the statements, called as a
statement just before each call, and the choice alone, which split-returned-references or
inline-returned-references then lowers.

`fn loud(p: &mut Pair, first: bool) -> &mut Point { print(first); if first { &mut p.a }
else { &mut p.b } }` is `fn loud$run(p: &mut Pair, first: bool) { print(first); }` and `fn
loud(..) -> &mut Point { if first { &mut p.a } else { &mut p.b } }`, and `let r = loud(&mut
q, true);` is `loud$run(&mut q, true); let r = loud(&mut q, true);`. It is for a function
whose statements return nothing and assign no parameter (nor lend one), called only as
what a `let` or an assignment to a local stores, its `&mut` arguments references to places
of variables, no local it is given by value lent by another; an argument by value more than
a literal or a local is computed into a `let` first (and then each but literals, in order),
so that both calls read the same.
""", state=State)


@split_choice_statements.on("Program")
def _program(run, program):
    st, shapes = run.state, Shapes(program)
    fns = st.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    stored = [n.value for n in descendants(program)
              if n._prod == "Let" or n._prod == "Assign" and n.target._prod == "Local"]
    named = {}
    for n in descendants(program):
        if n._prod == "Global" and n.name in fns:
            named[n.name] = named.get(n.name, 0) + 1
    taken = {i.name for i in program.items if hasattr(i, "name")}
    for name, fn in fns.items():
        calls = [c for c in stored if c._prod == "Call" and c.callee._prod == "Global"
                 and c.callee.name == name]
        if fn.on is None and fn.body.stmts and fn.body.value is not None and \
                named.get(name) == len(calls) and _splits(fn, shapes) and \
                all(_again(c, fn) for c in calls):
            st.runs[name] = fresh_item(f"{name}$run", taken)
    if not st.runs:
        return program
    made = run.rebuild(program)
    items = []
    for item in made.items:
        if item._prod == "Fn" and item.name in st.runs:
            items += [item.replace(name=st.runs[item.name], ret=None,
                                   body=item.body.replace(value=None)),
                      item.replace(body=item.body.replace(stmts=()))]
        else:
            items.append(item)
    return made.replace(items=tuple(items))


def _splits(fn, shapes: Shapes) -> bool:
    """Whether fn's value chooses among places of its `&mut` parameters (by conditions on
    its parameters) and its statements return nothing and assign or lend no parameter."""
    if returned_parts(fn.replace(body=fn.body.replace(stmts=())), shapes, reading=True) is None:
        return False
    params = {p.name for p in fn.params}
    by_value = {p.name for p in fn.params if not lent(p.type)}
    for s in fn.body.stmts:
        for n in descendants(s):
            whole = n.target if n._prod == "Assign" else n.value if n._prod == "Borrow" \
                else None
            if n._prod == "Return" or whole is not None and (
                    whole._prod == "Local" and whole.name in params or
                    _root(whole) in by_value):
                return False
    return True


def _root(e):
    """The local a place is a part of, through fields, elements and `*`; None for another."""
    while e._prod in ("FieldGet", "TupleGet", "Index", "Deref"):
        e = e.base if e._prod != "Deref" else e.value
    return e.name if e._prod == "Local" else None


def _again(call, fn) -> bool:
    """Whether each `&mut` argument of the call names the same place when read again (a
    reference to a place of a variable), and no local given by value is one another lends."""
    if len(call.args) != len(fn.params) or \
            not all(quiet(a) for p, a in zip(fn.params, call.args) if lent(p.type)):
        return False
    lent_roots = {_root(a.value) for a in call.args if a._prod == "Borrow"}
    return not any(a._prod == "Local" and a.name in lent_roots for a in call.args)


@split_choice_statements.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    return run.rebuild(fn)


@split_choice_statements.on("Let", splice=True)
def _let(run, let):
    made = run.rebuild(let)
    first, value = _run_first(run, made.value)
    return (*first, made.replace(value=value))


@split_choice_statements.on("Assign", splice=True)
def _assign(run, node):
    made = run.rebuild(node)
    if node.target._prod != "Local":
        return (made,)
    first, value = _run_first(run, made.value)
    return (*first, made.replace(value=value))


def _run_first(run, e) -> tuple:
    """The statements computing, before e, its arguments by value that a second read might
    not read the same (each held in a `let`, in order, as the call computed them, every one
    but literals once one is), and the call of the function running the statements of the
    function e calls; and e, given those `let`s' locals. Nothing and e where e calls no
    function split."""
    st = run.state
    if e._prod != "Call" or e.callee._prod != "Global" or e.callee.name not in st.runs:
        return (), e
    params = st.fns[e.callee.name].params
    holding = not all(quiet(a) for a in e.args)
    held, args = [], []
    for p, a in zip(params, e.args):
        if not lent(p.type) and (holding and a._prod not in ("Int", "Float", "Bool")
                                 or not quiet(a)):
            held.append(L["Let"](st.names.fresh(p.name), False, p.type, a, span=a.span))
            a = L["Local"](held[-1].name, span=a.span)
        args.append(a)
    callee = L["Global"](st.runs[e.callee.name], span=e.callee.span)
    call = L["Call"](callee, tuple(fresh_copy(a) for a in args), span=e.span)
    return (*held, L["ExprStmt"](call, span=e.span)), e.replace(args=tuple(args))
