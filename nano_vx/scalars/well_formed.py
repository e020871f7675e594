"""Is a typed back-end tree (Lscalars to Lcells) one the back end's passes can take? A dump
of one is read back as data, so nothing in it is taken on trust: every name is bound where
it is used (a local by a dominating `let` or a parameter, a global by a constant, a callee
by a function, a jump's label by a block of its function), and every type the tree writes
is the one its operands give. The types are read and compared with the inference's own terms
(`scalar_of`, `unify`, `bad_binary` ...), which decided them when type-scalars wrote them.
"""

from __future__ import annotations

from ..languages.lblocks import Lblocks
from ..languages.lsrc import gives_value
from ..languages.lscalars import Lscalars
from ..languages.lstops import Lstops
from ..nanopass import descendants
from ..values.constructors import TAKES
from ..values.math import ARITY, FLOAT_ONLY
from ..values.numbers import INT_TYPES
from .block_scopes import check_blocks
from .rules import Rules
from .signatures import Signatures
from .terms import (FLOATS, Closure, Mismatch, Ref, Tensor, Var, Vector, bad_binary, bad_cast,
                    bad_negation, find, lent_row, narrow_of, scalar_of, show, unify,
                    unlowered_row)

STATEMENTS = Rules(Lscalars)  # Lscalars' statements; `Return` is also Lblocks' exit
EXPRESSIONS = Rules(Lscalars)
SELECT = Rules(Lblocks)
EXITS = Rules(Lstops)

_COMPARE = frozenset("== != < <= > >=".split())
_LOGIC = frozenset({"&&", "||"})
_SHIFTS = frozenset({"<<", ">>"})
_SCALARS = frozenset(INT_TYPES) | FLOATS | {"bool"}


def _arms(e) -> tuple:
    """The values an `if` (a `Select` once control is explicit) chooses between, () when an
    arm has statements."""
    if e._prod == "Select":
        return e.then, e.orelse
    if e.then.stmts or e.orelse.stmts or e.then.value is None or e.orelse.value is None:
        return ()
    return e.then.value, e.orelse.value


def _record(e) -> bool:
    """Whether `print` is given e as a literal of an aggregate: a literal, or an `if`
    choosing an enum's variant between two such literals (expand-aggregate-prints wrote it)."""
    if e._prod in ("IfExpr", "Select"):
        arms = _arms(e)
        return bool(arms) and all(_record(x) for x in arms)
    return e._prod in ("StructLit", "Tuple", "EnumValue")
_LANEWISE = frozenset("+ - * /".split())


def ill_formed(program) -> list:
    """(node, what is wrong) for each item that is not well formed, the first thing wrong
    in it; an empty list for a tree the back end can take."""
    problems = second_items(program)
    sigs = Signatures(program)
    constants: dict = {}  # name -> its type, once its value is checked
    for item in program.items:
        if item._prod not in ("Fn", "ConstItem"):
            continue
        try:
            Check(sigs, item, constants).item()
        except Mismatch as bad:
            problems.append((bad.node, f"{bad.what} (in '{item.name}')"))
    return problems


def second_items(program) -> list:
    """(item, what is wrong) for each function or constant named as one before it."""
    problems = []
    names: set = set()
    for item in program.items:
        if item._prod in ("Fn", "ConstItem"):
            if item.name in names:
                problems.append((item, f"a second item named '{item.name}'"))
            names.add(item.name)
    return problems


def typed(ty, node, void: bool = False):
    """The type term of a written type whose every scalar is a machine type."""
    t = scalar_of(ty, node)
    found = find(t)
    scalar = found.target if isinstance(found, Ref) else found
    scalar = scalar.elem if isinstance(scalar, (Tensor, Vector)) else scalar
    if isinstance(scalar, str) and scalar not in _SCALARS and not (void and scalar == "void"):
        raise Mismatch(node, f"the type {scalar}, which is no machine type")
    return t


