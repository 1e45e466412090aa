"""logaddexp2 and special.zeta (element-wise registry ops, hd_math.h formulas) against torch
2.13 and scipy.special / the mathematical value."""
import math

import numpy as np
import pytest
import scipy.special as sp
import torch

import tensorlib as tl

INF, NAN = math.inf, math.nan


def _t(x):
    return torch.from_numpy(np.asarray(x.tolist(), dtype=np.float64))


def _close_nan(got, want, rtol):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    m = ~np.isnan(want)
    np.testing.assert_allclose(got[m], want[m], rtol=rtol, atol=0)


A = [1.0, -3.0, INF, -INF, NAN, 100.0, -1e300, 0.0, 1e-10, 700.0, -INF, 5.0]
B = [2.0, -3.0, INF, -INF, 0.0, -100.0, 1e300, 0.0, -1e-10, 1.0, 3.0, INF]


def test_logaddexp2_values():
    a, b = tl.tensor(A, dtype=tl.float64), tl.tensor(B, dtype=tl.float64)
    got = tl.logaddexp2(a, b).tolist()
    want = [max(x, y) + math.log2(1 + 2 ** -abs(x - y)) if math.isfinite(x) and math.isfinite(y) else None
            for x, y in zip(A, B)]
    ref = torch.logaddexp2(torch.tensor(A, dtype=torch.float64), torch.tensor(B, dtype=torch.float64)).tolist()
    for g, w, r in zip(got, want, ref):
        if w is None:
            assert (g == r) or (math.isnan(g) and math.isnan(r))
        else:
            assert g == pytest.approx(w, rel=1e-15, abs=1e-300)
    np.testing.assert_array_equal(a.logaddexp2(b).tolist(), got)
    out = tl.empty(0, dtype=tl.float64)
    assert tl.logaddexp2(a, b, out=out) is out
    np.testing.assert_array_equal(out.tolist(), got)


@pytest.mark.parametrize("dt", ["float32", "float16", "bfloat16"])
def test_logaddexp2_dtypes(dt):
    x = tl.tensor([[-2.0, 0.5, 3.0], [10.0, -1.0, 0.0]], dtype=getattr(tl, dt))
    y = tl.tensor([1.0, 0.25, -7.0], dtype=getattr(tl, dt))
    tx, ty = torch.tensor(x.float().tolist(), dtype=getattr(torch, dt)), torch.tensor(y.float().tolist(), dtype=getattr(torch, dt))
    got = tl.logaddexp2(x.t(), y.reshape(3, 1))  # non-contiguous, broadcast
    want = torch.logaddexp2(tx.t(), ty.reshape(3, 1))
    assert str(got.dtype).split(".")[-1] == dt and list(got.shape) == list(want.shape)
    np.testing.assert_allclose(got.float().tolist(), want.float().tolist(), rtol=1e-2 if dt != "float32" else 1e-6)


def test_logaddexp2_refusals_and_names():
    for dt in ("int32", "bool", "complex64", "int64"):
        x = tl.ones(2, dtype=getattr(tl, dt))
        with pytest.raises(NotImplementedError) as e:
            tl.logaddexp2(x, x)
        tx = torch.ones(2, dtype=getattr(torch, dt))
        with pytest.raises(NotImplementedError) as w:
            torch.logaddexp2(tx, tx)
        assert str(e.value) == str(w.value)
    with pytest.raises(TypeError, match="must be Tensor, not float"):
        tl.logaddexp2(tl.ones(2), 2.0)
    n = tl.logaddexp2(tl.ones(2, 3).rename("a", "b"), tl.zeros(3))
    assert n.names == ("a", "b")
    assert tl.logaddexp2(tl.tensor(1.0), tl.tensor(1.0)).item() == 2.0
    assert list(tl.logaddexp2(tl.ones(0, 3), tl.ones(3)).shape) == [0, 3]
    x = tl.tensor([1.0, 2.0])
    assert x.logaddexp2_(tl.tensor([1.0, 2.0])) is x and x.tolist() == [2.0, 3.0]


