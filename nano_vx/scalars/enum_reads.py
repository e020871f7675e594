"""The reads of an enum lower-matches writes, `VariantIs` and `VariantField`, written back as
the `match` each one is: what scalarize-aggregates gives back for a function it refuses, so
that its output is still Lparted and the interpreter runs that function as it ran before."""

from __future__ import annotations

from ..languages.lparted import Lparted as L
from ..nanopass import children, descendants
from .aggregates import Names, Shapes


def as_matches(fn, shapes: Shapes):
    """fn with each VariantIs and VariantField replaced by its `match`."""
    names, made = Names(fn), {}
    for node in reversed(list(descendants(fn))):  # each node after its children
        if id(node) in made:
            continue
        fields = {}
        for name, index, child in children(node):
            new = made.get(id(child), child)
            if new is not child:
                fields.setdefault(name, {})[index] = new
        out = node.replace(**{name: new[None] if None in new else tuple(
            new.get(k, v) for k, v in enumerate(getattr(node, name)))
            for name, new in fields.items()}) if fields else node
        if out._prod in ("VariantIs", "VariantField"):
            out = _match(out, shapes, names)
        made[id(node)] = out
    return made[id(fn)]


def _match(read, shapes: Shapes, names: Names):
    span = read.span
    arity = next(len(v.fields) for v in shapes.enums[read.enum].variants
                 if v.name == read.variant)

    def case(args, value):
        pattern = L["PVariant"](read.enum, read.variant, tuple(args), span=span) \
            if args is not None else L["PWild"](span=span)
        return L["Case"](pattern, L["Block"]((), value, span=span), span=span)
    wild = [L["PWild"](span=span) for _ in range(arity)]
    if read._prod == "VariantIs":
        cases = (case(wild, L["Bool"](True, span=span)),
                 case(None, L["Bool"](False, span=span)))
    else:  # read only where the value holds that variant: one case is all it needs
        name = names.fresh("field")
        wild[read.index] = L["PBind"](name, span=span)
        cases = (case(wild, L["Local"](name, span=span)),)
    return L["MatchValue"](read.base, cases, span=span)
