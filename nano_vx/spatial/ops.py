"""What a stage computes, on real tiles (numpy arrays): the meaning every evaluator of the
spatial lane shares, from the unbounded dataflow graph to the choreographed program.

A load's firings walk its access (`tiles_of`); a compute or scalar stage's firing turns the
tokens its input ports deliver into the tokens of its output ports (`fire`). A stage computes
in its element type's compute type (f32 for the narrow floats) on operands converted to its
`via` type first, when it has one, and stores what it puts in its output's format
(`elements.py`).
"""

from __future__ import annotations

import itertools

import numpy as np

from .elements import ELEMENTS

# The numpy type of a token's array, per element type.
NUMPY_DTYPES = {name: e.storage for name, e in ELEMENTS.items()}


class OpError(Exception):
    """A stage whose tokens cannot be combined (shapes that do not meet, an axis the tile
    does not have): the program is ill-formed."""


def loop_points(loops) -> list[dict[str, int]]:
    """The points of a loop nest in firing order, the last loop varying fastest."""
    ranges = [range(lp.start, lp.stop, lp.step) for lp in loops]
    names = [lp.var for lp in loops]
    return [dict(zip(names, values)) for values in itertools.product(*ranges)]


def loop_count(loops) -> int:
    count = 1
    for lp in loops:
        count *= len(range(lp.start, lp.stop, lp.step))
    return count


def tile_coords(index, point: dict[str, int]) -> tuple[int, ...]:
    return tuple(0 if v == "0" else point[v] for v in index)


def tile_slices(tile, coords) -> tuple[slice, ...]:
    return tuple(slice(c * t, (c + 1) * t) for c, t in zip(coords, tile))


def access_slices(stage, shape) -> list[tuple[slice, ...]]:
    """Per firing, the region of the tensor a load or store touches. A stage without a tile
    (Sdataflow) touches the whole tensor at every firing."""
    if not hasattr(stage, "tile"):
        return [tuple(slice(0, n) for n in shape)]
    return [tile_slices(stage.tile, tile_coords(stage.index, p)) for p in loop_points(stage.loops)]


def fire(stage, inputs: list[list[np.ndarray]], out: str) -> list[np.ndarray]:
    """One firing: `inputs[i]` holds the tokens taken from input port i (its rate of them);
    returns the tokens put on each output port (the same list for every port), of element
    type `out`."""
    store = ELEMENTS[out].store
    inputs = _operands(stage, inputs)
    kind = stage._prod
    if kind == "Scalar":
        return [store(x) for x in _scalar(stage, inputs)]
    op = stage.op
    try:
        if op == "matmul_acc":
            return [store(_matmul_acc(*inputs, ELEMENTS[out].compute))]
        if op in ELEMENTWISE:
            a, b = inputs
            with np.errstate(all="ignore"):
                return [store(ELEMENTWISE[op](x, y)) for x, y in zip(a, b)]
        if op == "transpose":
            if any(x.ndim != 2 for x in inputs[0]):
                raise ValueError("transpose swaps the two axes of a matrix (a token of rank 2)")
            return [store(x.T) for x in inputs[0]]
        if op == "scale":
            return [store(x * stage.factor) for x in inputs[0]]
        if op == "exp":
            with np.errstate(over="ignore"):
                return [store(np.exp(x)) for x in inputs[0]]
        reduce = np.sum if op == "sum" else np.max
        parts = [reduce(x, axis=stage.axis, keepdims=True) for x in inputs[0]]
        return [store(reduce(np.stack(parts), axis=0))]
    except (ValueError, IndexError, np.exceptions.AxisError) as error:
        raise OpError(f"stage {stage.name} ({op}): {error}") from None


def accumulating(stage) -> bool:
    """A stage that sums its firings' products over several firings (`over n`, from Stiled
    on) and puts the sum every n-th firing."""
    return getattr(stage, "over", None) is not None


def accumulate(stage, inputs: list[list[np.ndarray]], out: str, held):
    """One firing of a `matmul_acc` over n firings. `held` is (firings since the last sum
    was put, the running sum in the compute type, or None); returns the new `held` and the
    tokens put on each output port: none, or on every n-th firing the sum, rounded once to
    `out`. The sum adds each firing's product in firing order, in the compute type (f32 for
    the narrow floats, as the destination register accumulates with 32-bit accumulation),
    which is the order a core accumulates its K-blocks in."""
    count, total = held
    e = ELEMENTS[out]
    try:
        product = _matmul_acc(*_operands(stage, inputs), e.compute)
    except ValueError as error:
        raise OpError(f"stage {stage.name} ({stage.op}): {error}") from None
    if total is not None and total.shape != product.shape:
        raise OpError(f"stage {stage.name} ({stage.op}): a product of shape "
                      f"{list(product.shape)} added to a sum of shape {list(total.shape)}")
    with np.errstate(over="ignore"):
        total = product if total is None else (total + product).astype(product.dtype)
    if count + 1 < stage.over:
        return (count + 1, total), []
    return NO_SUM, [e.store(total)]


