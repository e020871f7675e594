"""The tile semantics of the spatial lane (nano_vx/spatial/ops.py) on real numpy tiles: every
compute op over several tokens (an element-wise op's row or column broadcast, a transpose),
scalar bodies (broadcasting, each function, integer division
as docs/spatial.md states it), the order of a loop nest, the region each firing of an access
touches, and the OpError of tokens an op cannot combine."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from nano_vx.spatial.ops import (NO_SUM, OpError, access_slices, accumulate, fire, loop_count,
                                 loop_points)
from nano_vx.spatial.parse import SpatialSyntaxError, parse_spatial

RNG = np.random.default_rng(7)


def _stage(line: str, language: str = "Sdataflow"):
    """The one stage of a program made of `line` (the parser does not ask for declarations)."""
    graph = parse_spatial(f"spatial one: {language} {{\n    {line}\n}}\n")
    (stage,) = graph.stages
    return stage


def _ints(*shape) -> np.ndarray:
    return RNG.integers(-5, 6, size=shape).astype(np.int32)


# -- compute ops -----------------------------------------------------------------------------


def test_matmul_acc_sums_the_products_of_every_token_pair():
    stage = _stage("compute mm matmul_acc(a x3, b x3) -> c")
    a = [_ints(2, 3) for _ in range(3)]
    b = [_ints(3, 4) for _ in range(3)]
    (out,) = fire(stage, [a, b], "i32")
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, sum(x @ y for x, y in zip(a, b)))
    # Cut along k, the tiles of one row block and one column block make the whole product.
    np.testing.assert_array_equal(out, np.concatenate(a, axis=1) @ np.concatenate(b, axis=0))


def test_a_matmul_over_n_firings_puts_the_sum_of_their_products_at_the_nth():
    stage = _stage("compute mm matmul_acc(a, b) over 3 -> c", "Stiled")
    a = [RNG.standard_normal((2, 4)).astype(np.float32) for _ in range(3)]
    b = [RNG.standard_normal((4, 2)).astype(np.float32) for _ in range(3)]
    held, made = NO_SUM, []
    for n in range(3):
        held, made = accumulate(stage, [[a[n]], [b[n]]], "bf16", held)
        assert (len(made), held[0]) == ((0, n + 1) if n < 2 else (1, 0))
    # In f32, block by block in firing order, rounded to bf16 once at the end.
    total = a[0] @ b[0]
    for x, y in zip(a[1:], b[1:]):
        total = total + x @ y
    assert held == NO_SUM and made[0].dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(made[0], total.astype(ml_dtypes.bfloat16))


def test_a_sum_carried_from_a_product_of_another_shape_is_an_op_error():
    stage = _stage("compute mm matmul_acc(a, b) over 2 -> c", "Stiled")
    held, _ = accumulate(stage, [[_ints(2, 3)], [_ints(3, 4)]], "i32", NO_SUM)
    with pytest.raises(OpError, match="added to a sum of shape"):
        accumulate(stage, [[_ints(2, 3)], [_ints(3, 5)]], "i32", held)


def test_over_is_stiled_text():
    with pytest.raises(SpatialSyntaxError, match="'over' is from Stiled on"):
        _stage("compute mm matmul_acc(a, b) over 2 -> c")


def test_matmul_acc_of_one_pair_is_the_product():
    stage = _stage("compute mm matmul_acc(a, b) -> c")
    a, b = RNG.uniform(-1, 1, (4, 2)), RNG.uniform(-1, 1, (2, 5))
    (out,) = fire(stage, [[a], [b]], "f64")
    np.testing.assert_allclose(out, a @ b)


@pytest.mark.parametrize("op, fn", [("add", np.add), ("sub", np.subtract),
                                    ("mul", np.multiply)])
def test_elementwise_binary_ops_go_token_by_token(op, fn):
    stage = _stage(f"compute k {op}(a x2, b x2) -> c x2")
    a, b = [_ints(2, 3), _ints(2, 3)], [_ints(2, 3), _ints(2, 3)]
    out = fire(stage, [a, b], "i32")
    assert len(out) == 2
    for got, x, y in zip(out, a, b):
        np.testing.assert_array_equal(got, fn(x, y))


@pytest.mark.parametrize("op, fn", [("add", np.add), ("sub", np.subtract),
                                    ("mul", np.multiply), ("div", np.divide)])
def test_a_row_goes_down_every_row_and_a_column_across_every_column(op, fn):
    stage = _stage(f"compute k {op}(a, b) -> c")
    x = RNG.uniform(1, 2, (4, 6)).astype(np.float32)
    row, column = RNG.uniform(1, 2, (1, 6)), RNG.uniform(1, 2, (4, 1))
    for operand in (row, column):
        operand = operand.astype(np.float32)
        (down,) = fire(stage, [[x], [operand]], "f32")
        (back,) = fire(stage, [[operand], [x]], "f32")
        np.testing.assert_array_equal(down, fn(x, np.broadcast_to(operand, x.shape)))
        np.testing.assert_array_equal(back, fn(operand, x))


def test_integer_div_truncates_toward_zero_and_by_zero_gives_zero():
    stage = _stage("compute k div(a, b) -> c")
    a = np.array([[7, -7, 7, -7, 5]], dtype=np.int32)
    b = np.array([[2, 2, -2, -2, 0]], dtype=np.int32)
    (out,) = fire(stage, [[a], [b]], "i32")
    assert out.tolist() == [[3, -3, -3, 3, 0]]


def test_transpose_swaps_the_axes_of_every_token():
    stage = _stage("compute t transpose(a x2) -> c x2")
    a = [_ints(2, 3), _ints(2, 3)]
    out = fire(stage, [a], "i32")
    assert [x.shape for x in out] == [(3, 2), (3, 2)]
    for got, x in zip(out, a):
        np.testing.assert_array_equal(got, x.T)


def test_a_bf16_stage_computes_in_f32_and_rounds_once():
    stage = _stage("compute k sub(a, b) -> c")
    a = np.array([[1.0, 256.0]], dtype=ml_dtypes.bfloat16)
    b = np.array([[2.0 ** -9], [1.0]], dtype=ml_dtypes.bfloat16)  # a column
    (out,) = fire(stage, [[a], [b]], "bf16")
    assert out.dtype == ml_dtypes.bfloat16
    # 1 - 2^-9 is not a bf16 value: it rounds to 1 (ties to even), as does 256 - 2^-9 to 256.
    assert out.astype(np.float32).tolist() == [[1.0, 256.0], [0.0, 255.0]]


def test_scale_multiplies_every_token_by_its_factor():
    stage = _stage("compute k scale 0.5 (a x2) -> c x2")
    a = [RNG.uniform(-1, 1, (2, 2)).astype(np.float32) for _ in range(2)]
    out = fire(stage, [a], "f32")
    assert [t.dtype for t in out] == [np.float32, np.float32]
    for got, x in zip(out, a):
        np.testing.assert_array_equal(got, x * np.float32(0.5))


def test_scale_by_an_integer_keeps_integers_exact():
    stage = _stage("compute k scale 3 (a) -> c")
    a = _ints(3, 3)
    (out,) = fire(stage, [[a]], "i32")
    np.testing.assert_array_equal(out, 3 * a)


def test_exp_of_every_token():
    stage = _stage("compute k exp (a x3) -> c x3")
    a = [RNG.uniform(-1, 1, (2, 4)) for _ in range(3)]
    out = fire(stage, [a], "f64")
    assert len(out) == 3
    for got, x in zip(out, a):
        np.testing.assert_allclose(got, np.exp(x))


@pytest.mark.parametrize("op, fn", [("sum", np.sum), ("max", np.max)])
@pytest.mark.parametrize("axis", [0, 1])
def test_reductions_combine_the_tokens_along_the_axis(op, fn, axis):
    """r tiles cut along the axis reduce to what the whole region reduces to."""
    stage = _stage(f"compute r {op} axis {axis} (a x3) -> c")
    tiles = [_ints(2, 4) for _ in range(3)]
    (out,) = fire(stage, [tiles], "i32")
    whole = np.concatenate(tiles, axis=axis)
    np.testing.assert_array_equal(out, fn(whole, axis=axis, keepdims=True))
    assert out.shape == ((1, 4) if axis == 0 else (2, 1))


def test_max_is_not_a_sum_of_the_tokens():
    stage = _stage("compute r max axis 1 (a x2) -> c")
    (out,) = fire(stage, [[np.array([[1, 7]]), np.array([[5, 2]])]], "i32")
    np.testing.assert_array_equal(out, [[7]])


# -- scalar bodies ---------------------------------------------------------------------------


def test_a_scalar_body_broadcasts_like_numpy_token_by_token():
    stage = _stage("scalar e(x: xs x2, m: ms x2) = exp(x - m) -> es x2")
    xs = [RNG.uniform(-1, 1, (2, 4)) for _ in range(2)]
    ms = [x.max(axis=1, keepdims=True) for x in xs]  # one per row, broadcast over the row
    out = fire(stage, [xs, ms], "f64")
    assert len(out) == 2
    for got, x, m in zip(out, xs, ms):
        assert got.shape == (2, 4)
        np.testing.assert_allclose(got, np.exp(x - m))


@pytest.mark.parametrize("body, fn", [
    ("x + y * 2", lambda x, y: x + y * 2),
    ("(x + y) * 2", lambda x, y: (x + y) * 2),
    ("x - -y", lambda x, y: x + y),
    ("-x", lambda x, y: -x),
    ("max(x, y)", np.maximum),
    ("min(x, y) - 1", lambda x, y: np.minimum(x, y) - 1),
    ("recip(x)", lambda x, y: 1 / x),
    ("x / y", lambda x, y: x / y),
    ("exp(-x) * y", lambda x, y: np.exp(-x) * y),
], ids=lambda v: v if isinstance(v, str) else None)  # a lambda's str has its address
def test_scalar_functions_on_floats(body, fn):
    stage = _stage(f"scalar f(x: a, y: b) = {body} -> c")
    x = np.array([[0.5, -2.0, 4.0]])
    y = np.array([[1.5, 0.25, -3.0]])
    (out,) = fire(stage, [[x], [y]], "f64")
    np.testing.assert_allclose(out, fn(x, y))


def test_integer_division_truncates_and_a_division_by_zero_gives_zero():
    """docs/spatial.md: integer / rounds toward zero as Vx's `/` does (and as `scale` does),
    x / 0 is 0 (a spatial program has no way to stop), unlike numpy's floor division."""
    stage = _stage("scalar q(x: a, y: b) = x / y -> c")
    x = np.array([7, -7, 7, -7, 5, -5, 0], dtype=np.int32)
    y = np.array([2, 2, -2, -2, 0, 0, 3], dtype=np.int32)
    (out,) = fire(stage, [[x], [y]], "i32")
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [3, -3, -3, 3, 0, 0, 0])


