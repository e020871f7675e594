"""Types, tensor dimensions, and the memory-space and topology references they mention."""

from __future__ import annotations

from pyparsing import Forward, Group, Optional, Regex, ZeroOrMore

from ..languages.l0_source import SCALARS, Lsrc
from . import state
from .elements import Build, Dispatch
from .lexical import (ANY_NAME, COMMA, DOTDOT, GT, IDENT, INT_TOKEN, LBRACK, LPAR, LT, PATH, is_int,
                      RBRACK, RPAR, kw, read_int, shown)
from .refs import EXPR, TYPE

MEM = Build(kw("Memory") - PATH - ANY_NAME, lambda sp, t: Lsrc["MemRef"](t[0], span=sp),
            "a memory space (Memory::NAME)")


def _topo(sp, t):
    rng = t[1] if len(t) > 1 else ()
    index = rng[0] if len(rng) > 0 else None
    end = rng[1] if len(rng) > 1 else None
    return Lsrc["TopoRef"](t[0], index, end, span=sp)


TOPO = Build(
    kw("Topology") - PATH - ANY_NAME
    + Optional(Group(LBRACK - EXPR + Optional(DOTDOT - EXPR) - RBRACK)),
    _topo, "a topology (Topology::NAME)")

PLACE = Dispatch({"Memory": MEM, "Topology": TOPO}, None,
                 "a placement (Memory::NAME or Topology::NAME)")

# -- dimensions: `4`, `S`, `S*2+1` -------------------------------------------------------
# No error stops here: a generic call `f<S>(x)` is tried before `a < b`, and a dimension
# that fails must let that attempt fall back quietly.


def _dim_int(sp, t):
    text = t[0]
    if not is_int(text):
        state.error("E1006", sp.start, sp.end, f"invalid dimension literal '{shown(text)}'")
        return Lsrc["DimInt"](0, span=sp)
    return Lsrc["DimInt"](read_int(text, sp), span=sp)


def _fold_dims(sp, t):
    out = t[0]
    for i in range(1, len(t), 2):
        right = t[i + 1]
        out = Lsrc["DimBinary"](t[i], out, right, span=out.span.to(right.span))
    return out


DIM = Forward().set_name("a dimension")
_dim_atom = (Build(INT_TOKEN, _dim_int)
             | Build(IDENT, lambda sp, t: Lsrc["DimName"](t[0], span=sp))
             | (LPAR + DIM + RPAR)).set_name("a dimension")
_dim_mul = Build(_dim_atom + ZeroOrMore(Regex(r"[*/]") + _dim_atom), _fold_dims)
DIM <<= Build(_dim_mul + ZeroOrMore(Regex(r"[+-](?![=>])") + _dim_mul), _fold_dims)

DIMS = Group(DIM + ZeroOrMore(COMMA + DIM) + Optional(COMMA))

# -- types --------------------------------------------------------------------------------


def _tensor(sp, t):
    return Lsrc["TensorType"](t[0], tuple(t[1]), t[2] if len(t) > 2 else None, span=sp)


SCALAR = Build(Regex("|".join(sorted(SCALARS, key=len, reverse=True)) + r"(?![A-Za-z0-9_])"),
               lambda sp, t: Lsrc["Scalar"](t[0], span=sp))
TENSOR_TYPE = Build(
    kw("Tensor") - LT - TYPE - COMMA - LBRACK - DIMS - RBRACK + Optional(COMMA - PLACE) - GT,
    _tensor, "a tensor type")
_pinned = Build(kw("Pinned") - LT - TYPE - COMMA - TOPO - GT,
                lambda sp, t: Lsrc["PinnedType"](t[0], t[1], span=sp))
_verified = Build(kw("Verified") - LT - TYPE - GT,
                  lambda sp, t: Lsrc["VerifiedType"](t[0], span=sp))
_hwstate = Build(kw("HardwareState") - LT - TYPE - COMMA - TOPO - GT,
                 lambda sp, t: Lsrc["HardwareStateType"](t[0], t[1], span=sp))
_ref = Build(kw("Ref") - LT - TYPE - COMMA - MEM - GT,
             lambda sp, t: Lsrc["RefType"](t[0], t[1], span=sp))
NAMED_TYPE = Build(IDENT, lambda sp, t: Lsrc["NamedType"](t[0], span=sp))

_TYPE_TABLE = {s: SCALAR for s in SCALARS} | {
    "Tensor": TENSOR_TYPE, "Pinned": _pinned, "Verified": _verified,
    "HardwareState": _hwstate, "Ref": _ref}
TYPE <<= Dispatch(_TYPE_TABLE, NAMED_TYPE, "a type")
# The types a generic argument list may hold besides a dimension (a bare name reads as a
# type: `f<T>(x)` names a type parameter, and a const parameter is resolved later).
KEYWORD_TYPE = Dispatch(_TYPE_TABLE, None, "a type")
