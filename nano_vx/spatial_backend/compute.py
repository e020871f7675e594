"""One firing of a compute or scalar stage as C++ loops over its tokens: what the cuda backend
writes for `fire` (the tenstorrent backend's compute kernels go through tt-metal's compute
API, tt_compute.py). The meaning is nano_vx/spatial/ops.py's, element for element:

- integers add, subtract and multiply modulo 2^64 and wrap to the element type at the end
  (numpy's int64 products and sums, then `astype`); `/` truncates toward zero and x / 0 is 0;
- floats accumulate a matmul or a sum in the element type, as numpy's float32 does (the order
  of the additions differs, as it does under tiling); a scalar body computes in double;
- `add`, `sub`, `mul`, `div` and scalar bodies broadcast their tokens as numpy does (sizes 1
  stretch); `transpose` reads its input at the swapped coordinates.

A backend hands in, per input port, a function from (token, element index) to a C
expression that loads it, and per output port one from (token, element index) to an lvalue;
`lane`/`step` stride the element loops (a warp's lanes; 0 and 1 on one core).
"""

from __future__ import annotations

import math

import numpy as np

C_TYPES = {"i32": "int32_t", "i64": "int64_t", "f32": "float", "f64": "double"}

# Helpers every emitted file defines once, after `#define NVX_FN` (device or host inline).
HELPERS = """\
NVX_FN long long nvx_div(long long a, long long b) { return b == 0 ? 0 : a / b; }
NVX_FN double nvx_div(double a, double b) { return a / b; }
NVX_FN long long nvx_max(long long a, long long b) { return a > b ? a : b; }
NVX_FN double nvx_max(double a, double b) { return a > b ? a : b; }
NVX_FN long long nvx_min(long long a, long long b) { return a < b ? a : b; }
NVX_FN double nvx_min(double a, double b) { return a < b ? a : b; }
"""


def is_float(dtype: str) -> bool:
    return dtype.startswith("f")


def elems(shape) -> int:
    return int(math.prod(shape))


def fire_lines(p, stage, shapes, ins, outs, lane: str, step: str,
               held: tuple[str, str] | None = None) -> list[str]:
    """C++ statements for one firing. `ins[i](j, e)` loads element e of the j-th token of
    input port i; `outs[o](j, e)` is the lvalue of element e of output token j of port o.
    A matmul accumulating over n firings is given `held`: the array its running sum is in
    and the counter of its firings since it put one (which the caller advances); it adds its
    product to the sum element by element, as ops.accumulate does, and puts the sum at the
    n-th."""
    from ..spatial.program import ins as in_ports, outs as out_ports

    ports_in = in_ports(stage)
    dtype = p.stage_dtype(stage)
    t = C_TYPES[dtype]
    in_shapes = [shapes[port.stream] for port in ports_in]
    out_shape = shapes[out_ports(stage)[0].stream]
    n_out = elems(out_shape)
    rates = [port.rate for port in ports_in]
    kind = stage._prod if stage._prod == "Scalar" else stage.op
    loop = f"for (unsigned e = {lane}; e < {n_out}u; e += {step}) {{"

    def store(j: int, value: str) -> list[str]:
        return [f"    {put(j, 'e')} = ({t})({value});" for put in outs]

    if kind == "matmul_acc":
        (m, k), (_, n) = in_shapes
        acc = "unsigned long long" if not is_float(dtype) else t
        a, b = ins[0]("j", "row * %du + x" % k), ins[1]("j", "x * %du + col" % n)
        lines = [loop, f"    const unsigned row = e / {n}u, col = e % {n}u;",
                 f"    {acc} acc = 0;",
                 f"    for (unsigned j = 0; j < {rates[0]}u; ++j)",
                 f"        for (unsigned x = 0; x < {k}u; ++x) "
                 f"acc += {_as(acc, a)} * {_as(acc, b)};"]
        if held is None:
            return lines + store("0u", "acc") + ["}"]
        total, count = held
        return lines + [f"    {total}[e] = ({count} == 0u ? ({acc})0 : {total}[e]) + acc;",
                        f"    if ({count} + 1u == {stage.over}u) {{",
                        *("    " + x for x in store("0u", f"{total}[e]")),
                        "    }", "}"]
    if kind in ("sum", "max"):
        shape = in_shapes[0]
        axis = stage.axis
        stride = elems(shape[axis + 1:])
        extent = shape[axis]
        # e indexes the output (the axis of extent 1): its input element at position 0 of
        # the axis, then `stride` apart along it.
        base = f"(e / {stride}u) * {extent * stride}u + e % {stride}u"
        integer = not is_float(dtype)
        acc = ("long long" if kind == "sum" else "int64_t") if integer else t
        lines = [loop, f"    const unsigned base = {base};"]
        first = _as(acc, ins[0]("0u", "base"))
        x = _as(acc, ins[0]("j", f"base + i * {stride}u"))
        body = (f"acc += {x};" if kind == "sum"
                else f"{{ const {acc} v = {x}; if (v > acc) acc = v; }}")
        lines.append(f"    {acc} acc = {'0' if kind == 'sum' else first};")
        lines.append(f"    for (unsigned j = 0; j < {rates[0]}u; ++j)")
        lines.append(f"        for (unsigned i = 0; i < {extent}u; ++i) {body}")
        return lines + store("0u", "acc") + ["}"]
    if kind == "transpose":  # output element (c0, c1) is input element (c1, c0)
        index = [f"c1 * {out_shape[0]}u + c0"]
    else:
        index = [_broadcast_index(s, out_shape) for s in in_shapes]
    lines = [loop] + [c for d, c in enumerate(_coords(out_shape))
                      if any(f"c{d}" in i.split() for i in index)]
    args = [ins[i]("j", index[i]) for i in range(len(ins))]
    if kind == "Scalar":
        in_types = [p.token_dtype(port.stream) for port in ports_in]
        env = {name: (arg, is_float(d)) for name, arg, d in zip(stage.params, args, in_types)}
        value, _ = _expr(stage.body, env)
    elif kind in ("add", "sub", "mul"):
        cast = "double" if is_float(dtype) else "long long"
        sign = {"add": "+", "sub": "-", "mul": "*"}[kind]
        value = f"{_as(cast, args[0])} {sign} {_as(cast, args[1])}"
    elif kind == "div":
        cast = "double" if is_float(dtype) else "long long"
        value = f"nvx_div({_as(cast, args[0])}, {_as(cast, args[1])})"
    elif kind == "transpose":
        value = args[0]
    elif kind == "scale":
        factor = stage.factor
        cast = "double" if isinstance(factor, float) or is_float(dtype) else "long long"
        value = f"{_as(cast, args[0])} * {_number(factor)}"
    else:  # exp
        source = p.token_dtype(ports_in[0].stream)
        value = f"expf({args[0]})" if source == "f32" else f"exp((double)({args[0]}))"
    return ([f"for (unsigned j = 0; j < {min(rates)}u; ++j)"] + lines + store("j", value)
            + ["}"])


