"""The code derivatives are made of: the nodes of Lrouted the generated functions are built
from (each with the span of the construct it comes from), fresh local names, the loops that
copy and add tensors, and the types a derivative follows (floats and tensors of floats).
differentiate-forward and differentiate-reverse both write with it."""

from __future__ import annotations

from ..languages.lresolved import display_name, unused_name
from ..languages.lrouted import Lrouted
from ..nanopass import descendants, rebuild
from ..placement.typer import FLOAT_LIT, INT_LIT, literal, value_type

L = Lrouted
FLOATS = frozenset({"f16", "bf16", "f32", "f64"})


class Refusal(Exception):
    """A construct the derivative cannot follow, in the function being differentiated."""

    def __init__(self, code: str, node, what: str, help: tuple = ()):
        super().__init__(what)
        self.code, self.node, self.what, self.help = code, node, what, help


def refuse(node, what: str, *help: str):
    raise Refusal("E3061", node, what, help)


# -- types -------------------------------------------------------------------------------


def float_name(ty) -> str | None:
    """The float type a scalar type names (FLOAT_LIT: an unsuffixed literal's), else None."""
    ty = value_type(ty)
    if ty is FLOAT_LIT:
        return "f64"
    if ty is INT_LIT or ty._prod != "Scalar":
        return None
    return ty.name if ty.name in FLOATS else None


def tensor_of(ty):
    """The tensor type of floats `ty` is or refers to (`&Tensor<f32, [4]>`), else None."""
    if ty is None or literal(ty):
        return None
    if ty._prod == "BorrowType":
        ty = ty.inner
    if ty._prod == "TensorType" and ty.elem._prod == "Scalar" and ty.elem.name in FLOATS:
        return ty
    return None


def active(ty) -> bool:
    """Whether a value of type `ty` has a derivative: a float or a tensor of floats."""
    return ty is not None and (float_name(ty) is not None or tensor_of(ty) is not None)


def dims_of(ty, node) -> tuple[int, ...]:
    """A tensor type's extents, which the generated loops need as numbers."""
    if any(d._prod != "DimInt" for d in ty.dims):
        refuse(node, "a tensor whose extents are not numbers known while compiling")
    return tuple(d.value for d in ty.dims)


# -- nodes -----------------------------------------------------------------------------


class Build:
    """Nodes of Lrouted carrying the span of the construct they are generated from."""

    __slots__ = ("span",)

    def __init__(self, span):
        self.span = span

    def local(self, name):
        return L["Local"](name, span=self.span)

    def glob(self, name):
        return L["Global"](name, span=self.span)

    def flt(self, value: float):
        return L["Float"](float(value), span=self.span)

    def int(self, value: int):
        return L["Int"](value, span=self.span)

    def bool(self, value: bool):
        return L["Bool"](value, span=self.span)

    def bin(self, op, a, b):
        return L["Binary"](op, a, b, span=self.span)

    def neg(self, a):
        return L["Unary"]("-", a, span=self.span)

    def not_(self, a):
        return L["Unary"]("!", a, span=self.span)

    def cast(self, a, name: str):
        return L["Cast"](a, self.scalar(name), span=self.span)

    def scalar(self, name: str):
        return L["Scalar"](name, span=self.span)

    def opaque(self):
        return L["OpaqueType"](span=self.span)

    def call(self, name: str, args):
        return L["Call"](self.glob(name), tuple(args), span=self.span)

    def index(self, base, indices):
        for i in indices:
            base = L["Index"](base, i, span=self.span)
        return base

    def borrow(self, value, mutable: bool = False):
        return L["Borrow"](value, mutable, span=self.span)

    def deref(self, value):
        return L["Deref"](value, span=self.span)

    def ref_type(self, ty, mutable: bool = False):
        return L["BorrowType"](ty, mutable, span=self.span)

    def new_tensor(self, ty, ctor: str = "new", args=()):
        return L["TensorNew"](ty.replace(place=None, span=self.span), ctor, tuple(args),
                              span=self.span)

    def tensor_type(self, elem: str, extent, place):
        dim = L["DimInt"](extent, span=self.span) if type(extent) is int else \
            L["DimAny"](span=self.span)
        return L["TensorType"](self.scalar(elem), (dim,), place, span=self.span)

    def array(self, elems):
        return L["ArrayLit"](tuple(elems), span=self.span)

    def block(self, stmts, value=None):
        return L["Block"](tuple(stmts), value, span=self.span)

    def let(self, name: str, ty, value, mutable: bool = True, inferred: bool = False):
        """`let`; an inferred type carries the `let`'s own span, as infer-placement's do,
        so the checks and type-scalars read it as decided by its value and uses."""
        if inferred and ty._prod == "Scalar":
            ty = ty.replace(span=self.span)
        return L["Let"](name, mutable, ty, value, span=self.span)

    def assign(self, target, value, op: str = "="):
        return L["Assign"](target, op, value, span=self.span)

    def if_(self, cond, then, orelse=None):
        return L["If"](cond, False, self.block(then),
                       self.block(orelse) if orelse else None, span=self.span)

    def if_value(self, cond, then, orelse):
        return L["IfExpr"](cond, False, self.block((), then), self.block((), orelse),
                           span=self.span)

    def for_(self, var: str, start, end, body):
        return L["For"](var, start, end, self.block(body), span=self.span)

    def expr_stmt(self, e):
        return L["ExprStmt"](e, span=self.span)

    def param(self, name: str, ty):
        return L["Param"](name, ty, span=self.span)


