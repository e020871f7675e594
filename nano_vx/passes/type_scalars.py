"""type-scalars: Lassumed -> Lscalars."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.l0_source import CONTRACTS
from ..languages.l11_assumed import Lassumed
from ..languages.l12_scalars import Lscalars
from ..nanopass import Pass, descendants
from ..nanopass.verify import child_nodes
from ..values.sizes import tensor_bytes
from ..values.literals import TYPE_WRAPPERS
from ..values.math import FLOAT_ONLY, MATH
from ..values.numbers import FLOAT_TYPES, INT_TYPES
from .check_tensor_constructors import TAKES

L = Lscalars
_FLOATS = frozenset(FLOAT_TYPES) | {"f64"}
_COMPARE = frozenset("== != < <= > >=".split())
_LOGIC = frozenset({"&&", "||"})
_BITWISE = frozenset({"&", "|", "^"})
_SHIFTS = frozenset({"<<", ">>"})
# What native code does not lower: the machine state a run consults (`try_pin` and the
# `match` on its result, a value's topology), fields of structs, differentiation.
_UNLOWERED = {
    "Match": "`match` on a hardware state",
    "FieldGet": "a struct field", "SomeTopo": "a topology value", "NoneTopo": "a topology value",
    "Grad": "grad", "Vjp": "vjp", "Jvp": "jvp", "TopoRef": "a topology value",
    "MemRef": "a memory-space value", "NamedType": "a struct or generic type",
    "HardwareStateType": "a hardware state",
    "Tuple": "a tuple", "TupleGet": "a tuple", "TupleType": "a tuple",
    "StructLit": "a struct value", "EnumValue": "an enum value",
    "MatchValue": "a `match` on a value",
}




@dataclass
class State:
    types: dict = field(default_factory=dict)  # item name -> {id(node): decided type}
    rets: dict = field(default_factory=dict)  # function name -> its result type (a Type node)
    extents: dict = field(default_factory=dict)  # id(`t.extent(i)`) -> the extent, a number
    item: str | None = None  # the item being rebuilt


type_scalars = Pass("type-scalars", Lassumed, Lscalars, """
Decide the machine type of every literal, operator, cast, `let`, loop variable and result.

