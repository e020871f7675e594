"""Type terms and their unification: a type is a scalar's name ("i32", "bool", "void", "str"),
a Tensor, a Vector, a Closure, a Ref, a Ptr, or a Var that unification decides."""

from __future__ import annotations

from dataclasses import dataclass

from ..values.sizes import tensor_bytes
from ..values.literals import TYPE_WRAPPERS
from ..values.narrow import NARROW_TYPES, value_type
from ..values.numbers import FLOAT_TYPES, INT_TYPES

FLOATS = frozenset(FLOAT_TYPES) | {"f64"}
BITWISE = frozenset({"&", "|", "^"})
# What native code does not lower: a hardware state lower-pins left as it was (used other
# than by `match`), a value's topology, fields of structs, differentiation.
UNLOWERED = {
    "Match": "`match` on a hardware state",
    "FieldGet": "a struct field", "SomeTopo": "a topology value", "NoneTopo": "a topology value",
    "Grad": "grad", "Vjp": "vjp", "Jvp": "jvp", "TopoRef": "a topology value",
    "MemRef": "a memory-space value", "NamedType": "a struct or generic type",
    "HardwareStateType": "a hardware state", "StatePart": "a hardware state",
    "Tuple": "a tuple", "TupleGet": "a tuple", "TupleType": "a tuple",
    "StructLit": "a struct value", "EnumValue": "an enum value",
    "MatchValue": "a `match` on a value",
    "Unsafe": "an `unsafe` block with statements inside a larger expression (bind it with a "
              "`let` first)",
}


@dataclass(frozen=True)
class Tensor:
    elem: str
    dims: tuple
    node: object  # the TensorType as written, for the rebuilt `let`


@dataclass(frozen=True)
class Vector:
    """`<N x T>`: N lanes of the scalar T, one value (in native code, an LLVM vector)."""

    elem: str
    lanes: int


@dataclass(eq=False)
class Closure:
    """A closure value's signature. Two closures that meet (the arms of an `if`, a variable
    assigned either, a parameter passed either) have one signature: native code holds a
    closure value as the number of its closure, and a call through it picks the function."""

    params: list
    ret: object
    node: object


@dataclass(frozen=True, eq=False)
class Ref:
    """A reference to a scalar: in native code, the place it names (a variable's cell, an
    element of a tensor's buffer)."""

    target: object  # the scalar's type
    mutable: bool


@dataclass(eq=False)
class Ptr:
    """A raw pointer: in native code, the rank-1 tensor it points into (erase-raw-pointers),
    so every pointer a function is given points into tensors of one size."""

    elem: object  # the element's type
    size: object  # the tensor's element count: an int, or a Var("size") its uses decide
    mutable: bool


class Var:
    """An undecided type: a literal's ("int", "float"), anything's ("any") or a pointed-into
    tensor's element count ("size")."""

    __slots__ = ("kind", "parent", "value")

    def __init__(self, kind: str):
        self.kind, self.parent, self.value = kind, None, None


def find(t):
    """What t stands for now: its representative's value, or the representative."""
    root = t
    while isinstance(root, Var) and root.parent is not None:
        root = root.parent
    # Path compression: a long function chains its variables one to the next, and without
    # it every lookup walked the whole chain (quadratic in the function's length).
    while t is not root:
        t.parent, t = root, t.parent
    if isinstance(root, Var) and root.value is not None:
        return root.value
    return root


class Mismatch(Exception):
    """What native code does not lower, at the node that shows it."""

    def __init__(self, node, what: str):
        super().__init__(what)
        self.node, self.what = node, what


def fits(kind: str, t) -> bool:
    if kind == "int":
        return t in INT_TYPES
    if kind == "float":
        return t in FLOATS
    if kind == "size":
        return type(t) is int
    return type(t) is not int


