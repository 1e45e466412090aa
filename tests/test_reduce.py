"""Reductions and scans against torch 2.13 (values, dtypes, shapes, keepdim, raise-vs-not)
and NumPy, on grids of dtypes, shapes (0-d, empty, non-contiguous) and dims; named-tensor
rules from seed 003; float32 summation accuracy against NumPy's pairwise sum."""
import itertools

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")
from _torch_scalar import scalar_call  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
SHAPES = [(), (0,), (7,), (3, 4), (2, 0, 3), (2, 3, 5)]


def make(shape, dtype, seed=0, nan=False, noncontig=False):
    """The same data as a tensorlib tensor and a torch tensor."""
    rng = np.random.default_rng(seed)
    full = tuple(s * 2 for s in shape) if noncontig else shape
    base = rng.integers(-4, 5, size=full).astype(np.float64) + (rng.random(full) * 0.5 if "float" in dtype or "complex" in dtype else 0)
    if "complex" in dtype:
        base = base + 1j * rng.integers(-3, 4, size=full)
    if nan and base.size > 2 and "float" in dtype:
        base.flat[1] = np.nan
    if dtype == "bool":
        base = base > 0
    elif dtype.startswith("uint"):
        base = np.abs(base)
    src = base.astype(np.float32) if dtype == "bfloat16" else base.astype(dtype)
    a = tl.from_numpy(np.ascontiguousarray(src))
    t = torch.from_numpy(np.ascontiguousarray(src).copy())
    if dtype == "bfloat16":
        a, t = a.to(tl.bfloat16), t.to(torch.bfloat16)
    if noncontig and len(shape):
        sl = tuple(slice(None, None, 2) for _ in shape)
        a, t = a[sl], t[sl]
    return a, t


def to_np(x):
    if x.dtype in (tl.bfloat16,):
        x = x.to(tl.float32)
    return x.numpy()


def t_np(x):
    if x.dtype == torch.bfloat16:
        x = x.float()
    return x.numpy()


def check_same(r, e, rtol=None, atol=None):
    if isinstance(e, tuple):
        assert isinstance(r, tuple) and len(r) == len(e)
        for a, b in zip(r, e):
            check_same(a, b, rtol, atol)
        return
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1], (r.dtype, e.dtype)
    assert tuple(r.shape) == tuple(e.shape), (tuple(r.shape), tuple(e.shape))
    dt = str(e.dtype).split(".")[-1]
    if rtol is None:
        rtol = {"float16": 2e-3, "bfloat16": 2e-2, "float32": 2e-5, "complex64": 2e-5}.get(dt, 1e-12)
    np.testing.assert_allclose(to_np(r), t_np(e), rtol=rtol, atol=atol if atol is not None else rtol, equal_nan=True)


def run_both(fa, ft):
    try:
        e = ft()
    except Exception as ex:  # torch refuses: so must we, with the same exception type
        with pytest.raises(type(ex)):
            fa()
        return None, None
    return fa(), e


# (op, kwargs variants) for ops returning tensors with torch-identical values
RED_CASES = [
    ("sum", [{}, {"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": (0, -1)}, {"dtype": "float64"}, {"dim": ()}]),
    ("nansum", [{}, {"dim": 0}]),
    ("prod", [{}, {"dim": 0}, {"dim": -1, "keepdim": True}]),
    ("mean", [{}, {"dim": 0}, {"dim": (0, -1), "keepdim": True}, {"dtype": "float64"}]),
    ("nanmean", [{}, {"dim": -1}]),
    ("var", [{}, {"dim": 0}, {"dim": -1, "correction": 0}, {"dim": (0, -1), "keepdim": True}]),
    ("std", [{}, {"dim": -1}, {"unbiased": False}]),
    ("amax", [{}, {"dim": 0}, {"dim": (0, -1), "keepdim": True}]),
    ("amin", [{}, {"dim": -1}]),
    ("argmax", [{}, {"dim": 0}, {"dim": -1, "keepdim": True}]),
    ("argmin", [{}, {"dim": -1}]),
    ("all", [{}, {"dim": 0}, {"dim": -1, "keepdim": True}]),
    ("any", [{}, {"dim": -1}]),
    ("count_nonzero", [{}, {"dim": 0}]),
    ("logsumexp", [{"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": (0, -1)}, {"dim": ()},
                   {"dim": (), "keepdim": True}]),
    ("norm", [{}, {"p": 1, "dim": 0}, {"p": float("inf"), "dim": -1}, {"p": 3}, {"p": 0}]),
    ("cumsum", [{"dim": 0}, {"dim": -1, "dtype": "float64"}]),
    ("cumprod", [{"dim": -1}]),
    ("max", [{}]),
    ("min", [{}]),
]


