"""What a constant's value computes, as the interpreter computes it once, at the first read:
the nodes it runs (its own and those of the other constants it reads) and whether one of them
may stop the run."""

from __future__ import annotations

from ..nanopass import descendants
from .aggregates import strip


def computed(value, scalars: dict) -> list:
    """The nodes computing value, and those of the other constants it reads (scalars: name ->
    value of each constant followed): the interpreter computes them with it, once."""
    nodes, seen, todo = [], set(), [value]
    while todo:
        for n in descendants(todo.pop()):
            nodes.append(n)
            if n._prod == "Global" and n.name in scalars and n.name not in seen:
                seen.add(n.name)
                todo.append(scalars[n.name])
    return nodes


def calls(nodes) -> list:
    """The calls among nodes: each may print or run for as long as it likes."""
    return [n for n in nodes if n._prod in ("Call", "MethodCall", "Launch")]


def may_stop(e) -> bool:
    """Whether e may stop the run (E9001, E9003, E9006): an integer division by other than a
    literal, a shift by other than a small literal, an index."""
    if e._prod == "Index":
        return True
    if e._prod != "Binary" or e.op not in ("/", "%", "<<", ">>"):
        return False
    k = e.right
    if e.op in ("<<", ">>"):
        return k._prod != "Int" or k.value >= 8  # below every integer type's width
    return not (k._prod == "Float" or k._prod == "Int" and k.value != 0)


def acting_constants(program) -> set:
    """The constants whose first read may print or stop there: their value (or that of a
    constant it reads) calls, a `ConstPart`'s function too, or may stop. A pass that moves
    a call before such a read moves the read's effect after it."""
    values = {i.name: i.value for i in program.items
              if i._prod == "ConstItem" and i.value is not None}
    return {name for name, value in values.items()
            if calls(nodes := computed(value, values))
            or any(n._prod == "ConstPart" or may_stop(n) for n in nodes)}


def maybe_uninit(value, fns: dict, consts: dict) -> bool:
    """Whether the tensor value, a constant's, may be made by `::uninit()`: by itself, a
    function it calls (through calls by name, or the function computing a `ConstPart`) or a
    constant it reads (fns, consts: the program's functions and constants by name); a call of
    a closure may be."""
    return any(n._prod == "TensorNew" and n.ctor == "uninit" or
               n._prod == "Call" and n.callee._prod != "Global"
               for n in reached(value, fns, consts))


def may_share_tensors(value, fns: dict, consts: dict) -> bool:
    """Whether a tensor the value, a constant's, holds may be one something else holds too:
    a constant other than a scalar or a vector it reads, itself, through a function it calls
    or a constant it reads, what a call of a closure returns, a row it takes (a view of the
    buffer of the tensor it is a row of), or what a function it calls returns where it is
    lent a tensor (a row of it, say). Else each tensor it holds is made as it is computed,
    and nothing else holds it once it is."""
    return any(n._prod == "Index" for n in descendants(value)) or any(
        n._prod == "Call" and n.callee._prod != "Global" or
        n._prod == "Call" and n.callee.name in fns and _lends_tensors(fns[n.callee.name]) or
        n._prod == "Global" and n.name in consts and
        strip(consts[n.name].type)._prod not in ("Scalar", "VectorType")
        for n in reached(value, fns, consts))


def _lends_tensors(fn) -> bool:
    """Whether fn is lent a tensor and returns one, which may be a view of what it is lent."""
    lent = any(p.type._prod == "BorrowType" and strip(p.type.inner)._prod == "TensorType"
               for p in fn.params)
    return lent and fn.ret is not None and strip(fn.ret)._prod == "TensorType"


def reached(value, fns: dict, consts: dict):
    """The nodes computing value, those of the functions it calls (by name, or computing a
    `ConstPart`) and of the constants it reads, each function and constant once."""
    seen, todo = set(), [value]
    while todo:
        for n in descendants(todo.pop()):
            yield n
            name = n.callee.name if n._prod == "Call" and n.callee._prod == "Global" else \
                n.name if n._prod == "Global" else n.fill if n._prod == "ConstPart" else None
            if name is None or name in seen:
                continue
            seen.add(name)
            if name in fns:
                todo.append(fns[name].body)
            elif name in consts and consts[name].value is not None:
                todo.append(consts[name].value)
