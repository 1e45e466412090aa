"""Tensor.sum / nansum / mean / nanmean: the C fast path (csrc/python/reduce.c) against the
Python forms (tl.sum(x, ...), which never take it) and against torch 2.13 — values, dtypes,
names and the exceptions, for every call form the fast path takes and for the forms it
hands back to Python."""
import re

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

OPS = ["sum", "nansum", "mean", "nanmean"]


def _inputs():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 5)).astype(np.float32)
    a[0, 1, 2] = np.nan
    yield "c", tl.tensor(a)
    yield "t", tl.tensor(a).transpose(0, 2)                  # non-contiguous
    yield "neg", tl.tensor(a).flip(1)                         # negative strides
    yield "0d", tl.tensor(2.5)
    yield "empty", tl.zeros(0, 3)
    yield "bcast", tl.tensor(a[:1]).expand(4, 4, 5)           # zero stride
    yield "f64", tl.tensor(a.astype(np.float64))
    yield "f16", tl.tensor(a).half()
    yield "bf16", tl.tensor(a).bfloat16()
    yield "c64", tl.tensor(a) + 1j * tl.tensor(a)
    yield "i32", tl.tensor(np.nan_to_num(a * 10).astype(np.int32))
    yield "u8", tl.tensor(np.arange(24, dtype=np.uint8).reshape(4, 6))
    yield "bool", tl.tensor(np.arange(24).reshape(4, 6) % 3 == 0)


INPUTS = list(_inputs())

CALLS = [
    ((), {}), ((0,), {}), ((-1,), {}), ((1, True), {}), ((), {"dim": 1}), ((), {"dim": (0, 1)}),
    ((), {"dim": [0, -1], "keepdim": True}), ((), {"dtype": tl.float64}), ((0,), {"keepdim": False, "dtype": tl.float32}),
    ((), {"dim": ()}), ((), {"dim": None, "keepdim": True}), ((5,), {}), ((), {"dim": (0, 0)}),
    ((), {"dtype": tl.int64}), ((), {"keepdim": 1}), ((), {"dim": 1.0}), ((), {"axis": 0}),
    ((), {"dim": 0, "keepdims": True}), ((0,), {"dim": 0}), ((), {"bogus": 1}), ((0, False, 1), {}),
]


def _outcome(f):
    try:
        r = f()
    except Exception as e:  # the type and the message must agree
        return ("raise", type(e), str(e))
    return ("ok", r)


def _same(a, b):
    assert a[0] == b[0], (a, b)
    if a[0] == "raise":
        # the method and the function number positions differently (self is not counted)
        assert a[1] is b[1] and re.sub(r" \(position \d\)", "", a[2]) == re.sub(r" \(position \d\)", "", b[2])
        return
    x, y = a[1], b[1]
    assert x.dtype == y.dtype and x.shape == y.shape and x.names == y.names
    np.testing.assert_array_equal(x.float().numpy() if x.dtype == tl.bfloat16 else x.numpy(),
                                  y.float().numpy() if y.dtype == tl.bfloat16 else y.numpy())


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("name,x", INPUTS, ids=[n for n, _ in INPUTS])
def test_fast_equals_python_form(op, name, x):
    for args, kwargs in CALLS:
        fast = _outcome(lambda: getattr(x, op)(*args, **kwargs))
        if "axis" in kwargs or "keepdims" in kwargs or "bogus" in kwargs or len(args) > 2:
            assert fast[0] == "ok" or fast[1] is TypeError or "axis" in kwargs or "keepdims" in kwargs
            continue
        slow = _outcome(lambda: getattr(tl, op)(x, *args, **kwargs))
        _same(fast, slow)


def _torch(x):
    if x.dtype == tl.bfloat16:
        return torch.from_numpy(x.float().numpy()).bfloat16()
    return torch.from_numpy(np.array(x.numpy()))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("name,x", INPUTS, ids=[n for n, _ in INPUTS])
