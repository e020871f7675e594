"""Typing expressions for placement: the type of a value, and the space it lives in.

The rules (semantics §2, §3.1): a tensor made without a space is made where the code runs
(CPU_DRAM on the host, the spawned topology's space inside `spawn on`); `transfer(x, M)` is
x's type in M (a non-tensor becomes `Ref<T, M>`); a call has the callee's declared return
type, its space included; `spawn on(τ) { B }` is `Pinned<T, τ>`.

Scalars are typed never beyond what is certain: an integer literal is "some integer" until a
context fixes it (as in Rust), whatever its value (whether the value fits is
check-literal-ranges' question, E3008), and arithmetic mixing two different types is
OpaqueType rather than a guess. Whether types agree is the checks' question (`kind`, `fits`
and `common` are their rules); a type that holds what is not known here (OpaqueType, a
symbolic extent) is never judged.
"""

from __future__ import annotations

import re
from copy import copy

from ..dump.text import to_text
from ..languages.linstances import as_written, fit_instances
from ..languages.lsrc import BINARY_OPS
from ..nanopass import Handlers, descendants, lineage
from ..languages.lresolved import Lresolved, display_name
from ..languages.ltyped import Ltyped
from ..languages.lrouted import Lrouted
from ..values.math import MATH
from .types import BOOL, OPAQUE, TEXT, VOID, Machine, element_value, placed, space_of

# An unsuffixed literal: its type is fixed by the context that meets it.
INT_LIT, FLOAT_LIT = "{integer}", "{float}"
_COMPARE = frozenset("== != < <= > >= && ||".split()) & BINARY_OPS
_INTS = frozenset("i8 i16 i32 i64 u8 u16 u32 u64".split())
_FLOATS = frozenset("f16 bf16 f32 f64".split())
# The typer serves monomorphize (from Lresolved) and the checks up to Lrouted.
TYPE_RULES = Handlers("the typer's rules", lineage(Lrouted, Lresolved), "Expr")


def literal(t) -> bool:
    """Is `t` an unsuffixed literal's type (asked by identity: comparing a node with a string
    would ask the node)?"""
    return t is INT_LIT or t is FLOAT_LIT


def settle(t):
    """A literal's type where nothing fixed it: i32 and f64, as Rust defaults them."""
    if t is INT_LIT:
        return Ltyped["Scalar"]("i32")
    if t is FLOAT_LIT:
        return Ltyped["Scalar"]("f64")
    return t


def value_type(t):
    """What arithmetic sees of an operand: a computation's result carries no placement."""
    while not literal(t) and t._prod in ("PinnedType", "RefType", "VerifiedType"):
        t = t.inner
    return t


def _fits(literal, t) -> bool:
    names = _INTS if literal is INT_LIT else _FLOATS
    return t._prod == "Scalar" and t.name in names


def join(a, b):
    """The type of `a op b` for arithmetic: a literal takes the other side's type."""
    return common(value_type(a), value_type(b))


def common(a, b):
    """The type two values agree on (the two sides of an operator, the branches of an `if`):
    the same type, or a literal and a type of its kind, which the literal takes; OPAQUE when
    they do not agree."""
    if literal(a) and literal(b):
        return a if a is b else OPAQUE
    if literal(a):
        return b if _fits(a, b) else OPAQUE
    if literal(b):
        return a if _fits(b, a) else OPAQUE
    return a if a == b else OPAQUE


def agree(a, b):
    """The type the branches of an `if` or the arms of a `match` give: their common type, or,
    when they differ only in where a scalar lives (a `Pinned<f64, Topology::NPU>` beside an
    f64 or a literal), the scalar read out of it, as arithmetic reads it (check-visibility
    judges that read)."""
    t = common(a, b)
    if t is OPAQUE and (placed_scalar(a) or placed_scalar(b)):
        return common(value_type(a), value_type(b))
    return t


def placed_scalar(t) -> bool:
    """A scalar that lives in one space: `Pinned<T, Topology::X>` or `Ref<T, Memory::M>`."""
    return not literal(t) and t._prod in ("PinnedType", "RefType") \
        and value_type(t)._prod == "Scalar"


