"""The program-level facts `--error-format=json` reports: routes and resident sets.

Kept on `ctx.facts` (plain JSON data) for admitted programs as for refused ones, so a tool
can read how full each space is and what each transfer costs without parsing messages.
"""

from __future__ import annotations

from fractions import Fraction

from ..nanopass import descendants
from .visibility import cost_number


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


def resident_sets(residency, model) -> list[dict]:
    out = []
    for ws in residency.sets:
        capacity = model.spaces[ws.space].capacity
        out.append({
            "function": ws.function, "space": ws.space, "bytes": ws.peak,
            "capacity": capacity,
            "utilisation": round(ws.peak / capacity, 6) if capacity else None,
            "tiles": [{"name": t.label.strip("'"), "bytes": t.size, "footprint": t.footprint,
                       **_at(t.transfer)} for t in ws.resident],
        })
    return out


def record(ctx, residency) -> None:
    ctx.facts["routes"] = routes(residency.tree)
    ctx.facts["resident"] = resident_sets(residency, ctx.model)
