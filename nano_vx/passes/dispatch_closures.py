"""dispatch-closures: Lfunctions -> Llifted."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lfunctions import Lfunctions
from ..languages.llifted import Llifted as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.closures import binder_types, signature, zero


@dataclass
class State:
    numbers: dict = field(default_factory=dict)  # a function used as a value -> its number
    members: dict = field(default_factory=dict)  # signature -> its functions used as values
    dispatchers: dict = field(default_factory=dict)  # signature -> its dispatching function
    made: list = field(default_factory=list)  # the dispatchers the function walked needs
    types: dict = field(default_factory=dict)  # the function's locals -> their types
    fn: object = None
    taken: set = field(default_factory=set)  # the names of the program's functions


dispatch_closures = Pass("dispatch-closures", Lfunctions, L, """
Make each closure value the number of its function, and each call through one a call of the
function that calls the closure that number names (defunctionalization).

The functions used as values with one signature (the closure's parameters and the captures
every closure of that signature reads, and its result) are numbered 1, 2, .. in program order,
and `@g$closure<n>` as a value is its number, an `i32`. A call through a value, `f(x, k)`, is
`@g$call<m>(f, x, k)`, the dispatcher of its signature, whose `if` tests on the number call
that function, passed the same; with no function of the signature used as a value, it gives
the zero of its result (no closure of it is ever made).
""", state=State)


@dispatch_closures.on("Program")
def _program(run, program):
    st = run.state
    fns = {item.name: item for item in program.items if item._prod == "Fn"}
    st.taken = set(fns)
    callees = {id(n.callee) for n in descendants(program) if n._prod == "Call"}
    for n in descendants(program):
        if n._prod == "Global" and id(n) not in callees and n.name in fns \
                and n.name not in st.numbers:
            members = st.members.setdefault(_full(fns[n.name]), [])
            members.append(n.name)
            st.numbers[n.name] = len(members)
    items = []
    for item in program.items:
        items.append(run.walk(item))
        items += st.made
        st.made = []
    return L["Program"](tuple(items), span=program.span)


def _full(fn) -> tuple:
    return signature([p.type for p in fn.params], fn.ret)


@dispatch_closures.on("Fn")
def _fn(run, fn):
    run.state.types, run.state.fn = binder_types(fn), fn
    return run.rebuild(fn)


@dispatch_closures.on("Global")
def _global(run, e):
    """A function used as a value (a callee is not walked)."""
    number = run.state.numbers.get(e.name)
    return e if number is None else L["Int"](number, "i32", span=e.span)


@dispatch_closures.on("Call")
def _call(run, call):
    callee = call.callee
    args = run.walk_seq(call.args)
    if callee._prod != "Local":
        return call.replace(args=args)
    ty = run.state.types[callee.name]
    name = _dispatcher(run, ty, call)
    return L["Call"](L["Global"](name, span=call.span), (callee, *args), span=call.span)


@dispatch_closures.on("ClosureType")
def _closure_type(run, ty):
    return L["Scalar"]("i32", span=ty.span)  # the number of the closure's function


def _dispatcher(run, ty, node) -> str:
    """The function a call through a closure value of this type calls: it calls the function
    the value's number names."""
    st, span = run.state, node.span
    key = signature(ty.params, ty.ret)
    if key in st.dispatchers:
        return st.dispatchers[key]
    owner = st.fn.name.split("$closure")[0]
    n = 0
    while f"{owner}$call{n}" in st.taken:
        n += 1
    name = st.dispatchers[key] = f"{owner}$call{n}"
    st.taken.add(name)
    formals = [f"arg{i}" for i in range(len(ty.params))]
    params = (L["Param"]("closure", L["Scalar"]("i32", span=span), span=span),
              *(L["Param"](a, run.walk(t), span=span) for a, t in zip(formals, ty.params)))
    ret = run.walk(ty.ret)
    void = ret._prod == "Scalar" and ret.name == "void"
    arms = []
    for member in st.members.get(key, []):
        called = L["Call"](L["Global"](member, span=span),
                           tuple(L["Local"](a, span=span) for a in formals), span=span)
        leave = (L["ExprStmt"](called, span=span), L["Return"](None, span=span)) if void \
            else (L["Return"](called, span=span),)
        test = L["Binary"]("==", "i32", L["Local"]("closure", span=span),
                           L["Int"](st.numbers[member], "i32", span=span), span=span)
        arms.append(L["If"](test, False, L["Block"](leave, None, span=span), None, span=span))
    # The last arm needs no test; with none, no closure of the signature is ever made.
    stmts = tuple(arms[:-1]) + tuple(arms[-1].then.stmts) if arms else \
        () if void else (L["Return"](_zero(run, ret, node), span=span),)
    st.made.append(L["Fn"](name, params, st.fn.on, ret, (), L["Block"](stmts, None, span=span),
                           span=span))
    return name


def _zero(run, ty, node):
    made = zero(ty, node.span)
    if made is None:
        refuse(run.ctx.diagnostics, run.state.fn.name, node,
               "a call through a closure value of a signature no closure has")
        return L["Bool"](False, span=node.span)
    return made