def generated_name(fn: str, mode: str) -> str:
    return f"{fn}${mode}"


def is_print(node) -> bool:
    return node._prod == "ExprStmt" and node.expr._prod == "Call" and \
        node.expr.callee._prod == "Global" and node.expr.callee.name == "print"


def zero(b: Build, ty):
    """The zero of a float or a tensor type."""
    t = tensor_of(ty)
    return b.new_tensor(t) if t is not None else b.flt(0.0)


class Names:
    """Fresh local names within one generated function, none a name the function has: a
    base (`x_adj`) when it is free, else numbered as resolve-names numbers a user's
    (`x_adj#1`)."""

    def __init__(self, fn):
        self.taken = {n.name for n in descendants(fn) if n._prod in ("Param", "Let", "Local")}
        self.taken |= {n.var for n in descendants(fn) if n._prod == "For"}
        self.tried: dict = {}  # where unused_name's search for each base stopped

    def fresh(self, base: str) -> str:
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in base) or "v"
        if base[0].isdigit():
            base = "v" + base
        return unused_name(base, self.taken, self.tried)

    def derived(self, name: str, suffix: str) -> str:
        return self.fresh(display_name(name) + suffix)


def loop_nest(b: Build, names: Names, dims, body) -> list:
    """`for i0 in 0..d0 { for i1 in 0..d1 { body([i0, i1]) } }`, one loop per extent."""
    indices = [names.fresh(f"i{k}") for k in range(len(dims))]

    def nest(k):
        if k == len(dims):
            return body([b.local(i) for i in indices])
        return [b.for_(indices[k], b.int(0), b.int(dims[k]), nest(k + 1))]
    return nest(0)


def copy_into(b: Build, names: Names, dst, src, dims, op: str = "=") -> list:
    """Every element of `src` written (`op` `+=`: added) into `dst`, two expressions that
    index as tensors."""
    return loop_nest(b, names, dims,
                     lambda ix: [b.assign(b.index(dst, ix), b.index(src, ix), op)])


def substitute(node, rename: dict):
    """`node` with each Local whose name `rename` maps read under its new name."""
    if not rename:
        return node
    return rebuild(node, lambda n: n.replace(name=rename[n.name])
                   if n._prod == "Local" and n.name in rename else None)


def picks_first(b, name: str, a, c):
    """Whether max(a, c) (min) is a, as values/math.py picks: a NaN loses to a number, and
    of two equal values the first is taken."""
    beats = ">" if name == "max" else "<"
    return b.bin("&&", b.bin("==", a, a), b.not_(b.bin(beats, c, a)))
