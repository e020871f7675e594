"""explicate-control: Llifted -> Lblocks."""

from __future__ import annotations

from ..languages.llifted import Llifted
from ..languages.lblocks import Lblocks
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Handlers, Pass
from ..nanopass.verify import child_nodes

L = Lblocks
# The statements the block builder lowers itself; any other is walked by the pass.
_LOWER = Handlers("explicate-control's block builder", (Llifted,), "Stmt")

explicate_control = Pass("explicate-control", Llifted, Lblocks, """
Make control flow explicit: each function body becomes basic blocks joined by jumps.

A block is straight-line statements (`let`, assignment, `assert`, `assume`, an expression)
and one exit: `goto`, a two-way `branch` on a condition, or `return`. `if` branches to its
two arms, which jump to the block after it; `while` is a head block that branches into the
body or out, the body jumping back; `for v in a..b` evaluates a and b once, into a counter
and a bound of its own, and each turn binds v to the counter, so `continue` goes to the step
that increments it. `break`, `continue` and `return` end their block; what follows them in it
can never run and is dropped, as are blocks no jump reaches. A function's trailing value is
its `return`. An `if` used as a value (check-native-subset admits it where its value goes straight
to a `let`, an assignment, a `return` or nowhere) is a branch whose arms each deliver their
own value there; a `let` of one starts at its type's zero (a vector's: zero in every lane;
`()`'s: `()`, which holds nothing).
One inside a larger expression, whose arms are plain values, is a `select` of the arm the
condition picks. Blocks are labelled bb0 (the entry), bb1, ... in the order of the source
they come from.
""")


@explicate_control.on("Fn")
def _fn(run, fn):
    builder = _Builder(run, _names(fn))
    builder.block(fn.body.stmts)
    builder.deliver(fn.body.value, builder.returns, fn.body.span)
    return L["Fn"](fn.name, run.walk_seq(fn.params), run.walk(fn.on) if fn.on else None,
                   run.walk(fn.ret), run.walk_seq(fn.bounds), builder.blocks(), span=fn.span)


@explicate_control.on("IfExpr")
def _if_value(run, node):
    # Met inside an expression (one where its value goes is delivered by the Fn's builder):
    # check-native-subset admits it there only with arms that are plain values.
    if node.then.stmts or node.orelse.stmts:
        raise AssertionError("an `if` value with statements reached an expression")
    return L["Select"](run.walk(node.cond), run.walk(node.then.value),
                       run.walk(node.orelse.value), span=node.span)


@explicate_control.on("If", "While", "For", "Return", "Break", "Continue", "BlockStmt", "Block")
def _structured(run, node):
    raise AssertionError(f"{node._prod} is lowered by the Fn that holds it, never walked alone")


