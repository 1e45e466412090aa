"""tensorlib.testing: ``assert_close`` with torch.testing's rules and messages.

Inputs are compared pairwise: tensors (or NumPy arrays, both of the same kind), Python
numbers, booleans, None, and sequences or mappings of those, recursively. Tensors must agree
in shape, device, dtype, layout (and strides with ``check_stride=True``) and then in values:
``|actual - expected| <= atol + rtol * |expected|`` elementwise, NaN equal to NaN only with
``equal_nan=True``. Default tolerances depend on the dtype (the larger of the two when
``check_dtype=False``); integers, booleans and the float8 formats compare exactly.
"""
import builtins
import collections.abc
import math

from . import _C

__all__ = ["assert_close"]

# dtype -> (rtol, atol); a dtype not listed compares exactly
_PRECISIONS = {
    _C.float16: (1e-3, 1e-5), _C.bfloat16: (1.6e-2, 1e-5), _C.float32: (1.3e-6, 1e-5),
    _C.float64: (1e-7, 1e-7), _C.complex32: (1e-3, 1e-5), _C.complex64: (1.3e-6, 1e-5),
    _C.complex128: (1e-7, 1e-7),
}


class _Mismatch(Exception):
    """A failed comparison: the exception type to raise and its message."""

    def __init__(self, kind, msg, where=""):
        super().__init__(msg)
        self.kind, self.msg, self.where = kind, msg, where


def _check_pair(rtol, atol):
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted, "
                         f"but got no {'rtol' if rtol is None else 'atol'}.")


def _tolerances(dtypes, rtol, atol):
    if rtol is not None:
        return rtol, atol
    return (builtins.max(_PRECISIONS.get(d, (0.0, 0.0))[0] for d in dtypes),
            builtins.max(_PRECISIONS.get(d, (0.0, 0.0))[1] for d in dtypes))


def _diff_lines(abs_diff, rel_diff, rtol, atol, abs_idx=None, rel_idx=None):
    exact = rtol == 0 and atol == 0
    lines = []
    for kind, diff, idx, tol in (("absolute", abs_diff, abs_idx, atol), ("relative", rel_diff, rel_idx, rtol)):
        line = f"{kind.title()} difference: {diff}" if idx is None else f"Greatest {kind} difference: {diff} at index {idx}"
        lines.append(line if exact else f"{line} (up to {tol} allowed)")
    return "\n".join(lines)


def _title(what, rtol, atol):
    return f"{what} are not {'equal' if rtol == 0 and atol == 0 else 'close'}!"


def _unravel(flat, shape):
    idx = []
    for s in reversed(shape):
        idx.append(flat % s)
        flat //= s
    return tuple(reversed(idx))


# ---- pairs -------------------------------------------------------------------------------

def _compare_numbers(actual, expected, rtol, atol, equal_nan, check_dtype):
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.")
    kind = complex if builtins.any(isinstance(v, complex) for v in (actual, expected)) else \
        float if builtins.any(isinstance(v, float) for v in (actual, expected)) else int
    dtype = {complex: _C.complex128, float: _C.float64, int: _C.int64}[kind]
    rtol, atol = _tolerances((dtype,), rtol, atol)
    if actual == expected or (equal_nan and _isnan(actual) and _isnan(expected)):
        return
    abs_diff = abs(actual - expected)
    if not _isnan(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    rel_diff = abs_diff / abs(expected) if expected != 0 else (math.inf if abs_diff else math.nan)
    raise _Mismatch(AssertionError, f"{_title('Scalars', rtol, atol)}\n\nExpected {expected} but got {actual}.\n"
                    + _diff_lines(abs_diff, rel_diff, rtol, atol))


def _isnan(v):
    return isinstance(v, (float, complex)) and v != v


def _as_tensor(x):
    if isinstance(x, _C.TensorBase):
        return x
    from ._factories import as_tensor
    return as_tensor(x)


def _attr_check(name, a, b, show=str):
    if a != b:
        raise _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: {show(a)} != {show(b)}.")


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype, check_layout,
                     check_stride):
    a, e = _as_tensor(actual), _as_tensor(expected)
    _attr_check("shape", a.shape, e.shape, repr)
    if check_device:
        _attr_check("device", a.device, e.device)
    if check_dtype:
        _attr_check("dtype", a.dtype, e.dtype)
    if check_layout:
        _attr_check("layout", a.layout, e.layout)
    if check_stride and a.layout == _C.strided:
        _attr_check("stride()", a.stride(), e.stride())
    rtol, atol = _tolerances((a.dtype, e.dtype), rtol, atol)
    if a.dtype != e.dtype:
        common = _C.promote_types(a.dtype, e.dtype)
        a, e = a.to(common), e.to(common)
    if a.has_names():
        a = a.rename(None)
    if e.has_names():
        e = e.rename(None)
    if a.dtype == _C.bool:
        matches = a == e
    else:
        matches = _tl().isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if builtins.bool(matches.all()):
        return
    exact_kind = not (a.dtype.is_floating_point or a.dtype.is_complex)
    if exact_kind:  # differences of integers (and bools) in int64, as torch
        a, e = a.to(_C.int64), e.to(_C.int64)
    abs_diff = (a - e).abs()
    if a.dim() == 0:  # 0-d tensors report like numbers: the relative difference in Python
        d, ex = abs_diff.item(), e.item()
        rel = d / abs(ex) if ex != 0 else (math.inf if d else math.nan)
        raise _Mismatch(AssertionError, f"{_title('Scalars', rtol, atol)}\n\nExpected {ex} but got {a.item()}.\n"
                        + _diff_lines(d, rel, rtol, atol))
    flat_abs = abs_diff.reshape(-1).clone()
    flat_match = matches.reshape(-1)
    flat_abs[flat_match] = 0  # only mismatches count for the greatest differences
    rel = flat_abs / e.reshape(-1).abs()
    rel[flat_match] = 0
    abs_max, abs_i = _tl().max(flat_abs, 0)
    rel_max, rel_i = _tl().max(rel, 0)
    total = matches.numel()
    bad = total - builtins.int(matches.sum())
    raise _Mismatch(AssertionError, f"{_title('Tensor-likes', rtol, atol)}\n\n"
                    f"Mismatched elements: {bad} / {total} ({bad / total:.1%})\n"
                    + _diff_lines(abs_max.item(), rel_max.item(), rtol, atol,
                                  _unravel(builtins.int(abs_i), a.shape), _unravel(builtins.int(rel_i), a.shape)))


