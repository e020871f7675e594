"""delay-launching-closures: Lpinned -> Lpinned.

Same IL: a closure value is made when its `let` runs and reads the variables around it when
it is called, so making it later, before anything names it, in the frame that made it,
makes the same closure; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars.closures import names


@dataclass
class State:
    chosen: set = field(default_factory=set)  # the walked function's locals a `let mut`
    # binds to a closure

delay_launching_closures = Pass("delay-launching-closures", L, L, """
Move the `let` of each closure whose body launches a kernel given a variable a `let mut`
binds to a closure (or names such a closure) down its block, to just before the first
statement that names it, so that choose-closures-in-kernels finds the launch after the
`let`s of the closures that variable is given there.

`let run = |y: i32| spawn on(T) { f(y) }; let m = 5; f = |x: i32| x * m; print(run(5));`
is `let m = 5; f = |x: i32| x * m; let run = |y: i32| spawn on(T) { f(y) };
print(run(5));`: the closure given `f` reads `m`, so choose-closures-in-kernels binds it
after `m`'s `let`, which the kernel `run` launches can now be given. A closure named
before that `let` (`print(run(1)); let m = 5; ..`) stays where it is, and
bind-launching-closures-again binds it again before the calls after it.
""", state=State)


@delay_launching_closures.on("Fn")
def _fn(run, fn):
    run.state.chosen = {n.name for n in descendants(fn) if n._prod == "Let" and n.mutable
                        and n.value._prod == "Closure"}
    return run.rebuild(fn) if run.state.chosen else fn


@delay_launching_closures.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts = list(block.stmts)
    delayed = _launching(stmts, run.state.chosen)
    # The last first: one moves down past those after it, settled already, but those
    # naming it (a closure names only what is bound before it).
    for let in reversed([s for s in block.stmts if s._prod == "Let" and s.name in delayed]):
        at = stmts.index(let)
        later = next((j for j in range(at + 1, len(stmts)) if names(stmts[j], let.name)),
                     None if block.value is None or not names(block.value, let.name)
                     else len(stmts))
        if later is not None:
            stmts.insert(later - 1, stmts.pop(at))
    return block if stmts == list(block.stmts) else block.replace(stmts=tuple(stmts))


def _launching(stmts: list, chosen: set) -> set:
    """The names `let`s of stmts bind to closures whose body launches a kernel given one of
    `chosen`, or names such a closure (which it may call)."""
    closures = {s.name: s.value for s in stmts if s._prod == "Let" and s.value._prod == "Closure"}
    found = {name for name, c in closures.items() if any(
        n._prod == "Launch" and any(a._prod == "Local" and a.name in chosen for a in n.args)
        for n in descendants(c.body))}
    while True:
        more = {name for name, c in closures.items()
                if name not in found and any(names(c.body, f) for f in found)}
        if not more:
            return found
        found |= more