Within each function, types flow both ways, as Rust infers them: an integer literal takes the
type of what it meets (the other operand, the variable it is assigned to, the parameter it is
passed as, the element it is stored in), a variable first bound to a literal takes the type
of whatever is later assigned to it, and what nothing fixes is i32 (integers) or f64 (floats).
A closure's parameters take the types of the arguments it is called with. A kernel's result is
its body's value. The first native-code pass: what it cannot type, because native code does not
lower it (a `match` on a hardware state, a topology value, a struct, differentiation, a closure
used other than by calling it, a reference to an element or a temporary, a function returning
a reference to a scalar), is refused here with E5001. A reference to a tensor is the tensor's
buffer: `&t`, `*p` and `&Tensor<..>` are erased. One to a scalar variable is typed `&T`.
""", state=State)


@type_scalars.on("Program")
def _program(run, program):
    sigs = _Signatures(program)
    inferred, refused = {}, set()
    for item in program.items:
        if item._prod in ("Fn", "ConstItem"):
            infer = inferred[item.name] = _Infer(sigs, item)
            problem = infer.item()
            if problem is not None:
                node, what = problem
                run.ctx.diagnostics.error(
                    "E5001", node.span, f"native code does not lower {what} (in "
                                        f"'{item.name}')",
                    help=["run the program in the reference interpreter: --action interpret"])
                refused.add(item.name)
    # Solved only once every item is inferred: a launch's type is the kernel's body's, and
    # a kernel's parameters are what its launch passes, whichever comes first.
    run.state.types = {name: infer.solved() for name, infer in inferred.items()}
    run.state.extents = {key: n for infer in inferred.values() for key, n in infer.extents.items()}
    run.state.rets = {name: _type_node(sigs.ret(name), fn.span, fn.ret)
                      for name, fn in sigs.fns.items() if name not in refused}
    items = []
    for item in program.items:
        # A struct or enum declaration makes no code: every function holding one of their
        # values was refused above.
        if getattr(item, "name", None) in refused or item._prod in ("StructDecl", "EnumDecl"):
            continue
        run.state.item = getattr(item, "name", None)
        items.append(run.walk(item))
    return L["Program"](tuple(items), span=program.span)


@type_scalars.on("MethodCall")
def _method(run, node):
    # `t.extent(i)` of a tensor with static extents is that number; any other method call
    # was refused with E5001.
    return L["Int"](run.state.extents[id(node)], _decided(run, node), span=node.span)


@type_scalars.on("Match", "Arm", "FieldGet", "SomeTopo", "NoneTopo", "Grad", "Vjp",
                  "Jvp", "HardwareStateType", "MatchValue", "Case", "EnumValue", "StructLit",
                  "FieldInit", "Tuple", "TupleGet", "PWild", "PLit", "PBind", "PVariant", "POr",
                  "Variant", "EnumDecl", "StructDecl")
def _unlowered(run, node):
    # An item holding one of these was refused with E5001 and is not rebuilt.
    raise AssertionError(f"type-scalars rebuilt a {node._prod} of a refused item")


def _decided(run, node) -> str:
    return run.state.types[run.state.item][id(node)]


@type_scalars.on(*CONTRACTS, splice=True)
def _contract(run, node):
    return ()  # proved by verify-contracts, or checked by the interpreter when asked


@type_scalars.on("Fn")
def _fn(run, fn):
    ret = run.walk(fn.ret) if fn.ret is not None else run.state.rets[fn.name]
    on = run.walk(fn.on) if fn.on is not None else None
    return L["Fn"](fn.name, run.walk_seq(fn.params), on, ret, run.walk_seq(fn.bounds),
                   run.walk(fn.body), span=fn.span)


@type_scalars.on("Param")
def _param(run, param):
    written = param.type is not None and param.type._prod != "OpaqueType"
    keep = run.walk(param.type) if written else None
    return L["Param"](param.name, _type_node(_decided(run, param), param.span, keep),
                      span=param.span)


@type_scalars.on("Let")
def _let(run, let):
    ty = _decided(run, let)
    # A tensor's inferred type is kept: it says which space the tensor is in.
    placed = isinstance(ty, _Tensor) and let.type._prod != "OpaqueType"
    keep = run.walk(let.type) if _written(let) or placed or isinstance(ty, _Closure) else None
    return L["Let"](let.name, let.mutable, _type_node(ty, let.span, keep), run.walk(let.value),
                    span=let.span)


@type_scalars.on("For")
def _for(run, node):
    return L["For"](node.var, _decided(run, node), run.walk(node.start), run.walk(node.end),
                    run.walk(node.body), span=node.span)


@type_scalars.on("ArrayLit")
def _array(run, node):
    # `[a, b]` is the tensor literal of its decided type.
    ty = _type_node(_decided(run, node), node.span)
    return L["TensorLit"](ty, run.walk_seq(node.elems), span=node.span)


@type_scalars.on("Int", "Float")
def _literal(run, node):
    return L[node._prod](node.value, _decided(run, node), span=node.span)


@type_scalars.on("Binary")
def _binary(run, node):
    return L["Binary"](node.op, _decided(run, node), run.walk(node.left), run.walk(node.right),
                       span=node.span)


@type_scalars.on("Unary")
def _unary(run, node):
    return L["Unary"](node.op, _decided(run, node), run.walk(node.operand), span=node.span)


@type_scalars.on("Cast")
def _cast(run, node):
    return L["Cast"](run.walk(node.value), _decided(run, node), run.walk(node.type),
                     span=node.span)


@type_scalars.on("Borrow", "Deref")
def _reference(run, node):
    # A reference to a tensor is the tensor's buffer: `&t` is t and `*p` is p, and writes
    # through either reach the same elements. One to a scalar stays (the address of a cell).
    if isinstance(_decided(run, node), _Tensor):
        return run.walk(node.value)
    return run.rebuild(node)


@type_scalars.on("BorrowType")
def _reference_type(run, node):
    inner = node.inner
    while inner._prod == "BorrowType":
        inner = inner.inner
    return run.walk(inner) if inner._prod == "TensorType" else run.rebuild(node)


@type_scalars.on("Closure")
def _closure(run, node):
    ret = _type_node(run.state.types[run.state.item][id(node)], node.span)
    return L["Closure"](run.walk_seq(node.params), ret, run.walk(node.body), span=node.span)


# -- types while inferring ------------------------------------------------------------------
# A type is a scalar's name ("i32", "bool", "void", "str"), a _Tensor, a _Closure, or a _Var
# that unification will decide.


@dataclass(frozen=True)
class _Tensor:
    elem: str
    dims: tuple
    node: object  # the TensorType as written, for the rebuilt `let`


@dataclass
class _Closure:
    params: list
    ret: object
    node: object


@dataclass(frozen=True, eq=False)
class _Ref:
    """A reference to a scalar variable: in native code, the address of its cell."""

    target: object  # the scalar's type
    mutable: bool


class _Var:
    """An undecided type: a literal's ("int", "float") or anything's ("any")."""

    __slots__ = ("kind", "parent", "value")

    def __init__(self, kind: str):
        self.kind, self.parent, self.value = kind, None, None


def _find(t):
    while isinstance(t, _Var) and t.parent is not None:
        t = t.parent
    if isinstance(t, _Var) and t.value is not None:
        return t.value
    return t


class _Mismatch(Exception):
    def __init__(self, node, what: str):
        super().__init__(what)
        self.node, self.what = node, what


def _fits(kind: str, t) -> bool:
    if kind == "int":
        return t in INT_TYPES
    if kind == "float":
        return t in _FLOATS
    return True


def _show(t) -> str:
    t = _find(t)
    if isinstance(t, _Var):
        return {"int": "{integer}", "float": "{float}"}.get(t.kind, "_")
    if isinstance(t, _Tensor):
        return f"Tensor<{_show(t.elem)}, {list(t.dims)}>"
    if isinstance(t, _Closure):
        return "a closure"
    if isinstance(t, _Ref):
        return f"&{'mut ' if t.mutable else ''}{_show(t.target)}"
    return t


def unify(a, b, node):
    a, b = _find(a), _find(b)
    if a is b or a == b and not isinstance(a, _Var):
        return a
    if isinstance(a, _Var) and isinstance(b, _Var):
        if a.kind == "any" or a.kind == b.kind:
            a.parent = b
            return b
        if b.kind == "any":
            b.parent = a
            return a
    elif isinstance(a, _Var) or isinstance(b, _Var):
        var, t = (a, b) if isinstance(a, _Var) else (b, a)
        if _fits(var.kind, t):
            var.value = t
            return t
    elif isinstance(a, _Tensor) and isinstance(b, _Tensor) and a.dims == b.dims:
        unify(a.elem, b.elem, node)  # an array literal's elements may be undecided yet
        return a
    elif isinstance(a, _Ref) and isinstance(b, _Ref):
        unify(a.target, b.target, node)  # a `&mut T` stands for a `&T`
        return a
    raise _Mismatch(node, f"a value of type {_show(a)} where {_show(b)} is expected")


def _reference_to(t, mutable: bool, node):
    """The type of a reference to a value of type t: a tensor's is the tensor (its buffer,
    the reference erased); a scalar's the address of a cell; no other is lowered."""
    found = _find(t)
    if isinstance(found, _Tensor):
        return t
    if isinstance(found, str) and found not in ("void", "str") or \
            isinstance(found, _Var) and found.kind != "any":
        return _Ref(t, mutable)
    what = "a reference" if isinstance(found, _Ref) else _show(t)
    raise _Mismatch(node, f"a reference to {what}")


