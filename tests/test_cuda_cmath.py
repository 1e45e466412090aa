"""The complex element math of the device (kernels/hd_math.h, run on the CPU by
tl._C._hd_apply) against tensorlib's CPU kernels (glibc's casin, cexp, ... and libgcc's complex
product and quotient underneath): C99 Annex G's special values bit for bit on the grid
{+-0, +-tiny, +-1, +-huge, +-inf, nan, 0.5, -2} x the same (signed zeros, infinities, NaN
positions; a NaN's sign and payload are not compared), and the inverse trigonometric and
hyperbolic functions within 4 ulps per part on random arguments of every magnitude and near
the branch points +-1, +-i. Special values are compared with the CPU (the mathematical answer),
never with torch, whose results there depend on its SIMD path."""
import os
import re

import numpy as np
import pytest

import tensorlib as tl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _complex_ops(kind):
    text = open(os.path.join(ROOT, "csrc", "backend", "backend.h")).read()
    body = re.search(r"#define TL_BACKEND_%s_LIST\(X\)(.*?)\n(?!\s)" % kind, text, re.S).group(1)
    return sorted(m[0] for m in re.findall(r"X\((\w+), (\w+), \d, \d, \d, \d, \d, (\d)\)", body) if m[2] == "1")


UNARY = [op for op in _complex_ops("UNARY") if op != "COPY"]
BINARY = [op for op in _complex_ops("BINARY") if op in ("MUL", "DIV", "POW")]
INVERSE = ["ASIN", "ACOS", "ATAN", "ASINH", "ACOSH", "ATANH"]
DTYPES = ["complex64", "complex128"]
CALLS = {"SILU": lambda a: tl.silu(a), "CONJ_PHYSICAL": lambda a: tl.conj_physical(a)}


def _grid(dt):
    tiny, huge = (1e-30, 1e30) if dt == "complex64" else (1e-300, 1e300)
    return [0.0, -0.0, tiny, -tiny, 1.0, -1.0, huge, -huge, np.inf, -np.inf, np.nan, 0.5, -2.0]


def _tensor(re, im, dt):
    f = np.float32 if dt == "complex64" else np.float64
    z = np.empty(len(re), dtype=dt)
    z.real, z.imag = np.asarray(re, f), np.asarray(im, f)
    return tl.tensor(z)


def _parts(t):
    """(re, im) of a complex result or (values,) of a real/bool one, as float64 arrays."""
    if t.is_complex():
        return np.array(t.real.tolist(), np.float64), np.array(t.imag.tolist(), np.float64)
    return (np.array(t.to(tl.float64).tolist(), np.float64),)


def _spacing(w, dt):
    f = np.float32 if dt == "complex64" else np.float64
    with np.errstate(over="ignore", invalid="ignore"):  # (float32 beyond its range: inf)
        return np.spacing(np.abs(w).astype(f)).astype(np.float64)


def _compare(got, want, dt, ulps, where, underflow=False, signs=True, of_abs=False, loose=None):
    """Zeros (with sign), infinities and NaN positions exact; other values within ulps.
    underflow: a zero may be the least subnormal (results of about half of it: glibc flushes
    some to 0 where hd_math.h rounds them up, and rsqrt's reciprocal carries that part's sign)."""
    bad = []
    scale = np.max(np.where(np.isfinite(_parts(want)), np.abs(_parts(want)), 0), axis=0)
    for g, w in zip(_parts(got), _parts(want)):
        special = np.isnan(g) | np.isnan(w) | np.isinf(g) | np.isinf(w) | (g == 0) | (w == 0)
        same = (np.isnan(g) & np.isnan(w)) | ((g == w) & (np.signbit(g) == np.signbit(w)))
        if not signs:  # zeros and infinities of either sign
            same |= ((g == 0) & (w == 0)) | (np.isinf(g) & np.isinf(w))
        if underflow:
            least = float(np.nextafter(np.float32(0), np.float32(1)) if dt == "complex64" else 5e-324)
            same |= (np.abs(g) <= least) & (np.abs(w) <= least) & ((g == 0) | (w == 0))
        with np.errstate(invalid="ignore"):
            far = ~special & (np.abs(g - w) > ulps * _spacing(scale if of_abs else w, dt))
        if loose is not None:  # finite values not compared there (ill-conditioned)
            far &= ~loose
        for k in np.nonzero((special & ~same) | far)[0]:
            bad.append(f"{where(k)}: got {g[k]!r}, want {w[k]!r}")
    assert not bad, "\n".join(bad[:20])


