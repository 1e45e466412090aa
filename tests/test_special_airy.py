"""special.airy_ai: against mpmath (tensorlib's formulas in double: the K_1/3 integral for x > 0,
a double-double Maclaurin series on [-10, 0], the asymptotic expansion below), against torch
2.13 for dtypes, special values (NaN at +-inf, 0 beyond 103.892) and refusals. torch's own
float64 values are off by up to ~3e-6 near the zeros of Ai (its Cephes rational fits), so values
compare with torch only to that."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")
mpmath = pytest.importorskip("mpmath")

XS = np.concatenate([np.linspace(-30, 30, 1201), [-1e3, -200, -10.0, -10.000001, -9.999999, 0.0, -0.0, 1e-9, 1e-5,
                                                   50.0, 100.0, 103.8]])


def _ref(xs):
    with mpmath.workdps(40):
        return np.array([float(mpmath.airyai(x)) for x in xs])


def test_float64_against_mpmath():
    got = tl.special.airy_ai(tl.tensor(XS)).numpy()
    want = _ref(XS)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    pos = XS > 0  # no zeros there: relative accuracy all the way to the underflow
    np.testing.assert_allclose(got[pos], want[pos], rtol=5e-13, atol=0)  # (exp(-z) passes on z's rounding, times z)


def test_float32_rounds_the_double_value():
    x32 = XS.astype(np.float32)
    got = tl.special.airy_ai(tl.tensor(x32)).numpy()
    assert got.dtype == np.float32
    want = _ref(x32.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=1.2e-7, atol=1e-30)


def test_against_torch_values_and_specials():
    x = np.concatenate([XS, [105.0, 1e4, -1e4, np.inf, -np.inf, np.nan]])
    a = torch.special.airy_ai(torch.tensor(x)).numpy()
    b = tl.special.airy_ai(tl.tensor(x)).numpy()
    np.testing.assert_allclose(b, a, rtol=1e-3, atol=5e-6, equal_nan=True)
    np.testing.assert_array_equal(np.isnan(b), np.isnan(a))
    np.testing.assert_array_equal(b[(x > 103.892) & np.isfinite(x)], 0.0)


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "int32", "bool", "uint8", "float16", "bfloat16",
                                "complex64", "uint16"])
def test_dtypes_and_refusals(dt):
    def run(lib):
        try:
            r = lib.special.airy_ai(lib.tensor([0.0, 1.0, 2.0]).to(getattr(lib, dt)))
            return "ok", str(r.dtype).split(".")[-1], r.double().numpy()
        except Exception as e:  # noqa: BLE001 - compared with torch's
            return type(e).__name__, str(e).replace("torch", "tensorlib")
    a, b = run(torch), run(tl)
    assert a[:2] == b[:2]
    if a[0] == "ok":
        np.testing.assert_allclose(b[2], a[2], rtol=1e-5)


def test_forms():
    x = tl.tensor([[-2.0, 0.5], [1.5, -7.0]]).t()
    out = tl.empty(0, dtype=tl.float64)
    assert tl.special.airy_ai(x, out=out) is out and out.shape == (2, 2)
    np.testing.assert_allclose(out.numpy(), _ref(x.double().numpy().ravel()).reshape(2, 2), rtol=1e-6)
    assert tl.special.airy_ai(tl.zeros(0, 3)).shape == (0, 3)
