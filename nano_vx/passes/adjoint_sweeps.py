"""The two sweeps of an adjoint function, written from a function in adjoint form
(adjoint_form.py).

The forward sweep runs the function and saves, on a tape, what the reverse sweep needs and
the function overwrites: before each assignment (to a variable, or to an element of a
tensor) the old value; after each `if` the branch it took; after each loop its bounds (or,
for a `while`, the turns it made). Floats go on a tape of f64, integers and bools on one of
i64. The reverse sweep visits the statements backwards, each reading the program's state
as it was just before the statement ran: it takes back the saved value, then passes the
adjoint of what the statement wrote to what it read (`x_adj += s * y` for `z = x * y`),
branches as the forward sweep branched, and turns each loop backwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..nanopass import descendants
from ..placement.typer import INT_LIT, value_type
from ..values.constants import int_value
from .differentiate_forward import picks_first
from .derivative_code import (
    FLOATS, Build, active, copy_into, dims_of, float_name, loop_nest, refuse, substitute,
    tensor_of,
)
from .differentiation import FnInfo, generated_name, is_math


@dataclass
class Tape:
    """The names of the tapes and their tops, shared by both sweeps of a function."""

    floats: str
    top: str
    ints: str
    itop: str


@dataclass
class Adjoints:
    """Where each differentiated local's adjoint is: a local of its own, or (a parameter
    after the first) behind the `&mut` parameter the caller passed."""

    names: dict = field(default_factory=dict)  # local -> its adjoint's name
    by_ref: set = field(default_factory=set)  # the locals whose adjoint is a `&mut` parameter

    def scalar(self, b: Build, name: str):
        place = b.local(self.names[name])
        return b.deref(place) if name in self.by_ref else place

    def tensor(self, b: Build, name: str):
        return b.local(self.names[name])

    def tensor_ref(self, b: Build, name: str):
        place = b.local(self.names[name])
        return place if name in self.by_ref else b.borrow(place, mutable=True)


def _add(x, y):
    if x is None or y is None:
        return None
    return (x[0] + y[0], x[1] + y[1])


def _max(x, y):
    if x is None or y is None:
        return None
    return (max(x[0], y[0]), max(x[1], y[1]))


@dataclass
class Sweeps:
    info: FnInfo
    once: set
    tape: Tape
    adj: Adjoints
    counting: bool = False  # the forward sweep only counts what it would save
    hoisted: list = field(default_factory=list)  # its loops' bounds and counters
    rename: dict = field(default_factory=dict)  # a loop variable -> its reverse loop's
    used: list = field(default_factory=lambda: [False, False])  # each tape, pushed to
    ranges: dict = field(default_factory=dict)  # an enclosing loop's variable -> its range
    known: dict = field(default_factory=dict)  # an integer local bound once to a number

    def __post_init__(self):
        assigned = {n.target.name for n in descendants(self.info.fn.body)
                    if n._prod == "Assign" and n.target._prod == "Local"}
        for n in descendants(self.info.fn.body):
            if n._prod == "Let" and n.name not in assigned:
                value = int_value(n.value, self.info.program.consts, self.known)
                if value is not None:
                    self.known[n.name] = value

    # -- the tapes ---------------------------------------------------------------------

    def _push(self, b, value, ty: str) -> list:
        """Save `value`, of scalar type `ty`, on its tape (a float on the floats')."""
        floats = ty in FLOATS
        tape, top = (self.tape.floats, self.tape.top) if floats else \
            (self.tape.ints, self.tape.itop)
        self.used[0 if floats else 1] = True
        step = b.assign(b.local(top), b.bin("+", b.local(top), b.int(1)))
        if self.counting:
            return [step]
        if ty not in ("f64", "i64"):
            value = b.cast(value, "f64" if floats else "i64")
        return [b.assign(b.index(b.local(tape), [b.local(top)]), value), step]

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

    def _kind(self, target) -> str:
        """The scalar type a target holds: the tape and the conversion it needs."""
        info = self.info
        if target._prod == "Local":
            ty = info.types[target.name]
            if float_name(ty) is not None:
                return info.float_of(target.name)
        else:
            ty = info.of(target)
        ty = value_type(ty)
        if ty is INT_LIT:
            return "i32"
        name = float_name(ty) or ty.name
        return name

    # -- the forward sweep -------------------------------------------------------------

    def forward(self, stmts, depth: int = 0):
        """The forward sweep of `stmts`: its statements and how many values it saves on each
        tape, as (floats, ints), or None when that depends on the run."""
        out, count = [], (0, 0)
        for s in stmts:
            more, n = self._forward(s, depth)
            out += more
            count = _add(count, n)
        return out, count

    def _forward(self, s, depth):
        kind, b = s._prod, Build(s.span)
        if kind == "Assign":
            if id(s) in self.once:
                return [s], (0, 0)
            ty = self._kind(s.target)
            return self._push(b, s.target, ty) + [s], (1, 0) if ty in FLOATS else (0, 1)
        if kind == "If":
            then, a = self.forward(s.then.stmts, depth)
            orelse, c = self.forward(s.orelse.stmts if s.orelse else (), depth)
            then += self._push(b, b.int(1), "i64")
            orelse += self._push(b, b.int(0), "i64")
            return [b.if_(s.cond, then, orelse)], _add(_max(a, c), (0, 1))
        if kind == "For":
            ty = self._loop_type(s.var)
            lo, hi = self._temp(b, "lo", ty, s.start, depth), self._temp(b, "hi", ty, s.end, depth)
            a, z = self._range(s.start), self._range(s.end)
            if a is not None and z is not None:  # the tape's size bounds every turn
                self.ranges[s.var] = (a[0], z[1] - 1)
            body, n = self.forward(s.body.stmts, depth + 1)
            self.ranges.pop(s.var, None)
            loop = s.replace(start=b.local(lo[1]), end=b.local(hi[1]), body=b.block(body))
            saved = self._push(b, b.local(lo[1]), ty) + self._push(b, b.local(hi[1]), ty)
            turns = None if a is None or z is None else max(z[1] - a[0], 0)
            count = None if turns is None or n is None else \
                _add((n[0] * turns, n[1] * turns), (0, 2))
            return lo[0] + hi[0] + [loop] + saved, count
        if kind == "While":
            turns = self._temp(b, "turns", b.scalar("i64"), b.int(0), depth)
            body, _ = self.forward(s.body.stmts, depth + 1)
            step = b.assign(b.local(turns[1]), b.bin("+", b.local(turns[1]), b.int(1)))
            loop = s.replace(body=b.block(body + [step]))
            return turns[0] + [loop] + self._push(b, b.local(turns[1]), "i64"), None
        return [s], (0, 0)  # a `let` of the outermost block, an assert, a call

    def _range(self, e):
        """The least and the greatest value an integer expression can take, when they are
        known while compiling: from literals, constants, integer locals bound once to
        one, and the variables of the loops around it."""
        kind = e._prod
        if kind == "Local" and e.name in self.ranges:
            return self.ranges[e.name]
        if kind in ("Binary", "Unary") and e.op in ("+", "-", "*"):
            parts = [self._range(x) for x in ((e.left, e.right) if kind == "Binary"
                                                 else (e.operand,))]
            if None in parts:
                return None
            if kind == "Unary":
                return -parts[0][1], -parts[0][0]
            (a, b), (c, d) = parts
            if e.op == "+":
                return a + c, b + d
            if e.op == "-":
                return a - d, b - c
            ends = (a * c, a * d, b * c, b * d)
            return min(ends), max(ends)
        if kind == "Cast":
            return self._range(e.value)
        value = int_value(e, self.info.program.consts, self.known)
        return None if value is None else (value, value)

    def _loop_type(self, var: str) -> str:
        ty = value_type(self.info.types[var])
        return "i32" if ty is INT_LIT else ty.name

    def _temp(self, b, base: str, ty, value, depth):
        """A local the forward sweep keeps a value in: a `let` in the outermost block, else
        declared first and assigned."""
        if isinstance(ty, str):
            ty = b.scalar(ty)
        name = self.info.names.fresh(base)
        if depth == 0:
            return [b.let(name, ty, value)], name
        self.hoisted.append(b.let(name, ty, b.int(0)))
        return [b.assign(b.local(name), value)], name

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
                out += [b.let(seed, b.opaque(), place, mutable=False),
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
        out.append(b.let(first, b.opaque(), b.call(generated_name(fn.name, "vjp"),
                                                  passed + [seed] + refs), mutable=False))
        out += self._give(first_arg, b.local(first), tensor_of(first_p.type), b)
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
            out.append(b.let(name, b.opaque(), seed, mutable=False))
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
