"""polygamma, logcumsumexp, frexp and mvlgamma against torch 2.13: values, dtypes, promotion,
refusals (exception type and message), out= and in-place, over 0-d, empty, broadcast,
non-contiguous and negative-stride (NumPy) inputs and the special values."""
import math

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

FLOATS = ("float64", "float32", "float16", "bfloat16")
INTS = ("uint8", "int8", "int16", "int32", "int64", "bool")
SPECIAL = [0.0, -0.0, -1.0, -2.0, -2.5, -0.3, 0.5, 1.0, 2.5, 7.7, 30.0, 1e10, 1e-30, math.nan, math.inf, -math.inf]


def tt(x):
    """A tensorlib tensor as a torch one (bfloat16 through float32)."""
    if x.dtype == tl.bfloat16:
        return torch.from_numpy(x.float().numpy().copy()).to(torch.bfloat16)
    return torch.from_numpy(np.array(x.numpy(), copy=True))


def pair(values, dt):
    """The same values as a tensorlib and a torch tensor of dtype dt."""
    a = np.asarray(values, dtype=np.float64 if dt in FLOATS else None)
    if dt in INTS:
        a = np.asarray(values).astype(dt if dt != "bool" else np.bool_)
        return tl.tensor(a), torch.from_numpy(a.copy())
    t = torch.from_numpy(a.copy()).to(getattr(torch, dt))
    return tl.tensor(a).to(getattr(tl, dt)), t


def close(got, want, rtol, atol=0.0, dtype=True):
    g = tt(got)
    if dtype:
        assert str(g.dtype) == str(want.dtype), (g.dtype, want.dtype)
    assert tuple(g.shape) == tuple(want.shape)
    if g.is_complex():
        g, w = torch.view_as_real(g), torch.view_as_real(want)
    g, w = g.double(), w.double() if g.dim() != want.dim() else want.double()
    ok = torch.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True) | ((g == w) & torch.isinf(w))
    assert bool(ok.all()), (g[~ok].tolist(), w[~ok].tolist())


def raises_same(ft, fl):
    with pytest.raises(Exception) as et:
        ft()
    with pytest.raises(Exception) as el:
        fl()
    assert type(el.value) is type(et.value), (el.value, et.value)
    assert str(el.value) == str(et.value)


# --- polygamma ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7, 20])
@pytest.mark.parametrize("dt", ("float64", "float32"))
def test_polygamma_values(n, dt):
    x, t = pair(SPECIAL + [0.25, 3.0, 12.5, -7.25, 100.0], dt)
    want = torch.polygamma(n, t)
    if dt == "float32":
        # torch's float32 zeta takes its first term in float: where it is subnormal (n = 20,
        # x = 100) torch loses digits; there the float64 answer rounded is the reference
        w64 = torch.polygamma(n, t.double())
        lost = torch.isfinite(w64) & ((want.double() - w64).abs() > 1e-5 * w64.abs()) & (w64.abs() < 1e-20)
        want = torch.where(lost, w64.float(), want)
    close(tl.polygamma(n, x), want, rtol=1e-12 if dt == "float64" else 2e-6)
    close(x.polygamma(n), want, rtol=1e-12 if dt == "float64" else 2e-6)
    close(tl.special.polygamma(n, x), want, rtol=1e-12 if dt == "float64" else 2e-6)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("dt", ("float16", "bfloat16"))
def test_polygamma_half(n, dt):
    """torch's half kernels round every step (its zeta loses all digits); the mathematical answer
    (torch's float32 result) rounded once is what tensorlib gives."""
    vals = [0.25, 0.5, 1.0, 2.5, 3.0, 7.5, 0.0, math.nan, math.inf]
    x, t = pair(vals, dt)
    want = torch.polygamma(n, t.float()).to(t.dtype)
    got = tl.polygamma(n, x)
    assert got.dtype == x.dtype and torch.polygamma(n, t).dtype == want.dtype
    close(got, want, rtol=1e-2 if dt == "float16" else 2e-2)


@pytest.mark.parametrize("dt", INTS)
def test_polygamma_integers_promote(dt):
    x, t = pair([0, 1, 2, 3, 5], dt)
    for n in (0, 1, 3):
        close(tl.polygamma(n, x), torch.polygamma(n, t), rtol=2e-6)
        raises_same(lambda: t.polygamma_(n), lambda: x.polygamma_(n))


