"""check-capacity: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lunrolled import copies_note
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.working_sets import WorkingSet

check_capacity = Analysis("check-capacity", Lrouted, """
Refuse tiles and working sets that do not fit their memory space (E6009, E6010, W1028).

A statically shaped tensor placed in a bounded space by `transfer` must fit it alone (E6009),
and the tiles one function holds there at once must fit together (E6010), as
summarize-working-sets found them: each rounded up to the space's granule, resident from its
transfer to its last use, and round a loop that reads it on its next turn. An `overcommit`
space turns E6010 into the warning W1028; a space with `replicas` is judged against one
replica. Tensors with symbolic dims have no static size yet and are never refused.
""", requires=("model", "working_sets"))


@check_capacity.on("Program")
def _program(run, node):
    for ws in run.ctx.working_sets:
        _judge(run, ws)


def _judge(run, ws: WorkingSet) -> None:
    space = run.ctx.model.spaces[ws.space]
    capacity = space.capacity
    if capacity is None:
        return  # a granule without a capacity: scheduled, never refused
    diagnostics = run.ctx.diagnostics
    too_big = [t for t in ws.tiles if t.footprint > capacity]
    # The copies `unroll across` makes share their body's transfer spans: one error a place.
    copies: dict = {}
    for t in too_big:
        copies.setdefault(t.transfer.span, []).append(t)
    for t, *more in copies.values():
        diagnostics.error(
            "E6009", t.transfer.span,
            f"{'transferred' if t.ordinal is not None else 'placed'} tensor needs "
            f"{t.footprint} bytes{_rounding(space, t.size)}"
            f" but memory space '{space.name}' has capacity {capacity} bytes"
            f"{_one_replica(space)}",
            notes=[f"{t.label} is placed here, in '{ws.function}'",
                   *copies_note(1 + len(more))],
            help=["split the tensor into tiles that fit, or place it in a larger space"],
            space=space.name, required=t.footprint, available=capacity,
            margin=capacity - t.footprint)
    if ws.peak <= capacity or len(ws.resident) < 2 or any(t in too_big for t in ws.resident):
        return
    granule = f" (each rounded up to the {space.granule}-byte granule)" if space.granule else ""
    text = (f"the working set of '{ws.function}' in memory space '{space.name}' is "
            f"{len(ws.resident)} tiles, {ws.peak} bytes{granule}, over its {capacity} byte "
            f"capacity{_one_replica(space)}")
    # A tile a loop carries is resident twice where the next turn places it again before
    # reading the one it carried: one note says both.
    times = {id(t): sum(u is t for u in ws.resident) for t in ws.resident}
    notes = [f"{t.label}: {t.footprint} bytes, placed at {_where(t.transfer)}"
             + (", twice: this turn's and the last turn's" if times[id(t)] > 1 else "")
             for t in {id(t): t for t in ws.resident}.values()]
    data = dict(space=space.name, required=ws.peak, available=capacity,
                margin=capacity - ws.peak, tiles=len(ws.resident), granule=space.granule)
    # The tile placed last where the peak is; one a loop carries there is placed after it.
    at = max(ws.resident, key=lambda t: (t.start <= ws.point, t.start)).transfer.span
    if space.overcommit:
        diagnostics.warning(
            "W1028", at, f"{text}; the space is declared `overcommit`, which allows it",
            notes=notes, **data)
    else:
        diagnostics.error(
            "E6010", at, text, notes=notes,
            help=["end a tile's life (its last use) before placing the next, or declare the "
                  "space `overcommit` if the tiles never coexist"], **data)


def _where(node) -> str:
    line, col = node.span.source.line_col(node.span.start) if node.span else (0, 0)
    return f"{line}:{col}"


def _rounding(space, size: int) -> str:
    if not space.granule:
        return ""
    return f" ({size} rounded up to whole {space.granule}-byte granules)"


def _one_replica(space) -> str:
    return f" (one of its {space.replicas} replicas)" if space.replicas > 1 else ""