def _kw(kw, lib):
    out = dict(kw)
    if "dtype" in out:
        out["dtype"] = getattr(lib, out["dtype"])
    return out


def _red_params():
    for op, variants in RED_CASES:
        for kw in variants:
            for dt in DTYPES:
                yield pytest.param(op, kw, dt, id=f"{op}-{kw}-{dt}")


@pytest.mark.parametrize("op,kw,dt", list(_red_params()))
def test_reduce_grid(op, kw, dt):
    for shape, nc in itertools.chain(((s, False) for s in SHAPES), [((3, 4), True), ((2, 3, 5), True)]):
        for nan in (False, True) if "float" in dt else (False,):
            if kw.get("dim") == (0, -1) and shape == (0,):
                continue  # torch checks emptiness before repeated dims here; we check repeats first
            a, t = make(shape, dt, nan=nan, noncontig=nc)
            r, e = run_both(lambda: getattr(a, op)(**_kw(kw, tl)), lambda: getattr(t, op)(**_kw(kw, torch)))
            if e is not None:
                rtol = 1e-1 if op in ("cumprod", "prod") and dt in ("float16", "bfloat16") else None
                # torch accumulates some half-precision reductions in half precision; we use more
                check_same(r, e, rtol=rtol, atol={"float16": 2e-2, "bfloat16": 2e-1}.get(dt))
            # functions match methods
            if e is not None and shape == (3, 4) and not nc and not nan:
                check_same(getattr(tl, op)(a, **_kw(kw, tl)), e, atol={"float16": 2e-2, "bfloat16": 2e-1}.get(dt))


IDX_CASES = [
    ("max", {"dim": 0}), ("max", {"dim": -1, "keepdim": True}), ("min", {"dim": 1}),
    ("median", {"dim": -1}), ("nanmedian", {"dim": 0}), ("mode", {"dim": -1}), ("kthvalue", {"k": 2, "dim": -1}),
    ("cummax", {"dim": 0}), ("cummin", {"dim": -1}), ("sort", {"dim": -1}), ("sort", {"dim": 0, "descending": True}),
    ("topk", {"k": 2, "dim": -1}), ("topk", {"k": 1, "dim": 0, "largest": False}),
]


