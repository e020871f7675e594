"""summarize-working-sets: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from heapq import heappop, heappush

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
    # (the tile a local held, point, whether the use moves it out: `transfer(t, M)`)
    uses: list[tuple[Tile, int, bool]] = field(default_factory=list)
    moved: int | None = None  # id of the local a transfer being walked moves
    loops: list[tuple[int, int]] = field(default_factory=list)  # (first, last point) each
    # The loops being walked, innermost last: each one's first point, what each local held
    # on entering it, and where each local was last read still holding that.
    open: list[tuple[int, dict[str, Tile], dict[str, int]]] = field(default_factory=list)
    # (tile, the loop's first and last point, the read, the tile its local held on entry)
    # of each tile a loop carries into its next turn.
    carried: list[tuple[Tile, int, int, int, Tile | None]] = field(default_factory=list)
    # (tile, the construct's last point, the tile standing for it) of each tile a local may
    # hold after a branch or a loop besides the one its later uses are credited to.
    alternatives: list[tuple[Tile, int, Tile]] = field(default_factory=list)
    # Per loop being walked, innermost last: where each `break` or `continue` in it leaves
    # its turn, and what the locals hold there.
    exits: list[list[tuple[int, dict[str, Tile]]]] = field(default_factory=list)
    fn_calls: list[CallSite] = field(default_factory=list)  # its calls of other functions


summarize_working_sets = Analysis("summarize-working-sets", Lrouted, """
Find each function's tiles and how long each stays resident: the working set per space.

A tile is a statically sized tensor that a `transfer` places in a space with a capacity or
a granule, or that is made there (`Tensor<f32, [N], Memory::X>::new()`, the space spelled by
its device as `Topology::X` too). It is resident from its placement to the last use of the
local it is bound to (`let t = transfer(x, M)`, or `t = transfer(x, M)`, after which a use
of t is one of the new tile, not of the one t held; a tile bound to nothing lives at its
transfer only; a reference bound to it, `let p = &t`, or a new name of it, `let u = t`,
allocates nothing and its uses are uses of the tile), and a use inside a loop that the
transfer is outside of keeps it to the end of the loop, since the next iteration uses it
again, unless the use moves it out (`transfer(t, M)`): linearity makes the next iteration's
use one of a tile assigned since. A tile placed inside a loop and bound to a local that the
loop reads before it gives the local a tile (`loop { use(t); ..; t = transfer(y, M); }`) is
carried into the next turn: it is resident to the end of the loop, and on the next turn from
the loop's start to that read too. There, on the first turn, the local held the tile it had
before the loop, which has the same footprint and stands for it (the two are never counted
together); with none (a parameter), the carried tile counts itself, twice where the turn
places it again before reading the one carried (`let n = transfer(..); use(t); t = n;`).
An assignment in an arm of an `if` or a `match`, or in a loop's body, happens only when that
arm runs (a loop may run no turn, and leave one at a `break` or a `continue`): after it, the
local holds what it held before or what an arm left it, and each of those is resident to the
local's last use. One of them, the tile it held before if an arm keeps it, takes the local's
later uses; it stands for the others after the construct (a local holds one tile at a time,
all of its type), and each other is resident to its arm's end. A tile is not resident in an
arm after that arm gives its local another tile and no longer uses it, nor in the arms after
the one that placed it.
A call or a branching value (`if`, `match`) whose type is a tensor of a bounded space hands
over a tile, placed where it is bound: the tiles placed inside it end there. A tile given to
a call of a function of the program (`step(transfer(x, M))`, `step(t)`, `step(&t)`) is
resident to the end of the call's arguments, where the callee starts, since the callee
counts none of its parameters. The working set of a space is the peak, over the program
points, of the resident tiles, each rounded up to the space's granule. At each call of a
function of the program it records the tiles still resident while the callee runs: placed
before the call and used in its arguments or after it, carried to the call by a loop, or
given to it. The sets are left on the compilation for check-capacity and
schedule-sub-spaces, the call sites for fold-working-sets.
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
    st.tiles, st.bound, st.uses, st.loops, st.fn_calls, st.carried = {}, {}, [], [], [], []
    st.alternatives = []
    run.descend(node)
    uses = [(tile, at, moves) for tile, at, moves in st.uses if at > tile.start]
    ends = _through_loops(st.loops, [(tile, at) for tile, at, _ in uses])
    for (tile, at, moves), end in zip(uses, ends):
        tile.last = max(tile.last, at if moves else end)
    for tile, first, last, read, before in st.carried:
        _carry(tile, first, last, read, before)
    for tile, last, stand_in in st.alternatives:
        if stand_in.last > last:
            tile.again.append((last + 1, stand_in.last, stand_in))
    tiles = list(st.tiles.values())
    _hold(st.fn_calls, tiles)
    st.sets.extend(_working_sets(node.name, tiles))
    st.calls.extend(st.fn_calls)
    st.fn = st.scope = None