def show(t) -> str:
    t = find(t)
    if isinstance(t, Var):
        return {"int": "{integer}", "float": "{float}"}.get(t.kind, "_")
    if isinstance(t, Tensor):
        dims = ", ".join("?" if d is None else str(d) for d in t.dims)
        return f"Tensor<{show(t.elem)}, [{dims}]>"
    if isinstance(t, Closure):
        return "a closure"
    if isinstance(t, Vector):
        return f"<{t.lanes} x {t.elem}>"
    if isinstance(t, Ref):
        return f"&{'mut ' if t.mutable else ''}{show(t.target)}"
    if isinstance(t, Ptr):
        return f"*{'mut' if t.mutable else 'const'} {show(t.elem)}"
    return t


def unify(a, b, node):
    a, b = find(a), find(b)
    if a is b or a == b and not isinstance(a, Var):
        return a
    if isinstance(a, Var) and isinstance(b, Var):
        if a.kind == "any" or a.kind == b.kind:
            a.parent = b
            return b
        if b.kind == "any":
            b.parent = a
            return a
    elif isinstance(a, Var) or isinstance(b, Var):
        var, t = (a, b) if isinstance(a, Var) else (b, a)
        if isinstance(t, Closure) and _holds(t, var):
            raise Mismatch(node, "a closure whose type holds itself")
        if fits(var.kind, t):
            var.value = t
            return t
    elif isinstance(a, Tensor) and isinstance(b, Tensor) and a.dims == b.dims:
        unify(a.elem, b.elem, node)  # an array literal's elements may be undecided yet
        return a
    elif isinstance(a, Ref) and isinstance(b, Ref):
        unify(a.target, b.target, node)  # a `&mut T` stands for a `&T`
        return a
    elif isinstance(a, Ptr) and isinstance(b, Ptr):
        unify(a.elem, b.elem, node)  # a `*mut T` stands for a `*const T`
        sizes = find(a.size), find(b.size)
        if all(type(n) is int for n in sizes) and sizes[0] != sizes[1]:
            raise Mismatch(node, f"a pointer into a tensor of {sizes[0]} elements where one "
                                 f"into a tensor of {sizes[1]} is expected")
        unify(a.size, b.size, node)
        return a
    elif isinstance(a, Closure) and isinstance(b, Closure) and len(a.params) == len(b.params):
        for p, q in zip(a.params, b.params):
            unify(p, q, node)
        unify(a.ret, b.ret, node)
        return a
    raise Mismatch(node, f"a value of type {show(a)} where {show(b)} is expected")


def _holds(closure: Closure, var: Var) -> bool:
    """Whether the signature of a closure holds the type variable var (an infinite type)."""
    stack = [closure]
    while stack:
        t = find(stack.pop())
        if t is var:
            return True
        if isinstance(t, Closure):
            stack += [*t.params, t.ret]
    return False


def narrow_of(t) -> str | None:
    """The narrow storage type a tensor's elements are stored in, None for any other."""
    node = t.node if isinstance(t, Tensor) else None
    while node is not None and node._prod in TYPE_WRAPPERS:
        node = node.inner
    if node is None or node._prod != "TensorType" or node.elem._prod != "Scalar":
        return None
    return node.elem.name if node.elem.name in NARROW_TYPES else None


def reference_to(t, mutable: bool, node):
    """The type of a reference to a value of type t: a tensor's is the tensor (its buffer,
    the reference erased); a scalar's or a vector's the address of a cell; no other is
    lowered."""
    found = find(t)
    if isinstance(found, Tensor):
        return t
    if isinstance(found, str) and found not in ("void", "str") or isinstance(found, Vector) or \
            isinstance(found, Var) and found.kind != "any":
        return Ref(t, mutable)
    what = "a reference" if isinstance(found, Ref) else show(t)
    raise Mismatch(node, f"a reference to {what}")