@pytest.mark.parametrize("op,kw", IDX_CASES, ids=[f"{o}-{k}" for o, k in IDX_CASES])
@pytest.mark.parametrize("dt", ["bool", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64"])
def test_values_indices(op, kw, dt):
    """(values, indices) ops: values equal torch's; indices point at those values."""
    for shape, nc in [((3, 4), False), ((2, 3, 5), True), ((), False), ((4, 0), False), ((0, 4), False)]:
        for nan in (False, True) if "float" in dt else (False,):
            a, t = make(shape, dt, seed=3, nan=nan, noncontig=nc)
            r, e = run_both(lambda: getattr(a, op)(**kw), lambda: getattr(t, op)(**kw))
            if e is None:
                continue
            assert type(r).__name__ == type(e).__name__
            check_same(r.values, e.values)
            assert r.indices.dtype == tl.int64 and tuple(r.indices.shape) == tuple(e.indices.shape)
            if op in ("max", "min", "cummax", "cummin"):
                # ties and NaN: these must match torch's index choice exactly
                np.testing.assert_array_equal(r.indices.numpy(), e.indices.numpy())
            d = kw.get("dim", -1)
            if len(shape):
                g = np.take_along_axis(to_np(a), r.indices.numpy() if r.indices.dim() == a.dim() else
                                       np.expand_dims(r.indices.numpy(), d), axis=d)
                v = r.values.numpy() if r.values.dim() == a.dim() else np.expand_dims(to_np(r.values), d)
                np.testing.assert_array_equal(np.asarray(g, dtype=np.float64), np.asarray(v, dtype=np.float64))


def test_sum_accuracy_float32():
    """A sum whose naive float32 accumulation drifts: at least as accurate as NumPy's pairwise."""
    rng = np.random.default_rng(1)
    x = (rng.random(10_000_000) * 1e-3 + 1).astype(np.float32)
    exact = float(np.sum(x, dtype=np.float64))
    ours = tl.from_numpy(x).sum().item()
    naive = float(np.cumsum(x)[-1])
    assert abs(naive - exact) > 10  # the naive float32 sum has drifted
    assert abs(ours - exact) <= abs(float(np.sum(x)) - exact) + 1e-3 * abs(exact) * 1e-4
    m = tl.from_numpy(x.reshape(1000, -1)[:, :9000]).sum(0)
    np.testing.assert_allclose(m.numpy(), x.reshape(1000, -1)[:, :9000].astype(np.float64).sum(0), rtol=1e-6)


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 31, 33, 511, 512, 513, 1023, 1500, 4097])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_lengths_and_offsets(n, dtype):
    """Every run/tail split of the vectorized sums, at unaligned starts, against an exact sum."""
    x = np.random.default_rng(n).standard_normal(n + 3).astype(dtype)
    for off in (0, 1, 3):
        v = x[off:off + n]
        exact = np.sum(v.astype(np.longdouble))
        got = tl.from_numpy(v).sum().item()
        bound = 20 * np.finfo(dtype).eps * np.sum(np.abs(v).astype(np.float64)) + np.finfo(dtype).tiny
        assert abs(got - float(exact)) <= bound
        np.testing.assert_allclose(tl.from_numpy(v).mean().item() if n else 0.0,
                                   float(exact) / n if n else 0.0, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape,dim", [((1000, 1000), 0), ((1000, 1000), 1), ((64, 3, 4000), (0, 2)),
                                       ((3, 100000), 0), ((100000, 3), 0), ((7, 300001), None)])
