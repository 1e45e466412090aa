"""diff, trapezoid/trapz/cumulative_trapezoid, bincount, histogram, cov, corrcoef,
quantile/nanquantile, dist and cosine_similarity (tensorlib/_stats.py) against torch 2.13: each
case is one function of the library (``L`` is tensorlib or torch), so both build the same
inputs (0-d, empty, non-contiguous, broadcast) and make the same call; results must agree in
dtype, shape and values (integers and bools exactly, floats within a few ulps: the reductions
sum in their own order), errors in type and message."""
import warnings

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")


def _run(f, L):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(L), None
    except Exception as e:  # noqa: BLE001 - compared as (type, message)
        return None, e


def _np(x):
    if isinstance(x, tl.Tensor):
        x = x.rename(None) if x.has_names() else x
        if x.dtype in (tl.float16, tl.bfloat16):
            x = x.float()
        return x.numpy()
    if x.dtype in (torch.float16, torch.bfloat16):
        x = x.float()
    return x.numpy()


def _tol(dt):
    return {"float16": 2e-3, "bfloat16": 1e-2, "float32": 2e-6, "complex64": 2e-6}.get(dt, 1e-12)


def same(a, b, rtol=None):
    if isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b)
        if hasattr(b, "_fields"):
            assert a._fields == b._fields
        for x, y in zip(a, b):
            same(x, y, rtol)
        return
    assert isinstance(a, tl.Tensor), type(a)
    dt = str(b.dtype).split(".")[-1]
    assert str(a.dtype).split(".")[-1] == dt
    assert tuple(a.shape) == tuple(b.shape)
    x, y = _np(a), _np(b)
    if b.dtype.is_floating_point or b.dtype.is_complex:
        tol = rtol if rtol is not None else _tol(dt)
        np.testing.assert_allclose(x, y, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(x, y)


def check(f, rtol=None):
    r, e = _run(f, tl)
    rt, et = _run(f, torch)
    if et is not None or e is not None:
        assert e is not None and et is not None, (e, et, r, rt)
        assert type(e) is type(et) and str(e) == str(et), (e, et)
        return
    same(r, rt, rtol)


DTYPES = ["float32", "float64", "int64", "int32", "bool", "float16", "complex64", "uint8"]


def mk(L, dt, shape=(3, 4), seed=0):
    """The same values in both libraries: small integers (so sums are exact), as dt."""
    v = np.random.default_rng(seed).integers(-5, 6, shape)
    t = L.tensor(v.astype(np.float64))
    if dt == "bool":
        return t > 0
    if dt == "uint8":
        return t.abs().to(L.uint8)
    return t.to(getattr(L, dt))


def fl(L, dt, shape, seed=0):
    t = L.tensor(np.random.default_rng(seed).standard_normal(shape))
    return t.to(getattr(L, dt))


# ---- diff ----

@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_diff(dt, n, dim):
    check(lambda L: L.diff(mk(L, dt), n=n, dim=dim))
    check(lambda L: L.diff(mk(L, dt).t(), n=n, dim=dim))  # non-contiguous
    check(lambda L: mk(L, dt, (5,)).diff(n))
    check(lambda L: L.diff(mk(L, dt), n=n, dim=dim, prepend=mk(L, dt, (3, 4), 1)[:1, :1].expand(
        *[(1 if dim in (0,) else 3), (1 if dim in (-1, 1) else 4)])))
    check(lambda L: L.diff(mk(L, dt), n=n, dim=dim, append=mk(L, "float64", (3, 4), 2)))


def test_diff_edges_and_errors():
    check(lambda L: L.diff(L.tensor(1.)))
    check(lambda L: L.diff(L.tensor([1., 2.]), n=-1))
    check(lambda L: L.diff(L.ones(0)))
    check(lambda L: L.diff(L.ones(2, 0), dim=0))
    check(lambda L: L.diff(L.ones(2, 3), dim=2))
    check(lambda L: L.diff(L.ones(2, 3), prepend=L.ones(3)))
    check(lambda L: L.diff(L.ones(2, 3), prepend=L.ones(3, 1)))
    check(lambda L: L.diff(L.ones(2, 3), append=L.ones(2, 2, 1)))
    check(lambda L: L.diff(L.ones(2, 3), prepend=2.))
    check(lambda L: L.diff(L.ones(2, 3), n=0, prepend=L.zeros(2, 1)))
    check(lambda L: L.diff(L.ones(2, 3, dtype=L.float16), prepend=L.ones(2, 1, dtype=L.float64)))
    check(lambda L: L.diff(L.arange(5), out=L.empty(0, dtype=L.int64)))


def test_diff_names():
    x = tl.arange(12.).reshape(3, 4).refine_names("A", "B")
    assert tl.diff(x).names == ("A", "B") and tl.diff(x, dim="A").shape == (2, 4)
    assert tl.diff(x, 2, dim="A").names == ("A", "B")


# ---- trapezoid ----

TRAP = [("trapezoid", False), ("trapz", False), ("cumulative_trapezoid", True)]


@pytest.mark.parametrize("op", [t[0] for t in TRAP])
@pytest.mark.parametrize("dt", DTYPES)
def test_trapezoid(op, dt):
    f = lambda L: getattr(L, op)  # noqa: E731
    check(lambda L: f(L)(mk(L, dt)))
    check(lambda L: f(L)(mk(L, dt), dim=0))
    check(lambda L: f(L)(mk(L, dt).t(), dx=0.5))
    check(lambda L: f(L)(mk(L, dt), dx=2, dim=0))
    check(lambda L: f(L)(mk(L, dt), mk(L, "float32", (4,), 3)))
    check(lambda L: f(L)(mk(L, dt), mk(L, dt, (4,), 3)))
    check(lambda L: f(L)(mk(L, dt), mk(L, "float64", (3, 1), 3), dim=0))
    check(lambda L: f(L)(mk(L, dt), mk(L, "int64", (3, 4), 3)))
    check(lambda L: f(L)(mk(L, dt, (2, 3, 4)), mk(L, "float32", (3, 4), 3), dim=1))
    check(lambda L: f(L)(mk(L, dt, (0, 4))))
    check(lambda L: f(L)(mk(L, dt, (0, 4)), dim=0))
    check(lambda L: f(L)(mk(L, dt, (3, 0)), mk(L, "float32", (0,))))
    check(lambda L: f(L)(mk(L, dt, (3, 1))))


@pytest.mark.parametrize("op", [t[0] for t in TRAP])
def test_trapezoid_errors(op):
    f = lambda L: getattr(L, op)  # noqa: E731
    check(lambda L: f(L)(L.ones(3), L.ones(4)))
    check(lambda L: f(L)(L.ones(3), dx=True))
    check(lambda L: f(L)(L.ones(3), dim=1))
    check(lambda L: f(L)(L.ones(3), L.ones(3, dtype=L.bool)))
    check(lambda L: f(L)(L.tensor(1.)))


def test_trapezoid_names():
    x = tl.arange(12.).reshape(3, 4).refine_names("A", "B")
    assert tl.trapezoid(x).names == ("A",)
    assert tl.cumulative_trapezoid(x, dim="A").names == ("A", "B")


# ---- bincount ----

@pytest.mark.parametrize("dt", ["int64", "int32", "uint8", "int16", "int8"])
@pytest.mark.parametrize("wdt", [None, "float32", "float64", "int64", "float16", "bool"])
def test_bincount(dt, wdt):
    x = lambda L: mk(L, dt, (12,)).abs()  # noqa: E731
    w = (lambda L: None) if wdt is None else (lambda L: mk(L, wdt, (12,), 5))  # noqa: E731
    check(lambda L: L.bincount(x(L), w(L)))
    check(lambda L: L.bincount(x(L), w(L), minlength=20))
    check(lambda L: x(L)[::2].bincount(None if wdt is None else w(L)[1::2], 3))


def test_bincount_errors():
    for f in (lambda L: L.bincount(L.tensor([1.])), lambda L: L.bincount(L.tensor([True])),
              lambda L: L.bincount(L.tensor([-1])), lambda L: L.bincount(L.ones(2, 2, dtype=L.int64)),
              lambda L: L.bincount(L.tensor(2)), lambda L: L.bincount(L.tensor([1, 2]), minlength=-1),
              lambda L: L.bincount(L.tensor([1, 2]), L.tensor([1., 2, 3])),
              lambda L: L.bincount(L.tensor([], dtype=L.int64)),
              lambda L: L.bincount(L.tensor([], dtype=L.int64), minlength=3),
              lambda L: L.bincount(L.tensor([1, 2]), L.tensor([1 + 1j, 2]))):
        check(f)
    with pytest.raises(RuntimeError, match="not yet supported with named"):
        tl.bincount(tl.tensor([1, 2], names=("A",)))


# ---- histogram ----

@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_histogram(dt):
    x = lambda L: fl(L, dt, (5, 7), 3)  # noqa: E731
    for bins in (1, 3, 10):
        check(lambda L: L.histogram(x(L), bins))
        check(lambda L: x(L).t().histogram(bins, range=(-1., 1.)))
        check(lambda L: L.histogram(x(L), bins, weight=fl(L, dt, (5, 7), 4).abs(), density=True))
        check(lambda L: L.histogram(x(L), bins, density=True))
    e = lambda L: L.tensor([-3., -1., 0.5, 2., 10.]).to(getattr(L, dt))  # noqa: E731
    check(lambda L: L.histogram(x(L), e(L)))
    check(lambda L: L.histogram(x(L), e(L), weight=fl(L, dt, (5, 7), 4), density=True))
    check(lambda L: L.histogram(L.tensor([1., 2, 5]).to(getattr(L, dt)), 3))  # values on the edges
    check(lambda L: L.histogram(L.tensor([2., 2]).to(getattr(L, dt)), 3))  # min == max
    check(lambda L: L.histogram(L.ones(0).to(getattr(L, dt)), 4))
    check(lambda L: L.histogram(L.tensor(2.).to(getattr(L, dt)), 4))
    check(lambda L: L.histogram(x(L)))
    check(lambda L: L.histogram(x(L), 4, out=(L.empty(0, dtype=getattr(L, dt)), L.empty(0, dtype=getattr(L, dt)))))


def test_histogram_errors():
    for f in (lambda L: L.histogram(L.tensor([1, 2]), 3), lambda L: L.histogram(L.ones(3).half(), 3),
              lambda L: L.histogram(L.tensor([1., 2, 5]), 3, range=(10., 0.)),
              lambda L: L.histogram(L.tensor([1., 2, 5]), 0), lambda L: L.histogram(L.tensor([1., 2, 5]), -2),
              lambda L: L.histogram(L.tensor([1., 2, 5]), L.tensor([0., 1]).double()),
              lambda L: L.histogram(L.tensor([1., float("nan")]), 3),
              lambda L: L.histogram(L.tensor([1., float("inf")]), 3),
              lambda L: L.histogram(L.tensor([1., 2, 5]), 3, range=(0., float("inf"))),
              lambda L: L.histogram(L.tensor([1., 2, 5]), 3, weight=L.tensor([1., 2])),
              lambda L: L.histogram(L.tensor([1., 2, 5]), L.tensor([[0., 1, 3]])),
              lambda L: L.histogram(L.tensor([1., 2, 5]), L.tensor([1.])),
              lambda L: L.histogram(L.tensor([1., 2, 5]), L.tensor([6., 1, 3, 0]))):
        check(f)
    with pytest.raises(RuntimeError, match="not yet supported with named"):
        tl.histogram(tl.ones(2, names=("A",)), 2)


# ---- cov / corrcoef ----

@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "int32", "complex64", "uint8", "bool", "float16"])
def test_cov_corrcoef(dt):
    for shape in ((3, 5), (5,), (1, 4), (2, 1), ()):
        check(lambda L: L.cov(mk(L, dt, shape)))
        check(lambda L: L.corrcoef(mk(L, dt, shape)))
        check(lambda L: mk(L, dt, shape).cov(correction=0))
        check(lambda L: mk(L, dt, shape).corrcoef())
    n = 5
    fw = lambda L: mk(L, "int64", (n,), 7).abs()  # noqa: E731
    aw = lambda L: fl(L, "float64", (n,), 8).abs()  # noqa: E731
    check(lambda L: L.cov(mk(L, dt, (3, n)), fweights=fw(L)))
    check(lambda L: L.cov(mk(L, dt, (3, n)).t().t(), aweights=aw(L), correction=2))
    check(lambda L: L.cov(mk(L, dt, (n, 3)).t(), fweights=fw(L), aweights=aw(L)))
    check(lambda L: L.cov(mk(L, dt, (3, 1)), fweights=L.tensor([2])))
    check(lambda L: L.cov(mk(L, dt, (3, 1)), aweights=L.tensor([2.])))


