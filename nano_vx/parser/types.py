"""Types, tensor dimensions, and the memory-space and topology references they mention."""

from __future__ import annotations

from pyparsing import Forward, Group, Keyword, Literal, Optional, Regex, Suppress, ZeroOrMore

from ..languages.lsrc import NARROW, SCALARS, SPELLINGS, Lsrc
from . import state
from .elements import Build, Dispatch, refused
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


# A literal with a type after it (`2i32`, `0xFFu8`) is no dimension, so `x << 2i32` and
# `x < 2u8` read as the comparison or shift they are, and the attempt at a generic call
# fails without reporting it as one.
_SUFFIXED_INT = Regex(r"(?:[0-9][0-9_]*(?:[iu](?:8|16|32|64)|b?f(?:16|32|64))"
                      r"|0[xX][0-9A-Fa-f_]+[iu](?:8|16|32|64))(?![0-9A-Za-z_])")
DIM = Forward().set_name("a dimension")
_dim_atom = (~_SUFFIXED_INT + Build(INT_TOKEN, _dim_int)
             | Build(IDENT, lambda sp, t: Lsrc["DimName"](t[0], span=sp))
             | Build(Literal("?"), lambda sp, t: Lsrc["DimAny"](span=sp))
             | (LPAR + DIM + RPAR)).set_name("a dimension")
_dim_mul = Build(_dim_atom + ZeroOrMore(Regex(r"[*/]") + _dim_atom), _fold_dims)
DIM <<= Build(_dim_mul + ZeroOrMore(Regex(r"[+-](?![=>])") + _dim_mul), _fold_dims)


def _negated(sp, t):
    zero = Lsrc["DimInt"](0, span=sp)
    return _fold_dims(sp, [Lsrc["DimBinary"]("-", zero, t[0], span=sp), *t[1:]])


# A const argument may be negative, `f<-3>()`, as `f<0 - 3>()` is: the `-` negates the first
# term. An extent in a tensor's shape has no such form: it is positive.
_NEGATED_DIM = Build(Literal("-").suppress() + _dim_mul
                     + ZeroOrMore(Regex(r"[+-](?![=>])") + _dim_mul), _negated)

DIMS = Group(DIM + ZeroOrMore(COMMA + DIM) + Optional(COMMA))

# -- types --------------------------------------------------------------------------------


def _tensor(sp, t):
    return Lsrc["TensorType"](t[0], t[1], t[2] if len(t) > 2 else None, span=sp)


# A narrow storage type reads as a scalar type name wherever a type may stand;
# check-element-types refuses it anywhere but as a tensor's element (E3053).
_SCALAR_WORDS = (*SCALARS, *NARROW, *SPELLINGS)
SCALAR = Build(Regex("|".join(sorted(_SCALAR_WORDS, key=len, reverse=True))
                     + r"(?![A-Za-z0-9_])"),
               lambda sp, t: Lsrc["Scalar"](SPELLINGS.get(t[0], t[0]), span=sp))
# `[]`: a rank-0 tensor, one element.
_SHAPE = LBRACK - Group(Optional(DIMS)).set_parse_action(lambda t: [tuple(t[0][0])]
                                                         if t[0] else [()]) - RBRACK
TENSOR_TYPE = Build(
    kw("Tensor") - LT - TYPE - COMMA - _SHAPE + Optional(COMMA - PLACE) - GT,
    _tensor, "a tensor type")
# The older spelling `Tensor<f32, CPU_DRAM>`: no shape, a bare memory-space name; a rank-1
# tensor of a length known when the program runs, in that space.
_OLD_TENSOR_TYPE = Build(
    kw("Tensor") + LT + TYPE + COMMA + IDENT + GT,
    lambda sp, t: Lsrc["TensorType"](t[0], (Lsrc["DimAny"](span=sp),),
                                     Lsrc["MemRef"](t[1], span=sp), span=sp),
    "a tensor type")
# What a tensor constructor names: `Tensor<f32>` alone (its shape to come from the
# arguments) or a whole tensor type; (elem, dims or None, place or None).
TENSOR_HEAD = Build(
    kw("Tensor") - LT - TYPE + Optional(COMMA - _SHAPE + Optional(COMMA - PLACE)) - GT,
    lambda sp, t: (sp, t[0], t[1] if len(t) > 1 else None, t[2] if len(t) > 2 else None))
_pinned = Build(kw("Pinned") - LT - TYPE - COMMA - TOPO - GT,
                lambda sp, t: Lsrc["PinnedType"](t[0], t[1], span=sp))
_verified = Build(kw("Verified") - LT - TYPE - GT,
                  lambda sp, t: Lsrc["VerifiedType"](t[0], span=sp))
_hwstate = Build(kw("HardwareState") - LT - TYPE - COMMA - TOPO - GT,
                 lambda sp, t: Lsrc["HardwareStateType"](t[0], t[1], span=sp))
_ref = Build(kw("Ref") - LT - TYPE - COMMA - MEM - GT,
             lambda sp, t: Lsrc["RefType"](t[0], t[1], span=sp))
