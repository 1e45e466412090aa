"""tensorlib.array_api: the Python Array API standard (2024.12) over tensorlib tensors.

``x.__array_namespace__()`` returns this module, so array-API consumers
(``array_api_compat.array_namespace(x)``, SciPy, scikit-learn's array API mode) take
tensorlib tensors as they are. The arrays are ordinary ``tensorlib.Tensor`` objects and every
function calls tensorlib's own (no math of its own): what is here adapts spellings (``axis``
and ``keepdims``, ``x1``/``x2`` positional-only, Python scalars on either side) and follows the
standard where torch's top level differs (``axis=()`` reduces nothing, ``squeeze`` raises for a
non-unit axis, ``sum``/``prod``/``cumulative_sum`` of small integers accumulate in the default
integer dtype, ``eye(k=)``, ``linspace(endpoint=)``, ``unique_*`` results, ...). tensorlib's top level
stays torch's. See docs/array_api.md.

    >>> import tensorlib as tl
    >>> xp = tl.ones(3).__array_namespace__()
    >>> xp.sum(xp.asarray([[1, 2], [3, 4]], dtype=xp.int8), axis=0)
    tensor([4, 6])
"""
import builtins
import math
from collections import namedtuple

import tensorlib as tl
from tensorlib._util import wrap_dim as _wrap_dim

from . import _dtypes
from ._dtypes import (  # noqa: F401
    __array_namespace_info__, astype, can_cast, finfo, iinfo, isdtype, result_type,
)

__array_api_version__ = "2024.12"
SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

e, inf, nan, pi = math.e, math.inf, math.nan, math.pi
newaxis = None
bool = tl.bool  # noqa: A001
int8, int16, int32, int64, uint8 = tl.int8, tl.int16, tl.int32, tl.int64, tl.uint8
float32, float64, complex64, complex128 = tl.float32, tl.float64, tl.complex64, tl.complex128
Array = tl.Tensor  # the array type (for annotations: xp.Array)


# ---- creation -----------------------------------------------------------------------------------

def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Values from start (0 when only one bound is given) up to stop, exclusive, by step."""
    if stop is None:
        start, stop = 0, start
    if step != 0 and (stop - start) / step <= 0:  # torch refuses a step pointing away from stop
        if dtype is None:
            ints = builtins.all(isinstance(v, int) for v in (start, stop, step))
            dtype = tl.int64 if ints else tl.get_default_dtype()
        return tl.empty(0, dtype=dtype, device=device)
    return tl.arange(start, stop, step, dtype=dtype, device=device)


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """An array from obj (array, nested sequence, scalar, buffer); copy=False never copies."""
    return tl.asarray(obj, dtype=dtype, device=device, copy=copy)


def empty(shape, *, dtype=None, device=None):
    """An uninitialized array of shape."""
    return tl.empty(shape, dtype=dtype, device=device)


def zeros(shape, *, dtype=None, device=None):
    """An array of zeros."""
    return tl.zeros(shape, dtype=dtype, device=device)


def ones(shape, *, dtype=None, device=None):
    """An array of ones."""
    return tl.ones(shape, dtype=dtype, device=device)


def full(shape, fill_value, *, dtype=None, device=None):
    """An array filled with fill_value (dtype inferred from it when not given)."""
    if isinstance(fill_value, tl.Tensor):
        fill_value = fill_value.item()
    return tl.full((shape,) if isinstance(shape, int) else shape, fill_value, dtype=dtype, device=device)


def empty_like(x, /, *, dtype=None, device=None):
    """An uninitialized array shaped like x."""
    return tl.empty_like(x, dtype=dtype, device=device)


def zeros_like(x, /, *, dtype=None, device=None):
    """Zeros shaped like x."""
    return tl.zeros_like(x, dtype=dtype, device=device)


def ones_like(x, /, *, dtype=None, device=None):
    """Ones shaped like x."""
    return tl.ones_like(x, dtype=dtype, device=device)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    """fill_value shaped like x, in x's dtype unless dtype is given."""
    return tl.full_like(x, fill_value, dtype=dtype, device=device)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """Ones on the k-th diagonal of an n_rows x n_cols array, zeros elsewhere."""
    n_cols = n_rows if n_cols is None else n_cols
    out = tl.zeros((n_rows, n_cols), dtype=dtype, device=device)
    if -n_rows < k < n_cols:
        out.diagonal(k).fill_(1)
    return out


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """num evenly spaced values from start to stop (stop excluded when endpoint is False)."""
    if dtype is None:
        complex_ = builtins.any(isinstance(v, complex) for v in (start, stop))
        dtype = tl.get_default_dtype().to_complex() if complex_ else tl.get_default_dtype()
    if endpoint or num == 0:
        return tl.linspace(start, stop, num, dtype=dtype, device=device)
    return tl.linspace(start, stop, num + 1, dtype=dtype, device=device)[:-1]


