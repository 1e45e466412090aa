"""Elementwise op namespace glue: module functions and Tensor methods implemented in
Python on top of the C entries of csrc/python/arith.c (ops with options such as
round(decimals=), clamp, where, lerp, isclose, nan_to_num), plus promotion helpers.

The plain unary and binary ops (tensorlib.add, Tensor.add, Tensor.add_, ...) and the
Python operators are C functions; this module only re-exports them.
"""
import builtins as _builtins
import numbers as _numbers

from . import _C
from ._tensor import Tensor

_IDX = _C._ew_op_indices()

BINARY = ("add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow atan2 arctan2 "
          "hypot maximum minimum fmax fmin copysign xlogy logaddexp eq ne lt le gt ge not_equal less less_equal "
          "greater greater_equal logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor "
          "bitwise_left_shift bitwise_right_shift gcd lcm igamma igammac logaddexp2").split()
UNARY = ("abs absolute neg negative sign sgn ceil floor trunc fix frac sqrt rsqrt exp exp2 expm1 log log2 log10 "
         "log1p sin cos tan asin arcsin acos arccos atan arctan sinh cosh tanh asinh arcsinh acosh arccosh atanh "
         "arctanh sigmoid relu erf erfc erfinv digamma lgamma reciprocal deg2rad rad2deg angle conj_physical isnan "
         "isinf isposinf isneginf isfinite isreal signbit logical_not bitwise_not i0 sinc").split()

__all__ = list(BINARY + UNARY) + [
    "round", "clamp", "clip", "clamp_min", "clamp_max", "where", "masked_fill", "lerp", "isclose", "allclose",
    "equal", "nan_to_num", "logit", "positive", "conj", "real", "imag", "square", "gelu", "silu", "mish",
    "result_type", "promote_types", "can_cast", "float_power", "heaviside", "nextafter", "ldexp", "addcmul",
    "addcdiv", "rsub", "polygamma", "frexp", "mvlgamma",
]

globals().update({n: getattr(_C, n) for n in BINARY + UNARY})
promote_types = _C.promote_types
can_cast = _C.can_cast


def _unary(name, input, out=None, inplace=False, flag=False, p0=0, p1=0, p2=0):
    return _C._ew_unary(_IDX["u_" + name], input, out, inplace, flag, p0, p1, p2)