# What an accumulating stage holds before its first firing, and after each sum it puts.
NO_SUM = (0, None)


def _operands(stage, inputs) -> list[list[np.ndarray]]:
    """The tokens as the stage computes on them: converted to its `via` type first when it
    has one, then a narrow float (stored in fewer than 32 bits) read as f32."""
    via = getattr(stage, "via", None)
    if via is not None:
        inputs = [[ELEMENTS[via].store(x) for x in port] for port in inputs]
    return [[_widened(x) for x in port] for port in inputs]


def _widened(x: np.ndarray) -> np.ndarray:
    narrow = x.dtype.itemsize < 4 and not np.issubdtype(x.dtype, np.integer)
    return x.astype(np.float32) if narrow else x


# Below this, every partial sum of an integer product is exact in a float64.
EXACT_IN_FLOAT64 = 2 ** 53


def _matmul_acc(a: list, b: list, dtype) -> np.ndarray:
    """The sum of the products of the token pairs, computed as one product of the tokens laid
    side by side, [a1 a2 ..] @ [b1; b2; ..]. Integers multiply in float64 (BLAS, far faster
    than numpy's integer loop) when every partial sum is exact there, else in int64; either
    way the result wraps to the element type as integer arithmetic does (mod 2^bits, which
    the order of the additions does not change)."""
    rows, cols = a[0].shape[0], b[0].shape[-1]
    for x, y in zip(a, b):
        # Else numpy would broadcast a 1-d tile or a thinner product into the sum.
        if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[0] or (
                x.shape[0], y.shape[1]) != (rows, cols):
            raise ValueError(f"the product of tiles of shapes {list(x.shape)} and "
                             f"{list(y.shape)} is not of shape {[rows, cols]}")
    left, right = np.concatenate(a, axis=1), np.concatenate(b, axis=0)
    if not np.issubdtype(dtype, np.integer):
        return left.astype(dtype) @ right.astype(dtype)
    left, right = left.astype(np.int64), right.astype(np.int64)
    # (in float64, so that the largest negative integer has a magnitude; with a bit to spare
    # for the rounding of the bound itself)
    bound = (np.abs(left, dtype=np.float64).max(initial=0)
             * np.abs(right, dtype=np.float64).max(initial=0) * left.shape[1])
    if bound < EXACT_IN_FLOAT64 / 2:
        exact = np.rint(left.astype(np.float64) @ right.astype(np.float64)).astype(np.int64)
        return exact.astype(dtype)
    return (left @ right).astype(dtype)


def divide(a, b):
    """`a / b` as the lane divides: integers truncate toward zero, as Vx's `/` does, and x / 0
    is 0 (docs/spatial.md): a spatial program cannot stop. Floats divide as IEEE does."""
    if np.issubdtype(np.result_type(a, b), np.integer):
        safe = np.where(b == 0, 1, b)
        quotient = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)
        return quotient * (b != 0)
    return np.divide(a, b)


# The element-wise compute ops of two operands, which broadcast them as numpy does: an operand
# of one row goes down every row of the other, one of one column across every column.
ELEMENTWISE = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": divide}

_BINARY = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": divide,
           "max": np.maximum, "min": np.minimum}


def _scalar(stage, inputs) -> list[np.ndarray]:
    out = []
    for tokens in zip(*inputs):
        env = dict(zip(stage.params, tokens))
        try:
            with np.errstate(all="ignore"):
                out.append(np.asarray(_eval(stage.body, env)))
        except ValueError as error:
            raise OpError(f"stage {stage.name} (scalar): {error}") from None
    return out


def _eval(e, env):
    kind = e._prod
    if kind == "Arg":
        return env[e.name]
    if kind == "Num":
        return e.value
    if kind == "Bin":
        return _BINARY[e.op](_eval(e.a, env), _eval(e.b, env))
    a = _eval(e.a, env)
    if e.op == "-":
        return np.negative(a)
    if e.op == "exp":
        return np.exp(a)
    return np.reciprocal(np.asarray(a, dtype=np.float64))