def meshgrid(*arrays, indexing="xy"):
    """Coordinate arrays from 1-D arrays ('xy': Cartesian, 'ij': matrix indexing)."""
    return list(tl.meshgrid(*arrays, indexing=indexing))


def tril(x, /, *, k=0):
    """The lower triangle (on and below the k-th diagonal) of the last two dims."""
    return tl.tril(x, k)


def triu(x, /, *, k=0):
    """The upper triangle (on and above the k-th diagonal) of the last two dims."""
    return tl.triu(x, k)


def from_dlpack(x, /, *, device=None, copy=None):
    """An array sharing memory with a DLPack-capable object (copy=True: a copy)."""
    out = tl.from_dlpack(x)
    if device is not None:
        out = out.to(device)
    return out.clone() if copy else out


# ---- element-wise ---------------------------------------------------------------------------------

def _unary(name, fn, doc):
    def f(x, /):
        return fn(x)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _to_array(value, like):
    """A Python scalar as a 0-d array beside the array like: in like's dtype when the kinds fit
    (the standard's weak scalars), else in the default dtype of its kind."""
    if isinstance(value, tl.Tensor):
        return value
    dtype = like.dtype if _dtypes._scalar_kind_ok(like.dtype, value) else None
    return tl.asarray(value, dtype=dtype, device=like.device)


def _promoted(*arrays):
    """The arrays in their common dtype by the standard's rule: every rank counts (torch lets a 0-d
    tensor of the same kind give way to the other operand's dtype)."""
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) == 1:
        return arrays
    dt = result_type(*dtypes)
    return tuple(a if a.dtype == dt else a.to(dt) for a in arrays)


def _binary(name, fn, doc):
    def f(x1, x2, /):
        if not isinstance(x1, tl.Tensor):
            if not isinstance(x2, tl.Tensor):
                raise TypeError(f"{name}(): at least one of x1 and x2 must be an array")
            x1 = _to_array(x1, x2)
        elif not isinstance(x2, tl.Tensor):
            x2 = _to_array(x2, x1)
        return fn(*_promoted(x1, x2))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _conj(x):
    return x.conj() if x.dtype.is_complex else x


def _imag(x):
    return x.imag if x.dtype.is_complex else tl.zeros_like(x)


def _real(x):
    return x.real if x.dtype.is_complex else x


def _sign(x):
    if x.dtype.is_complex:
        return tl.sgn(x)
    out = tl.sign(x)
    return tl.where(tl.isnan(x), x, out) if x.dtype.is_floating_point else out  # torch: sign(nan) is 0


def _floor_divide(x1, x2):
    out = tl.floor_divide(x1, x2)
    if out.dtype.is_floating_point:  # an infinite operand: floor(x1 / x2) (torch gives nan and -1)
        out = tl.where(tl.isinf(x1) | tl.isinf(x2), tl.floor(x1 / x2), out)
    return out


def _remainder(x1, x2):
    out = tl.remainder(x1, x2)
    if out.dtype.is_floating_point:  # a zero remainder has the divisor's sign, as Python's %
        out = tl.where(out == 0, tl.copysign(out, x2), out)
    return out


