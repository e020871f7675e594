"""from-vx: a Vx kernel, once the front end has checked it (Lfolded) -> Sdataflow, the spatial
lane's first IL."""

from __future__ import annotations

import numpy as np

from ..languages.lfolded import Lfolded
from ..languages.sdataflow import DTYPES, Sdataflow
from ..nanopass import Pass
from ..spatial.vx_nests import BridgeError, Nest, Piece
from ..values.constants import int_value

S = Sdataflow


def _run(program, ctx):
    try:
        return _Bridge(program, ctx.kernel).graph()
    except BridgeError as err:
        ctx.diagnostics.error(err.code, err.span, err.message, help=list(err.help))
        return None


from_vx = Pass("from-vx", Lfolded, Sdataflow, """
Read a Vx kernel function as a dataflow graph, the bridge from Vx into the spatial lane (E7060
for what it does not read, E7061 for a tensor not written exactly once).

The kernel (`--kernel NAME`, or the one function with tensor parameters) takes its inputs as
tensors and its outputs as `&mut` tensors, all of i32, i64, f32 or f64 with extents known
while compiling; its body is loop nests (vx_nests.py says which), `spawn` blocks holding them
(an `unroll across` over a mesh slice is one per index), `let`s of numbers and of tensors made
with `::new()` that carry values from one nest to the next. Each nest is pieces, each writing a
box of one tensor; the pieces that write one tensor must all compute it the same way and
together write each of its elements exactly once (E7061 names what is written twice or
never), before any nest reads it. Each tensor's pieces are then one stage, whole tensors at a
time, as in every Sdataflow program: how the work is cut and placed again is the lane's
question (tile, place), which it answers from the target, not from how the kernel was written.
A parameter is a load, an output a store, a `let` tensor a stream. Anything else is E7060,
naming what the bridge expected.
""", run=_run)


class _Bridge:
    def __init__(self, program, kernel_name):
        self.program = program
        self.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
        self.fn = self._kernel(kernel_name)
        self.tensors: dict[str, tuple[str, tuple[int, ...]]] = {}
        self.roles: dict[str, str] = {}  # input, output, or local
        self.pieces: list[Piece] = []

    def _kernel(self, name):
        fns = [i for i in self.program.items if i._prod == "Fn"]
        if name is not None:
            found = [f for f in fns if f.name == name]
            if not found:
                raise BridgeError(None, f"there is no function '{name}' to lower",
                                  help=[f"the functions: {', '.join(f.name for f in fns)}"])
            return found[0]
        candidates = [f for f in fns if f.name != "main" and any(
            _tensor(p.type) is not None for p in f.params)]
        if len(candidates) != 1:
            names = ", ".join(f.name for f in candidates) or "none"
            raise BridgeError(None, f"nano-vx spatial lowers one kernel, and this program has "
                                    f"{len(candidates)} functions with tensor parameters "
                                    f"({names})", help=["name one: --kernel NAME"])
        return candidates[0]

    def graph(self):
        for p in self.fn.params:
            self._param(p)
        self._walk(self.fn.body, {})
        stages = _stages(self.pieces, self.roles, self.tensors)
        return _emit(self.fn.name, self.tensors, self.roles, stages)

    def _param(self, p):
        ty = p.type
        out = ty is not None and ty._prod == "BorrowType" and ty.mutable
        tensor = _tensor(ty.inner if out else ty)
        if tensor is None or ty._prod == "BorrowType" and not out:
            raise BridgeError(p.span, f"a kernel's parameters are tensors (its inputs) and "
                                      f"`&mut` tensors (its outputs): '{p.name}' is neither")
        self._declare(p.name, tensor, "output" if out else "input", p.span)

    def _declare(self, name, tensor, role, span):
        dtype, dims = tensor
        if dtype not in DTYPES:
            raise BridgeError(span, f"the spatial lane's tensors hold {', '.join(DTYPES)}; "
                                    f"'{name}' holds {dtype}")
        if any(d is None for d in dims):
            raise BridgeError(span, f"the extents of '{name}' must be known while compiling")
        self.tensors[name] = (dtype, dims)
        self.roles[name] = role

    def _walk(self, block, env):
        nest = Nest(self.tensors, self._const)
        for s in block.stmts:
            kind = s._prod
            if kind == "Let" and self._const(s.value, env) is not None:
                env[s.name] = self._const(s.value, env)
            elif kind == "Let" and s.value._prod == "TensorNew" and s.value.ctor == "new" \
                    and not s.value.args:
                self._declare(s.name, _tensor(s.value.type), "local", s.span)
            elif kind == "ExprStmt" and s.expr._prod == "Spawn":
                self._walk(s.expr.body, dict(env))
            elif kind == "BlockStmt":
                self._walk(s.body, dict(env))
            elif kind == "For":
                self.pieces += nest.pieces(s, env)
            elif not (kind == "Return" and s.value is None):
                raise BridgeError(s.span, "a kernel's body is loop nests, `spawn` blocks (an "
                                          "`unroll across`) holding them, and `let`s of numbers "
                                          "and of tensors made with `::new()`")
        last = block.value
        if last is not None and last._prod == "Spawn":  # `spawn on(..) { .. }` ending a block
            self._walk(last.body, dict(env))
        elif last is not None:
            raise BridgeError(last.span, "a kernel gives its results through its `&mut` "
                                         "parameters, not as a value")

    def _const(self, e, env):
        """The integer value of `e` while compiling, or None: `env` holds the locals known
        to be numbers (an `unroll across` index, a `let` of one, a loop over tiles' variable)."""
        return int_value(e, self.consts, env)

