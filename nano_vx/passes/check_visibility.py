"""check-visibility: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.lresolved import display_name
from ..languages.lrouted import Lrouted
from ..model import Model, cost_number, cost_text
from ..nanopass import Analysis
from ..placement.scopes import Scope, Where, scopes_of
from ..placement.typer import Typer, placed_scalar
from ..placement.types import Machine


@dataclass
class State:
    model: Model | None = None
    machine: Machine | None = None
    typer: Typer | None = None
    scopes: dict[str, Scope] = field(default_factory=dict)  # every function's locals
    scope: Scope | None = None  # the current function's
    fn: str = ""  # the current function's name
    where: Where | None = None  # where the code being walked runs
    spawns: list = field(default_factory=list)  # the enclosing `spawn on` nodes
    transferred: set[int] = field(default_factory=set)  # values a transfer takes (not reads)
    reported: set = field(default_factory=set)  # (spawn, local) captures already refused
    said: OncePerPlace = field(default_factory=OncePerPlace)  # by (span, message)


check_visibility = Analysis("check-visibility", Lrouted, """
Refuse a read of a value whose space the reading topology cannot see (E6003).

Indexing, printing, arithmetic and conditions read a value, and so does an `if` or `match`
whose branches give a placed scalar beside a plain one (the value is the scalar inside), and so does `*p` or `p[i]`
through a raw pointer, in the space it points into; the code runs on the host (CPU),
on the topology of `fn .. on`, or inside `spawn on(τ)` on τ, and may read only the spaces
its topology declares `visible:`. A value captured by a `spawn on` block from outside must
be visible there too (a transfer inside the block is not a read). The message names the
value, its space, what the reader sees, and the cost of the fixing transfer on the declared
path. Spaces declared `managed: cached` are hardware-coherent and exempt. The value an
`Available(p)` arm binds lives on the topology `try_pin` pinned it to, and a read of it is
judged as any other. A read in the body of an `unroll across` is in every copy of it, and
refused once, not once per copy.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


@check_visibility.on("Program")
def _program(run, node):
    st = run.state
    st.model = run.ctx.model
    st.machine = Machine(st.model)
    st.typer = Typer(node, st.machine)
    st.scopes = scopes_of(node, st.typer)
    run.descend(node)
    st.said.note_copies()


@check_visibility.on("Fn")
def _fn(run, node):
    st = run.state
    st.scope = st.scopes[node.name]
    st.fn = node.name
    st.where = Where.of(node, st.typer)
    run.descend(node)


@check_visibility.on("ConstItem")
def _const(run, node):
    """A constant's value runs on no topology of its own and reads no variable: only
    constants, literals and calls (each function's reads are checked in the function)."""


@check_visibility.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.spawns.append(node)
    st.where.inside(run, node, st.machine)
    st.spawns.pop()


# -- the reads ------------------------------------------------------------------------------


@check_visibility.on("Index")
def _index(run, node):
    if node.base._prod != "Index":  # `a[i][j]` reads `a` once
        _read(run, node.base, node, pointer=_pointer(run, node.base))
    run.descend(node)


@check_visibility.on("Deref")
def _deref(run, node):
    """`*p` for a raw pointer p reads where p points, as `t[i]` reads t's space."""
    if _pointer(run, node.value):
        _read(run, node.value, node, pointer=True)
    run.descend(node)


def _pointer(run, e) -> bool:
    st = run.state
    t = st.scope.type_of(e, st.where.here[-1])
    return t is not None and t._prod == "PtrType"


@check_visibility.on("Call")
def _call(run, node):
    if node.callee._prod == "Global" and node.callee.name == "print":
        for a in node.args:
            if a._prod != "Index":
                _read(run, a, a)
    run.descend(node)


@check_visibility.on("Binary")
def _binary(run, node):
    _operands(run, node.left, node.right)
    run.descend(node)


@check_visibility.on("Unary")
def _unary(run, node):
    _operands(run, node.operand)
    run.descend(node)


@check_visibility.on("Cast")
def _cast(run, node):
    _operands(run, node.value)
    run.descend(node)


@check_visibility.on("If", "While", "Assert")
def _condition(run, node):
    _operands(run, node.cond)
    run.descend(node)


