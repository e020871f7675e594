"""assign-chosen-closures: Lpinned -> Lpinned.

Same IL: making a closure value runs nothing (it reads its variables when it is called), so
making the first arm's before the condition, and each other arm's where the `if` would
have chosen it, leaves the variable the closure the `if` chose, after the same condition
ran once; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants


@dataclass
class State:
    launched: set = field(default_factory=set)  # the locals a launch gives a kernel


assign_chosen_closures = Pass("assign-chosen-closures", L, L, """
Write a `let` of a closure an `if` chooses, which a launch gives a kernel, as a `let mut` of
the first arm's closure that the `if` gives each other arm's, so that
choose-closures-in-kernels finds the closures the variable may hold.

`let f = if c { || t[0] } else { || 1 };` is `let mut f = || t[0]; if c { } else { f = ||
1; }`, an `else if` an `if` in the `else` likewise. It is done where each arm is a closure
and nothing else (an arm's statement could bind what its closure reads); otherwise the
kernel is given the closure value, which native code refuses (E5010).
""", state=State)


@assign_chosen_closures.on("Program")
def _program(run, program):
    run.state.launched = {a.name for n in descendants(program) if n._prod == "Launch"
                          for a in n.args if a._prod == "Local"}
    return run.rebuild(program) if run.state.launched else program


@assign_chosen_closures.on("Let", splice=True)
def _let(run, let):
    value = let.value
    closures = _arms(value) if value._prod == "IfExpr" and not let.mutable and \
        let.name in run.state.launched else None
    if closures is None:
        return (run.rebuild(let),)
    first, span = closures[0], let.span
    return (let.replace(mutable=True, value=run.walk(first)),
            _assigning(run, value, L["Local"](let.name, span=span), first))


def _arms(e) -> list | None:
    """The closures an `if` chooses among, in order, if each arm is one and nothing else."""
    if e._prod == "Closure":
        return [e]
    if e._prod != "IfExpr":
        return None
    found = []
    for arm in (e.then, e.orelse):
        inner = _arms(arm.value) if not arm.stmts and arm.value is not None else None
        if inner is None:
            return None
        found += inner
    return found


def _assigning(run, e, var, first):
    """The `if` e as a statement giving `var` each arm's closure but `first`, already its."""
    return L["If"](run.walk(e.cond), False, _arm(run, e.then, var, first),
                   _arm(run, e.orelse, var, first), span=e.span)


def _arm(run, block, var, first):
    value = block.value
    stmts = () if value is first else \
        (_assigning(run, value, var, first),) if value._prod == "IfExpr" else \
        (L["Assign"](var, "=", run.walk(value), span=value.span),)
    return L["Block"](stmts, None, span=block.span)