def _tensor(ty):
    """(element type, extents) of a tensor type, None for another type; an extent not known
    while compiling is None."""
    if ty is None or ty._prod != "TensorType" or ty.elem._prod != "Scalar":
        return None
    return ty.elem.name, tuple(d.value if d._prod == "DimInt" else None for d in ty.dims)


def _stages(pieces, roles, tensors):
    """The pieces of each tensor, in the order the kernel first writes it, each group checked
    to be one computation covering its tensor exactly, before anything reads it."""
    groups: dict[str, list[tuple[int, Piece]]] = {}
    for n, piece in enumerate(pieces):
        first = groups.setdefault(piece.out, [(n, piece)])
        if first[0][1] is not piece:
            if not piece.same_stage(first[0][1]):
                raise BridgeError(piece.span, f"'{_show(piece.out)}' is written by two "
                                              f"different computations: this one and the one "
                                              f"at {first[0][1].span}", code="E7061")
            first.append((n, piece))
        if roles[piece.out] == "input":
            raise BridgeError(piece.span, f"'{_show(piece.out)}' is an input of the kernel: "
                                          f"write into a `&mut` parameter or a `let` tensor")
    done: dict[str, int] = {}
    for out, group in groups.items():
        for n, piece in group:
            for name in piece.ins:
                if roles[name] != "input" and (name not in done or done[name] > n):
                    raise BridgeError(piece.span, f"'{_show(name)}' is read here before every "
                                                  f"element of it is written", code="E7061")
        _cover(out, [p for _, p in group], tensors[out][1])
        done[out] = group[-1][0]
    for name, role in roles.items():
        if role == "output" and name not in groups:
            raise BridgeError(None, f"the output '{_show(name)}' is never written",
                              code="E7061")
    return [(out, [p for _, p in group]) for out, group in groups.items()]


def _cover(out, pieces, shape):
    """Every element of `out` written by exactly one piece."""
    for k, a in enumerate(pieces):
        for (lo, hi), extent in zip(a.box, shape):
            if lo < 0 or lo > hi or hi > extent:
                raise BridgeError(a.span, f"a loop writes '{_show(out)}' over {lo}..{hi}, "
                                          f"outside its extent {extent}", code="E7061")
        for b in pieces[k + 1:]:
            if all(max(x0, y0) < min(x1, y1) for (x0, x1), (y0, y1) in zip(a.box, b.box)):
                where = _box(tuple((max(x0, y0), min(x1, y1))
                                   for (x0, x1), (y0, y1) in zip(a.box, b.box)))
                raise BridgeError(b.span, f"'{_show(out)}{where}' is written twice: here and at "
                                          f"{a.span}", code="E7061")
    written = sum(_volume(p.box) for p in pieces)
    whole = _volume(tuple((0, d) for d in shape))
    if written != whole:
        missed = _first_missed(pieces, shape)
        first = f": '{_show(out)}{missed}' is never written" if missed else ""
        raise BridgeError(pieces[0].span, f"'{_show(out)}' has {whole} elements and the loops "
                                          f"that write it write {written}{first}",
                          code="E7061", help=["write every element exactly once"])


