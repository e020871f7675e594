"""Expressions at compile time, compiled once to closures `f(frame) -> value`, one method per
production registered in EXPRESSIONS, over the trees of Lresolved and the ILs after it up to
Ltyped, as the interpreter compiles them (a loop body is compiled once and run on every
iteration). `hint` is the scalar type the context fixes, as in the interpreter, so a literal
under `let x: u8 = ..` is a u8 here as it is at run time.

Compiling never fails: what has no compile-time value compiles to a closure that says so
when it runs, since code on a path not taken may hold anything.
"""

from __future__ import annotations

from ..languages import Lresolved, Ltyped
from ..languages.lresolved import display_name
from ..nanopass import Handlers, lineage
from ..values.literals import PLACE, literal, negated_literal, scalar_hint
from ..values.math import MATH
from ..values.numbers import describe, to_index, unplace
from ..values.places import CPU_DRAM, NONE_TOPO, MemValue, SomeTopo, Topo
from ..values.tensors import Tensor, array_of, make_tensor, tensor_of
from .arithmetic import Literal
from .errors import cannot_finish, depends, out_of_range
from .values import PRINT, Closure, Function, Math, Unknown, runtime

# monomorphize folds on Lerased; fold-comptime-lambdas and desugar-comptime on Ltyped.
FOLDED = lineage(Ltyped, Lresolved)
EXPRESSIONS = Handlers("the compile-time evaluator's expressions", FOLDED, "Expr")

# Operations that exist only while the program runs on its devices.
_RUN_TIME_ONLY = {
    "Transfer": "a `transfer` moves data between memory spaces only when the program runs",
    "Spawn": "`spawn on` runs a block on a device only when the program runs",
    "Grad": "`grad` is not evaluated while compiling",
    "Vjp": "`vjp` is not evaluated while compiling",
    "Jvp": "`jvp` is not evaluated while compiling",
    "FieldGet": "struct fields have no compile-time values",
    "Match": "a `match` on `try_pin` depends on which units are free when the program runs",
    "Unsafe": "an `unsafe` block runs only when the program runs: what it reads through raw "
              "pointers is memory the compiler does not follow",
    "AsPtr": "a raw pointer is an address, known only when the program runs",
}


# Values the evaluator does not compute (yet): numbers, bools, text and tensors it does.
_NOT_COMPUTED = {
    "StructLit": "a struct value", "Tuple": "a tuple", "TupleGet": "a tuple's element",
    "EnumValue": "an enum value", "MatchValue": "a `match`", "VecLit": "a vector",
    "Splat": "a vector", "Borrow": "a reference", "Deref": "a reference",
}


# The operators whose value is always a bool or an unknown.
_BOOLEAN = frozenset({"==", "!=", "<", "<=", ">", ">=", "&&", "||"})
_LITERALS = frozenset({"Int", "Float", "Bool", "Str"})  # their closures read no frame


def refuse(span, detail: str):
    """The closure of code that cannot run while compiling: an error if it ever runs."""
    def refused(frame):
        cannot_finish(span, detail)
    return refused


def constant(v):
    return lambda frame: v


