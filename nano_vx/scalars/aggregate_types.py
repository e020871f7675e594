"""The shape of what an expression computes, for the passes that take aggregates apart:
each function's signature in shapes, and the shape of each local, parameter and pattern
name of a function, from what declares it and what gives it its value."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lmatched import Lmatched as L
from ..nanopass import descendants
from .aggregate_values import merged, returned_types
from .aggregates import Shapes, Tree


@dataclass
class Sig:
    params: list  # per parameter, its shape or None
    out: Tree | None = None  # the result's shape, when it is an aggregate


def program_types(program) -> tuple:
    """The program's Shapes, and each function's Sig by name (a result's leaves typed as
    returned_types finds them)."""
    shapes, sigs = Shapes(program), {}
    for fn in program.items:
        if fn._prod == "Fn":
            out = shapes.of(fn.ret)
            if out is not None:
                out = out.rebuilt(iter(returned_types(fn, out)))
            sigs[fn.name] = Sig([shapes.of(p.type) for p in fn.params], out)
    return shapes, sigs


def shape_of(e, shapes: Shapes, sigs: dict, env) -> Tree | None:
    """The shape of e's value, None for a scalar or a tensor; env(name) is a local's."""
    p = e._prod
    if p == "Local":
        return env(e.name)
    if p == "StructLit":
        return shapes.of(L["NamedType"](e.name, span=e.span))
    if p == "EnumValue":
        return shapes.of(L["NamedType"](e.enum, span=e.span))
    if p == "Tuple":
        return Tree("tuple", None, tuple((k, shape_of(x, shapes, sigs, env) or Tree("leaf"))
                                         for k, x in enumerate(e.elems)))
    if p == "Call" and e.callee._prod == "Global" and e.callee.name in sigs:
        return sigs[e.callee.name].out
    if p in ("FieldGet", "TupleGet", "VariantField"):
        base = shape_of(e.base, shapes, sigs, env)
        if base is not None and p == "VariantField":
            base = dict(base.parts).get(e.variant)
        label = e.field if p == "FieldGet" else e.index
        part = dict(base.parts).get(label) if base is not None else None
        return part if part is not None and part.kind != "leaf" else None
    if p == "IfExpr" and e.then.value is not None:
        return shape_of(e.then.value, shapes, sigs, env)
    if p == "MatchValue" and e.cases and e.cases[0].body.value is not None:
        return shape_of(e.cases[0].body.value, shapes, sigs, env)
    return None


def local_shapes(fn, shapes: Shapes, sigs: dict) -> dict:
    """The shape of each aggregate local, parameter and pattern name of fn, by name."""
    env = {p.name: s for p, s in zip(fn.params, sigs[fn.name].params) if s is not None}
    for node in descendants(fn.body):
        if node._prod == "Let":
            found = merged(shape_of(node.value, shapes, sigs, env.get), shapes.of(node.type))
            if found is not None:
                env[node.name] = found
        elif node._prod == "MatchValue":
            scrutinee = shape_of(node.scrutinee, shapes, sigs, env.get)
            for case in node.cases:
                _bind(case.pattern, scrutinee, env)
    return env


def _bind(pattern, shape, env) -> None:
    if shape is None or shape.kind == "leaf":
        return
    if pattern._prod == "PBind":
        env[pattern.name] = shape
    elif pattern._prod == "PVariant" and pattern.variant in dict(shape.parts):
        variant = shape.part(pattern.variant)
        for sub, (_, part) in zip(pattern.args, variant.parts):
            _bind(sub, part, env)
    elif pattern._prod == "POr":
        for alt in pattern.alts:
            _bind(alt, shape, env)


def settled(e) -> bool:
    """Whether e may be computed once per read of it: reads of locals, and literals."""
    p = e._prod
    if p in ("Local", "Int", "Float", "Bool"):
        return True
    if p in ("FieldGet", "TupleGet", "VariantField"):
        return settled(e.base)
    if p in ("EnumValue", "Tuple"):
        return all(settled(x) for x in (e.args if p == "EnumValue" else e.elems))
    return p == "StructLit" and all(settled(f.value) for f in e.fields)


_AGGREGATE = frozenset({"StructLit", "Tuple", "EnumValue", "FieldGet", "TupleGet",
                        "VariantIs", "VariantField"})


def holds_aggregates(fn, sigs: dict) -> bool:
    """Whether fn holds an aggregate: a parameter, its result, a value or a call of a
    function that takes or returns one."""
    def splits(name):
        return name in sigs and (any(sigs[name].params) or sigs[name].out is not None)
    return splits(fn.name) or any(
        n._prod in _AGGREGATE or n._prod == "Call" and n.callee._prod == "Global"
        and splits(n.callee.name) for n in descendants(fn.body))


def printed(e, sigs: dict):
    """What the built-in `print` call e prints, None when e is no such call."""
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
            "print" not in sigs and len(e.args) == 1:
        return e.args[0]
    return None