@pytest.mark.filterwarnings("ignore:Casting complex values")
def test_fast_against_torch(op, name, x):
    tx = _torch(x)
    for args, kwargs in CALLS[:12]:
        tk = {k: (getattr(torch, str(v).split(".")[-1]) if isinstance(v, tl.dtype) else v) for k, v in kwargs.items()}
        ours = _outcome(lambda: getattr(x, op)(*args, **kwargs))
        theirs = _outcome(lambda: getattr(tx, op)(*args, **tk))
        assert ours[0] == theirs[0], (args, kwargs, ours, theirs)
        if ours[0] == "raise":
            assert ours[1] is theirs[1] or issubclass(ours[1], theirs[1]), (ours, theirs)
            continue
        r, t = ours[1], theirs[1]
        assert str(r.dtype).split(".")[-1] == str(t.dtype).split(".")[-1] and tuple(r.shape) == tuple(t.shape)
        rv = r.float().numpy() if r.dtype == tl.bfloat16 else r.numpy()
        tv = t.float().numpy() if t.dtype == torch.bfloat16 else t.numpy()
        tol = {tl.float16: 1e-2, tl.bfloat16: 5e-2}.get(r.dtype, 1e-5)
        np.testing.assert_allclose(rv, tv, rtol=tol, atol=tol, equal_nan=True)


def test_names_out_sparse_meta_take_the_python_form():
    x = tl.ones(2, 3, names=("N", "C"))
    assert x.sum("C").names == ("N",) and x.sum(1).names == ("N",) and x.mean(0, keepdim=True).names == ("N", "C")
    with pytest.raises(RuntimeError, match="nansum"):
        x.nansum()
    out = tl.empty(())
    assert x.rename(None).sum(out=out) is out and out.item() == 6
    s = tl.tensor([[0., 2.], [3., 0.]]).to_sparse()
    assert s.sum().item() == 5 and s.sum(0).to_dense().tolist() == [3., 2.]
    m = tl.empty(2, 3, device="meta")
    r = m.mean(1)
    assert r.device.type == "meta" and r.shape == (2,)


