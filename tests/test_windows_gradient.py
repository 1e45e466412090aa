"""The window functions, gradient and histogramdd against torch 2.13: values (bit for bit for
the float16/bfloat16 windows, whose constants torch rounds to the dtype first; within a few
ulps where the element-wise cos/i0 may differ), dtypes, shapes, and torch's errors with their
messages in its order."""
import itertools

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")


def _outcome(lib, f):
    try:
        r = f(lib)
        if isinstance(r, tuple) and hasattr(r, "bin_edges"):
            return "ok", str(r.hist.dtype).split(".")[-1], [r.hist.double().numpy()] + [e.double().numpy()
                                                                                       for e in r.bin_edges]
        if isinstance(r, tuple):
            return "ok", [str(t.dtype).split(".")[-1] for t in r], [t.double().numpy() for t in r]
        return "ok", str(r.dtype).split(".")[-1], [r.double().numpy()]
    except Exception as e:  # noqa: BLE001 - compared with torch's
        return type(e).__name__, str(e).replace("torch", "tensorlib")


def _check(f, rtol=0.0, atol=0.0):
    a, b = _outcome(torch, f), _outcome(tl, f)
    assert a[0] == b[0], (a[:2], b[:2])
    if a[0] != "ok":
        assert a[1] == b[1]
        return
    assert a[1] == b[1]
    assert len(a[2]) == len(b[2])
    for x, y in zip(a[2], b[2]):
        assert x.shape == y.shape
        np.testing.assert_allclose(y, x, rtol=rtol, atol=atol)


WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]


@pytest.mark.parametrize("fn", WINDOWS)
@pytest.mark.parametrize("length", [0, 1, 2, 3, 5, 16, 17, 100])
@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("dt", [None, "float32", "float64", "float16", "bfloat16", "int32", "complex64"])
def test_windows(fn, length, periodic, dt):
    extra = {"hamming_window": [0.5, 0.4], "kaiser_window": [8.0]}.get(fn, [])
    for args in ([], extra):
        def f(lib):
            kw = {} if dt is None else {"dtype": getattr(lib, dt)}
            return getattr(lib, fn)(length, periodic, *args, **kw)
        if dt in ("float16", "bfloat16") and fn != "kaiser_window":
            _check(f)  # the same roundings as torch's
        elif dt == "float64":
            _check(f, rtol=1e-13, atol=1e-15)
        else:  # float32 cos and i0 may differ from torch's vectorized ones in the last bit
            _check(f, rtol=2e-6 if fn != "kaiser_window" or dt is None or dt == "float32" else 8e-3, atol=1e-7)


@pytest.mark.parametrize("call", [
    lambda lib: lib.hann_window(-1), lambda lib: lib.hann_window(3, layout=lib.sparse_coo),
    lambda lib: lib.hamming_window(3, layout=lib.sparse_coo), lambda lib: lib.kaiser_window(3, layout=lib.sparse_coo),
    lambda lib: lib.blackman_window(3, layout=lib.sparse_coo, dtype=lib.float64),
    lambda lib: lib.kaiser_window(3, dtype=lib.int64), lambda lib: lib.hann_window(2.0),
    lambda lib: lib.blackman_window(4, dtype=lib.bool), lambda lib: lib.bartlett_window(3, dtype=lib.complex128),
])
def test_window_errors(call):
    _check(call)


def test_window_in_stft():
    w = tl.hann_window(16, dtype=tl.float64)
    x = tl.tensor(np.random.default_rng(0).standard_normal(64))
    s = tl.stft(x, 16, hop_length=4, window=w, return_complex=True)
    np.testing.assert_allclose(tl.istft(s, 16, hop_length=4, window=w, length=64).numpy(), x.numpy(), atol=1e-12)


def _gradient_call(shape, dt, eo, spacing, dim, x):
    def f(lib):
        t = lib.tensor(x * 10).to(getattr(lib, dt))
        dims = None if dim is None else (list(range(t.dim())) if dim == "all" else dim)
        used = list(range(t.dim())) if dims is None else ([dims] if isinstance(dims, int) else dims)
        kw = {"edge_order": eo}
        if dims is not None:
            kw["dim"] = dims
        if spacing == "list":
            kw["spacing"] = [0.5 + i for i in range(len(used))]
        elif spacing in ("coords", "coords_int"):
            kw["spacing"] = [lib.tensor(np.cumsum(np.arange(1, t.shape[d] + 1))).to(
                t.dtype if (t.dtype.is_floating_point and spacing == "coords") else lib.int64) for d in used]
        elif spacing is not None:
            kw["spacing"] = spacing
        return lib.gradient(t, **kw)
    return f


