"""trace, cross and renorm (csrc/ops/join_math.c) against torch 2.13: every dtype the
typed kernels cover (half types rounded per operation like c10::Half), broadcasting,
non-contiguous and transposed inputs, every dim, p variants, and the dtype errors."""
import math

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")


def pair(shape, dtype, seed=0, lo=-50, hi=50):
    rng = np.random.default_rng(seed)
    a = rng.integers(lo, hi, size=shape).astype(np.float64) / (7 if dtype[0] in "fbc" else 1)
    if dtype.startswith("complex"):
        a = a + 1j * rng.integers(lo, hi, size=shape) / 7
    if dtype == "bfloat16":
        x, t = tl.from_numpy(a.astype(np.float32)), torch.from_numpy(a.astype(np.float32))
        return x.to(tl.bfloat16), t.to(torch.bfloat16)
    a = np.ascontiguousarray(a.astype(dtype))
    return tl.from_numpy(a.copy()), torch.from_numpy(a.copy())


def as_np(x):
    s = str(x.dtype).split(".")[-1]
    return (x.to(tl.float32) if isinstance(x, tl.Tensor) else x.float()).numpy() if s == "bfloat16" else x.numpy()


def same(r, e, rtol=0.0):
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    assert tuple(r.shape) == tuple(e.shape)
    if rtol:
        np.testing.assert_allclose(as_np(r), as_np(e), rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(as_np(r), as_np(e))


CROSS_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
                "complex64", "complex128"]


@pytest.mark.parametrize("dt", CROSS_DTYPES)
def test_cross_exact(dt):
    """Exact for integers and the half types; float/complex within an ulp or two (torch's
    AVX2 build may contract a*b - c*d into an FMA)."""
    tol = {"float32": 1e-6, "complex64": 1e-6, "float64": 1e-14, "complex128": 1e-14}.get(dt, 0)

    def same(r, e):
        globals()["same"](r, e, rtol=tol)
    a, ta = pair((5, 3, 4), dt, 1)
    b, tb = pair((5, 3, 4), dt, 2)
    same(tl.cross(a, b, dim=1), torch.cross(ta, tb, dim=1))
    same(tl.cross(a.transpose(0, 2), b.transpose(0, 2), dim=1), torch.cross(ta.transpose(0, 2), tb.transpose(0, 2), dim=1))
    c, tc = pair((3,), dt, 3)
    same(tl.cross(a[:, :, :1], c.reshape(1, 3, 1), dim=1), torch.cross(ta[:, :, :1], tc.reshape(1, 3, 1), dim=1))
    x, tx = pair((3, 1000), dt, 4)
    y, ty = pair((3, 1000), dt, 5)
    same(tl.cross(x, y, dim=0), torch.cross(tx, ty, dim=0))
    same(tl.cross(x.t(), y.t(), dim=-1), torch.cross(tx.t(), ty.t(), dim=-1))
    same(tl.cross(x[:, ::3], y[:, ::3], dim=0), torch.cross(tx[:, ::3], ty[:, ::3], dim=0))


def test_cross_errors():
    for dt in ("bool", "complex32"):
        a, t = tl.ones(2, 3).to(getattr(tl, dt)), torch.ones(2, 3).to(getattr(torch, dt))
        with pytest.raises(NotImplementedError) as e:
            torch.cross(t, t, dim=1)
        with pytest.raises(NotImplementedError) as x:
            tl.cross(a, a, dim=1)
        assert str(x.value) == str(e.value)


@pytest.mark.parametrize("dt", CROSS_DTYPES)
def test_trace(dt):
    for shape in ((7, 7), (5, 9), (9, 5), (0, 3), (1, 1)):
        a, t = pair(shape, dt, 6)
        exact = not dt.startswith(("float16", "bfloat16"))
        same(tl.trace(a), torch.trace(t), rtol=0 if exact else 1e-2)
        same(a.t().trace(), t.t().trace(), rtol=0 if exact else 1e-2)
    big, tbig = pair((300, 300), dt, 7)
    same(tl.trace(big[::2, 1::3]), torch.trace(tbig[::2, 1::3]), rtol=1e-6 if dt[0] in "fbc" else 0)
    with pytest.raises(NotImplementedError):
        tl.trace(tl.ones(2, 2, dtype=tl.bool))


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128", "float16", "bfloat16"])
@pytest.mark.parametrize("p", [1, 2, 3, 2.5, math.inf])
def test_renorm(dt, p):
    tol = {"float32": 1e-5, "complex64": 1e-5, "float64": 1e-12, "complex128": 1e-12}.get(dt, 1e-2)
    for shape in ((6, 5), (4, 3, 5), (2, 1, 3)):
        a, t = pair(shape, dt, 8)
        for d in range(len(shape)):
            for maxnorm in (0.0, 1.0, 1e9):
                same(tl.renorm(a, p, d, maxnorm), torch.renorm(t, p, d, maxnorm), rtol=tol)
        same(tl.renorm(a.transpose(0, -1), p, 0, 1.0), torch.renorm(t.transpose(0, -1), p, 0, 1.0), rtol=tol)
    a, t = pair((300, 40), dt, 9)
    same(tl.renorm(a[::2], p, 1, 3.0), torch.renorm(t[::2], p, 1, 3.0), rtol=tol)
    for shape, d in (((0, 3), 1), ((0, 3), 0), ((2, 0, 3), 0)):
        z, tz = tl.zeros(shape, dtype=a.dtype), torch.zeros(shape, dtype=t.dtype)
        try:
            e = torch.renorm(tz, p, d, 3.0)
        except RuntimeError as err:
            with pytest.raises(RuntimeError) as x:
                tl.renorm(z, p, d, 3.0)
            assert str(x.value) == str(err)
            continue
        same(tl.renorm(z, p, d, 3.0), e)
