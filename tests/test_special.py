"""tensorlib.special against torch.special 2.13 (dtypes, errors, values) and, for the functions
of its own (ndtr, ndtri, log_ndtr, erfcx), against mpmath: a few ulps over the whole range,
including the tails where torch's and SciPy's double formulas lose hundreds of ulps."""
import math

import numpy as np
import pytest

import tensorlib as tl
from _oracle import torch

mp = pytest.importorskip("mpmath")

DTYPES = ["float32", "float64", "float16", "bfloat16", "int32", "int64", "uint8", "bool", "complex64"]


def _ulps(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    d = np.abs(got - want) / np.maximum(np.spacing(np.abs(want)), 5e-324)
    d[same] = 0
    return d


def _mp_ref(name, x):
    with mp.workdps(60):
        v = mp.mpf(x)
        if name == "ndtr":
            return float(mp.ncdf(v))
        if name == "log_ndtr":
            return float(mp.log(mp.ncdf(v)) if v < 0 else mp.log1p(-mp.ncdf(-v)))
        if name == "erfcx":
            return float(mp.exp(v * v) * mp.erfc(v))
        if v <= 0 or v >= 1:
            return {0: -math.inf, 1: math.inf}.get(x, math.nan)
    with mp.workdps(40 + int(-math.log10(min(x, 1 - x)))):  # 2p - 1 exact enough for erfinv
        return float(mp.sqrt(2) * mp.erfinv(2 * mp.mpf(x) - 1))


def _points(name, rng):
    if name == "ndtri":
        return np.concatenate([rng.uniform(0, 1, 400), np.exp(rng.uniform(-740, 0, 300)),
                               1 - np.exp(rng.uniform(-36, -1, 200)), [0.5, 0.075, 0.925, 1e-300, 5e-324]])
    lo = {"ndtr": -38.0, "log_ndtr": -1e3, "erfcx": -26.6}[name]
    return np.concatenate([rng.uniform(lo, 40, 500), rng.standard_normal(300) * 3, np.exp(rng.uniform(-30, 6, 150)),
                           -np.exp(rng.uniform(-30, math.log(-lo), 150)), [0.0, -0.0, 1.0, -1.0, 26.0, 25.999]])


@pytest.mark.parametrize("name", ["ndtr", "ndtri", "log_ndtr", "erfcx"])
def test_own_functions_within_ulps_of_mpmath(name):
    """float64: within 8 ulps of the exact value everywhere (torch's log_ndtr/erfcx formulas
    lose up to ~500 in the tails); float32: the float64 result rounded."""
    rng = np.random.default_rng(7)
    xs = _points(name, rng)
    fn = getattr(tl.special, name)
    got = fn(tl.from_numpy(xs)).numpy()
    want = np.array([_mp_ref(name, float(x)) for x in xs])
    bad = _ulps(got, want)
    assert bad.max() <= 8, (xs[bad.argmax()], got[bad.argmax()], want[bad.argmax()], bad.max())
    x32 = xs.astype(np.float32)
    got32 = fn(tl.from_numpy(x32)).numpy()
    assert got32.dtype == np.float32
    ref32 = fn(tl.from_numpy(x32.astype(np.float64))).numpy().astype(np.float32)
    np.testing.assert_array_equal(got32, ref32)


@pytest.mark.parametrize("name", ["ndtr", "ndtri", "log_ndtr", "erfcx", "entr"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_match_torch(name, dtype):
    """Result dtype, refusals (type and message) and values as torch.special's: the ordinary
    range within a relative 1e-12 (float64) or a few float32/half ulps (their own formulas are
    in double; torch computes in the input's type); special values exactly. torch's ndtr is
    (1 + erf(x / sqrt 2)) / 2, whose left tail has an absolute error of the dtype's eps (0 below
    -5.7 in float32): compared with that absolute tolerance (mpmath checks ours above)."""
    vals = [-50.0, -8.0, -2.5, -1.0, -0.25, 0.0, 0.3, 0.5, 0.9, 1.0, 2.0, 7.5, 30.0, math.inf, -math.inf, math.nan]
    if name == "ndtri":
        vals = [0.0, 1e-30, 1e-5, 0.02, 0.3, 0.5, 0.77, 0.999, 1.0, -0.5, 1.5, math.nan]
    t = torch.tensor(vals, dtype=torch.float64).to(getattr(torch, dtype))
    x = tl.tensor(vals, dtype=tl.float64).to(getattr(tl, dtype))
    try:
        want = getattr(torch.special, name)(t)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)) as info:
            getattr(tl.special, name)(x)
        assert str(info.value) == str(e)
        return
    got = getattr(tl.special, name)(x)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    g, w = got.double().numpy(), want.double().numpy()
    rtol = {"float64": 1e-12, "float32": 2e-6}.get(str(want.dtype).split(".")[-1], 1e-2)
    atol = 4 * torch.finfo(want.dtype).eps if name == "ndtr" else 1e-300
    np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    finite = np.isfinite(w)
    assert (np.isnan(g) == np.isnan(w)).all() and (g[~finite & ~np.isnan(w)] == w[~finite & ~np.isnan(w)]).all()


def test_xlog1py_matches_torch():
    """xlog1py: tensors and numbers on either side, promotion, the 0 * log1p(-1) = 0 rule and
    NaN in other, out=."""
    a = [0.0, 0.0, 2.0, -1.5, 3.0, math.nan, 0.0]
    b = [-1.0, math.nan, 0.5, -0.75, math.inf, 1.0, 2.0]
    for da, db in [("float64", "float64"), ("float32", "float32"), ("int64", "float32"), ("float32", "bool"),
                   ("float16", "float16")]:
        ta, tb = torch.tensor(a).to(getattr(torch, da)), torch.tensor(b).to(getattr(torch, db))
        xa, xb = tl.tensor(a).to(getattr(tl, da)), tl.tensor(b).to(getattr(tl, db))
        want, got = torch.special.xlog1py(ta, tb), tl.special.xlog1py(xa, xb)
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
        np.testing.assert_allclose(got.double().numpy(), want.double().numpy(), rtol=1e-6, equal_nan=True)
    for sa, sb in [(2.0, tl.tensor(b)), (tl.tensor(a), 0.5)]:
        tsa = sa if isinstance(sa, float) else torch.tensor(a)
        tsb = sb if isinstance(sb, float) else torch.tensor(b)
        np.testing.assert_allclose(tl.special.xlog1py(sa, sb).numpy(), torch.special.xlog1py(tsa, tsb).numpy(),
                                   rtol=1e-6, equal_nan=True)
    out = tl.empty(7, dtype=tl.float64)
    assert tl.special.xlog1py(tl.tensor(a, dtype=tl.float64), tl.tensor(b, dtype=tl.float64), out=out) is out
    with pytest.raises(TypeError):
        tl.special.xlog1py(1.0, 2.0)


def test_aliases_match_torch_special():
    """The aliases give torch.special's answers (the same tensorlib functions underneath)."""
    x, t = tl.tensor([0.1, 0.5, 0.9, 2.0, -1.0]), torch.tensor([0.1, 0.5, 0.9, 2.0, -1.0])
    for name in ["erf", "erfc", "exp2", "expm1", "log1p", "expit", "gammaln", "digamma", "psi"]:
        np.testing.assert_allclose(getattr(tl.special, name)(x).numpy(), getattr(torch.special, name)(t).numpy(),
                                   rtol=2e-6, err_msg=name)
    p, tp = tl.tensor([0.1, 0.5, 0.9]), torch.tensor([0.1, 0.5, 0.9])
    np.testing.assert_allclose(tl.special.erfinv(p).numpy(), torch.special.erfinv(tp).numpy(), rtol=2e-6)
    np.testing.assert_allclose(tl.special.logit(p, eps=0.2).numpy(), torch.special.logit(tp, eps=0.2).numpy(), rtol=2e-6)
    assert tl.special.round(tl.tensor([1.25, 2.5])).tolist() == torch.special.round(torch.tensor([1.25, 2.5])).tolist()
    assert tl.special.round(tl.tensor([1.26]), decimals=1).tolist() == pytest.approx([1.3])
    np.testing.assert_allclose(tl.special.xlogy(x, 2.0).numpy(), torch.special.xlogy(t, 2.0).numpy(), rtol=2e-6)
    m, tm = tl.tensor([[0.0, 1.0], [2.0, 3.0]]), torch.tensor([[0.0, 1.0], [2.0, 3.0]])
    np.testing.assert_allclose(tl.special.logsumexp(m, 1).numpy(), torch.special.logsumexp(tm, 1).numpy(), rtol=2e-6)
    np.testing.assert_allclose(tl.special.softmax(m, 0).numpy(), torch.special.softmax(tm, 0).numpy(), rtol=2e-6)
    np.testing.assert_allclose(tl.special.log_softmax(m, 1, dtype=tl.float64).numpy(),
                               torch.special.log_softmax(tm, 1, dtype=torch.float64).numpy(), rtol=1e-12)


def test_out_names_and_noncontiguous():
    """out= writes in place; names carry through like the other unary functions; strided inputs."""
    x = tl.tensor([[0.2, 0.4], [0.6, 0.8]], names=("a", "b"))
    out = tl.empty(2, 2)
    assert tl.special.ndtri(x, out=out) is out
    assert out.names == ("a", "b")
    np.testing.assert_allclose(tl.special.ndtri(x.t()).numpy(), tl.special.ndtri(x.rename(None).t().contiguous()).numpy())


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_own_functions_on_the_stand_in_device():
    """On CUDA tensors of the stand-in backend (tests/_fake_cuda_special.py; the device's
    formulas are the same hd_math.h functions) every function of its own gives the CPU's bits."""
    from _grid import run_grid
    assert run_grid("_fake_cuda_special.py") > 100


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_own_functions_on_a_real_device():
    from _grid import run_grid
    assert run_grid("_fake_cuda_special.py", real=True) > 100


def test_igamma_igammac_against_scipy_and_torch_special_cases():
    """igamma/igammac (= special.gammainc/gammaincc): within 1e-12 of SciPy for a < 150 and 5e-11
    up to a ~ 8000 (the prefactor's rounding grows with a), P and Q each accurate where it is
    small; torch's special cases and dtype rules (integers refused, half computed in float32,
    tensors only), methods and in-place forms."""
    sc = pytest.importorskip("scipy.special")
    rng = np.random.default_rng(11)
    a, x = np.exp(rng.uniform(-25, 9, 6000)), np.exp(rng.uniform(-12, 9.5, 6000))
    for f, ref in ((tl.igamma, sc.gammainc), (tl.igammac, sc.gammaincc), (tl.special.gammainc, sc.gammainc),
                   (tl.special.gammaincc, sc.gammaincc)):
        got, want = f(tl.from_numpy(a), tl.from_numpy(x)).numpy(), ref(a, x)
        m = want > 1e-290
        err = np.abs(got[m] - want[m]) / want[m]
        assert err[a[m] < 150].max() < 1e-12 and err.max() < 5e-11, (f, err.max())
    nan, inf = math.nan, math.inf
    av = [0.0, 0.0, 0.0, 1.0, 1.0, -1.0, 2.0, inf, inf, 2.0, nan, 1.0, 1e-300, 5.0, 0.5]
    xv = [0.0, 1.0, -1.0, 0.0, inf, 1.0, -1.0, 1.0, inf, inf, 1.0, nan, 1.0, 5.0, 2.0]
    for name in ("igamma", "igammac"):
        for dt in ("float64", "float32", "float16", "bfloat16"):
            ta, tx = torch.tensor(av).to(getattr(torch, dt)), torch.tensor(xv).to(getattr(torch, dt))
            xa, xx = tl.tensor(av).to(getattr(tl, dt)), tl.tensor(xv).to(getattr(tl, dt))
            want, got = getattr(torch, name)(ta, tx), getattr(tl, name)(xa, xx)
            assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
            np.testing.assert_allclose(got.double().numpy(), want.double().numpy(), rtol=1e-6 if dt[-2:] in "64 32"
                                       else 1e-2, equal_nan=True)
        y = tl.tensor([2.0, 3.0])
        assert getattr(y, name + "_")(tl.tensor([1.0, 1.0])) is y
        np.testing.assert_allclose(y.numpy(), getattr(torch, name)(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 1.0])))
        for bad in (lambda L: getattr(L, name)(L.tensor([1, 2]), L.tensor([1, 2])),
                    lambda L: getattr(L, name)(L.tensor([1.0]), 2.0),
                    lambda L: getattr(L, name)(L.tensor([1j]), L.tensor([1j]))):
            with pytest.raises(Exception) as want_e:
                bad(torch)
            with pytest.raises(type(want_e.value)) as got_e:
                bad(tl)
            if not isinstance(want_e.value, TypeError):
                assert str(got_e.value) == str(want_e.value)


