"""The evaluator: one per compilation; each block (or lambda call) it folds starts afresh.

Entry points raise ComptimeError for a block that does not fold. Calls nest Python frames,
so evaluation runs on the compiler's big-stack thread; the depth that matters, 256 calls, is
counted by the budget long before that stack could run out.
"""

from __future__ import annotations

from ..deep import run_deep
from ..nanopass import descendants
from ..values.literals import scalar_hint
from ..values.tensors import Tensor
from .arithmetic import ArithmeticMixin
from .budget import Budget
from .errors import cannot_finish, depends
from .expressions import ExprMixin
from .frames import Frame
from .placement import PlacementMixin
from .regions import RegionMixin
from .statements import StmtMixin
from .values import PRINT, Closure, Function, Unknown


def recorded_types(fn) -> dict:
    """Unique name -> type, for every parameter and `let` of a function whose type is written
    down (infer-placement writes down every one): what `x.topology()` asks of `x`."""
    return {n.name: n.type for n in descendants(fn)
            if n._prod in ("Param", "Let") and n.type is not None}


class Evaluator(ExprMixin, StmtMixin, RegionMixin, ArithmeticMixin, PlacementMixin):
    def __init__(self, program, model=None):
        self.functions = {i.name: i for i in program.items if i._prod == "Fn"}
        self.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
        self.const_values: dict = {}
        self.model = model  # the memory model, for Reachable<A, B>
        self.types: dict = {}  # the current function's recorded types, for x.topology()
        # Dispatch by production name, looked up once rather than per node.
        self.x_methods = _Dispatch(self, "x_")
        self.s_methods = _Dispatch(self, "s_")
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
            v = self.value_block(block, Frame())
            if type(v) is Unknown:
                depends(span, v.why)
            return v
        return run_deep(run)

    def run(self, block):
        """A block in statement position: run it for its checks; its value is dropped."""
        def run():
            self._fresh()
            r = self.stmts(block, Frame())
            if r is not None:
                cannot_finish(block.span, "a `break`, `continue` or `return` leaves it")
        run_deep(run)

    def value(self, expr):
        """An expression outside any block (an `if comptime` condition, an argument of a
        comptime lambda): its value, unknown when it reads a run-time variable."""
        def run():
            self._fresh()
            return self.expr(expr, Frame())
        return run_deep(run)

    def call_lambda(self, closure, args, span):
        """A call of a comptime lambda with known arguments: the value of its body."""
        def run():
            self._fresh()
            v = self.call(Closure(closure, Frame()), args, [], span)
            if type(v) is Unknown:
                depends(span, v.why, what="the value of this call")
            return v
        return run_deep(run)

    # -- calls -----------------------------------------------------------------------------

    def call(self, callee, args, targs, span):
        if type(callee) is Unknown:
            depends(span, callee.why, what="the function this call calls")
        if callee is PRINT:
            cannot_finish(span, "`print` writes its output only when the program runs, and "
                                "this block disappears before then")
        if type(callee) is Function:
            node, frame, name = callee.node, Frame(ret=scalar_hint(callee.node.ret)), \
                callee.node.name
        elif type(callee) is Closure:
            node, frame, name = callee.node, Frame(callee.frame), "closure"
        else:
            cannot_finish(span, f"a value of type {callee.kind} is not a function")
        if len(args) != len(node.params):
            cannot_finish(span, f"`{name}` takes {len(node.params)} argument(s) but "
                                f"{len(args)} were given")
        self.budget.enter(span, name)
        if type(callee) is Function:
            self._bind_generics(node, frame, args, targs, span)
        for p, v in zip(node.params, args):
            frame.vars[p.name] = self.conform(v, p.type, span)
        v = self.fn_body(node.body, frame)
        if type(callee) is Function:
            v = self.conform(v, node.ret, node.body.span)
        self.budget.leave()
        return v

    def _bind_generics(self, fn, frame, args, targs, span):
        """Const generics: from `f<4>(..)`, else from the first tensor argument naming one."""
        consts = {g.name: g for g in fn.generics if g._prod == "ConstParam"}
        for g, tv in zip(fn.generics, targs):
            if g.name in consts and tv is not None:
                frame.vars[g.name] = self.conform(tv, g.type, span)
        for p, v in zip(fn.params, args):
            if p.type is None or p.type._prod != "TensorType":
                continue
            for k, d in enumerate(p.type.dims):
                if d._prod == "DimName" and d.name in consts and d.name not in frame.vars:
                    known = type(v) is Tensor and k < len(v.dims)
                    frame.vars[d.name] = v.dims[k] if known else v
        for name in consts:
            if name not in frame.vars:
                cannot_finish(span, f"the const generic `{name}` of `{fn.name}` is not bound "
                                    f"by the call")

    def const(self, name, span):
        """A `const` item's value, evaluated once (with its own budget: it runs anywhere)."""
        if name not in self.const_values:
            item = self.consts[name]
            self.const_values[name] = None  # a const that names itself finds this
            saved = self.budget, self.conditions, self.log
            self.budget, self.conditions, self.log = Budget(), [], []
            try:
                v = self.expr(item.value, Frame(), scalar_hint(item.type))
            finally:
                self.budget, self.conditions, self.log = saved
            self.const_values[name] = self.conform(v, item.type, item.span)
        v = self.const_values[name]
        if v is None:
            cannot_finish(span, f"the constant `{name}` depends on itself")
        return v


class _Dispatch(dict):
    """Production name -> the evaluator's method for it (`x_missing` / `s_missing` else)."""

    def __init__(self, evaluator, prefix: str):
        super().__init__((n[len(prefix):], getattr(evaluator, n))
                         for n in dir(evaluator) if n.startswith(prefix))
        self.fallback = self.pop("missing")

    def __missing__(self, prod: str):
        return self.fallback