def _tl():
    import tensorlib
    return tensorlib


def _is_array(x):
    return type(x).__module__ == "numpy" and type(x).__name__ == "ndarray"


def _is_tensor_like(x):
    return isinstance(x, _C.TensorBase) or _is_array(x)


def _compare(actual, expected, where, kw, allow_subclasses):
    if actual is None or expected is None:
        if actual is not expected:
            raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", where)
        return
    if isinstance(actual, bool) and isinstance(expected, bool):
        if actual is not expected:
            raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}", where)
        return
    seq = (collections.abc.Sequence,)
    if (isinstance(actual, seq) and isinstance(expected, seq)
            and not isinstance(actual, (str, bytes)) and not isinstance(expected, (str, bytes))):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError,
                            f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", where)
        for i, (x, y) in enumerate(zip(actual, expected)):
            _compare(x, y, f"{where}[{i}]", kw, allow_subclasses)
        return
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        ka, ke = set(actual.keys()), set(expected.keys())
        if ka != ke:
            raise _Mismatch(AssertionError, "The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: {sorted(ke - ka)}\n"
                            f"Additional keys in the actual mapping: {sorted(ka - ke)}", where)
        for k in actual:
            _compare(actual[k], expected[k], f"{where}[{k!r}]", kw, allow_subclasses)
        return
    if _is_tensor_like(actual) and _is_tensor_like(expected) and (
            isinstance(actual, _C.TensorBase) == isinstance(expected, _C.TensorBase)) and (
            allow_subclasses or type(actual) is type(expected)):
        try:
            _compare_tensors(actual, expected, **kw)
        except _Mismatch as m:
            m.where = where
            raise
        return
    num = (int, float, complex)
    if (isinstance(actual, num) and isinstance(expected, num) and not isinstance(actual, bool)
            and not isinstance(expected, bool)):
        try:
            _compare_numbers(actual, expected, kw["rtol"], kw["atol"], kw["equal_nan"], kw["check_dtype"])
        except _Mismatch as m:
            m.where = where
            raise
        return
    raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} "
                    f"and {type(expected)}.", where)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Asserts that ``actual`` and ``expected`` are close, as ``torch.testing.assert_close``.

    Args:
        actual, expected: tensors, NumPy arrays, Python numbers, bools, None, or sequences /
            mappings of them (compared item by item).
        rtol, atol: tolerances; both or neither. Default: by dtype (float16 1e-3/1e-5,
            bfloat16 1.6e-2/1e-5, float32 and complex64 1.3e-6/1e-5, float64 and complex128
            1e-7/1e-7, everything else exact).
        equal_nan: NaN compares equal to NaN.
        check_device, check_dtype, check_layout, check_stride: which attributes must agree
            (with ``check_dtype=False`` both are promoted to a common dtype first).
        msg: replaces the failure message (a string), or a callable taking the generated
            message and returning the one to raise.

    Raises:
        AssertionError: with torch's message (mismatched count, greatest absolute and
            relative differences and where), and the path of the failing item.
        TypeError: for inputs no rule compares (a tensor against a list, a str, ...).
        ValueError: when only one of ``rtol``/``atol`` is given.

    Example:
        >>> import tensorlib as tl
        >>> tl.testing.assert_close(tl.tensor([1.0, 2.0]), tl.tensor([1.0, 2.0 + 1e-7]))
    """
    kw = dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=check_device, check_dtype=check_dtype,
              check_layout=check_layout, check_stride=check_stride)
    _check_pair(rtol, atol)
    try:
        _compare(actual, expected, "", kw, allow_subclasses)
    except _Mismatch as m:
        text = m.msg
        if m.kind is AssertionError:
            if callable(msg):
                text = msg(text)
            elif msg is not None:
                text = msg
            elif m.where:
                text = f"{text}\n\nThe failure occurred for item {m.where}"
        raise m.kind(text) from None