def _scalar_of(ty, node):
    """The inference type of a written Type node."""
    while ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    if ty._prod == "BorrowType":
        return _reference_to(_scalar_of(ty.inner, node), ty.mutable, node)
    if ty._prod == "Scalar":
        return ty.name
    if ty._prod == "TensorType":
        elem = _scalar_of(ty.elem, node)
        if any(d._prod == "DimAny" for d in ty.dims):
            raise _Mismatch(node, "a tensor whose extents are known only when the program "
                                  "runs (`?`)")
        if not isinstance(elem, str) or any(d._prod != "DimInt" for d in ty.dims):
            raise _Mismatch(node, "a tensor whose extents are not integers")
        size = tensor_bytes(ty)
        if size is not None and size >= 1 << 63:  # its bytes do not fit a 64-bit address
            raise _Mismatch(node, f"a tensor of {size} bytes, more than an address reaches")
        return _Tensor(elem, tuple(d.value for d in ty.dims), ty)
    if ty._prod == "OpaqueType":
        return _Var("any")
    raise _Mismatch(node, _UNLOWERED.get(ty._prod, ty._prod))


def _bad_binary(op: str, t):
    t = _find(t)
    if isinstance(t, (_Tensor, _Closure, _Ref)) or t in ("str", "void") or \
            op in _BITWISE and (t in _FLOATS or isinstance(t, _Var) and t.kind == "float"):
        return f"'{op}' on {_show(t)}"
    return None


