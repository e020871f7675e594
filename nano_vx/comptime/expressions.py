"""Expressions at compile time, one method per production (`x_<Prod>`), over the trees of
Lresolved and the ILs after it. `hint` is the scalar type the context fixes, as in the
interpreter, so a literal under `let x: u8 = ..` is a u8 here as it is at run time."""

from __future__ import annotations

from ..languages.l4_resolved import display_name
from ..values.literals import literal, scalar_hint
from ..values.numbers import describe, to_index, unplace
from ..values.places import CPU_DRAM, NONE_TOPO, MemValue, SomeTopo, Topo
from ..values.tensors import Tensor, make_tensor
from .errors import cannot_finish
from .values import PRINT, Closure, Function, Unknown, runtime

# Operations that exist only while the program runs on its devices.
_RUN_TIME_ONLY = {
    "Transfer": "a `transfer` moves data between memory spaces only when the program runs",
    "Spawn": "`spawn on` runs a block on a device only when the program runs",
    "Grad": "`grad` is not evaluated while compiling",
    "Vjp": "`vjp` is not evaluated while compiling",
    "Jvp": "`jvp` is not evaluated while compiling",
    "FieldGet": "struct fields have no compile-time values",
}


class ExprMixin:
    def expr(self, node, frame, hint=None):
        return self.x_methods[node._prod](node, frame, hint)

    def x_missing(self, node, frame, hint):
        """Every production without a method of its own: none has a compile-time value."""
        cannot_finish(node.span, _RUN_TIME_ONLY.get(node._prod, f"it holds {node._prod}"))

    # -- literals and names ----------------------------------------------------------------

    def x_Int(self, node, frame, hint):
        return node.value if hint is None else literal(node.value, hint, node.span)

    x_Float = x_Int

    def x_Bool(self, node, frame, hint):
        return node.value

    x_Str = x_Bool

    def x_Local(self, node, frame, hint):
        held = frame.holder(node.name)
        if held is not None:
            return held[node.name]
        return runtime(display_name(node.name))

    def x_Global(self, node, frame, hint):
        name = node.name
        held = frame.holder(name)  # a const generic may resolve as a global
        if held is not None:
            return held[name]
        if name in self.functions:
            return Function(self.functions[name])
        if name in self.consts:
            return self.const(name, node.span)
        if name == "print":
            return PRINT
        cannot_finish(node.span, f"`{name}` has no compile-time value")

    # -- operators -------------------------------------------------------------------------

    def x_Binary(self, node, frame, hint):
        op = node.op
        if op in ("&&", "||"):
            return self.logic(node, frame)
        operand_hint = hint if op in ("+", "-", "*", "/", "%") else None
        left, right, x = node.left, node.right, self.x_methods  # (the hottest method)
        a = x[left._prod](left, frame, operand_hint)
        b = x[right._prod](right, frame, operand_hint)
        return self.binary(op, a, b, node.span)

    def logic(self, node, frame):
        a = self.truth(self.expr(node.left, frame), node.left.span)
        decided = node.op == "||"  # the left value that decides without the right
        if a is decided:
            return a
        if type(a) is Unknown:  # the right side runs only for some run-time values
            b = self.maybe(a.why, lambda: self.truth(self.expr(node.right, frame),
                                                     node.right.span))
            return b if b is decided else a
        return self.truth(self.expr(node.right, frame), node.right.span)

    def truth(self, v, span):
        v = unplace(v)
        if type(v) is bool or type(v) is Unknown:
            return v
        cannot_finish(span, f"a condition must be a bool, found {describe(v)}")

    def x_Unary(self, node, frame, hint):
        if node.op == "-":
            return self.negative(self.expr(node.operand, frame, hint), node.span)
        return self.bit_not(self.expr(node.operand, frame), node.span)

    def x_Cast(self, node, frame, hint):
        v = self.expr(node.value, frame)
        if node.type._prod != "Scalar":
            cannot_finish(node.span, f"a cast to {node.type._prod} has no compile-time value")
        return self.converted(v, node.type.name, node.span)

    # -- calls and closures ----------------------------------------------------------------

    def x_Call(self, node, frame, hint):
        callee = self.expr(node.callee, frame)
        hints = ()
        if type(callee) is Function:  # a direct call: its parameter types type the literals
            hints = [scalar_hint(p.type) for p in callee.node.params]
        args = [self.expr(a, frame, hints[i] if i < len(hints) else None)
                for i, a in enumerate(node.args)]
        targs = [self.garg(t, frame) for t in node.targs]
        return self.call(callee, args, targs, node.span)

    def garg(self, node, frame):
        """A generic argument: an extent for a const parameter, None for a type."""
        if node._prod == "DimArg":
            return self.dim(node.dim, frame)
        ty = node.type
        if ty._prod == "NamedType":  # `f<N>(..)` with N a const item or a const generic
            held = frame.holder(ty.name)
            if held is not None:
                return held[ty.name]
            if ty.name in self.consts:
                return self.const(ty.name, node.span)
        return None

    def x_Closure(self, node, frame, hint):
        return Closure(node, frame)

    def x_Comptime(self, node, frame, hint):
        # Reached inside a function called while compiling, or a comptime lambda's body:
        # the evaluator already runs at compile time, so the block is just a block.
        return self.value_block(node.body, frame)

    def x_MethodCall(self, node, frame, hint):
        if node.method == "topology" and not node.args:
            return self.placement_query(node, frame)
        cannot_finish(node.span, f"the method `.{node.method}()` has no compile-time value")

    # -- tensors ---------------------------------------------------------------------------

    def x_TensorNew(self, node, frame, hint):
        ty = node.type
        if ty._prod != "TensorType" or ty.elem._prod != "Scalar":
            cannot_finish(node.span, "a tensor whose element type is not a scalar")
        elem = ty.elem.name
        dims = [self.dim(d, frame) for d in ty.dims]
        args = [self.expr(a, frame, elem) for a in node.args]
        for v in (*dims, *args):
            if type(v) is Unknown:
                return v
        space = ty.place.name if ty.place is not None and ty.place._prod == "MemRef" \
            else CPU_DRAM
        # Lazy storage, as in the interpreter: a huge extent allocates nothing until written.
        return self.guarded(make_tensor, elem, dims, node.ctor, args, space, node.span)

    def dim(self, d, frame):
        """An extent (`4`, `S`, `S*2`) as a Python int, or an unknown."""
        kind = d._prod
        if kind == "DimInt":
            return d.value
        if kind == "DimName":
            held = frame.holder(d.name)
            v = held[d.name] if held is not None else (
                self.const(d.name, d.span) if d.name in self.consts else runtime(d.name))
            return v if type(v) is Unknown else self.guarded(to_index, v, d.span)
        left, right = self.dim(d.left, frame), self.dim(d.right, frame)
        return self.binary(d.op, left, right, d.span)

    def x_Index(self, node, frame, hint):
        base, indices = self.indexed(node, frame)
        if type(base) is Unknown:
            return base
        for i in indices:
            if type(i) is Unknown:
                return i
        where = self.guarded(base.locate, indices, node.span)
        if type(where) is not int:
            return where
        tainted = self.tainted.get(id(base.store))
        if tainted is not None:
            return Unknown(tainted[1])
        return self.guarded(base.read, where, node.span)

    def indexed(self, node, frame):
        """`t[i][j]`: the tensor (or an unknown) and the indices, outermost first."""
        indices = []
        while node._prod == "Index":
            indices.append(node.index)
            node = node.base
        base = self.expr(node, frame)
        values = [self.expr(i, frame) for i in reversed(indices)]
        values = [v if type(v) is Unknown else self.guarded(to_index, v, node.span)
                  for v in values]
        if type(base) is not Tensor and type(base) is not Unknown:
            cannot_finish(node.span, f"cannot index a value of type {describe(base)}")
        return base, values

    # -- places ----------------------------------------------------------------------------

    def x_TopoRef(self, node, frame, hint):
        bounds = []
        for e in (node.index, node.end):
            v = self.expr(e, frame) if e is not None else None
            if type(v) is Unknown:
                return v
            bounds.append(self.guarded(to_index, v, e.span) if e is not None else None)
        return Topo(node.name, *bounds)

    def x_SomeTopo(self, node, frame, hint):
        topo = self.expr(node.topo, frame)
        return topo if type(topo) is Unknown else SomeTopo(topo)

    def x_NoneTopo(self, node, frame, hint):
        return NONE_TOPO

    def x_MemRef(self, node, frame, hint):
        return MemValue(node.name)

    def x_ReachableQ(self, node, frame, hint):
        return self.reachable(node, frame)