def rsub(input, other, *, alpha=1):
    """other - alpha * input (torch.rsub): sub with the operands swapped, so promotion, the
    bool and integral-alpha checks and name unification are sub's."""
    if not isinstance(input, Tensor):
        raise TypeError(f"rsub(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not isinstance(other, (Tensor, _numbers.Number)):
        raise TypeError(f"rsub(): argument 'other' (position 2) must be Tensor or Number, not {type(other).__name__}")
    return _C.sub(other, input, alpha=alpha)


def result_type(tensor, other):
    """The dtype an arithmetic op on tensor and other produces (seed 002's three tiers)."""
    return _C._result_type2(tensor, other)


def round(input, *, decimals=None, out=None):  # noqa: A001
    """Rounds half to even; with decimals, to that many decimal places.

    As torch, integer tensors round to themselves only without ``decimals``: any
    ``decimals`` (even 0) selects the floating-point kernel, which refuses integers."""
    return _round(input, decimals, out, False)


def _round(input, decimals, out, inplace):
    if decimals is None:
        return _unary("round", input, out, inplace)
    if decimals == 0:  # torch's round.decimals overload: its kernel has no integer case
        if isinstance(input, Tensor) and not (input.is_floating_point() or input.is_complex()):
            raise NotImplementedError(f""""round_vml_cpu" not implemented for '{input.dtype._cname}'""")
        return _unary("round", input, out, inplace)
    return _unary("round_dec", input, out, inplace, decimals < 0, 10.0 ** _builtins.abs(decimals))


def square(input, *, out=None):
    """input * input (bool input gives int64, as torch)."""
    if isinstance(input, Tensor) and input.dtype == _C.bool:
        input = input.to(_C.int64)
    return _C._square(input, out=out)


def _clamp(input, min, max, out, inplace, fname="clamp"):
    if min is None and max is None:
        raise RuntimeError("torch.%s: At least one of 'min' or 'max' must not be None" % fname)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if min is not None and max is not None and _builtins.all(
                (v.dtype == _C.bool) if isinstance(v, Tensor) else isinstance(v, bool) for v in (input, min, max)):
            # torch's clamp.Tensor kernel (both bounds) has no bool case; one bound is maximum/minimum
            raise NotImplementedError(""""clamp_cpu" not implemented for 'Bool'""")
        res = input
        if min is not None:
            res = _C._clamp_min_t(res, min) if (max is not None or not (out is not None or inplace)) else None
            if res is None:
                return _C._ew_binary(_IDX["b_maximum"], input, min, out, inplace, False, 0, 0)
        if max is not None:
            if min is None:
                return _C._ew_binary(_IDX["b_minimum"], input, max, out, inplace, False, 0, 0)
            if inplace:
                return _C._ew_binary(_IDX["b_minimum"], res, max, input, False, False, 0, 0) if _check_inplace(
                    input, res, max) else None
            return _C._ew_binary(_IDX["b_minimum"], res, max, out, False, False, 0, 0)
        return res
    return _C._ew_clamp(input, min, max, out, inplace)


def _check_inplace(input, res, other):
    """clamp_ with tensor bounds: the final result must fit input's shape and dtype."""
    rt = _C.promote_types(res.dtype, other.dtype) if isinstance(other, Tensor) else res.dtype
    if not _C.can_cast(rt, input.dtype):
        raise RuntimeError("result type %s can't be cast to the desired output type %s" % (
            _cname(rt), _cname(input.dtype)))
    return True


def _cname(dt):
    return dt._cname if isinstance(dt, _C.dtype) else str(dt)


def clamp(input, min=None, max=None, *, out=None):
    """clamp(input, min=None, max=None, *, out=None) -> Tensor

    Each element limited to [min, max]; min and max are numbers or tensors broadcasting
    with input, and at least one is given. A NaN element or bound gives NaN. Keeps input's
    names. Strided input only; clip is an alias.

        >>> tl.clamp(tl.tensor([[1., 5.], [3., 2.]]), min=2, max=4)
        tensor([[2., 4.],
                [3., 2.]])
    """
    return _clamp(input, min, max, out, False)


clip = clamp


def clamp_min(input, min, *, out=None):
    """max(input, min) elementwise."""
    return _clamp(input, min, None, out, False, "clamp_min")


def clamp_max(input, max, *, out=None):
    """min(input, max) elementwise."""
    return _clamp(input, None, max, out, False, "clamp_max")


def where(condition, input=None, other=None, *, out=None):
    """where(condition, input, other, *, out=None) -> Tensor

    Elements of input where the bool condition holds and of other elsewhere; the three
    broadcast together, input and other may be numbers and promote as in arithmetic.
    where(condition) alone is nonzero(condition, as_tuple=True).

        >>> x = tl.tensor([[1., 5.], [3., 2.]])
        >>> tl.where(x > 2, x, 0.)
        tensor([[0., 5.],
                [3., 0.]])
    """
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    if out is not None:  # torch's out= overload takes tensors only
        for pos, (name, v) in enumerate((("input", input), ("other", other)), 2):
            if not isinstance(v, Tensor):
                raise TypeError(f"where(): argument '{name}' (position {pos}) must be Tensor, not {type(v).__name__}")
    return _C._ew_where(condition, input, other, out)


def masked_fill(input, mask, value):
    """masked_fill(input, mask, value) -> Tensor

    A copy of input with value (a number or a 0-d tensor) wherever the bool mask, which
    broadcasts to input's shape, is True. Keeps input's names; Tensor.masked_fill_ writes
    in place.

        >>> x = tl.tensor([[1., 5.], [3., 2.]])
        >>> tl.masked_fill(x, x > 2, -1.)
        tensor([[ 1., -1.],
                [-1.,  2.]])
    """
    return _C._ew_masked_fill(input, mask, value, False)


def lerp(input, end, weight, *, out=None):
    """input + weight * (end - input)."""
    return _lerp(input, end, weight, out, False)


def _lerp(input, end, weight, out, inplace):
    if isinstance(weight, Tensor):
        return _C._ew_lerp(input, end, weight, out, inplace)
    if not isinstance(end, Tensor) or input.dtype != end.dtype:
        raise RuntimeError("expected dtype %s for `end` but got dtype %s" % (
            input.dtype._typemeta, end.dtype._typemeta if isinstance(end, Tensor) else type(end).__name__))
    return _C._ew_binary(_IDX["b_lerp_s"], input, end, out, inplace, False, weight, 0)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise |input - other| <= atol + rtol * |other| (and exact equality, NaNs when asked)."""
    if isinstance(input, Tensor) and isinstance(other, Tensor) and input.dtype != other.dtype:
        raise RuntimeError("%s did not match %s" % (_cname(input.dtype), _cname(other.dtype)))
    if rtol < 0:
        raise RuntimeError("rtol must be greater than or equal to zero, but got %s" % rtol)
    if atol < 0:
        raise RuntimeError("atol must be greater than or equal to zero, but got %s" % atol)
    if (rtol or atol) and isinstance(input, Tensor) and isinstance(other, Tensor) and \
            not (input.dtype.is_floating_point or input.dtype.is_complex):
        # torch: integers and bools are compared exactly, or with a tolerance in the default float dtype
        dt = _C.get_default_dtype()
        input, other = input.to(dt), other.to(dt)
    if isinstance(input, Tensor) and input.dtype == _C.complex32:
        return _isclose_complex32(input, other, rtol, atol, equal_nan)
    return _C._ew_binary(_IDX["b_isclose"], input, other, None, False, bool(equal_nan), float(rtol), float(atol))


def _isclose_complex32(input, other, rtol, atol, equal_nan):
    """torch's composite isclose for complex32, which the kernel lacks: each step rounds in that
    dtype, the tolerances too (C++ rounds a scalar operand to the tensor's dtype):
    (input == other) | NaN pairs | (finite |input - other| <= atol + |rtol other|)."""
    close = input == other
    if equal_nan:
        close = close | (input.isnan() & other.isnan())
    if rtol == 0 and atol == 0:
        return close
    allowed = _C.full((), atol, dtype=_C.float16) + (_C.full((), rtol, dtype=_C.complex32) * other).abs()
    actual = (input - other).abs()
    return close | (actual.isfinite() & (actual <= allowed))


def _all_true(t):
    import numpy as np
    return bool(np.asarray(t).all())


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool

    True when every element satisfies |input - other| <= atol + rtol * |other| (see
    isclose; the two broadcast). Returns a Python bool.

        >>> x = tl.tensor([1., 2.])
        >>> tl.allclose(x, x + 1e-9)
        True
    """
    return _all_true(isclose(input, other, rtol, atol, equal_nan))


def equal(input, other):
    """True when both tensors have the same shape and elements."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError("equal(): argument 'other' must be Tensor, not %s" % type(other).__name__)
    if input.shape != other.shape:
        return False
    return _all_true(eq(input, other))  # noqa: F821 (from _C)


def _finfo_limits(dt):
    from ._finfo import finfo
    f = finfo(dt if not dt.is_complex else {"complex32": _C.float16, "complex64": _C.float32,
                                            "complex128": _C.float64}[str(dt).split(".")[-1]])
    return f.max, f.min


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """Replaces NaN, +inf and -inf with finite values (the dtype's extremes by default)."""
    return _nan_to_num(input, nan, posinf, neginf, out, False)


def _nan_to_num(input, nan, posinf, neginf, out, inplace):
    if input.dtype.is_floating_point or input.dtype.is_complex:
        hi, lo = _finfo_limits(input.dtype)
    else:
        hi, lo = 0, 0
    return _unary("nan_to_num", input, out, inplace, False, 0.0 if nan is None else nan,
                  hi if posinf is None else posinf, lo if neginf is None else neginf)


def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given."""
    return _unary("logit", input, out, False, eps is not None, 0.0 if eps is None else eps)


def _polygamma_check(fname, n, input, npos):
    """torch's refusals of polygamma(n, input): n a Python int (not bool), n >= 0, input a tensor
    of a floating (not float8) or integral dtype; complex and float8 name torch's kernel
    (digamma for n = 0, trigamma for 1)."""
    if isinstance(n, bool) or not isinstance(n, _numbers.Integral):
        raise TypeError(f"{fname}(): argument 'n' (position {npos}) must be int, not {type(n).__name__}")
    if not -2**63 <= n < 2**63:
        raise ValueError("Overflow when unpacking long long")
    if not isinstance(input, Tensor):
        raise TypeError(f"{fname}(): argument 'input' (position 2) must be Tensor, not {type(input).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    d = input.dtype
    if d.is_complex or (d.is_floating_point and d.itemsize == 1):
        kernel = "digamma" if n == 0 else "trigamma" if n == 1 else "polygamma"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{d._cname}\'')
    return int(n)


def polygamma(n, input, *, out=None):
    """The n-th derivative of the digamma function of each element (n = 0: digamma)."""
    n = _polygamma_check("polygamma", n, input, 1)
    return _unary("polygamma", input, out, False, False, n)


def _m_polygamma(self, n):
    n = _polygamma_check("polygamma", n, self, 1)
    return _unary("polygamma", self, None, False, False, n)


def _m_polygamma_(self, n):
    n = _polygamma_check("polygamma_", n, self, 1)
    return _unary("polygamma", self, None, True, False, n)


def frexp(input, *, out=None):
    """(mantissa, exponent) with input = mantissa * 2 ** exponent, 0.5 <= |mantissa| < 1 (0, inf and
    NaN: (input, 0)); mantissa of input's dtype, exponent int32 (torch.return_types.frexp)."""
    from ._reduce import return_types
    if not isinstance(input, Tensor):
        raise TypeError(f"frexp(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    d = input.dtype
    if d.is_floating_point and d.itemsize == 1:
        raise NotImplementedError(f'"frexp_cpu" not implemented for \'{d._cname}\'')
    if not d.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    if out is not None:
        if not isinstance(out, (tuple, list)):
            raise TypeError(f"frexp(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
        if len(out) != 2:
            raise TypeError(f"expected tuple of 2 elements but got {len(out)}")
        for o in out:
            if not isinstance(o, Tensor):
                raise TypeError(f"frexp(): argument 'out' must be tuple of Tensors, not {type(o).__name__}")
        if out[0].dtype != d:
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype {d._typemeta} but got "
                               f"{out[0].dtype._typemeta}")
        if out[1].dtype != _C.int32:
            raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got {out[1].dtype._typemeta}")
    e = _unary("frexp_exp", input).to(_C.int32)
    m = _unary("frexp_mant", input)
    if out is None:
        return return_types.frexp(m, e)
    return return_types.frexp_out(_C._write_out(m, out[0], "frexp", True), _C._write_out(e, out[1], "frexp", True))


def _mvlgamma(fname, input, p):
    """torch's mvlgamma composite: sum_j lgamma(x - j/2), j < p, plus p (p - 1) / 4 log(pi), with
    its checks; the lgamma arguments come from arange(-(p - 1)/2, 1/2, 1/2) in the result dtype."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if isinstance(p, bool) or not isinstance(p, _numbers.Integral):
        raise TypeError(f"{fname}(): argument 'p' (position 2) must be int, not {type(p).__name__}")
    d = input.dtype
    if d == _C.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    import tensorlib as _tl
    dt = d if d.is_floating_point or d.is_complex else _tl.get_default_dtype()
    if d.is_complex or d._is_shell:
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{dt._cname}\'')
    p = int(p)
    args = _tl.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=dt, device=input.device)
    r = _C.lgamma(args + input.unsqueeze(-1)).sum(-1)
    return r.add_(p * (p - 1) * 1.1447298858494002 * 0.25)  # log(pi)


def _mvlgamma_cast_check(r, target, input):
    """torch's check of writing mvlgamma's result r into target (out= or self), in its words
    (which name input's dtype as the result type and r's as the desired one)."""
    if not _C.can_cast(r.dtype, target.dtype):
        raise RuntimeError(f"mvlgamma: result type {input.dtype._cname} can't be cast to the desired output type "
                           f"{r.dtype._cname}")


def mvlgamma(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p of each element (torch.mvlgamma)."""
    r = _mvlgamma("mvlgamma", input, p)
    if out is None:
        return r
    _mvlgamma_cast_check(r, out, input)
    return _C._write_out(r, out, "mvlgamma", False)


def _m_mvlgamma_(self, p):
    r = _mvlgamma("mvlgamma_", self, p)
    _mvlgamma_cast_check(r, self, self)
    return self.copy_(r)


def positive(input):
    """input itself (bool raises, as torch)."""
    return +input


def conj(input):
    """The complex conjugate (a copy for complex tensors: tensorlib has no lazy conjugate bit), input itself otherwise."""
    return _C.conj_physical(input) if input.dtype.is_complex else input


def real(input):
    """View of the real parts (input itself for real tensors)."""
    return _C._ew_real(input, False)


def imag(input):
    """View of the imaginary parts of a complex tensor."""
    return _C._ew_real(input, True)


def gelu(input, approximate="none"):
    """Gaussian error linear unit; approximate='tanh' for the tanh form."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _unary("gelu" if approximate == "none" else "gelu_tanh", input)


def silu(input, inplace=False):
    """x * sigmoid(x)."""
    return _unary("silu", input, None, inplace)


def mish(input, inplace=False):
    """x * tanh(softplus(x))."""
    return _unary("mish", input, None, inplace)


def float_power(input, exponent, *, out=None):
    """pow computed in float64 (complex128 for complex operands)."""
    cplx = any(isinstance(v, complex) or (isinstance(v, Tensor) and v.dtype.is_complex) for v in (input, exponent))
    dt = _C.complex128 if cplx else _C.float64
    a = input.to(dt) if isinstance(input, Tensor) else input
    b = exponent.to(dt) if isinstance(exponent, Tensor) else exponent
    return _C.pow(a, b, out=out)


# ---- Tensor methods for the ops above ----

def _m_round(self, decimals=None):
    return _round(self, decimals, None, False)


def _m_round_(self, decimals=None):
    return _round(self, decimals, None, True)


def _m_square_(self):
    if self.dtype == _C.bool:
        raise RuntimeError("result type Long can't be cast to the desired output type Bool")
    return self._square_()


def _m_clamp_(self, min=None, max=None):
    return _clamp(self, min, max, None, True)


def _m_clamp_min_(self, min):
    return _clamp(self, min, None, None, True, "clamp_min")


def _m_clamp_max_(self, max):
    return _clamp(self, None, max, None, True, "clamp_max")


def _m_masked_fill_(self, mask, value):
    return _C._ew_masked_fill(self, mask, value, True)


def _m_lerp_(self, end, weight):
    return _lerp(self, end, weight, None, True)


def _m_nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    return _nan_to_num(self, nan, posinf, neginf, None, True)


def _m_logit_(self, eps=None):
    return _unary("logit", self, None, True, eps is not None, 0.0 if eps is None else eps)


def _m_where(self, condition, y):
    return where(condition, self, y)


def _m_conj_physical_(self):
    if isinstance(self, Tensor) and not self.is_complex():
        return self  # torch: nothing to do for a real tensor (whatever its dtype)
    return _C._ew_unary(_IDX["u_conj_physical"], self, None, True, False, 0, 0, 0)


def heaviside(input, values, *, out=None):
    """0 where input < 0, values where input == 0, 1 where input > 0 (same dtypes required)."""
    # torch's checks, in its order: no complex operand (out= included), then one dtype for all
    if any(isinstance(t, Tensor) and t.is_complex() for t in (input, values, out)):
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if isinstance(input, Tensor) and isinstance(values, Tensor) and (
            input.dtype != values.dtype or (isinstance(out, Tensor) and out.dtype != input.dtype)):
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return _C._heaviside(input, values, out=out)


def nextafter(input, other, *, out=None):
    """The next floating point value after input in the direction of other."""
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        return _C._nextafter(input, other, out=out)  # raises torch's TypeError
    dt = _C.promote_types(input.dtype, other.dtype)
    if dt not in (_C.float16, _C.bfloat16):
        return _C._nextafter(input, other, out=out)
    if out is not None and not _C.can_cast(dt, out.dtype):
        raise RuntimeError("result type %s can't be cast to the desired output type %s" % (_cname(dt), _cname(out.dtype)))
    # 16-bit floats step on their own bit patterns (computing in float32 would round back)
    # a 0-d CPU operand goes with the other's device (torch's rule) before broadcasting
    if other.dim() == 0 and other.device.type == "cpu":
        other = other.to(input.device)
    elif input.dim() == 0 and input.device.type == "cpu":
        input = input.to(other.device)
    x, y = (t.to(dt) for t in _broadcast(input, other))
    bits = x.view(_C.int16)
    step = where((y > x) == (x > 0), bits + 1, bits - 1).to(_C.int16)
    tiny = where(y.signbit(), _C.full((), -32767, dtype=_C.int16), _C.full((), 1, dtype=_C.int16))
    r = where(x == 0, tiny, step).view(dt)
    r = where(x == y, y, where(x.isnan() | y.isnan(), _C.full((), float("nan"), dtype=dt), r))
    return r if out is None else out.copy_(r)


def _broadcast(a, b):
    from ._join import broadcast_tensors
    return broadcast_tensors(a, b)


def ldexp(input, other, *, out=None):
    """input * 2 ** other, in the dtype input and other promote to (integers give the default float)."""
    r = mul(input, pow(2.0, other), out=out)
    if out is not None:
        return r
    dt = result_type(input, other)
    return r.to(dt if dt.is_floating_point or dt.is_complex else _C.get_default_dtype())


def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 * tensor2 (the three tensors promote together)."""
    return _C._ew_addc(False, input, tensor1, tensor2, value, out, False)


def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 / tensor2 (two integer divisor operands are an error, as in torch)."""
    return _C._ew_addc(True, input, tensor1, tensor2, value, out, False)


def _make_cmp_inplace(name):
    def f(self, other):
        return _C._ew_binary(_IDX["b_" + name], self, other, None, True, False, 0, 0)
    f.__name__ = name + "_"
    f.__doc__ = "In-place %s: self gets the comparison result in its own dtype." % name
    return f


_METHODS = {
    "round": _m_round, "round_": _m_round_, "square": lambda self: square(self), "square_": _m_square_,
    "clamp": lambda self, min=None, max=None: clamp(self, min, max), "clamp_": _m_clamp_,
    "clip": lambda self, min=None, max=None: clamp(self, min, max), "clip_": _m_clamp_,
    "clamp_min": lambda self, min: clamp_min(self, min), "clamp_min_": _m_clamp_min_,
    "clamp_max": lambda self, max: clamp_max(self, max), "clamp_max_": _m_clamp_max_,
    "where": _m_where, "masked_fill": masked_fill, "masked_fill_": _m_masked_fill_,
    "lerp": lambda self, end, weight: lerp(self, end, weight), "lerp_": _m_lerp_,
    "isclose": isclose, "allclose": allclose, "equal": equal,
    "nan_to_num": lambda self, nan=0.0, posinf=None, neginf=None: nan_to_num(self, nan, posinf, neginf),
    "polygamma": _m_polygamma, "polygamma_": _m_polygamma_, "frexp": lambda self: frexp(self),
    "mvlgamma": lambda self, p: mvlgamma(self, p), "mvlgamma_": _m_mvlgamma_,
    "nan_to_num_": _m_nan_to_num_, "logit": lambda self, eps=None: logit(self, eps), "logit_": _m_logit_,
    "positive": positive, "conj": conj, "conj_physical_": _m_conj_physical_,
    "resolve_conj": lambda self: self, "resolve_neg": lambda self: self,
    "is_conj": lambda self: False, "is_neg": lambda self: False,
    "float_power": lambda self, exponent: float_power(self, exponent),
    "heaviside": heaviside, "heaviside_": lambda self, values: heaviside(self, values, out=self),
    "nextafter": nextafter, "nextafter_": lambda self, other: nextafter(self, other, out=self),
    "ldexp": ldexp, "ldexp_": lambda self, other: ldexp(self, other, out=self),
    "addcmul": addcmul, "addcdiv": addcdiv,
    "addcmul_": lambda self, tensor1, tensor2, *, value=1: _C._ew_addc(False, self, tensor1, tensor2, value, None, True),
    "addcdiv_": lambda self, tensor1, tensor2, *, value=1: _C._ew_addc(True, self, tensor1, tensor2, value, None, True),
    "eq_": _make_cmp_inplace("eq"), "ne_": _make_cmp_inplace("ne"), "lt_": _make_cmp_inplace("lt"),
    "le_": _make_cmp_inplace("le"), "gt_": _make_cmp_inplace("gt"), "ge_": _make_cmp_inplace("ge"),
}
for _n, _f in _METHODS.items():
    setattr(Tensor, _n, _f)
Tensor.real = property(real, doc="View of the real parts.")
Tensor.imag = property(imag, doc="View of the imaginary parts (complex tensors only).")
del _n, _f