def math_result(args):
    """The type of a math built-in's result: its arguments' common type (`max(x, 1)` of an
    f32 x is an f32), OPAQUE when they have none (check-calls says why)."""
    if not args:
        return OPAQUE
    t = value_type(args[0])
    for other in args[1:]:
        t = common(t, value_type(other))
    return t if kind(t) in ("int", "float") else OPAQUE


def kind(t) -> str | None:
    """What an operator sees of a value of type `t`: "int", "float", "bool", "text" or
    "vector"; None for anything else (a tensor, void, a type not known here), which no operator rule
    judges."""
    t = value_type(t)
    if t is INT_LIT:
        return "int"
    if t is FLOAT_LIT:
        return "float"
    if t == TEXT:
        return "text"
    if t._prod == "VectorType":
        return "vector"
    if t._prod != "Scalar":
        return None
    return "int" if t.name in _INTS else "float" if t.name in _FLOATS else \
        "bool" if t.name == "bool" else None


def known(t) -> bool:
    """Whether `t` is known well enough to judge: nothing in it is OpaqueType or an extent
    that is not a number."""
    return literal(t) or not any(
        n._prod in ("OpaqueType", "DimName", "DimBinary") for n in descendants(t))


# The kinds of value whose kind a type shows even where its parts are not known.
_KINDS = frozenset({"Scalar", "NamedType", "TupleType", "VectorType", "TensorType"})


def _other_kind(found, expected) -> bool:
    """Whether a value of type `found` is of another kind than `expected` (a tuple where a
    struct goes, a tensor where a scalar does) or a tuple of another length: what shows even
    where the parts of either are not known (a tuple of unsuffixed literals). A value pinned
    or moved elsewhere is of its value's kind."""
    found = value_type(found)
    if literal(found) or literal(expected):
        return False
    if expected._prod not in _KINDS or found._prod not in _KINDS:
        return False
    if _tuples(found, expected):
        return len(expected.elems) != len(found.elems)
    return expected._prod != found._prod


def _tuples(found, expected) -> bool:
    return not (literal(found) or literal(expected)) and \
        found._prod == expected._prod == "TupleType"


def fits(found, expected) -> bool:
    """Whether a value of type `found` may stand where `expected` is: the same type (the
    memory space of a tensor is part of it), or an unsuffixed literal (or a variable bound to
    one, `expected` then) and a type of its kind. Where a plain scalar is expected, a scalar
    moved or pinned elsewhere gives its value, as it does to arithmetic; a generic struct
    erased and an instance of it fit each other. What is not known is not refused but for
    what shows all the same: a value's kind and a tuple's arity (`_other_kind`; a tuple of
    literals is no struct), and each element of a tuple that is known."""
    if not (known(found) and known(expected)):
        if _other_kind(found, expected):
            return False
        return not _tuples(found, expected) or \
            all(fits(f, e) for f, e in zip(found.elems, expected.elems))
    if literal(expected) or expected._prod == "Scalar":
        found = value_type(found)
    if literal(found) or literal(expected):
        return common(found, expected) is not OPAQUE
    if found._prod == expected._prod == "BorrowType" and found.mutable:
        return fits(found.inner, expected.inner)  # `&mut T` stands for `&T`, as in Rust
    if found._prod == expected._prod == "NamedType" and found.name != expected.name and \
            fit_instances(found.name, expected.name):
        # A generic struct erased (a generic function's `Cell<T>`) holds any instance of it
        # (`Cell$Point`), as it held any value, and an argument an instance keeps erased
        # (`Two$_$Point`, a literal whose field nothing types) any argument.
        return True
    return found == expected