def test_large_paths_match_numpy(shape, dim):
    """Threaded and column-wise paths against NumPy in float64."""
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    a = tl.from_numpy(x)
    np.testing.assert_allclose(a.sum(dim).numpy(), x.astype(np.float64).sum(dim), rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(a.mean(dim).numpy(), x.astype(np.float64).mean(dim), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(a.var(dim).numpy(), x.astype(np.float64).var(dim, ddof=1), rtol=1e-5)
    np.testing.assert_array_equal(a.amax(dim if dim is not None else ()).numpy(), x.max(dim))
    if not isinstance(dim, tuple):
        np.testing.assert_array_equal(a.argmax(dim).numpy(), x.argmax(dim))


def test_nan_semantics():
    x = np.array([[1.0, np.nan, 3.0], [np.nan, -1.0, np.nan]], dtype=np.float32)
    a, t = tl.from_numpy(x), torch.from_numpy(x)
    for op in ("max", "min", "argmax", "argmin", "amax", "median", "nanmedian", "nansum", "nanmean", "sum"):
        check_same(getattr(a, op)(), getattr(t, op)())
    for op in ("max", "min", "median", "nanmedian"):
        r, e = getattr(a, op)(1), getattr(t, op)(1)
        check_same(r.values, e.values)
        np.testing.assert_array_equal(r.indices.numpy(), e.indices.numpy())


BAD = [
    ("sum", {"dim": 2}), ("sum", {"dim": (0, 0)}), ("sum", {"dim": (0, -2)}), ("mean", {"dim": -3}),
    ("amax", {"dim": (1, 1)}), ("max", {"dim": 5}), ("argmax", {"dim": 2}), ("cumsum", {"dim": 2}),
    ("sort", {"dim": -3}), ("kthvalue", {"k": 9}), ("kthvalue", {"k": 0}), ("topk", {"k": 5}),
    ("sum", {"dtype": "int32"}),
]


@pytest.mark.parametrize("op,kw", BAD, ids=[f"{o}-{k}" for o, k in BAD])
def test_bad_input(op, kw):
    a, t = make((2, 3), "float32")
    before = a.numpy().copy()
    with pytest.raises(Exception) as te:
        getattr(t, op)(**_kw(kw, torch))
        pytest.skip("torch accepts this")
    with pytest.raises(type(te.value)) as ae:
        getattr(a, op)(**_kw(kw, tl))
    if isinstance(te.value, IndexError):
        assert str(ae.value) == str(te.value).split("\n")[0]
    np.testing.assert_array_equal(a.numpy(), before)


def test_empty_messages():
    e = tl.empty(0, 3)
    te = torch.empty(0, 3)
    for op, args in [("max", ()), ("max", (0,)), ("amax", ()), ("argmax", ()), ("argmin", (0,)), ("mode", (0,)),
                     ("kthvalue", (1, 0)), ("median", (0,))]:
        with pytest.raises(Exception) as tex:
            getattr(te, op)(*args)
        with pytest.raises(type(tex.value), match=None) as aex:
            getattr(e, op)(*args)
        assert str(aex.value) == str(tex.value).split("\n")[0]
    assert e.sum().item() == 0 and e.prod().item() == 1 and np.isnan(e.mean().item())
    with pytest.raises(RuntimeError, match="aminmax"):
        e.aminmax()


def test_named_reductions():
    x = tl.zeros(2, 3, 4, names=("N", "C", "H"))
    assert x.sum(["N", "C"]).names == ("H",)
    assert x.sum(["N", "C"], keepdim=True).names == ("N", "C", "H")
    assert x.mean("C").names == ("N", "H")
    assert x.max("H").values.names == ("N", "C")
    assert x.max("H").indices.names == ("N", "C")
    assert x.cumsum("C").names == ("N", "C", "H")
    assert x.std(("H",)).names == ("N", "C")
    assert x.logsumexp("N").names == ("C", "H")
    assert x.sum().names == ()
    assert x.all().names == ()
    with pytest.raises(RuntimeError, match="Name 'W' not found"):
        x.sum("W")
    for op in ("nansum", "amax", "sort", "topk", "unique", "count_nonzero"):
        with pytest.raises(RuntimeError, match="named tensors"):
            getattr(x, op)(*((1,) if op == "topk" else ()))


def test_out_and_dtypes():
    a = tl.from_numpy(np.arange(6, dtype=np.int32).reshape(2, 3))
    out = tl.empty(3, dtype=tl.int64)
    r = tl.sum(a, 0, out=out)
    assert r is out and out.numpy().tolist() == [3, 5, 7]
    # torch accumulates in out's dtype (see tests/test_reduce_out.py for the full rule table)
    assert tl.sum(a, 0, out=tl.empty(3, dtype=tl.float32)).tolist() == [3.0, 5.0, 7.0]
    v, i = tl.empty(2), tl.empty(2, dtype=tl.int64)
    tl.max(a.to(tl.float32), 1, out=(v, i))
    assert v.numpy().tolist() == [2, 5] and i.numpy().tolist() == [2, 2]
    assert tl.sum(a, dtype=tl.float64).dtype == tl.float64
    assert tl.all(a.to(tl.uint8)).dtype == tl.uint8


def test_std_var_mean_histc():
    x = np.random.default_rng(5).standard_normal((4, 6)).astype(np.float32)
    a, t = tl.from_numpy(x), torch.from_numpy(x)
    for f in ("std_mean", "var_mean"):
        check_same(getattr(tl, f)(a, 1), getattr(torch, f)(t, 1))
        check_same(getattr(tl, f)(a, 0, correction=0, keepdim=True), getattr(torch, f)(t, 0, correction=0, keepdim=True))
    check_same(tl.var(a, 1, True), torch.var(t, 1, True))
    check_same(a.histc(bins=7), t.histc(bins=7))
    check_same(a.histc(bins=5, min=-1, max=1), t.histc(bins=5, min=-1, max=1))
    check_same(a.norm(dim=1), t.norm(dim=1))
    check_same(a.norm(p="fro", dim=(0, 1)), t.norm(p="fro", dim=(0, 1)))


# ---- single-pass argmax/argmin (block extremes, column path for outer dims) ----------------

def _arg_data(kind, n, dtype):
    rng = np.random.default_rng(n)
    a = rng.integers(-50, 50, size=n).astype(np.float64)
    if kind == "ties":  # the extreme repeated across blocks: the first one wins
        a[[5, 3000, 9000]] = 1000
        a[[7, 4000, 9500]] = -1000
    elif kind == "nan":  # the first NaN wins, even after a larger value / in a later block
        a[100] = 1e4
        if "float" in dtype:
            a[[5000, 7000]] = np.nan
    elif kind == "inf":
        a[[10, 4100]] = np.inf
        a[[20, 6000]] = -np.inf
    elif kind == "zeros":  # -0.0 and 0.0 are equal: the first of them
        a[:] = 0.0
        a[::3] = -0.0
    elif kind == "const":
        a[:] = 3
    return a


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "int8"])
@pytest.mark.parametrize("kind", ["rand", "ties", "nan", "inf", "zeros", "const"])
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argext_long_rows(op, kind, dt):
    if dt.startswith(("int", "uint")) and kind in ("inf",):
        return
    a = _arg_data(kind, 10007, dt)
    if dt == "uint8":
        a = np.abs(np.nan_to_num(a)) % 200
    elif dt == "int8":
        a = np.clip(np.nan_to_num(a), -100, 100)
    src = a.astype(np.float32) if dt == "bfloat16" else a.astype(dt)
    x, t = tl.from_numpy(src.copy()), torch.from_numpy(src.copy())
    if dt == "bfloat16":
        x, t = x.to(tl.bfloat16), t.to(torch.bfloat16)
    for kw in ({}, {"dim": 0}, {"dim": 0, "keepdim": True}, {"dim": None, "keepdim": True}):
        check_same(getattr(x, op)(**kw), getattr(t, op)(**kw))
    # 2-D: rows (dim -1) and columns (dim 0, the column path), widths around the lane counts
    for shape in ((7, 1429), (1429, 7), (33, 300), (3, 3335)):
        m = src[: shape[0] * shape[1]].reshape(shape)
        xm, tm = tl.from_numpy(m.copy()), torch.from_numpy(m.copy())
        if dt == "bfloat16":
            xm, tm = xm.to(tl.bfloat16), tm.to(torch.bfloat16)
        for kw in ({"dim": 0}, {"dim": -1}, {"dim": 1, "keepdim": True}, {"dim": 0, "keepdim": True}, {}):
            check_same(getattr(xm, op)(**kw), getattr(tm, op)(**kw))
        check_same(getattr(xm.t(), op)(dim=0), getattr(tm.t(), op)(dim=0))
        check_same(getattr(xm, "max" if op == "argmax" else "min")(dim=-1)[1], getattr(tm, op)(dim=-1))