@pytest.mark.parametrize("name", ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "spherical_bessel_j0"])
def test_bessel_against_mpmath_and_torch(name):
    """The Bessel functions: mpmath's values within 1e-13 relative plus 1e-16 absolute (glibc's
    are accurate near the zeros too, where SciPy's cephes loses ~1e-12); torch's special values and dtypes
    (NaN at +-inf, -inf at 0 and NaN below it for the second kind, half refused, integers
    promoted), torch's values within its accuracy (float64 ~1e-8 at x = 5, float32 ~1e-5 at 100:
    its polynomials are float-grade)."""
    rng = np.random.default_rng(13)
    x = np.concatenate([rng.uniform(-60, 60, 600), np.exp(rng.uniform(-20, 7, 300))])
    order, second = int(name[-1]), name[7] == "y"

    def ref(v):
        if name == "spherical_bessel_j0":
            return float(mp.sin(v) / v)
        if second and v <= 0:
            return math.nan
        return float((mp.bessely if second else mp.besselj)(order, v))
    f = getattr(tl.special, name)
    with mp.workdps(40):
        got, want = f(tl.from_numpy(x)).numpy(), np.array([ref(mp.mpf(float(v))) for v in x])
    ok = np.isclose(got, want, rtol=1e-13, atol=1e-16, equal_nan=True)
    assert ok.all(), (x[~ok][:3], got[~ok][:3], want[~ok][:3])
    for dt in ("float64", "float32", "float16", "int32", "bool"):
        special = [0.0, -0.0, 1e-300, -2.0, math.inf, -math.inf, math.nan, 3.0] if dt[0] == "f" else [0, 1, -2, 3, 100]
        t = torch.tensor(special, dtype=torch.float64).to(getattr(torch, dt))
        xx = tl.tensor(special, dtype=tl.float64).to(getattr(tl, dt))
        try:
            w = getattr(torch.special, name)(t)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)) as info:
                f(xx)
            assert str(info.value) == str(e)
            continue
        g = f(xx)
        assert str(g.dtype).split(".")[-1] == str(w.dtype).split(".")[-1]
        tol = 1e-7 if w.dtype == torch.float64 else 2e-5  # torch's float32 j0(100): 9e-6 off
        np.testing.assert_allclose(g.double().numpy(), w.double().numpy(), rtol=tol, atol=tol, equal_nan=True)
