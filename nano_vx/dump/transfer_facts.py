"""What a placed `transfer[..]` carries in its brackets, in the order the ILs learn it:

    transfer[sync, from CPU_DRAM](x, Memory::GPU_HBM)        the source space (Ltyped)
    transfer[sync, CPU_DRAM -> NPU_HBM (50) => W (0), cost 50](..)       its route (Lrouted)
    transfer[sync, .., slot W+16384 (2 x 16384 B of 65536 B)](..)     its slot (Lscheduled)

`->` is a declared edge and `=>` a `within:` leg, each with its cost; each hop starts where
the one before it ends, the first at the source. A slot is its byte offset, its granules,
the granule and the space's capacity, then what else the space's descriptor says when it is
not the default (`within NPU_HBM`, `scope sm`, `managed cached`, `replicas 4`,
`overcommit`). A route whose hops do not chain is no route this form can write: such a
`Transfer` is written in the generic form.
"""

from __future__ import annotations

from ..source import Span
from .forms import Lit, Piece

_VIA = {"edge": " -> ", "within": " => "}
# The descriptor's parts written only when they differ from these.
_DEFAULTS = {"within": None, "scope": None, "managed": "explicit", "replicas": 1,
             "overcommit": False}


class TransferFacts(Piece):
    """The source space, the route and the slot of a Transfer, those its IL has."""

    def __init__(self, *fields: str):
        self.fields = fields  # ("src", "route") or ("src", "route", "slot")

    def fits(self, node):
        route = node.route
        if route is not None:
            if node.src is None or route._prod != "Route":
                return False
            at = node.src.name
            for hop in route.hops:
                if hop._prod != "Hop" or hop.src != at or hop.via not in _VIA:
                    return False
                at = hop.dst
        slot = getattr(node, "slot", None)
        return slot is None or (slot._prod == "Slot" and slot.space._prod == "SubSpace")

    def emit(self, w, node, form):
        route = node.route
        if route is None:
            src = node.src.name if node.src is not None else "an unknown space"
            w.put("from ", src, ", no route")
        else:
            w.put(node.src.name)
            for hop in route.hops:
                w.put(_VIA[hop.via], hop.dst, " (", hop.cost, ")")
            w.put(", cost ", route.cost)
        slot = getattr(node, "slot", None)
        if slot is not None:
            space = slot.space
            capacity = "unbounded" if space.capacity is None else f"{space.capacity} B"
            w.put(f", slot {space.name}+{slot.offset} "
                  f"({slot.slots} x {space.granule} B of {capacity}{_extras(space)})")

    def read(self, r, form, states):
        out = []
        for pos, vals in states:
            out += _unrouted(r, pos, vals) + _routed(r, pos, vals)
        if "slot" in self.fields:
            out = [got for pos, vals in r.unique(out) for got in _slot(r, pos, vals)]
        return r.unique(out)


def _extras(space) -> str:
    parts = []
    for name, default in _DEFAULTS.items():
        value = getattr(space, name)
        if value != default:
            parts.append(name if value is True else f"{name} {value}")
    return "".join(f", {p}" for p in parts)


def _mem(r, pos):
    """A memory space's name, as the MemRef node it stands for."""
    got = r.terminal("name", None, pos)
    if got is None:
        return None
    start = r.skip(pos)
    return r.language.nodes["MemRef"](got[0], span=Span(r.source, start, got[1])), got[1]


def _unrouted(r, pos, vals):
    at = r.lit("from", pos)
    if at is None:
        return []
    unknown = Lit("an unknown space").read(r, None, [(at, vals)])
    src = [(unknown[0][0], None)] if unknown else []
    got = _mem(r, at)
    if got is not None:
        src.append((got[1], got[0]))
    out = []
    for end, node in src:
        for close in _words(r, end, ", no route"):
            out.append((close, {**vals, "src": node, "route": None}))
    return out


def _routed(r, pos, vals):
    got = _mem(r, pos)
    if got is None:
        return []
    src, at = got
    start = r.skip(pos)
    hops, here = [], src.name
    hop_cls, route_cls = r.language.nodes["Hop"], r.language.nodes["Route"]
    while True:
        via = next((v for v, text in _VIA.items()
                    if r.lit(text.strip(), at) is not None), None)
        if via is None:
            break
        hop_start = r.skip(at)
        dst = r.terminal("name", None, r.lit(_VIA[via].strip(), at))
        if dst is None:
            return []
        r.after(start, dst[1])
        cost = _parenthesised_cost(r, dst[1])
        if cost is None:
            return []
        hops.append(hop_cls(here, dst[0], cost[0], via, span=Span(r.source, hop_start, cost[1])))
        here, at = dst[0], cost[1]
    out = []
    for end in _words(r, at, ", cost"):
        cost = r.terminal("cost", None, end)
        if cost is not None:
            route = route_cls(tuple(hops), cost[0], span=Span(r.source, start, cost[1]))
            out.append((cost[1], {**vals, "src": src, "route": route}))
    return out


def _parenthesised_cost(r, pos):
    at = r.lit("(", pos)
    cost = r.terminal("cost", None, at) if at is not None else None
    if cost is None:
        return None
    end = r.lit(")", cost[1])
    return None if end is None else (cost[0], end)


def _words(r, pos, text: str) -> list[int]:
    got = Lit(text).read(r, None, [(pos, None)])
    return [got[0][0]] if got else []


def _number(r, pos, then: str | None = None):
    got = r.terminal("int", None, pos)
    if got is None:
        return None
    if then is None:
        return got
    ends = _words(r, got[1], then)
    return (got[0], ends[0]) if ends else None


def _slot(r, pos, vals):
    absent = [(pos, {**vals, "slot": None})]
    ends = _words(r, pos, ", slot")
    if not ends:
        return absent
    start = r.skip(ends[0])
    name = r.terminal("name", None, ends[0])
    offset = _number(r, r.lit("+", name[1]) if name else None) if name else None
    if offset is None:
        return absent
    paren = r.lit("(", offset[1])
    slots = _number(r, paren, "x") if paren is not None else None
    granule = _number(r, slots[1], "B of") if slots else None
    if granule is None:
        return absent
    unbounded = _words(r, granule[1], "unbounded")
    capacity = (None, unbounded[0]) if unbounded else _number(r, granule[1], "B")
    if capacity is None:
        return absent
    facts, at = dict(_DEFAULTS), capacity[1]
    for key in _DEFAULTS:
        got = _extra(r, at, key)
        if got is not None:
            facts[key], at = got
    close = r.lit(")", at)
    if close is None:
        return absent
    desc = r.language.nodes["SubSpace"](name[0], capacity[0], granule[0], facts["within"],
                                        facts["scope"], facts["managed"], facts["replicas"],
                                        facts["overcommit"], span=Span(r.source, start, close))
    slot = r.language.nodes["Slot"](offset[0], slots[0], desc, span=desc.span)
    return [(close, {**vals, "slot": slot}), *absent]


def _extra(r, pos, key):
    """`, within NPU_HBM`, `, replicas 4`, `, overcommit`: one part of a descriptor."""
    ends = _words(r, pos, f", {key}")
    if not ends:
        return None
    if key == "overcommit":
        return True, ends[0]
    got = r.terminal("int" if key == "replicas" else "name", None, ends[0])
    return got
