"""Callable values: top-level functions (compiled on first call), closures, builtins; and the
call itself (arguments, const generics, the call-depth bound)."""

from __future__ import annotations

from ..values.sizes import ELEMENT_BYTES, elements_bytes
from ..values.control import Return
from ..values.numbers import describe, unplace
from ..values.literals import literal_hint
from ..values.stops import stop, too_deep, wrong_kind
from ..values.structs import EnumValue, StructValue
from ..values.tensors import Tensor
from .blocks import run_blocks
from .references import referent
from .scope import Escape, FnScope, Launcher, Moved, stray


class TypeGiven:
    """What a call shows of a type parameter: the bytes of a value of the type (None when it
    has no static size), and the struct or enum it is (None for any other type), which a call
    through the parameter, `T::area(x)`, calls a function of."""

    __slots__ = ("bytes", "owner")

    def __init__(self, bytes_: int | None, owner: str | None):
        self.bytes, self.owner = bytes_, owner


class Code:
    """A compiled function or closure body, ready to be called with a fresh frame."""

    __slots__ = ("name", "nslots", "generics", "params", "body", "ret")

    def __init__(self, name, nslots, generics, params, body, ret):
        self.name = name
        self.nslots = nslots
        # (name, slot, conform, whether a type): a type parameter's slot holds a TypeGiven,
        # what `sizeof<T>()` and `T::f(..)` read (None while nothing shows it)
        self.generics = generics
        self.params = params  # (slot, conform, [(dim index, const slot)])
        self.body = body
        self.ret = ret


def compile_code(interp, name, generics, params, ret, body, parent: FnScope | None,
                 self_type: str | None = None) -> Code:
    sc = FnScope(parent, literal_hint(ret))
    if self_type is not None:
        sc.self_type = self_type
    gens, const_slots = [], {}
    type_slots = {}
    for g in generics:
        if g._prod == "ConstParam":
            slot = sc.declare(g.name)
            const_slots[g.name] = slot
            gens.append((g.name, slot, interp.conformer(g.type, g.span), False))
        else:
            slot = type_slots[g.name] = sc.declare(type_slot(g.name))
            gens.append((g.name, slot, None, True))
    plist = []
    for p in params:
        binds = []
        ty = p.type.inner if p.type is not None and p.type._prod == "BorrowType" else p.type
        if ty is not None and ty._prod == "TensorType":  # `&Tensor<f32, [N]>` binds N too
            binds = [(k, const_slots[d.name]) for k, d in enumerate(ty.dims)
                     if d._prod == "DimName" and d.name in const_slots]
            if ty.elem._prod == "NamedType" and ty.elem.name in type_slots:
                binds.append(("elem", type_slots[ty.elem.name]))
        elif ty is not None and ty._prod == "NamedType" and ty.name in type_slots:
            binds.append(("value", type_slots[ty.name]))
        elif ty is not None and ty._prod == "AppliedType":  # `Buf<T, N>`: N from its field
            for a, at in zip(ty.args, interp.struct_extents.get(ty.name, ())):
                named = a.dim if a._prod == "DimArg" else a.type if a._prod == "TypeArg" \
                    else None
                if at is not None and named is not None and \
                        named._prod in ("DimName", "NamedType") and named.name in const_slots:
                    binds.append((at, const_slots[named.name]))
        plist.append((sc.declare(p.name), interp.conformer(p.type, p.span), binds))
    if type(body) is tuple:  # Lblocks on: the function's basic blocks
        run, span = run_blocks(interp, body, sc), body[0].span if body else None
    else:
        run, span = interp.fn_block(body, sc), body.span
    return Code(name, sc.nslots, gens, plist, run, interp.conformer(ret, span))


def invoke(interp, code: Code, parent, args, targs, span):
    if len(args) != len(code.params):
        wrong_kind(span, f"'{code.name}' takes {len(code.params)} argument(s) but "
                         f"{len(args)} were given")
    interp.depth += 1
    if interp.depth > interp.max_depth:
        stop("E9006", span, too_deep(interp.max_depth, code.name))
    f = [None] * code.nslots
    f[0] = parent
    if targs:
        _bind_targs(code, f, targs, span)
    for (slot, conform, binds), v in zip(code.params, args):
        f[slot] = v if conform is None or type(v) is Moved else conform(v)
        for k, cslot in binds:
            if f[cslot] is None:  # a generic binds from the first argument naming it
                f[cslot] = _shown_by(code, k, referent(v, span), span)
    for gname, slot, _, is_type in code.generics:
        if not is_type and f[slot] is None:
            wrong_kind(span, f"the const generic '{gname}' of '{code.name}' is not bound by "
                             f"the call")
    v = code.body(f)
    if code.ret is not None:
        v = code.ret(v)
    interp.depth -= 1
    return v


