"""Types flow over one item, as Rust infers them: every literal, operator, cast and binder
gets a type term, and what native code does not lower raises Mismatch."""

from __future__ import annotations

from ..languages.lsrc import CONTRACTS
from ..languages.lpinned import Lpinned
from ..languages.lsafe import Lsafe
from ..languages.lsplit import Lsplit
from ..languages.lwritten import Lwritten
from ..nanopass import child_nodes, descendants
from ..values.constructors import TAKES
from ..values.literals import TYPE_WRAPPERS
from ..values.math import FLOAT_ONLY, MATH
from .closures import (block_variables, bound_in, by_reference, captures,
                       confined_closures, direct_closures, outliving_closures, read_through,
                       returned_closures, typed_by_calls)
from .returned import returned_locals, returned_values
from .rules import Rules
from .signatures import Signatures, is_literal, written
from .terms import (DYNAMIC, FLOATS, UNLOWERED, Closure, Mismatch, Ptr, Ref, Tensor, Var,
                    Vector, bad_binary, bad_cast, bad_negation, decide, find, lent_row,
                    narrow_of, reference_to, scalar_of, show, unify, unlowered_row)

_COMPARE = frozenset("== != < <= > >=".split())
_LOGIC = frozenset({"&&", "||"})
_SHIFTS = frozenset({"<<", ">>"})
_LITERALS = frozenset({"StructLit", "Tuple", "EnumValue"})


def _record(e) -> bool:
    """Whether `print` is given e as a literal of an aggregate: a literal, or an `if` choosing
    an enum's variant between two such literals (expand-aggregate-prints wrote it)."""
    if e._prod == "IfExpr":
        return not (e.then.stmts or e.orelse.stmts) and all(
            arm.value is not None and _record(arm.value) for arm in (e.then, e.orelse))
    return e._prod in _LITERALS


def _bad_field(t):
    """A field native code does not print: one neither a scalar, a string (as written, or
    the choice of its text number-texts writes), a vector nor a tensor (a reference)."""
    t = find(t)
    if isinstance(t, (Var, Tensor, Vector)) or isinstance(t, str) and t != "void":
        return None
    return f"printing an aggregate holding {show(t)}"


def _has_statements(block) -> bool:
    """Whether a block has statements, an `unsafe` block's that erase-raw-pointers moves
    into it included."""
    value = block.value
    return bool(block.stmts) or value is not None and value._prod == "Unsafe" and \
        _has_statements(value.body)


def _bad_write(t):
    """A write through a `*const` pointer: the interpreter stops on it (E9006), and native
    code, which holds the pointer as its tensor, would write."""
    t = find(t)
    return "a write through a `*const` pointer" if isinstance(t, Ptr) and not t.mutable \
        else None


def _closure_outside(t):
    """A closure value handed to another function of the program: its closures are numbered
    within the function that makes them."""
    return "a closure passed to a function" if isinstance(find(t), Closure) else None


def _scalar_held(what: str):
    """A variable the back end makes a place of its own that needs a scalar: a zero to start
    it at, or an element of a tensor (`what` it is, refused). A string is one: number-texts
    makes it the number of its text, and the gate refuses any it leaves (_held_text)."""
    def bad(t):
        t = find(t)
        if isinstance(t, Var) or isinstance(t, str) and t != "void":
            return None
        return f"{what} holding {show(t)}"
    return bad


def _zero_held(what: str):
    """A variable hoist-captured-lets binds at its function's top to a zero: a scalar's other
    than a string, a tensor's or a raw pointer's (`::new()`, each `?` extent 0), a vector's (a splat of 0), a
    reference's to such a scalar or vector (a reference to a zero bound beside it), or a
    closure's returning nothing or such a zero (a closure of its signature returning it)."""
    scalar = _scalar_held(what)

    def bad(t):
        t = find(t)
        if isinstance(t, (Tensor, Vector, Ptr)):  # a raw pointer is held as a tensor
            return None
        if isinstance(t, Ref) and (scalar(t.target) is None or
                                   isinstance(find(t.target), Vector)):
            return None
        if isinstance(t, Closure) and (find(t.ret) == "void" or bad(t.ret) is None):
            return None
        return scalar(t)
    return bad


def _chosen_reference(t) -> bool:
    """A reference an `if` chooses that start-chosen-references starts at a zero of its
    own: one to a scalar or a vector held as its type, or to an element of a tensor of a
    narrow type (a byte, which no variable holds: an element of a tensor, an arm's or one
    of its own)."""
    t = decide(t)
    return isinstance(t, Ref) and (t.held or isinstance(t.target, Vector) or
                                   isinstance(t.target, str) and t.target not in
                                   ("void", "str"))


