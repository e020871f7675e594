"""Compiling expressions to closures `f(frame) -> value`.

Each production of the Expr nonterminal of any IL in the chain has a method registered in
EXPRESSIONS; a production only some ILs have (Var before resolve-names, Local and Global
after) is handled per its meaning, so one compiler serves every IL. `hint` is the scalar type
the context fixes (a typed `let`, a parameter, a return; a tuple of them for a tuple type;
PLACE for the place an assignment writes, known as it runs), which an integer or float
literal under it takes.
"""

from __future__ import annotations

import operator

from ..dump.text import to_text
from ..languages.lblocks import Lblocks
from ..languages.lcalls import Lcalls
from ..languages.lresolved import display_name
from ..nanopass import Handlers, lineage
from ..values.literals import (
    PLACE, Applied, Held, applied_hint, held_type, literal, literal_hint, of_literals,
    run_placed,
)
from ..values.numbers import (
    I32_HI, I32_LO, INT_TYPES, SHIFTS, Placed, TFloat, TInt, arith, cast, comparable, describe,
    logical_not, negate, to_index, unplace,
)
from ..values.control import Return
from ..values.places import NONE_TOPO, CPU_DRAM, MemValue, Placement, SomeTopo, same
from ..values.stops import stop, wrong_kind
from ..languages.tensor_calls import meaning
from ..values.sizes import type_bytes
from ..values.structs import EnumValue, StructValue
from ..values.tensors import Tensor, array_of, make_tensor, tensor_of
from ..values.vectors import Vector
from .derivatives import derivative
from .functions import ClosureValue, TypeGiven, compile_code, type_slot
from .references import Part, Pointer, Ref, Row, as_ref, referent
from .scope import Escape, Moved, frame_getter, lent_place, move, reader

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
_TYPED_BY_CONTEXT = frozenset("+ - * / % & | ^ << >>".split())
_BITS = frozenset("& | ^ << >>".split())
# Lmlir is not among them: its modules run in ssa.py.
INTERPRETED = lineage(Lblocks)
# Lcalls' calls run here too, as the calls they say what they call of.
EXPRESSIONS = Handlers("the interpreter's expressions", (*INTERPRETED, Lcalls), "Expr")
_PATTERNS = Handlers("the interpreter's patterns", INTERPRETED, "Pattern")
_METHOD_DEST = {"to_device": "NPU_HBM", "to_device_relaxed": "NPU_HBM",
                "to_gpu": "GPU_HBM", "to_gpu_relaxed": "GPU_HBM"}


def _gives_literals(e) -> bool:
    """Whether e is of unsuffixed literals alone, or an `if` or a `match` each of whose arms
    gives such a value and does nothing else (`if c { 1 << 40 } else { 0 }`), whose literals
    the context types as it types the arms'."""
    if e._prod == "IfExpr":
        return all(not b.stmts and b.value is not None and _gives_literals(b.value)
                   for b in (e.then, e.orelse))
    if e._prod == "MatchValue":
        return all(not c.body.stmts and c.body.value is not None
                   and _gives_literals(c.body.value) for c in e.cases)
    return of_literals(e)


def _quiet(e) -> bool:
    return e._prod in ("Var", "Local", "Int", "Float", "Bool")


def _plain_int_literal(node, hint):
    """The value of an integer literal that stays a plain (i32 or untyped) int, else None."""
    if node._prod != "Int" or hint in INT_TYPES and hint != "i32":
        return None
    if "type" in node._fields and node.type != hint:
        return None  # a literal typed apart from its operator: its conversion stops the run
    return node.value if I32_LO <= node.value <= I32_HI else None


def _yields(node):
    """The scalar type an expression of Lscalars yields by construction (a literal, an
    arithmetic operator, a cast to a scalar), or None when only running it tells."""
    kind = node._prod
    if kind in ("Int", "Float", "Unary"):
        return node.type
    if kind == "Binary" and node.op in ("+", "-", "*", "/", "%"):
        return node.type
    if kind == "Cast" and node.type._prod == "Scalar":
        return node.type.name
    return None


def _compared(op, a, b, span):
    """`a op b` of a comparison, its operands of any kinds the language compares."""
    if op in ("==", "!="):
        eq = same(unplace(a), unplace(b))
        if eq is not None:
            return eq if op == "==" else not eq
    x, y = comparable(op, a, b, span)
    return _COMPARE[op](x, y)