def _tanh(x):
    out = tl.tanh(x)
    if x.dtype.is_complex:  # tanh(+-inf + iy), y finite: +-1 + i0 with y's sign (C99 and torch: sin(2y)'s)
        re, im = x.real, x.imag
        edge = tl.isinf(re) & tl.isfinite(im)
        fixed = _complex(tl.copysign(tl.ones_like(re), re), tl.copysign(tl.zeros_like(im), im), out.dtype)
        out = tl.where(edge, fixed, out)
    return out


def _complex(re, im, dtype):
    """The complex array re + i im (signed zeros kept)."""
    out = tl.empty(re.shape, dtype=dtype, device=re.device)
    out.real.copy_(re)
    out.imag.copy_(im)
    return out


def _round(x):
    if x.dtype.is_complex:  # torch has no complex round: each component, half to even
        return _complex(tl.round(x.real), tl.round(x.imag), x.dtype)
    return tl.round(x) if x.dtype.is_floating_point else x.clone()


def _keep_int(fn):
    return lambda x: x.clone() if not (x.dtype.is_floating_point or x.dtype.is_complex) else fn(x)


_UNARY = {
    "abs": tl.abs, "acos": tl.acos, "acosh": tl.acosh, "asin": tl.asin, "asinh": tl.asinh, "atan": tl.atan,
    "atanh": tl.atanh, "bitwise_invert": tl.bitwise_not, "ceil": _keep_int(tl.ceil), "conj": _conj, "cos": tl.cos,
    "cosh": tl.cosh, "exp": tl.exp, "expm1": tl.expm1, "floor": _keep_int(tl.floor), "imag": _imag,
    "isfinite": tl.isfinite, "isinf": tl.isinf, "isnan": tl.isnan, "log": tl.log, "log1p": tl.log1p,
    "log2": tl.log2, "log10": tl.log10, "logical_not": tl.logical_not, "negative": tl.negative,
    "positive": lambda x: x.clone(), "real": _real, "reciprocal": tl.reciprocal, "round": _round,
    "sign": _sign, "signbit": tl.signbit, "sin": tl.sin, "sinh": tl.sinh, "square": tl.square, "sqrt": tl.sqrt,
    "tan": tl.tan, "tanh": _tanh, "trunc": _keep_int(tl.trunc),
}
for _n, _f in _UNARY.items():
    globals()[_n] = _unary(_n, _f, f"{_n}(x, /): element-wise {_n} (tensorlib's, see tensorlib.{_n}).")

_BINARY = {
    "add": tl.add, "atan2": tl.atan2, "bitwise_and": tl.bitwise_and, "bitwise_left_shift": tl.bitwise_left_shift,
    "bitwise_or": tl.bitwise_or, "bitwise_right_shift": tl.bitwise_right_shift, "bitwise_xor": tl.bitwise_xor,
    "copysign": tl.copysign, "divide": tl.divide, "equal": tl.eq, "floor_divide": _floor_divide,
    "greater": tl.gt, "greater_equal": tl.ge, "hypot": tl.hypot, "less": tl.lt, "less_equal": tl.le,
    "logaddexp": tl.logaddexp, "logical_and": tl.logical_and, "logical_or": tl.logical_or,
    "logical_xor": tl.logical_xor, "maximum": tl.maximum, "minimum": tl.minimum, "multiply": tl.multiply,
    "nextafter": tl.nextafter, "not_equal": tl.ne, "pow": tl.pow, "remainder": _remainder,
    "subtract": tl.subtract,
}
for _n, _f in _BINARY.items():
    globals()[_n] = _binary(_n, _f, f"{_n}(x1, x2, /): element-wise {_n} with broadcasting; either "
                                    "argument may be a Python scalar.")
del _n, _f


