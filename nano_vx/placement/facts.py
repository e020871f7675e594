"""The program-level facts `--error-format=json` reports: routes and resident sets.

Plain JSON data, for admitted programs as for refused ones, so that a tool can read how full
each space is and what each transfer costs without parsing messages. They are reported once
the working sets are known (summarize-working-sets ran), read from the routed tree and the
compilation's facts rather than computed again.
"""

from __future__ import annotations

from fractions import Fraction

from ..model import cost_number
from ..nanopass import descendants


def _at(node) -> dict:
    if node.span is None:
        return {}
    line, col = node.span.source.line_col(node.span.start)
    return {"line": line, "column": col}


def routes(tree) -> list[dict]:
    """Every transfer whose source space is known, with the route resolve-sub-space-ancestors
    put on it (read from the IR, not searched for again)."""
    out = []
    for node in descendants(tree):
        if node._prod == "Transfer" and node.src is not None:
            route = node.route
            path = [node.src.name, *(hop.dst for hop in route.hops)] if route else None
            out.append({"src": node.src.name, "dst": node.dest.name, **_at(node),
                        "path": path,
                        "cost": cost_number(Fraction(route.cost)) if route else None})
    return out


def resident_sets(working_sets, model) -> list[dict]:
    out = []
    for ws in working_sets:
        capacity = model.spaces[ws.space].capacity
        out.append({
            "function": ws.function, "space": ws.space, "bytes": ws.peak,
            "capacity": capacity,
            "utilisation": round(ws.peak / capacity, 6) if capacity else None,
            "tiles": [{"name": t.label.strip("'"), "bytes": t.size, "footprint": t.footprint,
                       **_at(t.transfer)} for t in ws.resident],
        })
    return out


def program_facts(ctx, tree) -> dict:
    """The facts for the JSON report; none before the working sets are known."""
    if ctx.working_sets is None:
        return {}
    return {"routes": routes(tree), "resident": resident_sets(ctx.working_sets, ctx.model)}
