"""type-scalars: Lassumed -> Lscalars."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.l11_assumed import Lassumed
from ..languages.l12_scalars import Lscalars
from ..nanopass import Pass, descendants
from ..nanopass.verify import child_nodes
from ..values.literals import TYPE_WRAPPERS
from ..values.numbers import FLOAT_TYPES, INT_TYPES

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
}


@dataclass
class State:
    types: dict = field(default_factory=dict)  # item name -> {id(node): decided type}
    rets: dict = field(default_factory=dict)  # function name -> its result type (a Type node)
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
used other than by calling it), is refused here with E5001.
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
    run.state.rets = {name: _type_node(sigs.ret(name), fn.span, fn.ret)
                      for name, fn in sigs.fns.items() if name not in refused}
    items = []
    for item in program.items:
        if getattr(item, "name", None) in refused:
            continue
        run.state.item = getattr(item, "name", None)
        items.append(run.walk(item))
    return L["Program"](tuple(items), span=program.span)


@type_scalars.on("Match", "Arm", "MethodCall", "FieldGet", "SomeTopo", "NoneTopo", "Grad", "Vjp",
                  "Jvp", "HardwareStateType")
def _unlowered(run, node):
    # An item holding one of these was refused with E5001 and is not rebuilt.
    raise AssertionError(f"type-scalars rebuilt a {node._prod} of a refused item")


def _decided(run, node) -> str:
    return run.state.types[run.state.item][id(node)]


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
        return f"Tensor<{t.elem}, {list(t.dims)}>"
    if isinstance(t, _Closure):
        return "a closure"
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
    elif isinstance(a, _Tensor) and isinstance(b, _Tensor) and (a.elem, a.dims) == (b.elem, b.dims):
        return a
    raise _Mismatch(node, f"a value of type {_show(a)} where {_show(b)} is expected")


def _scalar_of(ty, node):
    """The inference type of a written Type node."""
    while ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    if ty._prod == "Scalar":
        return ty.name
    if ty._prod == "TensorType":
        elem = _scalar_of(ty.elem, node)
        if not isinstance(elem, str) or any(d._prod != "DimInt" for d in ty.dims):
            raise _Mismatch(node, "a tensor whose extents are not integers")
        return _Tensor(elem, tuple(d.value for d in ty.dims), ty)
    if ty._prod == "OpaqueType":
        return _Var("any")
    raise _Mismatch(node, _UNLOWERED.get(ty._prod, ty._prod))


def _type_node(t, span, keep=None):
    """A decided type as a Type node: `keep` (the type as written, or a tensor's as placed)
    when there is one."""
    if keep is not None:
        return keep
    t = _find(t)
    if isinstance(t, _Var):
        t = {"int": "i32", "float": "f64"}.get(t.kind, "void")
    if isinstance(t, _Tensor):
        return t.node or L["TensorType"](L["Scalar"](t.elem, span=span),
                                         tuple(L["DimInt"](d, span=span) for d in t.dims),
                                         None, span=span)
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
                self.rets[name] = _scalar_of(fn.ret, fn)
            elif fn.on is not None and fn.body.value is not None:
                self.rets[name] = _Var("any")  # a kernel: its body's value decides
            else:
                self.rets[name] = "void"
        return self.rets[name]


def _is_literal(e) -> bool:
    return e._prod == "Int" or e._prod == "Unary" and e.op == "-" and _is_literal(e.operand)


def _assigned_captures(closure) -> list:
    """The variables of the enclosing function a closure assigns to: lifted, it receives
    their values, so it could not change them."""
    bound = {p.name for p in closure.params}
    assigned = []
    stack = [closure.body]
    while stack:
        node = stack.pop()
        if node._prod in ("Let", "For"):
            bound.add(node.name if node._prod == "Let" else node.var)
        elif node._prod == "Assign" and node.target._prod == "Local":
            assigned.append(node.target.name)
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
            # A topology's index is an integer wherever it is written: in a type, in `on`, in
            # a bound, at a launch (those the body's walk met are typed already).
            for node in descendants(item):
                if node._prod == "TopoRef":
                    self.topo(node)
        except _Mismatch as bad:
            return bad.node, bad.what
        return None

    def solved(self) -> dict:
        out = {}
        for key, t in self.terms.items():
            t = _find(t)
            out[key] = {"int": "i32", "float": "f64", "any": "void"}[t.kind] \
                if isinstance(t, _Var) else t
        return out

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
            t = self.expr(block.value)
            if value_type is not None:
                unify(t, value_type, block.value)

    def stmt(self, s):
        kind = s._prod
        if kind == "Let":
            t = self.expr(s.value)
            if _written(s):
                t = unify(t, _scalar_of(s.type, s), s)
            if _find(t) == "str":
                raise _Mismatch(s, "a variable holding a string")
            self.bind(s, s.name, t)
        elif kind == "Assign":
            target = self.expr(s.target)
            if isinstance(_find(target), _Closure):
                raise _Mismatch(s, "assignment to a closure")
            if s.op in ("<<=", ">>="):  # the amount is any integer
                unify(target, _Var("int"), s)
                unify(self.expr(s.value), _Var("int"), s.value)
            else:
                unify(target, self.expr(s.value), s)
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
            t = self.expr(s.value) if s.value is not None else "void"
            unify(t, self.ret, s)
        elif kind == "ExprStmt":
            self.expr(s.expr)
        elif kind == "BlockStmt":
            self.block(s.body)
        elif kind not in ("Break", "Continue"):
            raise _Mismatch(s, f"the statement {kind}")

    # -- expressions -------------------------------------------------------------------

    def expr(self, e):
        method = getattr(self, "e_" + e._prod, None)
        if method is None:
            what = f"the method call .{e.method}()" if e._prod == "MethodCall" else \
                _UNLOWERED.get(e._prod, e._prod)
            raise _Mismatch(e, what)
        return method(e)

    def e_Int(self, e):
        return self.note(e, _Var("int"))

    def e_Float(self, e):
        return self.note(e, _Var("float"))

    def e_Bool(self, e):
        return "bool"

    def e_Str(self, e):
        return "str"

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
        if isinstance(_find(t), (_Tensor, _Closure)) or _find(t) in ("str", "void") or \
                e.op in _BITWISE and (_find(t) in _FLOATS or isinstance(_find(t), _Var)
                                      and _find(t).kind == "float"):
            raise _Mismatch(e, f"'{e.op}' on {_show(t)}")
        self.note(e, t)
        return "bool" if e.op in _COMPARE else t

    def e_Unary(self, e):
        t = self.expr(e.operand)
        if e.op == "-":
            t = unify(t, _Var("any"), e)
            if _find(t) == "bool" or _find(t) in INT_TYPES and not INT_TYPES[_find(t)].signed:
                raise _Mismatch(e, f"'-' on {_show(t)}")
        return self.note(e, t)

    def e_Cast(self, e):
        source, target = self.expr(e.value), _scalar_of(e.type, e)
        # As in Rust, a bool converts to an integer and nothing else converts to a bool.
        if (target == "bool") != (_find(source) == "bool") and \
                (target == "bool" or target in _FLOATS):
            raise _Mismatch(e, f"a cast of {_show(source)} to {_show(target)}")
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

    def e_TensorNew(self, e):
        t = _scalar_of(e.type, e)
        if not isinstance(t, _Tensor):
            raise _Mismatch(e, "a tensor of that type")
        for a in e.args:
            unify(self.expr(a), t.elem, a)
        return t

    def e_Transfer(self, e):
        return self.expr(e.value)

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