def scalar_of(ty, node):
    """The type term of a written Type node."""
    while ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    if ty._prod == "BorrowType":
        return reference_to(scalar_of(ty.inner, node), ty.mutable, node)
    if ty._prod == "PtrType":
        elem = scalar_of(ty.inner, node)
        if not isinstance(elem, str):
            raise Mismatch(node, f"a raw pointer to {show(elem)}")
        return Ptr(elem, Var("size"), ty.mutable)
    if ty._prod == "Scalar":
        return ty.name
    if ty._prod == "TensorType":
        if ty.elem._prod == "Scalar" and ty.elem.name in NARROW_TYPES:
            # Its elements are read and written as their value type (the buffer's format
            # is the written type's, `node`, which the back end reads).
            elem = value_type(ty.elem.name)
        else:
            elem = scalar_of(ty.elem, node)
        # A `?` extent is None: native code reads it from the buffer (memref.dim).
        if not isinstance(elem, str) or any(d._prod not in ("DimInt", "DimAny")
                                            for d in ty.dims):
            raise Mismatch(node, "a tensor whose extents are not integers")
        size = tensor_bytes(ty)
        if size is not None and size >= 1 << 63:  # its bytes do not fit a 64-bit address
            raise Mismatch(node, f"a tensor of {size} bytes, more than an address reaches")
        return Tensor(elem, tuple(getattr(d, "value", None) for d in ty.dims), ty)
    if ty._prod == "VectorType":
        elem = scalar_of(ty.elem, node)
        if ty.lanes._prod != "DimInt" or ty.lanes.value < 1 or not isinstance(elem, str):
            raise Mismatch(node, "a vector whose lanes are not a number of scalars")
        return Vector(elem, ty.lanes.value)
    if ty._prod == "OpaqueType":
        return Var("any")
    if ty._prod == "ClosureType":
        return Closure([scalar_of(p, node) for p in ty.params], scalar_of(ty.ret, node), ty)
    raise Mismatch(node, UNLOWERED.get(ty._prod, ty._prod))


def decide(t):
    """A type as solved: what nothing fixed is i32 or f64 (void for anything else), a
    tensor's elements included."""
    t = find(t)
    if isinstance(t, Var):
        return {"int": "i32", "float": "f64"}.get(t.kind, "void")
    if isinstance(t, Tensor) and not isinstance(t.elem, str):
        return Tensor(decide(t.elem), t.dims, t.node)
    if isinstance(t, Ref):
        return Ref(decide(t.target), t.mutable)
    if isinstance(t, Ptr):
        return Ptr(decide(t.elem), find(t.size), t.mutable)
    if isinstance(t, Closure):
        return Closure([decide(p) for p in t.params], decide(t.ret), t.node)
    return t


# -- what native code would compute differently from the interpreter ------------------------


def bad_binary(op: str, t):
    t = find(t)
    if isinstance(t, (Tensor, Closure, Ref, Ptr)) or t in ("str", "void") or \
            op in BITWISE and (t in FLOATS or isinstance(t, Var) and t.kind == "float"):
        return f"'{op}' on {show(t)}"
    return None


def bad_negation(t):
    t = find(t)
    if t == "bool" or t in INT_TYPES and not INT_TYPES[t].signed:
        return f"'-' on {show(t)}"
    return None


def bad_cast(source, target):
    # As in Rust, a bool converts to an integer and nothing else converts to a bool.
    if (target == "bool") != (find(source) == "bool") and (target == "bool" or target in FLOATS):
        return f"a cast of {show(source)} to {show(target)}"
    return None


def unbounded_count(extent, dims: tuple):
    """Extents whose product may not fit 64 bits: native code computes a `?` tensor's
    element count in 64 bits, to stop as the interpreter does past 2**63. `?` extents of
    type `extent` and the numbers in `dims` fit when their bits add up to 64 at most (a
    rank-1 tensor's always do, and so do two i32 extents)."""
    t = INT_TYPES.get(find(extent), INT_TYPES["i32"])  # an integer nothing fixes is an i32
    if sum(t.bits - t.signed if d is None else d.bit_length() for d in dims) <= 64:
        return None
    return f"a tensor of `?` extents of type {t.name} whose element count may not fit 64 bits"