def test_cov_errors():
    for f in (lambda L: L.cov(L.ones(2, 2, 2)), lambda L: L.cov(L.ones(2, 3, dtype=L.bool)),
              lambda L: L.cov(L.ones(2, 3), fweights=L.ones(3)),
              lambda L: L.cov(L.ones(2, 3), fweights=L.ones(1, 3, dtype=L.int64)),
              lambda L: L.cov(L.ones(2, 3), fweights=L.ones(2, dtype=L.int64)),
              lambda L: L.cov(L.ones(2, 3), fweights=-L.ones(3, dtype=L.int64)),
              lambda L: L.cov(L.ones(2, 3), fweights=L.zeros(3, dtype=L.int64)),
              lambda L: L.cov(L.ones(2, 3), aweights=L.ones(3, dtype=L.int64)),
              lambda L: L.cov(L.ones(2, 3), aweights=-L.ones(3)),
              lambda L: L.cov(L.ones(2, 3), aweights=L.ones(4)),
              lambda L: L.cov(L.ones(2, 3), correction=5), lambda L: L.cov(L.ones(2, 0)),
              lambda L: L.corrcoef(L.ones(2, 2, 2)), lambda L: L.corrcoef(L.ones(2, 3))):
        check(f)
    with pytest.raises(RuntimeError, match="not yet supported with named"):
        tl.cov(tl.ones(2, 3, names=("A", "B")))


