"""differentiate-forward: Lrouted -> Lrouted (the tangent functions are ordinary functions
of the IL, and `jvp` a call of one: see the pass's docstring)."""

from __future__ import annotations

from ..languages.lrouted import Lrouted
from ..nanopass import Pass
from ..derivatives.code import (
    Build, active, copy_into, dims_of, float_name, generated_name, is_print, refuse, tensor_of,
    zero,
)
from ..derivatives.differentiation import FnInfo, differentiate_all, is_math
from ..derivatives.tangent_rules import binary_tangent, math_tangent

differentiate_forward = Pass("differentiate-forward", Lrouted, Lrouted, """
Make `jvp(f, x, t)` a call of `f$jvp`, the tangent function of f: value and tangent side by
side (E3060-E3062, E3010 for what has no derivative).

`f$jvp` takes each parameter of f followed, for a float or a tensor of floats, by its
tangent (a tensor by reference, copied where f took it by value), and returns the tangent
of f's result: each statement of f is preceded by the one computing the tangent of what it
binds or writes (`let y_dot = x_dot * x + x * x_dot; let y = x * x;`), so a tangent reads
the values before the statement. Loops, `if` and `return` keep their places; a call of
another function of the program with a float argument is `g$jvp` in turn, beside the call
of g that computes the value; `exp`, `log`, `sqrt`, `abs`, `max` and `min` have their rules.
Integers and bools have no tangent. What no tangent follows is refused, naming the function
and the construct: E3060 (the function `jvp` names has an integer or bool parameter or
result), E3061 (a `transfer`, `spawn`, closure, struct, reference to a scalar, ...), E3062
(a `while` whose trip count depends on the differentiated value); E3010 for a function that
does not take one argument. The IL is Lrouted's: the tangent functions are functions like
any other, and the `Jvp` the pass removes is still a production of the IL (removing it would
move every later IL); its test checks that none is left.
""", requires=("model",))


@differentiate_forward.on("Program")
def _program(run, program):
    return differentiate_all(run, program, "jvp", lambda info, name: [Tangent(info).fn()])


