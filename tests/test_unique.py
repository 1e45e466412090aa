"""unique(dim=...) and unique_consecutive (flat and with dim) against torch 2.13 CPU and
NumPy: dtype grid, shapes (1-D..3-D, every dim, non-contiguous, empty), inverse/counts
shapes, result strides, NaN/-0.0 rows, sorted=False, errors."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64"]


def make(shape, dtype, seed=0, high=2, step=1):
    """Few distinct values so slices repeat; step > 1 gives a strided view."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0 if dtype.startswith("uint") or dtype == "bool" else -high, high + 1,
                        size=tuple(s * step for s in shape)).astype(np.float64)
    src = base > 0 if dtype == "bool" else base.astype(np.float32 if dtype == "bfloat16" else dtype)
    src = np.ascontiguousarray(src)
    a, t = tl.from_numpy(src.copy()), torch.from_numpy(src.copy())
    if dtype == "bfloat16":
        a, t = a.to(tl.bfloat16), t.to(torch.bfloat16)
    if step > 1:
        sl = tuple(slice(None, None, step) for _ in shape)
        a, t = a[sl], t[sl]
    return a, t


def npv(x):
    if str(x.dtype).endswith("bfloat16"):
        x = x.to(tl.float32) if isinstance(x, tl.Tensor) else x.float()
    if str(x.dtype).split(".")[-1] in ("uint16", "uint32", "uint64") and not isinstance(x, tl.Tensor):
        return np.asarray(x.tolist(), dtype=str(x.dtype).split(".")[-1])
    return x.numpy()


def same(r, e, strides=False):
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    assert tuple(r.shape) == tuple(e.shape), (tuple(r.shape), tuple(e.shape))
    np.testing.assert_array_equal(npv(r), npv(e).reshape(tuple(e.shape)))
    if strides:
        assert tuple(r.stride()) == tuple(e.stride()), (r.stride(), e.stride())


def same_all(rs, es):
    assert len(rs) == len(es)
    for i, (r, e) in enumerate(zip(rs, es)):
        same(r, e, strides=i == 0)


def raises_like(fx, ft):
    with pytest.raises(Exception) as te:
        ft()
    with pytest.raises(type(te.value)) as xe:
        fx()
    assert str(xe.value) == str(te.value)


SHAPES = [((7,), 1), ((6, 3), 1), ((5, 4), 2), ((3, 4, 5), 1), ((4, 3, 2), 2), ((1, 1), 1), ((40, 2), 1)]


@pytest.mark.parametrize("dt", DTYPES)
def test_unique_dim_grid(dt):
    for shape, step in SHAPES:
        a, t = make(shape, dt, step=step)
        for dim in range(-len(shape), len(shape)):
            for ri in (False, True):
                for rc in (False, True):
                    r = tl.unique(a, dim=dim, return_inverse=ri, return_counts=rc)
                    e = torch.unique(t, dim=dim, return_inverse=ri, return_counts=rc)
                    same_all(r if isinstance(r, tuple) else (r,), e if isinstance(e, tuple) else (e,))
            same(a.unique(dim=dim), t.unique(dim=dim), strides=True)


@pytest.mark.parametrize("dt", ["int64", "float64", "bool", "float16"])
def test_unique_consecutive_grid(dt):
    for shape, step in SHAPES + [((), 1), ((0,), 1), ((0, 3), 1)]:
        a, t = make(shape, dt, step=step, high=1)
        for dim in [None] + list(range(-len(shape), len(shape))):
            kw = {} if dim is None else {"dim": dim}
            if dim is not None and 0 in shape and shape[dim] != 0:
                raises_like(lambda: tl.unique_consecutive(a, **kw), lambda: torch.unique_consecutive(t, **kw))
                continue
            r = tl.unique_consecutive(a, return_inverse=True, return_counts=True, **kw)
            e = torch.unique_consecutive(t, return_inverse=True, return_counts=True, **kw)
            same_all(r, e)
            same(a.unique_consecutive(**kw), t.unique_consecutive(**kw))


def test_unique_dim_matches_numpy():
    rng = np.random.default_rng(3)
    for shape, axis in (((50, 3), 0), ((4, 60), 1), ((5, 30, 2), 1)):
        src = rng.integers(0, 2, size=shape).astype(np.int32)
        v, i, c = tl.unique(tl.from_numpy(src), dim=axis, return_inverse=True, return_counts=True)
        ev, ei, ec = np.unique(src, axis=axis, return_inverse=True, return_counts=True)
        np.testing.assert_array_equal(v.numpy(), ev)
        np.testing.assert_array_equal(i.numpy(), ei.reshape(-1))
        np.testing.assert_array_equal(c.numpy(), ec)


def test_unique_dim_many_rows():
    """Exercises the merge sort past its insertion-sort cutoff (and its stability)."""
    a, t = make((3000, 3), "int64", seed=5, high=4)
    same_all(tl.unique(a, dim=0, return_inverse=True, return_counts=True),
             torch.unique(t, dim=0, return_inverse=True, return_counts=True))
    a, t = make((3, 2000), "float32", seed=6, high=3)
    same_all(tl.unique(a, dim=1, return_inverse=True, return_counts=True),
             torch.unique(t, dim=1, return_inverse=True, return_counts=True))