class ExprMixin:
    expressions = EXPRESSIONS

    def expr(self, node, hint=None):
        method = self.expressions.get(node._prod)
        if method is None:  # nothing without a handler has a compile-time value
            what = _NOT_COMPUTED.get(node._prod, node._prod)
            return refuse(node.span, f"it holds {what}, which the compile-time evaluator "
                                     f"does not compute (it computes numbers, bools, strings "
                                     f"and tensors)")
        return method(self, node, hint)

    @EXPRESSIONS.on(*_RUN_TIME_ONLY)
    def x_run_time_only(self, node, hint):
        return refuse(node.span, _RUN_TIME_ONLY[node._prod])

    # -- literals and names ----------------------------------------------------------------

    @EXPRESSIONS.on("Int", "Float")
    def x_Int(self, node, hint):
        if hint == PLACE:  # the type of the place being assigned, as it runs
            value, span = node.value, node.span
            return lambda frame: literal(value, self.place_type, span)
        return constant(node.value if hint is None else literal(node.value, hint, node.span))

    @EXPRESSIONS.on("Bool", "Str")
    def x_Bool(self, node, hint):
        return constant(node.value)

    @EXPRESSIONS.on("Local")
    def x_Local(self, node, hint):
        name = node.name
        outside = runtime(display_name(name))  # declared outside the block: known at run time

        def local(frame):
            try:
                return frame.vars[name]
            except KeyError:  # a closure's captured variable, or one outside the block
                held = frame.holder(name)
                return held[name] if held is not None else outside
        return local

    @EXPRESSIONS.on("Global")
    def x_Global(self, node, hint):
        name, span = node.name, node.span
        function = Function(self.functions[name]) if name in self.functions else None

        def glob(frame):
            if function is not None:
                return function
            if name in self.consts:
                return self.const(name, span)
            if name == "print":
                return PRINT
            if name in MATH:
                return Math(name)
            cannot_finish(span, f"`{name}` has no compile-time value")
        return glob

    # -- operators -------------------------------------------------------------------------

    @EXPRESSIONS.on("Binary")
    def x_Binary(self, node, hint):
        op = node.op
        if op in ("&&", "||"):
            return self.logic(node)
        operand_hint = hint if op in ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>") \
            else None
        left = self.expr(node.left, operand_hint)
        # A shift's amount has a type of its own: the context types only what is shifted.
        right_hint = None if op in ("<<", ">>") else operand_hint
        return self.operation(op, node.span, left, self.operand(node.right, right_hint))

    def operand(self, node, hint=None):
        """A right operand: its closure, or the value of a literal (arithmetic.Literal)."""
        closure = self.expr(node, hint)
        if node._prod in _LITERALS and hint != PLACE:
            return Literal(closure(None))
        return closure

    def logic(self, node):
        left, right = self.condition(node.left), self.condition(node.right)
        decided = node.op == "||"  # the left value that decides without the right

        def logic(frame):
            a = left(frame)
            if a is decided:
                return a
            if type(a) is Unknown:  # the right side runs only for some run-time values
                b = self.maybe(a.why, lambda: right(frame))
                return b if b is decided else a
            return right(frame)
        return logic

    def condition(self, node):
        """An expression that must be a bool (or unknown): `f(frame) -> bool | Unknown`."""
        value, truth, span = self.expr(node), self.truth, node.span
        if node._prod == "Binary" and node.op in _BOOLEAN:
            return value  # a comparison or `&&`, `||` gives nothing else

        def cond(frame):
            c = value(frame)
            return c if type(c) is bool else truth(c, span)
        return cond

    def truth(self, v, span):
        v = unplace(v)
        if type(v) is bool or type(v) is Unknown:
            return v
        cannot_finish(span, f"a condition must be a bool, found {describe(v)}")

    @EXPRESSIONS.on("Unary")
    def x_Unary(self, node, hint):
        span = node.span
        if node.op == "-":
            if node.operand._prod == "Int":
                v = negated_literal(node.operand.value, hint, span)
                if v is not None:
                    return constant(v)
            operand, negative = self.expr(node.operand, hint), self.negative
            return lambda frame: negative(operand(frame), span)
        operand, bit_not = self.expr(node.operand), self.bit_not
        return lambda frame: bit_not(operand(frame), span)

    @EXPRESSIONS.on("Cast")
    def x_Cast(self, node, hint):
        if node.type._prod != "Scalar":
            return refuse(node.span, f"a cast to {node.type._prod} has no compile-time value")
        value, name, span = self.expr(node.value), node.type.name, node.span
        converted = self.converted
        return lambda frame: converted(value(frame), name, span)

    # -- calls and closures ----------------------------------------------------------------

    @EXPRESSIONS.on("Call")
    def x_Call(self, node, hint):
        callee, span = node.callee, node.span
        hints = ()
        direct = callee._prod == "Global" and callee.name in self.functions
        if direct:
            # A direct call: its parameter types type the literals, as in the interpreter.
            hints = [scalar_hint(p.type) for p in self.functions[callee.name].params]
        fn = self.expr(callee)
        args = [self.expr(a, hints[i] if i < len(hints) else None)
                for i, a in enumerate(node.args)]
        call = self.call
        if not direct:
            def calling(frame):
                return call(fn(frame), [a(frame) for a in args], span)
            return calling
        # The function a direct call calls is known now (x_Global), and one argument is
        # the commonest call a recursion makes: each call of it runs two closures fewer.
        function = fn(None)
        if len(args) == 1:
            arg = args[0]

            def calling_one(frame):
                return call(function, [arg(frame)], span)
            return calling_one

        def calling_direct(frame):
            return call(function, [a(frame) for a in args], span)
        return calling_direct

    @EXPRESSIONS.on("Closure")
    def x_Closure(self, node, hint):
        return lambda frame: Closure(node, frame)

    @EXPRESSIONS.on("Comptime")
    def x_Comptime(self, node, hint):
        # Reached inside a function called while compiling, or a comptime lambda's body:
        # the evaluator already runs at compile time, so the block is just a block.
        return self.value_block(node.body, hint)

    @EXPRESSIONS.on("IfExpr")
    def x_IfExpr(self, node, hint):
        cond, span = self.condition(node.cond), node.span
        then, orelse = self.value_block(node.then, hint), self.value_block(node.orelse, hint)

        def if_(frame):
            c = cond(frame)
            if type(c) is Unknown:
                depends(span, c.why, what="which branch of this `if` gives its value")
            return then(frame) if c else orelse(frame)
        return if_

    @EXPRESSIONS.on("MethodCall")
    def x_MethodCall(self, node, hint):
        if node.method == "topology" and not node.args:
            return self.placement_query(node)
        return refuse(node.span, f"the method `.{node.method}()` has no compile-time value")

    # -- tensors ---------------------------------------------------------------------------

    @EXPRESSIONS.on("TensorNew")
    def x_TensorNew(self, node, hint):
        ty, span, ctor = node.type, node.span, node.ctor
        if ty._prod != "TensorType" or ty.elem._prod != "Scalar":
            return refuse(span, "a tensor whose element type is not a scalar")
        elem = ty.elem.name
        dims = [self.dim(d) for d in ty.dims]
        args = [self.expr(a, elem) for a in node.args]
        space = ty.place.name if ty.place is not None and ty.place._prod == "MemRef" \
            else CPU_DRAM

        def tensor(frame):
            extents, values = [d(frame) for d in dims], [a(frame) for a in args]
            for v in (*extents, *values):
                if type(v) is Unknown:
                    return v
            # Lazy storage, as in the interpreter: a huge extent allocates nothing until
            # written.
            return self.guarded(make_tensor, elem, extents, ctor, values, space, span)
        return tensor

    @EXPRESSIONS.on("ArrayLit")
    def x_ArrayLit(self, node, hint):
        elems, span = [self.expr(e) for e in node.elems], node.span

        def array(frame):
            values = [unplace(e(frame)) for e in elems]
            unknown = next((v for v in values if type(v) is Unknown), None)
            if unknown is not None:
                return unknown
            return self.guarded(array_of, values, CPU_DRAM, span)
        return array

    @EXPRESSIONS.on("TensorLit")
    def x_TensorLit(self, node, hint):
        ty, span = node.type, node.span
        elem = ty.elem.name
        dims, elems = [self.dim(d) for d in ty.dims], [self.expr(e, elem) for e in node.elems]

        def literal(frame):
            extents, values = [d(frame) for d in dims], [e(frame) for e in elems]
            unknown = next((v for v in (*extents, *values) if type(v) is Unknown), None)
            if unknown is not None:
                return unknown
            return self.guarded(tensor_of, elem, extents, values, CPU_DRAM, span)
        return literal

    def dim(self, d):
        """An extent (`4`, `N`, `N*2` with N a const item; monomorphize replaced the const
        generics): `f(frame) ->` a Python int, or an unknown."""
        kind = d._prod
        if kind == "DimInt":
            return constant(d.value)
        if kind == "DimName":
            name, span, guarded = d.name, d.span, self.guarded

            def extent(frame):
                v = self.const(name, span) if name in self.consts \
                    else runtime(display_name(name))
                return v if type(v) is Unknown else guarded(to_index, v, span)
            return extent
        return self.operation(d.op, d.span, self.dim(d.left), self.dim(d.right))

    @EXPRESSIONS.on("Index")
    def x_Index(self, node, hint):
        indexed, span, guarded = self.indexed(node), node.span, self.guarded

        def index(frame):
            base, indices = indexed(frame)
            if type(base) is Unknown:
                return base
            for i in indices:
                if type(i) is Unknown:
                    return i
            where = self.located(base, indices, span)
            if type(where) is not int:
                return where
            tainted = self.tainted.get(id(base.store))
            if tainted is not None:
                return Unknown(tainted[1])
            return guarded(base.read, where, span)
        return index

    def located(self, tensor, indices, span):
        """The flat offset of `tensor[indices]`, or the row they select. An index outside
        its extent is E8003 where the indexing always runs, else a check the compiler
        cannot show to pass (E3033)."""
        for axis, (i, n) in enumerate(zip(indices, tensor.dims)):
            if not 0 <= i < n:
                if self.conditions:
                    self.check_fails(span, f"index {i} is outside extent {n}")
                out_of_range(span, i, tensor.dims, axis)
        return self.guarded(tensor.locate, indices, span)

    def indexed(self, node):
        """`t[i][j]`: `f(frame) ->` the tensor (or an unknown) and the indices, outermost
        first."""
        indices = []
        while node._prod == "Index":
            indices.append(self.expr(node.index))
            node = node.base
        indices.reverse()
        base, span, guarded = self.expr(node), node.span, self.guarded

        def indexed(frame):
            t = base(frame)
            values = [i(frame) for i in indices]
            values = [v if type(v) is Unknown else guarded(to_index, v, span) for v in values]
            if type(t) is not Tensor and type(t) is not Unknown:
                cannot_finish(span, f"cannot index a value of type {describe(t)}")
            return t, values
        return indexed

    # -- places ----------------------------------------------------------------------------

    @EXPRESSIONS.on("TopoRef")
    def x_TopoRef(self, node, hint):
        name, guarded = node.name, self.guarded
        bounds = [(self.expr(e), e.span) if e is not None else None
                  for e in (node.index, node.end)]

        def topo(frame):
            values = []
            for bound in bounds:
                v = bound[0](frame) if bound is not None else None
                if type(v) is Unknown:
                    return v
                values.append(guarded(to_index, v, bound[1]) if bound is not None else None)
            return Topo(name, *values)
        return topo

    @EXPRESSIONS.on("SomeTopo")
    def x_SomeTopo(self, node, hint):
        topo = self.expr(node.topo)

        def some(frame):
            t = topo(frame)
            return t if type(t) is Unknown else SomeTopo(t)
        return some

    @EXPRESSIONS.on("NoneTopo")
    def x_NoneTopo(self, node, hint):
        return constant(NONE_TOPO)

    @EXPRESSIONS.on("MemRef")
    def x_MemRef(self, node, hint):
        return constant(MemValue(node.name))

    @EXPRESSIONS.on("ReachableQ")
    def x_ReachableQ(self, node, hint):
        return lambda frame: self.reachable(node)
