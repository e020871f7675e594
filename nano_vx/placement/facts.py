"""The program-level facts `--error-format=json` reports: routes and resident sets.

Kept on `ctx.facts` (plain JSON data) for admitted programs as for refused ones, so a tool
can read how full each space is and what each transfer costs without parsing messages.
"""

from __future__ import annotations

from ..nanopass import descendants
from .visibility import cost_number


def _at(node) -> dict:
    if node.span is None:
        return {}
    line, col = node.span.source.line_col(node.span.start)
    return {"line": line, "column": col}


def routes(tree, model) -> list[dict]:
    """Every transfer whose source space is known: its route and cost on the model."""
    out = []
    for node in descendants(tree):
        if node._prod == "Transfer" and node.src is not None:
            route = model.route(node.src.name, node.dest.name)
            out.append({"src": node.src.name, "dst": node.dest.name, **_at(node),
                        "path": list(route.path) if route else None,
                        "cost": cost_number(route.cost) if route else None})
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
    ctx.facts["routes"] = routes(residency.tree, ctx.model)
    ctx.facts["resident"] = resident_sets(residency, ctx.model)
