"""Lrouted: every `Transfer` carries its `Route` (the hops from its source space, and the cost)."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .lfolded import Lfolded

_COST = re.compile(r"[0-9]+(/[0-9]+)?\Z")
VIA = frozenset({"edge", "within"})

# A cost is exact (a Fraction in nano_vx.model) and written as its text, `50` or `63/134`, so
# that every dump, JSON included, carries it without rounding.
Lrouted = Lfolded.extend(
    "Lrouted",
    "Lfolded with routes: each Transfer knows the hops from its source space and their cost",
    terminals=[
        Terminal("cost", lambda v: type(v) is str and _COST.match(v) is not None,
                 "an exact relative cost, `50` or `63/134`"),
        Terminal("via", lambda v: v in VIA, "edge within: a declared edge, or a within: leg"),
    ],
    remove={"Expr": ["Transfer"]},
    add={
        "Expr": [prod("Transfer", "value: Expr, dest: Mem, mark: mark, src: Mem?, route: Route?",
                      "route: none only when the source space is not known (a generic's)")],
        "Route": [prod("Route", "hops: Hop*, cost: cost",
                       "the cheapest way from src to dest; no hops when they are one space")],
        "Hop": [prod("Hop", "src: name, dst: name, cost: cost, via: via")],
    },
)