def test_unique_dim_sorted_false_still_sorted():
    """torch's CPU unique_dim sorts whatever `sorted` says; tensorlib does the same."""
    src = np.array([[3, 1], [0, 2], [3, 1], [1, 1]])
    a, t = tl.from_numpy(src.copy()), torch.from_numpy(src.copy())
    r = tl.unique(a, sorted=False, dim=0, return_inverse=True, return_counts=True)
    e = torch.unique(t, sorted=False, dim=0, return_inverse=True, return_counts=True)
    same_all(r, e)
    assert r[0].tolist() == sorted(r[0].tolist())


def test_unique_dim_nan_and_signed_zero():
    nan = float("nan")
    for rows in ([[0., nan], [0., nan], [0., 1.]], [[nan, 1.], [nan, 1.]], [[-0., 1.], [0., 1.]],
                 [[0., 1.], [-0., 1.]], [[2., 1.], [-0., nan], [0., 3.]]):
        src = np.array(rows)
        a, t = tl.from_numpy(src.copy()), torch.from_numpy(src.copy())
        r = tl.unique(a, dim=0, return_inverse=True, return_counts=True)
        e = torch.unique(t, dim=0, return_inverse=True, return_counts=True)
        same_all(r, e)
        np.testing.assert_array_equal(np.signbit(r[0].numpy()), np.signbit(e[0].numpy()))
        same_all(tl.unique_consecutive(a, dim=1, return_counts=True),
                 torch.unique_consecutive(t, dim=1, return_counts=True))
    src = np.array([nan, nan, 0., -0., 1.])
    same_all(tl.unique_consecutive(tl.from_numpy(src.copy()), return_inverse=True, return_counts=True),
             torch.unique_consecutive(torch.from_numpy(src.copy()), return_inverse=True, return_counts=True))


def test_unique_dim_negative_strides_and_transposed():
    src = np.random.default_rng(7).integers(0, 2, size=(6, 5)).astype(np.float64)[::-1, ::-2]
    a, t = tl.from_numpy(np.ascontiguousarray(src)), torch.from_numpy(np.ascontiguousarray(src))
    for x, y in ((a, t), (a.t(), t.t())):
        for dim in (0, 1):
            same_all(tl.unique(x, dim=dim, return_inverse=True, return_counts=True),
                     torch.unique(y, dim=dim, return_inverse=True, return_counts=True))


@pytest.mark.parametrize("shape,dim", [((0, 3), 0), ((3, 0), 1), ((0,), 0), ((2, 0, 3), 1),
                                       ((0, 3), 1), ((3, 0, 2), 0), ((0, 0), 0), ((3, 0, 0), 1)])
def test_unique_dim_empty(shape, dim):
    a, t = tl.zeros(shape), torch.zeros(shape)
    for fx, ft in ((tl.unique, torch.unique), (tl.unique_consecutive, torch.unique_consecutive)):
        try:
            e = ft(t, dim=dim, return_inverse=True, return_counts=True)
        except RuntimeError:
            raises_like(lambda: fx(a, dim=dim, return_inverse=True, return_counts=True),
                        lambda: ft(t, dim=dim, return_inverse=True, return_counts=True))
            continue
        same_all(fx(a, dim=dim, return_inverse=True, return_counts=True), e)


def test_unique_errors():
    x, t = tl.zeros(2, 3), torch.zeros(2, 3)
    s, ts = tl.tensor(1.), torch.tensor(1.)
    for d in (0, -1, 2):
        raises_like(lambda: tl.unique(s, dim=d), lambda: torch.unique(ts, dim=d))
        raises_like(lambda: tl.unique_consecutive(s, dim=d), lambda: torch.unique_consecutive(ts, dim=d))
    for d in (2, -3):
        raises_like(lambda: tl.unique(x, dim=d), lambda: torch.unique(t, dim=d))
        raises_like(lambda: tl.unique_consecutive(x, dim=d), lambda: torch.unique_consecutive(t, dim=d))
    for d in (0.0, True, "a"):
        raises_like(lambda: tl.unique(x, dim=d), lambda: torch.unique(t, dim=d))
        raises_like(lambda: tl.unique_consecutive(x, dim=d), lambda: torch.unique_consecutive(t, dim=d))
    for dt in ("complex64", "float8_e4m3fn"):
        xc, tc = x.to(getattr(tl, dt)), t.to(getattr(torch, dt))
        raises_like(lambda: tl.unique(xc, dim=0), lambda: torch.unique(tc, dim=0))
        raises_like(lambda: tl.unique_consecutive(xc, dim=0), lambda: torch.unique_consecutive(tc, dim=0))
        raises_like(lambda: tl.unique_consecutive(xc), lambda: torch.unique_consecutive(tc))
    raises_like(lambda: tl.unique_consecutive([1, 2]), lambda: torch.unique_consecutive([1, 2]))
    same(tl.unique(x, dim=tl.tensor(0)), torch.unique(t, dim=torch.tensor(0)))
    n = tl.zeros(2, 3, names=("a", "b"))
    with pytest.raises(RuntimeError, match="named tensors"):
        tl.unique_consecutive(n)
    with pytest.raises(RuntimeError, match="named tensors"):
        tl.unique(n, dim=0)
