"""name-hardware-states: Lconstparts -> Lconstparts.

Same IL: each hardware state is computed by a `let` of its own just before the statement that
used it, what ran before it in that statement held in a local before it, in order, so the
interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.hardware_states import is_state_type, state_params

LITERALS = ("Int", "Float", "Bool", "Str", "Global")


@dataclass
class State:
    sigs: dict = field(default_factory=dict)  # fn -> (state parameters' indices, returns one)
    names: Names | None = None
    made: set = field(default_factory=set)  # the locals this pass made: nothing assigns them
    read: set = field(default_factory=set)  # the kernels a launch gives a value of


name_hardware_states = Pass("name-hardware-states", L, L, """
Give each hardware state a `match` is on or a call is given a local of its own, computed by a
`let` before the statement, so that lower-pins finds every state in a variable.

`match x.try_pin(Topology::NPU) { .. }` is `let state = x.try_pin(Topology::NPU); match state {
.. }`, the same for a call returning a state and for `return x.try_pin(T)`, and
`print(f(x.try_pin(T)))` of an `f` taking one is `let state = x.try_pin(T); print(f(state))`;
a `match` on a state given to a call is computed by a `let` too. What the calls around it
compute before the state is held in a local first, in order, so that it runs before the state
is made, and a variable is read before the call making the state changes it (`print(f(y, g(1),
pin(&mut y)))` is `let ordered = y; let ordered#1 = g(1); let state = pin(&mut y);
print(f(ordered, ordered#1, state))`). A state made inside another expression than a call's
arguments stays in place (lower-pins refuses it). A `match` on a state that is the value of a block
nothing reads is made a statement: a function's body is read when it returns a value, a
kernel's when a launch of it is not a statement (`let y = spawn on(..) { match .. }`).
""", state=State)


@name_hardware_states.on("Program")
def _program(run, program):
    run.state.sigs = {
        item.name: (state_params(item),
                    is_state_type(item.ret))
        for item in program.items if item._prod == "Fn"}
    nodes = list(descendants(program))
    discarded = {id(n.expr) for n in nodes if n._prod == "ExprStmt"}
    run.state.read = {n.kernel for n in nodes if n._prod == "Launch" and id(n) not in discarded}
    return run.rebuild(program)


@name_hardware_states.on("Fn")
def _fn(run, fn):
    run.state.names, run.state.made = Names(fn), set()
    read = fn.ret is not None or fn.name in run.state.read
    return run.rebuild(fn if read else fn.replace(body=_discarded(fn.body)))


def _discarded(block):
    """A block whose value nothing reads, with a `match` on a hardware state that is its value
    made a statement: each arm is then a statement too, and need not give a value."""
    m = block.value
    if m is None or m._prod != "Match":
        return block
    return block.replace(stmts=(*block.stmts, L["ExprStmt"](m, span=m.span)), value=None)


@name_hardware_states.on("If")
def _if(run, node):
    orelse = _discarded(node.orelse) if node.orelse is not None else None
    return run.rebuild(node.replace(then=_discarded(node.then), orelse=orelse))


@name_hardware_states.on("BlockStmt", "While", "For")
def _body(run, node):
    return run.rebuild(node.replace(body=_discarded(node.body)))


def _makes_a_state(run, e) -> bool:
    if e._prod == "MethodCall":
        return e.method == "try_pin"
    sig = run.state.sigs.get(e.callee.name) if e._prod == "Call" \
        and e.callee._prod == "Global" else None
    return sig is not None and sig[1]


def _named(run, e, span) -> tuple:
    """`let state = e;` and the local it binds."""
    name = run.state.names.fresh("state")
    run.state.made.add(name)
    before, e = _hoisted(run, e)
    let = L["Let"](name, False, L["OpaqueType"](span=span), e, span=span)
    return (*before, let), L["Local"](name, span=span)


def _hoisted(run, e) -> tuple:
    """`e` with the states the calls it is made of are given named, and their `let`s, while
    what runs before them reads nothing those could change."""
    if e is None or e._prod != "Call" or e.callee._prod != "Global":
        return (), e
    states = run.state.sigs.get(e.callee.name, (frozenset(),))[0]
    args, before = [], ()
    for i, a in enumerate(e.args):
        if i in states and _makes_a_state(run, a):
            made, a = _named(run, a, a.span)
        elif a._prod == "Match":
            # Native code computes a `match` inside a larger expression only in a `let`.
            made, m = _on_a_named_state(run, a, False)
            value = run.state.names.fresh("matched")
            run.state.made.add(value)
            made = (*made, L["Let"](value, False, L["OpaqueType"](span=a.span), m, span=a.span))
            a = L["Local"](value, span=a.span)
        else:
            made, a = _hoisted(run, a)
        if made:  # what ran before runs before them, and reads before the calls they run
            held, args = _held(run, args)
            before = (*before, *held)
        before = (*before, *made)
        args.append(a)
    return before, e.replace(args=tuple(args))


def _held(run, args: list) -> tuple:
    """The `let`s holding each argument `args` computed (but a literal or a local this pass
    made) in a local of its own, in order, and `args` reading those."""
    lets, out = [], []
    for a in args:
        if a._prod not in LITERALS and not (a._prod == "Local" and a.name in run.state.made):
            name = run.state.names.fresh("ordered")
            run.state.made.add(name)
            lets.append(L["Let"](name, False, L["OpaqueType"](span=a.span), a, span=a.span))
            a = L["Local"](name, span=a.span)
        out.append(a)
    return tuple(lets), out


def _on_a_named_state(run, e, whole: bool) -> tuple:
    """`e`, a `match` on a state made in place made one on a local (and `try_pin` itself
    when the value is `whole` of a `return`, a statement or a block's), and the `let`s
    before."""
    if whole and e is not None and e._prod == "MethodCall" and e.method == "try_pin":
        return _named(run, e, e.span)
    if e is None or e._prod != "Match" or not _makes_a_state(run, e.scrutinee):
        return _hoisted(run, e)
    before, local = _named(run, e.scrutinee, e.scrutinee.span)
    return before, e.replace(scrutinee=local)


@name_hardware_states.on("Let", "Return", "ExprStmt", splice=True)
def _statement(run, node):
    field_name = "expr" if node._prod == "ExprStmt" else "value"
    before, value = _on_a_named_state(run, getattr(node, field_name), node._prod != "Let")
    node = node.replace(**{field_name: value})
    return (*_walked(run, before), run.rebuild(node))


def _walked(run, lets) -> tuple:
    return tuple(s.replace(value=run.walk(s.value)) for s in lets)


@name_hardware_states.on("Block")
def _block(run, block):
    """A block whose value is a `match` on a state made in place: the state is named after
    its statements."""
    before, value = _on_a_named_state(run, block.value, True)
    walked = run.rebuild(block.replace(value=None))
    value = run.walk(value) if value is not None else None
    return walked.replace(stmts=(*walked.stmts, *_walked(run, before)), value=value)
