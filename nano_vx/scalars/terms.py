"""Type terms and their unification: a type is a scalar's name ("i32", "bool", "void", "str"),
a Tensor, a Vector, a Closure, a Ref, a Ptr, or a Var that unification decides."""

from __future__ import annotations

from dataclasses import dataclass

from ..dump.text import to_text
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
    "StateRead": "a hardware state",
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
    # What the place stores: "" the target itself, a narrow storage type's name (an element
    # of a tensor of f8e4m3 is a byte read as an f32), or a Var("held") its uses decide.
    held: object = ""


@dataclass(eq=False)
class Ptr:
    """A raw pointer: in native code, the tensor it points into seen as one dimension
    (erase-raw-pointers): of its element count where every pointer a function is given
    points into a rank-1 tensor of that many, else of `?` extent."""

    elem: object  # the element's type
    size: object  # a Var("size"): an element count, DYNAMIC, or undecided (DYNAMIC)
    mutable: bool
    held: object = ""  # what each element stores, as a Ref's


# The size of pointers into tensors of `?` extents, of a rank other than 1, or of two sizes.
DYNAMIC = "?"


class Var:
    """An undecided type: a literal's ("int", "float"), anything's ("any"), a pointed-into
    tensor's element count ("size") or what a place stores ("held")."""

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
        return type(t) is int or t == DYNAMIC
    if kind == "held":
        return isinstance(t, str)
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
        _same_held(a.held, b.held, node, "a reference to {} where one to {} is expected",
                   lambda held: f"an element of a tensor of {held}" if held else
                   f"a place of {show(a.target)}")
        return a
    elif isinstance(a, Ptr) and isinstance(b, Ptr):
        unify(a.elem, b.elem, node)  # a `*mut T` stands for a `*const T`
        _same_held(a.held, b.held, node,
                   "a pointer into a tensor of {} where one into a tensor of {} is expected",
                   lambda held: held or show(a.elem))
        _join_sizes(a.size, b.size)
        return a
    elif isinstance(a, Closure) and isinstance(b, Closure) and len(a.params) == len(b.params):
        for p, q in zip(a.params, b.params):
            unify(p, q, node)
        unify(a.ret, b.ret, node)
        return a
    raise Mismatch(node, f"a value of type {show(a)} where {show(b)} is expected")


def _same_held(a, b, node, says: str, place) -> None:
    """Two places' storage made one: what native code reads through a reference or pointer
    is one machine type, so a place of a narrow type and one of its value type do not meet
    (`says` the two, each as `place` describes what it holds)."""
    ha, hb = find(a), find(b)
    if isinstance(ha, str) and isinstance(hb, str) and ha != hb:
        raise Mismatch(node, says.format(place(ha), place(hb)))
    unify(a, b, node)


def _root(v):
    while isinstance(v, Var) and v.parent is not None:
        v = v.parent
    return v


def _join_sizes(a, b) -> None:
    """Two pointers' sizes made one: their element count when they agree, else DYNAMIC (the
    pointer is then the tensor seen as one dimension of `?` extent)."""
    ra, rb = _root(a), _root(b)
    if ra is rb:
        return
    va, vb = ra.value, rb.value
    ra.parent, ra.value = rb, None
    rb.value = va if vb is None else vb if va is None or va == vb else DYNAMIC


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
    if isinstance(found, str) and found != "void" or isinstance(found, Vector) or \
            isinstance(found, Var) and found.kind != "any":
        return Ref(t, mutable)
    what = "a reference" if isinstance(found, Ref) else show(t)
    raise Mismatch(node, f"a reference to {what}")


