"""What one loop nest of a Vx kernel computes, as pieces of a spatial stage: the part of the
bridge from Vx that reads loops (nano_vx/spatial_passes/from_vx.py holds the rest).

A nest is a run of `for` loops, each the only statement of the one around it, and a body. The
body's loops over elements are the ones whose variable indexes the tensor it writes; every
other loop is a loop over tiles, whose variable may appear only in the bounds of the loops
inside it. So `for t in 0..4 { for i in t * 16..(t + 1) * 16 { .. } }` is four pieces, each
writing rows 16t..16t+16: the loops over tiles are run here, while compiling, and each of
their iterations is one piece with a box of elements it writes. The bodies read:

- elementwise: `OUT[i][j] = EXPR`, EXPR arithmetic (+ - * /, unary -, `exp`, `max`, `min`)
  over numbers and elements `X[i][j]` read at the same indices (or at 0 along an axis where X
  has extent 1, which broadcasts): one `scalar` stage; `OUT[i][j] = X[j][i]`, a `transpose`;
- a matrix product: `let mut acc = 0; for k in 0..K { acc += A[i][k] * B[k][j]; }
  OUT[i][j] = acc;`: `matmul_acc`;
- a sum along an axis: `let mut s = 0; for j in 0..N { s += X[i][j]; } OUT[i][0] = s;` (or
  along axis 0, `X[j][i]` into `OUT[0][i]`): `sum`; a max, `let mut m = X[i][0]; for j in
  0..N { m = max(m, X[i][j]); } OUT[i][0] = m;`: `max`.

Anything else is E7060, naming what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lresolved import display_name
from ..nanopass import descendants

class BridgeError(Exception):
    """A kernel the bridge does not lower: E7060 at `span` (E7061 for tensors its loops do
    not write exactly once)."""

    def __init__(self, span, message: str, *, code: str = "E7060", help=()):
        super().__init__(message)
        self.span, self.message, self.code, self.help = span, message, code, tuple(help)


# The math built-ins a scalar stage has (docs/spatial.md, "The ILs"), with their arity.
_SCALAR_CALLS = {"exp": 1, "max": 2, "min": 2}

# The element types a cast to f32 widens exactly, as a stage computing in them does.
_WIDENS = ("bf16", "f16", "f32")

# Loops over tiles run while compiling: a nest that would make more pieces than this is
# refused rather than enumerated.
MAX_PIECES = 4096


@dataclass(frozen=True)
class Piece:
    """One part of a stage: `kind` over `ins` writes the `box` of `out` (a half-open range
    per axis)."""

    kind: str  # "scalar", "transpose", "matmul_acc", "sum", "max"
    out: str
    ins: tuple[str, ...]
    body: object  # scalar: the expression tree (see _expr); sum: the axis; matmul: None
    box: tuple[tuple[int, int], ...]
    span: object

    def same_stage(self, other: "Piece") -> bool:
        return (self.kind, self.out, self.ins, self.body) == \
            (other.kind, other.out, other.ins, other.body)


class Nest:
    """A loop nest being read: the kernel's tensors (name -> (dtype, shape)) and the
    constants in scope, to evaluate bounds and read the body against."""

    def __init__(self, tensors: dict, const):
        self.tensors = tensors
        self.const = const  # (expr, env) -> int or None
        self.env: dict = {}
        self.loop_vars: set = set()
        self.out = None  # the tensor the body being read writes

    def pieces(self, loop, env: dict) -> list[Piece]:
        self.env = env  # the constants the body may read (`let scale = 2;` before the nest)
        loops, block = _perfect(loop)
        self.loop_vars = {v for v, _, _ in loops}
        read = self._body(block, self.loop_vars)
        if read is None:
            raise BridgeError(loop.span, "this loop nest computes nothing the bridge reads: its "
                                         "innermost body is not an element assignment, a "
                                         "matrix product or a sum (docs/spatial.md, From Vx)")
        kind, out, ins, body, index_vars = read
        used = {n.name for n in descendants(block) if n._prod == "Local"}
        for var, _, _ in loops:
            if var not in index_vars and var in used:
                raise _tile_var_read(loop.span, var, out)
        out_pieces: list[Piece] = []
        self._enumerate(loops, 0, dict(env), {}, index_vars, kind, out, ins, body, loop,
                        out_pieces)
        return out_pieces

    def _enumerate(self, loops, d, env, ranges, index_vars, kind, out, ins, body, loop, acc):
        if d == len(loops):
            box = tuple(ranges[v] for v in index_vars)
            acc.append(Piece(kind, out, ins, body, box, loop.span))
            if len(acc) > MAX_PIECES:
                raise BridgeError(loop.span, f"its loops over tiles make more than {MAX_PIECES} "
                                             f"pieces")
            return
        var, start, end = loops[d]
        lo, hi = self._bound(start, env), self._bound(end, env)
        if var in index_vars:
            ranges[var] = (lo, hi)
            self._enumerate(loops, d + 1, env, ranges, index_vars, kind, out, ins, body, loop,
                            acc)
            return
        for value in range(lo, hi):
            env[var] = value
            self._enumerate(loops, d + 1, env, ranges, index_vars, kind, out, ins, body, loop,
                            acc)
        env.pop(var, None)

    def _bound(self, expr, env) -> int:
        value = self.const(expr, env)
        if value is None:
            raise BridgeError(expr.span, "a loop bound must be known while compiling (numbers, "
                                         "constants, the index of an `unroll across`, and the "
                                         "variables of loops over tiles): this one is not")
        return value

    # -- bodies -------------------------------------------------------------------------

    def _body(self, block, loop_vars):
        """(kind, out, ins, body, the index variables in the order of OUT's axes), or None."""
        stmts = list(block.stmts)
        if block.value is not None:
            return None
        if len(stmts) == 1 and stmts[0]._prod == "Assign" and stmts[0].op == "=":
            return self._elementwise(stmts[0], loop_vars)
        if len(stmts) == 3 and stmts[0]._prod == "Let" and stmts[1]._prod == "For" and \
                stmts[2]._prod == "Assign" and stmts[2].op == "=":
            return self._reduction(stmts, loop_vars)
        return None

    def _target(self, target, loop_vars):
        """OUT and its index expressions, for `OUT[a][b] = ..`."""
        name, idx = _element(target)
        if name not in self.tensors or len(idx) != len(self.tensors[name][1]):
            raise BridgeError(target.span, "the body assigns something that is not an element "
                                           "of a tensor of the kernel, indexed on every axis")
        return name, idx

    def _widened(self, e):
        """`X[i][j] as f32`, X of a narrow float or f32, is X[i][j] as the lane computes on it
        (a stage computes a narrow float in f32, exactly widened); anything else is itself."""
        if e._prod != "Cast" or e.type._prod != "Scalar" or e.type.name != "f32":
            return e
        name, _ = _element(e.value)
        return e.value if self.tensors.get(name, ("",))[0] in _WIDENS else e

    def _rounded(self, e, out):
        """`V as T` stored into a tensor of the narrow float T is V: the rounding each stage
        makes of its result."""
        dtype = self.tensors.get(out, ("",))[0]
        narrow = dtype in _WIDENS and dtype != "f32"
        if narrow and e._prod == "Cast" and e.type._prod == "Scalar" and e.type.name == dtype:
            return e.value
        return e

    def _elementwise(self, assign, loop_vars):
        out, idx = self._target(assign.target, loop_vars)
        index_vars = []
        for e in idx:
            if e._prod != "Local" or e.name not in loop_vars or e.name in index_vars:
                raise BridgeError(e.span, "an element assignment indexes its tensor by the "
                                          "nest's loop variables, one per axis")
            index_vars.append(e.name)
        value = self._rounded(assign.value, out)
        swapped = self._transposed(value, index_vars)
        if swapped is not None:
            return "transpose", out, (swapped,), None, tuple(index_vars)
        ins: list[str] = []
        self.out = out
        body = self._expr(value, index_vars, ins)
        if not ins:
            raise BridgeError(assign.value.span, "an element assignment reads a tensor of the "
                                                 "kernel: a tensor of one value is "
                                                 "`Tensor<T, [..]>::fill(v)`, made by the caller")
        return "scalar", out, tuple(ins), body, tuple(index_vars)

    def _transposed(self, value, index_vars):
        """X for `OUT[i][j] = X[j][i]`, X a matrix of the kernel: a transpose."""
        name, idx = _element(value) if value._prod == "Index" else (None, [])
        if name not in self.tensors or len(idx) != 2 or len(index_vars) != 2:
            return None
        i, j = index_vars
        return name if _is(idx[0], j) and _is(idx[1], i) else None

    def _expr(self, e, index_vars, ins):
        """An elementwise expression as a tree of tuples: ("arg", k), ("num", v),
        ("bin", op, a, b), ("un", op, a); inputs are numbered in order of first read."""
        kind = e._prod
        if kind in ("Int", "Float"):
            return ("num", e.value)
        if kind == "Binary" and e.op in ("+", "-", "*", "/"):
            return ("bin", e.op, self._expr(e.left, index_vars, ins),
                    self._expr(e.right, index_vars, ins))
        if kind == "Unary" and e.op == "-":
            return ("un", "-", self._expr(e.operand, index_vars, ins))
        if kind == "Call" and e.callee._prod == "Global" and e.callee.name in _SCALAR_CALLS \
                and len(e.args) == _SCALAR_CALLS[e.callee.name]:
            args = [self._expr(a, index_vars, ins) for a in e.args]
            name = e.callee.name
            return ("un", name, args[0]) if len(args) == 1 else ("bin", name, *args)
        if kind == "Cast" and self._widened(e) is not e:
            return self._expr(e.value, index_vars, ins)
        if kind == "Index":
            name, idx = _element(e)
            shape = self.tensors.get(name, (None, None))[1]
            if shape is None or len(idx) != len(shape):
                raise BridgeError(e.span, "an element read names a tensor of the kernel on "
                                          "every axis")
            for axis, (i, var) in enumerate(zip(idx, index_vars)):
                broadcast = i._prod == "Int" and i.value == 0 and shape[axis] == 1
                if not (broadcast or i._prod == "Local" and i.name == var):
                    raise BridgeError(i.span, f"an elementwise body reads its inputs at the "
                                              f"element it writes: index {axis} must be "
                                              f"'{display_name(var)}' (or 0 where the input's "
                                              f"extent is 1); a transpose is a nest of its "
                                              f"own, `T[i][j] = X[j][i]`")
            if name not in ins:
                ins.append(name)
            return ("arg", ins.index(name))
        if kind == "Local" and e.name in self.loop_vars and e.name not in index_vars:
            raise _tile_var_read(e.span, e.name, self.out)
        if kind in ("Local", "Global"):
            value = self.const(e, self.env)
            if value is not None:
                return ("num", value)
        raise BridgeError(e.span, "an elementwise body is arithmetic (+ - * /, `exp`, `max`, "
                                  "`min`) over numbers and elements of the kernel's tensors")

    def _reduction(self, stmts, loop_vars):
        let, inner, store = stmts
        out, idx = self._target(store.target, loop_vars)
        stored = self._rounded(store.value, out)
        if not let.mutable or stored._prod != "Local" or stored.name != let.name:
            return None
        k = inner.var
        [update] = inner.body.stmts if len(inner.body.stmts) == 1 else [None]
        how, term = _accumulated(update, let.name)
        if term is None:
            return None
        term = self._widened(term)
        zero = let.value._prod in ("Int", "Float") and let.value.value == 0
        if how == "sum" and zero and term._prod == "Binary" and term.op == "*":
            return self._matmul(out, idx, term, k, inner, loop_vars)
        if (how == "sum") != zero:
            raise BridgeError(let.value.span, "a sum starts from 0; a max or a min from the "
                                              "first element it reduces (`X[i][0]`)")
        return self._along(how, out, idx, term, k, inner, loop_vars,
                           None if zero else self._widened(let.value))
    def _full(self, loop, extent, what):
        lo, hi = self.const(loop.start, self.env), self.const(loop.end, self.env)
        if (lo, hi) != (0, extent):
            raise BridgeError(loop.span, f"{what} runs over the whole axis: 0..{extent}")

    def _matmul(self, out, idx, term, k, inner, loop_vars):
        (a, ai), (b, bi) = (_element(self._widened(x)) for x in (term.left, term.right))
        if not all(x in self.tensors and len(self.tensors[x][1]) == 2 for x in (a, b, out)) \
                or len(idx) != 2:
            raise BridgeError(term.span, "a matrix product reads two rank-2 tensors into a "
                                         "rank-2 one: `acc += A[i][k] * B[k][j]`")
        i, j = idx
        if not (_is(ai[0], i) and _is(ai[1], k) and _is(bi[0], k) and _is(bi[1], j)) or \
                not all(v._prod == "Local" and v.name in loop_vars for v in (i, j)):
            raise BridgeError(term.span, "a matrix product writes OUT[i][j] from "
                                         "A[i][k] * B[k][j], k the inner loop's variable")
        self._full(inner, self.tensors[a][1][1], "the inner loop of a matrix product")
        return "matmul_acc", out, (a, b), None, (i.name, j.name)

    def _along(self, how, out, idx, term, k, inner, loop_vars, first):
        """A sum, max or min of X along one axis into OUT, whose extent there is 1; a max or
        min starts from `first`, X's element 0 along that axis."""
        if how == "min":
            raise BridgeError(term.span, "the spatial lane reduces along an axis by sum and by "
                                         "max, not by min: `max` of the negated values is one")
        x, xi = _element(term) if term._prod == "Index" else (None, ())
        shape = self.tensors.get(out, (None, ()))[1]
        if x not in self.tensors or len(xi) != 2 or len(idx) != 2:
            raise BridgeError(term.span, f"a {how} reduces elements of a rank-2 tensor along "
                                         f"one axis: `s += X[i][j]`, `m = max(m, X[i][j])`")
        for axis in (0, 1):
            kept = 1 - axis
            var = idx[kept]
            if _is(xi[axis], k) and var._prod == "Local" and var.name in loop_vars and \
                    _is(xi[kept], var) and idx[axis]._prod == "Int" and idx[axis].value == 0 \
                    and shape[axis] == 1:
                if first is not None and not _starts(first, x, axis, var):
                    raise BridgeError(first.span, f"a {how} along axis {axis} starts from "
                                                  f"'{display_name(x)}' at 0 on that axis")
                self._full(inner, self.tensors[x][1][axis], f"the loop of a {how}")
                return how, out, (x,), axis, (var.name,)
        raise BridgeError(term.span, f"a {how} along axis 1 writes OUT[i][0] from X[i][j], one "
                                     f"along axis 0 OUT[0][j] from X[i][j], OUT's extent 1 on "
                                     f"the reduced axis")


def _starts(first, x, axis, var) -> bool:
    """Whether `first` is X's element 0 along `axis`, at `var` on the other."""
    name, idx = _element(first)
    if name != x or len(idx) != 2:
        return False
    zero, kept = idx[axis], idx[1 - axis]
    return zero._prod == "Int" and zero.value == 0 and _is(kept, var)


def _tile_var_read(span, var, out) -> BridgeError:
    return BridgeError(span, f"the loop over '{display_name(var)}' is a loop over tiles (it "
                             f"indexes no axis of '{display_name(out)}'), so its variable may "
                             f"appear only in the bounds of the loops inside it")


def _perfect(loop):
    """The loops of a perfect nest, (variable, start, end) outermost first, and its body."""
    loops = []
    while True:
        loops.append((loop.var, loop.start, loop.end))
        body = loop.body
        if len(body.stmts) == 1 and body.value is None and body.stmts[0]._prod == "For":
            loop = body.stmts[0]
            continue
        return loops, body


def _element(e):
    """`X[a][b]` as (X, [a, b]); (None, []) for anything else."""
    idx = []
    while e._prod == "Index":
        idx.append(e.index)
        e = e.base
    if e._prod not in ("Local", "Global"):
        return None, []
    return e.name, list(reversed(idx))


def _is(e, var) -> bool:
    name = var if isinstance(var, str) else var.name if var._prod == "Local" else None
    return e._prod == "Local" and e.name == name


def _accumulated(update, acc):
    """How `update` folds a term into acc, and the term: ("sum", t) for `acc += t` (or
    `acc = acc + t`), ("max", t) for `acc = max(acc, t)` (or `max(t, acc)`), ("min", t)
    likewise; (None, None) for anything else."""
    if update is None or update._prod != "Assign" or update.target._prod != "Local" or \
            update.target.name != acc:
        return None, None
    v = update.value
    if update.op == "+=":
        return "sum", v
    if update.op == "=" and v._prod == "Binary" and v.op == "+" and _is(v.left, acc):
        return "sum", v.right
    if update.op == "=" and v._prod == "Call" and v.callee._prod == "Global" and \
            v.callee.name in ("max", "min") and len(v.args) == 2:
        a, b = v.args
        if _is(a, acc) or _is(b, acc):
            return v.callee.name, b if _is(a, acc) else a
    return None, None