def test_methods_are_documented_and_unbound_forms_work():
    for op in OPS:
        assert getattr(tl.Tensor, op).__doc__ and op in getattr(tl.Tensor, op).__doc__
        assert getattr(tl.Tensor, op)(tl.ones(3)).item() == (3.0 if "sum" in op else 1.0)
    with pytest.raises(TypeError):
        tl.Tensor.sum(3)


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "uint64", "int32", "int16"])
@pytest.mark.parametrize("n", [1, 7, 8, 31, 32, 33, 70, 2047, 2048, 2049, 4100])
def test_argmax_argmin_first_index_at_every_position(dt, n):
    """arg-extremes keep the first index of each lane's best and meet the lanes at the end
    (reduce_kernels.c ARGBLK): the extreme at vector and block edges, ties, signed zeros
    and NaNs, against NumPy's first-occurrence rule (torch's too)."""
    rng = np.random.default_rng(n)
    base = rng.integers(0, 50, size=n).astype(dt)
    spots = sorted({0, n - 1, n // 2, min(n - 1, 8), min(n - 1, 31), min(n - 1, 2047), min(n - 1, 2048)})
    for p in spots:
        for q in sorted({p, n - 1, max(0, p - 1)}):
            a = base.copy()
            a[q] = 100
            a[p] = 100  # ties: the first of p and q wins
            t = tl.from_numpy(a)
            assert t.argmax().item() == int(np.argmax(a)) and t.argmax(0).item() == int(np.argmax(a))
            b = base.copy()
            b[q] = 0 if dt.startswith("u") else -5
            b[p] = b[q]
            assert tl.from_numpy(b).argmin().item() == int(np.argmin(b))
            # rows: the same vector as every row of a matrix, argmax along the last dim
            m = np.stack([a, np.roll(a, 3), a[::-1].copy()])
            np.testing.assert_array_equal(tl.from_numpy(m).argmax(-1).numpy(), np.argmax(m, -1))
    if dt.startswith("float"):
        z = np.zeros(n, dtype=dt)
        z[n // 2:] = -0.0
        assert tl.from_numpy(z).argmax().item() == 0 and tl.from_numpy(z).argmin().item() == 0
        for p in spots:
            w = base.copy()
            w[p] = np.nan
            w[-1] = np.nan
            assert tl.from_numpy(w).argmax().item() == p and tl.from_numpy(w).argmin().item() == p


@pytest.fixture(params=[1, 0], ids=["avx512-if-present", "portable"])
def argext_path(request):
    """Both float32/float64 row searches: the AVX-512 one (where the CPU has it) and the
    portable vector-extension loop."""
    old = tl._C._argext_set_avx512(request.param)
    yield request.param
    tl._C._argext_set_avx512(old)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_argext_search_every_position_and_tail(dt, argext_path):
    """Every position of the extreme (and of a tie after it, and of a first NaN) for lengths
    around the 4-vector steps of both searches (64/128 float32 lanes, 32/64 float64) and
    their scalar tails; the value returned by max(dim) is the element at the index."""
    for n in (1, 5, 31, 32, 33, 63, 64, 65, 127, 128, 129, 130, 191, 192, 193, 255, 256, 257, 300):
        rng = np.random.default_rng(n)
        base = rng.integers(-20, 20, n).astype(dt)
        rows = []
        for p in range(n):
            a = base.copy()
            a[p] = 50
            a[(p + 1 + (p * 7) % max(1, n - p)) % n if p + 1 < n else p] = 50  # a later tie (or none)
            rows.append(a)
            b = base.copy()
            b[p] = -50
            b[min(n - 1, p + 3)] = -50
            rows.append(b)
            c = base.copy()
            c[p] = np.nan
            c[min(n - 1, p + 1 + p % 5)] = np.nan
            c[min(n - 1, p + 2)] = 50
            rows.append(c)
        m = np.stack(rows)
        x = tl.from_numpy(m.copy())
        for op in ("argmax", "argmin"):
            got = getattr(x, op)(-1).numpy()
            want = getattr(np, op)(m, -1)  # first occurrence; a NaN is the extreme (as torch)
            np.testing.assert_array_equal(got, want, err_msg=f"{op} n={n}")
        v, i = x.max(-1)
        np.testing.assert_array_equal(i.numpy(), np.argmax(m, -1))
        np.testing.assert_array_equal(v.numpy(), m[np.arange(len(m)), np.argmax(m, -1)])
    # signed zeros: the first of -0.0 / +0.0 wins, and max(dim) returns that element
    for n in (64, 129, 257, 1000):
        for p in (0, 1, 17, n // 2, n - 1):
            z = np.full(n, -1.0, dtype=dt)
            z[p:] = -0.0
            z[min(n - 1, p + 40):] = 0.0
            t = tl.from_numpy(z.copy())
            assert t.argmax().item() == p and t.argmax(0).item() == p
            v, i = t.max(0)
            assert i.item() == p and np.signbit(v.item()) == np.signbit(z[p])
            assert tl.from_numpy(-z).argmin().item() == p
    # non-contiguous rows and a row longer than one chunk of lanes is not practical here;
    # transposed inputs take the column path, sliced rows the row path
    r = np.random.default_rng(1).standard_normal((9, 517)).astype(dt)
    xr = tl.from_numpy(r.copy())
    np.testing.assert_array_equal(xr[:, 3:500:2].argmax(-1).numpy(), r[:, 3:500:2].argmax(-1))
    np.testing.assert_array_equal(xr[::2, 1:].argmin(-1).numpy(), r[::2, 1:].argmin(-1))
    inf = np.full(300, -np.inf, dtype=dt)
    assert tl.from_numpy(inf).argmax().item() == 0 and tl.from_numpy(-inf).argmin().item() == 0
