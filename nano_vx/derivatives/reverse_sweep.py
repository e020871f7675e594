"""The reverse sweep of an adjoint function, after the forward one (forward_sweep.py).

It visits the statements backwards, each reading the program's state as it was just before
the statement ran: it takes back the value the forward sweep saved, then passes the adjoint
of what the statement wrote to what it read (`x_adj += s * y` for `z = x * y`), branches as
the forward sweep branched, and turns each loop backwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..placement.typer import FLOAT_LIT, value_type
from .code import (
    FLOATS, Build, active, copy_into, dims_of, float_name, generated_name, loop_nest,
    picks_first, refuse, substitute, tensor_of,
)
from .differentiation import is_math
from .forward_sweep import Adjoints, ForwardSweep


@dataclass
class Sweeps(ForwardSweep):
    """Both sweeps of one function: where the adjoints are, and the names the reverse
    loops give the loop variables."""

    adj: Adjoints = field(default_factory=Adjoints)
    rename: dict = field(default_factory=dict)  # a loop variable -> its reverse loop's

    def _pop(self, b, ty: str):
        """The statement stepping the top of `ty`'s tape back, and the value it uncovers,
        of type `ty`."""
        floats = ty in FLOATS
        tape, top = (self.tape.floats, self.tape.top) if floats else \
            (self.tape.ints, self.tape.itop)
        step = b.assign(b.local(top), b.bin("-", b.local(top), b.int(1)))
        value = b.index(b.local(tape), [b.local(top)])
        if ty == "bool":
            value = b.bin("!=", value, b.int(0))
        elif ty not in ("f64", "i64"):
            value = b.cast(value, ty)
        return step, value

    # -- the reverse sweep -------------------------------------------------------------

    def reverse(self, stmts) -> list:
        out = []
        for s in reversed(stmts):
            out += self._reverse(s)
        return out

    def p(self, e):
        """A primal expression as the reverse sweep reads it: a loop variable under the
        name of the reverse loop's."""
        return substitute(e, self.rename)

    def _reverse(self, s) -> list:
        kind, b, info = s._prod, Build(s.span), self.info
        if kind == "Let":
            if tensor_of(s.type) is not None:
                return self._tensor_let(b, s)
            if active(s.type) or info.is_float(s.value):
                if s.name in self.adj.names:
                    return self.value(s.value, self.adj.scalar(b, s.name))
            return []
        if kind == "Assign":
            target = self.p(s.target)
            out = []
            if id(s) not in self.once:
                step, value = self._pop(b, self._kind(s.target))
                out += [step, b.assign(target, value)]
            place = self._adjoint_place(b, s.target)
            if place is not None:
                seed = info.names.fresh("d")
                out += [b.let(seed, b.scalar(self._float(s.target)), place, mutable=False,
                              inferred=True),
                        b.assign(place, b.flt(0.0))]
                out += self.value(s.value, b.local(seed))
            return out
        if kind == "If":
            step, value = self._pop(b, "bool")
            return [step, b.if_(value, self.reverse(s.then.stmts),
                                self.reverse(s.orelse.stmts if s.orelse else ()))]
        if kind == "For":
            ty = self._loop_type(s.var)
            hi, lo = info.names.fresh("hi"), info.names.fresh("lo")
            out = []
            for name in (hi, lo):
                step, value = self._pop(b, ty)
                out += [step, b.let(name, b.scalar(ty), value, mutable=False)]
            k, var = info.names.fresh("k"), info.names.derived(s.var, "_rev")
            turn = b.let(var, b.scalar(ty), b.bin("-", b.bin("-", b.bin(
                "+", b.local(lo), b.local(hi)), b.int(1)), b.local(k)), mutable=False)
            self.rename[s.var] = var
            body = self.reverse(s.body.stmts)
            del self.rename[s.var]
            return out + [b.for_(k, b.local(lo), b.local(hi), [turn] + body)]
        if kind == "While":
            step, value = self._pop(b, "i64")
            turns, k = info.names.fresh("turns"), info.names.fresh("k")
            return [step, b.let(turns, b.scalar("i64"), value, mutable=False),
                    b.for_(k, b.int(0), b.local(turns), self.reverse(s.body.stmts))]
        return []

    def _adjoint_place(self, b, target):
        """The adjoint of what an assignment writes: `x_adj`, `t_adj[i]`; None for an
        integer or bool."""
        if target._prod == "Local":
            return self.adj.scalar(b, target.name) if target.name in self.adj.names and \
                float_name(self.info.types[target.name]) is not None else None
        base, indices = _chain(target)
        if base is None or base.name not in self.adj.names:
            return None
        return b.index(self.adj.tensor(b, base.name), [self.p(i) for i in indices])

    def _tensor_let(self, b, s) -> list:
        """A tensor made in the outermost block: its elements' adjoints go to what made
        them."""
        info, value = self.info, s.value
        if s.name not in self.adj.names:
            return []
        adj = self.adj.tensor(b, s.name)
        ty = tensor_of(s.type)
        if value._prod == "TensorNew":
            if value.ctor != "fill" or not self._reads_adjoint(value.args[0]):
                return []
            total = info.names.fresh("total")
            out = [b.let(total, b.scalar(ty.elem.name), b.flt(0.0))]
            out += loop_nest(b, info.names, dims_of(ty, s),
                             lambda ix: [b.assign(b.local(total), b.index(adj, ix), "+=")])
            return out + self.adj_expr(value.args[0], b.local(total))
        if value._prod in ("ArrayLit", "TensorLit"):
            dims, out = dims_of(ty, s), []
            for k, x in enumerate(value.elems):
                out += self.adj_expr(x, b.index(adj, [b.int(i) for i in _unravel(k, dims)]))
            return out
        return self.value(value, b.borrow(adj))  # a call

    # -- adjoints of values ------------------------------------------------------------

    def value(self, e, seed) -> list:
        """The adjoint `seed` of a statement's whole value `e` passed to what it reads."""
        if e._prod == "Call" and not is_math(e):
            fn = self.info.program.differentiable_call(e)
            if fn is not None:
                return self._call(e, fn, seed)
        return self.adj_expr(e, seed)

    def _call(self, e, fn, seed) -> list:
        """`g$vjp` of the call's arguments and the seed: the adjoint of g's first parameter
        to differentiate comes back, the others are added to through `&mut`."""
        b, info = Build(e.span), self.info
        args = [self.p(a) for a in e.args]
        passed = [b.borrow(a) if p.type._prod == "TensorType" else a
                  for p, a in zip(fn.params, args)]
        actives = [(p, e.args[i]) for i, p in enumerate(fn.params) if active(p.type)]
        out, after, refs, lent = [], [], [], set()
        for p, arg in actives[1:]:
            t = tensor_of(p.type)
            base = _tensor_base(arg)
            if t is not None and base is not None and base in self.adj.names \
                    and base not in lent:
                lent.add(base)
                refs.append(self.adj.tensor_ref(b, base))
                continue
            name = info.names.fresh(p.name.split("#")[0] + "_adj")
            ty = t if t is not None else p.type
            out.append(b.let(name, ty, b.new_tensor(t) if t is not None else b.flt(0.0)))
            refs.append(b.borrow(b.local(name), mutable=True))
            after += self._give(arg, b.local(name), t, b)
        first_p, first_arg = actives[0]
        first = info.names.fresh(first_p.name.split("#")[0] + "_adj")
        first_t = tensor_of(first_p.type)
        out.append(b.let(first, first_t or first_p.type,
                         b.call(generated_name(fn.name, "vjp"), passed + [seed] + refs),
                         mutable=False, inferred=True))
        out += self._give(first_arg, b.local(first), first_t, b)
        return out + after

    def _give(self, arg, adjoint, t, b) -> list:
        """Add an argument's adjoint (`adjoint`, a local) to what the argument read."""
        if t is None:
            return self.adj_expr(arg, adjoint)
        base = _tensor_base(arg)
        if base is None or base not in self.adj.names:
            return []  # a tensor made for the call: a constant
        return copy_into(b, self.info.names, self.adj.tensor(b, base), adjoint,
                         dims_of(t, arg), "+=")

    def _float(self, e) -> str:
        """The float type of expression `e`, which its adjoint has: an unsuffixed literal's
        is the function's floats' (a `let` of a named type, not `_`, reads back from a dump
        as it was written)."""
        if value_type(self.info.of(e)) is FLOAT_LIT:
            return self.info.program.default_float(self.info.fn)
        return float_name(self.info.of(e))

    def _reads_adjoint(self, e) -> bool:
        return _reads(e, self.adj.names)

    def adj_expr(self, e, seed) -> list:
        """Pass the adjoint `seed` of expression `e` to the locals it reads."""
        info, b, kind = self.info, Build(e.span), e._prod
        if not info.is_float(e) or not self._reads_adjoint(e):
            return []
        if kind == "Local":
            if e.name not in self.adj.names:
                return []
            return [b.assign(self.adj.scalar(b, e.name), seed, "+=")]
        if kind == "Index":
            base, indices = _chain(e)
            if base is None:
                refuse(e, "an element of a tensor that is not a local variable")
            if base.name not in self.adj.names:
                return []
            return [b.assign(b.index(self.adj.tensor(b, base.name),
                                     [self.p(i) for i in indices]), seed, "+=")]
        if kind not in ("Binary", "Unary", "Cast", "Call"):
            return []  # a literal, a constant
        out = []
        if seed._prod not in ("Local", "Float", "Int"):
            name = info.names.fresh("d")
            out.append(b.let(name, b.scalar(self._float(e)), seed, mutable=False,
                             inferred=True))
            seed = b.local(name)
        p = self.p
        if kind == "Unary":
            return out + self.adj_expr(e.operand, b.neg(seed))
        if kind == "Cast":
            source = float_name(info.of(e.value))
            if source is None:
                return out
            return out + self.adj_expr(e.value, b.cast(seed, source))
        if kind == "Binary":
            x, y = e.left, e.right
            if e.op == "+":
                return out + self.adj_expr(x, seed) + self.adj_expr(y, seed)
            if e.op == "-":
                return out + self.adj_expr(x, seed) + self.adj_expr(y, b.neg(seed))
            if e.op == "*":
                return out + self.adj_expr(x, b.bin("*", seed, p(y))) + \
                    self.adj_expr(y, b.bin("*", p(x), seed))
            if e.op == "/":
                ratio = b.bin("/", seed, p(y))
                return out + self.adj_expr(x, ratio) + \
                    self.adj_expr(y, b.neg(b.bin("*", ratio, b.bin("/", p(x), p(y)))))
            return out
        if not is_math(e):
            return out  # a call of nothing to differentiate: a constant
        name, args = e.callee.name, e.args
        if name in ("max", "min"):
            x, y = args
            return out + [b.if_(picks_first(b, name, p(x), p(y)), self.adj_expr(x, seed),
                                self.adj_expr(y, seed))]
        x = args[0]
        if name == "exp":
            return out + self.adj_expr(x, b.bin("*", seed, p(e)))
        if name == "log":
            return out + self.adj_expr(x, b.bin("/", seed, p(x)))
        if name == "sqrt":
            return out + self.adj_expr(x, b.bin("/", seed, b.bin("*", b.flt(2.0), p(e))))
        return out + [b.if_(b.bin("<", p(x), b.flt(0.0)), self.adj_expr(x, b.neg(seed)),
                            self.adj_expr(x, seed))]  # abs


def _reads(e, names) -> bool:
    """Whether `e` reads a local of `names` (through a float operator, not in an index)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if x._prod == "Local":
            if x.name in names:
                return True
        elif x._prod == "Index":
            stack.append(x.base)
        elif x._prod in ("Binary", "Unary", "Cast", "Call", "IfExpr"):
            stack.extend(c for c in x.values() if hasattr(c, "_prod") and c._nt == "Expr")
            if x._prod == "Call":
                stack.extend(x.args)
    return False


def _chain(e):
    """The local an element read or write indexes, and the indices; (None, ..) when the
    base is not a local."""
    indices = []
    while e._prod == "Index":
        indices.append(e.index)
        e = e.base
    return (e if e._prod == "Local" else None), list(reversed(indices))


def _tensor_base(arg):
    """The local a tensor argument names: `t` or `&t`."""
    if arg._prod == "Borrow":
        arg = arg.value
    return arg.name if arg._prod == "Local" else None


def _unravel(k: int, dims) -> list[int]:
    out = []
    for d in reversed(dims):
        k, i = divmod(k, d)
        out.append(i)
    return list(reversed(out))
