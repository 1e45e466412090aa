"""torch.special's orthogonal polynomials (chebyshev_polynomial_t/u/v/w, their shifted_ forms,
hermite_polynomial_h/he, laguerre_polynomial_l, legendre_polynomial_p) against torch 2.13.

torch's CPU kernels run the recurrences in scalar code that its AVX2/AVX-512 builds compile with
fused multiply-adds, so its last bits depend on the CPU; with ATEN_CPU_CAPABILITY=default (no FMA)
tensorlib equals torch bit for bit (checked then: the ends, the trigonometric forms, NaN and
infinite x, negative, fractional and NaN n); otherwise values compare within the rounding a
recurrence of that length accumulates, and special values (NaN, +-inf, the closed forms) exactly."""
import os

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

OPS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
       "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
       "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
       "legendre_polynomial_p"]
X = [-2.5, -1.0, -0.999, -0.5, -0.0, 0.0, 1e-3, 0.25, 0.5, 0.75, 0.999, 1.0, 1.5, 3.0, float("inf"), float("-inf"),
     float("nan")]
N = [-3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 30, 2.5, -0.5, float("nan")]
BITWISE = os.environ.get("ATEN_CPU_CAPABILITY") == "default"


def _grid():
    xs = np.array([x for x in X for n in N])
    ns = np.array([n for x in X for n in N])
    return xs, ns


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_values_against_torch(op, dt):
    xs, ns = _grid()
    a = getattr(torch.special, op)(torch.tensor(xs).to(getattr(torch, dt)),
                                   torch.tensor(ns).to(getattr(torch, dt))).double().numpy()
    b = getattr(tl.special, op)(tl.tensor(xs).to(getattr(tl, dt)), tl.tensor(ns).to(getattr(tl, dt))).double().numpy()
    if BITWISE:
        np.testing.assert_array_equal(b, a)
        return
    finite = np.isfinite(a) & (np.abs(a) < (1e30 if dt == "float32" else 1e300))
    np.testing.assert_allclose(b[finite], a[finite], rtol=2e-5 if dt == "float32" else 1e-12, atol=1e-6)
    big = ~finite & ~np.isnan(a)  # overflowed: the same infinity, or NaN where the FMA order differs
    assert np.all((b[big] == a[big]) | np.isnan(b[big]) | (np.abs(b[big]) > 1e30))
    assert np.array_equal(np.isnan(a) & (np.abs(xs) <= 3), np.isnan(b) & (np.abs(xs) <= 3))


@pytest.mark.parametrize("op", OPS)
def test_dtypes_forms_and_refusals(op):
    f_tl, f_t = getattr(tl.special, op), getattr(torch.special, op)
    for dt in ["int64", "int32", "bool", "uint8"]:  # promote to the default float dtype
        x = np.array([0, 1, 2, 3])
        a = f_t(torch.tensor(x).to(getattr(torch, dt)), torch.tensor([3, 2, 1, 0]).to(getattr(torch, dt)))
        b = f_tl(tl.tensor(x).to(getattr(tl, dt)), tl.tensor([3, 2, 1, 0]).to(getattr(tl, dt)))
        assert str(b.dtype).split(".")[-1] == str(a.dtype).split(".")[-1]
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6)
    for dt in ["float16", "bfloat16", "complex64"]:
        with pytest.raises(NotImplementedError) as ea:
            f_t(torch.ones(2, dtype=getattr(torch, dt)), torch.ones(2, dtype=getattr(torch, dt)))
        with pytest.raises(NotImplementedError) as eb:
            f_tl(tl.ones(2, dtype=getattr(tl, dt)), tl.ones(2, dtype=getattr(tl, dt)))
        assert str(eb.value) == str(ea.value).replace("torch", "tensorlib")
    # numbers on either side, broadcasting, a non-contiguous operand, out=
    np.testing.assert_allclose(f_tl(0.3, tl.tensor([4.0, 5.0])).numpy(), f_t(0.3, torch.tensor([4.0, 5.0])).numpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(f_tl(tl.tensor([0.3, 0.6]), 4).numpy(), f_t(torch.tensor([0.3, 0.6]), 4).numpy(),
                               rtol=1e-6)
    xm = np.linspace(-0.9, 0.9, 12).reshape(3, 4)
    a = f_t(torch.tensor(xm).t(), torch.tensor([[2.0], [5.0], [9.0], [12.0]]))
    b = f_tl(tl.tensor(xm).t(), tl.tensor([[2.0], [5.0], [9.0], [12.0]]))
    np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-12, atol=1e-12)
    out = tl.empty(0, dtype=tl.float64)
    assert f_tl(tl.tensor([0.5]), tl.tensor([3.0]), out=out) is out and out.shape == (1,)
    with pytest.raises(TypeError):
        f_tl(0.5, 3)
    assert f_tl(tl.zeros(0, 2), tl.ones(2)).shape == (0, 2)


def test_large_orders_finish():
    """A recurrence that went NaN stops (torch's loop would keep spinning to the same NaN)."""
    r = tl.special.hermite_polynomial_h(tl.tensor([50.0]), tl.tensor([1e9]))
    assert np.isnan(r.item()) or np.isinf(r.item())