def _chosen_refused(t, let) -> str:
    if isinstance(t, Tensor) and let.type._prod == "BorrowType":
        # assign-chosen-tensors starts one at a variable an arm names, which computes nothing
        return "an `if` choosing a reference to a tensor none of whose arms names a variable " \
               "nothing assigns"
    return "an `if` whose value is not a scalar"


def _referenced(t):
    """A reference to a variable its calls type (a closure's parameter): native code makes one
    to a scalar's cell, or a vector's, only."""
    if isinstance(t, Var) or isinstance(t, Vector) or isinstance(t, str) and t != "void":
        return None
    return "a reference to _" if t == "void" else f"a reference to {show(t)}"


def _printed_closure(t):
    return "printing a closure" if isinstance(find(t), Closure) else None


def _text_choice(e) -> bool:
    """Whether e is a string as written, or an `if` choosing between two such (number-texts
    writes a string printed as the choice of its text by its number): native code prints
    it as one line, the text its conditions choose."""
    if e._prod == "IfExpr":
        return not (e.then.stmts or e.orelse.stmts) and all(
            arm.value is not None and _text_choice(arm.value) for arm in (e.then, e.orelse))
    return e._prod == "Str"


def _held_text(t):
    """A string held other than as written in a `print`: number-texts makes each the number
    of its text, so the gate meets one only where number-texts left the program as it was."""
    t = find(t)
    if t == "str":
        return "a variable holding a string"
    if isinstance(t, Closure) and "str" in map(find, (*t.params, t.ret)):
        return "a closure taking or returning a string"
    return None


def _printed_text(t):
    return "a string printed other than as written" if find(t) == "str" else None


# The rules read Lpinned and every IL of the back end before Lscalars, which only remove
# but for Lwritten's ReadWritten and Lsafe's Flatten.
STATEMENTS = Rules(Lpinned)
EXPRESSIONS = Rules(Lpinned, Lwritten, Lsafe, Lsplit)