# ---- quantile ----

INTERP = ["linear", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("interp", INTERP)
def test_quantile(op, dt, interp):
    def x(L):
        t = fl(L, dt, (4, 6), 9)
        t[1, 2] = float("nan")
        t[3] = float("nan")
        return t
    qs = [lambda L: 0.3, lambda L: 1, lambda L: L.tensor(0.5).to(getattr(L, dt)),
          lambda L: L.tensor([0., 0.25, 0.6, 1.]).to(getattr(L, dt))]
    for q in qs:
        for dim, keep in ((None, False), (None, True), (0, False), (1, True), (-1, False)):
            check(lambda L: getattr(L, op)(x(L), q(L), dim, keep, interpolation=interp))
            check(lambda L: getattr(x(L).t(), op)(q(L), dim=dim, keepdim=keep, interpolation=interp))
            check(lambda L: getattr(L, op)(fl(L, dt, (5, 3), 2), q(L), dim, keep, interpolation=interp))
        check(lambda L: getattr(L, op)(L.tensor(3.).to(getattr(L, dt)), q(L), interpolation=interp))
        check(lambda L: getattr(L, op)(L.tensor(3.).to(getattr(L, dt)), q(L), 0, True, interpolation=interp))
    check(lambda L: getattr(L, op)(fl(L, dt, (4, 6), 1), 0.4, 1, out=L.empty(0, dtype=getattr(L, dt))))


@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
def test_quantile_errors(op):
    x = lambda L: L.arange(6.).reshape(2, 3)  # noqa: E731
    for f in (lambda L: getattr(L, op)(x(L).long(), 0.5), lambda L: getattr(L, op)(x(L), 1.5),
              lambda L: getattr(L, op)(x(L), -0.25), lambda L: getattr(L, op)(x(L), L.tensor([[0.5]])),
              lambda L: getattr(L, op)(x(L), 0.5, interpolation="foo"),
              lambda L: getattr(L, op)(x(L), L.tensor([0.5], dtype=L.float64)),
              lambda L: getattr(L, op)(L.ones(0), 0.5), lambda L: getattr(L, op)(L.ones(2, 0), 0.5, dim=0),
              lambda L: getattr(L, op)(x(L), L.tensor([-0.5])), lambda L: getattr(L, op)(x(L).half(), 0.5),
              lambda L: getattr(L, op)(x(L), 0.5, dim=3), lambda L: getattr(L, op)(L.ones(2 ** 24 + 1), 0.5)):
        check(f)
    with pytest.raises(RuntimeError, match="not yet supported with named"):
        getattr(tl, op)(tl.ones(2, names=("A",)), 0.5)


# ---- dist, cosine_similarity ----

@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "complex64"])
@pytest.mark.parametrize("p", [2, 1, 0, 3.5, float("inf"), -float("inf")])
def test_dist(dt, p):
    check(lambda L: L.dist(fl(L, dt, (3, 4), 1), fl(L, dt, (4,), 2), p))
    check(lambda L: fl(L, dt, (3, 4), 1).t().dist(fl(L, dt, (4, 3), 2), p=p))
    check(lambda L: L.dist(L.ones(0).to(getattr(L, dt)), L.ones(0).to(getattr(L, dt)), p))