def scalar_of(ty, node):
    """The type term of a written Type node."""
    while ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    if ty._prod == "BorrowType":
        held = _narrow_scalar(ty.inner)
        if held is not None:  # an element of a tensor of a narrow type, read as its value type
            return Ref(value_type(held), ty.mutable, held)
        if ty.inner._prod == "OpaqueType":
            # A kernel's capture that no declaration types (a loop's counter, a closure's
            # parameter), changed through a reference of the launcher's: what it refers to is
            # what the launch refers to.
            return Ref(Var("any"), ty.mutable, Var("held"))
        t = reference_to(scalar_of(ty.inner, node), ty.mutable, node)
        return Ref(t.target, t.mutable, Var("held")) if isinstance(t, Ref) else t
    if ty._prod == "PtrType":
        held = _narrow_scalar(ty.inner)
        elem = value_type(held) if held is not None else scalar_of(ty.inner, node)
        if not isinstance(elem, str):
            raise Mismatch(node, f"a raw pointer to {show(elem)}")
        return Ptr(elem, Var("size"), ty.mutable, Var("held") if held is None else held)
    if ty._prod == "Scalar":
        return ty.name
    if ty._prod == "NamedType" and ty.name == "str":  # no struct takes the name (E2008)
        return "str"
    if ty._prod == "TensorType":
        if ty.elem._prod == "Scalar" and ty.elem.name in NARROW_TYPES:
            # Its elements are read and written as their value type (the buffer's format
            # is the written type's, `node`, which the back end reads).
            elem = value_type(ty.elem.name)
        else:
            elem = scalar_of(ty.elem, node)
        if not isinstance(elem, str):
            raise Mismatch(node, f"a tensor of {show(elem)}")
        # A `?` extent is None: native code reads it from the buffer (memref.dim).
        if any(d._prod not in ("DimInt", "DimAny") for d in ty.dims):
            raise Mismatch(node, _variable_extents(node, ty.dims))
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


def _narrow_scalar(ty) -> str | None:
    while ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    return ty.name if ty._prod == "Scalar" and ty.name in NARROW_TYPES else None


def _variable_extents(node, dims) -> str:
    """What erase-variable-extents leaves naming a variable: a literal it does not make of
    known extents, or a constructor's extent arithmetic it cannot show stays within i64 (the
    interpreter's is unbounded: computed natively, it could wrap where that does not)."""
    if node._prod == "TensorLit":
        return "a tensor literal whose extents name variables (it makes literals of known " \
               "extents)"
    shown = ", ".join(to_text(d).strip() for d in dims)
    return f"extent arithmetic that might leave i64 (`[{shown}]`)"


def decide(t):
    """A type as solved: what nothing fixed is i32 or f64 (void for anything else), a
    tensor's elements included."""
    t = find(t)
    if isinstance(t, Var):
        return {"int": "i32", "float": "f64", "size": DYNAMIC, "held": ""}.get(t.kind, "void")
    if isinstance(t, Tensor) and not isinstance(t.elem, str):
        return Tensor(decide(t.elem), t.dims, t.node)
    if isinstance(t, Ref):
        return Ref(decide(t.target), t.mutable, decide(t.held))
    if isinstance(t, Ptr):
        return Ptr(decide(t.elem), decide(t.size), t.mutable, decide(t.held))
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


def lent_row(arg, type_of, erased: bool):
    """The index chain of a row of a local a call is lent or given, a `let` binds or a
    function returns (`&t[i]`, `&mut t[i]`, `t[i]`; `(*p)[i]` of a local p referring to one),
    the tensor typed by `type_of`; None for anything else (`erased`: erase-tensor-references
    made `&t[i]` `t[i]`). Native code gives a view of the local's buffer (a memref of the
    row), as the interpreter does: find-owned-buffers counts the row's reads as the local's,
    and drops no buffer a row of which outlives its local (a row by value read after a new
    value of its tensor, one returned). A temporary's, which name-row-temporaries left in
    place, is refused: it would be dropped after its statement."""
    index = root = arg.value if arg._prod == "Borrow" and not erased else arg
    depth = 0
    while root._prod == "Index":
        root, depth = root.base, depth + 1
    tensor = root
    while root._prod == "Deref":  # `(*p)[i]`: p refers to a tensor that outlives it
        root = root.value
    if not depth or root._prod != "Local":
        return None
    t = find(type_of(tensor))
    return index if isinstance(t, Tensor) and depth < len(t.dims) else None


def unlowered_row(index) -> str:
    """Why the row `index` (`t[i]`) is not lowered where lent_row does not find it: it is
    of a tensor no variable names (which name-row-temporaries left), or used where no row
    is lowered."""
    while index._prod == "Index":
        index = index.base
    if index._prod not in ("Local", "Deref"):
        return "a row of a tensor no variable names used other than printed"
    return ("a row of a tensor used other than printed, given or lent to a function, bound "
            "by a `let` or returned")