def clip(x, /, min=None, max=None):
    """x with values below min raised to min and above max lowered to max (each optional, an
    array or a scalar); the result keeps x's dtype."""
    if min is None and max is None:
        return x.clone()
    lo = None if min is None else _to_array(min, x)
    hi = None if max is None else _to_array(max, x)
    if isinstance(lo, tl.Tensor) and lo.dtype != x.dtype:
        lo = lo.to(x.dtype)
    if isinstance(hi, tl.Tensor) and hi.dtype != x.dtype:
        hi = hi.to(x.dtype)
    return tl.clamp(x, min=lo, max=hi)


# ---- indexing ------------------------------------------------------------------------------------

def take(x, indices, /, *, axis=None):
    """Elements of x at indices along axis (axis may be omitted for 1-D x)."""
    if axis is None:
        if x.dim() != 1:
            raise ValueError("take: axis is required for arrays with more than one dimension")
        axis = 0
    return tl.index_select(x, axis, _wrap_indices(indices, x.shape[axis]))


def take_along_axis(x, indices, /, *, axis=-1):
    """Elements of x at indices, an array of x's rank, along axis."""
    return tl.take_along_dim(x, _wrap_indices(indices, x.shape[axis]), dim=axis)


def _wrap_indices(indices, n):
    """Indices in [-n, n) as non-negative int64 (the standard counts negative ones from the end)."""
    indices = indices.to(tl.int64)
    return tl.where(indices < 0, indices + n, indices)


# ---- linear algebra (main namespace) -----------------------------------------------------------------

def matmul(x1, x2, /):
    """The matrix product with NumPy's broadcasting and 1-D promotion rules."""
    return tl.matmul(*_promoted(x1, x2))


def matrix_transpose(x, /):
    """x with its last two dims swapped."""
    if x.dim() < 2:
        raise ValueError("matrix_transpose: x must have at least two dimensions")
    return x.mT


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over axes (an int: the last axes of x1 with the first of x2; or two sequences)."""
    return tl.tensordot(*_promoted(x1, x2), dims=axes)


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of vectors along axis (x1 conjugated), broadcasting the other dims; the
    vectors must have one length (no broadcasting along axis) and integers keep their dtype."""
    x1, x2 = _promoted(x1, x2)
    nd = builtins.max(x1.dim(), x2.dim())
    axis = axis - nd if 0 <= axis < nd else axis  # counted from the end of the broadcast shape
    if not -builtins.min(x1.dim(), x2.dim()) <= axis < 0 or x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: x1 {tuple(x1.shape)} and x2 {tuple(x2.shape)} have no common axis {axis}")
    if x1.dtype.is_floating_point or x1.dtype.is_complex:
        return tl.linalg.vecdot(x1, x2, dim=axis)
    return tl.sum(x1 * x2, axis, dtype=x1.dtype)


# ---- manipulation --------------------------------------------------------------------------------------

