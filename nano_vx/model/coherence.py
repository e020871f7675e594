"""The containment tree must make sense: no cycle (E6006), a child no larger than its parent
(E6007), and no wider in scope (E6011)."""

from __future__ import annotations

from dataclasses import replace

from .spaces import Space
from .units import show_bytes


def break_cycles(spaces: dict[str, Space], diagnostics) -> set[str]:
    """Report each `within:` cycle once, at its first declared member, and cut it there so
    that every later walk up the tree ends. Returns the spaces on a cycle: their sizes and
    scopes are not compared (the cut tree is not one anybody declared)."""
    settled: set[str] = set()
    on_cycle: set[str] = set()
    for name in list(spaces):
        chain: list[str] = []
        here = name
        while here in spaces and here not in settled and here not in chain:
            chain.append(here)
            here = spaces[here].within
        settled.update(chain)
        if here not in chain:
            continue  # reached the root, an unknown name, or a part already checked
        cycle = chain[chain.index(here):]
        on_cycle.update(cycle)
        first = min(cycle, key=list(spaces).index)
        loop = cycle[cycle.index(first):] + cycle[:cycle.index(first)] + [first]
        diagnostics.error("E6006", spaces[first].span,
                          f"memory space '{first}' is within itself: "
                          + " -> ".join(loop),
                          help=["the outermost space has no `within:`"],
                          space=first, cycle=loop)
        spaces[first] = replace(spaces[first], within=None)
    return on_cycle


def check_tree(model, diagnostics, skip: set[str]) -> None:
    """E6007 and E6011 for each space against its ancestors (after break_cycles)."""
    for s in model.spaces.values():
        if s.within is None or s.within not in model.spaces or s.name in skip:
            continue
        _check_size(model, s, diagnostics)
        _check_scope(model, s, diagnostics)


def _check_size(model, s: Space, diagnostics) -> None:
    if s.capacity is None:
        return
    # The nearest ancestor that declares a size bounds this one.
    for name in model.ancestors(s.name):
        parent = model.spaces[name]
        if parent.capacity is None:
            continue
        if s.capacity > parent.capacity:
            via = "" if name == s.within else f" (through '{s.within}')"
            diagnostics.error(
                "E6007", s.span,
                f"memory space '{s.name}' has capacity {show_bytes(s.capacity)}, larger "
                f"than the {show_bytes(parent.capacity)} of '{name}' that contains it{via}",
                space=s.name, capacity=s.capacity, parent=name,
                parent_capacity=parent.capacity)
        return


def _check_scope(model, s: Space, diagnostics) -> None:
    parent_scope = model.scope_of(s.within)
    if s.scope is None or parent_scope is None or not model.wider(s.scope, parent_scope):
        return
    diagnostics.error(
        "E6011", s.span,
        f"memory space '{s.name}' has scope {s.scope}, wider than the scope {parent_scope} "
        f"of '{s.within}' that contains it",
        help=["scopes nest device > sm > cta > thread; a sub-space is no wider than its "
              "parent"],
        space=s.name, scope=s.scope, parent=s.within, parent_scope=parent_scope)
