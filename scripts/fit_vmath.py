"""Fits the polynomial coefficients used by csrc/kernels/vmath.c (near-minimax Chebyshev
fits with mpmath.chebyfit at 50 digits) and prints them with their max relative error.

    python scripts/fit_vmath.py

exp/expm1 share q(r) = (e^r - 1 - r) / r^2 on |r| <= ln2/2 (+ margin): e^r = 1 + r + r^2 q(r).
The float32 kernels compute in double with the shorter fits ("f32" rows), the float64
kernels with the longer ones. log uses fdlibm's published Lg1..Lg7 (checked here), sin/cos
fdlibm's S1..S6 / C1..C6 (checked here against the Taylor-ish truth on |r| <= pi/4).
"""
import mpmath as mp

mp.mp.dps = 50
R = mp.log(2) / 2 * mp.mpf("1.01")


def q_exp(r):
    if abs(r) < mp.mpf("1e-20"):
        return mp.mpf(1) / 2 + r / 6
    return (mp.exp(r) - 1 - r) / r ** 2


def fit(name, f, a, b, deg):
    coeffs, err = mp.chebyfit(f, [a, b], deg + 1, error=True)
    coeffs = list(reversed(coeffs))  # ascending powers
    # error relative to the whole function value is what matters; report absolute on q
    print("/* %s: degree %d on [%s, %s], max abs error of the fit %.3g */" % (name, deg, mp.nstr(a, 6), mp.nstr(b, 6), float(err)))
    print("{" + ", ".join("%.17g" % float(c) for c in coeffs) + "}")


