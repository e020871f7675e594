"""halt-state-prints: Lheld -> Lheld.

Same IL: a `print` of a hardware state is the stop the interpreter makes there (E9006), so the
interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lheld import Lheld as L
from ..nanopass import Pass, descendants
from ..scalars.hardware_states import is_state_type, is_try_pin, returned_topo


@dataclass
class State:
    returns: dict = field(default_factory=dict)  # fn -> the topology of the state it returns
    tuples: dict = field(default_factory=dict)  # fn -> the state elements of the tuple it returns
    states: set = field(default_factory=set)  # the function's variables holding a state
    held: dict = field(default_factory=dict)  # its locals bound a call's tuple -> its states


halt_state_prints = Pass("halt-state-prints", L, L, """
Make each `print` of a hardware state, or of a tuple holding one, the stop the interpreter
makes there (E9006): it prints no state.

A state is printed so when its making computes nothing that could stop the program first: a
variable holding a state (a state parameter, one `let_state` binds, or one a `let` binds to
`try_pin`, to a call returning a state, to another such variable or to a state element of a
tuple a call returned), a variable a `let` binds to a call returning a tuple that holds a
state, a tuple literal of those beside variables and literals, or `try_pin` of a variable on
a topology written out (`print(x.try_pin(Topology::NPU))`). lower-pins refuses any other use
of a state (E5010).
""", state=State)


@halt_state_prints.on("Program")
def _program(run, program):
    fns = [item for item in program.items if item._prod == "Fn"]
    run.state.returns = {fn.name: fn.ret.topo if is_state_type(fn.ret) else None for fn in fns}
    run.state.tuples = {fn.name: {i for i, t in enumerate(fn.ret.elems) if is_state_type(t)}
                        for fn in fns if fn.ret is not None and fn.ret._prod == "TupleType"}
    return run.rebuild(program)


@halt_state_prints.on("Fn")
def _fn(run, fn):
    st = run.state
    st.states = {p.name for p in fn.params if is_state_type(p.type)}
    st.held = {}
    for n in descendants(fn.body):
        if n._prod == "LetState" or n._prod == "Let" and _holds_a_state(st, n.value):
            st.states.add(n.name)
        elif n._prod == "Let" and _tuple_call(st, n.value):
            st.held[n.name] = st.tuples[n.value.callee.name]
    return run.rebuild(fn)


def _tuple_call(st, e) -> bool:
    return e._prod == "Call" and e.callee._prod == "Global" and bool(st.tuples.get(e.callee.name))


def _holds_a_state(st, e) -> bool:
    """What a `let` binds is a state lower-pins names: made, copied or read from a tuple."""
    if e._prod == "Local":
        return e.name in st.states
    if e._prod == "TupleGet":
        return e.base._prod == "Local" and e.index in st.held.get(e.base.name, ())
    return is_try_pin(e) or returned_topo(st.returns, e) is not None


@halt_state_prints.on("ExprStmt")
def _expr_stmt(run, node):
    e = node.expr
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" \
            and len(e.args) == 1 and _computing_nothing(run.state, e.args[0]):
        return L["Halt"]("E9006", "cannot print a value of type HardwareState", span=e.span)
    return run.rebuild(node)


def _computing_nothing(st, e) -> bool:
    """Whether `e` is a state, or a tuple holding one, whose making computes nothing that
    could stop the program first."""
    if e._prod == "Local":
        return e.name in st.states or e.name in st.held
    if e._prod == "Tuple":
        states = [_computing_nothing(st, x) for x in e.elems]
        return any(states) and all(
            held or x._prod in ("Local", "Int", "Float", "Bool", "Str")
            for x, held in zip(e.elems, states))
    return is_try_pin(e) and e.receiver._prod == "Local" and len(e.args) == 1 \
        and e.args[0]._prod == "TopoRef" \
        and all(b is None or b._prod == "Int" for b in (e.args[0].index, e.args[0].end))