class Check:
    """The types over one item, from what the tree writes: each node's is its operands'."""

    def __init__(self, sigs: Signatures, item, constants: dict):
        self.sigs, self.item_node, self.constants = sigs, item, constants
        self.env: dict = {}  # local -> type term, those bound where the walk is
        self.bound: set = set()  # every local bound so far in the item
        self.ret = None
        self.loops = 0  # loops around the walk (Lscalars)

    def item(self):
        item = self.item_node
        if item._prod == "ConstItem":
            self.constant(item.name, set())
            return
        self.ret = typed(item.ret, item, void=True)
        for p, t in zip(item.params, self.params(item.name)):
            self.bind(p, p.name, t)
        if item.on is not None:
            self.topo(item.on)
        if "body" in item._fields:
            self.block(item.body, self.ret, result=True)
        else:
            check_blocks(self, item)

    def params(self, name: str) -> list:
        fn = self.sigs.fns[name]
        return [typed(p.type, p, void=True) for p in fn.params]  # a closure's given a print

    def constant(self, name: str, seen: set):
        """A constant's type, its value typed (select-instructions computes a constant where
        it is used, so one may not depend on itself)."""
        const = self.sigs.consts[name]
        if name in self.constants:
            return self.constants[name]
        if name in seen:
            raise Mismatch(const, f"the constant '{name}' depends on itself")
        if const.value is None:
            raise Mismatch(const, "a constant without a value")
        t = typed(const.type, const)
        for node in descendants(const.value):
            if node._prod == "Local":
                raise Mismatch(node, f"a local, '{node.name}', in a constant")
            if node._prod == "Global" and node.name in self.sigs.consts:
                self.constant(node.name, seen | {name})
        unify(self.expr(const.value), t, const.value)
        self.constants[name] = t
        return t

    def bind(self, node, name, t):
        """A local's one binding in its item (names are unique per function, and the back
        end makes each one SSA value or one cell)."""
        if name in self.bound:
            raise Mismatch(node, f"a second binding of '{name}' in one function")
        self.bound.add(name)
        self.env[name] = t

    def block(self, block, value_type=None, result=False):
        """`result`: the block is a function's body, its value the function's result."""
        outer = dict(self.env)
        for s in block.stmts:
            self.stmt(s)
        if block.value is not None:
            t = self.argument(block.value) if result else self.expr(block.value)
            if value_type is not None:
                unify(t, value_type, block.value)
        self.env = outer

    def stmt(self, s):
        rule = STATEMENTS.get(s._prod)
        if rule is None:
            raise Mismatch(s, f"the statement {s._prod}")
        rule(self, s)

    def exit(self, x):
        (EXITS.get(x._prod) or STATEMENTS[x._prod])(self, x)

    def expr(self, e):
        rule = EXPRESSIONS.get(e._prod) or SELECT.get(e._prod)
        if rule is None:
            raise Mismatch(e, f"the expression {e._prod}")
        return rule(self, e)

    def scalar(self, e, kind: str | None = None):
        """The type of e, which must be a machine scalar (of `kind`: "int", "float")."""
        t = find(self.expr(e))
        if not isinstance(t, str) or t not in _SCALARS or \
                kind == "int" and t not in INT_TYPES or kind == "float" and t not in FLOATS:
            wanted = {"int": "an integer", "float": "a float"}.get(kind, "a scalar")
            raise Mismatch(e, f"a value of type {show(t)} where {wanted} is expected")
        return t

    def call(self, e, params, ret, rows=False):
        """`rows`: a call, not a launch of a kernel, which may be given or lent a row of a
        local (lent_row)."""
        if len(params) != len(e.args):
            raise Mismatch(e, f"a call with {len(e.args)} arguments of a function taking "
                              f"{len(params)}")
        for arg, p in zip(e.args, params):
            unify(self.argument(arg) if rows else self.expr(arg), p, arg)
        return ret

    def argument(self, arg):
        """An argument of a call of a function or a closure of the program, what a variable
        is given or a function returns: a row of a local lent or given is a tensor
        (lent_row)."""
        index = lent_row(arg, self.expr, True)  # Lscalars: the references are erased
        return self.expr(arg) if index is None else self.index(index, row=True)

    def topo(self, ref):
        for child in (ref.index, ref.end):
            if child is not None:
                self.scalar(child, "int")

    # -- statements --------------------------------------------------------------------

    @STATEMENTS.on("Let")
    def _let(self, s):
        t = typed(s.type, s, void=True)
        unify(self.argument(s.value), t, s)
        self.bind(s, s.name, t)

    @STATEMENTS.on("Assign")
    def _assign(self, s):
        if s.target._prod not in ("Local", "Index", "Deref"):
            raise Mismatch(s.target, "an assignment to what is not a variable, an element or "
                                     "a dereference")
        target = find(self.expr(s.target))
        if s.op in ("<<=", ">>="):
            unify(target, self.scalar(s.target, "int"), s)
            self.scalar(s.value, "int")
            return
        if not isinstance(target, str) and s.op != "=" and \
                not (isinstance(target, Vector) and s.op[:-1] in _LANEWISE):
            raise Mismatch(s, f"'{s.op}' on {show(target)}")
        if isinstance(target, str) and target != "void":  # () is assigned a computation
            self.scalar(s.target)
        unify(self.argument(s.value) if s.target._prod == "Local" else self.expr(s.value),
              target, s)
        if s.op != "=":
            what = bad_binary(s.op[:-1], target)
            if what is not None:
                raise Mismatch(s, what)

    @STATEMENTS.on("For")
    def _for(self, s):
        t = self.type_of(s, "int")
        unify(self.expr(s.start), t, s.start)
        unify(self.expr(s.end), t, s.end)
        outer = dict(self.env)
        self.bind(s, s.var, t)
        self.loop(s.body)
        self.env = outer

    @STATEMENTS.on("While")
    def _while(self, s):
        unify(self.expr(s.cond), "bool", s.cond)
        self.loop(s.body)

    def loop(self, body):
        self.loops += 1
        self.block(body)
        self.loops -= 1

    @STATEMENTS.on("Break", "Continue")
    def _jump(self, s):
        if not self.loops:
            raise Mismatch(s, f"`{s._prod.lower()}` outside a loop")

    @STATEMENTS.on("Assert", "Assume")
    def _asserted(self, s):
        unify(self.expr(s.cond), "bool", s.cond)

    @STATEMENTS.on("ReleasePin")
    def _release_pin(self, s):
        pass  # a topology kind by name: any name counts its own pins

    @STATEMENTS.on("Halt")
    def _halt(self, s):
        pass  # a code and a message: nothing to type


    @STATEMENTS.on("If")
    def _if(self, s):
        unify(self.expr(s.cond), "bool", s.cond)
        self.block(s.then)
        if s.orelse is not None:
            self.block(s.orelse)

    @STATEMENTS.on("Return")
    def _return(self, s):
        if s.value is not None:
            unify(self.argument(s.value), self.ret, s)

    @STATEMENTS.on("ExprStmt")
    def _expr_stmt(self, s):
        self.expr(s.expr)

    @STATEMENTS.on("BlockStmt")
    def _block_stmt(self, s):
        self.block(s.body)

    # -- exits (Lblocks on) ------------------------------------------------------------

    @EXITS.on("Goto", "Stop")
    def _jump_exit(self, s):
        pass  # its label is checked with the function's blocks

    @EXITS.on("Branch")
    def _branch(self, s):
        unify(self.expr(s.cond), "bool", s.cond)

    # -- expressions -------------------------------------------------------------------

    def type_of(self, e, kind: str | None = None, t: str | None = None) -> str:
        """The scalar type a node writes (`t`, else its `type`), which must be a machine
        type (of `kind`: "int", "float")."""
        t = e.type if t is None else t
        if t not in _SCALARS or kind == "int" and t not in INT_TYPES or \
                kind == "float" and t not in FLOATS:
            wanted = {"int": "an integer", "float": "a float"}.get(kind, "a machine")
            raise Mismatch(e, f"the type {t} on {e._prod}, which takes {wanted} type")
        return t

    @EXPRESSIONS.on("Int")
    def _int(self, e):
        t = INT_TYPES.get(self.type_of(e, "int"))
        if not t.lo <= e.value <= t.mask:  # its bits: 200i8 is -56, as the interpreter reads it
            raise Mismatch(e, f"the literal {e.value}, which {t.name} does not hold")
        return t.name

    @EXPRESSIONS.on("Float")
    def _float(self, e):
        return self.type_of(e, "float")

    @EXPRESSIONS.on("Bool")
    def _bool(self, e):
        return "bool"

    @EXPRESSIONS.on("Str")
    def _str(self, e):
        raise Mismatch(e, "a string other than what `print` prints")

    @EXPRESSIONS.on("Local")
    def _local(self, e):
        t = self.env.get(e.name)
        if t is None:
            raise Mismatch(e, f"the variable '{e.name}', which is not bound here")
        return t

    @EXPRESSIONS.on("Global")
    def _global(self, e):
        if e.name in self.sigs.consts:
            return typed(self.sigs.consts[e.name].type, e)
        if e.name in self.sigs.fns:  # a closure value, in Lfunctions: the function it names
            return Closure(self.params(e.name), typed(self.sigs.fns[e.name].ret, e, True), e)
        raise Mismatch(e, f"'{e.name}', which names no constant")

    @EXPRESSIONS.on("Binary")
    def _binary(self, e):
        if e.op in _LOGIC:
            for side in (e.left, e.right):
                unify(self.expr(side), "bool", side)
            return unify(self.type_of(e), "bool", e)
        t = self.type_of(e)
        if e.op in _SHIFTS:
            unify(self.scalar(e.left, "int"), t, e.left)
            self.scalar(e.right, "int")
            return t
        unify(self.expr(e.left), t, e.left)
        unify(self.expr(e.right), t, e.right)
        what = bad_binary(e.op, t)
        if what is not None:
            raise Mismatch(e, what)
        return "bool" if e.op in _COMPARE else t

    @EXPRESSIONS.on("HaltWith")
    def _halt_with(self, e):
        return unify(self.expr(e.value), Var("int"), e.value)

    @EXPRESSIONS.on("Unary")
    def _unary(self, e):
        t = self.type_of(e)
        unify(self.expr(e.operand), t, e.operand)
        what = bad_negation(t) if e.op == "-" else \
            (f"'!' on {t}" if t in FLOATS else None)
        if what is not None:
            raise Mismatch(e, what)
        return t

    @EXPRESSIONS.on("Cast")
    def _cast(self, e):
        source = self.scalar(e.value)
        unify(source, self.type_of(e, t=e.source), e)
        target = typed(e.type, e)
        if not isinstance(find(target), str):
            raise Mismatch(e, f"a cast to {show(target)}")
        what = bad_cast(source, find(target))
        if what is not None:
            raise Mismatch(e, what)
        return target

    @EXPRESSIONS.on("Call")
    def _call(self, e):
        callee = e.callee
        if callee._prod == "Local":
            closure = find(self.expr(callee))
            if not isinstance(closure, Closure):
                raise Mismatch(e, f"a call of {show(closure)}")
            return self.call(e, closure.params, closure.ret, rows=True)
        if callee._prod != "Global":
            raise Mismatch(e, "a call of something other than a function or a closure")
        name = callee.name
        if name in self.sigs.fns:
            return self.call(e, self.params(name), typed(self.sigs.fns[name].ret, e, True),
                             rows=True)
        if name == "print":
            return self.print(e)
        if name in ARITY:
            if len(e.args) != ARITY[name]:
                raise Mismatch(e, f"`{name}` with {len(e.args)} arguments; it takes "
                                  f"{ARITY[name]}")
            types = [self.scalar(a, "float" if name in FLOAT_ONLY else None) for a in e.args]
            for a, t in zip(e.args, types):
                unify(t, types[0], a)
            if types[0] == "bool":
                raise Mismatch(e, f"`{name}` of a bool")
            return types[0]
        raise Mismatch(callee, f"a call of '{name}', which names no function")

    def print(self, e):
        if len(e.args) != 1:
            raise Mismatch(e, f"`print` with {len(e.args)} arguments; it takes 1")
        arg = e.args[0]
        if arg._prod == "Str":
            return "void"
        if _record(arg):
            self.record(arg)
            return "void"
        t = find(self.index(arg, row=True) if arg._prod == "Index" else self.expr(arg))
        if isinstance(t, (Closure, Ref)):
            raise Mismatch(arg, f"a print of {show(t)}")
        return "void"  # a print of () is the interpreter's stop (select-instructions)

    def record(self, e):
        """The literal of an aggregate `print` is given: every part a scalar, a tensor, or
        another literal; or an `if` (a `Select` once control is explicit) choosing an enum's
        variant between two literals."""
        if e._prod in ("IfExpr", "Select"):
            unify(self.expr(e.cond), "bool", e.cond)
            for value in _arms(e):
                self.record(value)
            return
        parts = e.fields if e._prod == "StructLit" else e.elems if e._prod == "Tuple" \
            else e.args
        for part in parts:
            part = part.value if part._prod == "FieldInit" else part
            if _record(part):
                self.record(part)
                continue
            t = find(self.expr(part))
            if not (isinstance(t, (Tensor, Vector)) or isinstance(t, str) and
                    t not in ("void", "str")):
                raise Mismatch(part, f"a print of an aggregate holding {show(t)}")

    @EXPRESSIONS.on("Closure")
    def _closure(self, e):
        outer, loops = dict(self.env), self.loops
        params = []
        for p in e.params:
            params.append(typed(p.type, p, void=True))
            self.bind(p, p.name, params[-1])
        ret, self.ret, self.loops = self.ret, typed(e.ret, e, void=True), 0
        closure = Closure(params, self.ret, e)
        self.block(e.body, self.ret)
        self.ret, self.env, self.loops = ret, outer, loops
        return closure

    @EXPRESSIONS.on("IfExpr")
    def _if_expr(self, e):
        unify(self.expr(e.cond), "bool", e.cond)
        t = Var("any")  # an arm without a value leaves it by a jump
        for arm in (e.then, e.orelse):
            if not gives_value(arm):
                raise Mismatch(e, "an `if` used as a value with an arm that neither gives "
                                  "one nor leaves")
            self.block(arm, t)
        return t

    @SELECT.on("Tuple")
    def _unit(self, e):
        """The value of type () a variable an `if` gives one starts at (explicate-control)."""
        if e.elems:
            raise Mismatch(e, "the expression Tuple")
        return "void"

    @SELECT.on("Select")
    def _select(self, e):
        unify(self.expr(e.cond), "bool", e.cond)
        return unify(self.expr(e.then), self.expr(e.orelse), e)

    @EXPRESSIONS.on("Index")
    def _index(self, e):
        return self.index(e)

    @EXPRESSIONS.on("ReadWritten")
    def _read_written(self, e):
        flags = find(self.expr(e.flags))
        if not isinstance(flags, Tensor) or flags.elem != "bool":
            raise Mismatch(e.flags, f"written-flags of type {show(flags)}")
        return self.index(e.element)

    def index(self, e, row=False):
        """An element; a row (`t[i]` of a rank-2 t) only where it is printed, or bound,
        given or returned (lent_row)."""
        base = find(self.index(e.base, True) if e.base._prod == "Index" else self.expr(e.base))
        self.scalar(e.index, "int")
        if not isinstance(base, Tensor):
            raise Mismatch(e, f"indexing {show(base)}")
        if len(base.dims) == 1:
            return base.elem
        if not row:
            raise Mismatch(e, unlowered_row(e))
        return Tensor(base.elem, base.dims[1:], None)

    @EXPRESSIONS.on("Flatten")
    def _flatten(self, e):
        t = find(self.expr(e.value))
        if not isinstance(t, Tensor):
            raise Mismatch(e, f"a flattened {show(t)}")
        return Tensor(t.elem, (None,), t.node)

    @EXPRESSIONS.on("TensorLit")
    def _tensor_lit(self, e):
        t = self.tensor(e)
        if None in t.dims:
            raise Mismatch(e, "a tensor literal of `?` extents")
        count = 1
        for d in t.dims:
            count *= d
        if count != len(e.elems):
            raise Mismatch(e, f"a tensor literal of {len(e.elems)} elements for {count}")
        for x in e.elems:
            unify(self.expr(x), t.elem, x)
        return t

    @EXPRESSIONS.on("VecLit")
    def _vec_lit(self, e):
        t = self.vector(e.type, e)
        if len(e.elems) != t.lanes:
            raise Mismatch(e, f"a vector literal of {len(e.elems)} lanes for {t.lanes}")
        for x in e.elems:
            unify(self.expr(x), t.elem, x)
        return t

    @EXPRESSIONS.on("Splat")
    def _splat(self, e):
        if e.type is None:
            raise Mismatch(e, "a `splat` whose vector type is not written")
        t = self.vector(e.type, e)
        unify(self.expr(e.value), t.elem, e.value)
        return t

    @EXPRESSIONS.on("VecBinary")
    def _vec_binary(self, e):
        t = self.vector(e.type, e)
        if e.op not in _LANEWISE:
            raise Mismatch(e, f"'{e.op}' on {show(t)}")
        unify(self.expr(e.left), t, e.left)
        unify(self.expr(e.right), t, e.right)
        return t

    @EXPRESSIONS.on("Extent")
    def _extent(self, e):
        t = find(self.expr(e.tensor))
        if not isinstance(t, Tensor) or e.axis >= len(t.dims) or e.type not in INT_TYPES:
            raise Mismatch(e, f"`.extent({e.axis})` as {e.type} of {show(t)}")
        return e.type

    @EXPRESSIONS.on("Lane")
    def _lane(self, e):
        t = find(self.expr(e.vector))
        if not isinstance(t, Vector):
            raise Mismatch(e, f"a lane of {show(t)}")
        self.scalar(e.index, "int")
        return t.elem

    @staticmethod
    def vector(ty, node) -> Vector:
        t = find(typed(ty, node))
        if not isinstance(t, Vector):
            raise Mismatch(node, f"a vector of type {show(t)}")
        return t

    @EXPRESSIONS.on("TensorNew")
    def _tensor_new(self, e):
        t = self.tensor(e)
        sized = None in t.dims  # the list of its extents comes first, a literal of integers
        if len(e.args) - sized != TAKES.get(e.ctor, -1):
            raise Mismatch(e, f"`::{e.ctor}` with {len(e.args)} arguments")
        if sized:
            given = e.args[0]
            extents = find(self.expr(given)) if given._prod == "TensorLit" else None
            if extents is None or extents.elem not in INT_TYPES or \
                    extents.dims != (len(t.dims),):
                raise Mismatch(given, f"extents other than a literal of {len(t.dims)} integers")
        for a in e.args[sized:]:
            unify(self.expr(a), t.elem, a)
        return t

    def tensor(self, e) -> Tensor:
        t = find(typed(e.type, e))
        if not isinstance(t, Tensor):
            raise Mismatch(e, f"a tensor of type {show(t)}")
        return t

    @EXPRESSIONS.on("Transfer")
    def _transfer(self, e):
        t = find(self.expr(e.value))
        if not isinstance(t, (Tensor, Vector, str)) or t in ("void", "str"):  # a value is copied
            raise Mismatch(e, f"a transfer of {show(t)}")
        return t

    @EXPRESSIONS.on("Borrow")
    def _borrow(self, e):
        value = e.value
        if value._prod == "Deref":
            ref = find(self.expr(value.value))
            if not isinstance(ref, Ref):
                raise Mismatch(e, f"a dereference of {show(ref)}")
            return Ref(ref.target, e.mutable, ref.held)
        if value._prod == "Index":
            t = find(self.index(value))
            if not isinstance(t, str):
                raise Mismatch(e, f"a reference to {show(t)}")
            base = value
            while base._prod == "Index":
                base = base.base
            # An element of a tensor of a narrow type is a byte read as its value type.
            return Ref(t, e.mutable, narrow_of(find(self.expr(base))) or "")
        if value._prod != "Local":
            raise Mismatch(e, "a reference to what is not a variable or an element")
        t = find(self.expr(value))
        return Ref(t if isinstance(t, Vector) else self.scalar(value), e.mutable)

    @EXPRESSIONS.on("Deref")
    def _deref(self, e):
        ref = find(self.expr(e.value))
        if not isinstance(ref, Ref):
            raise Mismatch(e, f"a dereference of {show(ref)}")
        return ref.target

    @EXPRESSIONS.on("TakePin")
    def _take_pin(self, e):
        if e.replicas < 1:
            raise Mismatch(e, f"a topology admitting {e.replicas} pins at once")
        return "bool"

    @EXPRESSIONS.on("PinnedTo")
    def _pinned_to(self, e):
        self.topo(e.topo)
        return self.expr(e.value)

    @EXPRESSIONS.on("Launch")
    def _launch(self, e):
        self.topo(e.topo)
        if e.kernel not in self.sigs.fns:
            raise Mismatch(e, f"a launch of '{e.kernel}', which names no function")
        return self.call(e, self.params(e.kernel), typed(self.sigs.fns[e.kernel].ret, e, True))
