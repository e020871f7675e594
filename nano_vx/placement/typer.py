"""Typing expressions for placement: the type of a value, and the space it lives in.

The rules (semantics §2, §3.1): a tensor made without a space is made where the code runs
(CPU_DRAM on the host, the spawned topology's space inside `spawn on`); `transfer(x, M)` is
x's type in M (a non-tensor becomes `Ref<T, M>`); a call has the callee's declared return
type, its space included; `spawn on(τ) { B }` is `Pinned<T, τ>`.

Scalars are typed only as far as placement needs and never beyond what is certain: an
integer literal is "some integer" until a context fixes it (as in Rust), whatever its value
(whether the value fits is check-literal-ranges' question, E3001), and arithmetic mixing two
different types is OpaqueType rather than a guess. A later type checker owns the rest.
"""

from __future__ import annotations

from copy import copy

from ..languages.l0_source import BINARY_OPS
from ..languages.l6_typed import Ltyped
from .types import BOOL, OPAQUE, VOID, Machine, placed, space_of

# An unsuffixed literal: its type is fixed by the context that meets it.
INT_LIT, FLOAT_LIT = "{integer}", "{float}"
_COMPARE = frozenset("== != < <= > >= && ||".split()) & BINARY_OPS
_INTS = frozenset("i8 i16 i32 i64 u8 u32 u64".split())
_FLOATS = frozenset("f16 bf16 f32 f64".split())


def settle(t):
    """A literal's type where nothing fixed it: i32 and f64, as Rust defaults them."""
    if t is INT_LIT:
        return Ltyped["Scalar"]("i32")
    if t is FLOAT_LIT:
        return Ltyped["Scalar"]("f64")
    return t


def _value(t):
    """What arithmetic sees of an operand: a computation's result carries no placement."""
    while t not in (INT_LIT, FLOAT_LIT) and t._prod in ("PinnedType", "RefType", "VerifiedType"):
        t = t.inner
    return t


def _fits(literal, t) -> bool:
    names = _INTS if literal is INT_LIT else _FLOATS
    return t._prod == "Scalar" and t.name in names


def join(a, b):
    """The type of `a op b` for arithmetic: a literal takes the other side's type."""
    a, b = _value(a), _value(b)
    if a in (INT_LIT, FLOAT_LIT) and b in (INT_LIT, FLOAT_LIT):
        return a if a is b else OPAQUE
    if a in (INT_LIT, FLOAT_LIT):
        return b if _fits(a, b) else OPAQUE
    if b in (INT_LIT, FLOAT_LIT):
        return a if _fits(b, a) else OPAQUE
    return a if a == b else OPAQUE


class Signature:
    """What a call site knows of a function: its placed return type and its topology."""

    def __init__(self, fn, machine: Machine):
        self.space = machine.holds(fn.on.name) if fn.on is not None else machine.host_space
        self.ret = VOID if fn.ret is None else placed(fn.ret, self.space, machine)