def test_argext_outer_dims_3d_and_threads():
    a = np.random.default_rng(3).standard_normal((40, 3, 700)).astype(np.float32)
    a[17, 1, 5] = np.nan
    a[30, 1, 5] = np.nan
    a[:, 2, 9] = 7.0  # all equal: row 0
    x, t = tl.from_numpy(a.copy()), torch.from_numpy(a.copy())
    old = tl.get_num_threads()
    try:
        for nt in (1, 2):
            tl.set_num_threads(nt)
            for op in ("argmax", "argmin"):
                for d in (0, 1, 2, -1):
                    check_same(getattr(x, op)(dim=d), getattr(t, op)(dim=d))
    finally:
        tl.set_num_threads(old)


def test_argext_long_row_split_across_threads():
    """A row long enough to be split into stretches: ties and NaN across stretch borders."""
    a = np.random.default_rng(5).standard_normal(300001).astype(np.float32)
    a[[70000, 150000, 299999]] = 9.0
    a[[80000, 160000]] = -9.0
    old = tl.get_num_threads()
    try:
        for nt in (1, 2):
            tl.set_num_threads(nt)
            for b in (a, np.where(np.arange(a.size) >= 200000, np.float32(np.nan), a)):
                x, t = tl.from_numpy(b.copy()), torch.from_numpy(b.copy())
                check_same(x.argmax(), t.argmax())
                check_same(x.argmin(), t.argmin())
                check_same(x.max(0)[1], t.max(0)[1])
    finally:
        tl.set_num_threads(old)