def _axes(axis, ndim):
    """axis (None: all, an int or a sequence) as a tuple of distinct wrapped dims."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = tuple(_wrap_dim(a, ndim) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {axis}")
    return out


def broadcast_arrays(*arrays):
    """The arrays broadcast against each other (views)."""
    return list(tl.broadcast_tensors(*arrays))


def broadcast_to(x, /, shape):
    """x broadcast to shape (a view)."""
    return tl.broadcast_to(x, shape)


def concat(arrays, /, *, axis=0):
    """The arrays joined along axis (None: flattened first)."""
    if axis is None:
        return tl.cat([a.reshape(-1) for a in arrays])
    return tl.cat(list(arrays), dim=axis)


def expand_dims(x, /, axis):
    """x with a new unit dim at axis (in [-x.ndim - 1, x.ndim])."""
    if not -x.dim() - 1 <= axis <= x.dim():
        raise IndexError(f"expand_dims: axis {axis} is out of range for an array of {x.dim()} dimensions")
    return x.unsqueeze(axis)


def flip(x, /, *, axis=None):
    """x reversed along axis (default: every axis)."""
    return tl.flip(x, _axes(axis, x.dim()))


def moveaxis(x, source, destination, /):
    """x with the dims at source moved to destination."""
    return tl.movedim(x, source, destination)


def permute_dims(x, /, axes):
    """x with its dims reordered by axes."""
    return x.permute(*axes)


def repeat(x, repeats, /, *, axis=None):
    """Each element (along axis; flattened when None) repeated repeats times (an int or an array)."""
    if axis is None:
        x, axis = x.reshape(-1), 0
    if isinstance(repeats, tl.Tensor):
        repeats = repeats.to(tl.int64)
    return tl.repeat_interleave(x, repeats, dim=axis)


def reshape(x, /, shape, *, copy=None):
    """x with a new shape; copy=True always copies, copy=False raises when a view is impossible."""
    if copy is False:
        try:
            return x.view(shape)
        except RuntimeError as err:
            raise ValueError(f"reshape: cannot reshape without copying ({err})") from None
    out = x.reshape(shape)
    return out.clone() if copy else out


def roll(x, /, shift, *, axis=None):
    """Elements shifted (cyclically) by shift along axis (flattened when None)."""
    if axis is None:
        return tl.roll(x, shift)
    return tl.roll(x, shift, axis)


def squeeze(x, /, axis):
    """x without the unit dims at axis; raises ValueError if one of them is not of size 1."""
    axes = _axes(axis, x.dim())
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"squeeze: cannot select an axis to squeeze out which has size {x.shape[a]} != 1")
    return x.squeeze(axes) if axes else x.view(x.shape)


def stack(arrays, /, *, axis=0):
    """The arrays (of one shape) joined along a new axis."""
    return tl.stack(list(arrays), dim=axis)


def tile(x, repetitions, /):
    """x repeated repetitions times per dim."""
    return tl.tile(x, tuple(repetitions))


def unstack(x, /, *, axis=0):
    """The slices of x along axis, as a tuple of views."""
    return tuple(x.unbind(axis))


# ---- searching, sets and sorting ------------------------------------------------------------------------

def _arg_reduce(fn, x, axis, keepdims):
    if axis is None:
        out = fn(x.reshape(-1), 0)
        return out.reshape((1,) * x.dim()) if keepdims else out
    return fn(x, axis, keepdim=keepdims)


def argmax(x, /, *, axis=None, keepdims=False):
    """Index of the (first) largest element along axis (of the flattened x when None)."""
    return _arg_reduce(tl.argmax, x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    """Index of the (first) smallest element along axis (of the flattened x when None)."""
    return _arg_reduce(tl.argmin, x, axis, keepdims)


def _keep(out, x, axes, keepdims):
    """out (reduced over axes of x) with unit dims in their place when keepdims."""
    if keepdims:
        out = out.reshape([1 if d in axes else n for d, n in enumerate(x.shape)])
    return out


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """Number of non-zero elements along axis (all when None)."""
    axes = _axes(axis, x.dim())
    out = tl.count_nonzero(x, axes) if axes else (x != 0).to(tl.int64)
    return _keep(out, x, axes, keepdims)


def nonzero(x, /):
    """Indices of the non-zero elements, one array per dim; 0-d x raises ValueError."""
    if x.dim() == 0:
        raise ValueError("nonzero is not defined for zero-dimensional arrays")
    return tuple(tl.nonzero(x, as_tuple=True))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Indices where the elements of x2 would be inserted into the sorted 1-D x1."""
    x1, x2 = _promoted(x1, x2)
    return tl.searchsorted(x1, x2, side=side, sorter=sorter)


def where(condition, x1, x2, /):
    """Elements of x1 where condition, of x2 elsewhere (either may be a Python scalar)."""
    if not isinstance(condition, tl.Tensor) or not (isinstance(x1, tl.Tensor) or isinstance(x2, tl.Tensor)):
        raise TypeError("where(): condition and one of x1 and x2 must be arrays")
    if not isinstance(x1, tl.Tensor) and isinstance(x2, tl.Tensor):
        x1 = _to_array(x1, x2)
    elif not isinstance(x2, tl.Tensor) and isinstance(x1, tl.Tensor):
        x2 = _to_array(x2, x1)
    return tl.where(condition, *_promoted(x1, x2))


