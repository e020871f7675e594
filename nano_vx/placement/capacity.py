"""Judging working sets against capacities: E6009 per tile, E6010 (or W1028) per space."""

from __future__ import annotations

from .residency import WorkingSet


def _where(node) -> str:
    line, col = node.span.source.line_col(node.span.start) if node.span else (0, 0)
    return f"{line}:{col}"


def _rounding(space, size: int, footprint: int) -> str:
    if not space.granule:
        return ""
    return f" ({size} rounded up to whole {space.granule}-byte granules)"


def _one_replica(space) -> str:
    return f" (one of its {space.replicas} replicas)" if space.replicas > 1 else ""


def judge(ws: WorkingSet, model, diagnostics) -> None:
    space = model.spaces[ws.space]
    capacity = space.capacity
    if capacity is None:
        return  # a granule without a capacity: scheduled, never refused
    too_big = [t for t in ws.tiles if t.footprint > capacity]
    for t in too_big:
        diagnostics.error(
            "E6009", t.transfer.span,
            f"transferred tensor needs {t.footprint} bytes{_rounding(space, t.size, t.footprint)}"
            f" but memory space '{space.name}' has capacity {capacity} bytes"
            f"{_one_replica(space)}",
            notes=[f"{t.label} is placed here, in '{ws.function}'"],
            help=["split the tensor into tiles that fit, or place it in a larger space"],
            space=space.name, required=t.footprint, available=capacity,
            margin=capacity - t.footprint)
    if ws.peak <= capacity or len(ws.resident) < 2 or any(t in too_big for t in ws.resident):
        return
    granule = f" (each rounded up to the {space.granule}-byte granule)" if space.granule else ""
    text = (f"the working set of '{ws.function}' in memory space '{space.name}' is "
            f"{len(ws.resident)} tiles, {ws.peak} bytes{granule}, over its {capacity} byte "
            f"capacity{_one_replica(space)}")
    notes = [f"{t.label}: {t.footprint} bytes, placed at {_where(t.transfer)}"
             for t in ws.resident]
    data = dict(space=space.name, required=ws.peak, available=capacity,
                margin=capacity - ws.peak, tiles=len(ws.resident), granule=space.granule)
    at = max(ws.resident, key=lambda t: t.start).transfer.span
    if space.overcommit:
        diagnostics.warning(
            "W1028", at, f"{text}; the space is declared `overcommit`, which allows it",
            notes=notes, **data)
    else:
        diagnostics.error(
            "E6010", at, text, notes=notes,
            help=["end a tile's life (its last use) before placing the next, or declare the "
                  "space `overcommit` if the tiles never coexist"], **data)