XS = [2.0, 3.0, 1.5, 1.0001, 4.5, 10.0, 30.0, 2.0, 3.0, 1.1, 50.0, 2.0, 2.0, 6.0]
QS = [1.0, 2.0, 0.5, 1.0, 1e-3, 0.1, 1.0, 1e5, 3.7, 1e-8, 0.9, 100.5, 12.0, 7.25]


def test_zeta_accuracy():
    got = tl.special.zeta(tl.tensor(XS, dtype=tl.float64), tl.tensor(QS, dtype=tl.float64)).tolist()
    want = sp.zeta(np.array(XS), np.array(QS))
    np.testing.assert_allclose(got, want, rtol=4e-15)
    g32 = tl.special.zeta(tl.tensor(XS), tl.tensor(QS)).tolist()
    want32 = sp.zeta(np.array(XS, dtype=np.float32).astype(np.float64), np.array(QS, dtype=np.float32).astype(np.float64))
    np.testing.assert_allclose(g32, want32.astype(np.float32), rtol=1.2e-7)  # correctly rounded from double


def test_zeta_special_values_match_torch():
    x = [2.0, 2.0, 2.0, 2.0, -1.0, 0.5, 1.0, 3.0, 2.0, NAN, 2.0, INF, 3.0, 2.5, 4.0, 1.0]
    q = [0.0, -1.0, -1.5, INF, 1.0, 1.0, 1.0, -2.5, 1e-300, 1.0, NAN, 2.0, -3.0, -0.5, -2.25, -1.0]
    got = tl.special.zeta(tl.tensor(x, dtype=tl.float64), tl.tensor(q, dtype=tl.float64)).tolist()
    want = torch.special.zeta(torch.tensor(x, dtype=torch.float64), torch.tensor(q, dtype=torch.float64)).tolist()
    _close_nan(got, want, 1e-14)


def test_zeta_forms_and_dtypes():
    q = tl.tensor([1.0, 2.0, 3.5])
    tq = torch.tensor([1.0, 2.0, 3.5])
    np.testing.assert_allclose(tl.special.zeta(2, q).tolist(), torch.special.zeta(2, tq).tolist(), rtol=1e-6)
    np.testing.assert_allclose(tl.special.zeta(q + 1, 2).tolist(), torch.special.zeta(tq + 1, 2).tolist(), rtol=1e-6)
    r = tl.special.zeta(tl.tensor([2, 3]), tl.tensor([1, 2]))
    assert r.dtype == tl.float32
    np.testing.assert_allclose(r.tolist(), [math.pi ** 2 / 6, sp.zeta(3, 2)], rtol=1e-6)
    assert tl.special.zeta(tl.tensor([2.0], dtype=tl.float64), 1).dtype == tl.float64
    with pytest.raises(TypeError):
        tl.special.zeta(2.0, 3.0)
    for dt in ("float16", "bfloat16", "complex64"):
        x = tl.ones(2, dtype=getattr(tl, dt)) * 2
        with pytest.raises(NotImplementedError) as e:
            tl.special.zeta(x, x)
        tx = torch.ones(2, dtype=getattr(torch, dt)) * 2
        with pytest.raises(NotImplementedError) as w:
            torch.special.zeta(tx, tx)
        assert str(e.value) == str(w.value)
    out = tl.empty(3)
    assert tl.special.zeta(q + 1, q, out=out) is out
    n = tl.special.zeta(tl.full((2, 3), 2.0).rename("a", "b"), tl.ones(3))
    assert n.names == ("a", "b")
    big = tl.full((4, 6), 3.0, dtype=tl.float64)[:, ::2]
    np.testing.assert_allclose(tl.special.zeta(big, tl.tensor([1.0, 2.0, 3.0], dtype=tl.float64)).tolist(),
                               [[sp.zeta(3, 1), sp.zeta(3, 2), sp.zeta(3, 3)]] * 4, rtol=1e-15)
    assert list(tl.special.zeta(tl.ones(0), tl.ones(1)).shape) == [0]