def test_polygamma_shapes_out_inplace():
    a = np.linspace(0.3, 9.0, 24).reshape(4, 6)[::-1, ::-2]  # negative strides from NumPy
    x, t = tl.tensor(a), torch.from_numpy(a.copy())
    for n in (0, 1, 3):
        close(tl.polygamma(n, x), torch.polygamma(n, t), rtol=1e-12)
        close(tl.polygamma(n, x.t()), torch.polygamma(n, t.t()), rtol=1e-12)
    for shape in ((), (0,), (2, 0, 3)):
        x, t = tl.full(shape, 2.5), torch.full(shape, 2.5, dtype=torch.float32)
        close(tl.polygamma(2, x), torch.polygamma(2, t), rtol=2e-6)
    x, t = tl.tensor([1.0, 2.5]), torch.tensor([1.0, 2.5])
    out, tout = tl.empty(2, dtype=tl.float64), torch.empty(2, dtype=torch.float64)
    assert tl.polygamma(2, x, out=out) is out
    close(out, torch.polygamma(2, t, out=tout), rtol=2e-6)
    out = tl.empty(0)
    tl.polygamma(3, tl.tensor([[1.0, 2.0]]), out=out)
    assert tuple(out.shape) == (1, 2)
    y, u = tl.tensor([1.0, 2.5, -0.5]), torch.tensor([1.0, 2.5, -0.5])
    assert y.polygamma_(3) is y
    close(y, u.polygamma_(3), rtol=2e-6)
    i, ti = tl.tensor([1, 2]), torch.tensor([1, 2])
    close(tl.polygamma(1, i, out=tl.empty(2, dtype=tl.complex64)),
          torch.polygamma(1, ti, out=torch.empty(2, dtype=torch.complex64)), rtol=2e-6)


@pytest.mark.parametrize("dt", ("float64", "float32"))
def test_polygamma_huge_n(dt):
    """torch hands n >= 2 to its kernel as a C int: n wraps to 32 bits (n = 2**31 - 1, whose n + 1
    overflows the int, is left out: what torch computes there is its compiler's choice)."""
    x, t = pair([0.5, 1.5, 3.0, -2.5], dt)
    for n in (2**31 + 1, 2**32, 2**32 + 1, 2**32 + 2, 2**40, 2**63 - 1):
        close(tl.polygamma(n, x), torch.polygamma(n, t), rtol=1e-12 if dt == "float64" else 2e-6)


def test_polygamma_refusals():
    x, t = tl.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0])
    raises_same(lambda: torch.polygamma(-1, t), lambda: tl.polygamma(-1, x))
    raises_same(lambda: t.polygamma(-2), lambda: x.polygamma(-2))
    raises_same(lambda: t.polygamma_(-2), lambda: x.polygamma_(-2))
    raises_same(lambda: torch.polygamma(2.0, t), lambda: tl.polygamma(2.0, x))
    raises_same(lambda: torch.polygamma(True, t), lambda: tl.polygamma(True, x))
    raises_same(lambda: torch.polygamma(2, 1.0), lambda: tl.polygamma(2, 1.0))
    raises_same(lambda: torch.polygamma(2**63, t), lambda: tl.polygamma(2**63, x))
    raises_same(lambda: torch.polygamma(-2**70, t), lambda: tl.polygamma(-2**70, x))
    for n in (0, 1, 2):
        for dt in ("complex64", "complex128", "float8_e4m3fn"):
            raises_same(lambda: torch.polygamma(n, t.to(getattr(torch, dt))),
                        lambda: tl.polygamma(n, x.to(getattr(tl, dt))))
    raises_same(lambda: torch.polygamma(2, torch.tensor([1, 2]), out=torch.empty(2, dtype=torch.int64)),
                lambda: tl.polygamma(2, tl.tensor([1, 2]), out=tl.empty(2, dtype=tl.int64)))


# --- logcumsumexp ------------------------------------------------------------------------

LCSE = [-math.inf, 1.0, math.inf, 2.0, math.nan, 3.0]


@pytest.mark.parametrize("dt", FLOATS + ("complex64", "complex128"))
def test_logcumsumexp_values(dt):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 5, 6)) * 30
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(a.shape)
    tdt = getattr(torch, dt)
    t = torch.from_numpy(a.copy()).to(tdt)
    x = tl.tensor(a).to(getattr(tl, dt)) if dt != "bfloat16" else tl.tensor(t.float().numpy()).to(tl.bfloat16)
    rtol = {"float64": 1e-13, "complex128": 1e-13, "float32": 1e-6, "complex64": 1e-6}.get(dt, 1e-2)
    for dim in (0, 1, 2, -1):
        close(tl.logcumsumexp(x, dim), torch.logcumsumexp(t, dim), rtol, atol=rtol)
        close(x.logcumsumexp(dim), t.logcumsumexp(dim), rtol, atol=rtol)
    close(tl.logcumsumexp(x.transpose(0, 2)[::2], 1), torch.logcumsumexp(t.transpose(0, 2)[::2], 1), rtol, atol=rtol)