UniqueAllResult = namedtuple("UniqueAllResult", "values indices inverse_indices counts")
UniqueCountsResult = namedtuple("UniqueCountsResult", "values counts")
UniqueInverseResult = namedtuple("UniqueInverseResult", "values inverse_indices")


def _unique(x, inverse, counts):
    """tensorlib's unique, also for complex x (torch has none): the distinct (real, imag) rows,
    in lexicographic order."""
    if not x.dtype.is_complex:
        return tl.unique(x, return_inverse=inverse, return_counts=counts)
    pairs = tl.stack([x.real.reshape(-1), x.imag.reshape(-1)], dim=1)
    out = tl.unique(pairs, dim=0, return_inverse=inverse, return_counts=counts)
    rows = out[0] if isinstance(out, tuple) else out
    values = _complex(rows[:, 0], rows[:, 1], x.dtype)
    return (values,) + tuple(out[1:]) if isinstance(out, tuple) else values


def unique_all(x, /):
    """The unique elements (sorted; each NaN distinct), the index of each one's first occurrence,
    the inverse indices (x's shape) and the counts."""
    values, inverse, counts = _unique(x, True, True)
    n = x.numel()
    first = tl.full((values.shape[0],), n, dtype=tl.int64, device=x.device)
    first.scatter_reduce_(0, inverse.reshape(-1), tl.arange(n, device=x.device), "amin")
    return UniqueAllResult(values, first, inverse.reshape(x.shape), counts)


def unique_counts(x, /):
    """The unique elements and how often each occurs."""
    values, counts = _unique(x, False, True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x, /):
    """The unique elements and, shaped like x, the index of each element among them."""
    values, inverse = _unique(x, True, False)
    return UniqueInverseResult(values, inverse.reshape(x.shape))


def unique_values(x, /):
    """The unique elements (sorted; each NaN distinct)."""
    return _unique(x, False, False)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """Indices that sort x along axis (stable: ties keep their order)."""
    return tl.argsort(x, dim=axis, descending=descending, stable=True)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """x sorted along axis."""
    return tl.sort(x, dim=axis, descending=descending, stable=True).values


# ---- statistics and utilities -------------------------------------------------------------------------------

def _accum_dtype(x, dtype):
    """The standard's accumulation dtype: small integers (and bool) sum in the default integer."""
    if dtype is None and not (x.dtype.is_floating_point or x.dtype.is_complex):
        return tl.int64
    return dtype


def _reduce(fn, x, axis, keepdims, **kw):
    axes = _axes(axis, x.dim())
    if not axes:  # the standard: no axis, no reduction (torch reduces everything for dim=())
        dtype = kw.get("dtype")
        return x.to(dtype, copy=True) if dtype is not None else x.clone()
    return fn(x, axes, keepdim=keepdims, **kw)