class ExprMixin:
    expressions = EXPRESSIONS

    def expr(self, node, sc, hint=None):
        method = self.expressions.get(node._prod)
        if method is None:
            return self.unsupported(node, f"the expression {node._prod}")
        return method(self, node, sc, hint)

    def unsupported(self, node, what):
        span = node.span

        def refuse(f):
            stop("E9006", span, f"the reference interpreter does not run {what} yet")
        return refuse

    # -- literals and names ----------------------------------------------------------------

    @EXPRESSIONS.on("Int", "Float")
    def x_Int(self, node, sc, hint):
        if "type" in node._fields:  # Lscalars on: the type the compiler decided
            hint = node.type
        elif hint == PLACE:  # the type of the place being assigned, as it runs
            value, span = node.value, node.span
            return lambda f: literal(value, self.place_type, span)
        v = literal(node.value, hint, node.span)
        return lambda f: v

    @EXPRESSIONS.on("Suffixed")
    def x_Suffixed(self, node, sc, hint):
        """`0i64`: the literal as a value of its written type (`10f32` is a float)."""
        value = node.value.value
        if node.suffix in ("f16", "bf16", "f32", "f64"):
            value = float(value)
        v = literal(value, node.suffix, node.span)
        return lambda f: v

    @EXPRESSIONS.on("Bool")
    def x_Bool(self, node, sc, hint):
        v = node.value
        return lambda f: v

    @EXPRESSIONS.on("Str")
    def x_Str(self, node, sc, hint):
        v = node.value
        return lambda f: v

    # A const generic may resolve to a Local or a Global; locals are looked up first.
    @EXPRESSIONS.on("Var", "Local", "Global")
    def x_Var(self, node, sc, hint):
        bound = sc.bound_state(node.name)
        if bound is not None:
            return self.state_of_parts(bound, sc, node.span)
        return self.name_value(node.name, sc, node.span)

    @EXPRESSIONS.on("ConstPart")
    def x_ConstPart(self, node, sc, hint):
        constant, fill, part, span = node.constant, node.fill, node.part, node.span
        computed = self.const_parts

        def read(f):
            if constant not in computed:
                computed[constant] = None
                fn = self.functions[fill]
                parts = [self.flags_given(p.type, span) for p in fn.node.params]
                self.depth -= 1  # the value is computed where it is read: no call deeper
                given = fn.call([Ref(parts, k, True) if v is None else v
                                 for k, v in enumerate(parts)], (), span)
                self.depth += 1
                computed[constant] = (parts, given)
            if computed[constant] is None:
                # A part computed apart (split-computed-constants' `C$b`) is the constant
                # C's own: only C's computation reads it again before it is computed.
                wrong_kind(span, f"the constant '{constant.partition('$')[0]}' depends on "
                           "itself")
            parts, given = computed[constant]
            # A tensor part, the last, is what fill returns (the part of its written-flags
            # before it is fill's parameter once track-uninit-elements gives it one).
            return parts[part] if part < len(parts) else given
        return read

    def flags_given(self, ty, span):
        """What a constant's function is given for a part of a parameter of type ty: nothing
        yet (None) for a reference it writes the part through; for a tensor, the written-
        flags of a tensor constant flag-uninit-constants keeps, which it writes, new ones."""
        if ty._prod != "TensorType":
            return None
        return make_tensor(ty.elem.name, [d.value for d in ty.dims], "new", [],
                           self.place_space(ty.place), span)

    def name_value(self, name, sc, span):
        loc = sc.lookup(name)
        if loc is not None:
            return reader(loc[0], loc[1], span)
        param, _, fn = name.partition("::")
        if fn and sc.lookup(type_slot(param)) is not None:
            return self.through_parameter(param, fn, sc, span)
        return self.global_value(name, span)

    def through_parameter(self, param, fn, sc, span):
        """`T::area` in a generic function: the function `area` of the struct or enum the
        call bound T to (monomorphize names it so in each instance)."""
        read = self.name_value(type_slot(param), sc, span)

        def function(f):
            given = read(f)
            owner = given.owner if given is not None else None
            target = self.functions.get(f"{owner}::{fn}") if owner is not None else None
            if target is None:
                stop("E9006", span, f"'{param}::{fn}' names no function: '{param}' is "
                                    f"{owner or 'no struct or enum'} in this call")
            return target
        return function

    # -- operators -------------------------------------------------------------------------

    @EXPRESSIONS.on("Binary")
    def x_Binary(self, node, sc, hint):
        op, span = node.op, node.span
        if op in ("&&", "||"):
            return self._logic(node, sc)
        # A shift's amount has a type of its own: the operator's type is what is shifted.
        if "type" in node._fields:  # Lscalars on: computed at the operand type decided
            operand_hint = node.type
            left = self.typed_operand(node.left, sc, operand_hint)
            right = self.expr(node.right, sc) if op in SHIFTS else \
                self.typed_operand(node.right, sc, operand_hint)
        else:
            operand_hint = hint if op in _TYPED_BY_CONTEXT else None
            if operand_hint is None and op not in SHIFTS:
                typed = self._typed_by_the_other(node, sc)
                if typed is not None:
                    return typed
            left = self.expr(node.left, sc, operand_hint)
            right = self.expr(node.right, sc, None if op in SHIFTS else operand_hint)
        if op in _BITS:
            def bits(f):
                return arith(op, left(f), right(f), span)
            return bits
        c = _plain_int_literal(node.right, operand_hint)
        if op in _ARITH:
            fn = _ARITH[op]
            if c is not None:  # `i + 1`: the commonest shape, without a call for the 1
                def arithmetic_const(f):
                    a = left(f)
                    if type(a) is int:
                        r = fn(a, c)
                        if -2147483648 <= r <= 2147483647:
                            return r
                    return arith(op, a, c, span)
                return arithmetic_const

            def arithmetic(f):
                a, b = left(f), right(f)
                if type(a) is int and type(b) is int:
                    r = fn(a, b)
                    if -2147483648 <= r <= 2147483647:
                        return r
                elif type(a) is float and type(b) is float:
                    return fn(a, b)
                return arith(op, a, b, span)
            return arithmetic
        if op in ("/", "%"):
            fn = operator.floordiv if op == "/" else operator.mod
            if c is not None and c > 0:
                def divide_const(f):
                    a = left(f)
                    if type(a) is int and 0 <= a <= 2147483647:
                        return fn(a, c)
                    return arith(op, a, c, span)
                return divide_const

            def divide(f):
                a, b = left(f), right(f)
                # Non-negative i32 operands: floor and truncation agree, no stop is possible.
                if type(a) is int and type(b) is int and 0 <= a <= 2147483647 and b > 0:
                    return fn(a, b)
                return arith(op, a, b, span)
            return divide
        fn = _COMPARE[op]
        if c is not None:
            def compare_const(f):
                a = left(f)
                if type(a) is int:
                    return fn(a, c)
                return generic(a, c)

        def compare(f):
            a, b = left(f), right(f)
            if (type(a) is int and type(b) is int) or (type(a) is float and type(b) is float):
                return fn(a, b)
            return generic(a, b)

        def generic(a, b):
            return _compared(op, a, b, span)
        return compare_const if c is not None else compare

    def _typed_by_the_other(self, node, sc):
        """An operator one operand of which is an operator over unsuffixed literals alone and
        the other not, `(1 << 40) + x` of an i64 x, run with the literals of the one in the
        type the other's value holds, as a typed place types them (1099511627779, not the
        i32 shift's 259); None for any other. The other is computed first, to know its
        type: the literals compute nothing seen, unless they stop (`(1 / 0) + f()` calls f
        first), which native code, typing them before it runs, does first."""
        op, span = node.op, node.span
        on_left = _gives_literals(node.left) and not _gives_literals(node.right)
        literals, other = (node.left, node.right) if on_left else (node.right, node.left)
        if literals._prod in ("IfExpr", "MatchValue"):
            if not _gives_literals(literals):
                return None
            tested = literals.cond if literals._prod == "IfExpr" else literals.scrutinee
            if on_left and not (_quiet(other) or _quiet(tested)):
                return self._arm_typed_by_the_other(node, sc)
        elif not (literals._prod in ("Binary", "Unary") and of_literals(literals)):
            return None
        typed, first = self.expr(literals, sc, PLACE), self.expr(other, sc)

        def operands(f):
            b = first(f)
            a = run_placed(self, typed, f, held_type(b))
            return (a, b) if on_left else (b, a)
        return self._operated(op, operands, span)

    def _arm_typed_by_the_other(self, node, sc):
        """`(if f() { 1 << 40 } else { 0 }) + g()`, or a `match f() { .. }`: f, then g, then
        the arm f chose, its literals of the type g's value holds."""
        choose, first = self._chooser(node.left, sc, PLACE), self.expr(node.right, sc)

        def operands(f):
            arm = choose(f)
            b = first(f)
            return run_placed(self, arm, f, held_type(b)), b
        return self._operated(node.op, operands, node.span)

    def _chooser(self, e, sc, hint):
        """`choose(frame) ->` the arm of the `if` or `match` e its condition or scrutinee
        picks, its literals of the type `hint` fixes."""
        if e._prod == "IfExpr":
            cond, truth = self.expr(e.cond, sc), self.truth
            then, orelse = self.expr_block(e.then, sc, hint), self.expr_block(e.orelse, sc, hint)

            def choose_arm(f):
                c = cond(f)
                return then if c is True or (c is not False and truth(c, e.span)) else orelse
            return choose_arm
        scrutinee, cases = self.expr(e.scrutinee, sc), []
        for case in e.cases:
            sc.push()
            cases.append((self.pattern(case.pattern, sc), self.expr_block(case.body, sc, hint)))
            sc.pop()

        def choose_case(f):
            v = unplace(referent(scrutinee(f), e.span))  # `match r` of a reference: its value
            for test, body in cases:
                if test(v, f):
                    return body
            stop("E9006", e.span, f"no case of this `match` matches this {describe(v)}")
        return choose_case

    @staticmethod
    def _operated(op, operands, span):
        if op in _COMPARE:
            return lambda f: _compared(op, *operands(f), span)
        return lambda f: arith(op, *operands(f), span)

    def typed_operand(self, node, sc, name):
        """An operand of an operator whose operand type the compiler decided."""
        value = self.expr(node, sc, name)
        if _yields(node) == name:
            return value  # a value of that type by construction
        return self.conformed(value, name, node.span)

    def _logic(self, node, sc):
        left, right, op, span = self.expr(node.left, sc), self.expr(node.right, sc), node.op, node.span
        stop_at = op == "||"  # the left value that decides without evaluating the right

        def logic(f):
            a = self.truth(left(f), span)
            if a is stop_at:
                return a
            return self.truth(right(f), span)
        return logic

    @staticmethod
    def truth(v, span) -> bool:
        if type(v) is bool:
            return v
        v = unplace(v)
        if type(v) is not bool:
            wrong_kind(span, f"expected a bool, found {describe(v)}")
        return v

    @EXPRESSIONS.on("Unary")
    def x_Unary(self, node, sc, hint):
        span = node.span
        typed = "type" in node._fields  # Lscalars on: the operand's type decided
        if node.op == "-":
            operand = (self.typed_operand(node.operand, sc, node.type) if typed
                       else self.expr(node.operand, sc, hint))

            def neg(f):
                v = operand(f)
                if type(v) is int and -2147483647 <= v <= 2147483648:
                    return -v
                return negate(v, span)
            return neg
        operand = (self.typed_operand(node.operand, sc, node.type) if typed
                   else self.expr(node.operand, sc))
        return lambda f: logical_not(operand(f), span)

    # -- references ------------------------------------------------------------------------

    @EXPRESSIONS.on("Borrow")
    def x_Borrow(self, node, sc, hint):
        """`&x` names x's slot; `&t[i]` the element; `&*p` the place p names; `&mut p.x` and
        `&s.pair.0` the part of the aggregate in such a place (through a reference variable,
        of the place it names); anything else a temporary holding its value."""
        value, mutable, span = node.value, node.mutable, node.span
        kind = value._prod
        if kind in ("Var", "Local") and sc.lookup(value.name) is not None:
            depth, slot = sc.lookup(value.name)
            frame = frame_getter(depth)
            return lambda f: Ref(frame(f), slot, mutable)
        if kind in ("FieldGet", "TupleGet"):
            path, root = [], value
            while root._prod in ("FieldGet", "TupleGet"):
                path.append(root.field if root._prod == "FieldGet" else root.index)
                root = root.base
            path = tuple(reversed(path))
            if root._prod in ("Var", "Local") and sc.lookup(root.name) is not None:
                depth, slot = sc.lookup(root.name)
                frame = frame_getter(depth)

                def part(f):
                    fr = frame(f)
                    held = fr[slot]  # a reference variable: the part of the place it names
                    r = held if type(held) is Ref else Ref(fr, slot, mutable)
                    return Ref(Part(r, path, span), 0, mutable)
                return part
            if root._prod == "Deref":
                place = self.expr(root.value, sc)
                return lambda f: Ref(Part(as_ref(place(f), span), path, span), 0, mutable)
        if kind == "Index":
            base, indices = self.index_chain(value, sc)

            def element(f):
                t = referent(unplace(base(f)), span)
                if type(t) is not Tensor:
                    wrong_kind(span, f"cannot index a value of type {describe(t)}")
                where = t.locate([to_index(i(f), span) for i in indices], span)
                return Ref(t, where, mutable) if type(where) is int else \
                    Ref(Row(where, span), 0, mutable)
            return element
        if kind == "Deref":
            place = self.expr(value.value, sc)

            def reborrow(f):
                r = as_ref(place(f), span)
                return Ref(r.holder, r.key, mutable)
            return reborrow
        temporary = self.expr(value, sc, hint)
        return lambda f: Ref([temporary(f)], 0, mutable)

    @EXPRESSIONS.on("Deref")
    def x_Deref(self, node, sc, hint):
        ref, span = self.expr(node.value, sc), node.span
        return lambda f: as_ref(ref(f), span).get(span)

    @EXPRESSIONS.on("Cast")
    def x_Cast(self, node, sc, hint):
        if "source" in node._fields:  # Lscalars on: the value's type decided
            value = self.typed_operand(node.value, sc, node.source)
        else:
            value = self.expr(node.value, sc)
        span = node.span
        if node.type._prod != "Scalar":
            return self.unsupported(node, f"a cast to {node.type._prod}")
        name = node.type.name
        return lambda f: cast(value(f), name, span)

    # -- calls -----------------------------------------------------------------------------

    @EXPRESSIONS.on("Call")
    def x_Call(self, node, sc, hint):
        span = node.span
        callee = node.callee
        if callee._prod in ("Var", "Global") and callee.name == "sizeof" \
                and callee.name not in self.functions and sc.lookup("sizeof") is None:
            return self.size_of(node, sc)
        # From Lmono on a call has no generic arguments: its callee is an instance.
        targs = node.targs if "targs" in node._fields else ()
        fixed = None
        if callee._prod in ("Var", "Global", "Local") and sc.lookup(callee.name) is None:
            fixed = self.functions.get(callee.name)
        return self.call(self.expr(callee, sc), fixed, targs, node.args, sc, span)

    def call(self, fn, fixed, targs, args, sc, span):
        """Call what `fn` gives; `fixed`, the function a direct call names, types the literals
        passed to it by its parameters' types, with the generic arguments the call writes
        for its parameters (`px::<i64>(P { x: 3000000000, .. })` passes an i64)."""
        hints = ()
        if fixed is not None:
            bound = {g.name: literal_hint(a.type) for g, a in
                     zip(getattr(fixed.node, "generics", ()), targs)
                     if g._prod == "TypeParam" and a._prod == "TypeArg"}
            hints = [literal_hint(p.type, bound) for p in fixed.node.params]
        targs = [self.garg(a, sc) for a in targs]
        args = [self.expr(a, sc, hints[i] if i < len(hints) else None)
                for i, a in enumerate(args)]

        def call(f):
            target = fn(f)
            if not hasattr(target, "call"):
                wrong_kind(span, f"a value of type {describe(target)} is not a function")
            return target.call([a(f) for a in args], [t(f) for t in targs], span)
        return call

    @EXPRESSIONS.on("PathCall")
    def x_PathCall(self, node, sc, hint):
        """`A::b(..)` before resolve-type-paths: the function `b` of an impl of A, or else
        A's variant `b` with what it carries."""
        if sc.lookup(type_slot(node.type)) is not None:  # `T::area(x)`, T a parameter
            callee = self.through_parameter(node.type, node.fn, sc, node.span)
            return self.call(callee, None, node.targs + node.fargs, node.args, sc, node.span)
        owner = self.named_type(node.type, sc)
        fixed = self.functions.get(f"{owner}::{node.fn}")
        if fixed is None:
            args, variant = self.variant_args(owner, node.fn, node.args, sc), node.fn
            return lambda f: EnumValue(owner, variant, tuple(unplace(a(f)) for a in args))
        return self.call(lambda f: fixed, fixed, node.targs, node.args, sc, node.span)

    def size_of(self, node, sc):
        """`sizeof<T>()`: the bytes of a T, known from the type written or, for a type
        parameter, from what the call showed of it (monomorphize makes it a literal)."""
        span = node.span
        targs = node.targs if "targs" in node._fields else ()
        if len(targs) != 1 or node.args or targs[0]._prod != "TypeArg":
            wrong_kind(span, "`sizeof` takes one type and no argument: `sizeof<f32>()`")
        ty = targs[0].type
        if ty._prod == "NamedType" and sc.lookup(type_slot(ty.name)) is not None:
            read = self.name_value(type_slot(ty.name), sc, span)
        else:
            size = TypeGiven(type_bytes(ty), None)
            read = lambda f: size  # noqa: E731 - a constant

        def size_of(f):
            given = read(f)
            n = given.bytes if given is not None else None
            if n is None:
                wrong_kind(span, f"`sizeof<{to_text(ty).strip()}>()` has no size known here")
            return n
        return size_of

    def garg(self, node, sc):
        """A generic argument: an extent, a float or a bool for a const parameter, None for a type
        or a topology."""
        if node._prod == "DimArg":
            return self.dim(node.dim, sc)
        if node._prod == "TopoArg":
            return lambda f: None
        if node._prod in ("FloatArg", "BoolArg"):
            value = node.value
            return lambda f: value
        ty = node.type
        if ty._prod == "NamedType" and (sc.lookup(ty.name) is not None or ty.name in self.consts):
            return self.name_value(ty.name, sc, node.span)  # `f<N>(..)` with N a constant
        if ty._prod == "NamedType" and sc.lookup(type_slot(ty.name)) is not None:
            return self.name_value(type_slot(ty.name), sc, node.span)  # `f<T>` inside a generic
        owner = self.named_type(ty.name, sc) if ty._prod == "NamedType" else None
        given = TypeGiven(type_bytes(ty), owner)  # what a type parameter's slot holds
        return lambda f: given

    @EXPRESSIONS.on("Closure")
    def x_Closure(self, node, sc, hint):
        ret = node.ret if "ret" in node._fields else None  # Lscalars: its result type
        code = compile_code(self, "closure", (), node.params, ret, node.body, sc)
        return lambda f: ClosureValue(self, code, f)

    @EXPRESSIONS.on("Select")
    def x_Select(self, node, sc, hint):
        """An `if` value whose arms are plain values (Lblocks): the picked arm only."""
        cond, span, truth = self.expr(node.cond, sc), node.span, self.truth
        then, orelse = self.expr(node.then, sc, hint), self.expr(node.orelse, sc, hint)

        def select(f):
            c = cond(f)
            if c is True or (c is not False and truth(c, span)):
                return then(f)
            return orelse(f)
        return select

    @EXPRESSIONS.on("IfExpr")
    def x_IfExpr(self, node, sc, hint):
        choose = self._chooser(node, sc, hint)
        return lambda f: choose(f)(f)

    @EXPRESSIONS.on("MethodCall")
    def x_MethodCall(self, node, sc, hint):
        method, span = node.method, node.span
        if method in _METHOD_DEST:
            return self.transfer(node.receiver, _METHOD_DEST[method], sc, span)
        if method == "topology" and not node.args:
            receiver, holds = self.expr(node.receiver, sc), self.holds

            def topology(f):
                v = receiver(f)
                if type(v) is Tensor or type(v) is Placed:
                    return Placement(v.space, v.topo, holds)
                return Placement(CPU_DRAM, None, holds)  # an unmarked value lives on the host
            return topology
        if method == "try_pin":
            return self.try_pin(node, sc)
        if method == "extent" and len(node.args) == 1 and node.args[0]._prod == "Int":
            receiver, axis = self.expr(node.receiver, sc), node.args[0].value

            def extent(f):
                t = unplace(referent(receiver(f), span))  # `r.extent(0)` reads through r
                if type(t) is not Tensor or axis >= len(t.dims):
                    wrong_kind(span, f"`.extent({axis})` of {describe(t)}")
                return t.dims[axis]
            return extent
        return self.unsupported(node, f"the method .{method}()")

    # -- tensors ---------------------------------------------------------------------------

    @EXPRESSIONS.on("TensorNew")
    def x_TensorNew(self, node, sc, hint):
        ty, ctor, span, args = node.type, node.ctor, node.span, node.args
        if ty._prod != "TensorType" or ty.elem._prod != "Scalar":
            return self.unsupported(node, "a tensor whose element type is not a scalar")
        elem = ty.elem.name
        if any(d._prod == "DimAny" for d in ty.dims):  # the list of extents comes first
            dims = [self.extent(e, sc) for e in args[0].elems]
            args = args[1:]
        else:
            dims = [self.dim(d, sc) for d in ty.dims]
        args = [self.expr(a, sc, elem) for a in args]
        space = self.place_space(ty.place)
        return lambda f: make_tensor(elem, [d(f) for d in dims], ctor,
                                     [a(f) for a in args], space, span)

    def extent(self, node, sc):
        value, span = self.expr(node, sc), node.span
        return lambda f: to_index(value(f), span)

    @EXPRESSIONS.on("TensorCall")
    def x_TensorCall(self, node, sc, hint):
        """`Tensor<..>(..)` as written runs as what desugar-tensor-constructors makes it."""
        return self.expr(meaning(node), sc, hint)

    @EXPRESSIONS.on("TensorLit")
    def x_TensorLit(self, node, sc, hint):
        ty, span = node.type, node.span
        elem = ty.elem.name
        dims = [self.dim(d, sc) for d in ty.dims]
        elems = [self.expr(e, sc, elem) for e in node.elems]
        space = self.place_space(ty.place)
        return lambda f: tensor_of(elem, [d(f) for d in dims], [e(f) for e in elems], space,
                                   span)

    @EXPRESSIONS.on("Tuple")
    def x_Tuple(self, node, sc, hint):
        n = len(node.elems)
        if hint == PLACE:  # each element takes the type of the place's element
            elems = [self.expr(e, sc, PLACE) for e in node.elems]

            def placed_tuple(f):
                held = self.place_type
                types = held if type(held) is tuple and len(held) == n else (None,) * n
                return tuple(unplace(run_placed(self, e, f, t)) for e, t in zip(elems, types))
            return placed_tuple
        hints = hint if type(hint) is tuple and len(hint) == n else (None,) * n
        elems = [self.expr(e, sc, h) for e, h in zip(node.elems, hints)]
        return lambda f: tuple(unplace(e(f)) for e in elems)

    @EXPRESSIONS.on("TupleGet")
    def x_TupleGet(self, node, sc, hint):
        base, index, span = self.expr(node.base, sc), node.index, node.span

        def get(f):
            t = unplace(referent(base(f), span))  # `r.0` of a reference reads through it
            if type(t) is not tuple or index >= len(t):
                wrong_kind(span, f"`.{index}` of {describe(t)}")
            return t[index]
        return get

    @EXPRESSIONS.on("ArrayLit")
    def x_ArrayLit(self, node, sc, hint):
        # A typed context's element type reaches the elements (`let v: Tensor<f32, [2]> =
        # [0.1, 0.2]`), as a `let`'s scalar type reaches a scalar's literals.
        elem = hint if type(hint) is str and hint != PLACE else None
        elems, span = [self.expr(e, sc, elem) for e in node.elems], node.span

        return lambda f: array_of([unplace(e(f)) for e in elems], CPU_DRAM, span)

    @EXPRESSIONS.on("VecLit")
    def x_VecLit(self, node, sc, hint):
        elem, span = node.type.elem.name, node.span
        lanes = [self.expr(e, sc, elem) for e in node.elems]
        return lambda f: Vector.of([lane(f) for lane in lanes], elem, span)

    @EXPRESSIONS.on("Splat")
    def x_Splat(self, node, sc, hint):
        if node.type is None:  # decide-vector-splats gives each its type
            return self.unsupported(node, "a `splat` whose lanes are not decided")
        n, elem, span = node.type.lanes.value, node.type.elem.name, node.span
        value = self.expr(node.value, sc, elem)
        return lambda f: Vector.of([value(f)] * n, elem, span)

    @EXPRESSIONS.on("VecBinary")
    def x_VecBinary(self, node, sc, hint):
        left, right = self.expr(node.left, sc), self.expr(node.right, sc)
        op, span = node.op, node.span

        def lanewise(f):
            a = unplace(left(f))
            if type(a) is not Vector:
                wrong_kind(span, f"expected a vector, found {describe(a)}")
            return a.arith(op, a, right(f), span)
        return lanewise

    @EXPRESSIONS.on("Extent")
    def x_Extent(self, node, sc, hint):
        """`t.extent(i)` read as the program runs (Lscalars on), a number of its type."""
        tensor, axis, ty, span = self.expr(node.tensor, sc), node.axis, node.type, node.span

        def extent(f):
            t = unplace(tensor(f))
            if type(t) is not Tensor or axis >= len(t.dims):
                wrong_kind(span, f"`.extent({axis})` of {describe(t)}")
            return literal(t.dims[axis], ty, span)
        return extent

    @EXPRESSIONS.on("Lane")
    def x_Lane(self, node, sc, hint):
        vector, index, span = self.expr(node.vector, sc), self.expr(node.index, sc), node.span

        def lane(f):
            v = unplace(vector(f))
            if type(v) is not Vector:
                wrong_kind(span, f"cannot read a lane of a value of type {describe(v)}")
            return v.lane(index(f), span)
        return lane

    def place_space(self, place) -> str:
        if place is None:
            return CPU_DRAM
        if place._prod == "MemRef":
            return place.name
        return self.holds.get(place.name, CPU_DRAM)

    def index_chain(self, node, sc):
        """`t[i][j]`: the base closure and the index closures, outermost index first."""
        indices = []
        while node._prod == "Index":
            indices.append(self.expr(node.index, sc))
            node = node.base
        indices.reverse()
        return self.expr(node, sc), indices

    @EXPRESSIONS.on("Index")
    def x_Index(self, node, sc, hint):
        base, indices, span = *self.index_chain(node, sc), node.span

        def index(f):
            t = base(f)
            if type(t) is Placed:  # a pointer a spawn gave reads like the pointer
                t = t.value
            if type(t) is Pointer and len(indices) == 1:  # `p[i]`: i elements on
                return t.at(to_index(indices[0](f), span)).get(span)
            if type(t) is Ref:
                t = referent(t, span)
            if type(t) is Vector and len(indices) == 1:
                return t.lane(indices[0](f), span)
            if type(t) is not Tensor:
                wrong_kind(span, f"cannot index a value of type {describe(t)}")
            where = t.locate([to_index(i(f), span) for i in indices], span)
            return t.read(where, span) if type(where) is int else where
        return index

    @EXPRESSIONS.on("AllWritten")
    def x_AllWritten(self, node, sc, hint):
        """The argument it gives: the flags all set beside it are for native code's checks."""
        return self.expr(node.value, sc, hint)

    @EXPRESSIONS.on("ReadWritten")
    def x_ReadWritten(self, node, sc, hint):
        """The element, once the same element of the flags says it was written: the check
        native code makes, here beside the interpreter's own (the tensor is still made by
        `uninit()`), so that a flag a pass forgot to set shows as a difference."""
        base, indices = self.index_chain(node.element, sc)
        flags, span = self.expr(node.flags, sc), node.element.span

        def read(f):
            t, mask = referent(base(f), span), referent(flags(f), span)
            at = [to_index(i(f), span) for i in indices]
            where = t.locate(at, span)
            if not mask.read(mask.locate(at, span), span):
                t.unwritten(where, span)
            return t.read(where, span)
        return read

    @EXPRESSIONS.on("FieldGet")
    def x_FieldGet(self, node, sc, hint):
        base, name, span = self.expr(node.base, sc), node.field, node.span

        def get(f):
            v = unplace(referent(base(f), span))
            if type(v) is not StructValue or name not in v.fields:
                wrong_kind(span, f"{describe(v)} has no field `{name}`")
            return v.fields[name]
        return get

    @EXPRESSIONS.on("EnumValue")
    def x_EnumValue(self, node, sc, hint):
        # Until resolve-type-paths a variant that carries values is a PathCall.
        enum, variant = self.named_type(node.enum, sc), node.variant
        args = self.variant_args(enum, variant, getattr(node, "args", ()), sc)
        return lambda f: EnumValue(enum, variant, tuple(unplace(a(f)) for a in args))

    def variant_args(self, enum, variant, args, sc):
        """A variant's values; `E::Q(3000000000)` of an i64 value is an i64, as a struct
        literal's field is of its field's type."""
        hints = self.variant_fields.get((enum, variant), ())
        return [self.expr(a, sc, hints[k] if k < len(hints) else None)
                for k, a in enumerate(args)]

    @EXPRESSIONS.on("VariantIs")
    def x_VariantIs(self, node, sc, hint):
        base, enum, variant = self.expr(node.base, sc), node.enum, node.variant

        def test(f):
            v = unplace(referent(base(f), node.span))
            if type(v) is not EnumValue or v.enum != enum:
                wrong_kind(node.span, f"{describe(v)} is no {enum}")
            return v.variant == variant
        return test

    @EXPRESSIONS.on("VariantField")
    def x_VariantField(self, node, sc, hint):
        base, variant, index = self.expr(node.base, sc), node.variant, node.index

        def get(f):
            v = unplace(referent(base(f), node.span))
            if type(v) is not EnumValue or v.variant != variant or index >= len(v.args):
                wrong_kind(node.span, f"{describe(v)} carries no value {index} of {variant}")
            return v.args[index]
        return get

    @EXPRESSIONS.on("MatchValue")
    def x_MatchValue(self, node, sc, hint):
        choose = self._chooser(node, sc, hint)
        return lambda f: choose(f)(f)

    def pattern(self, p, sc):
        """`test(value, frame) -> bool` for pattern p; a name it binds is stored in its slot
        of the frame (declared in `sc`, the case's scope)."""
        return _PATTERNS[p._prod](self, p, sc)

    @_PATTERNS.on("PWild")
    def p_PWild(self, p, sc):
        return lambda v, f: True

    @_PATTERNS.on("PBind")
    def p_PBind(self, p, sc):
        slot = sc.declare(p.name)

        def bind(v, f):
            f[slot] = v
            return True
        return bind

    @_PATTERNS.on("PLit")
    def p_PLit(self, p, sc):
        lit = self.expr(p.value, sc)

        def equal(v, f):
            w = lit(f)
            return (type(v) is bool) == (type(w) is bool) and _plain(v) == _plain(w)
        return equal

    @_PATTERNS.on("POr")
    def p_POr(self, p, sc):
        alts = [self.pattern(a, sc) for a in p.alts]
        return lambda v, f: any(a(v, f) for a in alts)

    @_PATTERNS.on("PVariant")
    def p_PVariant(self, p, sc):
        enum, variant = self.named_type(p.enum, sc), p.variant
        args = [self.pattern(a, sc) for a in p.args]

        def variant_of(v, f):
            return type(v) is EnumValue and v.enum == enum and v.variant == variant and \
                len(v.args) == len(args) and all(a(x, f) for a, x in zip(args, v.args))
        return variant_of

    def named_type(self, name, sc):
        """The struct or enum a name written as a type names: `Self` in an impl block is
        the block's type (until flatten-impl-blocks writes it out)."""
        return sc.self_type if name == "Self" and sc.self_type is not None else name

    @EXPRESSIONS.on("StructLit")
    def x_StructLit(self, node, sc, hint):
        name, span = self.named_type(node.name, sc), node.span
        order = self.struct_fields.get(name)
        if order is None and not self.struct_fields:
            # A program that declares no struct: from Lnative on, where the declarations
            # are gone and a literal is only what scalarize-aggregates rebuilt for `print`,
            # its fields in declaration order.
            order = dict.fromkeys(fi.name for fi in node.fields)
        if order is None:
            return self.unsupported(node, f"a literal of `{name}`, which is no struct")
        # In written order; `S { a: 250 }` of a u8 field is a u8, as `let a: u8 = 250` is, and
        # a field of type `T` of a `Cell<u8>` too. One nothing types, of a struct assigned,
        # takes the type of what the place holds there (`c = Cell { v: 250 }`).
        hints = order | self.argument_hints(node, name, hint)
        placed = hint == PLACE
        given = [(fi.name, self.expr(fi.value, sc, PLACE if placed and hints.get(fi.name) is None
                                     else hints.get(fi.name))) for fi in node.fields]

        def field_values(f):
            if not placed:
                return {k: v(f) for k, v in given}
            held = self.place_type
            types = dict(held.fields) if type(held) is Held and held.name == name else {}
            return {k: run_placed(self, v, f, types.get(k)) for k, v in given}

        def build(f):
            values = field_values(f)
            if set(values) != set(order):
                wrong_kind(span, f"`{name} {{ .. }}` gives fields {sorted(values)}, not "
                                 f"{sorted(order)}")
            return StructValue(name, {k: values[k] for k in order})
        return build

    def argument_hints(self, node, name, hint) -> dict:
        """What the literals given each field of a type parameter's type take: the argument
        the literal writes there (`Cell::<u8> { .. }`), else the one the type it is given as
        writes (`let c: Cell<u8> = Cell { .. };`), as Rust infers the struct's arguments."""
        targs = getattr(node, "targs", ())
        applied = applied_hint(name, targs) if targs else hint
        if type(applied) is not Applied or applied.name != name:
            return {}
        return {f: applied.args[i] for f, i in self.struct_params.get(name, {}).items()
                if i < len(applied.args)}

    # -- places ----------------------------------------------------------------------------

    @EXPRESSIONS.on("Transfer")
    def x_Transfer(self, node, sc, hint):
        return self.transfer(node.value, node.dest.name, sc, node.span)

    def transfer(self, source, dest, sc, span):
        """Move a value into space `dest`; a variable it came from is gone afterwards."""
        value = self.expr(source, sc)
        slot_frame = through = None
        if source._prod in ("Var", "Local") and sc.lookup(source.name) is not None:
            depth, slot = sc.lookup(source.name)
            slot_frame, name = frame_getter(depth), display_name(source.name)
        elif _lent_deref(source, sc):
            # `*t` of a kernel's `t` the launch lent `&mut` of the launcher's (outline-kernels):
            # the spawn's body moved that variable (see lent_place).
            depth, slot = sc.lookup(source.value.name)
            through, name = frame_getter(depth), display_name(source.value.name)

        def transferred(f):
            v = value(f)
            if slot_frame is not None:
                move(slot_frame(f), slot, Moved(name, dest, span))
            elif through is not None and (place := lent_place(through(f), slot)) is not None:
                move(*place, Moved(name, dest, span))
            if type(v) is Tensor:
                return v.placed(dest, None)
            return Placed(unplace(v), dest, None)
        return transferred

    @EXPRESSIONS.on("Spawn")
    def x_Spawn(self, node, sc, hint):
        # A `return` in the block ends the block, its value the block's: typed as the block's
        # value is, not as the function's result, and caught here, not by the function.
        ret, sc.ret = sc.ret, hint
        topo, body, holds = self.topo(node.topo, sc), self.expr_block(node.body, sc), self.holds
        sc.ret = ret

        def spawn(f):
            where = topo(f)
            try:
                value = body(f)
            except Escape as e:
                if type(e.signal) is not Return:
                    raise
                value = e.signal.value
            return _pinned(value, where, holds)
        return spawn

    @EXPRESSIONS.on("Builtin")
    def x_Builtin(self, node, sc, hint):
        """A function of the runtime, called as a call of its name is."""
        callee = Lcalls["Global"](node.name, span=node.span)
        return self.x_Call(Lblocks["Call"](callee, node.args, span=node.span), sc, hint)

    @EXPRESSIONS.on("CallFn")
    def x_CallFn(self, node, sc, hint):
        """A call of the program's function, or its launch: as the Call or Launch it was."""
        if node.launch is not None:
            launch = Lblocks["Launch"](node.callee, node.launch, node.args, span=node.span)
            return self.x_Launch(launch, sc, hint)
        callee = Lcalls["Global"](node.callee, span=node.span)
        return self.x_Call(Lblocks["Call"](callee, node.args, span=node.span), sc, hint)

    @EXPRESSIONS.on("Launch")
    def x_Launch(self, node, sc, hint):
        """An outlined spawn: its kernel called with what the body captured, its value
        pinned where it ran, as the spawn's was."""
        topo, holds, span = self.topo(node.topo, sc), self.holds, node.span
        kernel = self.functions[node.kernel]
        # The variables given: the spawn's body moved them, not copies.
        given = [(i, frame_getter(at[0]), at[1]) for i, a in enumerate(node.args)
                 if a._prod == "Local" and (at := sc.lookup(a.name)) is not None]
        # and read them where it read them: a moved one's mark is given, which stops the
        # kernel where it reads it, not the launch.
        args = [self.expr(a, sc) for a in node.args]
        for i, frame, slot in given:
            if sc.bound_state(node.args[i].name) is None:
                args[i] = lambda f, frame=frame, slot=slot: frame(f)[slot]
        # A kernel's `*t` given on, of the `t` it was lent: the variable that `t` stands for;
        # and its `t` given on, the `&mut` of that variable, which the other kernel is lent.
        given_on = [(i, frame_getter(at[0]), at[1]) for i, a in enumerate(node.args)
                    if _lent_deref(a, sc) and (at := sc.lookup(a.value.name)) is not None]
        lent = [i for i, a in enumerate(node.args) if a._prod == "Borrow" and a.mutable
                and a.value._prod == "Local" and sc.lookup(a.value.name) is not None]

        def launch(f):
            where = topo(f)
            places = {i: (frame(f), slot) for i, frame, slot in given}
            lends = lent + [i for i, (fr, slot) in places.items()
                            if lent_place(fr, slot) is not None]
            for i, frame, slot in given_on:
                if (place := lent_place(frame(f), slot)) is not None:
                    places[i] = place
            return _pinned(kernel.launch([a(f) for a in args], places, lends, span), where,
                           holds)
        return launch

    @EXPRESSIONS.on("Comptime")
    def x_Comptime(self, node, sc, hint):
        return self.expr_block(node.body, sc)  # a later pass folds it; running it is the same

    @EXPRESSIONS.on("Unsafe")
    def x_Unsafe(self, node, sc, hint):
        return self.expr_block(node.body, sc, hint)  # what it allows is checked, not run

    @EXPRESSIONS.on("AsPtr")
    def x_AsPtr(self, node, sc, hint):
        value, mutable, span = self.expr(node.value, sc), node.mutable, node.span

        def as_ptr(f):
            t = unplace(referent(value(f), span))
            if type(t) is not Tensor:
                wrong_kind(span, f"`.as_ptr()` of a value of type {describe(t)}, not a tensor")
            return Pointer(t, 0, mutable)
        return as_ptr

    @EXPRESSIONS.on("Flatten")
    def x_Flatten(self, node, sc, hint):
        """A tensor's elements as one dimension (Lsafe on, a raw pointer into it): a view of
        its store, as a row is, whose element k is the tensor's k-th in row-major order."""
        value, span = self.expr(node.value, sc), node.span

        def flatten(f):
            t = unplace(referent(value(f), span))
            if type(t) is not Tensor:
                wrong_kind(span, f"a flattened value of type {describe(t)}, not a tensor")
            return Tensor(t.store, (t.size(),), (1,), t.offset, t.space, t.topo)
        return flatten

    @EXPRESSIONS.on("TopoRef")
    def x_TopoRef(self, node, sc, hint):
        return self.topo(node, sc)

    @EXPRESSIONS.on("MemRef")
    def x_MemRef(self, node, sc, hint):
        v = MemValue(node.name)
        return lambda f: v

    @EXPRESSIONS.on("SomeTopo")
    def x_SomeTopo(self, node, sc, hint):
        topo = self.topo(node.topo, sc)
        return lambda f: SomeTopo(topo(f))

    @EXPRESSIONS.on("NoneTopo")
    def x_NoneTopo(self, node, sc, hint):
        return lambda f: NONE_TOPO

    def expr_block(self, block, sc, hint=None):
        """A block used as an expression: its value (typed by `hint` as the block's would be);
        a break/continue/return in it escapes."""
        sc.push()
        stmts = [self.stmt(s, sc) for s in block.stmts]
        value = self.expr(block.value, sc, hint) if block.value is not None else None
        sc.pop()

        def run(f):
            for s in stmts:
                r = s(f)
                if r is not None:
                    raise Escape(r)
            return value(f) if value is not None else None
        return run

    # -- differentiation: the function run on floats carrying derivatives (derivatives.py)

    @EXPRESSIONS.on("Grad")
    def x_Grad(self, node, sc, hint):
        return self.derivative(node, [node.arg], sc)

    @EXPRESSIONS.on("Vjp")
    def x_Vjp(self, node, sc, hint):
        return self.derivative(node, [node.primal, node.cotangent], sc)

    @EXPRESSIONS.on("Jvp")
    def x_Jvp(self, node, sc, hint):
        return self.derivative(node, [node.primal, node.tangent], sc)

    def derivative(self, node, args, sc):
        values, span = [self.expr(a, sc) for a in args], node.span
        return lambda f: derivative(self, node, [v(f) for v in values], span)

    # -- not run yet: this needs the memory model ----------------------------------------

    @EXPRESSIONS.on("ReachableQ")
    def x_ReachableQ(self, node, sc, hint):
        """Whether a route leads from A's memory to B's, in the model the program's
        declarations (machine files' included) make with the built-in one."""
        model = self.model()
        src, dst = model.space_of(node.src), model.space_of(node.dst)
        if src is None or dst is None:
            return self.unsupported(node, "Reachable<A, B> of an undeclared place")
        answer = model.route(src, dst) is not None
        return lambda f: answer


def _lent_deref(e, sc) -> bool:
    """Whether e is `*p` of a variable: of a kernel parameter lent `&mut` of the launcher's,
    it stands for that variable (whether p is one is known when the kernel runs)."""
    return (e._prod == "Deref" and e.value._prod in ("Var", "Local")
            and sc.lookup(e.value.name) is not None)


def _pinned(v, where, holds):
    """What a spawn or launch yields: its body's value, placed in the space its topology
    holds (nothing for a body without a value)."""
    if v is None:
        return None
    if type(v) is Tensor:
        return v.placed(holds.get(where.name, v.space), where)
    return Placed(unplace(v), holds.get(where.name, CPU_DRAM), where)


def _plain(v):
    """A scalar's number, whatever its type (a pattern's literal takes the value's type)."""
    return v.v if type(v) is TInt or type(v) is TFloat else v
