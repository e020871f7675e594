"""erase-variable-extents: Lsplit -> Lsplit."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..nanopass.verify import descendants
from ..placement.typer import written
from ..values.numbers import INT_TYPES

VARIABLE = frozenset({"DimName", "DimBinary"})
SPAN = 1 << 63  # what i64 arithmetic holds exactly: |extent| below it


@dataclass
class State:
    bounds: dict = field(default_factory=dict)  # a local's name -> the largest |value| it holds


erase_variable_extents = Pass("erase-variable-extents", L, L, """
Make each extent that names a variable (`Tensor<i32, [n, 3]>`, `[n * 2]`) a `?` extent, and
give its constructor the extent as the interpreter computes it: `Tensor<i32, [?,
3]>::fill([n, 3], v)`, `::fill([n as i64 * 2], v)`.

The interpreter computes such an extent when the constructor runs, before the constructor's
other arguments, reading the variable then (one assigned later does not change the tensor),
with unbounded integers. A `?` constructor's list of extents is computed at the same point
in the same order, and native code already reads a `?` extent from the buffer, checks it
before allocating as the interpreter does (E9006) and bounds-checks, prints and frees the
tensor by it; so the variable extent needs no lowering of its own. Arithmetic is computed
in i64 over names of at most 32 bits, whose bounds show it cannot overflow there, and
divides only by a number other than 0 (the interpreter stops on a division by zero with a
message of its own); any other extent stays as written, which type-scalars refuses (E5010).
Elsewhere (a `let`'s or a parameter's type) an extent is not computed by the interpreter,
only written, and becomes `?` alike. A tensor literal whose extents name a variable stays:
native code lowers only literals of known extents.
""", state=State)


@erase_variable_extents.on("Fn")
def _fn(run, fn):
    run.state.bounds = _bounds(fn)
    return run.rebuild(fn)


def _bounds(fn) -> dict:
    """Each parameter's and `let`'s bound by its written integer type of at most 32 bits
    (names are unique in a function); a name bound otherwise has none: a loop variable, or a
    `let` whose type was inferred (`~i32`), which type-scalars may still widen."""
    bounds = {}
    for node in descendants(fn):
        if node._prod in ("Param", "Let") and node.type is not None:
            fixed = node.type._prod == "Scalar" and (node._prod == "Param" or written(node))
            t = INT_TYPES.get(node.type.name) if fixed else None
            bounds[node.name] = max(-t.lo, t.hi) if t is not None and t.bits <= 32 else None
        elif node._prod == "For":
            bounds[node.var] = None
    return bounds


@erase_variable_extents.on("TensorType")
def _tensor_type(run, ty):
    ty = run.rebuild(ty)
    if not any(d._prod in VARIABLE for d in ty.dims):
        return ty
    return ty.replace(dims=tuple(L["DimAny"](span=d.span) if d._prod in VARIABLE else d
                                 for d in ty.dims))


@erase_variable_extents.on("TensorLit")
def _tensor_lit(run, lit):
    return lit.replace(elems=tuple(run.walk(e) for e in lit.elems))


@erase_variable_extents.on("TensorNew")
def _tensor_new(run, new):
    ty, args = new.type, tuple(run.walk(a) for a in new.args)
    if ty._prod != "TensorType" or not any(d._prod in VARIABLE for d in ty.dims):
        return new.replace(type=run.walk(ty), args=args)
    if any(d._prod == "DimAny" for d in ty.dims):  # the list gives every extent already
        return new.replace(type=run.walk(ty), args=args)
    wide = any(d._prod == "DimBinary" for d in ty.dims)
    extents = tuple(_extent(run, d, wide) for d in ty.dims)
    if any(e is None for e in extents):
        return new.replace(args=args)
    given = L["ArrayLit"](extents, span=ty.span)
    return new.replace(type=run.walk(ty), args=(given, *args))


def _extent(run, d, wide: bool):
    """Dimension d as an expression of the value the interpreter gives it, of type i64 when
    `wide` (every extent of one list is of one type); None when it may compute otherwise."""
    if d._prod == "DimInt":
        return L["Int"](d.value, span=d.span)
    if d._prod == "DimName":
        local = L["Local"](d.name, span=d.span)
        if not wide:  # read as the interpreter reads it, whatever its integer type
            return local
        if run.state.bounds.get(d.name) is None:
            return None
        return L["Cast"](local, L["Scalar"]("i64", span=d.span), span=d.span)
    if d._prod == "DimBinary" and _bound(run, d) is not None:
        left, right = _extent(run, d.left, True), _extent(run, d.right, True)
        return L["Binary"](d.op, left, right, span=d.span)
    return None


def _bound(run, d):
    """The largest |value| dimension d takes, when i64 arithmetic computes it exactly, as
    the interpreter's unbounded integers do; else None."""
    if d._prod == "DimInt":
        return abs(d.value)
    if d._prod == "DimName":
        return run.state.bounds.get(d.name)
    if d._prod != "DimBinary":
        return None
    left, right = _bound(run, d.left), _bound(run, d.right)
    if left is None or right is None:
        return None
    if d.op in ("+", "-"):
        bound = left + right
    elif d.op == "*":
        bound = left * right
    elif d.op in ("/", "%") and d.right._prod == "DimInt" and d.right.value != 0:
        bound = left
    else:
        return None
    return bound if bound < SPAN else None
