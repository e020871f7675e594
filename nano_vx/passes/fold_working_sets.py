"""fold-working-sets: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lrouted import Lrouted
from ..model import Model
from ..nanopass import Analysis
from ..placement.working_sets import CallSite

fold_working_sets = Analysis("fold-working-sets", Lrouted, """
Add the working sets up along the call graph: refuse what overflows only across calls (E6027,
W1028 when overcommitted) and recursion placing tiles in a bounded space (E6028).

A function's total in a space is the larger of its own peak and, for each of its calls, the
bytes it holds across the call plus the callee's total: sequential calls compose by max, a
tile held across a call by +. Functions are taken callees first, one strongly connected
component at a time. A root of the call graph whose total is over a space's capacity, when
no function on the path overflows alone (that is check-capacity's E6010), is E6027 naming
the path, the peak, the capacity and what each function on the path holds; W1028 in an
`overcommit` space. Recursion in which a function places tiles in a bounded space has no
static bound: E6028 with the bytes one activation holds.
""", requires=("model", "working_sets", "call_sites"))


@dataclass
class Total:
    bytes: int
    path: list[str]  # the functions whose holdings add up to `bytes`, the caller first
    calls: list[CallSite] = field(default_factory=list)  # the calls between them


@fold_working_sets.on("Program")
def _program(run, node):
    model: Model = run.ctx.model
    functions = [i.name for i in node.items if i._prod == "Fn"]
    peaks: dict[tuple[str, str], int] = {}
    for ws in run.ctx.working_sets:
        peaks[ws.function, ws.space] = ws.peak
    calls: dict[str, list[CallSite]] = {f: [] for f in functions}
    for site in run.ctx.call_sites:
        calls[site.caller].append(site)
    components = _components(functions, calls)
    called = {site.callee for site in run.ctx.call_sites if site.caller != site.callee}
    spaces = [s for s in dict.fromkeys(space for _, space in peaks)
              if model.spaces[s].capacity is not None]
    for space in spaces:
        totals = _fold(run, components, calls, peaks, space)
        for f in functions:
            if f not in called and f in totals:
                _judge(run, model, space, totals[f], peaks)


def _components(functions: list[str], calls: dict[str, list[CallSite]]) -> list[list[str]]:
    """The strongly connected components of the call graph, callees before callers
    (Tarjan's algorithm, without recursion: a call chain can be as long as the program)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    for root in functions:
        if root in index:
            continue
        work = [(root, iter(calls[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            f, edges = work[-1]
            site = next(edges, None)
            if site is not None:
                g = site.callee
                if g not in index:
                    index[g] = low[g] = len(index)
                    stack.append(g)
                    on_stack.add(g)
                    work.append((g, iter(calls[g])))
                elif g in on_stack:
                    low[f] = min(low[f], index[g])
                continue
            work.pop()
            if work:
                caller = work[-1][0]
                low[caller] = min(low[caller], low[f])
            if low[f] == index[f]:
                component = []
                while True:
                    g = stack.pop()
                    on_stack.discard(g)
                    component.append(g)
                    if g == f:
                        break
                out.append(component)
    return out


def _fold(run, components, calls, peaks, space: str) -> dict[str, Total]:
    """Each function's total in `space`; E6028 for a recursive component placing tiles there
    (its functions get no total, so nothing above them is judged on a guess)."""
    totals: dict[str, Total] = {}
    for component in components:
        members = set(component)
        recursive = len(component) > 1 or any(
            site.callee in members for site in calls[component[0]])
        if recursive:
            placing = [f for f in component if peaks.get((f, space), 0) > 0]
            if placing:
                _recursion(run, component, calls, peaks, space, placing)
                continue
        for f in component:
            totals[f] = _total(f, calls, peaks, space, totals, members)
        if recursive:
            # Calls inside the component hold nothing in this space, so each member can
            # reach the largest total of any member at no cost.
            best = max((totals[f] for f in component), key=lambda t: t.bytes)
            for f in component:
                if totals[f].bytes < best.bytes:
                    totals[f] = Total(best.bytes, [f, *best.path], best.calls)
    return totals


def _total(f, calls, peaks, space, totals, members) -> Total:
    best = Total(peaks.get((f, space), 0), [f])
    for site in calls[f]:
        below = totals.get(site.callee)
        if site.callee in members or below is None:
            continue
        held = site.live(space) + below.bytes
        if held > best.bytes:
            best = Total(held, [f, *below.path], [site, *below.calls])
    return best


def _judge(run, model: Model, space_name: str, total: Total, peaks) -> None:
    space = model.spaces[space_name]
    capacity = space.capacity
    if total.bytes <= capacity or len(total.path) < 2:
        return  # within capacity, or one function alone (check-capacity's E6010)
    if any(peaks.get((f, space_name), 0) > capacity for f in total.path):
        return  # a function on the path overflows alone: E6010 already says so
    path = " -> ".join(total.path)
    holds = [(site.caller, site.live(space_name)) for site in total.calls]
    last = total.path[-1]
    holds.append((last, peaks.get((last, space_name), 0)))
    notes = [f"'{site.caller}' holds {site.live(space_name)} bytes across its call of "
             f"'{site.callee}' at {_where(site.call)}" for site in total.calls]
    notes.append(f"'{last}' itself peaks at {holds[-1][1]} bytes")
    text = (f"the working set along the call path {path} in memory space '{space.name}' "
            f"peaks at {total.bytes} bytes, over its {capacity} byte capacity")
    data = dict(space=space.name, path=list(total.path), required=total.bytes,
                available=capacity, margin=capacity - total.bytes,
                functions=[{"function": f, "bytes": b} for f, b in holds])
    at = total.calls[0].call.span
    if space.overcommit:
        run.ctx.diagnostics.warning(
            "W1028", at, f"{text}; the space is declared `overcommit`, which allows it",
            notes=notes, **data)
        return
    first = total.calls[0]
    # A tile the call is given is held until it returns, however soon the callee lets it go.
    given = any(t.space == space_name for t in first.given)
    run.ctx.diagnostics.error(
        "E6027", at, text, notes=notes,
        help=[f"let a tile that '{first.caller}' holds across the call die before "
              f"it (transfer it out, or stop using it after the call"
              + (", or give the callee a tensor of another space" if given else "")
              + f"), or split the work so the path needs less of '{space.name}' at once"],
        **data)


def _recursion(run, component, calls, peaks, space: str, placing: list[str]) -> None:
    members = set(component)
    # Start the cycle at a function that places tiles: that is where the bytes pile up.
    site = next(s for f in [*placing, *component] for s in calls[f] if s.callee in members)
    cycle = [site.caller, *_path_within(site.callee, site.caller, calls, members)]
    per = {f: peaks[f, space] for f in placing}
    each = ", ".join(f"'{f}' holds {b} bytes" for f, b in per.items())
    run.ctx.diagnostics.error(
        "E6028", site.call.span,
        f"the recursion {' -> '.join(cycle)} places tiles in memory space '{space}', which "
        f"has a capacity, and its depth has no static bound: each activation of {each}",
        help=["place the tiles outside the recursion and pass them in, or make the "
              "recursion a loop"],
        space=space, cycle=cycle, bytes_per_activation=per)


def _path_within(start: str, goal: str, calls, members: set[str]) -> list[str]:
    """The shortest chain of calls from `start` to `goal` inside one component."""
    came: dict[str, str | None] = {start: None}
    todo = [start]
    while goal not in came:
        f = todo.pop(0)
        for site in calls[f]:
            if site.callee in members and site.callee not in came:
                came[site.callee] = f
                todo.append(site.callee)
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


def _where(node) -> str:
    line, col = node.span.source.line_col(node.span.start) if node.span else (0, 0)
    return f"{line}:{col}"
