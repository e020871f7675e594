"""`grad`, `vjp` and `jvp` in the reference interpreter, by a rule of its own: the function
runs once, in this interpreter, on floats that carry a derivative (traced.py).

- `jvp(f, x, t)`: forward mode. Each float of x carries its tangent from t (dual numbers);
  the value is the tangent f's result carries, of the result's shape.
- `vjp(f, x, u)`: reverse mode. Each float of x is a leaf of a tape on which the run records
  every operation; the result's floats are seeded with u and the tape swept backwards; the
  value is the adjoint of x, of x's shape.
- `grad(f, x)`: `vjp` with seed 1 of the type of f's scalar result.

x is a float or a tensor of floats, passed as f takes it (a tensor lent, `&Tensor<..>`, is
lent a copy, so x itself never holds a traced value). A derivative prints nothing: f runs
with its output going nowhere. What the generated functions of differentiate-forward and
differentiate-reverse compute is checked against this rule (tests/passes/test_derivatives.py,
which plays the game on them); the refusals (E3060-E3062) are the passes'.
"""

from __future__ import annotations

from ..values.literals import scalar_hint
from ..values.numbers import TFloat, Traced, coerce, describe, unplace
from ..values.places import CPU_DRAM
from ..values.stops import stop, wrong_kind
from ..values.tensors import Tensor, make_tensor
from .references import Ref, referent
from .traced import Active, Tangents, Tape, nested


def derivative(interp, node, args, span):
    """The value of the `Grad`, `Vjp` or `Jvp` node `node`, given its arguments' values."""
    fn = interp.functions.get(node.fn)
    if fn is None:
        stop("E9006", span, f"'{node.fn}' is not a function of the program")
    params = fn.node.params
    if len(params) != 1:
        wrong_kind(span, f"a derivative is taken of a function of one argument; "
                         f"'{node.fn}' takes {len(params)}")
    ty = params[0].type
    x = _point(referent(args[0], span), ty, node.fn, span)
    lent = ty is not None and ty._prod == "BorrowType"
    if node._prod == "Jvp":
        trace = Tangents()
        tangent = _elements(_like(referent(args[1], span), x, "tangent", span), span)
        arg = _traced(x, lambda k, v: trace.leaf(v, tangent[k]), span)
        result = _run(interp, fn, arg, lent, span)
        return _shaped(result, [_tangent(v, trace, span) for v in _result(result, node, span)],
                       span)
    trace = Tape()
    arg = _traced(x, lambda k, v: trace.leaf(v), span)  # the leaves are nodes 0, 1, ..
    result = _run(interp, fn, arg, lent, span)
    floats = _result(result, node, span)
    if node._prod == "Grad":
        if type(result) is Tensor:
            wrong_kind(span, f"`grad` of '{node.fn}', whose result is a tensor: `vjp` takes "
                             f"its seed")
        seeds = [coerce(1.0, describe(floats[0]), span)]
    else:
        seeds = _elements(_like(referent(args[1], span), result, "seed", span), span)
    adjoint = trace.sweep([(v.d, coerce(seed, describe(v), span))
                           for v, seed in zip(floats, seeds) if _on(v, trace, span)], span)
    leaves = _elements(x, span)
    return _shaped(x, [_zero(v, span) if adjoint[k] is None else adjoint[k]
                       for k, v in enumerate(leaves)], span)


def _point(x, ty, name, span):
    """x as f's parameter takes it: a float of its type, or a tensor of floats."""
    x = unplace(x)
    if any(isinstance(v, Traced) for v in _elements(x, span)):
        nested(span)
    if type(x) is Tensor:
        if x.store.elem not in ("f16", "bf16", "f32", "f64"):
            wrong_kind(span, f"'{name}' is differentiated at a tensor of {x.store.elem}, "
                             f"which has no derivative")
    else:
        hint = scalar_hint(ty)
        x = coerce(x, hint, span) if hint is not None else x
        if type(x) is not float and type(x) is not TFloat:
            wrong_kind(span, f"'{name}' is differentiated at a {describe(x)}, which has no "
                             f"derivative")
    return x


def _like(v, x, what: str, span):
    """A tangent or seed `v` for a value shaped as x: a tensor of x's extents, or a float."""
    v = unplace(v)
    if type(x) is Tensor:
        if type(v) is not Tensor or v.dims != x.dims:
            wrong_kind(span, f"the {what} must be a tensor of extents {list(x.dims)}, "
                             f"found {describe(v)}")
        return v
    if type(v) is Tensor:
        wrong_kind(span, f"the {what} must be a {describe(x)}, found a tensor")
    return coerce(v, describe(x), span)


def _elements(v, span) -> list:
    """The floats of a float or of a tensor, in row-major order."""
    if type(v) is not Tensor:
        return [v]
    offsets = [v.offset]
    for extent, stride in zip(v.dims, v.strides):
        offsets = [o + i * stride for o in offsets for i in range(extent)]
    return [v.read(o, span) for o in offsets]


def _shaped(like, values, span):
    """`values` as a float, or as a tensor of `like`'s element type and extents."""
    if type(like) is not Tensor:
        return values[0]
    t = make_tensor(like.store.elem, list(like.dims), "uninit", [], CPU_DRAM, span)
    for k, v in enumerate(values):
        t.write(k, v, span)
    return t


def _traced(x, leaf, span):
    """x with each of its floats replaced by `leaf(k, float)`: a tensor is copied."""
    return _shaped(x, [leaf(k, v) for k, v in enumerate(_elements(x, span))], span)


class _Nowhere:
    """Where a function's `print`s go while it is differentiated: a derivative prints
    nothing (derivatives/quiet.py makes the generated functions agree)."""

    def write(self, text: str) -> None:
        pass


def _run(interp, fn, arg, lent: bool, span):
    out, interp.out = interp.out, _Nowhere()
    try:
        result = fn.call([Ref([arg], 0, False) if lent else arg], [], span)
    finally:
        interp.out = out
    return unplace(referent(result, span))


def _result(result, node, span) -> list:
    """The floats of f's result, which must be a float or a tensor of floats."""
    floats = _elements(result, span)
    if any(type(v) not in (float, TFloat, Active) for v in floats):
        wrong_kind(span, f"the result of '{node.fn}' is a {describe(result)}, which has no "
                         f"derivative")
    return floats


def _on(v, trace, span) -> bool:
    """Whether `v` was computed from the differentiated values (else it is a constant)."""
    if type(v) is not Active:
        return False
    if v.trace is not trace:
        nested(span)
    return True


def _tangent(v, trace, span):
    return v.d if _on(v, trace, span) else _zero(v, span)


def _zero(v, span):
    return coerce(0.0, describe(v), span)