def _first_missed(pieces, shape) -> str | None:
    """The first element no piece writes, as `[i][j]`, for a tensor small enough to mark."""
    if _volume(tuple((0, d) for d in shape)) > 1 << 24:
        return None
    marked = np.zeros(shape, dtype=bool)
    for p in pieces:
        marked[tuple(slice(lo, hi) for lo, hi in p.box)] = True
    left = np.argwhere(~marked)
    return "".join(f"[{int(i)}]" for i in left[0]) if len(left) else None


def _volume(box) -> int:
    n = 1
    for lo, hi in box:
        n *= max(0, hi - lo)
    return n


def _box(box) -> str:
    return "".join(f"[{lo}..{hi}]" for lo, hi in box)


def _show(name: str) -> str:
    return name.split("#", 1)[0]


def _ident(name: str) -> str:
    return name.replace("#", "_")


def _emit(name, tensors, roles, stages):
    """The Sdataflow graph: a load per input, a stage per written tensor, a store per output,
    a stream for each input port of each stage (a stage reading one tensor twice, `X @ X`,
    has two)."""
    stage_of = {out: _stage_name(pieces[0]) for out, pieces in stages}
    streams, sources = [], {t: [] for t in tensors}  # tensor -> the ports it feeds
    ins_of: dict[str, tuple] = {}
    for out, pieces in stages:
        ports = []
        for k, t in enumerate(pieces[0].ins):
            twice = pieces[0].ins.count(t) > 1
            stream = f"{_ident(t)}_{stage_of[out]}" + (f"_{k}" if twice else "")
            streams.append(S["Stream"](stream, tensors[t][0]))
            sources[t].append(S["Port"](stream, 1))
            ports.append(S["Port"](stream, 1))
        ins_of[out] = tuple(ports)
    stores = []
    for t in tensors:
        if roles[t] == "output":
            stream = f"{_ident(t)}_store"
            streams.append(S["Stream"](stream, tensors[t][0]))
            sources[t].append(S["Port"](stream, 1))
            stores.append(S["Store"](f"store_{_ident(t)}", _ident(t), S["Port"](stream, 1)))
    items = [S["Tensor"](_ident(t), dtype, dims, roles[t]) for t, (dtype, dims) in
             tensors.items() if roles[t] != "local"]
    loads = [S["Load"](f"load_{_ident(t)}", _ident(t), tuple(sources[t]))
             for t in tensors if roles[t] == "input" and sources[t]]
    computes = []
    for out, pieces in stages:
        p = pieces[0]
        if not sources[out]:
            raise BridgeError(p.span, f"'{_show(out)}' is computed and never read")
        if p.kind == "scalar":
            params = tuple(_ident(t) for t in p.ins)
            computes.append(S["Scalar"](stage_of[out], params, _sexpr(p.body, params),
                                        ins_of[out], tuple(sources[out]), None))
        else:
            computes.append(S["Compute"](stage_of[out], p.kind, p.body, None, ins_of[out],
                                         tuple(sources[out]), None))
    return S["Graph"](name, tuple(items), tuple(streams), tuple(loads + computes + stores))


def _stage_name(piece) -> str:
    return {"scalar": "compute", "matmul_acc": "matmul"}.get(piece.kind, piece.kind) + \
        f"_{_ident(piece.out)}"


def _sexpr(e, params):
    kind = e[0]
    if kind == "arg":
        return S["Arg"](params[e[1]])
    if kind == "num":
        return S["Num"](e[1])
    if kind == "bin":
        return S["Bin"](e[1], _sexpr(e[2], params), _sexpr(e[3], params))
    return S["Un"](e[1], _sexpr(e[2], params))
