"""Ordering ops on the unsigned shells uint16/uint32/uint64 against torch 2.13.

torch sorts them (sort, argsort, msort, unique flat/dim/consecutive) and refuses topk,
kthvalue, median, nanmedian, mode, max/min(dim), searchsorted/bucketize and cummax with
NotImplementedError (mixed dtypes in searchsorted fail promotion first, RuntimeError).
tensorlib matches, except max/min(dim) which work as a superset (NumPy is the oracle), as
max/min/argmax without dim already do. uint64 values above 2^63 must order unsigned."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

UINTS = ["uint16", "uint32", "uint64"]
HI = {"uint16": 2**16, "uint32": 2**32, "uint64": 2**64}


def data(dt, shape, seed=0):
    """Random values over the whole range, with duplicates, 0, the maximum and (uint64)
    values on both sides of 2^63."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    pool = rng.integers(0, HI[dt], size=max(n // 2, 1), dtype=np.uint64).astype(dt)
    a = pool[rng.integers(0, len(pool), size=n)] if n else np.zeros(0, dt)
    if n > 4:
        a[0], a[1], a[2] = 0, HI[dt] - 1, a[3]
        if dt == "uint64":
            a[4] = 2**63
            a[-1] = 2**63 - 1
    return a.reshape(shape)


def pair(a, view=None):
    """(tensorlib, torch) tensors of the array, optionally through a view (transpose/step)."""
    x, t = tl.from_numpy(np.ascontiguousarray(a)), torch.from_numpy(np.ascontiguousarray(a))
    if view == "T":
        x, t = x.transpose(0, -1), t.transpose(0, -1)
    elif view == "step":
        x, t = x[..., ::2], t[..., ::2]
    return x, t


def same(r, e):
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    assert tuple(r.shape) == tuple(e.shape)
    assert r.tolist() == e.tolist()


CASES = [((), None), ((0,), None), ((11,), None), ((11,), "step"), ((4, 40), None), ((4, 40), "T"),
         ((3, 5, 7), "step"), ((5, 0), None), ((2, 1100), None)]


@pytest.mark.parametrize("dt", UINTS)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_vs_torch(dt, descending):
    for shape, view in CASES:
        x, t = pair(data(dt, shape), view)
        for dim in (0, -1):
            r = x.sort(dim=dim, descending=descending, stable=True)
            e = t.sort(dim=dim, descending=descending, stable=True)
            same(r.values, e.values)
            same(r.indices, e.indices)
            r = tl.sort(x, dim, descending)  # stable=False: torch's order of ties is unspecified
            e = torch.sort(t, dim, descending)
            same(r.values, e.values)
            if x.dim():
                assert tl.gather(x, dim, r.indices).tolist() == e.values.tolist()
            same(x.argsort(dim=dim, descending=descending, stable=True), t.argsort(dim=dim, descending=descending, stable=True))
        if len(shape):
            same(tl.msort(x), torch.msort(t))


def test_sort_uint64_above_2_63_is_unsigned():
    vals = np.array([2**64 - 1, 0, 2**63, 2**63 - 1, 1, 2**63 + 1, 2**63], dtype=np.uint64)
    x = tl.from_numpy(vals)
    assert x.sort().values.tolist() == sorted(vals.tolist())
    assert x.sort(descending=True).values.tolist() == sorted(vals.tolist(), reverse=True)
    assert x.argsort(stable=True).tolist() == np.argsort(vals, kind="stable").tolist()
    assert x.max(0).values.item() == 2**64 - 1 and x.min(0).indices.item() == 1


@pytest.mark.parametrize("dt", UINTS)
def test_unique_vs_torch(dt):
    for shape, view in CASES:
        a = data(dt, shape)
        x, t = pair(a, view)
        r = tl.unique(x, return_inverse=True, return_counts=True)
        e = torch.unique(t, return_inverse=True, return_counts=True)
        for ri, ei in zip(r, e):
            same(ri, ei)
        same(tl.unique(x, sorted=False), torch.unique(t, sorted=False))
        r = tl.unique_consecutive(x, return_inverse=True, return_counts=True)
        e = torch.unique_consecutive(t, return_inverse=True, return_counts=True)
        for ri, ei in zip(r, e):
            same(ri, ei)
        if len(shape) == 2 and 0 not in shape:
            for d in (0, 1):
                same(tl.unique(x, dim=d), torch.unique(t, dim=d))
    x = tl.from_numpy(np.array([2**63, 5, 2**64 - 1, 5, 2**63], dtype=np.uint64))
    assert x.unique().tolist() == [5, 2**63, 2**64 - 1]