# ---- uint16/uint32/uint64 ------------------------------------------------------------------
# torch 2.13 reduces them with sum/nansum/prod (int64 results), all/any, cumsum/cumprod and
# logsumexp; it raises NotImplementedError for max/min/amax/amin/aminmax/argmax/argmin/
# count_nonzero. tensorlib supports those too (a superset; NumPy is the oracle there).
# mean/var/std/norm keep torch's errors. Values above 2^63 must come out exact.
UINTS = ["uint16", "uint32", "uint64"]


def _uint_data(dt, shape=(3, 5)):
    rng = np.random.default_rng(1)
    hi = {"uint16": 2**16, "uint32": 2**32, "uint64": 2**64}[dt]
    a = rng.integers(0, hi, size=shape, dtype=np.uint64 if dt == "uint64" else np.int64).astype(dt)
    a.flat[3] = hi - 1
    a.flat[7] = 0
    a.flat[8] = a.flat[3]  # a repeated maximum: the first index wins
    return a


@pytest.mark.parametrize("dt", UINTS)
@pytest.mark.parametrize("op,kw", [("sum", {}), ("sum", {"dim": 0}), ("sum", {"dim": -1, "keepdim": True}),
                                   ("nansum", {"dim": 1}), ("prod", {}), ("prod", {"dim": 0}),
                                   ("all", {}), ("any", {"dim": 0}), ("cumsum", {"dim": 1}),
                                   ("cumprod", {"dim": 0}), ("logsumexp", {"dim": 1}),
                                   ("mean", {}), ("var", {}), ("norm", {}), ("cummax", {"dim": 0})])
def test_uint_reductions_vs_torch(op, kw, dt):
    a = _uint_data(dt)
    for shape_a in (a, a[:, ::2], a[:0]):
        x, t = tl.from_numpy(np.ascontiguousarray(shape_a)), torch.from_numpy(np.ascontiguousarray(shape_a))
        r, e = run_both(lambda: getattr(x, op)(**kw), lambda: getattr(t, op)(**kw))
        if e is not None:
            e = e[0] if isinstance(e, tuple) else e
            r = r[0] if isinstance(r, tuple) else r
            if e.dtype.is_floating_point:
                check_same(r, e)
            else:
                assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
                assert r.tolist() == e.tolist()


@pytest.mark.parametrize("dt", UINTS)
@pytest.mark.parametrize("op", ["amax", "amin", "argmax", "argmin", "max", "min", "count_nonzero"])
def test_uint_extrema_superset_vs_numpy(op, dt):
    a = _uint_data(dt, (6, 1100))
    np_op = {"amax": np.max, "amin": np.min, "max": np.max, "min": np.min, "argmax": np.argmax,
             "argmin": np.argmin, "count_nonzero": np.count_nonzero}[op]
    for b in (a, a.T, a[:, 3:]):
        x = tl.from_numpy(np.ascontiguousarray(b))
        assert getattr(x, op)().tolist() == np_op(b).tolist()
        for d in (0, 1):
            if op in ("max", "min"):
                continue  # max(dim) runs in sort.c (not covered yet)
            r = getattr(x, op)(dim=d)
            assert r.tolist() == np_op(b, axis=d).tolist(), (op, d)
            assert r.dtype == ({"argmax": tl.int64, "argmin": tl.int64, "count_nonzero": tl.int64}.get(op, x.dtype))
    mn, mx = tl.from_numpy(a).aminmax(dim=1)
    assert mn.tolist() == a.min(1).tolist() and mx.tolist() == a.max(1).tolist()


# ---- complex logsumexp ---------------------------------------------------------------------
# torch 2.13: m = amax of the real parts over dims (an infinite m becomes 0), then
# log(sum(exp(x - m))) + m in complex arithmetic; complex32 has no exp kernel.
_SPECIAL = [0.0, -0.0, 1.5, -2.0, 700.0, float("inf"), float("-inf"), float("nan")]


def _cplx_pairs(a, dt):
    src = np.array(a, dtype=dt, order="C")  # keeps 0-d arrays 0-d
    return tl.from_numpy(src), torch.from_numpy(src.copy())