@pytest.mark.parametrize("dt", ("float64", "float32", "float16", "bfloat16"))
def test_logcumsumexp_special_values(dt):
    import itertools
    vals = [-math.inf, math.inf, math.nan, 0.0, 1.0, -700.0, 700.0]
    rows = [list(p) for p in itertools.product(vals, repeat=3)] + [LCSE]
    for row in rows:
        x, t = pair(row, dt)
        close(tl.logcumsumexp(x, 0), torch.logcumsumexp(t, 0), 1e-2 if dt in ("float16", "bfloat16") else 1e-6)


def test_logcumsumexp_complex_special_values():
    inf, nan = math.inf, math.nan
    vals = [complex(-inf, 5), 1 + 1j, complex(inf, 2), 1j, complex(1, nan), complex(-inf, 0), complex(inf, -1),
            complex(nan, 0), -3 - 2j]
    import itertools
    for row in itertools.product(vals, repeat=3):
        a = np.array(row, dtype=np.complex128)
        close(tl.logcumsumexp(tl.tensor(a), 0), torch.logcumsumexp(torch.from_numpy(a.copy()), 0), 1e-12)


def test_logcumsumexp_shapes_and_out():
    a = np.linspace(-5, 5, 24).reshape(4, 6)[::-1, ::-2]
    x, t = tl.tensor(a), torch.from_numpy(a.copy())
    close(tl.logcumsumexp(x, 1), torch.logcumsumexp(t, 1), 1e-13)
    close(tl.logcumsumexp(x, 0), torch.logcumsumexp(t, 0), 1e-13)
    for shape in ((), (0,), (2, 0), (0, 3)):
        x, t = tl.full(shape, 1.5), torch.full(shape, 1.5)
        for dim in (0, -1):
            close(tl.logcumsumexp(x, dim), torch.logcumsumexp(t, dim), 1e-6)
    out, tout = tl.empty(0), torch.empty(0)
    x, t = tl.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert tl.logcumsumexp(x, 1, out=out) is out
    close(out, torch.logcumsumexp(t, 1, out=tout), 1e-6)
    out = x.clone()
    tl.logcumsumexp(x.t(), 0, out=out)
    close(out, torch.logcumsumexp(t.t(), 0), 1e-6)


def test_logcumsumexp_refusals():
    t = torch.tensor([1.0, 2.0])
    x = tl.tensor([1.0, 2.0])
    for dt in INTS + ("uint16", "complex32", "float8_e4m3fn"):
        raises_same(lambda: torch.logcumsumexp(t.to(getattr(torch, dt)), 0),
                    lambda: tl.logcumsumexp(x.to(getattr(tl, dt)), 0))
    raises_same(lambda: torch.logcumsumexp(torch.tensor([], dtype=torch.int64), 0),
                lambda: tl.logcumsumexp(tl.tensor([], dtype=tl.int64), 0))
    raises_same(lambda: torch.logcumsumexp(t, 1), lambda: tl.logcumsumexp(x, 1))
    raises_same(lambda: torch.logcumsumexp(torch.tensor(1.0), 1), lambda: tl.logcumsumexp(tl.tensor(1.0), 1))
    raises_same(lambda: torch.logcumsumexp(1.0, 0), lambda: tl.logcumsumexp(1.0, 0))
    for odt in ("float64", "int64", "complex64"):
        raises_same(lambda: torch.logcumsumexp(t, 0, out=torch.empty(2, dtype=getattr(torch, odt))),
                    lambda: tl.logcumsumexp(x, 0, out=tl.empty(2, dtype=getattr(tl, odt))))
    raises_same(lambda: torch.logcumsumexp(torch.tensor([1, 2]), 0, out=torch.empty(2)),
                lambda: tl.logcumsumexp(tl.tensor([1, 2]), 0, out=tl.empty(2)))
    raises_same(lambda: torch.logcumsumexp(t, None), lambda: tl.logcumsumexp(x, None))
    raises_same(lambda: torch.logcumsumexp(t, 0.5), lambda: tl.logcumsumexp(x, 0.5))
    with pytest.raises(TypeError):  # torch's wording of a missing argument differs from Python's
        tl.logcumsumexp(x)


