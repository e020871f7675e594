"""What scalarize-aggregates asks of the tree besides its rewrite: the literal an aggregate's
scalars rebuild (what `print` is given), and the types of the fields a function returns."""

from __future__ import annotations

from ..languages.lassumed import Lassumed as L
from ..nanopass import descendants
from .aggregates import TAG, Tree, concrete


class Refused(Exception):
    """An aggregate the rewrite does not replace, at the node that shows it: E5010."""

    def __init__(self, node, what: str):
        super().__init__(what)
        self.node, self.what = node, what


def literal(tree: Tree, at):
    """The struct or tuple literal of a tree of expressions, fields in declaration order
    (an enum only at the top, as the variant its tag names: see the pass)."""
    span = at.span
    if tree.kind == "leaf":
        return tree.leaf
    if tree.kind == "struct":
        return L["StructLit"](tree.name, tuple(L["FieldInit"](str(k), literal(p, at),
                                                              span=span)
                                               for k, p in tree.parts), span=span)
    if tree.kind == "tuple":
        return L["Tuple"](tuple(literal(p, at) for _, p in tree.parts), span=span)
    raise Refused(at, "printing an aggregate that holds an enum")


def variant_value(enum: str, variant: Tree, at):
    """`E::V(..)` of a variant's tree of expressions."""
    return L["EnumValue"](enum, variant.name, tuple(literal(p, at) for _, p in variant.parts),
                          span=at.span)


def returned_types(fn, shape: Tree) -> list:
    """The type of each leaf of the aggregate `fn` returns: as declared, else (a generic
    struct's field, its parameter erased) the written type of the local or parameter a
    returned literal puts there; None where neither says."""
    written = {p.name: p.type for p in fn.params if concrete(p.type)}
    written.update({n.name: n.type for n in descendants(fn.body)
                    if n._prod == "Let" and concrete(n.type) and n.type.span != n.span})
    values = [fn.body.value] + [n.value for n in descendants(fn.body) if n._prod == "Return"]
    types = list(shape.leaves())
    for value in values:
        found = _leaves(value, shape) if value is not None else None
        for k, x in enumerate(found or ()):
            if types[k] is None and x is not None and x._prod == "Local":
                types[k] = written.get(x.name)
    return types


def _leaves(e, shape: Tree):
    """The expressions a literal puts at each leaf of `shape`, None where it is no literal."""
    if shape.kind == "leaf":
        return [e]
    if shape.kind == "struct" and e._prod == "StructLit" and e.name == shape.name:
        given = {f.name: f.value for f in e.fields}
        parts = [_leaves(given[k], p) if k in given else None for k, p in shape.parts]
    elif shape.kind == "tuple" and e._prod == "Tuple" and len(e.elems) == len(shape.parts):
        parts = [_leaves(x, p) for x, (_, p) in zip(e.elems, shape.parts)]
    else:
        return None
    out = []
    for found, (_, p) in zip(parts, shape.parts):
        out += found if found is not None else [None] * len(p.leaves())
    return out


def pure(e) -> bool:
    """Whether computing e earlier or twice changes nothing: no call in it."""
    return not any(n._prod in ("Call", "Launch", "MethodCall", "Transfer")
                   for n in descendants(e))


def merged(value: Tree | None, written: Tree | None) -> Tree | None:
    """The shape of a `let`: its value's, each leaf's type the written one where that is
    known (a generic struct's field is typed by the call that returns it, a tuple literal's
    by the `let`)."""
    if value is None or written is None or len(value.leaves()) != len(written.leaves()):
        return value or written
    return value.rebuilt(iter(w if concrete(w) else v
                              for v, w in zip(value.leaves(), written.leaves())))


def variant_index(shape, variant, at) -> int:
    labels = [label for label, _ in shape.variants()]
    if variant not in labels:
        raise Refused(at, f"the variant {variant}, which {shape.name} does not declare")
    return labels.index(variant)


def matches(pattern, rep):
    """The condition under which the value `rep` matches, None when it always does."""
    p, span = pattern._prod, pattern.span
    if p in ("PWild", "PBind"):
        return None
    if p == "PLit":
        return L["Binary"]("==", rep.leaf, pattern.value, span=span)
    if p == "POr":
        tests = [matches(a, rep) for a in pattern.alts]
        if None in tests:
            return None
        out = tests[0]
        for t in tests[1:]:
            out = L["Binary"]("||", out, t, span=span)
        return out
    tag = L["Int"](variant_index(rep, pattern.variant, pattern), span=span)
    out = L["Binary"]("==", rep.part(TAG).leaf, tag, span=span)
    for k, sub in enumerate(pattern.args):
        test = matches(sub, rep.part(pattern.variant).part(k))
        if test is not None:
            out = L["Binary"]("&&", out, test, span=span)
    return out


def printed_variants(rep: Tree, printed, at):
    """The `if` chain on an enum's tag that prints the variant it names: printed(value) is
    the statement printing a value."""
    variants = rep.variants()
    out = L["Block"]((printed(variant_value(rep.name, variants[-1][1], at)),), None,
                     span=at.span)
    for k in reversed(range(len(variants) - 1)):
        test = L["Binary"]("==", rep.part(TAG).leaf, L["Int"](k, span=at.span), span=at.span)
        then = L["Block"]((printed(variant_value(rep.name, variants[k][1], at)),), None,
                          span=at.span)
        out = L["Block"]((L["If"](test, False, then, out, span=at.span),), None, span=at.span)
    return out.stmts[0]