def show(ty) -> str:
    """A type as a message names it: `i32`, `{integer}`, `Tensor<f32, [4], Memory::X>`."""
    if ty is None:
        return "_"
    if literal(ty):
        return ty
    text = to_text(ty).strip()
    for name in sorted({n.name for n in descendants(ty) if n._prod == "NamedType"
                        and "$" in n.name}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w$]){re.escape(name)}(?![\w$])", lambda _: as_written(name), text)
    # An extent names a local by its unique name (`n#1`); a message says the name written.
    for name in {n.name for n in descendants(ty) if n._prod == "DimName" and "#" in n.name}:
        text = re.sub(rf"(?<![\w#]){re.escape(name)}(?![\w#])", display_name(name), text)
    return text


def written(let) -> bool:
    """Whether the type of a `let` of Ltyped or later is the programmer's: infer-placement
    gives an inferred type the `let`'s own span (a literal's i32 there is only a default)."""
    return let.type.span != let.span


class Signature:
    """What a call site knows of a function: its placed return type and its topology."""

    def __init__(self, fn, machine: Machine):
        self.space = machine.holds(fn.on.name) if fn.on is not None else machine.host_space
        self.ret = VOID if fn.ret is None else placed(fn.ret, self.space, machine)


class Typer:
    """Types the expressions of one program; `bind` records each local as it is bound."""

    rules = TYPE_RULES  # a subclass typing one more production extends the table

    def __init__(self, program, machine: Machine):
        self.machine = machine
        self.functions = {i.name: Signature(i, machine) for i in program.items
                          if i._prod == "Fn"}
        # A constant is computed on the host: a tensor type that writes no space is there.
        self.consts = {i.name: placed(i.type, machine.host_space, machine)
                       for i in program.items if i._prod == "ConstItem"}
        self.structs = {i.name: i for i in program.items if i._prod == "StructDecl"}
        self.enums = {i.name: i for i in program.items if i._prod == "EnumDecl"}
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
        rule = self.rules.get(e._prod)
        return rule(self, e, here) if rule is not None else OPAQUE

    @TYPE_RULES.on("Int")
    def t_Int(self, e, here):
        return INT_LIT

    @TYPE_RULES.on("Float")
    def t_Float(self, e, here):
        return FLOAT_LIT

    @TYPE_RULES.on("Bool")
    def t_Bool(self, e, here):
        return BOOL

    @TYPE_RULES.on("Local")
    def t_Local(self, e, here):
        return self.env.get(e.name, OPAQUE)

    @TYPE_RULES.on("Global")
    def t_Global(self, e, here):
        ty = self.consts.get(e.name)
        return placed(ty, self.machine.host_space, self.machine) if ty is not None else OPAQUE

    @TYPE_RULES.on("Binary")
    def t_Binary(self, e, here):
        if e.op in _COMPARE:
            return BOOL
        if e.op in ("<<", ">>"):  # the amount may be of any integer type
            return value_type(self.of(e.left, here))
        return join(self.of(e.left, here), self.of(e.right, here))

    @TYPE_RULES.on("Unary")
    def t_Unary(self, e, here):
        t = value_type(self.of(e.operand, here))
        return BOOL if e.op == "!" and kind(t) != "int" else t  # `!` on an integer is bitwise

    @TYPE_RULES.on("Borrow")
    def t_Borrow(self, e, here):
        return Ltyped["BorrowType"](settle(self.of(e.value, here)), e.mutable)

    @TYPE_RULES.on("Deref")
    def t_Deref(self, e, here):
        ref = self.of(e.value, here)
        return ref.inner if not literal(ref) and ref._prod in ("BorrowType", "PtrType") \
            else OPAQUE

    @TYPE_RULES.on("AsPtr")
    def t_AsPtr(self, e, here):
        """`t.as_ptr()`: a pointer to t's elements, into t's space."""
        t = value_type(self.of(e.value, here))
        while not literal(t) and t._prod == "BorrowType":
            t = value_type(t.inner)
        if literal(t) or t._prod != "TensorType":
            return OPAQUE
        return Ltyped["PtrType"](element_value(t.elem), e.mutable, t.place)

    @TYPE_RULES.on("Unsafe")
    def t_Unsafe(self, e, here):
        return self.block_value(e.body, here)

    @TYPE_RULES.on("Cast")
    def t_Cast(self, e, here):
        return placed(e.type, here, self.machine)

    @TYPE_RULES.on("Call")
    def t_Call(self, e, here):
        if e.callee._prod == "Global":
            if e.callee.name == "print":
                return VOID
            sig = self.functions.get(e.callee.name)
            if sig is not None:
                return sig.ret
            if e.callee.name in MATH:
                return math_result([self.of(a, here) for a in e.args])
        return OPAQUE

    @TYPE_RULES.on("ReachableQ")
    def t_ReachableQ(self, e, here):
        return BOOL

    @TYPE_RULES.on("Index")
    def t_Index(self, e, here):
        base = value_type(self.of(e.base, here))
        while not literal(base) and base._prod == "BorrowType":  # `p[i]` indexes what p names
            base = value_type(base.inner)
        if not literal(base) and base._prod == "PtrType":  # `p[i]`: an element p points at
            return base.inner
        if not literal(base) and base._prod == "VectorType":  # `v[i]`: one lane
            return base.elem
        if literal(base) or base._prod != "TensorType" or not base.dims:
            return OPAQUE
        if len(base.dims) == 1:
            return element_value(base.elem)
        return base.replace(dims=base.dims[1:])

    @TYPE_RULES.on("TensorNew")
    def t_TensorNew(self, e, here):
        return placed(e.type, here, self.machine)

    @TYPE_RULES.on("TensorLit")
    def t_TensorLit(self, e, here):
        return placed(e.type, here, self.machine)

    @TYPE_RULES.on("VecLit")
    def t_VecLit(self, e, here):
        return e.type

    @TYPE_RULES.on("Splat")
    def t_Splat(self, e, here):
        return OPAQUE if e.type is None else e.type

    @TYPE_RULES.on("StructLit")
    def t_StructLit(self, e, here):
        decl = self.structs.get(e.name)
        if decl is None or getattr(decl, "generics", ()):
            return OPAQUE  # a generic's arguments are erased from Lmono on
        return Ltyped["NamedType"](e.name, span=e.span)

    @TYPE_RULES.on("FieldGet")
    def t_FieldGet(self, e, here):
        """A field of a struct the program declares: its declared type, with a tensor's
        space where the struct was made."""
        t = value_type(self.of(e.base, here))
        if t in (INT_LIT, FLOAT_LIT) or t._prod != "NamedType":
            return OPAQUE
        return self.field_type(t.name, e.field, here)

    def field_type(self, struct: str, name: str, here):
        """The declared type of a struct's field; OPAQUE for one the program does not
        declare, or whose type names a generic parameter (erased from Lmono on) or a const."""
        decl = self.structs.get(struct)
        field = next((f for f in decl.fields if f.name == name), None) if decl else None
        return self._declared(field.type if field is not None else None, here)

    def carried_type(self, enum: str, variant: str, index: int, here):
        """The declared type of what a variant carries at `index` (what a pattern binds
        there); OPAQUE as for a field."""
        decl = self.enums.get(enum)
        found = next((v for v in decl.variants if v.name == variant), None) if decl else None
        return self._declared(found.fields[index] if found is not None and
                              index < len(found.fields) else None, here)

    def pattern_bindings(self, pattern, ty, here):
        """Each name `pattern` binds in a value of type `ty`, with its type: a name the whole
        of it, a variant's patterns what the enum declares it carries (`|` binds none)."""
        if pattern._prod == "PBind":
            yield pattern.name, ty
        elif pattern._prod == "PVariant":
            for k, arg in enumerate(pattern.args):
                yield from self.pattern_bindings(
                    arg, self.carried_type(pattern.enum, pattern.variant, k, here), here)

    def _declared(self, ty, here):
        """A declared type as a value made `here` has it; OPAQUE for none, or one that names a
        generic parameter (erased from Lmono on), a const, or a type that is no struct."""
        if ty is None or any(
                n._prod == "DimName" or n._prod == "NamedType" and n.name not in self.structs
                for n in descendants(ty)):
            return OPAQUE
        return placed(ty, here, self.machine)

    @TYPE_RULES.on("EnumValue")
    def t_EnumValue(self, e, here):
        return Ltyped["NamedType"](e.enum, span=e.span)

    @TYPE_RULES.on("MatchValue")
    def t_MatchValue(self, e, here):
        """The cases' agreed type (a name a pattern binds has the type its binder gave it,
        from `pattern_bindings`)."""
        return self.agreed([c.body for c in e.cases], here, OPAQUE)

    @TYPE_RULES.on("Tuple")
    def t_Tuple(self, e, here):
        """A tuple of its elements' types; an unsuffixed literal's is left open, as it takes
        its type from where the tuple goes, but the tuple's arity is known all the same."""
        elems = tuple(OPAQUE if literal(t) else t for t in (self.of(x, here) for x in e.elems))
        return Ltyped["TupleType"](elems, span=e.span)

    @TYPE_RULES.on("TupleGet")
    def t_TupleGet(self, e, here):
        t = value_type(self.of(e.base, here))
        if t not in (INT_LIT, FLOAT_LIT) and t._prod == "TupleType" and e.index < len(t.elems):
            return t.elems[e.index]
        return OPAQUE

    @TYPE_RULES.on("ArrayLit")
    def t_ArrayLit(self, e, here):
        if not e.elems:
            return OPAQUE
        elem = value_type(self.of(e.elems[0], here))
        for x in e.elems[1:]:
            elem = join(elem, self.of(x, here))
        elem = settle(elem)
        if elem is OPAQUE or elem._prod != "Scalar":
            return OPAQUE
        dims = (Ltyped["DimInt"](len(e.elems), span=e.span),)
        return placed(Ltyped["TensorType"](elem, dims, None, span=e.span), here, self.machine)

    @TYPE_RULES.on("IfExpr")
    def t_IfExpr(self, e, here):
        return self.agreed((e.then, e.orelse), here, OPAQUE)

    def agreed(self, blocks, here, none):
        """The value of the block that runs: the type the blocks' values agree on (an
        unsuffixed literal takes the others'; a block that leaves has none), else opaque;
        `none` when no block has a value."""
        values = [self.of(b.value, here) for b in blocks if b.value is not None]
        if not values:
            return none
        t = values[0]
        for v in values[1:]:
            t = agree(t, v)
        return t

    @TYPE_RULES.on("Transfer")
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

    @TYPE_RULES.on("Spawn")
    def t_Spawn(self, e, here):
        return self._pinned(self.block_value(e.body, self.machine.holds(e.topo.name)), e.topo)

    def _pinned(self, inner, topo):
        """Pinned<T, τ>: a tensor in it lives on τ (§1.1 rule 4), in the space τ holds."""
        there = self.machine.holds(topo.name)
        if inner._prod == "TensorType" and there is not None:
            inner = inner.replace(place=Ltyped["MemRef"](there))
        return Ltyped["PinnedType"](inner, topo)

    @TYPE_RULES.on("Comptime")
    def t_Comptime(self, e, here):
        return self.block_value(e.body, here)

    def block_value(self, block, here):
        if block.value is None:
            return VOID
        return settle(self.of(block.value, here))

    @TYPE_RULES.on("MethodCall")
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

    @TYPE_RULES.on("Match")
    def t_Match(self, e, here):
        """The value of the arm that runs (see agreed); void when no arm has a value."""
        return self.agreed([arm.body for arm in e.arms], here, VOID)


class RememberingTyper(Typer):
    """The typer, remembering the type of each expression it was asked about: a check asks
    for an operand's type at every level of a chain `a + 1 + 2 + ..`, and each question would
    otherwise type the whole chain below it again. An expression is asked about at one place
    (its `here`), and `fresh` forgets, since instances of one generic may share nodes."""

    def __init__(self, program, machine: Machine):
        super().__init__(program, machine)
        self.known: dict[int, object] = {}

    def fresh(self) -> RememberingTyper:
        other = super().fresh()
        other.known = {}
        return other

    def of(self, e, here: str | None):
        t = self.known.get(id(e))
        if t is None:
            t = self.known[id(e)] = super().of(e, here)
        return t