class Infer:
    """Types flow over one item: every literal, operator, cast, binder gets a type term."""

    def __init__(self, sigs: Signatures, item, texts: bool = False, erased: bool = False):
        """`texts`: type strings held anywhere, for number-texts, rather than refuse them;
        `erased`: erase-tensor-references has run (a row lent is `t[i]`, lent_row)."""
        self.sigs, self.item_node, self.texts, self.erased = sigs, item, texts, erased
        self.printed_terms: dict = {}  # id() of each value printed -> its type term
        self.env: dict = {}  # local -> type term
        self.terms: dict = {}  # id(node) -> type term
        self.ret = None
        self.placed: set = set()  # id() of each `if` value standing where one may (see value)
        self.judged: list = []  # (node, test, its type terms), tested again once solved
        self.extents: dict = {}  # id(`t.extent(i)`) -> the extent it reads
        self.lanes: set = set()  # id() of each `v[i]` that reads a vector's lane
        self.if_lets: list = []  # the lets bound to an `if` value
        self.through_pointers: set = set()  # id() of each `*p` of a raw pointer p
        self.direct: set = set()  # id() of each closure only called where its `let` names it
        self.direct_lets: dict = {}  # the local each of those binds -> it
        self.confined_ids: set | None = None  # see confined()
        self.returned_ids: dict | None = None  # see returned()
        self.inner: set = set()  # the locals bound inside closures
        self.top: set = set()  # the parameters and the locals the body's own `let`s bind
        self.block_variables: set = set()  # bound in a block or a loop, outside closures
        # id() of each closure a `let` binds whose body is typed at its first call (one only
        # called) or once the function is (a value, typed by the calls through the variables
        # given it), for indexing or dereferencing a parameter of no written type
        # (typed_by_calls): `|q| unsafe { q[1] }` reads the tensor or the pointer a call
        # gives q. One no call reaches (drop-uncalled-closures drops one nothing names) is
        # refused there: no call says what q is.
        self.deferred: set = set()
        self.later: dict = {}  # id() of each of those not typed yet -> (it, its result)

    def confined(self) -> set:
        """id() of each closure whose value stays where what it reads is in scope (not kept in
        a variable a closure value may read once its block is over), asked only of a function
        with a closure value reading a block's variable."""
        if self.confined_ids is None:
            kept = outliving_closures(self.item_node)[0]
            self.confined_ids = set(confined_closures(self.item_node)) - kept
        return self.confined_ids

    def returned(self) -> dict:
        """returned_closures, asked only of a function with a closure value reading a
        variable of the closure around it."""
        if self.returned_ids is None:
            self.returned_ids = returned_closures(self.item_node)
        return self.returned_ids

    def item(self):
        """None when every node typed, else (node, what native code does not lower)."""
        item = self.item_node
        try:
            if item._prod == "ConstItem":
                t = scalar_of(item.type, item)
                unify(self.expr(item.value), t, item)
                return None
            self.ret = self.sigs.ret(item.name)
            self.direct_lets = direct_closures(item)
            self.direct = {id(c) for c in self.direct_lets.values()}
            self.deferred = typed_by_calls({n.name: n.value for n in descendants(item)
                                            if n._prod == "Let" and n.value._prod == "Closure"})
            self.inner = set().union(*(bound_in(n) for n in descendants(item)
                                       if n._prod == "Closure"))
            self.top = {p.name for p in item.params} | \
                {s.name for s in item.body.stmts if s._prod == "Let"}
            self.block_variables = block_variables(item)
            for p, t in zip(item.params, self.sigs.params(item.name)):
                self.bind(p, p.name, t)
            self.block(item.body, self.ret, result=True)
            while self.later:
                self.closure_body(*self.later.pop(next(iter(self.later))))
            if isinstance(find(self.ret), Ref):
                self.returned_places(item)
            if isinstance(find(self.ret), Closure):
                raise Mismatch(item, "a function returning a closure")
            if find(self.ret) == "str" and not self.texts:
                raise Mismatch(item, "a function returning a string")
            for let in self.if_lets:  # explicate-control starts each at its type's zero
                t = find(self.terms[id(let)])
                if not (isinstance(t, str) or isinstance(t, Var)
                        and t.kind != "any" or isinstance(t, (Closure, Vector))
                        or _chosen_reference(t)):
                    raise Mismatch(let.value, _chosen_refused(t, let))
            # A topology's index is an integer wherever it is written: in a type, in `on`, in
            # a bound, at a launch (those the body's walk met are typed already).
            for node in descendants(item):
                if node._prod == "TopoRef":
                    self.topo(node)
        except Mismatch as bad:
            return bad.node, bad.what
        return None

    def judgement(self):
        """None when each node judged passes, else (node, what native code does not lower);
        asked once every item is inferred: a launch's value is its kernel's body's, which an
        item after the launch's types."""
        for node, bad, terms in self.judged:
            what = bad(*(decide(t) for t in terms))
            if what is not None:
                return node, what
        return None

    def returned_places(self, fn):
        """A reference returned names a place that outlives the call: an element of a
        tensor (a buffer, which find-owned-buffers then leaves undropped), what a parameter
        names, or a local box-returned-locals makes such an element (a scalar's)."""
        params = {p.name for p in fn.params}
        boxed = returned_locals(fn)
        for e in returned_values(fn):
            place = e.value if e._prod == "Borrow" else None
            if place is not None and place._prod == "Local" and place.name in boxed:
                # box-returned-locals makes it a tensor of one element
                self.judge(e, _scalar_held(f"a reference returned to '{place.name}', a local "
                                           f"variable of its function"), self.env[place.name])
            elif not (e._prod == "Local" and e.name in params or place is not None and (
                    place._prod == "Index" or place._prod == "Deref" and
                    place.value._prod == "Local" and place.value.name in params)):
                raise Mismatch(e, "a reference returned that may name a local variable of "
                                  "its function")

    def solved(self) -> dict:
        return {key: decide(t) for key, t in self.terms.items()}

    def note(self, node, t):
        """Record node's type; a node met twice (a shared subtree) has one type."""
        old = self.terms.get(id(node))
        self.terms[id(node)] = t if old is None else unify(old, t, node)
        return t

    def bind(self, node, name, t):
        self.env[name] = t
        self.note(node, t)
        if not self.texts:
            self.judge(node, _held_text, t)

    def judge(self, node, bad, *terms):
        """Refuse what native code would compute differently from the interpreter: now, on
        the types known so far, and again once the item is solved (a closure's parameter is
        typed by the calls after it)."""
        self.judged.append((node, bad, terms))
        what = bad(*terms)
        if what is not None:
            raise Mismatch(node, what)

    def block(self, block, value_type=None, result=False):
        """`result`: the block is a function's body, its value the function's result."""
        for s in block.stmts:
            rule = STATEMENTS.get(s._prod)
            if rule is None:
                raise Mismatch(s, f"the statement {s._prod}")
            rule(self, s)
        if block.value is not None:
            t = self.argument(block.value, bound=True) if result else self.value(block.value)
            if value_type is not None:
                unify(t, value_type, block.value)

    def value(self, e):
        """An expression whose value goes straight to a variable, to the result or nowhere:
        where an `if` may give a value, explicate-control turning it into branches that each
        deliver their own, and an `unsafe` block's statements may go before its statement
        (erase-raw-pointers). Elsewhere (an operand, an argument) only an `if` whose arms
        are plain values is lowered (a select of the arm the condition picks), and only an
        `unsafe` block without statements."""
        if e._prod in ("IfExpr", "Unsafe"):
            self.placed.add(id(e))
        return self.expr(e)

    def expr(self, e):
        rule = EXPRESSIONS.get(e._prod)
        if rule is None:
            raise Mismatch(e, UNLOWERED.get(e._prod, e._prod))
        return rule(self, e)

    def call(self, e, params, ret, outside=False, rows=False):
        """`outside`: the callee is a function of the program, not a closure; `rows`: a call,
        not a launch of a kernel, which may be given or lent a row."""
        if len(params) != len(e.args):
            raise Mismatch(e, f"a call with {len(e.args)} arguments of a function taking "
                              f"{len(params)}")
        for arg, p in zip(e.args, params):
            t = unify(self.argument(arg) if rows else self.expr(arg), p, arg)
            if outside:
                self.judge(arg, _closure_outside, t)
        return ret

    def argument(self, arg, bound=False):
        """An argument of a call of a function or a closure of the program, or what a `let`
        binds, an assignment gives a variable or a function returns (`bound`: a value, as
        `value` takes it): a row of a local it lends or gives is a tensor (lent_row)."""
        index = lent_row(arg, self.expr, self.erased)
        if index is None:
            return self.value(arg) if bound else self.expr(arg)
        row = self.index(index, row=True)
        return row if index is arg else self.note(arg, row)

    def topo(self, ref):
        for child in child_nodes(ref):
            if child._nt == "Expr" and id(child) not in self.terms:
                unify(self.expr(child), Var("int"), child)

    # -- statements --------------------------------------------------------------------

    @STATEMENTS.on("Let")
    def _let(self, s):
        t = self.argument(s.value, bound=True)
        if s.value._prod == "IfExpr":
            self.if_lets.append(s)
        if written(s):
            t = unify(t, scalar_of(s.type, s), s)
        self.bind(s, s.name, t)

    @STATEMENTS.on("Assign")
    def _assign(self, s):
        if s.target._prod == "Deref" and isinstance(find(self.expr(s.target.value)), Tensor):
            # The reference erased, it would rebind the parameter instead.
            raise Mismatch(s, "an assignment of a whole tensor through a reference")
        through = s.target.value if s.target._prod == "Deref" else \
            s.target.base if s.target._prod == "Index" and s.target.base._prod != "Index" \
            else None
        if through is not None:
            self.judge(s, _bad_write, self.expr(through))
        target = self.expr(s.target)
        if s.op in ("<<=", ">>="):  # the amount is any integer
            unify(target, Var("int"), s)
            unify(self.expr(s.value), Var("int"), s.value)
        else:
            value = self.argument(s.value, bound=True) if s.target._prod == "Local" \
                else self.expr(s.value)
            unify(target, value, s)

    @STATEMENTS.on("For")
    def _for(self, s):
        t = unify(self.expr(s.start), self.expr(s.end), s)
        t = unify(t, Var("int"), s)
        self.bind(s, s.var, t)
        self.block(s.body)

    @STATEMENTS.on("While")
    def _while(self, s):
        unify(self.expr(s.cond), "bool", s.cond)
        self.block(s.body)

    @STATEMENTS.on("Assert", "Assume")
    def _asserted(self, s):
        unify(self.expr(s.cond), "bool", s.cond)

    @STATEMENTS.on("If")
    def _if(self, s):
        unify(self.expr(s.cond), "bool", s.cond)
        self.block(s.then)
        if s.orelse is not None:
            self.block(s.orelse)

    @STATEMENTS.on("Return")
    def _return(self, s):
        t = self.argument(s.value, bound=True) if s.value is not None else "void"
        unify(t, self.ret, s)

    @STATEMENTS.on("ExprStmt")
    def _expr_stmt(self, s):
        self.value(s.expr)

    @STATEMENTS.on("BlockStmt")
    def _block_stmt(self, s):
        self.block(s.body)

    @STATEMENTS.on("Break", "Continue", "UnsafeFn", "ReleasePin", *CONTRACTS)  # none makes code
    def _no_code(self, s):
        pass

    @STATEMENTS.on("Halt")
    def _halt(self, s):
        pass  # a stop: it computes no value to type


    # -- expressions -------------------------------------------------------------------

    @EXPRESSIONS.on("IfExpr")
    def _if_expr(self, e):
        if id(e) not in self.placed and (_has_statements(e.then) or _has_statements(e.orelse)):
            raise Mismatch(e, "an `if` value with statements in its arms inside a larger "
                              "expression (bind it with a `let` first)")
        unify(self.expr(e.cond), "bool", e.cond)
        t = Var("any")
        for arm in (e.then, e.orelse):
            self.block(arm, t)
        return t

    @EXPRESSIONS.on("Int")
    def _int(self, e):
        return self.note(e, Var("int"))

    @EXPRESSIONS.on("Float")
    def _float(self, e):
        return self.note(e, Var("float"))

    @EXPRESSIONS.on("Bool")
    def _bool(self, e):
        return "bool"

    @EXPRESSIONS.on("Str")
    def _str(self, e):
        return "str"

    @EXPRESSIONS.on("MethodCall")
    def _method_call(self, e):
        """`t.extent(i)`, a number of the integer type it meets: a constant when t is a
        variable and its extent i a number (in `extents`), else read as the program runs
        (the receiver computed, its extent read from its buffer)."""
        if e.method == "extent" and len(e.args) == 1 and e.args[0]._prod == "Int":
            t, axis = find(self.expr(e.receiver)), e.args[0].value
            if isinstance(t, Tensor) and axis < len(t.dims):
                if e.receiver._prod == "Local" and t.dims[axis] is not None:
                    self.extents[id(e)] = t.dims[axis]
                return self.note(e, Var("int"))
        raise Mismatch(e, f"the method call .{e.method}()")

    @EXPRESSIONS.on("Local")
    def _local(self, e):
        t = self.env.get(e.name)
        if t is None:
            raise Mismatch(e, f"the variable '{e.name}' before its `let`")
        return t

    @EXPRESSIONS.on("Global")
    def _global(self, e):
        if e.name in self.sigs.consts:
            return scalar_of(self.sigs.consts[e.name].type, e)
        raise Mismatch(e, "a function used as a value")

    @EXPRESSIONS.on("ConstPart")
    def _const_part(self, e):
        return Var("any")  # its constant's type, which the constant's item gives it

    @EXPRESSIONS.on("Binary")
    def _binary(self, e):
        if e.op in _LOGIC:
            unify(self.expr(e.left), "bool", e.left)
            unify(self.expr(e.right), "bool", e.right)
            self.note(e, "bool")
            return "bool"
        if e.op in _SHIFTS:  # the amount is any integer; the value shifted is the type
            t = unify(self.expr(e.left), Var("int"), e.left)
            unify(self.expr(e.right), Var("int"), e.right)
            return self.note(e, t)
        t = unify(self.expr(e.left), self.expr(e.right), e)
        self.judge(e, bad_binary, e.op, t)
        self.note(e, t)
        return "bool" if e.op in _COMPARE else t

    @EXPRESSIONS.on("HaltWith")
    def _halt_with(self, e):
        return self.note(e, unify(self.expr(e.value), Var("int"), e.value))

    @EXPRESSIONS.on("Unary")
    def _unary(self, e):
        t = self.expr(e.operand)
        if isinstance(find(t), Ref):
            raise Mismatch(e, f"'{e.op}' on {show(t)}")
        if e.op == "-":
            t = unify(t, Var("any"), e)
            self.judge(e, bad_negation, t)
        return self.note(e, t)

    @EXPRESSIONS.on("Cast")
    def _cast(self, e):
        source = self.expr(e.value)
        if e.type._prod == "OpaqueType":
            # `x as _`: to the type of what it meets, of x's kind (cast-plain-values asks
            # which); noted at the type, the cast's own note being its source's.
            t = find(source)
            floating = t in FLOATS if isinstance(t, str) else getattr(t, "kind", "") == "float"
            target = self.note(e.type, Var("float" if floating else "int"))
        else:
            target = scalar_of(e.type, e)
        if isinstance(target, Ptr):
            raise Mismatch(e, "a cast to a raw pointer")
        self.judge(e, bad_cast, source, target)
        if is_literal(e.value) and isinstance(find(source), Var) and find(source).kind == "int":
            # A literal cast as it is written keeps its value: `9000000000 as i64`, the form
            # desugar-comptime leaves, is 9000000000, not an i32 that wrapped.
            source = unify(source, "i64", e)
        if not isinstance(find(source), (str, Var)) or find(source) in ("str", "void"):
            raise Mismatch(e, f"a cast of {show(source)}")
        self.note(e, source)
        return target

    @EXPRESSIONS.on("Call")
    def _call(self, e):
        callee = e.callee
        if callee._prod == "Global" and callee.name == "print" and callee.name not in self.sigs.fns:
            if len(e.args) == 1:
                arg = e.args[0]
                if arg._prod != "Index":
                    self.printed(arg)
                else:
                    self.index(arg, row=True)
                return "void"
        if callee._prod == "Global" and callee.name in self.sigs.fns:
            return self.call(e, self.sigs.params(callee.name), self.sigs.ret(callee.name),
                             outside=True, rows=True)
        if callee._prod == "Global" and callee.name in MATH:
            # check-calls judged the count and kinds: the result is the arguments' one type.
            t = Var("float" if callee.name in FLOAT_ONLY else "any")
            for arg in e.args:
                t = unify(t, self.expr(arg), arg)
            return self.note(e, t)
        if callee._prod == "Local" and callee.name in self.env:
            closure = find(self.env[callee.name])
            if isinstance(closure, Var) and closure.kind == "any":  # a closure's parameter
                closure = unify(closure, Closure([Var("any") for _ in e.args], Var("any"),
                                                 None), e)
            if isinstance(closure, Closure):
                ret = self.call(e, closure.params, closure.ret, rows=True)
                later = self.later.pop(id(self.direct_lets.get(callee.name)), None)
                if later is not None:
                    self.closure_body(*later)
                return ret
        raise Mismatch(e, "a call of something other than a function or a closure "
                          "a variable holds")

    def closure_body(self, e, ret):
        outer, self.ret = self.ret, ret  # a `return` in its body is the closure's
        self.block(e.body, ret)
        self.ret = outer

    def printed(self, e):
        """What `print` is given: a value, or the literal of an aggregate of scalars that
        scalarize-aggregates rebuilt for it (native code prints it as one line)."""
        if _text_choice(e) and e._prod == "IfExpr":
            unify(self.expr(e.cond), "bool", e.cond)
            self.printed(e.then.value)
            self.printed(e.orelse.value)
            self.printed_terms[id(e)] = "str"
            return "str"
        if not _record(e):
            t = self.expr(e)
            self.printed_terms[id(e)] = t
            if isinstance(find(t), Ptr):
                raise Mismatch(e, "a print of a raw pointer")
            self.judge(e, _printed_closure, t)
            if not self.texts and e._prod != "Str":
                self.judge(e, _printed_text, t)
            return t
        if e._prod == "IfExpr":
            unify(self.expr(e.cond), "bool", e.cond)
            self.printed(e.then.value)
            self.printed(e.orelse.value)
            return "void"
        parts = e.fields if e._prod == "StructLit" else e.elems if e._prod == "Tuple" \
            else e.args
        for part in parts:
            part = part.value if part._prod == "FieldInit" else part
            t = self.printed(part)
            if not _record(part):
                self.judge(part, _bad_field, t)
        return "void"

    @EXPRESSIONS.on("Closure")
    def _closure(self, e):
        params = []
        for p in e.params:
            t = scalar_of(p.type, p) if p.type is not None else Var("any")
            self.bind(p, p.name, t)
            params.append(t)
        ret = self.note(e, Var("any"))
        if id(e) in self.deferred:
            self.later[id(e)] = (e, ret)
        else:
            self.closure_body(e, ret)
        stmts = e.body.stmts
        if e.body.value is None and not (stmts and stmts[-1]._prod == "Return"):
            unify(ret, "void", e)  # its end is reached: it gives ()
        if not self.texts:
            self.judge(e, _held_text, Closure(params, ret, e))
        # lift-closures passes what a closure assigns or lends by reference, a scalar's cell
        # (a tensor lent is its buffer, passed as it is).
        for name in by_reference(e, lent=False):
            if isinstance(find(self.env.get(name)), (Tensor, Ref)):
                raise Mismatch(e, f"a closure that assigns to '{name}', which it captures "
                                  f"and which holds {show(self.env[name])}")
        # A value is called where what it reads must still be in scope: a variable of the
        # closure around it is not once that closure returns, unless the value never leaves
        # where it is (confined); one of a block hoist-captured-lets makes the function's.
        for name in captures(e) if id(e) not in self.direct else ():
            if (name in self.inner or name not in self.top) and id(e) in self.confined():
                break
            made = self.returned().get(id(e)) if name in self.inner else None
            if made is not None and name in made[3] and \
                    isinstance(find(self.env[name]), Tensor):
                pass  # capture-environments passes the tensor the maker's call was given
            elif made is not None and name in made[1]:
                # capture-environments copies it when the value is made
                self.judge(e, _scalar_held(f"a closure returned from the closure around it "
                                           f"that captures '{name}'"), self.env[name])
            elif name in self.inner:
                raise Mismatch(e, f"a closure used as a value that captures '{name}', a "
                                  f"variable of the closure around it")
            # hoist-captured-lets binds each to its zero (a closure only called is not read)
            for held in read_through([name], self.direct_lets):
                if held in self.block_variables:
                    self.judge(e, _zero_held(f"a closure used as a value that captures "
                                               f"'{held}', a variable of a block inside its "
                                               f"function"), self.env[held])
        return Closure(params, ret, e)

    @EXPRESSIONS.on("Index")
    def _index(self, e):
        return self.index(e)

    @EXPRESSIONS.on("ReadWritten")
    def _read_written(self, e):
        self.expr(e.flags)
        return self.index(e.element)

    def index(self, e, row=False):
        """An element; a row (`t[i]` of a rank-2 t) only where it is printed, or bound,
        given or returned (lent_row)."""
        base = find(self.index(e.base, True) if e.base._prod == "Index" else self.expr(e.base))
        unify(self.expr(e.index), Var("int"), e.index)
        if isinstance(base, Ptr):  # `p[i]`: element i of the tensor p points into
            return base.elem
        if isinstance(base, Vector):
            self.lanes.add(id(e))
            return base.elem
        if not isinstance(base, Tensor):
            raise Mismatch(e, f"indexing {show(base)}")
        if len(base.dims) == 1:
            return base.elem
        if not row:
            raise Mismatch(e, unlowered_row(e))
        # the row's type as its tensor's is written, in the tensor's space, for its `let`
        row = None if base.node is None else base.node.replace(dims=base.node.dims[1:])
        return Tensor(base.elem, base.dims[1:], row)

    @EXPRESSIONS.on("ArrayLit")
    def _array_lit(self, e):
        elem = Var("any")
        for x in e.elems:
            elem = unify(elem, self.expr(x), x)
        if not isinstance(find(elem), (str, Var)) or find(elem) in ("str", "void"):
            raise Mismatch(e, "an array literal of non-scalars")
        return self.note(e, Tensor(elem, (len(e.elems),), None))

    @EXPRESSIONS.on("Splat")
    def _splat(self, e):
        t = scalar_of(e.type, e)  # decide-vector-splats gave each its type
        unify(self.expr(e.value), t.elem, e.value)
        return t

    @EXPRESSIONS.on("TensorLit", "VecLit")
    def _tensor_lit(self, e):
        """A tensor's or a vector's literal: each element of its type's element type."""
        t = scalar_of(e.type, e)
        for x in e.elems:
            unify(self.expr(x), t.elem, x)
        return t

    @EXPRESSIONS.on("TensorNew")
    def _tensor_new(self, e):
        t = scalar_of(e.type, e)
        if not isinstance(t, Tensor):
            raise Mismatch(e, "a tensor of that type")
        sized = None in t.dims  # the list of its extents comes first: `::uninit([n, m])`
        if len(e.args) - sized != TAKES.get(e.ctor, -1):  # check-tensor-constructors refused
            raise AssertionError(f"`::{e.ctor}` with {len(e.args)} argument(s) reached "
                                 f"scalar inference")
        if sized:
            self.extents_list(e.args[0], t)
        for a in e.args[sized:]:
            unify(self.expr(a), t.elem, a)
        return t

    def extents_list(self, given, t):
        """A `?` tensor's extents, one integer type for all: an array literal native code
        reads element by element."""
        for d, x in zip(t.dims, given.elems):
            if x._prod == "Cast" and x.type._prod == "Scalar" and x.type.name == "i64":
                # a number past i32, which alone would be an i32 (erase-variable-extents)
                x = x.value
            if d is not None and (x._prod != "Int" or x.value != d):
                raise Mismatch(x, f"an extent other than the {d} its tensor's type says")
        extent = find(self.expr(given)).elem
        unify(extent, Var("int"), given)

    @EXPRESSIONS.on("Transfer")
    def _transfer(self, e):
        t = self.expr(e.value)
        if isinstance(find(t), (Ref, Ptr)):
            what = "a reference" if isinstance(find(t), Ref) else "a raw pointer"
            raise Mismatch(e, f"a transfer of {what}")
        return t

    @EXPRESSIONS.on("Borrow")
    def _borrow(self, e):
        """`&x` of a variable (its cell's address), `&t[i]` of an element (the element's
        place in the buffer), `&*p` (p again), `&t` of a tensor (t)."""
        value = e.value
        inner = self.expr(value)
        if isinstance(find(inner), Tensor):
            return self.note(e, inner)
        if value._prod == "Local":
            found = find(inner)
            if isinstance(found, Var) and found.kind == "any":
                # A closure's parameter, which the calls after it type: its cell's address,
                # once they make it a scalar.
                self.judge(e, _referenced, inner)
                return self.note(e, Ref(inner, e.mutable))
            return self.note(e, reference_to(inner, e.mutable, e))
        if value._prod == "Deref":
            ref = find(self.expr(value.value))
            if isinstance(ref, Ptr):
                raise Mismatch(e, "a reference to what a raw pointer points at")
            return self.note(e, Ref(ref.target, e.mutable, ref.held))
        if value._prod == "Index":  # in native code, a view of the element in the buffer
            base = value.base
            while base._prod == "Index":
                base = base.base
            held = find(self.expr(base))
            if isinstance(held, Ptr):
                raise Mismatch(e, "a reference to what a raw pointer points at")
            if narrow_of(held) is not None:  # a place of a byte read as its value type
                return self.note(e, Ref(inner, e.mutable, narrow_of(held)))
            return self.note(e, reference_to(inner, e.mutable, e))
        raise Mismatch(e, "a reference to a temporary value")

    @EXPRESSIONS.on("Deref")
    def _deref(self, e):
        ref = find(self.expr(e.value))
        if isinstance(ref, Tensor):
            return self.note(e, ref)
        if isinstance(ref, Ref):
            return self.note(e, ref.target)
        if isinstance(ref, Ptr):
            self.through_pointers.add(id(e))
            return self.note(e, ref.elem)
        raise Mismatch(e, f"a dereference of {show(ref)}")

    @EXPRESSIONS.on("AsPtr")
    def _as_ptr(self, e):
        """`t.as_ptr()`: a pointer into t, which native code holds as t's buffer seen as
        one dimension, whose element i is the pointer's `p[i]`: t itself when it is of rank
        1 and static extent and every pointer it meets is into as many elements, else t
        flattened to one `?` extent (erase-raw-pointers)."""
        t = find(self.expr(e.value))
        if not isinstance(t, Tensor):
            raise Mismatch(e, f"a pointer into {show(t)}")
        size = Var("size")
        size.value = t.dims[0] if len(t.dims) == 1 and t.dims[0] is not None else DYNAMIC
        return self.note(e, Ptr(t.elem, size, e.mutable, narrow_of(t) or ""))

    @EXPRESSIONS.on("Flatten")
    def _flatten(self, e):
        """A tensor seen as one dimension of `?` extent (a raw pointer into it, Lsafe on):
        its type as written, of that one extent, says what its elements are stored as."""
        t = find(self.expr(e.value))
        if not isinstance(t, Tensor):
            raise Mismatch(e, f"a pointer into {show(t)}")
        node = t.node
        while node is not None and node._prod in TYPE_WRAPPERS:
            node = node.inner
        if node is not None:
            node = node.replace(dims=(Lsafe["DimAny"](span=e.span),))
        return self.note(e, Tensor(t.elem, (None,), node))

    @EXPRESSIONS.on("Unsafe")
    def _unsafe(self, e):
        if e.body.stmts and id(e) not in self.placed:  # they have nowhere to go
            raise Mismatch(e, UNLOWERED["Unsafe"])
        t = Var("any")
        self.block(e.body, t)
        return "void" if e.body.value is None else t

    @EXPRESSIONS.on("Launch")
    def _launch(self, e):
        for arg in e.args:
            self.expr(arg)
        self.topo(e.topo)
        if e.kernel in self.sigs.fns:
            return self.call(e, self.sigs.params(e.kernel), self.sigs.ret(e.kernel),
                             outside=True)
        raise Mismatch(e, f"a launch of '{e.kernel}', which is not a function")

    @EXPRESSIONS.on("TakePin")
    def _take_pin(self, e):
        return "bool"

    @EXPRESSIONS.on("PinnedTo")
    def _pinned_to(self, e):
        self.topo(e.topo)
        return self.note(e, self.expr(e.value))

