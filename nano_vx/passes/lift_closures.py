"""lift-closures: Lscalars -> Lfunctions."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lscalars import Lscalars
from ..languages.lfunctions import Lfunctions as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.closures import binder_types, bound_in, by_reference, captures, \
    direct_closures, signature, visible_at_calls, zero


@dataclass
class State:
    fn: object = None  # the function being walked
    types: dict = field(default_factory=dict)  # its locals -> their types
    direct: dict = field(default_factory=dict)  # a local only called -> its closure
    direct_ids: set = field(default_factory=set)  # id() of each of those closures
    names: dict = field(default_factory=dict)  # id(closure) -> (its function, its number)
    needs: dict = field(default_factory=dict)  # id(closure) -> what its calls pass it
    by_ref: set = field(default_factory=set)  # the locals passed by reference
    values: dict = field(default_factory=dict)  # signature -> the closures used as values
    reach: dict = field(default_factory=dict)  # signature -> what a call through one passes
    visible: dict = field(default_factory=dict)  # id(call) -> the locals in scope there
    frames: list = field(default_factory=list)  # the captures of each closure being lifted
    made: list = field(default_factory=list)  # the functions lifted out of it
    writing: set = field(default_factory=set)  # the signatures of the closure types being walked
    taken: set = field(default_factory=set)  # the names of the program's functions


lift_closures = Pass("lift-closures", Lscalars, L, """
Make each closure a function of the program, and each call of it a call of that function.

