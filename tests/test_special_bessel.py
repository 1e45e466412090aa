"""The modified Bessel functions (tl.i0, tl.special.i0e/i1/i1e/modified_bessel_*/scaled_modified_bessel_k*):
values against mpmath (the true value; torch's Cephes-based kernels differ by a few ulps and its SIMD path
is not used here), special values, dtypes, refusals, out= and in-place against torch 2.13."""
import math

import numpy as np
import pytest
import torch

import tensorlib as tl

mp = pytest.importorskip("mpmath")

NAMES = ["i0", "i0e", "i1", "i1e", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
         "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1"]


def _true(name, x):
    x = mp.mpf(x)
    if name in ("i0", "modified_bessel_i0"):
        return mp.besseli(0, x)
    if name in ("i1", "modified_bessel_i1"):
        return mp.besseli(1, x)
    if name == "i0e":
        return mp.besseli(0, x) * mp.exp(-abs(x))
    if name == "i1e":
        return mp.besseli(1, x) * mp.exp(-abs(x))
    nu = 1 if name.endswith("k1") else 0
    v = mp.besselk(nu, x)
    return v * mp.exp(x) if name.startswith("scaled") else v


def _grid():
    xs = np.concatenate([np.geomspace(1e-300, 1, 60), np.linspace(0.01, 30, 240), np.geomspace(1, 720, 120),
                         [0.999, 1.0, 1.001, 24.999, 25.0, 25.001, 700.0, 713.9]])
    return np.concatenate([xs, -xs])


@pytest.mark.parametrize("name", NAMES)
def test_against_the_true_value(name):
    mp.mp.dps = 40
    xs = _grid()
    if "_k" in name:
        xs = xs[xs > 0]
    f = tl.i0 if name == "i0" else getattr(tl.special, name)
    y64 = np.array(f(tl.tensor(xs.tolist(), dtype=tl.float64)).tolist())
    y32 = np.array(f(tl.tensor(xs.tolist(), dtype=tl.float32)).tolist())
    x32 = np.array(tl.tensor(xs.tolist(), dtype=tl.float32).tolist())
    for x, a in zip(xs, y64):
        t = _true(name, float(x))
        t = float(t) if abs(t) < 1.7976931348623157e308 else math.copysign(math.inf, t)
        if math.isinf(t) or t == 0 or abs(t) < 2.3e-308:
            assert a == pytest.approx(t, rel=1e-12, abs=1e-320), (name, x)
            continue
        assert abs(a - t) <= 16 * np.spacing(abs(t)), (name, x, a, t)
    for x, a in zip(x32, y32):
        t = float(_true(name, float(x)))
        t32 = float(np.float32(t)) if abs(t) < 3.4e38 else math.inf
        if math.isinf(t32) or abs(t32) < 1.2e-38:
            continue
        assert abs(a - t32) <= np.spacing(np.float32(abs(t32))), (name, x, a, t32)


@pytest.mark.parametrize("name", NAMES)
def test_special_values_as_torch(name):
    vals = [0.0, -0.0, -1.0, 1.0, math.inf, -math.inf, math.nan, 1e-300, -1e-300, 5e-324, 800.0, -800.0]
    f = tl.i0 if name == "i0" else getattr(tl.special, name)
    g = torch.i0 if name == "i0" else getattr(torch.special, name)
    got = f(tl.tensor(vals, dtype=tl.float64)).tolist()
    exp = g(torch.tensor(vals, dtype=torch.float64)).tolist()
    for v, a, e in zip(vals, got, exp):
        if math.isnan(e):
            assert math.isnan(a), (name, v)
        elif math.isinf(e) or e == 0:
            assert a == e and math.copysign(1, a) == math.copysign(1, e), (name, v, a, e)
        else:
            assert a == pytest.approx(e, rel=1e-13), (name, v)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dt", ["bool", "int32", "int64", "uint8", "float16", "bfloat16", "float32", "float64",
                                "complex64", "complex128"])
def test_dtypes_and_refusals_as_torch(name, dt):
    f = tl.i0 if name == "i0" else getattr(tl.special, name)
    g = torch.i0 if name == "i0" else getattr(torch.special, name)
    vals = [0.0, 1.0, 2.0, 3.0, 7.0]
    try:
        e = g(torch.tensor(vals).to(getattr(torch, dt)))
    except Exception as err:
        with pytest.raises(type(err)) as ei:
            f(tl.tensor(vals).to(getattr(tl, dt)))
        assert str(ei.value) == str(err)
        return
    a = f(tl.tensor(vals).to(getattr(tl, dt)))
    assert str(a.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    tol = 1e-2 if dt in ("float16", "bfloat16") else 1e-6
    np.testing.assert_allclose(np.array(a.double().tolist()), e.double().numpy(), rtol=tol)


def test_out_inplace_strided_empty():
    x = tl.tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]])
    tx = torch.tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]])
    out = tl.empty(0, dtype=tl.float64)
    r = tl.special.modified_bessel_k1(x.double(), out=out)
    assert r is out and out.shape == (2, 3)
    np.testing.assert_allclose(out.tolist(), torch.special.modified_bessel_k1(tx.double()).tolist(), rtol=1e-14)
    y = x.clone()
    assert y.i0_() is y
    np.testing.assert_allclose(y.tolist(), tx.i0().tolist(), rtol=1e-6)
    np.testing.assert_allclose(x.t().i0().tolist(), tx.t().i0().tolist(), rtol=1e-6)
    np.testing.assert_allclose(tl.special.i1e(x[:, ::2]).tolist(), torch.special.i1e(tx[:, ::2]).tolist(), rtol=1e-6)
    with pytest.raises(RuntimeError) as ei:
        tl.ones(2, dtype=tl.int32).i0_()
    assert "result type Float can't be cast to the desired output type Int" in str(ei.value)
    assert tl.special.i0e(tl.empty(0, 3)).shape == (0, 3)
    assert tl.special.i0(tl.tensor(1.0)).shape == ()
    assert tl.special.i0(tl.tensor(1.0)).item() == pytest.approx(1.2660658777520082)