@summarize_working_sets.on("Call")
def _call(run, node):
    """A call of a function of the program: the tiles given to it as arguments (placed there,
    `step(transfer(x, M))`, or a local's, `step(t)`, `step(&t)`) are resident while it runs,
    which the callee, counting no parameter, does not count: the caller holds them to the
    end of its arguments, where the callee starts, and the call site records them."""
    st = run.state
    callee = node.callee
    if st.fn is None or callee._prod != "Global" or callee.name not in st.typer.functions:
        run.descend(node)
        return
    st.point += 1  # the call starts before its arguments are read
    site = CallSite(st.fn, callee.name, node, st.point)
    st.fn_calls.append(site)
    given = []
    for arg in node.args:
        ordinal = st.ordinal
        run.walk(arg)
        tile, placed = _tile_of(run, arg, ordinal)
        if tile is not None:
            given.append(tile)
            if placed:
                site.given.append(tile)
    for tile in given:
        st.uses.append((tile, st.point, False))


@summarize_working_sets.on("Spawn")
def _spawn(run, node):
    st = run.state
    run.walk(node.topo)
    st.here.append(st.typer.machine.holds(node.topo.name))
    run.walk(node.body)
    st.here.pop()


@summarize_working_sets.on("For", "While")
def _loop(run, node):
    """A loop, and the tiles it carries into its next turn: a local read in it before it is
    given a tile there reads, on the next turn, the tile it holds at the loop's end."""
    st = run.state
    st.point += 1
    first = st.point
    st.open.append((first, dict(st.bound), {}))
    st.exits.append([])
    uses = len(st.uses)
    run.descend(node)
    _, entered, reads = st.open.pop()
    exits = st.exits.pop()
    st.loops.append((first, st.point))
    for name, read in reads.items():
        tile = st.bound.get(name)
        if tile is not None and tile.start > first and tile is not entered.get(name):
            st.carried.append((tile, first, st.point, read, entered.get(name)))
    # It may run no turn: after it, a local holds what it held on entering it, or what a
    # turn left it, at its end or where a `break` or `continue` leaves it (an arm of no
    # points of its own, up to there).
    st.bound = _join(st, entered, [(first + 1, st.point, st.bound, uses),
                                   (st.point + 1, st.point, entered, len(st.uses))]
                     + [(at + 1, at, held, len(st.uses)) for at, held in exits])


@summarize_working_sets.on("Break", "Continue")
def _exit(run, node):
    """Where a turn leaves the loop (a `continue` too: the loop may end at its next test)."""
    st = run.state
    if st.exits:
        st.exits[-1].append((st.point, dict(st.bound)))


# The parts of a branching construct: the one always run first, and its arms, one of which
# runs (an `if` without `else` has an empty one).
BRANCHES = {"If": ("cond", ("then", "orelse")), "IfExpr": ("cond", ("then", "orelse")),
            "MatchValue": ("scrutinee", "cases"), "Match": ("scrutinee", "arms")}


@summarize_working_sets.on(*BRANCHES)
def _branch(run, node):
    """Each arm starts from what the locals hold before it; after the construct a local
    holds what one of them left it (an assignment in an arm happens only when it runs)."""
    st = run.state
    head, arms = BRANCHES[node._prod]
    run.walk(getattr(node, head))
    arms = [getattr(node, a) for a in arms] if type(arms) is tuple else getattr(node, arms)
    entry, ends = st.bound, []
    for arm in arms:
        st.bound = dict(entry)
        first, uses = st.point + 1, len(st.uses)
        if arm is not None:
            run.walk(arm)
        ends.append((first, st.point, st.bound, uses))
    st.bound = _join(st, entry, ends)


def _join(st: State, entry: dict[str, Tile], ends) -> dict[str, Tile]:
    """What the locals hold after arms (first point, last point, what they hold at its end,
    where its uses start in `st.uses`) of which one runs. A local left different tiles is
    credited, for its later uses, with one of them: the tile it held before, if an arm
    keeps it, else the first arm's. That one stands for the others after the construct (a
    local holds one tile, all of its type); each other is resident to its arm's end. The one
    kept is not resident in an arm after its last use there, when the arm gives its local
    another tile; one placed in an arm is not resident in the arms after it."""
    last = max(hi for _, hi, _, _ in ends)
    joined: dict[str, Tile] = {}
    for name in dict.fromkeys(n for _, _, held, _ in ends for n in held):
        tiles = [held.get(name) for _, _, held, _ in ends]
        if all(t is tiles[0] for t in tiles):
            if tiles[0] is not None:
                joined[name] = tiles[0]
            continue
        before = entry.get(name)
        kept = before if before is not None and any(t is before for t in tiles) else next(
            t for t in tiles if t is not None)
        joined[name] = kept
        for (lo, hi, held, uses), tile in zip(ends, tiles):
            if tile is not None and tile is not kept:
                tile.last = max(tile.last, hi)
                st.alternatives.append((tile, last, kept))
            if kept is before and tile is not before and lo <= hi and all(
                    t is not before for t in held.values()):
                _gap(kept, _last_use(st, kept, lo, uses) + 1, hi)
            elif kept is tile and lo <= kept.start <= hi:
                _gap(kept, hi + 1, last)
    return joined