@check_visibility.on("IfExpr", "MatchValue", "Match")
def _branches(run, node):
    """An `if` or `match` whose branches differ only in where a scalar lives gives the scalar
    read out of each placed one (typer.agree): those branch values are reads."""
    st = run.state
    here = st.where.here[-1]
    if not placed_scalar(st.scope.type_of(node, here)):
        blocks = (node.then, node.orelse) if node._prod == "IfExpr" else \
            [c.body for c in (node.cases if node._prod == "MatchValue" else node.arms)]
        for block in blocks:
            value = block.value
            if value is not None and placed_scalar(st.scope.type_of(value, here)):
                _operands(run, value)
    run.descend(node)


@check_visibility.on("Assign")
def _assign(run, node):
    if node.op != "=":  # `x += 1` reads x
        _operands(run, node.target)
    run.descend(node)


@check_visibility.on("Transfer")
def _transfer(run, node):
    run.state.transferred.add(id(node.value))
    run.descend(node)


@check_visibility.on("Local")
def _local(run, node):
    st = run.state
    if st.spawns and _captured(st, node) and id(node) not in st.transferred:
        _capture(run, node)


def _operands(run, *exprs):
    for e in exprs:
        if e._prod == "Local":
            _read(run, e, e)


def _captured(st: State, local) -> bool:
    """Is this local bound outside the innermost `spawn on` that reads it?"""
    inside = len(st.where.topo) - 1
    return st.scope.depth.get(local.name, inside) < inside


def _read(run, value, at, pointer=False):
    st = run.state
    if value._prod == "Local" and _captured(st, value):
        return  # judged once, as a capture of the spawn
    name = display_name(value.name) if value._prod == "Local" else None
    _judge(run, st.scope.space_of(value, st.where.here[-1]), name, at, pointer=pointer)


def _capture(run, local):
    st = run.state
    spawn = st.spawns[-1]
    if (id(spawn), local.name) in st.reported:
        return
    st.reported.add((id(spawn), local.name))
    line, col = spawn.span.source.line_col(spawn.span.start) if spawn.span else (0, 0)
    name = display_name(local.name)
    _judge(run, st.scope.space_of(local, st.where.here[-1]), name, local,
           note=f"'{name}' is captured by the `spawn on` at {line}:{col}, which runs on "
                f"{st.where.topo[-1]}; a transfer is the only way a value crosses into it")


def _judge(run, space, value: str | None, at, note=None, pointer=False):
    """Report reading `value` (a local's name, None for another expression) in `space` from
    the current topology, unless the topology sees it."""
    st = run.state
    model = st.model
    reader = st.where.topo[-1]
    sees = st.machine.sees(reader)
    declared = model.spaces.get(space) if space is not None else None
    if sees is None or declared is None or space in sees or declared.managed == "cached":
        return  # a generic or unknown reader, an unknown space, or a coherent cache
    home = st.machine.holds(reader)
    route = model.route(space, home)
    if route is None:
        fix = f"there is no transfer path from {space} to {home} on the declared model"
        cost = path = None
    else:
        fix = (f"insert an explicit transfer to {home} "
               f"(cost {cost_text(route.cost)} on the declared path)")
        cost, path = cost_number(route.cost), list(route.path)
    repair = []
    if route is not None and pointer:  # a pointer moves with nothing: its tensor does
        repair = [f"transfer the tensor to Memory::{home} and take the pointer there"]
    elif route is not None and value is not None:
        repair = [f"`let home = transfer({value}, Memory::{home});` and read `home`"]
    name = f"'{value}'" if value is not None else "this value"
    message = f"{name} lives in {space} but {reader} sees only [{', '.join(sees)}]; {fix}"
    # The copies `unroll across` makes share their body's nodes, spans included: the same
    # read at the same place is one error, however many copies hold it.
    if st.said.again((at.span, message)):
        return
    notes = [note] if note else []
    if "$" in st.fn:
        # A function the compiler made (an instance of a generic, `run$NPU[1]`, or a
        # derivative): its body is one the program wrote once, which only this copy of it
        # reads where its reader cannot see.
        notes.append(f"the read is in '{st.fn}'")
    diag = run.ctx.diagnostics.error(
        "E6003", at.span, message, notes=notes, help=repair,
        value=value, space=space, reader=reader, sees=list(sees), fix=home, cost=cost,
        path=path)
    st.said.said((at.span, message), diag)
