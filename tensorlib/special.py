"""tensorlib.special: torch.special's functions.

Most are torch.special's aliases of tensorlib functions (``expit`` is ``sigmoid``, ``gammaln``
``lgamma``, ``psi`` ``digamma``, ...). The ones of its own run through the elementwise
registry (``csrc/ops/ew_ops.h``), their formulas written once in ``csrc/kernels/hd_math.h`` for
the CPU and the CUDA kernels: ``ndtr``, ``ndtri``, ``log_ndtr``, ``erfcx``, ``entr`` and
``xlog1py``. ``erfcx``, ``ndtri`` and ``log_ndtr`` compute in double precision for every
dtype and are accurate to a few ulps over the whole range (torch's and SciPy's ``erfcx`` of a
large negative argument and ``log_ndtr`` of a large positive one lose up to a few hundred
ulps to the rounding of x^2; tensorlib splits it exactly).

The Bessel functions ``bessel_j0``/``j1``/``y0``/``y1`` are the C library's (glibc's on the
CPU, CUDA's on the device) in double; ``gammainc``/``gammaincc`` are ``igamma``/``igammac``.
The modified Bessel functions (``i0``, ``i0e``, ``i1``, ``i1e``, ``modified_bessel_*``,
``scaled_modified_bessel_k*``) are hd_math.h's own, in double. ``polygamma`` is an element-wise op
with the parameter n (torch's digamma, trigamma and zeta formulas); ``multigammaln`` is
``tensorlib.mvlgamma``, torch's composite; ``sinc`` is tensorlib.sinc. The orthogonal polynomials
(``chebyshev_polynomial_t``/``u``/``v``/``w``, their ``shifted_`` forms, ``hermite_polynomial_h``/
``he``, ``laguerre_polynomial_l``, ``legendre_polynomial_p``) are binary element-wise ops of
(input, n) with torch's algorithms; ``airy_ai`` is hd_math.h's own, in double.

    >>> import tensorlib as tl
    >>> tl.special.ndtr(tl.tensor([0.0]))
    tensor([0.5000])
"""
from . import _C, _ops

__all__ = ["zeta", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "digamma", "entr", "erf", "erfc", "erfcx",
           "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln", "log1p",
           "log_ndtr", "log_softmax", "logit", "logsumexp", "ndtr", "ndtri", "psi", "round", "softmax",
           "spherical_bessel_j0", "xlog1py", "xlogy", "polygamma",
           "multigammaln"]
