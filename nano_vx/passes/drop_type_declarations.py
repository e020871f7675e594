"""drop-type-declarations: Lnocontracts -> Lnative."""

from __future__ import annotations

from ..languages.lnative import Lnative
from ..languages.lnocontracts import Lnocontracts
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.terms import UNLOWERED

drop_type_declarations = Pass("drop-type-declarations", Lnocontracts, Lnative, """
Remove struct and enum declarations: they make no code, and no function holds their values.

scalarize-aggregates replaced every struct, tuple and enum value by its scalars, leaving
only the literal `print` is given, and check-native-subset refused every function holding
a field read, a `match`, a topology or memory-space value or a differentiation, so once the
declarations go, the IL has none of them. A dump written by hand that still holds one is refused here
with E5010, as the gate would have.
""")

_GONE = frozenset(Lnocontracts.productions) - frozenset(Lnative.productions)


@drop_type_declarations.on("Program")
def _program(run, program):
    items = []
    for item in program.items:
        if item._prod in ("StructDecl", "EnumDecl"):
            continue
        gone = next((n for n in descendants(item) if n._prod in _GONE), None)
        if gone is not None:
            refuse(run.ctx.diagnostics, getattr(item, "name", item._prod), gone,
                   UNLOWERED.get(gone._prod, gone._prod))
            continue
        items.append(run.walk(item))
    return Lnative["Program"](tuple(items), span=program.span)


@drop_type_declarations.on(*_GONE)
def _refused(run, node):
    raise AssertionError(f"{node._prod} in an item the Program handler kept")
