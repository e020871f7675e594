"""copy-closures-into-kernels: Lpinned -> Lpinned.

Same IL: a kernel given a closure bound by a `let` is given what the closure reads instead and
binds the same closure first, so that the interpreter runs the output as it ran the input (the
kernel's call of it reads those values, which nothing changes while it runs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars.closures import by_reference, captures


@dataclass
class State:
    copied: dict = field(default_factory=dict)  # kernel -> {its parameter: (its let, types)}


copy_closures_into_kernels = Pass("copy-closures-into-kernels", L, L, """
Give a kernel that a launch gives a closure bound by a `let` what that closure reads, and make
the closure a `let` at the kernel's top.

`let f = |x: i32| x + k; spawn on(T) { f(2) }` launches a kernel of `k`, whose body starts with
`let f = |x: i32| x + k;`: lift-closures numbers a closure within the function that makes it,
and a closure passed to another function is refused (E5010). A closure that assigns or lends
what it reads (the kernel's copy would not be the caller's), bound by a `let mut`, or reading
another closure stays passed, and type-scalars refuses it.
""", state=State)


def _copyable(fn) -> dict:
    """Each local a `let` binds to a closure a kernel may make again -> that `let`."""
    lets = {n.name: n for n in descendants(fn) if n._prod == "Let"}
    closures = {name for name, let in lets.items() if let.value._prod == "Closure"}
    return {name: let for name, let in lets.items() if name in closures and not let.mutable
            and not by_reference(let.value) and not closures.intersection(captures(let.value))}


@copy_closures_into_kernels.on("Program")
def _program(run, program):
    copied = run.state.copied
    for fn in (i for i in program.items if i._prod == "Fn"):
        copyable = _copyable(fn)
        types = {n.name: n.type for n in descendants(fn) if n._prod in ("Param", "Let")}
        for launch in (n for n in descendants(fn) if n._prod == "Launch"):
            for arg in launch.args:
                if arg._prod == "Local" and arg.name in copyable:
                    copied.setdefault(launch.kernel, {})[arg.name] = (copyable[arg.name], types)
    return run.rebuild(program) if copied else program


def _reads(copied: dict) -> list[str]:
    """What the copied closures read, each once, in order."""
    return list(dict.fromkeys(name for let, _ in copied.values() for name in captures(let.value)))


@copy_closures_into_kernels.on("Launch")
def _launch(run, node):
    copied = run.state.copied.get(node.kernel)
    if copied is None:
        return run.rebuild(node)
    kept = [a for a in node.args if not (a._prod == "Local" and a.name in copied)]
    given = {a.name for a in kept if a._prod == "Local"}
    added = [L["Local"](name, span=node.span) for name in _reads(copied) if name not in given]
    return node.replace(args=tuple(kept + added))


@copy_closures_into_kernels.on("Fn")
def _fn(run, fn):
    copied = run.state.copied.get(fn.name)
    if copied is None:
        return run.rebuild(fn)
    kept = [p for p in fn.params if p.name not in copied]
    given = {p.name for p in kept}
    types = {name: t for _, ts in copied.values() for name, t in ts.items()}
    added = [L["Param"](name, types[name], span=fn.span) for name in _reads(copied)
             if name not in given]
    lets = tuple(let for let, _ in copied.values())
    body = fn.body.replace(stmts=lets + fn.body.stmts)
    return run.rebuild(fn.replace(params=tuple(kept + added), body=body))
