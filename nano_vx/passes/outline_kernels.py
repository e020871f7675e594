"""outline-kernels: Lscheduled -> Lkernels."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lscheduled import Lscheduled
from ..languages.lkernels import Lkernels
from ..nanopass import Analysis, Pass

L = Lkernels


@dataclass
class State:
    item: object = None  # the item being walked
    types: dict | None = None  # its locals (unique names) -> declared types, once asked for
    kernels: list = field(default_factory=list)  # outlined, in the order of their spawns
    taken: set = field(default_factory=set)  # the names of the program's functions


outline_kernels = Pass("outline-kernels", Lscheduled, Lkernels, """
Make each `spawn on` body a kernel function of its own, launched where the spawn was.

The kernel of the n-th spawn of `f` (innermost first, in source order) is `f$kernel<n>` (or
the next number no function has), an
`on` function of the spawn's topology whose parameters are the locals the body captures
(reads or writes, in order of first use), typed as they were declared where the declaration
gives a type, and whose body is the spawn's. The spawn becomes `Launch(kernel, topology,
captures)`: the captures are passed as they are, so a tensor the kernel writes is the one the
launching code reads afterwards, and a `transfer` of a parameter (in the body, or in a closure
made there) moves the launching frame's variable as well, when it moves the parameter: the
spawn's body ran in that frame, so a closure of the launcher reading the variable afterwards
stops (E9004), as do the calls of a closure the kernel is given, which moves the launcher's
variable itself. Kernels follow the function that launches them. A spawn in a
kernel's body is outlined first, so kernels launch kernels.
""", state=State)


@outline_kernels.on("Program")
def _program(run, program):
    items = []
    run.state.taken = {item.name for item in program.items if item._prod == "Fn"}
    for item in program.items:
        run.state.item, run.state.types, run.state.kernels = item, None, []
        items.append(run.walk(item))
        items += run.state.kernels
    return L["Program"](tuple(items), span=program.span)


@outline_kernels.on("Spawn")
def _spawn(run, spawn):
    body = run.walk(spawn.body)  # its own spawns first
    captured = _captures(spawn.body)
    if run.state.types is None:  # only a function that spawns needs its locals' types
        run.state.types = _declared.collect(run.state.item).types
    n = len(run.state.kernels)
    while f"{run.state.item.name}$kernel{n}" in run.state.taken:  # only in a hand-written IL
        n += 1
    name = f"{run.state.item.name}$kernel{n}"
    run.state.taken.add(name)
    params = tuple(L["Param"](local, run.state.types.get(local), span=spawn.span)
                   for local in captured)
    run.state.kernels.append(
        L["Fn"](name, params, spawn.topo, None, (), body, span=spawn.span))
    args = tuple(L["Local"](local, span=spawn.span) for local in captured)
    return L["Launch"](name, spawn.topo, args, span=spawn.span)


@dataclass
class _Declared:
    types: dict = field(default_factory=dict)


# Locals are unique within a function from resolve-names on, so one table of the types their
# declarations write serves the whole body.
_declared = Analysis("declared-local-types", Lscheduled, """
The type each local's declaration gives it: a parameter's, a `let`'s.
""", state=_Declared)


@_declared.on("Param")
def _param(run, node):
    if node.type is not None:
        run.state.types[node.name] = node.type


@_declared.on("Let")
def _let(run, node):
    run.state.types[node.name] = node.type
    run.descend(node)


@dataclass
class _Uses:
    bound: set = field(default_factory=set)  # locals the body declares
    used: list = field(default_factory=list)  # locals it mentions, in order of first use


_uses = Analysis("spawn-captures", Lscheduled, """
The locals a block mentions and the ones it declares.
""", state=_Uses)


@_uses.on("Local")
def _local(run, node):
    if node.name not in run.state.used:
        run.state.used.append(node.name)


@_uses.on("Let")
def _bind_let(run, node):
    run.state.bound.add(node.name)
    run.descend(node)


@_uses.on("For")
def _bind_for(run, node):
    run.state.bound.add(node.var)
    run.descend(node)


@_uses.on("Param")
def _bind_param(run, node):
    run.state.bound.add(node.name)


def _captures(block) -> list[str]:
    """The locals a spawn body uses but does not declare: what the kernel receives."""
    uses = _uses.collect(block)
    return [name for name in uses.used if name not in uses.bound]