@pytest.mark.parametrize("dt", UINTS)
@pytest.mark.parametrize("op", ["max", "min"])
def test_max_min_dim_superset_vs_numpy(dt, op):
    npv, npi = (np.max, np.argmax) if op == "max" else (np.min, np.argmin)
    for shape, view in CASES:
        if not len(shape) or 0 in shape:
            continue
        a = data(dt, shape, seed=3)
        x, _ = pair(a, view)
        b = x.numpy() if x.is_contiguous() else np.ascontiguousarray(x.contiguous().numpy())
        for dim in range(x.dim()):
            for keepdim in (False, True):
                r = getattr(x, op)(dim, keepdim=keepdim)
                assert r.values.dtype == x.dtype and r.indices.dtype == tl.int64
                assert r.values.tolist() == npv(b, axis=dim, keepdims=keepdim).tolist()
                assert r.indices.tolist() == npi(b, axis=dim, keepdims=keepdim).tolist()
    # a numel-0 input with a non-empty reduced dim: an empty result, as torch gives
    x, t = pair(data(dt, (0, 3)))
    same(x.max(1).values, t.max(1).values)


def outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the exception is the result compared
        return type(e).__name__, str(e)
    return "ok", r


@pytest.mark.parametrize("dt", UINTS)
def test_refusals_match_torch(dt):
    x, t = pair(data(dt, (3, 4)))
    b, bt = pair(np.sort(data(dt, (5,))))
    i64, ti64 = tl.tensor([1, 2]), torch.tensor([1, 2])
    cases = [
        lambda m, v, bb, i: v.topk(2, 1), lambda m, v, bb, i: v.kthvalue(2, 1),
        lambda m, v, bb, i: v.median(1), lambda m, v, bb, i: v.median(), lambda m, v, bb, i: v.nanmedian(0),
        lambda m, v, bb, i: v.nanmedian(), lambda m, v, bb, i: v.mode(1), lambda m, v, bb, i: v.cummax(0),
        lambda m, v, bb, i: m.searchsorted(bb, v), lambda m, v, bb, i: m.bucketize(v, bb),
        lambda m, v, bb, i: m.searchsorted(bb, i), lambda m, v, bb, i: m.searchsorted(i, v),
        lambda m, v, bb, i: m.bucketize(i, bb), lambda m, v, bb, i: m.searchsorted(bb, 3),
        lambda m, v, bb, i: v[:0].median(), lambda m, v, bb, i: v[:0].kthvalue(1, 0),
        lambda m, v, bb, i: v.sort(dim=2), lambda m, v, bb, i: v[:, :0].mode(1),
    ]
    for k, f in enumerate(cases):
        r = outcome(lambda: f(tl, x, b, i64))
        e = outcome(lambda: f(torch, t, bt, ti64))
        assert r[0] == e[0], (k, r, e)
        if e[0] == "ok":
            same(r[1], e[1])
        else:
            assert r[1] == e[1], k


def test_searchsorted_promotes_like_torch():
    # both sides go to the promoted dtype first: float32 rounding decides these
    for sd, vd, sv, vv in [("float32", "int64", [16777216.0, 3e9], [16777217, 2**40]),
                           ("float32", "uint64", [1.0, 9.3e18], [2**63 + 5, 2**64 - 1]),
                           ("uint32", "float64", [1, 2**32 - 1], [0.5, 4294967294.9])]:
        s, v = np.array(sv, dtype=sd), np.array(vv, dtype=vd)
        for right in (False, True):
            r = tl.searchsorted(tl.from_numpy(s), tl.from_numpy(v), right=right)
            e = torch.searchsorted(torch.from_numpy(s), torch.from_numpy(v), right=right)
            same(r, e)
            r = tl.bucketize(tl.from_numpy(v), tl.from_numpy(s), right=right)
            same(r, torch.bucketize(torch.from_numpy(v), torch.from_numpy(s), right=right))