def test_logcumsumexp_names():
    x = tl.tensor([[1.0, 2.0], [3.0, 4.0]], names=("a", "b"))
    r = tl.logcumsumexp(x, "b")
    assert r.names == ("a", "b")
    close(r.rename(None), torch.logcumsumexp(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1), 1e-6)


# --- frexp -------------------------------------------------------------------------------

FREXP = [0.0, -0.0, 1.0, 0.5, -3.75, 1e-40, 1e-310, 5e-324, 6e-8, 65504.0, 3e38, 1e300, -7.0, 0.1,
         math.inf, -math.inf, math.nan]


def same_bits(got, want):
    g = tt(got)
    assert str(g.dtype) == str(want.dtype) and tuple(g.shape) == tuple(want.shape)
    g, w = g.double(), want.double()
    assert bool((torch.isnan(g) == torch.isnan(w)).all())
    ok = ~torch.isnan(w)
    assert torch.equal(g[ok], w[ok]) and torch.equal(torch.signbit(g[ok]), torch.signbit(w[ok])), (g, w)


@pytest.mark.parametrize("dt", FLOATS)
def test_frexp_values(dt):
    x, t = pair(FREXP, dt)
    r, w = tl.frexp(x), torch.frexp(t)
    assert type(r).__name__ == "frexp" and r._fields == ("mantissa", "exponent")
    same_bits(r.mantissa, w.mantissa)
    same_bits(r.exponent, w.exponent)
    same_bits(x.frexp()[0], w[0])
    same_bits(x.frexp()[1], w[1])
    # mantissa * 2 ** exponent gives the input back
    back = tl.ldexp(r.mantissa.double(), r.exponent.double())
    np.testing.assert_array_equal(back.numpy(), x.double().numpy())


def test_frexp_shapes_and_out():
    a = (np.linspace(-9, 9, 24) ** 3).reshape(4, 6)[::-1, ::-2]
    x, t = tl.tensor(a), torch.from_numpy(a.copy())
    for xv, tv in ((x, t), (x.t(), t.t())):
        r, w = tl.frexp(xv), torch.frexp(tv)
        same_bits(r.mantissa, w.mantissa)
        same_bits(r.exponent, w.exponent)
    for shape in ((), (0,), (2, 0, 3)):
        r, w = tl.frexp(tl.full(shape, 6.0)), torch.frexp(torch.full(shape, 6.0))
        same_bits(r[0], w[0])
        same_bits(r[1], w[1])
    m, e = tl.empty(0), tl.empty(0, dtype=tl.int32)
    r = tl.frexp(tl.tensor([1.0, 6.0]), out=(m, e))
    assert r.mantissa is m and r.exponent is e and type(r).__name__ == "frexp_out"
    same_bits(m, torch.tensor([0.5, 0.75]))
    same_bits(e, torch.tensor([1, 3], dtype=torch.int32))
    x = tl.tensor([3.0, -20.0])
    tl.frexp(x, out=(x, tl.empty(2, dtype=tl.int32)))  # mantissa into the input itself
    same_bits(x, torch.tensor([0.75, -0.625]))


def test_frexp_refusals():
    t, x = torch.tensor([1.0, 2.0]), tl.tensor([1.0, 2.0])
    for dt in INTS + ("complex64", "complex128", "uint16", "float8_e4m3fn", "float8_e5m2"):
        raises_same(lambda: torch.frexp(t.to(getattr(torch, dt))), lambda: tl.frexp(x.to(getattr(tl, dt))))
    raises_same(lambda: torch.frexp(1.0), lambda: tl.frexp(1.0))
    raises_same(lambda: torch.frexp(t, out=torch.empty(2)), lambda: tl.frexp(x, out=tl.empty(2)))
    raises_same(lambda: torch.frexp(t, out=(torch.empty(2),)), lambda: tl.frexp(x, out=(tl.empty(2),)))
    for md, ed in (("float64", "int32"), ("float32", "int64"), ("float64", "int64"), ("float16", "float32")):
        raises_same(lambda: torch.frexp(t, out=(torch.empty(2, dtype=getattr(torch, md)),
                                                torch.empty(2, dtype=getattr(torch, ed)))),
                    lambda: tl.frexp(x, out=(tl.empty(2, dtype=getattr(tl, md)), tl.empty(2, dtype=getattr(tl, ed)))))
    raises_same(lambda: torch.frexp(t.half(), out=(torch.empty(2, dtype=torch.bfloat16), torch.empty(2, dtype=torch.int32))),
                lambda: tl.frexp(x.half(), out=(tl.empty(2, dtype=tl.bfloat16), tl.empty(2, dtype=tl.int32))))


