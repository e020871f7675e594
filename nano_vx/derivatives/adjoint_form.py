"""The form differentiate-reverse writes a function's sweeps from: the function's body with
its result in one local, every early `return` gone, a user function's call and an `if`
value each bound to a local of its own, and the variables of nested blocks declared first.

The reverse sweep runs after the forward one, in the function's outermost block, so what it
reads must be declared there: a `let` in a branch or a loop becomes an assignment to a
variable declared at the top (a tensor, which would need its elements saved each time it is
made again, must be made in the outermost block: E3061 otherwise). An `if` holding a `return`
takes the statements after it into its branches that go on, so each branch ends the
function; a `return` inside a loop is refused (E3061), as are `break` and `continue`, which
make the trip count unknown when the loop starts. A call of a function of the program whose
result is differentiated, and an `if` whose value is, are bound to locals, so that each runs
once in the forward sweep and the reverse sweep finds its value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..nanopass import descendants
from .code import Build, float_name, is_print, refuse, tensor_of
from .differentiation import FnInfo, is_math


@dataclass
class Form:
    stmts: list  # the body
    hoisted: list  # `let`s of the variables of nested blocks, declared first
    once: set  # id() of the assignments that run at most once a call: nothing to save
    result: str  # the local holding the result


@dataclass
class Normalize:
    info: FnInfo
    hoisted: list = field(default_factory=list)
    once: set = field(default_factory=set)
    result: str = ""

    def run(self) -> Form:
        fn, info = self.info.fn, self.info
        body = fn.body
        returns = any(n._prod == "Return" for n in descendants(body))
        if tensor_of(fn.ret) is not None:
            if returns or body.value is None or body.value._prod != "Local":
                refuse(body.value or fn, "a tensor result that is not a local variable, "
                                         "returned at the end of the body")
            self.result = body.value.name
            return Form(self.seq(body.stmts, None, 0, True), self.hoisted, self.once,
                        self.result)
        self.result = info.names.fresh("result")
        info.declare(self.result, fn.ret)
        simple = not returns and body.value is not None and body.value._prod != "IfExpr"
        if not simple:
            self._hoist(Build(fn.span), self.result, fn.ret)
        stmts = self.seq(body.stmts, body.value, 0, True, result_let=simple)
        return Form(stmts, self.hoisted, self.once, self.result)

    # -- blocks ------------------------------------------------------------------------

    def seq(self, stmts, tail, depth: int, top: bool, result_let: bool = False) -> list:
        out = []
        stmts = list(_flat(stmts))
        for k, s in enumerate(stmts):
            if s._prod == "Return":
                if depth:
                    refuse(s, "a `return` inside a loop")
                return out + self.deliver(s.value, top and result_let)
            if s._prod == "If" and any(n._prod == "Return" for n in descendants(s)):
                if depth:
                    refuse(s, "a `return` inside a loop")
                out.append(self._split(s, stmts[k + 1:], tail))
                return out
            out += self.stmt(s, depth, top)
        if tail is not None:
            out += self.deliver(tail, top and result_let)
        return out

    def _split(self, s, rest, tail):
        """An `if` with a `return`: each branch that goes on takes what follows it."""
        b = Build(s.span)
        arms = []
        for arm in (s.then, s.orelse):
            stmts = list(_stmts_of(arm)) if arm is not None else []
            if _ends(stmts):
                arms.append(self.seq(stmts, None, 0, False))
            else:
                arms.append(self.seq(stmts + list(rest), tail, 0, False))
        return b.if_(s.cond, arms[0], arms[1])

    def deliver(self, e, as_let: bool) -> list:
        """The function's result is `e`."""
        b = Build(e.span)
        if e._prod == "IfExpr":
            return [b.if_(e.cond, self.seq(e.then.stmts, e.then.value, 0, False),
                          self.seq(e.orelse.stmts, e.orelse.value, 0, False))]
        pre, v = self.anf(e, 0, as_let, keep_call=True)
        if as_let:
            return pre + [b.let(self.result, self.info.fn.ret, v, mutable=False,
                                inferred=True)]
        a = b.assign(b.local(self.result), v)
        self.once.add(id(a))
        return pre + [a]

    # -- statements --------------------------------------------------------------------

    def stmt(self, s, depth: int, top: bool) -> list:
        kind, info, b = s._prod, self.info, Build(s.span)
        if kind == "Let":
            return self._let(s, depth, top)
        if kind == "Assign":
            target, value = s.target, s.value
            if s.op != "=":  # x op= e is x = x op e
                value = b.bin(s.op[:-1], target, value)
            if target._prod == "Local" and tensor_of(info.types[target.name]) is not None:
                refuse(s, "an assignment of a whole tensor")
            if target._prod == "Local" and value._prod == "IfExpr":
                return self.deliver_to(target.name, value, depth)
            pre, v = self.anf(value, depth, top, keep_call=True)
            return pre + [b.assign(target, v)]
        if kind == "If":
            return [b.if_(s.cond, self.seq(_stmts_of(s.then), None, depth, False),
                          self.seq(_stmts_of(s.orelse), None, depth, False)
                          if s.orelse is not None else None)]
        if kind in ("For", "While"):
            leave = next((n for n in descendants(s.body)
                          if n._prod in ("Break", "Continue", "Return")), None)
            if leave is not None:
                refuse(leave, f"`{leave._prod.lower()}` inside a loop, which makes its trip "
                              f"count unknown when it starts")
            return [s.replace(body=b.block(self.seq(s.body.stmts, None, depth + 1, False)))]
        if kind == "ExprStmt":
            if is_print(s):
                return []  # a derivative computes; it leaves out what f prints
            if s.expr._prod == "IfExpr":
                e = s.expr
                return [b.if_(e.cond, self.seq(_stmts_of(e.then), None, depth, False),
                              self.seq(_stmts_of(e.orelse), None, depth, False))]
            return [s]
        return [s]  # assert

    def _let(self, s, depth: int, top: bool) -> list:
        info, b = self.info, Build(s.span)
        if s.type._prod == "TensorType" or s.type._prod == "BorrowType":
            if tensor_of(s.type) is None:
                return [s] if top else refuse(s, "a tensor made inside a loop or a branch")
            if not top:
                refuse(s, "a tensor made inside a loop or a branch")
            value = s.value
            if value._prod == "TensorNew":
                return [s.replace(value=value.replace(ctor="new") if value.ctor == "uninit"
                                  else value)]  # every element is saved before it is written
            if value._prod in ("ArrayLit", "TensorLit"):
                pre, elems = [], []
                for x in value.elems:
                    p, v = self.anf(x, depth, top)
                    pre += p
                    elems.append(v)
                return pre + [s.replace(value=value.replace(elems=tuple(elems)))]
            if value._prod == "Call" and info.program.differentiable_call(value) is not None:
                pre, v = self.anf(value, depth, top, keep_call=True)
                return pre + [s.replace(value=v)]
            refuse(value, "a tensor that is not made here: a constructor, a list or a call")
        if s.value._prod == "IfExpr":
            self._hoist(b, s.name, s.type, like=s)
            return self.deliver_to(s.name, s.value, depth)
        pre, v = self.anf(s.value, depth, top, keep_call=True)
        return pre + self._bind(b, s.name, s.type, v, depth, top, like=s)

    def deliver_to(self, name: str, e, depth: int) -> list:
        """`name` takes the value of the `if` value `e`: an `if` statement assigning it."""
        if any(n._prod in ("Return", "Break", "Continue") for n in descendants(e)):
            refuse(e, "an `if` value that leaves with `return`, `break` or `continue`")
        b = Build(e.span)
        arms = []
        for arm in (e.then, e.orelse):
            stmts = self.seq(arm.stmts, None, depth, False)
            if arm.value._prod == "IfExpr":
                stmts += self.deliver_to(name, arm.value, depth)
            else:
                pre, v = self.anf(arm.value, depth, False, keep_call=True)
                a = Build(arm.value.span).assign(b.local(name), v)
                if depth == 0:
                    self.once.add(id(a))
                stmts += pre + [a]
            arms.append(stmts)
        return [b.if_(e.cond, arms[0], arms[1])]

    # -- binding -----------------------------------------------------------------------

    def _hoist(self, b, name: str, ty, like=None):
        """Declare `name` first, at its type's zero (with the span of the `let` it comes
        from, so a type that was inferred still reads as inferred)."""
        at = Build(like.span) if like is not None else b
        scalar = float_name(ty)
        if ty._prod == "Scalar" and ty.name == "bool":
            value = at.bool(False)
        elif scalar is not None:
            value = at.flt(0.0)
        else:
            value = at.int(0)
        self.hoisted.append(at.let(name, ty, value, inferred=like is None))

    def _bind(self, b, name, ty, value, depth, top, like=None) -> list:
        if top:
            return [b.let(name, ty, value, mutable=True, inferred=like is None)
                    if like is None else like.replace(value=value)]
        self._hoist(b, name, ty, like)
        a = b.assign(b.local(name), value)
        if depth == 0:
            self.once.add(id(a))
        return [a]

    def anf(self, e, depth: int, top: bool, keep_call: bool = False):
        """`e` with each differentiated call and `if` value in it bound to a local first:
        the statements binding them, and what is left of `e`. `keep_call`: `e` itself, a
        call, stays (a statement's whole value is bound already)."""
        pre: list = []
        info = self.info

        def go(x, whole=False):
            k = x._prod
            if k == "Call" and not is_math(x):
                fn = info.program.differentiable_call(x)
                if fn is None:
                    return x
                args = tuple(go(a) if info.is_float(a) else a for a in x.args)
                call = x.replace(args=args)
                if whole and keep_call:
                    return call
                if tensor_of(fn.ret) is not None:
                    refuse(x, "a tensor a call returns, used inside an expression")
                b = Build(x.span)
                name = info.names.fresh(_callee(fn.name) + "_value")
                ty = b.scalar(float_name(fn.ret))
                info.declare(name, ty)
                pre.extend(self._bind(b, name, ty, call, depth, top))
                return b.local(name)
            if not info.is_float(x):
                return x
            if k == "IfExpr":
                b = Build(x.span)
                name = info.names.fresh("if_value")
                ty = b.scalar(float_name(info.of(x)))
                info.declare(name, ty)
                self._hoist(b, name, ty)
                pre.extend(self.deliver_to(name, x, depth))
                return b.local(name)
            if k == "Binary":
                return x.replace(left=go(x.left), right=go(x.right))
            if k == "Unary":
                return x.replace(operand=go(x.operand))
            if k == "Cast":
                return x.replace(value=go(x.value))
            if k == "Call":  # a math built-in
                return x.replace(args=tuple(go(a) for a in x.args))
            return x
        out = go(e, whole=True)
        return pre, out


def _callee(name: str) -> str:
    return name.split("$", 1)[0].replace("::", "_")


def _flat(stmts):
    """Statements with each `{ .. }` block statement's own inlined (names are unique)."""
    for s in stmts:
        if s._prod == "BlockStmt":
            yield from _flat(_stmts_of(s.body))
        else:
            yield s


def _stmts_of(block):
    """A block's statements; a value it ends in is evaluated for its effects."""
    if block is None:
        return []
    if block.value is None:
        return list(block.stmts)
    return list(block.stmts) + [Build(block.value.span).expr_stmt(block.value)]


def _ends(stmts) -> bool:
    """Whether a statement list always leaves by `return`."""
    stmts = list(_flat(stmts))
    if not stmts:
        return False
    last = stmts[-1]
    if last._prod == "Return":
        return True
    return last._prod == "If" and last.orelse is not None and \
        _ends(_stmts_of(last.then)) and _ends(_stmts_of(last.orelse))
