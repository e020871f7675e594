"""spread-hardware-states: Lpinned, a rewrite within it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.hardware_states import is_state_type, state_params


@dataclass
class State:
    sigs: dict = field(default_factory=dict)  # fn -> its hardware-state parameters' indices
    parts: dict = field(default_factory=dict)  # state parameter -> its three parameters' names


spread_hardware_states = Pass("spread-hardware-states", L, L, """
Give a function each hardware state it takes as three parameters of its own: its value,
whether it took a pin and a reference to the caller's `held`.

lower-pins gives a state to a function as the tuple `(t, t_took, &mut t_held)` and reads the
parameter `s: HardwareState<T, Topology::NPU>` as `s.0`, `s.1` and `*s.2`; here the parameter
is `s: T, s_took: bool, s_held: &mut bool`, read as `s`, `s_took` and `*s_held`, and the call
`f((t, t_took, &mut t_held))` is `f(t, t_took, &mut t_held)`, so no tuple holds a reference. A
function whose state parameter is read otherwise is one lower-pins refused: it is left as it
was, for the interpreter.
""", state=State)


@spread_hardware_states.on("Program")
def _program(run, program):
    run.state.sigs = {
        item.name: state_params(item)
        for item in program.items if item._prod == "Fn"}
    if not any(run.state.sigs.values()):
        return program  # no function takes a state: nothing to spread
    return run.rebuild(program)


@spread_hardware_states.on("Fn")
def _fn(run, fn):
    states = {p.name for p in fn.params if is_state_type(p.type)}
    run.state.parts = {}
    if not states:
        return run.rebuild(fn)
    parts = {id(n.base) for n in descendants(fn.body)
             if n._prod == "TupleGet" and n.base._prod == "Local"}
    if any(n._prod == "Local" and n.name in states and id(n) not in parts
           for n in descendants(fn.body)):
        return fn
    names, params = Names(fn), []
    for p in fn.params:
        if p.name not in states:
            params.append(p)
            continue
        span, stem = p.span, p.name.split("#")[0]
        took, held = names.fresh(f"{stem}_took"), names.fresh(f"{stem}_held")
        run.state.parts[p.name] = (p.name, took, held)
        boolean = L["Scalar"]("bool", span=span)
        params += [p.replace(type=p.type.inner), L["Param"](took, boolean, span=span),
                   L["Param"](held, L["BorrowType"](boolean, True, span=span), span=span)]
    return fn.replace(params=tuple(params), body=run.walk(fn.body))


@spread_hardware_states.on("TupleGet")
def _part(run, e):
    if e.base._prod == "Local" and e.base.name in run.state.parts:
        return L["Local"](run.state.parts[e.base.name][e.index], span=e.span)
    return run.rebuild(e)


@spread_hardware_states.on("Call")
def _call(run, e):
    if e.callee._prod != "Global" or not run.state.sigs.get(e.callee.name):
        return run.rebuild(e)
    states, args = run.state.sigs[e.callee.name], []
    for i, a in enumerate(e.args):
        a = run.walk(a)
        args += a.elems if i in states and a._prod == "Tuple" else (a,)
    return e.replace(args=tuple(args))