def max(x, /, *, axis=None, keepdims=False):
    """The largest element along axis (all when None)."""
    return _reduce(tl.amax, x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False):
    """The smallest element along axis (all when None)."""
    return _reduce(tl.amin, x, axis, keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    """The arithmetic mean along axis."""
    return _reduce(tl.mean, x, axis, keepdims)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """The sum along axis; integers accumulate in the default integer dtype, floats in their own."""
    return _reduce(tl.sum, x, axis, keepdims, dtype=_accum_dtype(x, dtype))


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """The product along axis; integers accumulate in the default integer dtype."""
    dtype = _accum_dtype(x, dtype)
    axes = _axes(axis, x.dim())
    if len(axes) <= 1 or len(axes) == x.dim():
        if not axes:
            return x.to(dtype, copy=True) if dtype is not None else x.clone()
        if len(axes) == 1:
            return tl.prod(x, axes[0], keepdim=keepdims, dtype=dtype)
        return _keep(tl.prod(x, dtype=dtype), x, axes, keepdims)
    rest = [d for d in range(x.dim()) if d not in axes]
    moved = x.permute(*rest, *axes).reshape([x.shape[d] for d in rest] + [-1])
    return _keep(tl.prod(moved, -1, dtype=dtype), x, axes, keepdims)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The standard deviation along axis with correction (degrees of freedom) subtracted."""
    return _reduce(tl.std, x, axis, keepdims, correction=correction)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The variance along axis with correction (degrees of freedom) subtracted."""
    return _reduce(tl.var, x, axis, keepdims, correction=correction)


def _cumulative(fn, x, axis, dtype, include_initial, initial):
    if axis is None:
        if x.dim() > 1:
            raise ValueError("cumulative functions need axis for arrays of more than one dimension")
        axis = 0
    if x.dim() == 0:
        raise ValueError("cumulative functions need an array of at least one dimension")
    axis = _wrap_dim(axis, x.dim())
    out = fn(x, axis, dtype=_accum_dtype(x, dtype))
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = tl.cat([tl.full(shape, initial, dtype=out.dtype, device=out.device), out], dim=axis)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running sums along axis (a leading 0 when include_initial)."""
    return _cumulative(tl.cumsum, x, axis, dtype, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running products along axis (a leading 1 when include_initial)."""
    return _cumulative(tl.cumprod, x, axis, dtype, include_initial, 1)


def all(x, /, *, axis=None, keepdims=False):
    """True where every element along axis is non-zero."""
    return _reduce(tl.all, x.to(tl.bool), axis, keepdims)


def any(x, /, *, axis=None, keepdims=False):
    """True where some element along axis is non-zero."""
    return _reduce(tl.any, x.to(tl.bool), axis, keepdims)


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """The n-th forward difference along axis, after joining prepend and append to x."""
    axis = _wrap_dim(axis, x.dim())
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = tl.cat(parts, dim=axis)
    for _ in range(n):
        m = x.shape[axis]
        if m == 0:
            break
        a, b = x.narrow(axis, 1, m - 1), x.narrow(axis, 0, m - 1)
        x = tl.logical_xor(a, b) if x.dtype == tl.bool else tl.subtract(a, b)
    return x


def _check_arrays(namespace, arrays_only=("matmul", "tensordot", "vecdot", "searchsorted", "cross", "outer", "solve")):
    """The standard's array parameters take arrays: its functions' positional-only ``x`` (not
    from_dlpack's, any DLPack producer) and both operands of the named non-element-wise ones
    (no Python scalars there) are checked once here, a TypeError naming the argument instead
    of an AttributeError from deep inside."""
    import functools
    import inspect
    for name, fn in list(namespace.items()):
        if name.startswith("_") or name == "from_dlpack" or not inspect.isfunction(fn) or getattr(fn, "_arrays_checked", False):
            continue
        params = [p for p in inspect.signature(fn).parameters.values() if p.kind == p.POSITIONAL_ONLY]
        checked = [i for i, p in enumerate(params) if p.name in ("x", "indices") or (name in arrays_only and p.name in ("x1", "x2"))]
        if not checked:
            continue

        def wrapper(*args, _fn=fn, _checked=checked, _params=params, **kwargs):
            for i in _checked:
                if i < len(args) and not isinstance(args[i], tl.Tensor):
                    raise TypeError(f"{_fn.__name__}(): argument '{_params[i].name}' must be an array "
                                    f"(tensorlib.Tensor), not {type(args[i]).__name__}")
            return _fn(*args, **kwargs)
        wrapper = functools.wraps(fn)(wrapper)
        wrapper._arrays_checked = True
        namespace[name] = wrapper


_check_arrays(globals())
from . import fft, linalg  # noqa: E402,F401  (the extensions)

__all__ = sorted(n for n in globals() if not n.startswith("_") and n not in (
    "builtins", "math", "namedtuple", "tl", "SUPPORTED_VERSIONS", "Array")) + ["__array_namespace_info__"]

# the composed docstrings (tensorlib/_docgen_lazy.py), of this namespace and its extensions
from tensorlib import _docattach  # noqa: E402
_docattach.attach_loaded("tensorlib", "array_api")
