"""A compile-time value as the literal (or reduced expression) that replaces its block.

The literal means the same value under the interpreter as the block did: an untyped integer
stays an unsuffixed literal (so a typed context still types it), a value of another type is
written `v as T`, and a float without a literal (infinity, NaN) is the division giving it.
"""

from __future__ import annotations

import math

from ..values.numbers import TFloat, TInt, describe
from .errors import cannot_finish


def to_literal(v, il, span):
    """The Expr of language `il` for value v."""
    t = type(v)
    if t is bool:
        return il["Bool"](v, span=span)
    if t is int:
        return il["Int"](v, span=span)
    if t is float:
        return _float(v, il, span)
    if t is str:
        return il["Str"](v, span=span)
    if t is TInt:
        return _typed(il["Int"](v.v, span=span), v.t.name, il, span)
    if t is TFloat:
        return _typed(_float(v.v, il, span), v.t.name, il, span)
    what = "no value" if v is None else f"a value of type {describe(v)}"
    cannot_finish(span, f"its value is {what}, which has no literal to replace the block with")


def _typed(expr, name, il, span):
    return il["Cast"](expr, il["Scalar"](name, span=span), span=span)


def _float(v, il, span):
    if math.isfinite(v):
        return il["Float"](v, span=span)
    top = 0.0 if v != v else math.copysign(1.0, v)
    return il["Binary"]("/", il["Float"](top, span=span), il["Float"](0.0, span=span),
                           span=span)
