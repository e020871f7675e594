"""Statements at compile time, compiled once to closures `f(frame) -> signal`, one method per
production registered in STATEMENTS. A statement's closure returns None to go on, or the BREAK,
CONTINUE or Return signal the interpreter uses too (nano_vx/values/control.py), which loops
and calls consume."""

from __future__ import annotations

from operator import itemgetter

from ..languages.lresolved import display_name
from ..nanopass import Handlers
from ..values.control import BREAK, CONTINUE, Return
from ..values.literals import PLACE, adopt, held_type, run_placed, scalar_hint
from ..values.numbers import TInt, coerce, to_index, unplace
from ..values.tensors import Tensor
from .errors import (cannot_finish, depends, failed_assert, failed_precondition, writes_outside,
                     written)
from .expressions import FOLDED, refuse
from .values import Unknown


# Scalar type -> the Python type whose values are already of it (an int: within i32).
_EXACT_TYPE = {"i32": int, "f64": float, "bool": bool}
STATEMENTS = Handlers("the compile-time evaluator's statements", FOLDED, "Stmt")


class StmtMixin:
    statements = STATEMENTS

    def stmt(self, node):
        method = self.statements.get(node._prod)
        if method is None:
            return refuse(node.span, f"it holds the statement {node._prod}")
        return method(self, node)

    def stmts(self, block):
        """A block in statement position: `f(frame) ->` a signal, or None; its trailing
        value is evaluated for its effects."""
        body = [self.stmt(s) for s in block.stmts]
        if block.value is not None:
            value = self.expr(block.value)

            def last(frame):
                value(frame)
            body.append(last)
        if len(body) == 1:
            return body[0]

        def run(frame):
            for s in body:
                r = s(frame)
                if r is not None:
                    return r
            return None
        return run

    def value_block(self, block, hint=None):
        """A block used as a value: `f(frame) ->` its value (None when it has none), whose
        literals take the type `hint` fixes."""
        body = [(self.stmt(s), s.span) for s in block.stmts]
        value = self.expr(block.value, hint) if block.value is not None else None

        def run(frame):
            for s, span in body:
                r = s(frame)
                if r is not None:
                    cannot_finish(span, f"`{_signal_word(r)}` leaves a block used as a value")
            return value(frame) if value is not None else None
        return run

    def fn_body(self, block):
        """A function or closure body: `f(frame) ->` its trailing value or the value of
        `return`."""
        stmts, last = block.stmts, block.value
        if last is None and stmts and stmts[-1]._prod == "Return" and stmts[-1].value is not None:
            # A body ending in `return e` has e for its value: no Return made and taken apart
            # on each call.
            stmts, last = stmts[:-1], stmts[-1].value
        body = [(self.stmt(s), s.span) for s in stmts]
        value = self.expr(last, self.returns) if last is not None else None

        def run(frame):
            for s, span in body:
                r = s(frame)
                if r is not None:
                    if type(r) is Return:
                        return r.value
                    cannot_finish(span, f"`{_signal_word(r)}` outside of a loop")
            return value(frame) if value is not None else None
        return run

    def conformer(self, ty):
        """`f(v, span) ->` v converted to the type a `let`, parameter or return fixes
        (literals adopt it); None when the type fixes nothing to convert."""
        if ty is None:
            return None
        name, guarded = scalar_hint(ty), self.guarded
        if name is not None:
            exact = _EXACT_TYPE.get(name)  # None: every value goes through `coerce`

            def scalar(v, span):
                if type(v) is exact and (exact is not int or -2147483648 <= v <= 2147483647):
                    return v
                return v if type(v) is Unknown else guarded(coerce, v, name, span)
            return scalar
        if ty._prod == "TensorType":
            def tensor(v, span):
                if type(v) is not Unknown and type(unplace(v)) is not Tensor:
                    cannot_finish(span, f"expected a tensor, found {v!r:.40}")
                return v
            return tensor
        return None

    def conform(self, v, ty, span):
        conform = self.conformer(ty)
        return conform(v, span) if conform is not None else v

    # -- bindings and writes ---------------------------------------------------------------

    @STATEMENTS.on("Let")
    def s_Let(self, node):
        value, conform = self.expr(node.value, scalar_hint(node.type)), self.conformer(node.type)
        name, span = node.name, node.span

        def let(frame):
            v = value(frame)
            frame.vars[name] = conform(v, span) if conform is not None else v
        return let

    @STATEMENTS.on("Assign")
    def s_Assign(self, node):
        target, span = node.target, node.span
        root = target
        while root._prod == "Index":
            root = root.base
        if root._prod != "Local":
            return refuse(span, f"an assignment to {root._prod}")
        if target is not root:
            return self.assign_element(node, self.expr(node.value, PLACE), self.expr(root))
        # Its literals take the type the variable holds (`x = 1 << 40` for an i64 x).
        if node.op == "=":
            value = self.expr(node.value, PLACE)
        else:  # `x += e` is `x = x + e`
            value = self.operation(node.op[:-1], span, self.expr(root),
                                   self.operand(node.value, PLACE))
        name, shown = root.name, display_name(root.name)

        def assign(frame):
            place = frame.vars if name in frame.vars else frame.holder(name)
            v = run_placed(self, value, frame, held_type(place[name]) if place else None)
            held = frame.vars
            if name not in held:
                held = frame.holder(name)
                if held is None:
                    writes_outside(span, shown)
            old = held[name]
            if type(v) is not type(old):
                v = adopt(old, v)
            if self.conditions:  # regions.py: the write may be undone or made unknown
                self.log.append((held, name, old))
            held[name] = v
        return assign

    def assign_element(self, node, value, whole):
        indexed, span, guarded = self.indexed(node.target), node.span, self.guarded
        read = self.expr(node.target) if node.op != "=" else None
        # The old value and the new one, as a pair: `apply((old, v))`.
        apply = self.operation(node.op[:-1], span, itemgetter(0), itemgetter(1)) \
            if node.op != "=" else None

        def assign(frame):
            tensor = unplace(whole(frame))  # its element type types the value's literals
            v = run_placed(self, value, frame, tensor.store.elem if type(tensor) is Tensor
                           else None)
            tensor, indices = indexed(frame)
            if type(tensor) is Unknown:
                return  # a tensor unknown as a whole stays unknown
            unknown = next((x for x in (*indices, v) if type(x) is Unknown), None)
            if unknown is not None:
                self.taint(tensor.store, unknown.why)
                return
            off = self.located(tensor, indices, span)
            if type(off) is not int:
                cannot_finish(span, "an assignment to a whole row of a tensor")
            if apply is not None:
                v = apply((read(frame), v))
                if type(v) is Unknown:
                    self.taint(tensor.store, v.why)
                    return
            guarded(tensor.write, off, v, span)
            self.wrote_store(tensor.store)
        return assign

    # -- control ---------------------------------------------------------------------------

    @STATEMENTS.on("If")
    def s_If(self, node):
        cond = self.condition(node.cond)
        then = self.stmts(node.then)
        orelse = self.stmts(node.orelse) if node.orelse is not None else None

        def if_(frame):
            c = cond(frame)
            if type(c) is Unknown:
                return self.either(c.why, (then, orelse), frame, node.span)
            if c:
                return then(frame)
            return orelse(frame) if orelse is not None else None
        return if_

    @STATEMENTS.on("While")
    def s_While(self, node):
        cond, body, span = self.condition(node.cond), self.stmts(node.body), node.span

        def loop(frame):
            budget = self.budget
            while True:
                c = cond(frame)
                if type(c) is Unknown:
                    def once():
                        r = body(frame)
                        cond(frame)  # its checks run after every iteration
                        return r
                    return self.unknown_loop(c.why, once, span)
                if not c:
                    return None
                budget.step(span)
                r = body(frame)
                if r is not None and r is not CONTINUE:
                    return None if r is BREAK else r
        return loop

    @STATEMENTS.on("For")
    def s_For(self, node):
        start, end, body = self.expr(node.start), self.expr(node.end), self.stmts(node.body)
        var, span, guarded = node.var, node.span, self.guarded

        def loop(frame):
            a, b = unplace(start(frame)), unplace(end(frame))
            for bound in (a, b):
                if type(bound) is Unknown:
                    frame.vars[var] = bound
                    return self.unknown_loop(bound.why, lambda: body(frame), span)
                if type(bound) is not int and type(bound) is not TInt:
                    cannot_finish(span, "a range needs integer bounds")
            t = next((v.t for v in (a, b) if type(v) is TInt), None)  # the variable's type
            lo, hi = guarded(to_index, a, span), guarded(to_index, b, span)
            budget, vars = self.budget, frame.vars
            for i in range(lo, hi):
                budget.step(span)
                vars[var] = i if t is None else TInt(i, t)
                r = body(frame)
                if r is not None and r is not CONTINUE:
                    return None if r is BREAK else r
            return None
        return loop

    @STATEMENTS.on("Return")
    def s_Return(self, node):
        if node.value is None:
            return lambda frame: Return(None)
        value = self.expr(node.value, self.returns)
        return lambda frame: Return(value(frame))

    @STATEMENTS.on("Break")
    def s_Break(self, node):
        return lambda frame: BREAK

    @STATEMENTS.on("Continue")
    def s_Continue(self, node):
        return lambda frame: CONTINUE

    @STATEMENTS.on("Assert")
    def s_Assert(self, node):
        cond, span = self.condition(node.cond), node.span
        text = node.message if node.message is not None else written(node.cond)

        def check(frame):
            c = cond(frame)
            if type(c) is Unknown:
                depends(span, c.why, what="this assert")
            if not c:
                if self.conditions:
                    self.check_fails(span, f"the assert `{text}` is false")
                failed_assert(span, text)
        return check

    @STATEMENTS.on("Requires")
    def s_Requires(self, node):
        """Checked here: a call made while compiling folds away, and with it the call at
        which verify-contracts would have proved the precondition."""
        cond, span, text = self.condition(node.cond), node.span, written(node.cond)

        def check(frame):
            c = cond(frame)
            if type(c) is Unknown:
                depends(span, c.why, what="this precondition")
            if not c:
                if self.conditions:
                    self.check_fails(span, f"the precondition `{text}` is false")
                failed_precondition(span, text)
        return check

    @STATEMENTS.on("Ensures", "Invariant")
    def s_Ensures(self, node):
        return _proved_apart  # verify-contracts proves it of every call, this one included

    @STATEMENTS.on("UnsafeFn")
    def s_UnsafeFn(self, node):
        # Its body is unsafe throughout, as an `unsafe` block is: it runs when the program does.
        return refuse(node.span, "it calls an `unsafe fn`, whose body runs only when the "
                                 "program runs")

    @STATEMENTS.on("ComptimeStmt")
    def s_ComptimeStmt(self, node):
        return self.stmts(node.body)

    @STATEMENTS.on("BlockStmt")
    def s_BlockStmt(self, node):
        return self.stmts(node.body)  # names are unique per function: no scope to open

    @STATEMENTS.on("ExprStmt")
    def s_ExprStmt(self, node):
        value = self.expr(node.expr)

        def effect(frame):
            value(frame)
        return effect


def _proved_apart(frame):
    return None


def _signal_word(r) -> str:
    return "return" if type(r) is Return else r.what
