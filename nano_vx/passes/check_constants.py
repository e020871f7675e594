"""check-constants: Lresolved, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lresolved import Lresolved
from ..nanopass import Analysis, descendants

check_constants = Analysis("check-constants", Lresolved, """
Refuse a `const` without a value, and one whose value depends on itself (E3044).

A constant is its value, computed while compiling: `const N: i32;` has none, and `const A:
i32 = B + 1; const B: i32 = A * 2;` has none either, each needing the other first. The
message names the chain of constants that leads back to the first.
""")


@check_constants.on("Program")
def _program(run, node):
    consts = {i.name: i for i in node.items if i._prod == "ConstItem"}
    report = run.ctx.diagnostics.error
    for c in consts.values():
        if c.value is None:
            report("E3044", c.span, f"the constant '{c.name}' has no value",
                   help=[f"give it one: `const {c.name}: .. = value;`"], name=c.name)
    uses = {name: [n.name for n in descendants(c.value)
                   if n._prod in ("Global", "DimName") and n.name in consts]
            for name, c in consts.items() if c.value is not None}
    reported: set = set()
    for name in uses:
        chain = _cycle(name, uses)
        if chain is not None and not reported & set(chain):
            reported |= set(chain)
            report("E3044", consts[name].span,
                   f"the constant '{name}' depends on itself: {' -> '.join(chain)}",
                   help=["compute one of them from something else"], chain=chain)


def _cycle(start: str, uses: dict) -> list | None:
    """The constants from `start` back to it, following what each value names; None when
    the value never leads back."""
    path, seen = [start], {start}

    def walk(name):
        for used in uses.get(name, ()):
            if used == start:
                return path + [start]
            if used not in seen:
                seen.add(used)
                path.append(used)
                found = walk(used)
                if found is not None:
                    return found
                path.pop()
        return None
    return walk(start)