def _last_use(st: State, tile: Tile, first: int, uses: int) -> int:
    """The last point of an arm starting at `first` where `tile` is used (through the loops in
    the arm that a use not moving it out is in); the point before the arm if none."""
    end = first - 1
    for used, at, moves in st.uses[uses:]:
        if used is tile:
            end = max([end, at] + [hi for lo, hi in st.loops
                                   if not moves and first <= lo <= at <= hi])
    return end


def _gap(tile: Tile, lo: int, hi: int) -> None:
    if lo <= hi:
        tile.gaps.append((lo, hi))


def _carry(tile: Tile, first: int, last: int, read: int, before: Tile | None) -> None:
    """Keep a tile a loop carries resident to the loop's end and, on the next turn, from the
    loop's start to the read. The tile its local held on entering the loop holds that stretch
    on the first turn, with the same footprint (the local's type), and stands for it; with
    none (a parameter), the stretch counts itself, beside its own span where the turn places
    the tile again before that read (two turns' tiles of one transfer)."""
    tile.last = max(tile.last, last)
    if before is not None and (before.space, before.footprint) != (tile.space, tile.footprint):
        before = None
    # Loops carrying one tile nest, and the inner one's stretch lies in the outer one's,
    # which comes later: the outer stretch is the one.
    tile.again = [s for s in tile.again if not first <= s[0] <= s[1] <= read]
    tile.again.append((first, read, before))


@summarize_working_sets.on("Let")
def _let(run, node):
    run.walk(node.type)
    _bind(run, node.name, node.value)


@summarize_working_sets.on("Assign")
def _assign(run, node):
    """`x = v` gives x a new value: the tile it held is not used by it any more (a use of x
    after is one of what v places or names), and writing x is no use of either."""
    if node.op != "=" or node.target._prod != "Local":
        run.descend(node)
        return
    run.state.bound.pop(node.target.name, None)
    _bind(run, node.target.name, node.value)


# Values that hand over a tile placed elsewhere: by a callee, or by whichever branch runs.
RESULTS = ("Call", "IfExpr", "Match", "MatchValue")


def _bind(run, name: str, value) -> None:
    """Walk the value a local is given, and bind the local to the tile the value is, if any."""
    st = run.state
    ordinal = st.ordinal  # a transfer bound here is the next one the walk meets
    run.walk(value)
    tile, placed = _tile_of(run, value, ordinal)
    if tile is not None:
        if placed:
            tile.name = name
        st.bound[name] = tile


def _tile_of(run, value, ordinal: int) -> tuple[Tile | None, bool]:
    """The tile a value just walked is, and whether the value placed it: a transfer (the
    `ordinal`-th), a tensor made in place, or one a call or a branching value hands over;
    else a borrow, or a new name of the tensor (`let u = t;` copies nothing), allocates
    nothing: it is the tile the local it names holds."""
    st = run.state
    if value._prod in RESULTS:
        return (_result(run, value) if st.scope is not None else None), True
    if value._prod == "Transfer":
        return st.tiles.get(ordinal), True
    if value._prod in ("TensorNew", "TensorLit"):
        return st.tiles.get(id(value)), True
    named = value.value if value._prod == "Borrow" else value
    return (st.bound.get(named.name) if named._prod == "Local" else None), False


@summarize_working_sets.on("Local")
def _local(run, node):
    st = run.state
    st.point += 1
    tile = st.bound.get(node.name)  # the tile the local holds here: an assignment rebinds it
    for _, entered, reads in st.open:
        if tile is entered.get(node.name):  # read before the loop gives it a tile
            reads[node.name] = st.point
    if tile is not None:
        st.uses.append((tile, st.point, st.moved == id(node)))


