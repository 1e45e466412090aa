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


# ---- column passes in blocks of 8 rows (issue 15 §4) ---------------------------------------
# Sums keep each column's additions in row order in double, so they are checked bit for bit
# against that order; the row and column counts straddle the block of 8 rows and the vector
# widths (8 / 16 columns).

def _ordered_colsum(a):
    """Row-by-row double sums of a 2-D array's columns, split into the row stretches the
    column pass uses for larger inputs (reduce.c outer_sums) and combined in order."""
    n, m = a.shape
    nrch = 1
    if n * m >= 4 * 32768:
        nrch = min(16, max(1, n // 64))
    rchunk = -(-n // nrch)
    parts = []
    for r0 in range(0, n, rchunk):
        acc = np.zeros(m, np.float64)
        for r in range(r0, min(n, r0 + rchunk)):
            acc += a[r].astype(np.float64)
        parts.append(acc)
    total = parts[0].copy()
    for p in parts[1:]:
        total += p
    return total


BLOCK_ROWS = [2, 7, 8, 9, 15, 16, 17, 33, 64, 65]
BLOCK_COLS = [16, 17, 23, 31, 32, 40, 129]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rows", BLOCK_ROWS)
def test_outer_sum_blocks_bitwise(rows, dtype):
    rng = np.random.default_rng(rows)
    for cols in BLOCK_COLS:
        a = (rng.standard_normal((rows, cols)) * 10.0 ** rng.integers(-3, 4, (rows, cols))).astype(dtype)
        want = _ordered_colsum(a)
        x = tl.from_numpy(a)
        np.testing.assert_array_equal(x.sum(0).numpy(), want.astype(dtype))
        np.testing.assert_array_equal(x.mean(0).numpy(), (want / rows).astype(dtype))


@pytest.mark.parametrize("shape", [(3000, 50), (1000, 300), (70, 70000)])
def test_outer_sum_stretches_bitwise_and_threads(shape):
    a = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    x = tl.from_numpy(a)
    old = tl.get_num_threads()
    try:
        got = {}
        for nt in (1, 2):
            tl.set_num_threads(nt)
            got[nt] = x.sum(0).numpy()
    finally:
        tl.set_num_threads(old)
    np.testing.assert_array_equal(got[1], got[2])
    np.testing.assert_array_equal(got[1], _ordered_colsum(a).astype(np.float32))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_outer_sum_special_values(dtype):
    a = np.random.default_rng(6).standard_normal((37, 41)).astype(dtype)
    a[3, 0] = np.nan
    a[8, 1] = np.inf
    a[16, 2], a[30, 2] = np.inf, -np.inf
    a[:, 3] = -0.0
    a[9, 4] = np.finfo(dtype).max
    a[10, 4] = np.finfo(dtype).max
    got = tl.from_numpy(a).sum(0).numpy()
    want = _ordered_colsum(a).astype(dtype)
    np.testing.assert_array_equal(got, want)
    # torch too: a column of -0.0 sums to +0.0 (the sum starts at +0.0)
    assert np.isnan(got[0]) and got[1] == np.inf and np.isnan(got[2]) and not np.signbit(got[3])
    assert np.isinf(got[4])


# the same layout change on a tensorlib tensor and a torch tensor: row-major, flipped rows, a
# column slice, transposed storage, and every third row of the flipped rows
LAYOUTS = [lambda v: v, lambda v: v.flip(0), lambda v: v[:, 1::2], lambda v: v.t().contiguous().t(),
           lambda v: v.flip(0)[::3]]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32",
                                   "int64", "bool"])
def test_outer_dim_reductions_every_dtype_and_layout(dtype):
    import torch
    base = torch.from_numpy(np.random.default_rng(7).standard_normal((67, 45)) * 20)
    t0 = base > 0 if dtype == "bool" else base.to(getattr(torch, dtype))
    x0 = tl.from_numpy(t0.to(torch.float64).numpy()).to(getattr(tl, dtype)) if dtype != "bool" else \
        tl.from_numpy(t0.numpy())
    ops = ["amax", "amin"] + (["argmax", "argmin", "sum"] if dtype != "bool" else [])  # torch: no bool argmax
    if dtype in ("float32", "float64", "float16", "bfloat16"):
        ops.append("mean")
    for lay in LAYOUTS:
        x, t = lay(x0), lay(t0)
        for op in ops:
            got = getattr(x, op)(0)
            want = getattr(t, op)(0)
            g = torch.from_numpy(got.to(tl.float64).numpy() if got.dtype == tl.bfloat16 else got.numpy())
            w = want.to(torch.float64) if want.dtype == torch.bfloat16 else want
            if op in ("sum", "mean") and w.is_floating_point():
                tol = {"float16": 2e-3, "bfloat16": 2e-2, "float32": 1e-6}.get(dtype, 1e-12)
                torch.testing.assert_close(g.to(w.dtype), w, rtol=tol, atol=tol * 20, msg=f"{op} {dtype}")
            else:
                assert g.dtype == w.dtype and torch.equal(g, w), (op, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["amax", "amin"])
def test_outer_extremes_nan_in_every_block_position(op, dtype):
    # a NaN in row r of column r % cols for every r: the first row (the starting value), every
    # row of a block of 8 and the rows after the last whole block
    rows, cols = 27, 35
    a = np.random.default_rng(8).standard_normal((rows, cols)).astype(dtype)
    for r in range(rows):
        a[r, r % cols] = np.nan
    a[5, 30], a[6, 31] = np.inf, -np.inf
    a[:, 32] = 0.0
    a[13, 32] = -0.0
    got = getattr(tl.from_numpy(a), op)(0).numpy()
    want = (np.max if op == "amax" else np.min)(a, axis=0)
    np.testing.assert_array_equal(got, want)
    import torch
    tg = getattr(torch.from_numpy(a), op)(0).numpy()
    np.testing.assert_array_equal(got, tg)
