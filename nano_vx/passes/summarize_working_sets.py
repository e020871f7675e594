"""summarize-working-sets: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.scopes import Scope, scopes_of
from ..values.sizes import rounded, tensor_bytes
from ..placement.typer import Typer
from ..placement.types import Machine, space_of
from ..placement.working_sets import CallSite, Tile, WorkingSet


@dataclass
class State:
    typer: Typer | None = None
    sets: list[WorkingSet] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)  # of every function, in walk order
    ordinal: int = 0  # transfers seen so far, in walk order: how schedule-sub-spaces finds a tile
    point: int = 0  # the program point reached; a use or a placement takes the next
    scopes: dict[str, Scope] = field(default_factory=dict)  # every function's locals
    # The function being walked (None between functions):
    fn: str | None = None
    scope: Scope | None = None
    here: list[str | None] = field(default_factory=list)  # where its code runs
    tiles: dict[int, Tile] = field(default_factory=dict)  # by ordinal
    bound: dict[str, Tile] = field(default_factory=dict)  # by the local bound to it
    uses: list[tuple[str, int]] = field(default_factory=list)  # (local, point)
    loops: list[tuple[int, int]] = field(default_factory=list)  # (first, last point) each
    fn_calls: list[CallSite] = field(default_factory=list)  # its calls of other functions


summarize_working_sets = Analysis("summarize-working-sets", Lrouted, """
Find each function's tiles and how long each stays resident: the working set per space.

A tile is a statically sized tensor that a `transfer` places in a space with a capacity or
a granule, or that is made there (`Tensor<f32, [N], Memory::X>::new()`, the space spelled by
its device as `Topology::X` too). It is resident from its placement to the last use of the
local it is bound to
(`let t = transfer(x, M)`; a tile bound to nothing lives at its transfer only; a reference
bound to it, `let p = &t`, allocates nothing and its uses are uses of the tile), and a use
inside a loop that the transfer is outside of keeps it to the end of the loop, since the
next iteration uses it again. The working set of a space is the peak, over the program
points, of the resident tiles, each rounded up to the space's granule. At each call of a
function of the program it records the tiles still resident while the callee runs: placed
before the call and used in its arguments or after it. The sets are left on the compilation
for check-capacity and schedule-sub-spaces, the call sites for fold-working-sets.
""", state=State, requires=("model",), provides=("working_sets", "call_sites"))


@summarize_working_sets.on("Program")
def _program(run, node):
    run.state.typer = Typer(node, Machine(run.ctx.model))
    run.state.scopes = scopes_of(node, run.state.typer)
    run.descend(node)
    run.ctx.working_sets = run.state.sets
    run.ctx.call_sites = run.state.calls


@summarize_working_sets.on("Fn")
def _fn(run, node):
    st = run.state
    st.fn, st.scope = node.name, st.scopes[node.name]
    st.here = [st.typer.functions[node.name].space]
    st.tiles, st.bound, st.uses, st.loops, st.fn_calls = {}, {}, [], [], []
    run.descend(node)
    for name, at in st.uses:
        tile = st.bound.get(name)
        if tile is not None and at > tile.start:
            tile.last = max(tile.last, _through_loops(st.loops, tile.start, at))
    for site in st.fn_calls:
        for tile in st.tiles.values():
            if tile.start < site.point <= tile.last:
                site.held.setdefault(tile.space, []).append(tile)
    st.sets.extend(_working_sets(node.name, list(st.tiles.values())))
    st.calls.extend(st.fn_calls)
    st.fn = st.scope = None


@summarize_working_sets.on("Call")
def _call(run, node):
    st = run.state
    callee = node.callee
    if st.fn is not None and callee._prod == "Global" and callee.name in st.typer.functions:
        st.point += 1  # the call starts before its arguments are read
        st.fn_calls.append(CallSite(st.fn, callee.name, node, st.point))
    run.descend(node)


@summarize_working_sets.on("Spawn")
def _spawn(run, node):
    st = run.state
    run.walk(node.topo)
    st.here.append(st.typer.machine.holds(node.topo.name))
    run.walk(node.body)
    st.here.pop()


@summarize_working_sets.on("For", "While")
def _loop(run, node):
    st = run.state
    st.point += 1
    first = st.point
    run.descend(node)
    st.loops.append((first, st.point))


@summarize_working_sets.on("Let")
def _let(run, node):
    run.walk(node.type)
    ordinal = run.state.ordinal  # a transfer bound here is the next one the walk meets
    run.walk(node.value)
    made = node.value._prod in ("TensorNew", "TensorLit")
    tile = run.state.tiles.get(_key(node.value, None if made else ordinal))
    if (node.value._prod == "Transfer" or made) and tile is not None:
        tile.name = node.name
        run.state.bound[node.name] = tile
    elif node.value._prod == "Borrow" and node.value.value._prod == "Local":
        # A borrow allocates nothing: a use of the reference is a use of the tile it names.
        lent = run.state.bound.get(node.value.value.name)
        if lent is not None:
            run.state.bound[node.name] = lent


@summarize_working_sets.on("Local")
def _local(run, node):
    st = run.state
    st.point += 1
    st.uses.append((node.name, st.point))


@summarize_working_sets.on("Transfer")
def _transfer(run, node):
    st = run.state
    ordinal, st.ordinal = st.ordinal, st.ordinal + 1
    st.point += 1
    if st.scope is not None:
        _place(run, node, ordinal, node.dest.name, st.scope.type_of(node.value, st.here[-1]))
    run.descend(node)


@summarize_working_sets.on("TensorNew", "TensorLit")
def _made(run, node):
    """A tensor made in place, `Tensor<f32, [N], Memory::X>::new()` or spelled by the device,
    `Topology::X`, is a tile of its space as a transferred one is."""
    st = run.state
    if st.scope is not None:
        ty = st.scope.type_of(node, st.here[-1])
        space = space_of(ty, st.typer.machine) if ty._prod == "TensorType" else None
        if space is not None:
            _place(run, node, None, space, ty)
    run.descend(node)


def _place(run, node, ordinal: int | None, space_name: str, ty) -> None:
    """Record a tile of type `ty` placed by `node` in a space: unknown spaces, tensors with no
    static size, and spaces neither bounded nor scheduled hold none."""
    st = run.state
    space = run.ctx.model.spaces.get(space_name)
    size = tensor_bytes(ty)
    if space is not None and size is not None and (space.capacity is not None
                                                    or space.granule):
        if ordinal is None:  # a transfer took its point already
            st.point += 1
        st.tiles[_key(node, ordinal)] = Tile(space.name, size, rounded(size, space.granule),
                                             node, ordinal, st.point)


def _key(node, ordinal: int | None):
    """A transferred tile is known by its transfer's ordinal, a made one by its node."""
    return ordinal if ordinal is not None else id(node)


def _through_loops(loops, placed: int, used: int) -> int:
    """A use in a loop that does not hold the placement lasts to the loop's end."""
    end = used
    for first, last in loops:
        if first <= used <= last and not first <= placed <= last:
            end = max(end, last)
    return end


def _working_sets(function: str, tiles: list[Tile]):
    for space in dict.fromkeys(t.space for t in tiles):
        mine = [t for t in tiles if t.space == space]
        best = WorkingSet(function, space, 0, [], mine)
        for at in sorted({t.start for t in mine}):
            live = [t for t in mine if t.start <= at <= t.last]
            total = sum(t.footprint for t in live)
            if total > best.peak:
                best.peak, best.resident = total, live
        yield best