# --- mvlgamma / special.multigammaln -----------------------------------------------------

@pytest.mark.parametrize("p", [1, 2, 3, 5])
@pytest.mark.parametrize("dt", FLOATS + ("int64", "int32", "uint8"))
def test_mvlgamma_values(p, dt):
    vals = [3.0, 4.0, 7.0, 12.0, 50.0, 2.5, 100.0] if dt in INTS else \
        [2.5, 3.0, 10.0, 0.5, 1.0, -1.0, 100.0, 1e10, math.nan, math.inf, -math.inf, 0.0]
    if dt in INTS:
        vals = [int(v) for v in vals]
    x, t = pair(vals, dt)
    rtol = {"float64": 1e-13, "float32": 1e-6}.get(dt, 1e-2 if dt in ("float16", "bfloat16") else 1e-6)
    want = torch.mvlgamma(t, p)
    close(tl.mvlgamma(x, p), want, rtol, atol=rtol)
    close(x.mvlgamma(p), t.mvlgamma(p), rtol, atol=rtol)
    close(tl.special.multigammaln(x, p), torch.special.multigammaln(t, p), rtol, atol=rtol)
    if dt in FLOATS:
        y, u = x.clone(), t.clone()
        assert y.mvlgamma_(p) is y
        close(y, u.mvlgamma_(p), rtol, atol=rtol)


def test_mvlgamma_shapes_and_out():
    a = np.linspace(3, 9, 24).reshape(4, 6)[::-1, ::-2]
    x, t = tl.tensor(a), torch.from_numpy(a.copy())
    close(tl.mvlgamma(x, 3), torch.mvlgamma(t, 3), 1e-13)
    close(tl.mvlgamma(x.t(), 2), torch.mvlgamma(t.t(), 2), 1e-13)
    for shape in ((), (0,), (2, 0, 3)):
        close(tl.mvlgamma(tl.full(shape, 4.0), 3), torch.mvlgamma(torch.full(shape, 4.0), 3), 1e-6)
    x, t = tl.tensor([2.5, 3.0]), torch.tensor([2.5, 3.0])
    out = tl.empty(0, dtype=tl.float64)
    assert tl.mvlgamma(x, 2, out=out) is out
    close(out, torch.mvlgamma(t, 2, out=torch.empty(0, dtype=torch.float64)), 1e-6)
    close(tl.special.multigammaln(x, 2, out=tl.empty(2)), torch.special.multigammaln(t, 2, out=torch.empty(2)), 1e-6)


def test_mvlgamma_refusals():
    x, t = tl.tensor([2.5, 3.0]), torch.tensor([2.5, 3.0])
    raises_same(lambda: torch.mvlgamma(t, 0), lambda: tl.mvlgamma(x, 0))
    raises_same(lambda: torch.mvlgamma(t, -2), lambda: tl.mvlgamma(x, -2))
    raises_same(lambda: t.mvlgamma_(0), lambda: x.mvlgamma_(0))
    raises_same(lambda: torch.mvlgamma(t, 2.0), lambda: tl.mvlgamma(x, 2.0))
    raises_same(lambda: torch.mvlgamma(t, True), lambda: tl.mvlgamma(x, True))
    raises_same(lambda: torch.mvlgamma(2.5, 2), lambda: tl.mvlgamma(2.5, 2))
    raises_same(lambda: torch.mvlgamma(torch.tensor([True]), 2), lambda: tl.mvlgamma(tl.tensor([True]), 2))
    raises_same(lambda: torch.mvlgamma(torch.tensor([True]), 0), lambda: tl.mvlgamma(tl.tensor([True]), 0))
    for dt in ("complex64", "complex128"):
        raises_same(lambda: torch.mvlgamma(t.to(getattr(torch, dt)), 2), lambda: tl.mvlgamma(x.to(getattr(tl, dt)), 2))
    raises_same(lambda: torch.mvlgamma(t, 2, out=torch.empty(2, dtype=torch.int64)),
                lambda: tl.mvlgamma(x, 2, out=tl.empty(2, dtype=tl.int64)))
    raises_same(lambda: torch.tensor([3, 4]).mvlgamma_(2), lambda: tl.tensor([3, 4]).mvlgamma_(2))