class Tangent:
    """The tangent function of one function."""

    def __init__(self, info: FnInfo):
        self.info, self.fn_node = info, info.fn
        self.names = info.names
        self.dot: dict[str, str] = {}  # a float or tensor local -> its tangent's name
        for name, ty in info.types.items():
            if active(ty):
                self.dot[name] = info.names.derived(name, "_dot")

    # -- the function ------------------------------------------------------------------

    def fn(self):
        fn, b = self.fn_node, Build(self.fn_node.span)
        params, prologue = [], []
        for p in fn.params:
            for name in (p.name, self.dot.get(p.name)):
                if name is None:
                    continue
                if p.type._prod == "TensorType":  # by value: a reference, copied
                    ref = self.names.derived(name, "_ref")
                    params.append(b.param(ref, b.ref_type(p.type)))
                    prologue += self._copy(b, name, ref, p.type)
                else:
                    params.append(b.param(name, p.type))
        body = self.block(fn.body, tail=True)
        return fn.replace(name=generated_name(fn.name, "jvp"), params=tuple(params), bounds=(),
                          body=body.replace(stmts=tuple(prologue) + body.stmts))

    def _copy(self, b, name, ref, ty):
        return [b.let(name, ty, b.new_tensor(ty))] + copy_into(
            b, self.names, b.local(name), b.local(ref), dims_of(ty, self.fn_node))

    # -- statements --------------------------------------------------------------------

    def block(self, block, tail: bool = False):
        """A block with the tangent statements beside the primal ones; `tail`: a block
        whose value is the function's, which becomes its tangent."""
        stmts = []
        for s in block.stmts:
            stmts += self.stmt(s)
        value = block.value
        if value is not None:
            value = self.tail(value) if tail else value
        return block.replace(stmts=tuple(stmts), value=value)

    def stmt(self, s) -> list:
        b = Build(s.span)
        kind = s._prod
        if kind == "Let":
            if s.name not in self.dot:
                return [s]  # an integer or a bool: no tangent
            return self._bind(b, b.local(self.dot[s.name]), s.type, s.value,
                              lambda v: [s.replace(value=v)], let=True)
        if kind == "Assign":
            return self._assign(b, s)
        if kind == "If":
            return [s.replace(then=self.block(s.then),
                              orelse=self.block(s.orelse) if s.orelse is not None else None)]
        if kind in ("For", "While", "BlockStmt"):
            return [s.replace(body=self.block(s.body))]
        if kind == "Return":
            return [s.replace(value=self.tail(s.value))]
        if kind == "ExprStmt":
            if is_print(s):
                return []  # a derivative computes; it leaves out what f prints
            if s.expr._prod == "IfExpr":
                e = s.expr
                return [b.if_(e.cond, self.block(e.then.replace(value=None)).stmts
                              + self._dropped(e.then),
                              self.block(e.orelse.replace(value=None)).stmts
                              + self._dropped(e.orelse))]
            return [s]  # a call still runs: it may print
        return [s]  # assert, break, continue

    def _dropped(self, block):
        return (Build(block.span).expr_stmt(block.value),) if block.value is not None else ()

    def _bind(self, b, target, ty, value, primal, let: bool):
        """The tangent of `value` into `target` (a `let` of it when `let`), then `primal(v)`,
        the statement itself given its value. An `if` value delivers its tangent from each
        arm, so neither arm runs twice."""
        if value._prod == "IfExpr":
            first = b.let(target.name, ty, zero(b, ty), inferred=True) if let else None
            delivered = self._deliver(value, target)
            return ([first] if first else []) + primal(delivered)
        tangent = self.tan(value)
        if tangent is None:
            tangent = zero(b, ty)
        if let:
            return [b.let(target.name, ty, tangent, inferred=True)] + primal(value)
        return [b.assign(target, tangent)] + primal(value)

    def _deliver(self, e, target):
        """An `if` value whose arms also assign the tangent of their value to `target`."""
        arms = []
        for arm in (e.then, e.orelse):
            inner = self.block(arm.replace(value=None))
            b = Build(arm.span)
            if arm.value is None:  # the arm leaves (`return`, `break`)
                arms.append(inner)
            elif arm.value._prod == "IfExpr":
                arms.append(inner.replace(value=self._deliver(arm.value, target)))
            else:
                t = self.tan(arm.value)
                ty = self.info.of(arm.value)
                set_ = b.assign(target, t if t is not None else zero(b, ty))
                arms.append(inner.replace(stmts=inner.stmts + (set_,), value=arm.value))
        return e.replace(then=arms[0], orelse=arms[1])

    def _assign(self, b, s):
        target, op, value = s.target, s.op, s.value
        dot = self._dot_place(target)
        if dot is None:
            return [s]
        if op in ("*=", "/="):  # x op= e is x = x op e, whose tangent reads both
            value, op = b.bin(op[0], target, value), "="
            return self._bind(b, dot, None, value, lambda v: [s], let=False)
        if op == "=":
            ty = self.info.of(target)
            return self._bind(b, dot, ty, value, lambda v: [s.replace(value=v)], let=False)
        t = self.tan(value)  # += and -=: the tangent moves by the value's
        return ([b.assign(dot, t, op)] if t is not None else []) + [s]

    def _dot_place(self, target):
        """Where a write's tangent goes: `x_dot` for `x`, `t_dot[i]` for `t[i]`; None for a
        value with none (an integer)."""
        if not active(self.info.of(target)):
            return None
        base, indices = target, []
        while base._prod == "Index":
            indices.append(base.index)
            base = base.base
        if base._prod != "Local" or base.name not in self.dot:
            refuse(target, "a write to a place that is not a local variable or its element")
        b = Build(target.span)
        return b.index(b.local(self.dot[base.name]), reversed(indices))

    # -- expressions -------------------------------------------------------------------

    def tail(self, e):
        """The tangent of a value the function returns."""
        if e is None:
            return None
        if e._prod == "IfExpr":
            return e.replace(then=self.block(e.then, tail=True),
                             orelse=self.block(e.orelse, tail=True))
        t = self.tan(e)
        return t if t is not None else zero(Build(e.span), self.info.of(e))

    def tan(self, e):
        """The tangent of expression `e`, read at the values before the statement holding
        it; None when it is zero (a constant, an integer)."""
        kind = e._prod
        info, b = self.info, Build(e.span)
        if kind in ("Int", "Float", "Bool", "Global", "Str", "MethodCall"):
            return None
        if kind == "Local":
            return b.local(self.dot[e.name]) if e.name in self.dot else None
        if kind == "Index":
            t = self.tan(e.base)
            return e.replace(base=t) if t is not None else None
        if kind == "Binary":
            return binary_tangent(b, e, self.tan) if info.is_float(e) else None
        if kind == "Unary":
            t = self.tan(e.operand) if e.op == "-" else None
            return b.neg(t) if t is not None else None
        if kind == "Cast":
            to = float_name(e.type)
            t = self.tan(e.value) if to is not None and info.is_float(e.value) else None
            return b.cast(t, to) if t is not None else None
        if kind == "Call":
            return self._call(b, e)
        if kind == "IfExpr":
            if e.then.stmts or e.orelse.stmts:
                refuse(e, "an `if` value with statements inside an expression")
            ty = info.of(e)
            then, orelse = self.tan(e.then.value), self.tan(e.orelse.value)
            if then is None and orelse is None:
                return None
            return e.replace(then=e.then.replace(value=then or zero(b, ty)),
                             orelse=e.orelse.replace(value=orelse or zero(b, ty)))
        if kind == "Borrow":
            t = self.tan(e.value)
            return e.replace(value=t) if t is not None else None
        if kind == "TensorNew":
            if tensor_of(e.type) is None:
                return None
            if e.ctor == "fill":
                return e.replace(args=(self.tan(e.args[0]) or b.flt(0.0),))
            return e.replace(ctor="new", args=())
        if kind in ("ArrayLit", "TensorLit"):
            if tensor_of(info.of(e)) is None:
                return None
            return e.replace(elems=tuple(self.tan(x) or b.flt(0.0) for x in e.elems))
        refuse(e, f"the expression {kind}")

    def _call(self, b, e):
        info = self.info
        if is_math(e):
            return math_tangent(b, e, self.tan, info.of) if info.is_float(e) else None
        fn = info.program.differentiable_call(e)
        if fn is None:
            return None
        args = []
        for p, arg in zip(fn.params, e.args):
            by_value = p.type._prod == "TensorType"  # f$jvp takes it by reference
            args.append(b.borrow(arg) if by_value else arg)
            if active(p.type):
                t = self.tan(arg)
                if t is None:
                    t = _zero_arg(b, p.type)
                elif by_value:
                    t = b.borrow(t)
                args.append(t)
        return b.call(generated_name(fn.name, "jvp"), args)


def _zero_arg(b, ty):
    t = tensor_of(ty)
    if t is None:
        return b.flt(0.0)
    return b.borrow(b.new_tensor(t))

