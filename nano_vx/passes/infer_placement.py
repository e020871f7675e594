"""infer-placement: Lmono -> Ltyped."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lmono, Ltyped
from ..nanopass import Pass, with_span
from ..placement.typer import Typer, join, settle
from ..placement.types import Machine, placed

@dataclass
class State:
    machine: Machine | None = None
    typer: Typer | None = None
    here: list[str | None] = field(default_factory=list)  # the spaces the code runs in


infer_placement = Pass("infer-placement", Lmono, Ltyped, """
Give every `let` its type, with the memory space of every tensor in it.

A tensor made without a space is in the space of the topology the code runs on (CPU_DRAM
on the host, the spawned topology's inside `spawn on`, the declared one in `fn .. on`);
`transfer(x, M)` is x's type in M; a call has the callee's declared return type, so a space
crosses the call; `spawn on(τ) { B }` is `Pinned<T, τ>`; `x.try_pin(τ)` is
`HardwareState<T, τ>`, whose `match` binds `Available(p)` as `Pinned<T, τ>` (a tensor in τ's
space) and `Saturated(v)` as `Verified<T>`; a name any other `match` pattern binds has the
type of what the matched value holds there. Parameter and return types are
written with their spaces, a constant's type too (one that writes none is the host's, where
a constant is computed), and each `Transfer` records the space its value leaves (`src`).
""", state=State, requires=("model",))


@infer_placement.on("Program")
def _program(run, node):
    st = run.state
    st.machine = Machine(run.ctx.model)
    st.here = [st.machine.host_space]
    base, items = Typer(node, st.machine), []
    for item in node.items:
        # resolve-names makes a local's name unique within its function only, so each item
        # binds its own: a name it binds without a type here (a `match` pattern's) must not
        # find another function's local of that name.
        st.typer = base.fresh()
        items.append(run.walk(item))
    return node.replace(items=tuple(items))


@infer_placement.on("ConstItem")
def _const_item(run, node):
    out = run.rebuild(node)
    return out.replace(type=with_span(run.state.typer.consts[node.name], node.type.span))


@infer_placement.on("Fn")
def _fn(run, node):
    machine, typer = run.state.machine, run.state.typer
    sig = typer.functions[node.name]
    run.state.here.append(sig.space)
    out = run.rebuild(node)
    run.state.here.pop()
    if node.ret is None:
        return out
    return out.replace(ret=with_span(placed(node.ret, sig.space, machine), node.ret.span))


@infer_placement.on("Param")
def _param(run, node):
    here = run.state.here[-1]
    ty = placed(node.type, here, run.state.machine) if node.type is not None else None
    run.state.typer.bind(node.name, ty if ty is not None else Ltyped["OpaqueType"](), here)
    return node if ty is node.type else node.replace(type=with_span(ty, node.type.span))


@infer_placement.on("Let")
def _let(run, node):
    value = run.walk(node.value)
    typer, here = run.state.typer, run.state.here[-1]
    ty = typer.let_type(node.type, value, here)
    typer.bind(node.name, ty, here)
    # An inferred type points at the `let` it was inferred for.
    ty = with_span(ty, node.type.span if node.type is not None else node.span)
    return Ltyped["Let"](node.name, node.mutable, ty, value, span=node.span)


@infer_placement.on("For")
def _for(run, node):
    typer, here = run.state.typer, run.state.here[-1]
    typer.bind(node.var, settle(join(typer.of(node.start, here), typer.of(node.end, here))),
               here)
    return run.rebuild(node)


@infer_placement.on("Spawn")
def _spawn(run, node):
    run.state.here.append(run.state.machine.holds(node.topo.name))
    out = run.rebuild(node)
    run.state.here.pop()
    return out


@infer_placement.on("Match")
def _match(run, node):
    """Each arm's binding gets the type of what its variant holds (`Typer.arm_type`)."""
    scrutinee = run.walk(node.scrutinee)
    typer, here = run.state.typer, run.state.here[-1]
    state = settle(typer.of(scrutinee, here))
    arms = []
    for arm in node.arms:
        b = arm.binding
        ty = with_span(typer.arm_type(state, arm.variant), b.span)
        typer.bind(b.name, ty, here)
        binding = Ltyped["Param"](b.name, ty, span=b.span)
        arms.append(Ltyped["Arm"](arm.variant, binding, run.walk(arm.body), span=arm.span))
    return Ltyped["Match"](scrutinee, arms, span=node.span)


@infer_placement.on("MatchValue")
def _match_value(run, node):
    """Each name a case's pattern binds gets the type of what the matched value holds there
    (`Typer.pattern_bindings`), so that a `let` of it has that type."""
    scrutinee = run.walk(node.scrutinee)
    typer, here = run.state.typer, run.state.here[-1]
    matched = settle(typer.of(scrutinee, here))
    cases = []
    for case in node.cases:
        for name, ty in typer.pattern_bindings(case.pattern, matched, here):
            typer.bind(name, ty, here)
        cases.append(run.walk(case))
    return node.replace(scrutinee=scrutinee, cases=tuple(cases))


@infer_placement.on("Transfer")
def _transfer(run, node):
    value = run.walk(node.value)
    src = run.state.typer.space(value, run.state.here[-1])
    mem = Ltyped["MemRef"](src, span=node.value.span) if src is not None else None
    return Ltyped["Transfer"](value, node.dest, node.mark, mem, span=node.span)