class _Builder:
    """The blocks of one function as they are made: the open block's label and statements,
    the targets of `break` and `continue`, and the names already taken."""

    def __init__(self, run, taken: set):
        self.run, self.taken = run, taken
        self.tried: dict = {}  # where unused_name's search for each base stopped
        self.done: dict = {}  # label -> (statements, exit)
        self.made = 0  # labels handed out
        self.order: list = []  # labels in the order their blocks were opened
        self.label, self.stmts = None, []
        self.start(self.fresh())
        self.loops: list = []  # (continue target, break target), innermost last

    def fresh(self) -> str:
        self.made += 1
        return f"bb{self.made - 1}"

    def finish(self, exit_):
        """End the open block with `exit_`; what follows, up to the next label, is dead."""
        if self.label is not None:
            self.done[self.label] = (tuple(self.stmts), exit_)
        self.label, self.stmts = None, []

    def start(self, label: str):
        self.order.append(label)
        self.label, self.stmts = label, []

    def goto(self, label: str, span):
        self.finish(L["Goto"](label, span=span))

    def local(self, base: str) -> str:
        """A name no variable of the function has: `i_end`, `i_end#1`, ..."""
        return unused_name(base, self.taken, self.tried)

    def block(self, stmts):
        for stmt in stmts:
            if self.label is None:
                return  # after a jump or a return: never runs
            _LOWER.get(stmt._prod, _Builder.simple)(self, stmt)

    def simple(self, stmt):
        self.stmts.append(self.run.walk(stmt))

    def body(self, block):
        """A nested block's statements, and its trailing value for its effects."""
        self.block(block.stmts)
        if block.value is not None:
            self.deliver(block.value, self.drops)

    # -- where a value goes: an `if` value delivers each branch's value there itself ------

    def deliver(self, value, sink, span=None):
        """Hand `value` (None: no value) to `sink`, unless the block already jumped away; an
        `if` value becomes a branch whose arms each hand their own value to `sink`."""
        if self.label is None:
            return
        if value is None or value._prod != "IfExpr":
            sink(self.run.walk(value) if value is not None else None, value.span if value
                 else span)
            return
        then, orelse, after = self.fresh(), self.fresh(), self.fresh()
        self.finish(L["Branch"](self.run.walk(value.cond), then, orelse, span=value.span))
        for label, arm in ((then, value.then), (orelse, value.orelse)):
            self.start(label)
            self.block(arm.stmts)
            self.deliver(arm.value, sink, arm.span)
            self.goto(after, value.span)
        self.start(after)

    def returns(self, value, span):
        self.finish(L["Return"](value, span=span))

    def drops(self, value, span):
        if value is not None:
            self.stmts.append(L["ExprStmt"](value, span=span))

    @_LOWER.on("Let")
    def s_Let(self, stmt):
        if stmt.value._prod != "IfExpr":
            return self.simple(stmt)
        # The variable starts at its type's zero (check-native-subset admits only a scalar, a
        # vector or () here), then each arm assigns its value.
        ty, span = self.run.walk(stmt.type), stmt.span
        self.stmts.append(L["Let"](stmt.name, True, ty, _zero(ty, span), span=span))
        target = L["Local"](stmt.name, span=span)
        self.deliver(stmt.value, lambda v, at: self.stmts.append(
            L["Assign"](target, "=", v, span=at)))

    @_LOWER.on("Assign")
    def s_Assign(self, stmt):
        if stmt.value._prod != "IfExpr":
            return self.simple(stmt)
        target = self.run.walk(stmt.target)
        self.deliver(stmt.value, lambda v, at: self.stmts.append(
            L["Assign"](target, stmt.op, v, span=at)))

    @_LOWER.on("ExprStmt")
    def s_ExprStmt(self, stmt):
        if stmt.expr._prod != "IfExpr":
            return self.simple(stmt)
        self.deliver(stmt.expr, self.drops)

    @_LOWER.on("BlockStmt")
    def s_BlockStmt(self, stmt):
        self.body(stmt.body)

    @_LOWER.on("If")
    def s_If(self, stmt):
        then, after = self.fresh(), self.fresh()
        orelse = self.fresh() if stmt.orelse is not None else after
        self.finish(L["Branch"](self.run.walk(stmt.cond), then, orelse, span=stmt.span))
        for label, arm in ((then, stmt.then), (orelse, stmt.orelse)):
            if arm is not None:
                self.start(label)
                self.body(arm)
                self.goto(after, stmt.span)
        self.start(after)

    @_LOWER.on("While")
    def s_While(self, stmt):
        head, body, after = self.fresh(), self.fresh(), self.fresh()
        self.goto(head, stmt.span)
        self.start(head)
        self.finish(L["Branch"](self.run.walk(stmt.cond), body, after, span=stmt.span))
        self.loop(body, head, after, stmt.body, stmt.span)
        self.start(after)

    @_LOWER.on("For")
    def s_For(self, stmt):
        head, body, step, after = self.fresh(), self.fresh(), self.fresh(), self.fresh()
        span, ty = stmt.span, L["Scalar"](stmt.type, span=stmt.span)
        base = display_name(stmt.var)
        counter, bound = self.local(f"{base}_next"), self.local(f"{base}_end")
        self.stmts.append(L["Let"](counter, True, ty, self.run.walk(stmt.start), span=span))
        self.stmts.append(L["Let"](bound, False, ty, self.run.walk(stmt.end), span=span))
        self.goto(head, span)
        self.start(head)
        less = L["Binary"]("<", stmt.type, L["Local"](counter, span=span),
                           L["Local"](bound, span=span), span=span)
        self.finish(L["Branch"](less, body, after, span=span))
        one = L["Binary"]("+", stmt.type, L["Local"](counter, span=span),
                          L["Int"](1, stmt.type, span=span), span=span)
        increment = L["Assign"](L["Local"](counter, span=span), "=", one, span=span)
        bind = L["Let"](stmt.var, False, ty, L["Local"](counter, span=span), span=span)
        self.loop(body, step, after, stmt.body, span, first=bind)
        self.start(step)
        self.stmts.append(increment)
        self.goto(head, span)
        self.start(after)

    def loop(self, body, again, after, block, span, first=None):
        """The body of a loop, `continue` going to `again` and `break` to `after`; the
        block after the loop is the caller's to open."""
        self.start(body)
        if first is not None:
            self.stmts.append(first)
        self.loops.append((again, after))
        self.body(block)
        self.loops.pop()
        self.goto(again, span)

    @_LOWER.on("Break")
    def s_Break(self, stmt):
        self.goto(self.loops[-1][1], stmt.span)

    @_LOWER.on("Continue")
    def s_Continue(self, stmt):
        self.goto(self.loops[-1][0], stmt.span)

    @_LOWER.on("Return")
    def s_Return(self, stmt):
        self.deliver(stmt.value, self.returns, stmt.span)

    def blocks(self) -> tuple:
        """The blocks a jump reaches from the entry, relabelled bb0, bb1, ... in order."""
        reached, todo = set(), ["bb0"]
        while todo:
            label = todo.pop()
            if label in reached:
                continue
            reached.add(label)
            exit_ = self.done[label][1]
            todo += [getattr(exit_, f) for f in ("target", "then", "orelse") if f in exit_._fields]
        kept = [label for label in self.order if label in reached]
        new = {old: f"bb{k}" for k, old in enumerate(kept)}
        out = []
        for label in kept:
            stmts, exit_ = self.done[label]
            out.append(L["BasicBlock"](new[label], stmts, _relabel(exit_, new), span=exit_.span))
        return tuple(out)


def _zero(ty, span):
    """The zero of a scalar type, or the vector of its lanes' zero; () has one value, the
    empty tuple, which holds nothing."""
    if ty._prod == "VectorType":
        return L["Splat"](_zero(ty.elem, span), ty, span=span)
    scalar = ty.name
    if scalar == "void":
        return L["Tuple"]((), span=span)
    if scalar == "bool":
        return L["Bool"](False, span=span)
    if scalar.startswith(("f", "bf")):
        return L["Float"](0.0, scalar, span=span)
    return L["Int"](0, scalar, span=span)


def _relabel(exit_, new: dict):
    changes = {f: new[getattr(exit_, f)] for f in ("target", "then", "orelse")
               if f in exit_._fields}
    return exit_.replace(**changes) if changes else exit_


def _names(fn) -> set:
    """Every local a function binds (unique from resolve-names on)."""
    names, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node._prod in ("Param", "Let"):
            names.add(node.name)
        elif node._prod == "For":
            names.add(node.var)
        stack.extend(child_nodes(node))
    return names