GRADIENT_GRID = list(itertools.product([(5,), (3, 4), (2, 3, 4), (6, 2)], ["float32", "float64", "int64"], [1, 2, 3],
                                       [None, 2, 0.5, "list", "coords", "coords_int"], [None, 0, -1, [0], "all"]))


@pytest.mark.parametrize("shape,dt,eo,spacing,dim", GRADIENT_GRID)
def test_gradient(shape, dt, eo, spacing, dim):
    x = np.random.default_rng(len(shape)).standard_normal(shape)
    _check(_gradient_call(shape, dt, eo, spacing, dim, x), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("call", [
    lambda lib: lib.gradient(lib.arange(5, dtype=lib.uint8)),
    lambda lib: lib.gradient(lib.arange(6.0).reshape(2, 3), dim=[1], spacing=[2.0, 3.0]),
    lambda lib: lib.gradient(lib.arange(6.0).reshape(2, 3), spacing=[2.0]),
    lambda lib: lib.gradient(lib.arange(2.0), edge_order=2),
    lambda lib: lib.gradient(lib.arange(5.0), spacing=[lib.ones(2, 2)]),
    lambda lib: lib.gradient(lib.arange(5.0), spacing=[lib.ones(4)]),
    lambda lib: lib.gradient(lib.tensor(3.0)),
    lambda lib: lib.gradient(lib.arange(5.0), spacing=lib.tensor(2.0)),
    lambda lib: lib.gradient(lib.arange(6.0).reshape(2, 3), dim=(0, 0)),
    lambda lib: lib.gradient(lib.arange(6.0).reshape(2, 3).t(), dim=1, spacing=3),  # non-contiguous
])
def test_gradient_forms_and_errors(call):
    _check(call, rtol=1e-6)


HDD_GRID = list(itertools.product([(0, 2), (7, 1), (20, 2), (5, 4, 3)], ["float32", "float64"],
                                  [3, "list", "edges"], [None, "range"], [None, "weight"], [False, True]))


@pytest.mark.parametrize("shape,dt,bins,rng,weight,density", HDD_GRID)
def test_histogramdd(shape, dt, bins, rng, weight, density):
    x = np.random.default_rng(shape[0]).standard_normal(shape)
    D = shape[-1]

    def f(lib):
        t = lib.tensor(x).to(getattr(lib, dt))
        b = ([lib.tensor(np.linspace(-2, 2, 4 + d)).to(t.dtype) for d in range(D)] if bins == "edges"
             else [2 + d for d in range(D)] if bins == "list" else bins)
        kw = {"density": density}
        if rng and bins != "edges":
            kw["range"] = [v for d in range(D) for v in (-1.0, 1.5)]
        if weight:
            kw["weight"] = lib.tensor(np.arange(np.prod(shape[:-1])).reshape(shape[:-1]) * 1.0).to(t.dtype)
        return lib.histogramdd(t, b, **kw)
    _check(f, rtol=1e-6, atol=1e-12)


X6 = np.random.default_rng(0).standard_normal((6, 2))


@pytest.mark.parametrize("call", [
    lambda L: L.histogramdd(L.tensor(X6).float(), 0), lambda L: L.histogramdd(L.tensor(X6).float(), [2, 0]),
    lambda L: L.histogramdd(L.tensor(X6).float(), [2, 3, 4]),
    lambda L: L.histogramdd(L.tensor(X6).float(), 3, range=[0, 1]),
    lambda L: L.histogramdd(L.tensor(X6).float(), 3, range=[0, 1, 1, 0]),
    lambda L: L.histogramdd(L.tensor(X6).double(), 2, weight=L.ones(6)),
    lambda L: L.histogramdd(L.tensor(X6[:, 0]).float(), 2),
    lambda L: L.histogramdd(L.tensor(X6).float(), 2, weight=L.ones(4)),
    lambda L: L.histogramdd(L.tensor(X6).half(), 2), lambda L: L.histogramdd(L.tensor(X6).long(), 2),
    lambda L: L.histogramdd(L.tensor(X6).float(), [L.tensor([0.0, 1]).double(), L.tensor([0.0, 1])]),
    lambda L: L.histogramdd(L.tensor(X6).float(), [L.ones(2, 2), L.tensor([0.0, 1])]),
    lambda L: L.histogramdd(L.tensor(X6).float(), [L.tensor([0.0]), L.tensor([0.0, 1])]),
    lambda L: L.histogramdd(L.tensor([[float("nan"), 1.0]]), 2),
    lambda L: L.histogramdd(L.tensor([[float("inf"), 1.0]]), 2),
    lambda L: L.histogramdd(L.zeros(0, 2).half(), 2),
    lambda L: L.histogramdd(L.tensor([[1.0, 2], [1, 2]]), [2, 2], density=True),
])
def test_histogramdd_forms_and_errors(call):
    _check(call, rtol=1e-6)