def _call(op, *args):
    f = CALLS.get(op)
    return f(*args) if f else getattr(tl, op.lower())(*args)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("op", UNARY)
def test_special_values_unary(op, dt):
    v = _grid(dt)
    re, im = np.repeat(v, len(v)), np.tile(v, len(v))
    x = _tensor(re, im, dt)
    got, want = tl._C._hd_apply(op, x), _call(op, x)
    assert got.dtype == want.dtype
    _compare(got, want, dt, 4, lambda k: f"{op.lower()}({re[k]!r}{im[k]:+}j)")


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("op", UNARY)
def test_extreme_values_unary(op, dt):
    """Subnormals, the largest finite value, 1 +- an ulp: the scalings of hypot, log and x/|z|^2
    (a result of about half the least subnormal may round to it where glibc flushes to 0)."""
    f = np.float32 if dt == "complex64" else np.float64
    fi = np.finfo(f)
    least = float(np.nextafter(f(0), f(1)))
    v = [0.0, least, -1000 * least, float(fi.tiny), float(fi.max), -float(fi.max), 1 + float(fi.eps),
         1 - float(fi.epsneg), float(fi.max) ** 0.5 * 4, 1.5]
    re, im = np.repeat(v, len(v)), np.tile(v, len(v))
    x = _tensor(re, im, dt)
    got, want = tl._C._hd_apply(op, x), _call(op, x)
    _compare(got, want, dt, 4, lambda k: f"{op.lower()}({re[k]!r}{im[k]:+}j)", underflow=True)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("op", BINARY)
def test_special_values_binary(op, dt):
    v = _grid(dt)
    z = [(a, b) for a in v for b in v]
    zr, zi = [a for a, _ in z], [b for _, b in z]
    n = len(z)
    xr, xi = np.repeat(zr, n), np.repeat(zi, n)
    yr, yi = np.tile(zr, n), np.tile(zi, n)
    x, y = _tensor(xr, xi, dt), _tensor(yr, yi, dt)
    got, want = tl._C._hd_apply(op, x, y), _call(op, x, y)
    # pow: exp(y log x) as glibc's cpow, whose rounding of y log x (an ulp of glibc's clogf
    # arg for complex64, where hd_math.h's clog is the double one rounded) is amplified by
    # |y log x| and may move a tiny part across zero: relative to |result|, the signs of zeros
    # and infinities not compared (exp, log and mul are, bit for bit, above)
    pw = op == "POW"
    ulps = 4 if not pw else (1e3 if dt == "complex64" else 64)
    # (a huge finite exponent makes the phase y arg x meaningless: only its non-finite results)
    ill = pw & (np.hypot(yr, yi) > 1e6) & np.isfinite(yr) & np.isfinite(yi)
    _compare(got, want, dt, ulps, lambda k: f"{op.lower()}({xr[k]!r}{xi[k]:+}j, {yr[k]!r}{yi[k]:+}j)",
             signs=not pw, of_abs=pw, loose=ill)


def _random_arguments(dt, n, seed):
    rng = np.random.default_rng(seed)
    lo, hi = (-37, 37) if dt == "complex64" else (-300, 300)
    mag = 10.0 ** rng.uniform(lo, hi, (2, n)) * rng.choice([-1, 1], (2, n))
    k = n // 2
    d = 10.0 ** rng.uniform(lo / 2, 0, (2, k)) * rng.choice([-1, 1], (2, k))  # near +-1, +-i
    pick = rng.integers(0, 4, k)
    bx, by = np.choose(pick, [1, -1, 0, 0]), np.choose(pick, [0, 0, 1, -1])
    re = np.concatenate([mag[0], bx + d[0], rng.uniform(-2, 2, k)])
    im = np.concatenate([mag[1], by + d[1], rng.uniform(-2, 2, k)])
    return re, im


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("op", INVERSE)
def test_inverse_functions_within_4_ulps(op, dt):
    """Measured: at most 4 ulps per part from glibc over 225,000 such points per op and dtype."""
    re, im = _random_arguments(dt, 20000, 11)
    x = _tensor(re, im, dt)
    got, want = tl._C._hd_apply(op, x), _call(op, x)
    _compare(got, want, dt, 4, lambda k: f"{op.lower()}({re[k]!r}{im[k]:+}j)", underflow=True)
