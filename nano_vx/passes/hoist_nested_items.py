"""hoist-nested-items: Lunpacked -> Lhoisted."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lhoisted, Lunpacked
from ..nanopass import Pass


@dataclass
class State:
    hoisted: list = field(default_factory=list)  # the items hoisted out of the current item


hoist_nested_items = Pass("hoist-nested-items", Lunpacked, Lhoisted, """
Move every item written inside a block to the top level, after its enclosing item; a name
declared twice is E2008, and so is a struct or enum named `str`, the built-in type of text.

The playground form `fn main() { fn f() {..} }` declares `f` as if it were written after
`main`. Items nested at any depth (in loops, in closures, in other nested items) come out in
source order, so `main`'s items follow `main` the way they were written. Now that every item
is in one list, two items of one name are E2008, reported at the hoisted one if either is;
both are kept, so the output is still a whole program. `str` is built in, as `i32` is, but
not a word the parser reserves (a variable may be called `str`): a type declared with that
name would make `let s: str = "a";` mean two things.
""", state=State)

# `Memory::X` and `Topology::X` are written qualified, so they cannot clash with values or
# with each other; every other item names a value.
_NAMESPACE = {"MemoryDecl": "memory space", "TopologyDecl": "topology"}


@hoist_nested_items.on("Program")
def _program(run, node):
    items, hoisted_ids = [], set()
    for item in node.items:
        run.state.hoisted = []
        items.append(run.walk(item))
        items += run.state.hoisted
        hoisted_ids.update(id(h) for h in run.state.hoisted)
    _check_unique(run, items, hoisted_ids)
    if len(items) == len(node.items) and all(a is b for a, b in zip(items, node.items)):
        return node
    return Lhoisted["Program"](items, span=node.span)


@hoist_nested_items.on("ItemStmt", splice=True)
def _item_stmt(run, node):
    """Hoist the item; the statement itself splices away into nothing."""
    # Reserve the slot before walking, so an item precedes the items nested in it.
    hoisted = run.state.hoisted
    slot = len(hoisted)
    hoisted.append(None)
    hoisted[slot] = run.walk(node.item)
    return ()


def _check_unique(run, items, hoisted_ids):
    """E2008 for a name declared twice, reported at the hoisted one when one of them is."""
    first = {}
    # Top-level items claim their names first: a clash is the hoisted item's fault.
    for item in sorted(items, key=lambda i: id(i) in hoisted_ids):
        if item._prod in ("Impl", "ImplFor"):  # its functions are named through its type
            continue
        if item._prod in ("StructDecl", "EnumDecl") and item.name == "str":
            run.ctx.diagnostics.error(
                "E2008", item.span, "the type name 'str' is declared twice: it is built in, "
                "the type of text", help=["rename the type"], name=item.name)
        key = (_NAMESPACE.get(item._prod, "value"), item.name)
        if key not in first:
            first[key] = item
            continue
        other = first[key]
        where = f" at {other.span}" if other.span is not None else ""
        run.ctx.diagnostics.error(
            "E2008", item.span, f"the name '{item.name}' is declared twice",
            notes=[f"the other '{item.name}' is declared{where}"],
            help=["rename one of them"], name=item.name,
        )