@summarize_working_sets.on("Transfer")
def _transfer(run, node):
    st = run.state
    ordinal, st.ordinal = st.ordinal, st.ordinal + 1
    st.point += 1
    if st.scope is not None:
        _place(run, node, ordinal, node.dest.name, st.scope.type_of(node.value, st.here[-1]))
    # A tile moved out is gone: a loop around the move uses no more of it (linearity makes
    # the next iteration's use one of a tile assigned since).
    st.moved = id(node.value) if node.value._prod == "Local" else None
    run.descend(node)
    st.moved = None


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


def _result(run, value) -> Tile | None:
    """The tile a call or a branching value hands over, counted from where it is bound: the
    tiles inside it (a transferred argument, each branch's) end there, and one of them, of
    the value's type, lives on. One too big for its space is refused where it is placed."""
    st = run.state
    ty = st.scope.type_of(value, st.here[-1])
    space = space_of(ty, st.typer.machine) if ty._prod == "TensorType" else None
    if space is None:
        return None
    _place(run, value, None, space, ty)
    tile = st.tiles.get(_key(value, None))
    capacity = run.ctx.model.spaces[space].capacity
    if tile is not None and capacity is not None and tile.footprint > capacity:
        del st.tiles[_key(value, None)]
        return None
    return tile


def _key(node, ordinal: int | None):
    """A transferred tile is known by its transfer's ordinal, a made one by its node."""
    return ordinal if ordinal is not None else id(node)


def _through_loops(loops, uses):
    """Where each use (tile, point), in the order of its point, keeps its tile to: a use in a
    loop that does not hold the placement lasts to the loop's end. Loops nest, so the ones
    holding a point are a chain, and those of it that start after the placement are the
    inner end of the chain: the outermost of them ends last. One sweep over the points."""
    by_start = sorted(loops)
    chain: list = []  # the loops holding the point reached, outermost first
    firsts: list = []  # their first points, increasing
    k = 0
    for tile, used in uses:
        while k < len(by_start) and by_start[k][0] <= used:
            _leave(chain, firsts, by_start[k][0])
            chain.append(by_start[k])
            firsts.append(by_start[k][0])
            k += 1
        _leave(chain, firsts, used)
        inner = bisect_right(firsts, tile.start)
        yield chain[inner][1] if inner < len(chain) else used


def _leave(chain: list, firsts: list, point: int) -> None:
    """Drop the loops that end before `point`."""
    while chain and chain[-1][1] < point:
        chain.pop()
        firsts.pop()


def _hold(sites, tiles: list[Tile]) -> None:
    """Record at each call site (in the order of their points) the tiles placed before it
    and resident at it: a sweep with the stretches of residency started so far and a heap of
    when each ends. In its stretch on a loop's next turn, a tile the loop carries was placed
    on the turn before, so before a call there; it is held twice where both turns' are."""
    # A tile's own span counts from after its placement: placed at a call, it is not held.
    spans = sorted((lo + (j == 0), hi, i) for i, t in enumerate(tiles)
                   for j, (lo, hi, _) in enumerate(t.spans(counted=True)))
    live: set = set()  # indices into `spans`
    ends: list = []  # (last point, index) of each live stretch
    k = 0
    for site in sites:
        while k < len(spans) and spans[k][0] <= site.point:
            live.add(k)
            heappush(ends, (spans[k][1], k))
            k += 1
        while ends and ends[0][0] < site.point:
            live.discard(heappop(ends)[1])
        for i in sorted(spans[j][2] for j in live):
            site.held.setdefault(tiles[i].space, []).append(tiles[i])
        for tile in site.given:
            site.held.setdefault(tile.space, []).append(tile)


def _working_sets(function: str, tiles: list[Tile]):
    """Per space, the peak of the resident footprints over the points where a stretch of
    residency starts (the first such point, on a tie), found by one sweep over those
    points. Where this turn's tile and the one a loop carried from the last are both
    resident, the tile counts twice."""
    spaces: dict = {}
    for t in tiles:
        spaces.setdefault(t.space, []).append(t)
    for space, mine in spaces.items():
        best = WorkingSet(function, space, 0, [], mine)
        spans = sorted((lo, hi, i) for i, t in enumerate(mine)
                       for lo, hi, _ in t.spans(counted=True))
        ends: list = []  # (last point, index in spans) of each resident stretch
        total, k = 0, 0
        for at in sorted({lo for lo, _, _ in spans}):
            while k < len(spans) and spans[k][0] <= at:
                total += mine[spans[k][2]].footprint
                heappush(ends, (spans[k][1], k))
                k += 1
            while ends and ends[0][0] < at:
                total -= mine[spans[heappop(ends)[1]][2]].footprint
            if total > best.peak:
                best.peak, best.point = total, at
        if best.point is not None:
            best.resident = [t for t in mine for lo, hi, _ in t.spans(counted=True)
                             if lo <= best.point <= hi]
        yield best
