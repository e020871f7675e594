"""desugar-deferred-lets: Lonefile -> Linitialised."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Linitialised, Lonefile
from ..nanopass import Pass, descendants

L = Linitialised


@dataclass
class State:
    types: dict = field(default_factory=dict)  # struct or enum name -> its declaration


desugar_deferred_lets = Pass("desugar-deferred-lets", Lonefile, Linitialised, """
Write `let x: T;` as `let mut x: T = v;`, v a value of T that no read sees (E4011 for a T
that has none to write).

check-definite-assignment has shown that every path assigns x before reading it, so the value
the `let` gives is never read: it only holds the place. It is a zero of T: `0`, `0.0`,
`false`, `Tensor<..>::new()`, a tuple or a struct of such, an enum's first variant. A type
parameter, a reference, a generic struct or a placed scalar has no value that can be written
without knowing more, and a deferred `let` of one is refused: give it its value where it is
declared.
""", state=State)


class _NoValue(Exception):
    """The type has no value a program can write without more than its type."""


@desugar_deferred_lets.on("Program")
def _program(run, node):
    for n in descendants(node):  # items written inside blocks too: they are hoisted later
        if n._prod in ("StructDecl", "EnumDecl"):
            run.state.types.setdefault(n.name, n)
    return run.rebuild(node)


@desugar_deferred_lets.on("Declare")
def _declare(run, node):
    try:
        value = _zero(run.state.types, node.type, node.span, frozenset())
    except _NoValue as why:
        run.ctx.diagnostics.error(
            "E4011", node.type.span or node.span,
            f"'{node.name}' is declared without a value, but {why}",
            help=[f"give '{node.name}' its value where it is declared: `let {node.name}: .. = "
                  f"value;`"], name=node.name)
        value = L["Int"](0, span=node.span)
    return L["Let"](node.name, True, node.type, value, span=node.span)


def _zero(types, t, span, seen):
    kind = t._prod
    if kind == "Scalar":
        if t.name == "bool":
            return L["Bool"](False, span=span)
        if t.name == "void":
            raise _NoValue("`void` holds no value")
        return L["Float"](0.0, span=span) if t.name[0] in "fb" else L["Int"](0, span=span)
    if kind == "TensorType":
        if any(d._prod == "DimAny" for d in t.dims):
            raise _NoValue("a tensor whose extents are `?` has none before they are known")
        return L["TensorNew"](t, "new", (), span=span)
    if kind == "TupleType":
        return L["Tuple"](tuple(_zero(types, e, span, seen) for e in t.elems), span=span)
    if kind == "NamedType" and t.name in types and t.name not in seen:
        decl = types[t.name]
        if decl._prod == "StructDecl" and not decl.generics:
            inner = seen | {t.name}
            return L["StructLit"](t.name, (), tuple(
                L["FieldInit"](f.name, _zero(types, f.type, span, inner), span=span)
                for f in decl.fields), span=span)
        if decl._prod == "EnumDecl" and decl.variants:
            first, inner = decl.variants[0], seen | {t.name}
            if not first.fields:
                return L["EnumValue"](t.name, first.name, span=span)
            return L["PathCall"](t.name, (), first.name, (), tuple(
                _zero(types, f, span, inner) for f in first.fields), span=span)
    raise _NoValue("nano-vx writes no value of its type to hold the place until it is "
                   "assigned (only numbers, bools, tensors, and tuples, structs and enums of "
                   "them)")