The n-th closure of g, in source order, becomes the function `g$closure<n>` (or the next
number no function has), whose parameters are the closure's and then the variables around it
that it reads (those its own calls need included), in order of first use; a call passes them
after its arguments, read then, so a closure sees what its variables hold when it is called,
as the interpreter's does. A variable a closure assigns or lends is passed by reference.
A closure bound by `let` and only called loses its `let`: each call calls its function.
Any other closure is a value (stored, passed, returned, chosen by an `if`): the function's
name, `@g$closure<n>`, which takes what every closure of g of its signature reads, and a call
through it passes all of that; a call through a value of a signature only one closure has
calls that closure's function.
""", state=State)


@lift_closures.on("Program")
def _program(run, program):
    items = []
    run.state.taken = {item.name for item in program.items if item._prod == "Fn"}
    for item in program.items:
        if item._prod != "Fn":
            items.append(run.walk(item))
            continue
        _survey(run.state, item)
        items.append(run.walk(item))
        items += run.state.made
    return L["Program"](tuple(items), span=program.span)


def _survey(st: State, fn) -> None:
    """Name every closure of fn and decide what each call of one passes."""
    st.fn, st.types, st.direct = fn, binder_types(fn), direct_closures(fn)
    st.visible, st.frames, st.made = visible_at_calls(fn), [], []
    closures = [n for n in descendants(fn.body) if n._prod == "Closure"]
    st.names = {}
    for c in closures:
        st.names[id(c)] = (_fresh(st, f"{fn.name}$closure", len(st.names)), len(st.names) + 1)
    direct = st.direct_ids = {id(c) for c in st.direct.values()}
    st.values = {}
    for c in closures:
        if id(c) not in direct:
            st.values.setdefault(signature([p.type for p in c.params], c.ret), []).append(c)
    st.by_ref = {name for c in closures for name in by_reference(c)}
    st.needs = {id(c): [] for c in closures}
    bound = {id(c): bound_in(c) for c in closures}
    while True:  # a closure's calls need what their callees read: to the fixpoint
        st.reach = {key: list(dict.fromkeys(n for c in cs for n in st.needs[id(c)]))
                    for key, cs in st.values.items()}
        needs = {id(c): [n for n in _reads(st, c) if n not in bound[id(c)]] for c in closures}
        done = all(set(needs[k]) == set(st.needs[k]) for k in needs)
        st.needs = needs
        if done:
            return


def _reads(st: State, closure) -> list:
    """What a closure reads around it, with what the calls in it pass, in order of first use."""
    outer = set(captures(closure))
    callees = {id(n.callee) for n in descendants(closure.body) if n._prod == "Call"}
    reads: dict = {}
    for n in descendants(closure.body):
        if n._prod != "Local":
            continue
        if n.name in st.direct:
            reads.update(dict.fromkeys(st.needs[id(st.direct[n.name])]))
            continue
        if n.name in outer:
            reads[n.name] = None
        if id(n) in callees:
            reads.update(dict.fromkeys(st.reach.get(_called(st.types[n.name]), ())))
    return list(reads)


@lift_closures.on("Let", splice=True)
def _let(run, let):
    if let.value._prod != "Closure" or let.name not in run.state.direct:
        return (run.rebuild(let),)
    _lift(run, let.value)
    return ()


@lift_closures.on("Closure")
def _closure(run, closure):
    _lift(run, closure)
    return L["Global"](run.state.names[id(closure)][0], span=closure.span)


def _lift(run, closure) -> None:
    st = run.state
    captured = _captured(st, closure)
    st.frames.append(captured)
    body = run.walk(closure.body)  # closures it defines are lifted first
    st.frames.pop()
    params = run.walk_seq(closure.params) + _capture_params(run, captured, closure.span)
    st.made.append(L["Fn"](st.names[id(closure)][0], params, st.fn.on, run.walk(closure.ret),
                           (), body, span=closure.span))


def _captured(st: State, closure) -> list:
    """What a closure's function takes after its parameters: what it reads, or for a value
    what every closure of its signature reads, which a call through a value passes."""
    if id(closure) in st.direct_ids:
        return st.needs[id(closure)]
    return st.reach[signature([p.type for p in closure.params], closure.ret)]


def _capture_params(run, names, span) -> tuple:
    params = []
    for name in names:
        ty = run.walk(run.state.types[name])
        if name in run.state.by_ref:
            ty = L["BorrowType"](ty, True, span=span)
        params.append(L["Param"](name, ty, span=span))
    return tuple(params)


@lift_closures.on("Call")
def _call(run, call):
    callee, st = call.callee, run.state
    if callee._prod != "Local":
        return run.rebuild(call)
    args, span = run.walk_seq(call.args), call.span
    if callee.name in st.direct:
        closure = st.direct[callee.name]
        args += _passed(run, st.needs[id(closure)], call)
        return L["Call"](L["Global"](st.names[id(closure)][0], span=span), args, span=span)
    key = _called(st.types[callee.name])
    args += _passed(run, st.reach.get(key, ()), call)
    closures = st.values.get(key, [])
    if len(closures) == 1:  # the one closure a value of its signature can be
        return L["Call"](L["Global"](st.names[id(closures[0])][0], span=span), args, span=span)
    return L["Call"](run.walk(callee), args, span=span)


def _passed(run, names, call) -> tuple:
    """The captures a call passes: each variable, by reference where it is, or a zero for one
    not in scope there (no closure that reads it has been made yet)."""
    st, span, args = run.state, call.span, []
    frame = st.frames[-1] if st.frames else ()
    for name in names:
        local = L["Local"](name, span=span)
        if name in frame:
            args.append(local)
        elif name in st.visible[id(call)]:
            args.append(L["Borrow"](local, True, span=span) if name in st.by_ref else local)
        else:
            args.append(_zero(run, run.walk(st.types[name]), call, name))
    return tuple(args)


def _zero(run, ty, node, name: str):
    made = zero(ty, node.span)
    if made is None:
        refuse(run.ctx.diagnostics, run.state.fn.name, node,
               f"a call of a closure that may read '{name}' where it is not in scope")
        return L["Bool"](False, span=node.span)
    return made


@lift_closures.on("Local")
def _local(run, local):
    frame = run.state.frames[-1] if run.state.frames else ()
    if local.name in run.state.by_ref and local.name in frame:  # received by reference
        return L["Deref"](local, span=local.span)
    return local


@lift_closures.on("Borrow")
def _borrow(run, borrow):
    value, frame = borrow.value, run.state.frames[-1] if run.state.frames else ()
    if value._prod == "Local" and value.name in run.state.by_ref and value.name in frame:
        return value  # the reference it received
    return run.rebuild(borrow)


@lift_closures.on("ClosureType")
def _closure_type(run, ty):
    """A closure value's type: what a call through it passes, captures included (a capture
    of the signature being written, within its own, without them: a type cannot hold itself,
    and a signature compares every closure value alike)."""
    st, key = run.state, _called(ty)
    if key in st.writing:
        return ty.replace(params=run.walk_seq(ty.params), ret=run.walk(ty.ret))
    st.writing.add(key)
    try:
        captured = tuple(p.type for p in _capture_params(run, st.reach.get(key, ()), ty.span))
        return ty.replace(params=run.walk_seq(ty.params) + captured, ret=run.walk(ty.ret))
    finally:
        st.writing.discard(key)


@lift_closures.on("OpaqueType")
def _opaque(run, node):
    raise AssertionError("type-scalars decided every type, a closure value's its signature")


def _called(ty):
    """The signature of a call through a value of this type."""
    return signature(ty.params, ty.ret)


def _fresh(st: State, stem: str, n: int) -> str:
    while f"{stem}{n}" in st.taken:  # only a hand-written IL has one
        n += 1
    st.taken.add(f"{stem}{n}")
    return f"{stem}{n}"
