"""check-where-clauses: Lmono, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS
from ..languages.linstances import generic_of, topology_name
from ..languages.lmono import Lmono
from ..nanopass import Analysis


@dataclass
class State:
    bounds: dict = field(default_factory=dict)  # function -> its where clauses


check_where_clauses = Analysis("check-where-clauses", Lmono, """
Discharge every `where Reachable<A, B>` at every call that runs the function (E6040).

`Reachable<A, B>` holds when data can get from the memory topology A holds to the memory B
holds along the declared transfer graph, with the routing transfers use (`within:` legs
included). monomorphize has put the topologies of each instance in its clauses, so a call
to `pipeline$GPU$CPU$Island` checks `Reachable<CPU, Island>` for the clause written
`Reachable<B, C>`. An unmet clause is refused at the call, naming the clause as written, the
callee, and the two topologies and their spaces with no path between them; clauses that hold
are not reported.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


@check_where_clauses.on("Program")
def _program(run, node):
    run.state.bounds = {i.name: i.bounds for i in node.items if i._prod == "Fn" and i.bounds}
    run.descend(node)


@check_where_clauses.on("Call")
def _call(run, node):
    callee = node.callee
    if callee._prod == "Global":
        for bound in run.state.bounds.get(callee.name, ()):
            _discharge(run, node, callee.name, bound)
    run.descend(node)


def _discharge(run, call, callee: str, bound) -> None:
    model = run.ctx.model
    src, dst = (model.topology_of(t.name) for t in (bound.src, bound.dst))
    if src is not None and dst is not None and model.route(src.memory, dst.memory) is not None:
        return
    a, b = topology_name(bound.src), topology_name(bound.dst)
    if src is None or dst is None:
        missing = a if src is None else b
        why = f"no topology named {missing} is declared"
        notes = []
    else:
        why = f"no transfer path from {a} to {b}"
        notes = [f"{a} holds {src.memory} and {b} holds {dst.memory}; the declared model has "
                 f"no path from {src.memory} to {dst.memory}"]
    generic = generic_of(callee)
    if generic != callee:
        notes.insert(0, f"this call runs '{callee}', where `{bound.written}` is "
                        f"`Reachable<{a}, {b}>`")
    run.ctx.diagnostics.error(
        "E6040", call.span,
        f"unsatisfied `where {bound.written}` in call to '{generic}': {why}",
        notes=notes,
        help=[f"declare a transfer edge that connects them ({_edge(src, dst)} in a "
              f"Topology), or call '{generic}' with topologies that can reach each other"],
        callee=callee, clause=bound.written, src=a, dst=b,
        src_space=src.memory if src is not None else None,
        dst_space=dst.memory if dst is not None else None)


def _edge(src, dst) -> str:
    a, b = (t.memory if t is not None else "X" for t in (src, dst))
    return f"`transfer Memory::{a} -> Memory::{b} : cost`"
