"""What the passes that take aggregates apart ask of the tree besides their rewrite: the types
of the fields a function returns, whether an expression calls, the shape of a `let`."""

from __future__ import annotations

from ..languages.lassumed import Lassumed as L
from ..nanopass import descendants
from .aggregates import TAG, Refused, Tree, concrete, zero


def returned_types(fn, shape: Tree) -> list:
    """The type of each leaf of the aggregate `fn` returns: as declared, else (a generic
    struct's field, its parameter erased) the written type of the local or parameter a
    returned literal puts there, of the tensor it makes there, or of the literal (or cast)
    written there; None where none says."""
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
            elif types[k] is None and x is not None and x._prod in ("TensorNew", "TensorLit"):
                types[k] = x.type if concrete(x.type) else None
            elif types[k] is None and x is not None:
                types[k] = _literal_type(x)
    return types


# What an unsuffixed literal is when nothing fixes its type: the interpreter computes with it
# so (a generic struct's field type is erased), and type-scalars solves it so.
_LITERALS = {"Int": "i32", "Float": "f64", "Bool": "bool"}


def _literal_type(x):
    """The type of the literal x (`-k` included, or one cast), None for any other value."""
    if x._prod == "Cast":
        return x.type if concrete(x.type) else None
    if x._prod == "Unary" and x.op == "-" and x.operand._prod in ("Int", "Float"):
        x = x.operand
    name = _LITERALS.get(x._prod)
    return L["Scalar"](name, span=x.span) if name is not None else None


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


def enum_value(shape: Tree, e, args: list) -> Tree:
    """The tree of the enum value e (`E::V(..)`, its args' trees given): its tag, its
    variant's values, every other variant's fields zero."""
    tag = L["Int"](variant_index(shape, e.variant, e), span=e.span)
    parts = [(TAG, Tree("leaf", leaf=tag))]
    for label, v in shape.variants():
        if label == e.variant:
            parts.append((label, Tree("variant", label, tuple(enumerate(args)))))
            continue
        zeros = [zero(t, e.span) for t in v.leaves()]
        if None in zeros:
            raise Refused(e, "an enum whose other variants hold what has no zero")
        parts.append((label, v.rebuilt(iter(zeros))))
    return Tree("enum", e.enum, tuple(parts))