__all__ += ["airy_ai", "sinc", "i0", "i0e", "i1", "i1e", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1"]


def _own(name, input, out):
    return _ops._unary(name, input, out)


def ndtr(input, *, out=None):
    """The standard normal cumulative distribution function of each element."""
    return _own("ndtr", input, out)


def ndtri(input, *, out=None):
    """The standard normal quantile (the inverse of ndtr) of each element."""
    return _own("ndtri", input, out)


def log_ndtr(input, *, out=None):
    """The logarithm of the standard normal cumulative distribution function of each element."""
    return _own("log_ndtr", input, out)


def erfcx(input, *, out=None):
    """The scaled complementary error function exp(x^2) * erfc(x) of each element."""
    return _own("erfcx", input, out)


def entr(input, *, out=None):
    """The elementwise entropy -x * ln(x) (0 at 0, -inf below 0)."""
    return _own("entr", input, out)


def xlog1py(input, other, *, out=None):
    """input * log1p(other), 0 where input is 0 (unless other is NaN)."""
    if not isinstance(input, _C.TensorBase) and not isinstance(other, _C.TensorBase):
        raise TypeError("xlog1py(): expected at least one of input and other to be a Tensor")
    return _C._ew_binary(_ops._IDX["b_xlog1py"], input, other, out, False, False, 0, 0)


def bessel_j0(input, *, out=None):
    """The Bessel function of the first kind of order 0 of each element."""
    return _own("bessel_j0", input, out)


def bessel_j1(input, *, out=None):
    """The Bessel function of the first kind of order 1 of each element."""
    return _own("bessel_j1", input, out)


def bessel_y0(input, *, out=None):
    """The Bessel function of the second kind of order 0 of each element."""
    return _own("bessel_y0", input, out)


def bessel_y1(input, *, out=None):
    """The Bessel function of the second kind of order 1 of each element."""
    return _own("bessel_y1", input, out)


def spherical_bessel_j0(input, *, out=None):
    """The spherical Bessel function of the first kind of order 0, sin(x) / x, of each element."""
    return _own("spherical_bessel_j0", input, out)


def gammainc(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other) (tensorlib.igamma)."""
    return _C.igamma(input, other, out=out)


def gammaincc(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other) (tensorlib.igammac)."""
    return _C.igammac(input, other, out=out)


def zeta(input, other, *, out=None):
    """The Hurwitz zeta function sum_k (k + other) ** -input, elementwise, broadcasting the two."""
    if not isinstance(input, _C.TensorBase) and not isinstance(other, _C.TensorBase):
        raise TypeError("zeta(): expected at least one of input and other to be a Tensor")
    return _C._ew_binary(_ops._IDX["b_zeta"], input, other, out, False, False, 0, 0)


def erf(input, *, out=None):
    """The error function of each element (tensorlib.erf)."""
    return _C.erf(input, out=out)


def erfc(input, *, out=None):
    """The complementary error function of each element (tensorlib.erfc)."""
    return _C.erfc(input, out=out)


def erfinv(input, *, out=None):
    """The inverse error function of each element (tensorlib.erfinv)."""
    return _C.erfinv(input, out=out)


def exp2(input, *, out=None):
    """2 to the power of each element (tensorlib.exp2)."""
    return _C.exp2(input, out=out)


def expm1(input, *, out=None):
    """exp(x) - 1 of each element (tensorlib.expm1)."""
    return _C.expm1(input, out=out)


def log1p(input, *, out=None):
    """log(1 + x) of each element (tensorlib.log1p)."""
    return _C.log1p(input, out=out)


def expit(input, *, out=None):
    """The logistic sigmoid of each element (tensorlib.sigmoid)."""
    return _C.sigmoid(input, out=out)


def gammaln(input, *, out=None):
    """The log of the absolute value of the gamma function (tensorlib.lgamma)."""
    return _C.lgamma(input, out=out)


def digamma(input, *, out=None):
    """The logarithmic derivative of the gamma function (tensorlib.digamma)."""
    return _C.digamma(input, out=out)


def psi(input, *, out=None):
    """The logarithmic derivative of the gamma function (tensorlib.digamma)."""
    return _C.digamma(input, out=out)


def xlogy(input, other, *, out=None):
    """input * log(other), 0 where input is 0 (tensorlib.xlogy)."""
    return _C.xlogy(input, other, out=out)


def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given (tensorlib.logit)."""
    return _ops.logit(input, eps, out=out)


def round(input, *, decimals=0, out=None):  # noqa: A001
    """Rounds half to even to ``decimals`` decimal places (tensorlib.round)."""
    return _ops.round(input, decimals=decimals, out=out)


def logsumexp(input, dim, keepdim=False, *, out=None):
    """log(sum(exp(input))) over ``dim``, computed stably (tensorlib.logsumexp)."""
    from . import logsumexp as _logsumexp
    return _logsumexp(input, dim, keepdim, out=out)


def softmax(input, dim, *, dtype=None):
    """exp(x) / sum(exp(x)) along ``dim`` (tensorlib.softmax)."""
    from . import softmax as _softmax
    return _softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    """log(softmax(x)) along ``dim``, computed stably (tensorlib.log_softmax)."""
    from . import log_softmax as _log_softmax
    return _log_softmax(input, dim, dtype=dtype)


def airy_ai(input, *, out=None):
    """The Airy function Ai of each element (hd_math.h, in double)."""
    return _own("airy_ai", input, out)


def sinc(input, *, out=None):
    """The normalized sinc function sin(pi x) / (pi x) of each element, 1 at 0 (tensorlib.sinc)."""
    return _C.sinc(input, out=out)


# the orthogonal polynomials of degree n (hd_math.h tl_hd_cheb_*, ...): binary element-wise ops of
# (input, n), n truncated to an integer

def _poly(name, input, n, out):
    if not isinstance(input, _C.TensorBase) and not isinstance(n, _C.TensorBase):
        raise TypeError(f"special_{name}() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(n).__name__}), but expected one of:\n"
                        " * (Tensor x, Tensor n, *, Tensor out = None)\n * (Number x, Tensor n, *, Tensor out = None)\n"
                        " * (Tensor x, Number n, *, Tensor out = None)\n")
    return _C._ew_binary(_ops._IDX["b_" + name], input, n, out, False, False, 0, 0)


def _make_poly(name, what):
    def f(input, n, *, out=None):
        return _poly(name, input, n, out)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{what} of degree n (truncated to an integer; n < 0 gives 0) at each element of input."
    return f


_POLYS = {"chebyshev_polynomial_t": "The Chebyshev polynomial of the first kind T_n",
          "chebyshev_polynomial_u": "The Chebyshev polynomial of the second kind U_n",
          "chebyshev_polynomial_v": "The Chebyshev polynomial of the third kind V_n",
          "chebyshev_polynomial_w": "The Chebyshev polynomial of the fourth kind W_n",
          "shifted_chebyshev_polynomial_t": "The shifted Chebyshev polynomial of the first kind T*_n(x) = T_n(2x - 1)",
          "shifted_chebyshev_polynomial_u": "The shifted Chebyshev polynomial of the second kind U*_n(x) = U_n(2x - 1)",
          "shifted_chebyshev_polynomial_v": "The shifted Chebyshev polynomial of the third kind V*_n(x) = V_n(2x - 1)",
          "shifted_chebyshev_polynomial_w": "The shifted Chebyshev polynomial of the fourth kind W*_n(x) = W_n(2x - 1)",
          "hermite_polynomial_h": "The physicists' Hermite polynomial H_n",
          "hermite_polynomial_he": "The probabilists' Hermite polynomial He_n",
          "laguerre_polynomial_l": "The Laguerre polynomial L_n",
          "legendre_polynomial_p": "The Legendre polynomial P_n"}
globals().update({_n: _make_poly(_n, _w) for _n, _w in _POLYS.items()})
__all__ += list(_POLYS)


# the modified Bessel functions (hd_math.h tl_hd_bessel_*)
def i0(input, *, out=None):
    """The modified Bessel function of the first kind of order 0 of each element (tensorlib.i0)."""
    return _C.i0(input, out=out)


def i0e(input, *, out=None):
    """The exponentially scaled modified Bessel function of the first kind of order 0, I0(x) exp(-|x|)."""
    return _own("i0e", input, out)


def i1(input, *, out=None):
    """The modified Bessel function of the first kind of order 1 of each element."""
    return _own("i1", input, out)


def i1e(input, *, out=None):
    """The exponentially scaled modified Bessel function of the first kind of order 1, I1(x) exp(-|x|)."""
    return _own("i1e", input, out)


def modified_bessel_i0(input, *, out=None):
    """The modified Bessel function of the first kind of order 0 of each element."""
    return _own("modified_bessel_i0", input, out)


def modified_bessel_i1(input, *, out=None):
    """The modified Bessel function of the first kind of order 1 of each element."""
    return _own("modified_bessel_i1", input, out)


def modified_bessel_k0(input, *, out=None):
    """The modified Bessel function of the second kind of order 0 of each element."""
    return _own("modified_bessel_k0", input, out)


def modified_bessel_k1(input, *, out=None):
    """The modified Bessel function of the second kind of order 1 of each element."""
    return _own("modified_bessel_k1", input, out)


def scaled_modified_bessel_k0(input, *, out=None):
    """The exponentially scaled modified Bessel function of the second kind of order 0, K0(x) exp(x)."""
    return _own("scaled_modified_bessel_k0", input, out)


def scaled_modified_bessel_k1(input, *, out=None):
    """The exponentially scaled modified Bessel function of the second kind of order 1, K1(x) exp(x)."""
    return _own("scaled_modified_bessel_k1", input, out)


def polygamma(n, input, *, out=None):
    """The n-th derivative of the digamma function of each element (tensorlib.polygamma)."""
    return _ops.polygamma(n, input, out=out)


def multigammaln(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p of each element (tensorlib.mvlgamma)."""
    return _ops.mvlgamma(input, p, out=out)