def test_integer_division_by_a_constant_truncates_too():
    stage = _stage("scalar h(x: a) = x / 2 -> c")
    (out,) = fire(stage, [[np.array([5, -5, 4], dtype=np.int32)]], "i32")
    np.testing.assert_array_equal(out, [2, -2, 2])


def test_division_by_a_float_constant_is_true_division_then_the_stage_type():
    stage = _stage("scalar h(x: a) = x / 2.0 -> c")
    (out,) = fire(stage, [[np.array([5, -5], dtype=np.int32)]], "f32")
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [2.5, -2.5])


def test_a_float_division_by_zero_is_inf_without_a_warning():
    stage = _stage("scalar h(x: a, y: b) = x / y -> c")
    with np.errstate(all="raise"):
        (out,) = fire(stage, [[np.array([1.0])], [np.array([0.0])]], "f64")
    assert np.isinf(out).all()


# -- loop nests and accesses -----------------------------------------------------------------


def test_loop_points_vary_the_last_loop_fastest():
    stage = _stage("load ld X[i, j] tile [1, 1] for i in 0..2, j in 1..6 step 2 -> a",
                   "Stiled")
    points = loop_points(stage.loops)
    assert [(p["i"], p["j"]) for p in points] == [(0, 1), (0, 3), (0, 5), (1, 1), (1, 3),
                                                   (1, 5)]
    assert loop_count(stage.loops) == len(points) == 6