# Rust's lifetimes, `fn f<'a>(x: &'a S) -> &'a S`: Vx has none, a loan being read off the
# text (check-loans, check-dangling-references). Each is refused where it is written, and read
# as absent, so the rest still parses.
_lifetime = refused(
    "lifetimes are not in the language nano-vx reads: `{0}` names none, and a reference is "
    "written without one",
    help=("drop the lifetime: `&S` and `&mut S` for a reference, and no `'a` among the generic "
          "parameters",))
LIFETIME = Suppress(Build(Regex(r"'[A-Za-z_][A-Za-z0-9_]*"), _lifetime)).set_name(
    "a lifetime")
# `&T`, `&mut T`; `&&T` is a reference to a reference, as in Rust (the table dispatches on
# one character at a time).
_borrow = Build(Literal("&") - Optional(LIFETIME) - Optional(Keyword("mut")) - TYPE,
                lambda sp, t: Lsrc["BorrowType"](t[-1], len(t) == 3, span=sp))
# `*const T`, `*mut T`: a raw pointer.
_POINTER_KIND = (Keyword("const") | Keyword("mut")).set_name("'const' or 'mut' (`*const T`, "
                                                              "`*mut T`)")
_pointer = Build(Literal("*") - _POINTER_KIND - TYPE,
                 lambda sp, t: Lsrc["PtrType"](t[-1], t[1] == "mut", None, span=sp))
_TYPE_ARGS = Forward().set_name("generic arguments")
NAMED_TYPE = Build(IDENT + Optional(_TYPE_ARGS),
                   lambda sp, t: Lsrc["NamedType"](t[0], span=sp) if len(t) == 1 else
                   Lsrc["AppliedType"](t[0], tuple(t[1]), span=sp))
# No commitment after `(`: in a generic argument list `(N + 1)` is a dimension.
_TUPLE_TYPE = Build(LPAR + Group(TYPE + COMMA + TYPE + ZeroOrMore(COMMA + TYPE)
                                 + Optional(COMMA)) + RPAR,
                    lambda sp, t: Lsrc["TupleType"](tuple(t[0]), span=sp), "a tuple type")

# `<4 x f32>`: the lanes a dimension, so that `<N x f32>` reads and its check says what N
# must be.
VECTOR_TYPE = Build(LT + DIM + Keyword("x").suppress() - TYPE - GT,
                    lambda sp, t: Lsrc["VectorType"](t[0], t[1], span=sp), "a vector type")

_TYPE_TABLE = {s: SCALAR for s in _SCALAR_WORDS} | {"<": VECTOR_TYPE} | {
    "Tensor": _OLD_TENSOR_TYPE | TENSOR_TYPE, "Pinned": _pinned, "Verified": _verified,
    "HardwareState": _hwstate, "Ref": _ref, "&": _borrow, "*": _pointer, "(": _TUPLE_TYPE}
TYPE <<= Dispatch(_TYPE_TABLE, NAMED_TYPE, "a type")
# The types a generic argument list may hold besides a dimension (a bare name reads as a
# type: `f<T>(x)` names a type parameter, and a const parameter is resolved later).
KEYWORD_TYPE = Dispatch(_TYPE_TABLE, None, "a type")

# -- generic arguments: `f<4>(a)`, `f<2.5>(x)`, `f<true>()`, `f<i32>(x)`, `f<Topology::GPU>(p)`,
# `Pair<f32, 4>`


def _garg(sp, t):
    v = t[0]
    if v._nt == "Topo":
        return Lsrc["TopoArg"](v, span=sp)
    if v._nt == "Type":
        return Lsrc["TypeArg"](v, span=sp)
    if v._prod == "DimName":  # a bare name: a type parameter (see KEYWORD_TYPE)
        return Lsrc["TypeArg"](Lsrc["NamedType"](v.name, span=sp), span=sp)
    return Lsrc["DimArg"](v, span=sp)


_FLOAT_ARG = Build(Regex(r"-?[0-9]+\.[0-9]+(?![0-9A-Za-z_.])"),
                   lambda sp, t: Lsrc["FloatArg"](float(t[0]), span=sp))
# `Cell<Point>` inside another list (`Cell<Cell<Point>>`) is a type; a bare name before
# no `<` stays a dimension, resolved later.
_APPLIED_ARG = Build(IDENT + _TYPE_ARGS,
                     lambda sp, t: Lsrc["AppliedType"](t[0], tuple(t[1]), span=sp))
_BOOL_ARG = Build(Regex(r"(?:true|false)(?![A-Za-z0-9_])"),
                  lambda sp, t: Lsrc["BoolArg"](t[0] == "true", span=sp))
GARG = _FLOAT_ARG | _BOOL_ARG | Build(TOPO | KEYWORD_TYPE | _APPLIED_ARG | DIM | _NEGATED_DIM, _garg)
GARGS = Group(LT + GARG + ZeroOrMore(COMMA + GARG) + Optional(COMMA) + GT)
# No commitment: `x as T < y` is a comparison when no `>` closes the list.
_TYPE_ARGS <<= GARGS