def _check_cplx(r, e):
    """Values equal within rounding, NaN/inf in the same places, zero signs alike. e is a torch
    tensor or a (ndarray, dtype name) answer of torch's scalar path."""
    en, ename = (e.numpy(), str(e.dtype)) if isinstance(e, torch.Tensor) else e
    assert str(r.dtype).split(".")[-1] == ename.split(".")[-1]
    rn = r.numpy()
    assert rn.shape == en.shape
    rtol = 2e-5 if rn.dtype == np.complex64 else 1e-12
    for p, q in ((rn.real, en.real), (rn.imag, en.imag)):
        np.testing.assert_allclose(p, q, rtol=rtol, atol=rtol, equal_nan=True)
        z = (p == 0) & (q == 0)
        assert (np.signbit(p[z]) == np.signbit(q[z])).all()


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_logsumexp_complex_special_values(dt):
    # inf/NaN parts go through torch's complex exp/log, whose vectorized kernels differ by CPU:
    # the answers come from torch's scalar path
    lse = "lambda torch, x, d, k: torch.logsumexp(x, d, keepdim=k)"
    rng = np.random.default_rng(5)
    pts = np.array([complex(a, b) for a in _SPECIAL for b in _SPECIAL])
    a = rng.choice(pts, size=(300, 3)).astype(np.complex128)
    x, _ = _cplx_pairs(a, dt)
    _check_cplx(tl.logsumexp(x, 1), scalar_call(lse, x, 1, False))
    _check_cplx(x.logsumexp(-1, keepdim=True), scalar_call(lse, x, -1, True))
    for i in range(len(pts)):  # every special point alone and next to a finite one
        x, _ = _cplx_pairs(pts[i:i + 1], dt)
        _check_cplx(tl.logsumexp(x, 0), scalar_call(lse, x, 0, False))
        x, _ = _cplx_pairs(np.array([pts[i], 1 - 2j]), dt)
        _check_cplx(tl.logsumexp(x, 0), scalar_call(lse, x, 0, False))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_logsumexp_complex_grid(dt):
    rng = np.random.default_rng(6)
    base = (rng.normal(size=(4, 6, 10)) * 30 + 1j * rng.normal(size=(4, 6, 10)) * 5)
    views = [lambda z: z, lambda z: z[:, ::2, 1::3], lambda z: z.transpose(0, 2)]
    for v in views:
        x, t = _cplx_pairs(base, dt)
        x, t = v(x), v(t)
        for dim in (0, -1, (0, 2), (1, -1), (0, 1, 2)):
            for keepdim in (False, True):
                _check_cplx(tl.logsumexp(x, dim, keepdim), torch.logsumexp(t, dim, keepdim))
    for shape, dim in [((0, 3), 0), ((0, 3), 1), ((2, 0), (0, 1)), ((), 0), ((), ())]:
        x, t = _cplx_pairs(np.zeros(shape) + 1j, dt)
        _check_cplx(tl.logsumexp(x, dim), torch.logsumexp(t, dim))
    x, t = _cplx_pairs(rng.normal(size=300000) * 4 + 1j * rng.normal(size=300000), dt)  # split rows
    _check_cplx(tl.logsumexp(x, 0), torch.logsumexp(t, 0))


def test_logsumexp_complex_errors_match_torch():
    def outcome(f):
        try:
            f()
        except Exception as ex:  # noqa: BLE001 - the exception is the result compared
            return type(ex).__name__, str(ex)
        return "ok", None
    cases = [(lambda m: m.ones(2, 3, dtype=m.complex32), 0), (lambda m: m.ones(0, 3, dtype=m.complex32), 0),
             (lambda m: m.ones(2, 3, dtype=m.complex64), ()), (lambda m: m.ones(2, 3, 4, dtype=m.float32), ()),
             (lambda m: m.ones(2, 3, dtype=m.int64), ()), (lambda m: m.ones(2, 3, dtype=m.complex64), 5)]
    for mk, dim in cases:
        assert outcome(lambda: tl.logsumexp(mk(tl), dim)) == outcome(lambda: torch.logsumexp(mk(torch), dim))