def test_dist_errors():
    check(lambda L: L.dist(L.ones(3), L.ones(2)))
    check(lambda L: L.dist(L.ones(3, dtype=L.int64), L.ones(3, dtype=L.int64)))
    check(lambda L: L.dist(L.ones(3), 2.))


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "bool", "float16"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cosine_similarity(dt, dim):
    a = lambda L: fl(L, "float64", (3, 4), 1).to(getattr(L, dt)) if dt != "bool" else mk(L, dt)  # noqa: E731
    b = lambda L: fl(L, "float64", (4,), 2).to(getattr(L, dt)) if dt != "bool" else mk(L, dt, (4,), 3)  # noqa: E731
    check(lambda L: L.cosine_similarity(a(L), b(L), dim), rtol=1e-5 if dt != "float16" else 3e-3)
    check(lambda L: L.cosine_similarity(a(L), L.zeros(3, 4), dim))
    check(lambda L: L.cosine_similarity(a(L).t(), a(L).t(), dim=0, eps=0.5), rtol=1e-5 if dt != "float16" else 3e-3)
    check(lambda L: L.cosine_similarity(a(L), b(L).to(L.float64), dim), rtol=1e-6)


def test_cosine_similarity_errors():
    check(lambda L: L.cosine_similarity(L.ones(3, dtype=L.int64), L.ones(3, dtype=L.int64), 0))
    check(lambda L: L.cosine_similarity(L.ones(3), L.ones(3), 0, eps=-1.))
    check(lambda L: L.cosine_similarity(L.ones(3), L.ones(2), 0))
    check(lambda L: L.cosine_similarity(L.ones(3), L.ones(3), 2))


def test_argument_types():
    for f in (lambda L: L.diff(L.ones(3), "a"), lambda L: L.bincount(L.tensor([1]), "x"),
              lambda L: L.bincount(L.tensor([1]), minlength=1.5), lambda L: L.dist(L.ones(3), 2.),
              lambda L: L.dist(L.ones(3), L.ones(3), p="fro"), lambda L: L.cov(L.ones(3), 1),
              lambda L: L.cov(L.ones(3), correction=0.5), lambda L: L.cosine_similarity(L.ones(3), 2.),
              lambda L: L.diff(L.ones(3), prepend=2.)):
        r, e = _run(f, tl)
        rt, et = _run(f, torch)
        assert type(e) is type(et) is TypeError, (e, et)
        if "invalid combination" not in str(et):
            assert str(e) == str(et), (e, et)


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here")
def test_composed_functions_on_cuda_stand_in():
    """Each composed function gives the CPU's result for a "cuda" tensor of the stand-in backend
    (tests/_fake_cuda_stats.py, in a subprocess) and stays on the device."""
    from _grid import run_grid
    assert run_grid("_fake_cuda_stats.py") >= 170