def _bad_negation(t):
    t = _find(t)
    if t == "bool" or t in INT_TYPES and not INT_TYPES[t].signed:
        return f"'-' on {_show(t)}"
    return None


def _bad_cast(source, target):
    # As in Rust, a bool converts to an integer and nothing else converts to a bool.
    if (target == "bool") != (_find(source) == "bool") and (target == "bool" or target in _FLOATS):
        return f"a cast of {_show(source)} to {_show(target)}"
    return None


def _decide(t):
    """A type as solved: what nothing fixed is i32 or f64 (void for anything else), a
    tensor's elements included."""
    t = _find(t)
    if isinstance(t, _Var):
        return {"int": "i32", "float": "f64"}.get(t.kind, "void")
    if isinstance(t, _Tensor) and not isinstance(t.elem, str):
        return _Tensor(_decide(t.elem), t.dims, t.node)
    if isinstance(t, _Ref):
        return _Ref(_decide(t.target), t.mutable)
    return t


def _type_node(t, span, keep=None):
    """A decided type as a Type node: `keep` (the type as written, or a tensor's as placed)
    when there is one."""
    if keep is not None:
        return keep
    t = _decide(t)
    if isinstance(t, _Tensor):
        return t.node or L["TensorType"](L["Scalar"](t.elem, span=span),
                                         tuple(L["DimInt"](d, span=span) for d in t.dims),
                                         None, span=span)
    if isinstance(t, _Ref):
        return L["BorrowType"](L["Scalar"](t.target, span=span), t.mutable, span=span)
    return L["Scalar"](t, span=span)


class _Signatures:
    """The types of every function and constant, as written (a kernel's result as its body's,
    inferred on first need)."""

    def __init__(self, program):
        self.fns = {i.name: i for i in program.items if i._prod == "Fn"}
        self.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
        self.rets: dict = {}
        self.param_types: dict = {}

    def params(self, name: str) -> list:
        """One list per function, shared by every call: an untyped parameter (a kernel's
        capture whose `let` said nothing) is what its calls pass."""
        if name not in self.param_types:
            self.param_types[name] = [_scalar_of(p.type, p) if p.type is not None
                                      else _Var("any") for p in self.fns[name].params]
        return self.param_types[name]

    def ret(self, name: str):
        if name not in self.rets:
            fn = self.fns[name]
            if fn.ret is not None:
                ret = _scalar_of(fn.ret, fn)
                if isinstance(ret, _Ref):  # its cell would not outlive the call
                    raise _Mismatch(fn, "a function that returns a reference to a scalar")
                self.rets[name] = ret
            elif fn.on is not None and fn.body.value is not None:
                self.rets[name] = _Var("any")  # a kernel: its body's value decides
            else:
                self.rets[name] = "void"
        return self.rets[name]


