"""What a vx.transfer carries of the front end's facts, as text: the route it takes (the
hops, `->` a declared edge and `=>` a `within:` leg, each with its cost) and its slot."""

from __future__ import annotations


def route_text(src, route) -> str | None:
    if route is None:
        return None
    text = src.name if src is not None else "?"
    for hop in route.hops:
        text += f" {'->' if hop.via == 'edge' else '=>'} {hop.dst} ({hop.cost})"
    return f"{text}, cost {route.cost}"


def slot_text(slot) -> str | None:
    if slot is None:
        return None
    space = slot.space
    capacity = "unbounded" if space.capacity is None else f"{space.capacity} B"
    return f"{space.name}+{slot.offset} ({slot.slots} x {space.granule} B of {capacity})"
