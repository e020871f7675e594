"""delay-lending-closures: Lassumed -> Lassumed.

Same IL: a closure value is made when its `let` runs and reads the variables around it when
it is called, so making it later, before anything names it, in the frame that made it,
makes the same closure; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.closures import direct_closures, names
from ..scalars.lent_references import lending_locals, lent_parameters, lent_variable


@dataclass
class State:
    lent: dict = field(default_factory=dict)  # a closure's local -> the variables calls lend


delay_lending_closures = Pass("delay-lending-closures", L, L, """
Move the `let` of each closure a `let` binds and that is only called, a call of which lends
a `&mut &T` parameter its body only dereferences a reference variable bound after it in its
block, down past that variable's `let`, to just before the first statement that names the
closure.

`let point = |q: &mut &i32| { *q = &y; }; let mut s = &x; point(&mut s);` is `let mut s =
&x; let point = |q: &mut &i32| { *q = &y; }; point(&mut s);`. A reference has no cell in
native code, so capture-lent-references makes such a parameter the variable the calls lend
it, captured, a copy of the closure per variable (copy-closures-per-lent-reference), which
can capture only a variable bound before it. A closure named before that variable's `let`
(called, or read by another closure) stays where it is.
""", state=State)


@delay_lending_closures.on("Fn")
def _fn(run, fn):
    lending = lending_locals(fn)
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    run.state.lent = {}
    for name, closure in direct_closures(fn).items():
        lent = {lent_variable(c.args[k], lending) for c in calls if c.callee.name == name
                and len(c.args) == len(closure.params) for k in lent_parameters(closure)}
        if lent - {None}:
            run.state.lent[name] = lent - {None}
    return run.rebuild(fn) if run.state.lent else fn


@delay_lending_closures.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts = list(block.stmts)
    lent = run.state.lent
    # The last first: one moves down past those after it, settled already, but those
    # naming it (a closure names only what is bound before it).
    for let in reversed([s for s in block.stmts if s._prod == "Let" and s.name in lent]):
        at = stmts.index(let)
        later = next((j for j in range(at + 1, len(stmts)) if names(stmts[j], let.name)),
                     len(stmts))
        if any(s._prod == "Let" and s.name in lent[let.name] for s in stmts[at + 1:later]):
            stmts.insert(later - 1, stmts.pop(at))
    return block if stmts == list(block.stmts) else block.replace(stmts=tuple(stmts))
