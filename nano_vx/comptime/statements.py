"""Statements at compile time (`s_<Prod>`). A statement returns None to go on, or the
BREAK, CONTINUE or Return signal the interpreter uses too (nano_vx/values/control.py), which
loops and calls consume."""

from __future__ import annotations

from ..languages.l4_resolved import display_name
from ..values.control import BREAK, CONTINUE, Return
from ..values.literals import adopt, scalar_hint
from ..values.numbers import TInt, coerce, to_index, unplace
from ..values.tensors import Tensor
from .errors import cannot_finish, depends, failed_assert, writes_outside, written
from .values import Unknown


class StmtMixin:
    def stmt(self, node, frame):
        return self.s_methods[node._prod](node, frame)

    def s_missing(self, node, frame):
        cannot_finish(node.span, f"it holds the statement {node._prod}")

    def stmts(self, block, frame):
        """A block in statement position: a signal, or None; its trailing value is
        evaluated for its effects."""
        s_methods = self.s_methods
        for s in block.stmts:
            r = s_methods[s._prod](s, frame)
            if r is not None:
                return r
        if block.value is not None:
            self.expr(block.value, frame)
        return None

    def value_block(self, block, frame):
        """A block used as a value: its value (None when it has none)."""
        for s in block.stmts:
            r = self.stmt(s, frame)
            if r is not None:
                cannot_finish(s.span, f"`{_signal_word(r)}` leaves a block used as a value")
        return self.expr(block.value, frame) if block.value is not None else None

    def fn_body(self, block, frame):
        """A function or closure body: its trailing value or the value of `return`."""
        for s in block.stmts:
            r = self.stmt(s, frame)
            if r is not None:
                if type(r) is Return:
                    return r.value
                cannot_finish(s.span, f"`{_signal_word(r)}` outside of a loop")
        return self.expr(block.value, frame, frame.ret) if block.value is not None else None

    def conform(self, v, ty, span):
        """v converted to the type a `let`, parameter or return fixes (literals adopt it)."""
        if type(v) is Unknown or ty is None:
            return v
        name = scalar_hint(ty)
        if name is not None:
            return self.guarded(coerce, v, name, span)
        if ty._prod == "TensorType" and type(unplace(v)) is not Tensor:
            cannot_finish(span, f"expected a tensor, found {v!r:.40}")
        return v

    # -- bindings and writes ---------------------------------------------------------------

    def s_Let(self, node, frame):
        v = self.expr(node.value, frame, scalar_hint(node.type))
        frame.vars[node.name] = self.conform(v, node.type, node.span)

    def s_Assign(self, node, frame):
        target = node.target
        v = self.expr(node.value, frame)
        root = target
        while root._prod == "Index":
            root = root.base
        if root._prod != "Local":
            cannot_finish(node.span, f"an assignment to {root._prod}")
        held = frame.holder(root.name)
        if held is None:
            writes_outside(node.span, display_name(root.name))
        if target is not root:
            return self.assign_element(node, v, frame)
        old = held[root.name]
        if node.op != "=":
            v = self.binary(node.op[:-1], old, v, node.span)
        if type(v) is not type(old) and type(old) is not Unknown and type(v) is not Unknown:
            v = adopt(old, v)
        self.write(held, root.name, v)

    def assign_element(self, node, v, frame):
        tensor, indices = self.indexed(node.target, frame)
        if type(tensor) is Unknown:
            return  # a tensor unknown as a whole stays unknown
        unknown = next((x for x in (*indices, v) if type(x) is Unknown), None)
        if unknown is not None:
            self.taint(tensor.store, unknown.why)
            return
        off = self.guarded(tensor.locate, indices, node.span)
        if type(off) is not int:
            cannot_finish(node.span, "an assignment to a whole row of a tensor")
        if node.op != "=":
            old = self.x_Index(node.target, frame, None)
            v = self.binary(node.op[:-1], old, v, node.span)
            if type(v) is Unknown:
                self.taint(tensor.store, v.why)
                return
        self.guarded(tensor.write, off, v, node.span)
        self.wrote_store(tensor.store)

    # -- control ---------------------------------------------------------------------------

    def s_If(self, node, frame):
        c = self.truth(self.expr(node.cond, frame), node.cond.span)
        if type(c) is Unknown:
            return self.either(c.why, node, frame)
        if c:
            return self.stmts(node.then, frame)
        return self.stmts(node.orelse, frame) if node.orelse is not None else None

    def s_While(self, node, frame):
        while True:
            c = self.truth(self.expr(node.cond, frame), node.cond.span)
            if type(c) is Unknown:
                def once():
                    r = self.stmts(node.body, frame)
                    self.expr(node.cond, frame)  # its checks run after every iteration
                    return r
                return self.unknown_loop(c.why, once, node.span)
            if not c:
                return None
            self.budget.iteration(node.span)
            r = self.stmts(node.body, frame)
            if r is not None and r is not CONTINUE:
                return None if r is BREAK else r

    def s_For(self, node, frame):
        a = unplace(self.expr(node.start, frame))
        b = unplace(self.expr(node.end, frame))
        for bound in (a, b):
            if type(bound) is Unknown:
                frame.vars[node.var] = bound
                return self.unknown_loop(bound.why, lambda: self.stmts(node.body, frame),
                                         node.span)
            if type(bound) is not int and type(bound) is not TInt:
                cannot_finish(node.span, "a range needs integer bounds")
        t = next((v.t for v in (a, b) if type(v) is TInt), None)  # the variable's type
        lo, hi = self.guarded(to_index, a, node.span), self.guarded(to_index, b, node.span)
        for i in range(lo, hi):
            self.budget.iteration(node.span)
            frame.vars[node.var] = i if t is None else TInt(i, t)
            r = self.stmts(node.body, frame)
            if r is not None and r is not CONTINUE:
                return None if r is BREAK else r
        return None

    def s_Return(self, node, frame):
        if node.value is None:
            return Return(None)
        return Return(self.expr(node.value, frame, frame.ret))

    def s_Break(self, node, frame):
        return BREAK

    def s_Continue(self, node, frame):
        return CONTINUE

    def s_Assert(self, node, frame):
        c = self.truth(self.expr(node.cond, frame), node.cond.span)
        if type(c) is Unknown:
            depends(node.span, c.why, what="this assert")
        if not c:
            text = node.message if node.message is not None else written(node.cond)
            if self.conditions:
                self.check_fails(node.span, f"the assert `{text}` is false")
            failed_assert(node.span, text)

    def s_ComptimeStmt(self, node, frame):
        return self.stmts(node.body, frame)

    def s_ExprStmt(self, node, frame):
        self.expr(node.expr, frame)


def _signal_word(r) -> str:
    return "return" if type(r) is Return else r.what