def test_an_empty_nest_has_one_point():
    stage = _stage("load ld X[0] tile [4] -> a", "Stiled")
    assert loop_points(stage.loops) == [{}]
    assert loop_count(stage.loops) == 1


def test_access_slices_follow_the_loop_nest():
    # j is not in the index: each tile of column block k repeats once per j.
    stage = _stage("load ld A[i, k] tile [2, 3] for i in 0..2, j in 0..2, k in 1..3 -> a",
                   "Stiled")
    got = [(s[0].start, s[0].stop, s[1].start, s[1].stop)
           for s in access_slices(stage, (4, 9))]
    assert got == [(0, 2, 3, 6), (0, 2, 6, 9)] * 2 + [(2, 4, 3, 6), (2, 4, 6, 9)] * 2


def test_a_zero_in_the_index_is_the_first_tile():
    stage = _stage("store st y -> Y[0, j] tile [4, 2] for j in 0..3", "Stiled")
    a = np.arange(24).reshape(4, 6)
    assert [a[s].tolist() for s in access_slices(stage, a.shape)] == [
        a[:, 0:2].tolist(), a[:, 2:4].tolist(), a[:, 4:6].tolist()]


def test_an_untiled_access_touches_the_whole_tensor_once_per_firing():
    stage = _stage("load ld X -> a")
    assert access_slices(stage, (3, 5)) == [(slice(0, 3), slice(0, 5))]