if __name__ == "__main__":
    fit("exp q f64", q_exp, -R, R, 10)
    fit("exp q f32", q_exp, -R, R, 5)
    # sin(r)/r - 1 in z = r^2 and (cos(r) - 1 + z/2)/z^2 in z, |r| <= pi/4 (+ margin)
    Z = (mp.pi / 4 * mp.mpf("1.01")) ** 2
    fit("sin s(z) f32: sin r = r + r*z*s(z)", lambda z: (mp.sin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z > 1e-30 else -mp.mpf(1) / 6, mp.mpf(0), Z, 3)
    fit("cos c(z) f32: cos r = 1 - z/2 + z*z*c(z)", lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z ** 2 if z > 1e-30 else mp.mpf(1) / 24, mp.mpf(0), Z, 3)
    # log: 2 atanh(s) = 2s + s*R(z), z = s^2, s = f/(2+f), |s| <= 0.1716: R(z)/z fit
    S2 = mp.mpf("0.1716") ** 2 * mp.mpf("1.01")
    fit("log R(z)/z f32", lambda z: (2 * mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 2) / z if z > 1e-30 else mp.mpf(2) / 3, mp.mpf(0), S2, 3)


# ---- native float32 kernels (vf_* in vmath.c): coefficients rounded to float32 ----
def f32(v):
    import struct
    return struct.unpack("f", struct.pack("f", float(v)))[0]


def fit32(name, f, a, b, deg, truth, approx, npts=2000):
    """Chebyshev fit of f on [a, b], coefficients rounded to float32; reports the max
    relative error of approx(coeffs, t) against truth(t) (the whole function) on a grid."""
    coeffs = [f32(c) for c in reversed(mp.chebyfit(f, [a, b], deg + 1))]
    worst = 0
    for i in range(npts + 1):
        t = a + (b - a) * i / npts
        if t == 0:
            continue
        tv = truth(t)
        worst = max(worst, abs((approx(coeffs, mp.mpf(t)) - tv) / tv))
    print("/* %s: degree %d on [%s, %s], max rel error %.3g (2^%.1f) */" % (
        name, deg, mp.nstr(a, 6), mp.nstr(b, 6), float(worst), float(mp.log(worst, 2))))
    print("{" + ", ".join("%.9gf" % c for c in coeffs) + "}")
    return coeffs


def horner(c, t):
    s = mp.mpf(0)
    for v in reversed(c):
        s = s * t + v
    return s


def fits_f32():
    # exp: e^r = 1 + r + r^2 q(r), |r| <= ln2/2 (+1%)
    R = mp.log(2) / 2 * mp.mpf("1.01")
    for deg in (4, 5):
        fit32("f32 exp q(r)", q_exp, -R, R, deg, mp.exp, lambda c, r: 1 + r + r * r * horner(c, r))
    # log: log1p(f) = f - f^2/2 + f^3 P(f), f = m - 1, m in [sqrt(2)/2, sqrt(2)) (+ margin)
    a, b = mp.sqrt(2) / 2 - 1 - mp.mpf("1e-3"), mp.sqrt(2) - 1 + mp.mpf("1e-3")

    def p_log(f):
        if abs(f) < mp.mpf("1e-12"):
            return mp.mpf(1) / 3 - f / 4
        return (mp.log1p(f) - f + f * f / 2) / f ** 3
    for deg in (8, 9):
        fit32("f32 log P(f)", p_log, a, b, deg, mp.log1p, lambda c, f: f - f * f / 2 + f ** 3 * horner(c, f))
    # sin r = r + r z S(z), cos r = 1 - z/2 + z^2 C(z), z = r^2, |r| <= pi/4 (+1%)
    Z = (mp.pi / 4 * mp.mpf("1.01")) ** 2
    s_fn = lambda z: (mp.sin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z > 1e-30 else -mp.mpf(1) / 6  # noqa: E731
    c_fn = lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z ** 2 if z > 1e-30 else mp.mpf(1) / 24  # noqa: E731
    for deg in (2, 3):
        fit32("f32 sin S(z)", s_fn, mp.mpf(0), Z, deg, lambda z: mp.sin(mp.sqrt(z)),
              lambda c, z: mp.sqrt(z) * (1 + z * horner(c, z)))
        fit32("f32 cos C(z)", c_fn, mp.mpf(0), Z, deg, lambda z: mp.cos(mp.sqrt(z)),
              lambda c, z: 1 - z / 2 + z * z * horner(c, z))


def fits_f32_lean():
    """The lean float32 kernels (vf_tanh, vf_expm1_fast, vf_log_lean)."""
    # tanh x = x + x z T(z), z = x^2, |x| < 0.875 (+1%)
    Z = mp.mpf("0.875") ** 2 * mp.mpf("1.01")
    fit32("f32 tanh T(z)", lambda z: (mp.tanh(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z > 1e-30 else -mp.mpf(1) / 3,
          mp.mpf(0), Z, 7, lambda z: mp.tanh(mp.sqrt(z)), lambda c, z: mp.sqrt(z) * (1 + z * horner(c, z)), npts=400)
    # expm1 / tanh's e^y: e^r = 1 + r + r^2 q(r), q of degree 4
    R = mp.log(2) / 2 * mp.mpf("1.01")
    fit32("f32 exp q(r), degree 4", q_exp, -R, R, 4, mp.exp, lambda c, r: 1 + r + r * r * horner(c, r), npts=400)
    # lean log: log1p(f) = f - f^2/2 + f^3 P(f), P of degree 7
    a, b = mp.sqrt(2) / 2 - 1 - mp.mpf("1e-3"), mp.sqrt(2) - 1 + mp.mpf("1e-3")
    fit32("f32 log P(f), degree 7", lambda f: (mp.log1p(f) - f + f * f / 2) / f ** 3 if abs(f) > 1e-12 else mp.mpf(1) / 3 - f / 4,
          a, b, 7, mp.log1p, lambda c, f: f - f * f / 2 + f ** 3 * horner(c, f), npts=400)


if __name__ == "__main__":
    fits_f32()
    fits_f32_lean()
    # erf (float32 kernel, in double): x P(x^2) on |x| <= 1, 1 - e^(-x^2) R(x) on 1 <= x <= 4
    fit("erf P(z) f32: erf x = x P(x^2)", lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) if z > 1e-30 else 2 / mp.sqrt(mp.pi),
        mp.mpf(0), mp.mpf(1), 7)
    fit("erf R(x) f32: erf x = 1 - exp(-x^2) R(x)", lambda x: mp.erfc(x) * mp.exp(x * x), mp.mpf(1), mp.mpf(4), 13)
