"""tensorlib.special's functions of its own (ndtr, ndtri, log_ndtr, erfcx, entr, xlog1py, the Bessel
functions, igamma/igammac) on
"cuda" tensors of the host-memory stand-in backend (tests/_fake_cuda.py): the strided element-wise
entry, whose stand-in is the core's host runner of the kernels/hd_math.h formulas the CUDA kernel
runs. Each result must equal tensorlib's CPU result bit for bit (dtype, shape, names), a refusal
the CPU's. Run as a script in a subprocess; prints failures, then `failures N` and `ok N`. With
TL_EW_REAL=1 the grid runs on a real CUDA device (within a relative 1e-13 there: the device's
erfc/exp/log differ from glibc's in the last bits)."""
import math

import numpy as np

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report, outcome  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

FAIL = []
COUNT = [0]
VALS = [-1e3, -37.0, -26.65, -8.0, -1.0, -0.3, -0.0, 0.0, 1e-300, 0.2, 0.5, 0.97, 1.0, 3.0, 25.9, 40.0,
        math.inf, -math.inf, math.nan]


def same(a, b):
    if a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape) or a.names != b.names:
        return False
    x, y = a.double().numpy(), b.cpu().double().numpy()
    if REAL:
        return bool(np.allclose(x, y, rtol=1e-13, atol=0, equal_nan=True))
    # bit for bit, but for the sign of a NaN (x86 keeps the first NaN operand of a product, and which
    # operand comes first is the compiler's choice)
    x, y = np.where(np.isnan(x), np.nan, x), np.where(np.isnan(y), np.nan, y)
    return x.tobytes() == y.tobytes()


def check(what, f, *args):
    COUNT[0] += 1
    rc, ec = outcome(lambda: f(*args))
    rg, eg = outcome(lambda: f(*[a.cuda() if isinstance(a, tl.Tensor) else a for a in args]))
    if ec is not None or eg is not None:
        if type(ec) is not type(eg) or str(ec) != str(eg):
            FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
        return
    if not rg.is_cuda or not same(rc, rg):
        FAIL.append(f"{what}: device {rg.cpu()} vs CPU {rc}")


def main():
    base = tl.tensor(VALS, dtype=tl.float64)
    for dt in ("float64", "float32", "float16", "bfloat16", "int32", "bool", "complex64"):
        x = base.nan_to_num(0.0).clamp(-1e3, 1e3).to(getattr(tl, dt)) if dt in ("int32", "bool") else base.to(getattr(tl, dt))
        for name in ("ndtr", "ndtri", "log_ndtr", "erfcx", "entr", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
                     "spherical_bessel_j0", "i0", "i0e", "i1", "i1e", "modified_bessel_i0", "modified_bessel_i1",
                     "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
                     "scaled_modified_bessel_k1", "sinc", "airy_ai"):
            if name == "sinc" and dt == "complex64":  # hd_math's complex sine vs glibc's: ulps (test_cuda_api)
                continue
            f = getattr(tl.special, name)
            check(f"{name} {dt}", f, x)
            check(f"{name} {dt} strided", f, x.reshape(-1, 1).expand(-1, 2).t()[:, ::3])
            check(f"{name} {dt} named", f, x.rename("n"))
        check(f"xlog1py {dt}", tl.special.xlog1py, x, x.flip(0))
        check(f"xlog1py {dt} number", tl.special.xlog1py, x, 0.5)
        pos = x if dt in ("int32", "bool") else x.abs()
        check(f"igamma {dt}", tl.igamma, pos, pos.flip(0))
        check(f"igammac {dt}", tl.igammac, pos, pos.flip(0))
        check(f"logaddexp2 {dt}", tl.logaddexp2, x, x.flip(0))
        check(f"zeta {dt}", tl.special.zeta, pos + 1, pos.flip(0))
        for name in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                     "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
                     "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                     "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"):
            if dt != "complex64":  # (clamp refuses complex; the polynomials refuse it too)
                check(f"{name} {dt}", getattr(tl.special, name), x / 40, pos.flip(0).clamp(max=60))
        check(f"zeta {dt} neg q", tl.special.zeta, pos + 1, pos.flip(0) * -1)
        if dt != "complex64":
            for n in (0, 1, 2, 5):
                check(f"polygamma {n} {dt}", tl.polygamma, n, x)
        check(f"frexp mantissa {dt}", lambda t: tl.frexp(t).mantissa, x)
        check(f"frexp exponent {dt}", lambda t: tl.frexp(t).exponent, x)
        check(f"frexp strided {dt}", lambda t: tl.frexp(t).exponent, x.reshape(-1, 1).expand(-1, 2).t()[:, ::3])
    p = tl.tensor([0.0, 1e-300, 1e-5, 0.3, 0.5, 0.9, 1.0, -0.1, 1.1, math.nan], dtype=tl.float64)
    check("ndtri p", tl.special.ndtri, p)


if __name__ == "__main__":
    main()
    report(FAIL, COUNT[0])