# -- tokens an op cannot combine -------------------------------------------------------------


@pytest.mark.parametrize("line, tokens, fragment", [
    ("compute mm matmul_acc(a, b) -> c", [[np.ones((2, 3))], [np.ones((4, 2))]],
     "stage mm (matmul_acc): "),
    ("compute mm matmul_acc(a, b) -> c", [[np.ones(3)], [np.ones((3, 2))]],
     "stage mm (matmul_acc): "),
    # A thinner second product would broadcast into the sum.
    ("compute mm matmul_acc(a x2, b x2) -> c",
     [[np.ones((2, 3)), np.ones((1, 3))], [np.ones((3, 4)), np.ones((3, 4))]],
     "stage mm (matmul_acc): the product of tiles of shapes [1, 3] and [3, 4] is not "),
    ("compute ad add(a, b) -> c", [[np.ones((2, 3))], [np.ones((2, 4))]],
     "stage ad (add): "),
    ("compute dv div(a, b) -> c", [[np.ones((2, 3))], [np.ones((1, 2))]],
     "stage dv (div): "),
    ("compute t transpose(a) -> c", [[np.ones(3)]], "stage t (transpose): "),
    ("compute s sum axis 2 (a) -> c", [[np.ones((2, 3))]], "stage s (sum): "),
    ("compute m max axis 1 (a x2) -> c", [[np.ones((2, 3)), np.ones((3, 3))]],
     "stage m (max): "),
    ("scalar f(x: a, y: b) = x * y -> c", [[np.ones((2, 3))], [np.ones((3, 2))]],
     "stage f (scalar): "),
], ids=["matmul-inner", "matmul-rank", "matmul-pair-shapes", "add", "div", "transpose",
        "sum-axis",
        "max-token-shapes", "scalar"])
def test_tokens_an_op_cannot_combine_raise_op_error(line, tokens, fragment):
    stage = _stage(line)
    with pytest.raises(OpError) as caught:
        fire(stage, tokens, "f64")
    assert str(caught.value).startswith(fragment)
    assert len(str(caught.value)) > len(fragment)  # numpy's reason follows


@pytest.mark.parametrize("dtype, high", [
    (np.int32, 100),  # every partial sum exact in a float64: the BLAS path
    (np.int32, 2 ** 31 - 1),  # products past 2^53: the int64 path, wrapping
    (np.int64, 2 ** 62),  # the int64 path, wrapping mod 2^64
])
def test_an_integer_matmul_wraps_as_its_pairs_summed_one_by_one_would(dtype, high):
    rng = np.random.default_rng(7)
    a = [rng.integers(-high, high, (3, 4), dtype=dtype) for _ in range(3)]
    b = [rng.integers(-high, high, (4, 2), dtype=dtype) for _ in range(3)]
    with np.errstate(over="ignore"):
        want = np.zeros((3, 2), dtype=dtype)
        for x, y in zip(a, b):
            want = want + x @ y  # numpy's integer loop, wrapping at the element type
    name = {np.int32: "i32", np.int64: "i64"}[dtype]
    [got] = fire(_stage("compute mm matmul_acc(a x3, b x3) -> c"), [a, b], name)
    assert got.dtype == dtype and (got == want).all()