def _is_literal(e) -> bool:
    return e._prod == "Int" or e._prod == "Unary" and e.op == "-" and _is_literal(e.operand)


def _assigned_captures(closure, borrowed: bool = False) -> list:
    """The variables of the enclosing function a closure assigns to (or, `borrowed`, takes a
    reference to): lifted, it receives their values, so it could not change them (nor lend
    them)."""
    bound = {p.name for p in closure.params}
    assigned = []
    stack = [closure.body]
    while stack:
        node = stack.pop()
        if node._prod in ("Let", "For"):
            bound.add(node.name if node._prod == "Let" else node.var)
        elif node._prod == ("Borrow" if borrowed else "Assign"):
            place = node.value if borrowed else node.target
            if place._prod == "Local":
                assigned.append(place.name)
        stack.extend(child_nodes(node))
    return [name for name in assigned if name not in bound]


def _written(let) -> bool:
    """Whether a `let`'s type is the programmer's: infer-placement gives an inferred type the
    `let`'s own span (a literal's i32 there is only a default, which may yet change)."""
    return let.type is not None and let.type.span != let.span


class _Infer:
    """Types flow over one item: every literal, operator, cast, binder gets a type term."""

    def __init__(self, sigs: _Signatures, item):
        self.sigs, self.item_node = sigs, item
        self.env: dict = {}  # local -> type term
        self.terms: dict = {}  # id(node) -> type term
        self.ret = None
        self.placed: set = set()  # id() of each `if` value standing where one may (see value)
        self.judged: list = []  # (node, test, its type terms), tested again once solved
        self.extents: dict = {}  # id(`t.extent(i)`) -> the extent it reads
        self.if_lets: list = []  # the lets bound to an `if` value

    def item(self):
        """None when every node typed, else (node, what native code does not lower)."""
        item = self.item_node
        try:
            if item._prod == "ConstItem":
                unify(self.expr(item.value), _scalar_of(item.type, item), item)
                return None
            self.ret = self.sigs.ret(item.name)
            for p, t in zip(item.params, self.sigs.params(item.name)):
                self.bind(p, p.name, t)
            self.block(item.body, self.ret)
            for node, bad, terms in self.judged:
                what = bad(*(_decide(t) for t in terms))
                if what is not None:
                    raise _Mismatch(node, what)
            for let in self.if_lets:  # explicate-control starts each at its type's zero
                t = _find(self.terms[id(let)])
                if not (isinstance(t, str) and t != "void" or isinstance(t, _Var)
                        and t.kind != "any"):
                    raise _Mismatch(let.value, "an `if` whose value is not a scalar")
            # A topology's index is an integer wherever it is written: in a type, in `on`, in
            # a bound, at a launch (those the body's walk met are typed already).
            for node in descendants(item):
                if node._prod == "TopoRef":
                    self.topo(node)
        except _Mismatch as bad:
            return bad.node, bad.what
        return None

    def solved(self) -> dict:
        return {key: _decide(t) for key, t in self.terms.items()}

    def note(self, node, t):
        """Record node's type; a node met twice (a shared subtree) has one type."""
        old = self.terms.get(id(node))
        self.terms[id(node)] = t if old is None else unify(old, t, node)
        return t

    def bind(self, node, name, t):
        self.env[name] = t
        self.note(node, t)

    # -- statements --------------------------------------------------------------------

    def block(self, block, value_type=None):
        for s in block.stmts:
            self.stmt(s)
        if block.value is not None:
            t = self.value(block.value)
            if value_type is not None:
                unify(t, value_type, block.value)

    def stmt(self, s):
        kind = s._prod
        if kind == "Let":
            t = self.value(s.value)
            if s.value._prod == "IfExpr":
                self.if_lets.append(s)
            if _written(s):
                t = unify(t, _scalar_of(s.type, s), s)
            if _find(t) == "str":
                raise _Mismatch(s, "a variable holding a string")
            self.bind(s, s.name, t)
        elif kind == "Assign":
            if s.target._prod == "Deref" and isinstance(_find(self.expr(s.target.value)),
                                                        _Tensor):
                # The reference erased, it would rebind the parameter instead.
                raise _Mismatch(s, "an assignment of a whole tensor through a reference")
            target = self.expr(s.target)
            if isinstance(_find(target), _Closure):
                raise _Mismatch(s, "assignment to a closure")
            if s.op in ("<<=", ">>="):  # the amount is any integer
                unify(target, _Var("int"), s)
                unify(self.expr(s.value), _Var("int"), s.value)
            else:
                value = self.value(s.value) if s.target._prod == "Local" else self.expr(s.value)
                unify(target, value, s)
        elif kind == "For":
            t = unify(self.expr(s.start), self.expr(s.end), s)
            t = unify(t, _Var("int"), s)
            self.bind(s, s.var, t)
            self.block(s.body)
        elif kind in ("While", "If", "Assert", "Assume"):
            unify(self.expr(s.cond), "bool", s.cond)
            for inner in (getattr(s, "body", None), getattr(s, "then", None),
                          getattr(s, "orelse", None)):
                if inner is not None:
                    self.block(inner)
        elif kind == "Return":
            t = self.value(s.value) if s.value is not None else "void"
            unify(t, self.ret, s)
        elif kind == "ExprStmt":
            self.value(s.expr)
        elif kind == "BlockStmt":
            self.block(s.body)
        elif kind not in ("Break", "Continue", *CONTRACTS):  # a contract makes no code
            raise _Mismatch(s, f"the statement {kind}")

    # -- expressions -------------------------------------------------------------------

    def value(self, e):
        """An expression whose value goes straight to a variable, to the result or nowhere:
        where an `if` may give a value, explicate-control turning it into branches that each
        deliver their own. Elsewhere (an operand, an argument) only an `if` whose arms are
        plain values is lowered (a select of the arm the condition picks)."""
        if e._prod == "IfExpr":
            self.placed.add(id(e))
        return self.expr(e)

    def expr(self, e):
        method = getattr(self, "e_" + e._prod, None)
        if method is None:
            what = f"the method call .{e.method}()" if e._prod == "MethodCall" else \
                _UNLOWERED.get(e._prod, e._prod)
            raise _Mismatch(e, what)
        return method(e)

    def e_IfExpr(self, e):
        if id(e) not in self.placed and (e.then.stmts or e.orelse.stmts):
            raise _Mismatch(e, "an `if` value with statements in its arms inside a larger "
                               "expression (bind it with a `let` first)")
        unify(self.expr(e.cond), "bool", e.cond)
        t = _Var("any")
        for arm in (e.then, e.orelse):
            self.block(arm, t)
        return t

    def e_Int(self, e):
        return self.note(e, _Var("int"))

    def e_Float(self, e):
        return self.note(e, _Var("float"))

    def e_Bool(self, e):
        return "bool"

    def e_Str(self, e):
        return "str"

    def e_MethodCall(self, e):
        """`t.extent(i)` of a variable whose tensor's extents are numbers: a constant, typed
        as a literal is."""
        if e.method == "extent" and e.receiver._prod == "Local" and len(e.args) == 1 \
                and e.args[0]._prod == "Int":
            t = _find(self.expr(e.receiver))
            if isinstance(t, _Tensor) and e.args[0].value < len(t.dims):
                self.extents[id(e)] = t.dims[e.args[0].value]
                return self.note(e, _Var("int"))  # a number, of the integer type it meets
        raise _Mismatch(e, f"the method call .{e.method}()")

    def e_Local(self, e):
        t = self.env.get(e.name)
        if t is None:
            raise _Mismatch(e, f"the variable '{e.name}' before its `let`")
        return t

    def e_Global(self, e):
        if e.name in self.sigs.consts:
            return _scalar_of(self.sigs.consts[e.name].type, e)
        raise _Mismatch(e, "a function used as a value")

    def e_Binary(self, e):
        if e.op in _LOGIC:
            unify(self.expr(e.left), "bool", e.left)
            unify(self.expr(e.right), "bool", e.right)
            self.note(e, "bool")
            return "bool"
        if e.op in _SHIFTS:  # the amount is any integer; the value shifted is the type
            t = unify(self.expr(e.left), _Var("int"), e.left)
            unify(self.expr(e.right), _Var("int"), e.right)
            return self.note(e, t)
        t = unify(self.expr(e.left), self.expr(e.right), e)
        self.judge(e, _bad_binary, e.op, t)
        self.note(e, t)
        return "bool" if e.op in _COMPARE else t

    def judge(self, node, bad, *terms):
        """Refuse what native code would compute differently from the interpreter: now, on
        the types known so far, and again once the item is solved (a closure's parameter is
        typed by the calls after it)."""
        self.judged.append((node, bad, terms))
        what = bad(*terms)
        if what is not None:
            raise _Mismatch(node, what)

    def e_Unary(self, e):
        t = self.expr(e.operand)
        if isinstance(_find(t), _Ref):
            raise _Mismatch(e, f"'{e.op}' on {_show(t)}")
        if e.op == "-":
            t = unify(t, _Var("any"), e)
            self.judge(e, _bad_negation, t)
        return self.note(e, t)

    def e_Cast(self, e):
        source, target = self.expr(e.value), _scalar_of(e.type, e)
        self.judge(e, _bad_cast, source, target)
        if _is_literal(e.value) and isinstance(_find(source), _Var) and _find(source).kind == "int":
            # A literal cast as it is written keeps its value: `9000000000 as i64`, the form
            # desugar-comptime leaves, is 9000000000, not an i32 that wrapped.
            source = unify(source, "i64", e)
        if not isinstance(_find(source), (str, _Var)) or _find(source) in ("str", "void"):
            raise _Mismatch(e, f"a cast of {_show(source)}")
        self.note(e, source)
        return target

    def e_Call(self, e):
        callee = e.callee
        if callee._prod == "Global" and callee.name == "print" and callee.name not in self.sigs.fns:
            if len(e.args) == 1:
                arg = e.args[0]
                self.e_Index(arg, row=True) if arg._prod == "Index" else self.expr(arg)
                return "void"
        if callee._prod == "Global" and callee.name in self.sigs.fns:
            return self.call(e, self.sigs.params(callee.name), self.sigs.ret(callee.name))
        if callee._prod == "Global" and callee.name in MATH:
            # check-calls judged the count and kinds: the result is the arguments' one type.
            t = _Var("float" if callee.name in FLOAT_ONLY else "any")
            for arg in e.args:
                t = unify(t, self.expr(arg), arg)
            return self.note(e, t)
        if callee._prod == "Local" and isinstance(_find(self.env.get(callee.name)), _Closure):
            closure = _find(self.env[callee.name])
            return self.call(e, closure.params, closure.ret)
        raise _Mismatch(e, "a call of something other than a function or a closure "
                           "bound by `let`")

    def call(self, e, params, ret):
        if len(params) != len(e.args):
            raise _Mismatch(e, f"a call with {len(e.args)} arguments of a function taking "
                               f"{len(params)}")
        for arg, p in zip(e.args, params):
            unify(self.expr(arg), p, arg)
        return ret

    def e_Closure(self, e):
        params = []
        for p in e.params:
            t = _scalar_of(p.type, p) if p.type is not None else _Var("any")
            self.bind(p, p.name, t)
            params.append(t)
        ret = self.note(e, _Var("any"))
        self.block(e.body, ret)
        if e.body.value is None:
            unify(ret, "void", e)
        assigned = _assigned_captures(e)
        if assigned:
            raise _Mismatch(e, f"a closure that assigns to '{assigned[0]}', which it captures")
        borrowed = _assigned_captures(e, borrowed=True)
        if borrowed:
            raise _Mismatch(e, f"a closure that borrows '{borrowed[0]}', which it captures")
        return _Closure(params, ret, e)

    def e_Index(self, e, row=False):
        """An element; a row (`t[i]` of a rank-2 t) only where it is printed."""
        base = _find(self.e_Index(e.base, True) if e.base._prod == "Index" else self.expr(e.base))
        unify(self.expr(e.index), _Var("int"), e.index)
        if not isinstance(base, _Tensor):
            raise _Mismatch(e, f"indexing {_show(base)}")
        if len(base.dims) == 1:
            return base.elem
        if not row:
            raise _Mismatch(e, "a row of a tensor used other than printed")
        return _Tensor(base.elem, base.dims[1:], None)

    def e_ArrayLit(self, e):
        elem = _Var("any")
        for x in e.elems:
            elem = unify(elem, self.expr(x), x)
        if not isinstance(_find(elem), (str, _Var)) or _find(elem) in ("str", "void"):
            raise _Mismatch(e, "an array literal of non-scalars")
        return self.note(e, _Tensor(elem, (len(e.elems),), None))

    def e_TensorLit(self, e):
        t = _scalar_of(e.type, e)
        for x in e.elems:
            unify(self.expr(x), t.elem, x)
        return t

    def e_TensorNew(self, e):
        t = _scalar_of(e.type, e)
        if not isinstance(t, _Tensor):
            raise _Mismatch(e, "a tensor of that type")
        if len(e.args) != TAKES.get(e.ctor, -1):  # check-tensor-constructors refused it
            raise AssertionError(f"`::{e.ctor}` with {len(e.args)} argument(s) reached "
                                 f"type-scalars")
        for a in e.args:
            unify(self.expr(a), t.elem, a)
        return t

    def e_Transfer(self, e):
        t = self.expr(e.value)
        if isinstance(_find(t), _Ref):
            raise _Mismatch(e, "a transfer of a reference")
        return t

    def e_Borrow(self, e):
        """`&x` of a variable (its cell's address), `&*p` (p again), `&t` of a tensor (t)."""
        value = e.value
        inner = self.expr(value)
        if isinstance(_find(inner), _Tensor):
            return self.note(e, inner)
        if value._prod == "Local":
            return self.note(e, _reference_to(inner, e.mutable, e))
        if value._prod == "Deref":
            return self.note(e, _Ref(_find(self.expr(value.value)).target, e.mutable))
        what = "an element of a tensor" if value._prod == "Index" else "a temporary value"
        raise _Mismatch(e, f"a reference to {what}")

    def e_Deref(self, e):
        ref = _find(self.expr(e.value))
        if isinstance(ref, _Tensor):
            return self.note(e, ref)
        if isinstance(ref, _Ref):
            return self.note(e, ref.target)
        raise _Mismatch(e, f"a dereference of {_show(ref)}")

    def e_Launch(self, e):
        for arg in e.args:
            self.expr(arg)
        self.topo(e.topo)
        if e.kernel in self.sigs.fns:
            return self.call(e, self.sigs.params(e.kernel), self.sigs.ret(e.kernel))
        raise _Mismatch(e, f"a launch of '{e.kernel}', which is not a function")

    def topo(self, ref):
        for child in child_nodes(ref):
            if child._nt == "Expr" and id(child) not in self.terms:
                unify(self.expr(child), _Var("int"), child)