class Typer:
    """Types the expressions of one program; `bind` records each local as it is bound."""

    def __init__(self, program, machine: Machine):
        self.machine = machine
        self.functions = {i.name: Signature(i, machine) for i in program.items
                          if i._prod == "Fn"}
        self.consts = {i.name: i.type for i in program.items if i._prod == "ConstItem"}
        self.env: dict[str, object] = {}  # unique local name -> its type
        self.bound_in: dict[str, str | None] = {}  # unique local name -> the space it was bound in

    def fresh(self) -> "Typer":
        """A typer for another function: the same signatures, no locals yet."""
        other = copy(self)
        other.env, other.bound_in = {}, {}
        return other

    def bind(self, name: str, ty, here: str | None) -> None:
        self.env[name] = ty
        self.bound_in[name] = here

    def let_type(self, declared, value, here: str | None):
        """The type a `let` binds: its annotation, with the spaces filled from the value's
        (or where the value is made); without one, the value's."""
        got = settle(self.of(value, here))
        if declared is None:
            return got
        return placed(declared, space_of(got, self.machine) or here, self.machine)

    def space(self, expr, here: str | None) -> str | None:
        """The space the value of `expr` lives in: its type's, else where its local was
        bound, else where it is computed."""
        where = space_of(settle(self.of(expr, here)), self.machine)
        if where is not None:
            return where
        if expr._prod == "Local" and expr.name in self.bound_in:
            return self.bound_in[expr.name]
        return here

    def of(self, e, here: str | None):
        """The type of expression `e` computed on a unit holding space `here` (a literal
        type for an unsuffixed literal)."""
        rule = getattr(self, "t_" + e._prod, None)
        return rule(e, here) if rule is not None else OPAQUE

    def t_Int(self, e, here):
        return INT_LIT

    def t_Float(self, e, here):
        return FLOAT_LIT

    def t_Bool(self, e, here):
        return BOOL

    def t_Local(self, e, here):
        return self.env.get(e.name, OPAQUE)

    def t_Global(self, e, here):
        ty = self.consts.get(e.name)
        return placed(ty, self.machine.host_space, self.machine) if ty is not None else OPAQUE

    def t_Binary(self, e, here):
        if e.op in _COMPARE:
            return BOOL
        return join(self.of(e.left, here), self.of(e.right, here))

    def t_Unary(self, e, here):
        return BOOL if e.op == "!" else _value(self.of(e.operand, here))

    def t_Cast(self, e, here):
        return placed(e.type, here, self.machine)

    def t_Call(self, e, here):
        if e.callee._prod == "Global":
            if e.callee.name == "print":
                return VOID
            sig = self.functions.get(e.callee.name)
            if sig is not None:
                return sig.ret
        return OPAQUE

    def t_ReachableQ(self, e, here):
        return BOOL

    def t_Index(self, e, here):
        base = _value(self.of(e.base, here))
        if base in (INT_LIT, FLOAT_LIT) or base._prod != "TensorType" or not base.dims:
            return OPAQUE
        if len(base.dims) == 1:
            return base.elem
        return base.replace(dims=base.dims[1:])

    def t_TensorNew(self, e, here):
        return placed(e.type, here, self.machine)

    def t_Transfer(self, e, here):
        moved = settle(self.of(e.value, here))
        # The copy in M is no longer locked to τ, nor is its place left open (Verified).
        if moved._prod in ("PinnedType", "VerifiedType"):
            moved = moved.inner
        if moved._prod == "TensorType":
            return moved.replace(place=e.dest)
        if moved._prod == "RefType":
            moved = moved.inner
        return Ltyped["RefType"](moved, e.dest)

    def t_Spawn(self, e, here):
        return self._pinned(self.block_value(e.body, self.machine.holds(e.topo.name)), e.topo)

    def _pinned(self, inner, topo):
        """Pinned<T, τ>: a tensor in it lives on τ (§1.1 rule 4), in the space τ holds."""
        there = self.machine.holds(topo.name)
        if inner._prod == "TensorType" and there is not None:
            inner = inner.replace(place=Ltyped["MemRef"](there))
        return Ltyped["PinnedType"](inner, topo)

    def t_Comptime(self, e, here):
        return self.block_value(e.body, here)

    def block_value(self, block, here):
        if block.value is None:
            return VOID
        return settle(self.of(block.value, here))

    def t_MethodCall(self, e, here):
        """`x.try_pin(Topology::X)` is HardwareState<T, X> (semantics §3.2), T the type of x:
        what its `match` arms bind is `arm_type`'s."""
        if e.method == "try_pin" and len(e.args) == 1 and e.args[0]._prod == "TopoRef":
            value = settle(self.of(e.receiver, here))
            if value._prod == "PinnedType":  # the attempt pins the value, not its old pin
                value = value.inner
            return Ltyped["HardwareStateType"](value, e.args[0])
        return OPAQUE

    def arm_type(self, state, variant: str):
        """What a `match` arm binds from a HardwareState<T, X>: `Available(p)` is Pinned<T, X>
        with a tensor in X's memory (it lives on X); `Saturated(v)` is Verified<T>, the value
        where it was."""
        if state._prod != "HardwareStateType":
            return OPAQUE
        if variant == "Saturated":
            return Ltyped["VerifiedType"](state.inner)
        return self._pinned(state.inner, state.topo)

    def t_Match(self, e, here):
        """The value of the arm that runs: the type the arms agree on, else opaque."""
        values = [self.block_value(arm.body, here) for arm in e.arms]
        return values[0] if values and all(v == values[0] for v in values) else OPAQUE
