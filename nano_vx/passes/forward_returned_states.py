"""forward-returned-states: Lassumed -> Lassumed.

Same IL: a call of a function that gives back the hardware state it is given runs as it ran,
and its result is the state given, still in the caller's variable, so the interpreter runs
the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.hardware_states import is_state_type


@dataclass
class State:
    given: dict = field(default_factory=dict)  # fn -> the index of the state it gives back
    fn: str | None = None  # the function walked


forward_returned_states = Pass("forward-returned-states", L, L, """
Make a function that returns, at every return, the hardware state parameter it is given
return nothing, and each call of it the call and then the state it was given, so that
lower-pins finds that state in the caller's variable.

`fn again(s: HardwareState<T, Topology::N>) -> HardwareState<T, Topology::N> { s }` is `fn
again(s: HardwareState<T, Topology::N>) { }`, and `let u = again(t);` is `again(t); let u =
t;`: the interpreter's call returns the very state t holds, so u is another name of it, which
shares its pin. A call bound by a `let`, assigned, returned, a block's value or a statement is
written so (name-hardware-states has put every other in a `let`), its state given by a
variable; a function with a call otherwise, or with a closure, is left as it was (lower-pins
refuses the state it returns).
""", state=State)


def _gives_back(fn) -> int | None:
    """The index of the state parameter `fn` returns at every return, or None."""
    if not is_state_type(fn.ret) or any(n._prod == "Closure" for n in descendants(fn.body)):
        return None
    values = [n.value for n in descendants(fn.body) if n._prod == "Return"]
    values += [fn.body.value] if fn.body.value is not None else []  # else it ends returning
    params = {p.name: i for i, p in enumerate(fn.params) if is_state_type(p.type)}
    found = {params.get(v.name) if v is not None and v._prod == "Local" else None
             for v in values}
    return found.pop() if len(found) == 1 and None not in found else None


def _placed(node):
    """The call a statement or a block gives its value, binds, assigns or returns, or None."""
    field_name = {"Let": "value", "Assign": "value", "Return": "value", "ExprStmt": "expr",
                  "Block": "value"}.get(node._prod)
    e = getattr(node, field_name) if field_name is not None else None
    return e if e is not None and e._prod == "Call" and e.callee._prod == "Global" else None


@forward_returned_states.on("Program")
def _program(run, program):
    fns = [i for i in program.items if i._prod == "Fn"]
    given = {fn.name: k for fn in fns if (k := _gives_back(fn)) is not None}
    placed = {id(c) for c in map(_placed, descendants(program)) if c is not None
              and c.callee.name in given and c.args[given[c.callee.name]]._prod == "Local"}
    calls = {id(n.callee): n for n in descendants(program) if n._prod == "Call"}
    for n in descendants(program):
        if n._prod == "Global" and id(calls.get(id(n))) not in placed:
            given.pop(n.name, None)
    run.state.given = given
    return run.rebuild(program) if given else program


def _given(run, e):
    """The state variable the call `e` gives a function that gives it back, or None."""
    if e is None or e._prod != "Call" or e.callee._prod != "Global":
        return None
    k = run.state.given.get(e.callee.name)
    return e.args[k] if k is not None else None


@forward_returned_states.on("Fn")
def _fn(run, fn):
    run.state.fn = fn.name
    if fn.name not in run.state.given:
        return run.rebuild(fn)
    body = run.walk(fn.body.replace(value=None))
    return fn.replace(ret=None, body=body)


@forward_returned_states.on("Let", "Assign", "Return", splice=True)
def _statement(run, node):
    given = _given(run, node.value)
    if node._prod == "Return" and run.state.fn in run.state.given:
        return (node.replace(value=None),)
    if given is None:
        return (run.rebuild(node),)
    call = L["ExprStmt"](run.walk(node.value), span=node.value.span)
    return (call, node.replace(value=given))


@forward_returned_states.on("Block")
def _block(run, block):
    given = _given(run, block.value)
    walked = run.rebuild(block.replace(value=None))
    if given is None:
        return walked.replace(value=run.walk(block.value) if block.value is not None else None)
    call = L["ExprStmt"](run.walk(block.value), span=block.value.span)
    return walked.replace(stmts=(*walked.stmts, call), value=given)
