"""Ordering ops against torch 2.13: sort (stable, descending, NaN placement), argsort,
msort, topk, unique (inverse, counts), searchsorted (right/side/sorter/out_int32, N-D),
bucketize; dtype grids, non-contiguous inputs, bad input."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


def make(shape, dtype, seed=0, nan=False, step=1):
    rng = np.random.default_rng(seed)
    full = tuple(s * step for s in shape)
    base = rng.integers(-3, 4, size=full).astype(np.float64)  # many ties: stability matters
    if nan and base.size > 3 and "float" in dtype:
        base.flat[::3] = np.nan
        base.flat[1] = -0.0
    if dtype == "bool":
        base = base > 0
    elif dtype.startswith("uint"):
        base = np.abs(base)
    src = np.ascontiguousarray(base.astype(np.float32) if dtype == "bfloat16" else base.astype(dtype))
    a, t = tl.from_numpy(src), torch.from_numpy(src.copy())
    if dtype == "bfloat16":
        a, t = a.to(tl.bfloat16), t.to(torch.bfloat16)
    if step > 1:
        sl = tuple(slice(None, None, step) for _ in shape)
        a, t = a[sl], t[sl]
    return a, t


def npv(x):
    if str(x.dtype).endswith("bfloat16"):
        x = x.to(tl.float32) if isinstance(x, tl.Tensor) else x.float()
    return x.numpy()


def same(r, e):
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    assert tuple(r.shape) == tuple(e.shape)
    np.testing.assert_array_equal(npv(r), npv(e))


SHAPES = [((), 1), ((0,), 1), ((9,), 1), ((4, 6), 1), ((3, 4, 5), 2), ((5, 0), 1)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_stable(dt, descending):
    for shape, step in SHAPES:
        for nan in (False, True):
            a, t = make(shape, dt, nan=nan, step=step)
            for dim in ([0, -1] if len(shape) else [0]):
                r = a.sort(dim=dim, descending=descending, stable=True)
                e = t.sort(dim=dim, descending=descending, stable=True)
                assert type(r).__name__ == "sort"
                same(r.values, e.values)
                same(r.indices, e.indices)
                same(a.argsort(dim, descending=descending), t.argsort(dim=dim, descending=descending, stable=True))
                same(tl.sort(a, dim, descending).values, e.values)


@pytest.mark.parametrize("dt", ["int32", "int64", "float16", "float32", "float64"])
def test_topk(dt):
    for shape, step in [((9,), 1), ((4, 6), 1), ((3, 4, 5), 2)]:
        a, t = make(shape, dt, seed=4, step=step)
        for k in (0, 1, 3):
            for largest in (True, False):
                r = a.topk(k, dim=-1, largest=largest)
                e = t.topk(k, dim=-1, largest=largest)
                same(r.values, e.values)
                np.testing.assert_array_equal(np.take_along_axis(npv(a), r.indices.numpy(), -1), npv(r.values))
    x = tl.tensor([1.0, float("nan"), 3.0])
    assert np.isnan(x.topk(1).values.numpy()[0])
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        x.topk(4)
    same(tl.msort(make((4, 6), "float32")[0]), torch.msort(make((4, 6), "float32")[1]))


@pytest.mark.parametrize("dt", DTYPES)
def test_unique(dt):
    for shape, step in SHAPES:
        a, t = make(shape, dt, seed=2, step=step)
        v, i, c = tl.unique(a, return_inverse=True, return_counts=True)
        ev, ei, ec = torch.unique(t, return_inverse=True, return_counts=True)
        same(v, ev)
        same(i, ei)
        same(c, ec)
        same(a.unique(), t.unique())


@pytest.mark.parametrize("dt", ["int32", "int64", "float32", "float64"])
def test_searchsorted(dt):
    bnd_np = np.array([-2, -1, -1, 0, 2, 3], dtype=dt)
    vals_np = np.array([[-3, -1, 0], [1, 3, 5]], dtype=dt)
    b, tb = tl.from_numpy(bnd_np), torch.from_numpy(bnd_np)
    v, tv = tl.from_numpy(vals_np), torch.from_numpy(vals_np)
    for kw in ({}, {"right": True}, {"side": "right"}, {"out_int32": True}):
        same(tl.searchsorted(b, v, **kw), torch.searchsorted(tb, tv, **kw))
        same(tl.bucketize(v, b, **{k: x for k, x in kw.items() if k != "side"}),
             torch.bucketize(tv, tb, **{k: x for k, x in kw.items() if k != "side"}))
    # N-D boundaries, a transposed (non-contiguous) values tensor, a scalar value
    bb = np.sort(np.random.default_rng(0).integers(-5, 5, (3, 7)).astype(dt), axis=1)
    vv = np.random.default_rng(1).integers(-6, 6, (4, 3)).astype(dt)
    same(tl.searchsorted(tl.from_numpy(bb), tl.from_numpy(vv).t()),
         torch.searchsorted(torch.from_numpy(bb), torch.from_numpy(vv).t()))
    same(tl.searchsorted(b, 0), torch.searchsorted(tb, 0))
    # sorter
    perm = np.random.default_rng(3).permutation(6)
    shuffled = bnd_np[perm]
    sorter = np.argsort(shuffled, kind="stable")
    same(tl.searchsorted(tl.from_numpy(shuffled), v, sorter=tl.from_numpy(sorter)),
         torch.searchsorted(torch.from_numpy(shuffled), tv, sorter=torch.from_numpy(sorter)))


def test_searchsorted_nan_and_errors():
    b = np.array([1.0, 2.0, np.nan], dtype=np.float32)
    v = np.array([np.nan, 2.0, -np.inf], dtype=np.float32)
    for right in (False, True):
        same(tl.searchsorted(tl.from_numpy(b), tl.from_numpy(v), right=right),
             torch.searchsorted(torch.from_numpy(b), torch.from_numpy(v), right=right))
    b2 = tl.tensor([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(RuntimeError, match="boundaries tensor should be 1 dimension"):
        tl.searchsorted(b2, tl.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="side can only be"):
        tl.searchsorted(tl.tensor([1.0]), tl.tensor([1.0]), side="x")
    with pytest.raises(RuntimeError, match="can't be set to opposites"):
        tl.searchsorted(tl.tensor([1.0]), tl.tensor([1.0]), side="left", right=True)
    with pytest.raises(RuntimeError, match="boundaries tensor must be 1 dimension"):
        tl.bucketize(tl.tensor([1.0]), b2)


def test_sort_bad_input():
    a, t = make((2, 3), "float32")
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        a.sort(2)
    with pytest.raises(RuntimeError, match="complex"):
        tl.zeros(3, dtype=tl.complex64).sort()
    x = tl.zeros(2, 3, names=("A", "B"))
    with pytest.raises(RuntimeError, match="named tensors"):
        x.sort()
    big = np.random.default_rng(0).standard_normal(200_000).astype(np.float32)
    r = tl.from_numpy(big).sort()
    np.testing.assert_array_equal(r.values.numpy(), np.sort(big, kind="stable"))
    np.testing.assert_array_equal(r.indices.numpy(), np.argsort(big, kind="stable"))


@pytest.mark.parametrize("op", ["kthvalue", "mode", "topk", "topk_unsorted", "topk_smallest"])
@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "int64", "int8", "bool"])
@pytest.mark.parametrize("n", [1, 2, 3, 16, 17, 40, 301, 2000])
def test_tie_indices_match_torch(op, dt, n):
    """Among equal values torch reports the index its quickselect (kthvalue), its sort (mode)
    or its partial_sort / nth_element (topk) lands on; tensorlib reproduces those algorithms,
    NaNs and -0.0 included."""
    if op != "mode" and dt == "bool":
        pytest.skip("kthvalue/topk are not implemented for bool in torch")
    if op.startswith("topk"):
        largest, srt = op != "topk_smallest", op != "topk_unsorted"
        op = "topk"
    rng = np.random.default_rng(n)
    a = rng.integers(0, 3 if n < 40 else 6, size=(4, n)).astype(np.float64)
    if dt.startswith("float"):
        a[rng.random(a.shape) < 0.15] = np.nan
        a[rng.random(a.shape) < 0.15] = -0.0
    x = tl.tensor(a.tolist(), dtype=getattr(tl, dt))
    t = torch.tensor(a.tolist(), dtype=getattr(torch, dt))
    ks = {"kthvalue": [1, (n + 1) // 2, n], "mode": [None]}.get(op, sorted({1, 2, n // 64, n // 64 + 1, n // 2, n} - {0}))
    for k in ks:
        if k is not None and k > n:
            continue
        args = (k, 1) if k else (1,)
        kw = {"largest": largest, "sorted": srt} if op == "topk" else {}
        got, want = getattr(x, op)(*args, **kw), getattr(t, op)(*args, **kw)
        assert got.indices.tolist() == want.indices.tolist()
        np.testing.assert_array_equal(got.values.to(tl.float64).numpy(), want.values.double().numpy())
        # along dim 0 of the transpose: the same rows through a strided plan
        got, want = getattr(x.t(), op)(*args[:-1], 0, **kw), getattr(t.t(), op)(*args[:-1], 0, **kw)
        assert got.indices.tolist() == want.indices.tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "float16"])
@pytest.mark.parametrize("shape,dim", [((1000,), 0), ((7, 130), -1), ((3, 4, 50), 2), ((3, 4, 50), 1), ((0, 5), -1)])
def test_sort_last_dim_results_are_own_contiguous_tensors(dtype, shape, dim):
    # along the last dim the sort's buffers become the results (no copy): they must still be
    # fresh, row-major tensors equal to torch's, and writing to them leaves the input alone
    import torch
    a = (np.random.default_rng(3).standard_normal(shape) * 100).astype(dtype)
    x = tl.from_numpy(a.copy())
    t = torch.from_numpy(a.copy())
    for desc in (False, True):
        v, i = x.sort(dim=dim, descending=desc, stable=True)
        tv, ti = t.sort(dim=dim, descending=desc, stable=True)
        np.testing.assert_array_equal(v.numpy(), tv.numpy())
        np.testing.assert_array_equal(i.numpy(), ti.numpy())
        assert v.is_contiguous() and i.is_contiguous() and v.dtype == x.dtype
        if v.numel():
            v.fill_(0)
            i.fill_(0)
        np.testing.assert_array_equal(x.numpy(), a)
    if shape[-1] >= 5:
        v, i = x.topk(5, dim=-1)
        tv, ti = t.topk(5, dim=-1)
        np.testing.assert_array_equal(v.numpy(), tv.numpy())
        np.testing.assert_array_equal(i.numpy(), ti.numpy())


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "int32", "uint8"])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_streamed_rows_skip_runs_exactly(dt, largest):
    """topk with k * 64 <= n keeps a heap of k and skips runs of elements none of which beats
    the heap top (sort.c TOPK_ANY): late NaNs (the largest key), ties with the top, -0.0 next
    to +0.0, infinities and integer extremes must reach the heap exactly as torch's
    partial_sort sees them (same indices), for row lengths around the run size."""
    rng = np.random.default_rng(7)
    isf = dt.startswith("float")
    for n in (64, 65, 79, 128, 143, 257, 1000, 4099):
        rows = []
        for variant in range(6):
            if isf:
                a = rng.integers(-1000, 1000, n).astype(np.float64) / 8
            else:
                lo, hi = (0, 256) if dt == "uint8" else (-1000, 1000)
                a = rng.integers(lo, hi, n).astype(np.float64)
            if variant == 1:
                a[n // 2:] = np.round(a[n // 2:] / 100) * 100  # many ties, late
            if variant == 2 and isf:
                a[rng.integers(n // 3, n, 3)] = np.nan
                a[-1] = np.nan
            if variant == 3 and isf:
                a[rng.random(n) < 0.3] = 0.0
                a[rng.random(n) < 0.3] = -0.0
                a[rng.integers(0, n, 2)] = np.inf
                a[rng.integers(0, n, 2)] = -np.inf
            if variant == 4:
                a = np.sort(a)[:: (1 if largest else -1)].copy()  # every element beats the top
            if variant == 5 and not isf:
                a[rng.integers(0, n, 4)] = {"uint8": 255, "int32": 2**31 - 1, "int64": 2**62}[dt]
                a[rng.integers(0, n, 4)] = {"uint8": 0, "int32": -2**31, "int64": -2**62}[dt]
            rows.append(a)
        m = np.stack(rows).astype(dt)
        x, t = tl.from_numpy(m.copy()), torch.from_numpy(m.copy())
        for k in sorted({1, 2, 3, n // 64}):
            for srt in (True, False):
                got = x.topk(k, dim=-1, largest=largest, sorted=srt)
                want = t.topk(k, dim=-1, largest=largest, sorted=srt)
                assert got.indices.tolist() == want.indices.tolist(), (n, k, srt)
                np.testing.assert_array_equal(got.values.numpy(), want.values.numpy())
        v, i = x[0].topk(1, largest=largest)  # one long row (1-D)
        tv, ti = t[0].topk(1, largest=largest)
        assert i.tolist() == ti.tolist()


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "int64", "int32", "uint8"])
def test_kthvalue_radix_select_matches_torch(dt):
    """kthvalue on rows of >= 1024 elements selects by radix digits (sort.c KTH_RADIX) and
    keeps the result only when no other element shares the key; ties (several NaNs, -0.0 and
    +0.0, repeated values) go to torch's quickselect. Indices and values against torch, for k
    at the ends and middle, keys differing only in their last bits (every digit level), and
    transposed (strided) rows."""
    rng = np.random.default_rng(11)
    isf = dt.startswith("float")
    for n in (1024, 1025, 3001):
        rows = []
        if isf:
            rows.append(rng.permutation(n).astype(np.float64) - n / 2)  # unique
            a = rng.permutation(n).astype(np.float64)
            a[rng.integers(0, n, 1)] = np.nan  # one NaN: unique largest key
            rows.append(a)
            a = rng.permutation(n).astype(np.float64)
            a[rng.integers(0, n, 5)] = np.nan  # NaN ties
            rows.append(a)
            a = rng.permutation(n).astype(np.float64) - n // 2
            a[a == 0] = -0.0
            a[rng.integers(0, n, 1)] = 0.0  # -0.0 and +0.0 tie
            rows.append(a)
            a = rng.standard_normal(n) * 1e-3
            rows.append(a)
            a = (1.0 + rng.permutation(n) * (2.0 ** -20))  # one exponent: only low digits differ
            rows.append(a)
        else:
            hi = 250 if dt == "uint8" else 2**30
            rows.append(rng.integers(0, hi, n).astype(np.float64))  # ties for uint8 only
            base = 0 if dt == "uint8" else (2**40 if dt == "int64" else 2**20)
            rows.append(base + rng.permutation(n).astype(np.float64) % (256 if dt == "uint8" else n))
            if dt != "uint8":
                rows.append(-rng.permutation(n).astype(np.float64) - (2**62 if dt == "int64" else 2**30))
        rows.append((np.arange(n) // 4).astype(np.float64))  # all ties
        m = np.stack(rows).astype(dt)
        x, t = tl.from_numpy(m.copy()), torch.from_numpy(m.copy())
        for k in sorted({1, 2, n // 2, n // 2 + 1, n - 1, n}):
            got, want = x.kthvalue(k, -1), t.kthvalue(k, -1)
            assert got.indices.tolist() == want.indices.tolist(), (n, k)
            np.testing.assert_array_equal(got.values.numpy(), want.values.numpy())
            got, want = x.t().kthvalue(k, 0), t.t().kthvalue(k, 0)
            assert got.indices.tolist() == want.indices.tolist(), (n, k, "strided")
    big = rng.standard_normal(200_001).astype(np.float32)
    for k in (1, 100_001, 200_001):
        v, i = tl.from_numpy(big).kthvalue(k)
        assert i.item() == int(np.argsort(big, kind="stable")[k - 1]) and v.item() == np.sort(big)[k - 1]
