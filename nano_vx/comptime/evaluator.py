"""The evaluator: one per compilation; each block (or lambda call) it folds starts afresh.

Code is compiled to closures once and then run (expressions.py, statements.py): a block when
it is folded, a function or closure body the first time it is called, so a loop or a
recursion runs compiled code on every step. Entry points raise ComptimeError for a block that
does not fold. Calls nest Python frames, so evaluation runs on the compiler's big-stack
thread; the depth that matters, 256 calls, is counted by the budget long before that stack
could run out.
"""

from __future__ import annotations

from ..deep import run_deep
from ..nanopass import descendants
from ..values.literals import scalar_hint
from ..values.math import apply
from ..values.numbers import describe
from .arithmetic import ArithmeticMixin
from .budget import MAX_DEPTH, MAX_STEPS, Budget
from .errors import cannot_finish, depends
from .expressions import ExprMixin
from .frames import Frame
from .placement import PlacementMixin
from .regions import RegionMixin
from .statements import StmtMixin
from .values import PRINT, Closure, Function, Math, Unknown


def recorded_types(fn) -> dict:
    """Unique name -> type, for every parameter and `let` of a function whose type is written
    down (infer-placement writes down every one): what `x.topology()` asks of `x`."""
    return {n.name: n.type for n in descendants(fn)
            if n._prod in ("Param", "Let") and n.type is not None}


class Code:
    """A compiled function or closure body, and what a call does around it."""

    __slots__ = ("node", "name", "params", "body", "ret")

    def __init__(self, node, name, params, body, ret):
        self.node = node  # kept, so that the id the code is found by stays the node's own
        self.name = name
        self.params = params  # (unique name, conformer or None)
        self.body = body
        self.ret = ret  # the return type's conformer, or None


class Evaluator(ExprMixin, StmtMixin, RegionMixin, ArithmeticMixin, PlacementMixin):
    def __init__(self, program, model=None):
        self.functions = {i.name: i for i in program.items if i._prod == "Fn"}
        self.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
        self.const_values: dict = {}
        self.model = model  # the memory model, for Reachable<A, B>
        self.types: dict = {}  # the current function's recorded types, for x.topology()
        self.codes: dict = {}  # id(Fn or Closure node) -> its Code, compiled once
        # While a body compiles: the scalar type `return` converts to, for literal typing.
        self.returns: str | None = None
        self.place_type = None  # the scalar type of the place an assignment writes (PLACE)
        self._fresh()

    def _fresh(self):
        self.budget = Budget()
        self.conditions: list = []  # why the code running now runs only sometimes
        self.log: list = []  # writes made while a condition is unknown (regions.py)
        self.tainted: dict = {}  # id(storage) -> (storage, why): its elements are unknown

    # -- entry points ----------------------------------------------------------------------

    def fold(self, block, span):
        """The value of a block in expression position; E3033 when it depends on a value
        known only at run time or on an integer result outside its type."""
        def run():
            self._fresh()
            v = self.value_block(block)(Frame())
            if type(v) is Unknown:
                depends(span, v.why)
            return v
        return run_deep(run)

    def run(self, block):
        """A block in statement position: run it for its checks; its value is dropped."""
        def run():
            self._fresh()
            r = self.stmts(block)(Frame())
            if r is not None:
                cannot_finish(block.span, "a `break`, `continue` or `return` leaves it")
        run_deep(run)

    def value(self, expr):
        """An expression outside any block (an `if comptime` condition, an argument of a
        comptime lambda): its value, unknown when it reads a run-time variable."""
        def run():
            self._fresh()
            return self.expr(expr)(Frame())
        return run_deep(run)

    def call_lambda(self, closure, args, span):
        """A call of a comptime lambda with known arguments: the value of its body."""
        def run():
            self._fresh()
            v = self.call(Closure(closure, Frame()), args, span)
            if type(v) is Unknown:
                depends(span, v.why, what="the value of this call")
            return v
        return run_deep(run)

    # -- calls -----------------------------------------------------------------------------

    def call(self, callee, args, span):
        if type(callee) is Function:
            frame = Frame()
        elif type(callee) is Closure:
            frame = Frame(callee.frame)
        elif type(callee) is Unknown:
            depends(span, callee.why, what="the function this call calls")
        elif callee is PRINT:
            cannot_finish(span, "`print` writes its output only when the program runs, and "
                                "this block disappears before then")
        elif type(callee) is Math:
            unknown = next((a for a in args if type(a) is Unknown), None)
            return unknown if unknown is not None else apply(callee.name, args, span)
        else:
            cannot_finish(span, f"a value of type {describe(callee)} is not a function")
        node = callee.node
        code = self.codes.get(id(node)) or self.code_of(node)
        if len(args) != len(code.params):
            cannot_finish(span, f"`{code.name}` takes {len(code.params)} argument(s) but "
                                f"{len(args)} were given")
        budget = self.budget  # a step, one deeper (see Budget.passed)
        budget.steps += 1
        budget.depth += 1
        if budget.steps > MAX_STEPS or budget.depth > MAX_DEPTH:
            budget.passed(span, code.name)
        held = frame.vars
        for (name, conform), v in zip(code.params, args):
            held[name] = conform(v, span) if conform is not None else v
        v = code.body(frame)
        if code.ret is not None:
            v = code.ret(v, node.body.span)
        budget.depth -= 1
        return v

    def code_of(self, node) -> Code:
        """The compiled body of a function (`Fn`) or closure, on its first call."""
        fn = node._prod == "Fn"
        saved, self.returns = self.returns, scalar_hint(node.ret) if fn else None
        try:
            code = Code(node, node.name if fn else "closure",
                        [(p.name, self.conformer(p.type)) for p in node.params],
                        self.fn_body(node.body),
                        self.conformer(node.ret) if fn else None)
        finally:
            self.returns = saved
        self.codes[id(node)] = code
        return code

    def const(self, name, span):
        """A `const` item's value, evaluated once (with its own budget: it runs anywhere)."""
        if name not in self.const_values:
            item = self.consts[name]
            self.const_values[name] = None  # a const that names itself finds this
            saved = self.budget, self.conditions, self.log
            self.budget, self.conditions, self.log = Budget(), [], []
            try:
                v = self.expr(item.value, scalar_hint(item.type))(Frame())
            finally:
                self.budget, self.conditions, self.log = saved
            self.const_values[name] = self.conform(v, item.type, item.span)
        v = self.const_values[name]
        if v is None:
            cannot_finish(span, f"the constant `{name}` depends on itself")
        return v