def _bind_targs(code, f, targs, span):
    if len(targs) > len(code.generics):
        wrong_kind(span, f"'{code.name}' takes {len(code.generics)} generic argument(s) but "
                         f"{len(targs)} were given")
    for (gname, slot, conform, is_type), tv in zip(code.generics, targs):
        if is_type:
            f[slot] = tv  # the TypeGiven of the type written
            continue
        if tv is None:
            wrong_kind(span, f"the const generic '{gname}' needs a constant, not a type")
        f[slot] = conform(tv) if conform is not None else tv


def type_slot(name: str) -> str:
    """The slot name of a type parameter: no variable can be called this."""
    return f"<type {name}>"


def _shown_by(code, k, v, span):
    """What argument v shows of a generic: a tensor's extent on axis k, or the type of an
    element of it ("elem") or of v itself ("value")."""
    if k == "value":
        u = unplace(v)
        owner = u.name if type(u) is StructValue else u.enum if type(u) is EnumValue else None
        return TypeGiven(value_bytes(v), owner)
    if type(k) is tuple:  # (field, axis): the extent of a struct's tensor field
        u = unplace(v)
        field, k = k
        if type(u) is not StructValue or field not in u.fields:
            wrong_kind(span, f"'{code.name}' expects a struct with a field '{field}'")
        v = referent(u.fields[field], span)
    if type(v) is not Tensor or k != "elem" and k >= len(v.dims):
        wrong_kind(span, f"'{code.name}' expects a tensor"
                         f"{f' of rank > {k}' if k != 'elem' else ''}")
    return TypeGiven(ELEMENT_BYTES.get(v.store.elem), None) if k == "elem" else v.dims[k]


def value_bytes(v) -> int | None:
    """The bytes of a value: a scalar's or a tensor's; None for anything else."""
    if type(v) is Tensor:
        return elements_bytes(v.store.elem, v.size())
    return ELEMENT_BYTES.get(describe(unplace(v)))


def run_body(stmts, value):
    """A function body: its statements, then its trailing value or the value of `return`."""
    def body(f):
        try:
            for s in stmts:
                r = s(f)
                if r is not None:
                    return _returned(r)
            # The value may be a block-like expression (`spawn`, `match`) that returns.
            return value(f) if value is not None else None
        except Escape as e:
            return _returned(e.signal)
    return body


def _returned(signal):
    if type(signal) is Return:
        return signal.value
    stray(signal, None)


class FnValue:
    """A top-level function; compiled the first time it is called."""

    __slots__ = ("interp", "node", "code", "outer", "self_type")
    kind = "function"

    def __init__(self, interp, node, outer=(), self_type=None):
        """`outer`, `self_type`: for a function still in its impl block, the block's generic
        parameters (which come first) and the type `Self` names."""
        self.interp, self.node, self.code = interp, node, None
        self.outer, self.self_type = tuple(outer), self_type

    def compiled(self) -> Code:
        if self.code is None:
            n = self.node
            # From Lmono on a function has no generics: each instance is its own.
            generics = self.outer + (n.generics if "generics" in n._fields else ())
            body = n.blocks if "blocks" in n._fields else n.body
            name = n.name if self.self_type is None else f"{self.self_type}::{n.name}"
            self.code = compile_code(self.interp, name, generics, n.params, n.ret, body,
                                     None, self.self_type)
        return self.code

    def call(self, args, targs, span):
        return invoke(self.interp, self.compiled(), None, args, targs, span)

    def launch(self, args, places: dict, lent, span):
        """Called as a kernel, `places` the launching frame's variable (frame, slot) each
        argument (by its index) is: a move of its parameter moves it too; `lent` the indices
        of the arguments that are `&mut` of a launching frame's variable."""
        code = self.compiled()
        launcher = Launcher({code.params[i][0]: place for i, place in places.items()},
                            frozenset(code.params[i][0] for i in lent))
        return invoke(self.interp, code, launcher, args, (), span)


class ClosureValue:
    __slots__ = ("interp", "code", "frame")
    kind = "closure"

    def __init__(self, interp, code, frame):
        self.interp, self.code, self.frame = interp, code, frame

    def call(self, args, targs, span):
        return invoke(self.interp, self.code, self.frame, args, targs, span)


class Builtin:
    __slots__ = ("name", "fn")
    kind = "builtin function"

    def __init__(self, name, fn):
        self.name, self.fn = name, fn

    def call(self, args, targs, span):
        return self.fn(args, span)
