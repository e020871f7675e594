"""place: Stiled -> Splaced."""

from __future__ import annotations

from ..languages.stiled import Stiled
from ..languages.splaced import Splaced
from ..nanopass import Pass
from ..spatial.cost import split_counts
from ..spatial.program import Program, ins, outs

place = Pass("place", Stiled, Splaced, """
Put every stage on a site and an engine of the mesh, cutting the graph into one copy per site.

The graph is cut along the outermost loop variables every load and store walks with the same
range and in the same order, and every store indexes by (the output tiles, which no two copies
share): the first two of them, each into as many equal blocks as fill the most sites
(`split_counts`, the count `tile`'s cost model assumed). Block (a, b) of the cut is the copy of
every stage and stream with suffix `_a_b`, its loads and stores walking only their block of
each cut variable, on site (a, b) when the blocks fit the mesh's rows and columns, so that the
copies sharing a row of output tiles share a row of the mesh (and a multicast to them reaches a
rectangle); otherwise on the site whose row-major number is a x (blocks along the second
variable) + b. On its site a load runs on the `reader` engine, a store on the `writer` and a
compute or scalar stage on `compute`. A graph with nothing to cut runs whole on site (0, 0).
""", requires=("target",))
L = Splaced
ENGINE = {"Load": "reader", "Store": "writer", "Compute": "compute", "Scalar": "compute"}


@place.on("Graph")
def _graph(run, g):
    p = Program(g)
    target = run.ctx.target
    cuts = _cut_variables(p)
    counts = split_counts([_count(lp) for lp in cuts], target.rows * target.cols)
    if not cuts or all(c == 1 for c in counts):
        places = tuple(L["Place"](st.name, (0, 0), ENGINE[st._prod]) for st in g.stages)
        return L["Graph"](g.name, g.tensors, g.streams, g.stages, places, span=g.span)
    blocks = _blocks(counts)
    grid = len(counts) == 2 and counts[0] <= target.rows and counts[1] <= target.cols
    streams, stages, places = [], [], []
    for number, block in enumerate(blocks):
        suffix = "_" + "_".join(map(str, block))
        site = block if grid else (number // target.cols, number % target.cols)
        ranges = {lp.var: _block_range(lp, c, b) for lp, c, b in zip(cuts, counts, block)}
        streams += [s.replace(name=s.name + suffix) for s in g.streams]
        for st in g.stages:
            stages.append(_copy(st, suffix, ranges))
            places.append(L["Place"](st.name + suffix, site, ENGINE[st._prod]))
    return L["Graph"](g.name, g.tensors, tuple(streams), tuple(stages), tuple(places),
                      span=g.span)


def _cut_variables(p: Program) -> list:
    """Of the outermost loops every load and store walks alike and in one order, the first
    two that every store indexes by. Outermost, so that a copy's firings of each access are
    those of whole iterations of the cut loops and its stages still pair their tokens as the
    whole graph did (a loop inside another, or in another order, would hand one copy's
    loads the tiles another copy's stores write); indexed by every store, so that no two
    copies write one tile."""
    accesses = [st for st in p.stages.values() if st._prod in ("Load", "Store")]
    stores = [st for st in accesses if st._prod == "Store"]
    if not stores:
        return []
    common = []
    for loops in zip(*(st.loops for st in accesses)):
        if any(lp != loops[0] for lp in loops):
            break
        common.append(loops[0])
    return [lp for lp in common if all(lp.var in st.index for st in stores)][:2]


def _count(lp) -> int:
    return len(range(lp.start, lp.stop, lp.step))


def _blocks(counts) -> list[tuple[int, ...]]:
    out = [()]
    for c in counts:
        out = [b + (i,) for b in out for i in range(c)]
    return out


def _block_range(lp, parts: int, which: int) -> tuple[int, int]:
    size = _count(lp) // parts
    start = lp.start + which * size * lp.step
    return start, start + size * lp.step


def _copy(st, suffix: str, ranges: dict):
    def port(pt):
        return pt.replace(stream=pt.stream + suffix)

    changes = {"name": st.name + suffix}
    if st._prod == "Store":
        changes["input"] = port(st.input)
    else:
        changes["outs"] = tuple(port(pt) for pt in outs(st))
    if st._prod in ("Compute", "Scalar"):
        changes["ins"] = tuple(port(pt) for pt in ins(st))
    if st._prod in ("Load", "Store"):
        changes["loops"] = tuple(
            lp.replace(start=ranges[lp.var][0], stop=ranges[lp.var][1]) if lp.var in ranges
            else lp for lp in st.loops)
    return st.replace(**changes)