def _as(ctype: str, expr: str) -> str:
    return f"({ctype})({expr})"


def _number(v) -> str:
    if isinstance(v, float):
        return repr(v) if np.isfinite(v) else ("(1.0/0.0)" if v > 0 else "(-1.0/0.0)")
    return f"{v}LL"


def _coords(shape) -> list[str]:
    """c0, c1, ...: the coordinates of output element e."""
    out = []
    for d in range(len(shape)):
        inner = elems(shape[d + 1:])
        out.append(f"    const unsigned c{d} = (e / {inner}u) % {shape[d]}u;")
    return out


def _broadcast_index(shape, out_shape) -> str:
    """The linear index into a token of `shape` of output element (c0, c1, ...), numpy's
    broadcasting: dimensions aligned on the right, an extent of 1 stretched."""
    offset = len(out_shape) - len(shape)
    terms = []
    for d, extent in enumerate(shape):
        if extent == 1:
            continue
        stride = elems(shape[d + 1:])
        terms.append(f"c{d + offset} * {stride}u" if stride != 1 else f"c{d + offset}")
    return " + ".join(terms) or "0"


def _expr(e, env) -> tuple[str, bool]:
    """(C expression, whether it is a float) for a scalar body: integers in long long,
    floats in double."""
    kind = e._prod
    if kind == "Arg":
        arg, flt = env[e.name]
        return _as("double" if flt else "long long", arg), flt
    if kind == "Num":
        flt = isinstance(e.value, float)
        return (_number(e.value) if flt else f"{e.value}LL"), flt
    if kind == "Bin":
        (a, fa), (b, fb) = _expr(e.a, env), _expr(e.b, env)
        flt = fa or fb
        if flt:
            a, b = (a if fa else _as("double", a)), (b if fb else _as("double", b))
        if e.op in ("+", "-", "*"):
            return f"({a} {e.op} {b})", flt
        name = {"/": "nvx_div", "max": "nvx_max", "min": "nvx_min"}[e.op]
        return f"{name}({a}, {b})", flt
    a, fa = _expr(e.a, env)
    if e.op == "-":
        return f"(-{a})", fa
    a = a if fa else _as("double", a)
    if e.op == "exp":
        return f"exp({a})", True
    return f"(1.0 / {a})", True
