"""Reductions over outer dims of a row-major tensor take a column path (running sums or
bests per column, no transposing copy): checked against NumPy and against the same
reduction on a layout the column path does not take."""
import numpy as np
import pytest

import tensorlib as tl


def _data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == "int64":
        return rng.integers(-50, 50, size=shape).astype(np.int64)
    if dtype == "uint64":  # values above 2**63 too: compared as unsigned
        return rng.integers(0, 2**64 - 1, size=shape, dtype=np.uint64)
    a = rng.standard_normal(shape).astype(dtype)
    if a.size > 3:
        flat = a.reshape(-1)
        flat[rng.integers(0, a.size, size=max(1, a.size // 97))] = np.nan
        flat[1] = -0.0
    return a


SHAPES = [((17, 5), (0,)), ((40, 33), (0,)), ((300, 1031), (0,)), ((3, 7, 520), (0, 1)), ((2, 64, 18), (0,)),
          ((100, 16), (0,)), ((5, 1, 600), (0,))]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint64"])
@pytest.mark.parametrize("shape,dims", SHAPES, ids=[str(s) for s, _ in SHAPES])
@pytest.mark.parametrize("op", ["amax", "amin"])
def test_outer_extremes_match_numpy(op, shape, dims, dtype):
    a = _data(shape, dtype, 1)
    x = tl.from_numpy(a)
    got = getattr(tl, op)(x, dim=dims)
    want = (np.max if op == "amax" else np.min)(a, axis=dims)  # NaN propagates in both
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got.numpy(), want)
    # the generic path on a permuted copy gives the same values
    perm = tuple(range(a.ndim))[::-1]
    y = tl.from_numpy(np.ascontiguousarray(a.transpose(perm))).permute(*perm)
    np.testing.assert_array_equal(getattr(tl, op)(y, dim=dims).numpy(), want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_outer_max_min_values_and_keepdim(dtype):
    a = _data((64, 40), dtype, 2)
    x = tl.from_numpy(a)
    np.testing.assert_array_equal(tl.amax(x, dim=0, keepdim=True).numpy(), np.max(a, axis=0, keepdims=True))
    mn, mx = tl.aminmax(x, dim=0)
    np.testing.assert_array_equal(mn.numpy(), np.min(a, axis=0))
    np.testing.assert_array_equal(mx.numpy(), np.max(a, axis=0))
    np.testing.assert_array_equal(x.max(dim=0).values.numpy(), np.max(a, axis=0))


def test_outer_extremes_threads_agree():
    a = _data((2000, 700), "float32", 3)
    x = tl.from_numpy(a)
    old = tl.get_num_threads()
    try:
        tl.set_num_threads(1)
        one = tl.amax(x, dim=0).numpy()
        tl.set_num_threads(2)
        two = tl.amax(x, dim=0).numpy()
    finally:
        tl.set_num_threads(old)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, np.max(a, axis=0))
