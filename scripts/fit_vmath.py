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
