"""Reductions, scans, sorting and searching with torch's signatures.

The C primitives in ``tensorlib._C`` (``_reduce``, ``_reduce_index``, ``_sort``, ``_topk``,
``_scan``, ``_unique``, ``_searchsorted``, ``_histc``) do the work; this module maps torch's
argument forms onto them (overloads such as ``max(x)`` / ``max(x, dim)``, ``std(x, unbiased)``,
``out=``), builds torch's named-tuple return types, and applies seed 003's rule that ops
without named-tensor support refuse named inputs instead of dropping names.

    >>> import tensorlib as tl
    >>> x = tl.tensor([[1., 5.], [3., 2.]])
    >>> x.sum(0).tolist(), x.max(1).indices.tolist()
    ([4.0, 7.0], [1, 0])
"""
import builtins
import math
import numbers as _numbers
from collections import namedtuple

from . import _C
from ._tensor import Tensor
from ._util import dim_index, legacy_type, no_names

__all__ = [
    "sum", "nansum", "prod", "mean", "nanmean", "std", "var", "std_mean", "var_mean",
    "max", "min", "amax", "amin", "aminmax", "argmax", "argmin", "median", "nanmedian", "mode",
    "kthvalue", "logsumexp", "all", "any", "count_nonzero", "cumsum", "cumprod", "cummax", "cummin",
    "logcumsumexp", "histc", "norm", "sort", "argsort", "msort", "topk", "unique", "searchsorted", "bucketize",
    "return_types",
]

# op codes shared with csrc/ops/reduce.h, csrc/ops/sort.h
# The op codes come from the C enums (csrc/ops/reduce.h, sort.h), so the two cannot drift.
_CODES = _C._reduce_op_codes()
(_SUM, _NANSUM, _PROD, _MEAN, _NANMEAN, _VAR, _STD, _MAX, _MIN, _AMAX, _AMIN, _ARGMAX, _ARGMIN,
 _ALL, _ANY, _COUNT_NONZERO, _NORM, _LOGSUMEXP, _AMINMAX_MIN, _AMINMAX_MAX) = (_CODES[k] for k in (
    "SUM", "NANSUM", "PROD", "MEAN", "NANMEAN", "VAR", "STD", "MAX", "MIN", "AMAX", "AMIN", "ARGMAX", "ARGMIN",
    "ALL", "ANY", "COUNT_NONZERO", "NORM", "LOGSUMEXP", "AMINMAX_MIN", "AMINMAX_MAX"))
_IDX_MAX, _IDX_MIN, _IDX_KTH, _IDX_MEDIAN, _IDX_NANMEDIAN, _IDX_MODE = (_CODES[k] for k in (
    "IDX_MAX", "IDX_MIN", "IDX_KTHVALUE", "IDX_MEDIAN", "IDX_NANMEDIAN", "IDX_MODE"))
_CUMSUM, _CUMPROD, _CUMMAX, _CUMMIN, _LOGCUMSUMEXP = (_CODES[k] for k in ("CUMSUM", "CUMPROD", "CUMMAX", "CUMMIN",
                                                                         "LOGCUMSUMEXP"))


class _NoDim:
    """Default of ``dim`` for the reductions whose torch overloads take no ``dim=None``:
    leaving dim out reduces everything, passing None is torch's TypeError."""

    def __repr__(self):
        return "<all dims>"


_NO_DIM = _NoDim()


def _explicit_none(op, dim):
    """dim: the argument as given; None when left out. torch's TypeError for an explicit None."""
    if dim is None:
        raise TypeError(f"{op}(): argument 'dim' must be int, not NoneType")
    return None if dim is _NO_DIM else dim


class _ReturnTypes:
    """torch.return_types: named tuples returned by ops with several results."""


def _return_type_repr(self):
    """torch's print of its return types: the qualified name, then one field a line."""
    return "tensorlib.return_types.%s(\n%s)" % (type(self).__name__, ",\n".join(
        "%s=%r" % kv for kv in zip(self._fields, self)))


def add_return_type(name, fields):
    """Registers tensorlib.return_types.<name>, a named tuple with the given fields."""
    cls = namedtuple(name, fields)
    cls.__module__ = "tensorlib.return_types"
    cls.__repr__ = _return_type_repr
    setattr(return_types, name, cls)


return_types = _ReturnTypes()
for _name, _fields in [("max", "values indices"), ("min", "values indices"), ("median", "values indices"),
                       ("nanmedian", "values indices"), ("mode", "values indices"),
                       ("kthvalue", "values indices"), ("sort", "values indices"), ("topk", "values indices"),
                       ("cummax", "values indices"), ("cummin", "values indices"), ("aminmax", "min max"),
                       ("frexp", "mantissa exponent"), ("frexp_out", "mantissa exponent")]:
    add_return_type(_name, _fields)
del _name, _fields

# ops with a name rule (seed 003, or torch 1.13 named-tensor support: cummax/cummin keep input
# names, std_mean/var_mean remove dims like std/var)
_NAMED_OK = {"sum", "mean", "prod", "std", "var", "median", "nanmedian", "mode", "max", "min", "argmax",
             "argmin", "kthvalue", "logsumexp", "cumsum", "cumprod", "cummax", "cummin", "std_mean", "var_mean",
             "histc", "all", "any", "logcumsumexp"}


def _unnamed(op, *tensors):
    if op not in _NAMED_OK:
        no_names(op, *(t for t in tensors if isinstance(t, _C.TensorBase)))


def _check_tensor(op, x):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


# out= dtype rules of torch 2.13's reductions (each checked against torch):
#   accumulate: out's dtype becomes the accumulation dtype (sum(float x, out=int64) sums int64 values)
#   cast:       the result is cast into out where can_cast allows ("result type Float can't be cast ...")
#   input:      out's dtype must equal the input's (amax/amin)
#   otherwise:  out's dtype must equal the result's ("Expected out tensor to have dtype float, ...")
_OUT_ACCUMULATE = {"sum", "nansum", "prod", "cumsum", "cumprod"}
_OUT_CAST = {"mean", "nanmean", "std", "var", "max", "min", "median", "nanmedian"}  # (not the (values, indices) forms)


def _accumulate_dtype(op, dtype, out):
    """dtype= of a sum-like op given out=: out's dtype unless dtype= says otherwise (then they must agree)."""
    if out is None or op not in _OUT_ACCUMULATE or not isinstance(out, _C.TensorBase):
        return dtype
    if dtype is not None and dtype != out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {dtype._typemeta}, but got {out.dtype._typemeta} instead")
    return out.dtype


def _check_pair_out(op, result, out):
    """out=(values, indices) dtype checks with the message of each torch kernel, all before anything
    is written (torch resizes the values output of some kernels before it rejects the indices one)."""
    for o in out:
        if not isinstance(o, _C.TensorBase):
            raise TypeError(f"{op}(): argument 'out' must be tuple of Tensors, not {type(o).__name__}")
    (rv, ri), (v, i) = result, out
    if op in ("median", "nanmedian"):  # torch checks the indices first here
        if i.dtype != ri.dtype:
            raise RuntimeError(f"Expected tensor for argument #1 'indices' to have scalar type Long; but got "
                               f"{legacy_type(i.dtype)} instead (while checking arguments for median)")
        if v.dtype != rv.dtype:
            raise RuntimeError(f"Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; "
                               f"but type {legacy_type(v.dtype)} does not equal {legacy_type(rv.dtype)} "
                               "(while checking arguments for median)")
    elif op == "kthvalue":
        if v.dtype != rv.dtype:
            raise RuntimeError("output values must be of same type as input")
        if i.dtype != ri.dtype:
            raise RuntimeError("output indices must be of scalar type Long")
    elif op in ("cummax", "cummin"):
        for r, o in ((rv, v), (ri, i)):
            if o.dtype != r.dtype:
                raise RuntimeError(f"expected scalar_type {r.dtype._cname} but found {o.dtype._cname}")
    elif op == "mode":
        for r, o, what in ((rv, v, "values"), (ri, i, "indices")):
            if o.dtype != r.dtype:
                raise RuntimeError(f"expected scalar type '{r.dtype._cname}' but got '{o.dtype._cname}' for {what} output")
    else:
        for r, o in zip(result, out):
            if o.dtype != r.dtype:
                raise RuntimeError(f"Expected out tensor to have dtype {r.dtype._typemeta}, but got {o.dtype._typemeta} "
                                   "instead")


def _check_out_device(op, result, out):
    """torch's errors for an out= on another device than the result (checked against torch's meta
    tensors): the (values, indices) and argmax/argmin kernels check out's device, the others fail
    copying their result into out."""
    pairs = zip(result, out) if isinstance(result, tuple) and isinstance(out, (tuple, list)) else [(result, out)]
    for r, o in pairs:
        if isinstance(o, _C.TensorBase) and isinstance(r, _C.TensorBase) and o.device != r.device:
            if isinstance(result, tuple) or op in ("argmax", "argmin"):
                raise RuntimeError(f"Expected out tensor to have device {r.device}, but got {o.device} instead")
            raise RuntimeError(f"Attempting to copy from device {r.device.type} to device {o.device.type}, but "
                               "cross-device copies are not allowed!")


def _write_out(op, result, out):
    """torch's out= semantics: result written into out (resized with torch's warning when its shape
    differs, names per seed 003), out returned; dtype rules above."""
    if out is None:
        return result
    _check_out_device(op, result, out)
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"{op}(): argument 'out' must be tuple of {len(result)} Tensors")
        _check_pair_out(op, result, out)  # every dtype before anything is written
        return type(result)(*[_C._write_out(r, o, op, True) for r, o in zip(result, out)])
    if not isinstance(out, _C.TensorBase):
        raise TypeError(f"{op}(): argument 'out' must be Tensor, not {type(out).__name__}")
    exact = True
    if op in ("amax", "amin") and out.dtype != result.dtype:
        raise RuntimeError(f"Expected the dtype for input and out to match, but got {result.dtype._cname} for input's "
                           f"dtype and {out.dtype._cname} for out's dtype.")
    if op == "logsumexp":
        if not out.dtype.is_floating_point:
            raise RuntimeError(f"logsumexp(): Expected floating point type for result tensor, but got: {out.dtype._cname}")
        exact = False
    elif op in ("all", "any"):
        if out.dtype not in (_C.bool, _C.uint8):
            raise RuntimeError(f"{op} only supports bool tensor for result, got: {out.dtype._cname}")
        result = result.to(out.dtype)  # bool <-> uint8 either way
    elif op in _OUT_CAST or op in _OUT_ACCUMULATE:
        exact = False
    return _C._write_out(result, out, op, exact)


def _reduce(op, code, x, dim, keepdim, dtype, out, param=0.0):
    _check_tensor(op, x)
    _unnamed(op, x)
    dtype = _accumulate_dtype(op, dtype, out)
    return _write_out(op, _C._reduce(x, code, dim, bool(keepdim), dtype, float(param)), out)


# ---- sums and means ------------------------------------------------------------------

def sum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """sum(input, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor

    Sum of input's elements over ``dim`` (an int, a dimension name or a sequence of them;
    None sums every element). keepdim keeps the reduced dims with size 1; dtype casts input
    first (bool and integer inputs sum as int64 by default). The reduced dims' names are
    dropped. Sparse COO and compressed inputs sum too.

        >>> x = tl.tensor([[1., 2.], [3., 4.]])
        >>> tl.sum(x)
        tensor(10.)
        >>> x.sum(dim=0)
        tensor([4., 6.])
    """
    return _reduce("sum", _SUM, input, dim, keepdim, dtype, out)


def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Sum treating NaN as zero."""
    return _reduce("nansum", _NANSUM, input, dim, keepdim, dtype, out)


def prod(input, dim=_NO_DIM, keepdim=False, *, dtype=None, out=None):
    """prod(input, dim, keepdim=False, *, dtype=None, out=None) -> Tensor

    Product of input's elements over one dim (an int or a name), or of every element when
    dim is left out. keepdim keeps the reduced dim with size 1; dtype casts input first
    (bool and integer inputs multiply as int64 by default). The reduced dim's name is dropped.

        >>> tl.prod(tl.tensor([1, 2, 3, 4]))
        tensor(24)
    """
    dim = _explicit_none("prod", dim)
    if isinstance(dim, (tuple, list)):
        raise TypeError("prod(): argument 'dim' must be int, not " + type(dim).__name__)
    return _reduce("prod", _PROD, input, dim, keepdim, dtype, out)


def mean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """mean(input, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor

    Arithmetic mean over ``dim`` (an int, a name or a sequence of them; None: every element).
    input, or the dtype= it is cast to, must be floating point or complex. The reduced dims'
    names are dropped.

        >>> tl.mean(tl.tensor([[1., 2.], [3., 4.]]), dim=1)
        tensor([1.5000, 3.5000])
    """
    return _reduce("mean", _MEAN, input, dim, keepdim, dtype, out)


def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Mean of the non-NaN elements."""
    return _reduce("nanmean", _NANMEAN, input, dim, keepdim, dtype, out)


def _correction(op, dim, unbiased, correction):
    if isinstance(dim, builtins.bool):  # std(x, unbiased)
        if unbiased is not None:
            raise TypeError(f"{op}() received an invalid combination of arguments")
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise RuntimeError(f"{op}: can't specify both unbiased and correction")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    return dim, float(correction)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None) -> Tensor

    Variance over dim (an int, a name or a sequence of them; None: every element), dividing
    by N - correction (correction=1, Bessel's, by default; unbiased=False means 0). The
    reduced dims' names are dropped. Strided input only.

        >>> tl.var(tl.tensor([[1., 5.], [3., 2.]]), dim=0)
        tensor([2.0000, 4.5000])
    """
    dim, c = _correction("var", dim, unbiased, correction)
    return _reduce("var", _VAR, input, dim, keepdim, None, out, c)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None) -> Tensor

    Standard deviation, the square root of var with the same arguments (correction=1 by
    default). The reduced dims' names are dropped. Strided input only.

        >>> tl.std(tl.tensor([1., 2., 3., 4.]))
        tensor(1.2910)
    """
    dim, c = _correction("std", dim, unbiased, correction)
    return _reduce("std", _STD, input, dim, keepdim, None, out, c)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) over the same dims."""
    dim, c = _correction("var_mean", dim, unbiased, correction)
    _unnamed("var_mean", input)
    r = (_C._reduce(input, _VAR, dim, builtins.bool(keepdim), None, c),
         _C._reduce(input, _MEAN, dim, builtins.bool(keepdim), None, 0.0))
    return r


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) over the same dims."""
    dim, c = _correction("std_mean", dim, unbiased, correction)
    _unnamed("std_mean", input)
    r = (_C._reduce(input, _STD, dim, builtins.bool(keepdim), None, c),
         _C._reduce(input, _MEAN, dim, builtins.bool(keepdim), None, 0.0))
    return r


def logsumexp(input, dim, keepdim=False, *, out=None):
    """log(sum(exp(x))) computed stably (integers promote to the default float)."""
    return _reduce("logsumexp", _LOGSUMEXP, input, dim, keepdim, None, out)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """Vector p-norm over dim ('fro' is the 2-norm of the elements; inf, -inf, 0 and any real p);
    p='nuc' (and 'fro' over more than two dims) is torch's matrix norm (tensorlib.linalg.matrix_norm)."""
    if p is None or (p == "fro" and not (isinstance(dim, (tuple, list)) and len(dim) > 2)):
        p = 2.0
    elif isinstance(p, str):  # 'nuc', or 'fro' over more than two dims: torch's matrix_norm
        from ._linalg import _norm_str
        return _norm_str(input, p, dim, keepdim, out, dtype)
    if isinstance(input, _C.TensorBase) and p in (math.inf, -math.inf) and input.numel() == 0:
        if dim is None or dim == () or dim == []:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {p} norm on an empty tensor because "
                               f"the operation does not have an identity")
        for d in (dim if isinstance(dim, (tuple, list)) else (dim,)):
            if input.size(d) == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {p} norm on the dimension {d}"
                                   f"because this dimension is empty and the operation does not have an identity")
    return _reduce("norm", _NORM, input, dim, keepdim, dtype, out, float(p))


# ---- extrema -----------------------------------------------------------------------------

def _minmax(op, code, idx_code, input, dim, keepdim, out, other=None):
    _check_tensor(op, input)
    dim = _explicit_none(op, dim)
    if isinstance(dim, _C.TensorBase) or other is not None:
        other = dim if other is None else other
        fn = getattr(_C, "maximum" if op == "max" else "minimum", None)
        if fn is None:
            raise RuntimeError(f"{op}(input, other) needs the elementwise engine (maximum/minimum)")
        return fn(input, other, out=out) if out is not None else fn(input, other)
    _unnamed(op, input)
    if dim is None:
        if keepdim:
            raise TypeError(f"{op}() received an invalid combination of arguments - keepdim needs dim")
        return _write_out(op, _C._reduce(input, code, None, False, None, 0.0), out)
    if isinstance(dim, (tuple, list)):
        raise TypeError(f"{op}(): argument 'dim' must be int, not {type(dim).__name__}")
    r = _C._reduce_index(input, idx_code, dim, builtins.bool(keepdim), 0)
    return _write_out(op, getattr(return_types, op)(*r), out)


def max(input, dim=_NO_DIM, keepdim=False, *, out=None, other=None):
    """max(x): largest element (NaN if any); max(x, dim): (values, indices); max(x, other): maximum."""
    return _minmax("max", _MAX, _IDX_MAX, input, dim, keepdim, out, other)


def min(input, dim=_NO_DIM, keepdim=False, *, out=None, other=None):
    """min(x): smallest element (NaN if any); min(x, dim): (values, indices); min(x, other): minimum."""
    return _minmax("min", _MIN, _IDX_MIN, input, dim, keepdim, out, other)


def amax(input, dim=(), keepdim=False, *, out=None):
    """amax(input, dim=(), keepdim=False, *, out=None) -> Tensor

    Largest values over dim (an int or a sequence of ints; every dim when empty); a NaN
    gives NaN. Unlike max(input, dim) it returns no indices. Unnamed, strided input only.

        >>> tl.amax(tl.tensor([[1., 5.], [3., 2.]]), dim=1)
        tensor([5., 3.])
    """
    return _reduce("amax", _AMAX, input, dim, keepdim, None, out)


def amin(input, dim=(), keepdim=False, *, out=None):
    """amin(input, dim=(), keepdim=False, *, out=None) -> Tensor

    Smallest values over dim (an int or a sequence of ints; every dim when empty); a NaN
    gives NaN. Unlike min(input, dim) it returns no indices. Unnamed, strided input only.

        >>> tl.amin(tl.tensor([[1., 5.], [3., 2.]]))
        tensor(1.)
    """
    return _reduce("amin", _AMIN, input, dim, keepdim, None, out)


def aminmax(input, *, dim=None, keepdim=False, out=None):
    """(min, max) over one dim or every element."""
    _check_tensor("aminmax", input)
    _unnamed("aminmax", input)
    if isinstance(dim, (tuple, list)):
        raise TypeError("aminmax(): argument 'dim' must be int, not " + type(dim).__name__)
    kd = builtins.bool(keepdim)
    r = return_types.aminmax(_C._reduce(input, _AMINMAX_MIN, dim, kd, None, 0.0),
                             _C._reduce(input, _AMINMAX_MAX, dim, kd, None, 0.0))
    return _write_out("aminmax", r, out)


def _arg_extreme(op, code, input, dim, keepdim, out):
    """argmax/argmin. Without dim: over the flattened input, a 0-d result (all names removed, as
    every full reduction) or, with keepdim, size-1 dims that keep the input's names."""
    _check_tensor(op, input)
    if dim is None:
        plain = input.rename(None) if input.has_names() else input
        r = _C._reduce(plain.reshape(-1) if plain.dim() else plain, code, None, False, None, 0.0)
        if keepdim:
            r = r.reshape([1] * input.dim())
            if input.has_names():
                r = r.refine_names(*input.names)
        return _write_out(op, r, out)
    return _reduce(op, code, input, dim, keepdim, None, out)


def argmax(input, dim=None, keepdim=False, *, out=None):
    """argmax(input, dim=None, keepdim=False, *, out=None) -> Tensor

    int64 index of the first maximum along dim, or into the flattened input when dim is
    None; NaN counts as the maximum. Drops the reduced dim's name. Strided input only.

        >>> x = tl.tensor([[1., 5.], [3., 2.]])
        >>> tl.argmax(x), tl.argmax(x, dim=1)
        (tensor(1), tensor([1, 0]))
    """
    return _arg_extreme("argmax", _ARGMAX, input, dim, keepdim, out)


def argmin(input, dim=None, keepdim=False, *, out=None):
    """Index of the first minimum; NaN counts as minimal (torch's rule)."""
    return _arg_extreme("argmin", _ARGMIN, input, dim, keepdim, out)


# ---- order statistics ------------------------------------------------------------------

def _full_stat(op, code, input):
    """median()/nanmedian() of every element: the value only."""
    _check_tensor(op, input)
    _unnamed(op, input)
    flat = input.rename(None).reshape(-1) if input.has_names() else input.reshape(-1)
    if flat.numel() == 0:
        # NaN cast like any float -> int conversion (torch gives INT64_MIN for int64)
        return _C.full((), math.nan, dtype=_C.float64).to(input.dtype)
    return _C._reduce_index(flat, code, 0, False, -1)[0]


def median(input, dim=_NO_DIM, keepdim=False, *, out=None):
    """Lower median; with dim: (values, indices). NaN if the reduced elements hold a NaN."""
    dim = _explicit_none("median", dim)
    if dim is None:
        if out is not None:  # torch has no out= form without dim
            raise TypeError('median() missing 1 required positional arguments: "dim"')
        return _full_stat("median", _IDX_MEDIAN, input)
    _check_tensor("median", input)
    _unnamed("median", input)
    return _write_out("median", return_types.median(*_C._reduce_index(input, _IDX_MEDIAN, dim, keepdim, 0)), out)


def nanmedian(input, dim=_NO_DIM, keepdim=False, *, out=None):
    """Median ignoring NaN; with dim: (values, indices)."""
    dim = _explicit_none("nanmedian", dim)
    if dim is None:
        if out is not None:  # torch has no out= form without dim
            raise TypeError('nanmedian() missing 1 required positional arguments: "dim"')
        return _full_stat("nanmedian", _IDX_NANMEDIAN, input)
    _check_tensor("nanmedian", input)
    _unnamed("nanmedian", input)
    r = _C._reduce_index(input, _IDX_NANMEDIAN, dim, keepdim, 0)
    return _write_out("nanmedian", return_types.nanmedian(*r), out)


def _zero_dim_pair(op, input, dim, k=1):
    """torch answers a 0-d input of any dtype before dispatching on dtype: (input, 0)."""
    if op in ("cummax", "cummin"):
        if (dim_index(input, dim) if isinstance(dim, str) else dim) not in (-1, 0):
            raise IndexError(f"{op}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    else:
        dim_index(input, dim)
    if k != 1:
        raise RuntimeError(f"{op}(): selected number k out of range for dimension 0")
    return input.clone(), _C.zeros((), dtype=_C.int64, device=input.device)


def mode(input, dim=-1, keepdim=False, *, out=None):
    """Most frequent value along dim (smallest on ties) and an index where it occurs."""
    _check_tensor("mode", input)
    _unnamed("mode", input)
    if input.dim() == 0:
        return _write_out("mode", return_types.mode(*_zero_dim_pair("mode", input, dim)), out)
    return _write_out("mode", return_types.mode(*_C._reduce_index(input, _IDX_MODE, dim, keepdim, 0)), out)


def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """k-th smallest element along dim (1-based) and its index."""
    _check_tensor("kthvalue", input)
    _unnamed("kthvalue", input)
    if input.dim() == 0:
        return _write_out("kthvalue", return_types.kthvalue(*_zero_dim_pair("kthvalue", input, dim, k)), out)
    return _write_out("kthvalue", return_types.kthvalue(*_C._reduce_index(input, _IDX_KTH, dim, keepdim, k)), out)


# ---- logical ------------------------------------------------------------------------------

def _truth_no_dims(op, input, out):
    """all/any over an empty dim list reduce nothing (torch 2.13): each element's truth."""
    _check_tensor(op, input)
    r = (input != 0).contiguous()
    return _write_out(op, r.to(_C.uint8) if input.dtype == _C.uint8 else r, out)


def all(input, dim=None, keepdim=False, *, out=None):
    """True when every element is non-zero (uint8 inputs give uint8); dim=() reduces nothing."""
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        return _truth_no_dims("all", input, out)
    return _reduce("all", _ALL, input, dim, keepdim, None, out)


def any(input, dim=None, keepdim=False, *, out=None):
    """True when some element is non-zero (uint8 inputs give uint8); dim=() reduces nothing."""
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        return _truth_no_dims("any", input, out)
    return _reduce("any", _ANY, input, dim, keepdim, None, out)


def count_nonzero(input, dim=None):
    """Number of non-zero elements over dim (int or tuple; None: all)."""
    _check_tensor("count_nonzero", input)
    _unnamed("count_nonzero", input)
    return _C._reduce(input, _COUNT_NONZERO, dim, False, None, 0.0)


# ---- scans -----------------------------------------------------------------------------

def cumsum(input, dim, *, dtype=None, out=None):
    """cumsum(input, dim, *, dtype=None, out=None) -> Tensor

    Running sums along dim (an int or a name): element i is the sum of elements 0..i.
    Integer and bool inputs accumulate in int64 unless dtype= says otherwise. Keeps names.
    Strided input only.

        >>> tl.cumsum(tl.tensor([1, 2, 3]), dim=0)
        tensor([1, 3, 6])
    """
    _check_tensor("cumsum", input)
    return _write_out("cumsum", _C._scan(input, _CUMSUM, dim, _accumulate_dtype("cumsum", dtype, out)), out)


def cumprod(input, dim, *, dtype=None, out=None):
    """Cumulative product along dim."""
    _check_tensor("cumprod", input)
    return _write_out("cumprod", _C._scan(input, _CUMPROD, dim, _accumulate_dtype("cumprod", dtype, out)), out)


def cummax(input, dim, *, out=None):
    """Running maximum along dim and the index where it was reached (last on ties)."""
    _check_tensor("cummax", input)
    _unnamed("cummax", input)
    if input.dim() == 0:
        return _write_out("cummax", return_types.cummax(*_zero_dim_pair("cummax", input, dim)), out)
    return _write_out("cummax", return_types.cummax(*_C._scan(input, _CUMMAX, dim, None)), out)


def cummin(input, dim, *, out=None):
    """Running minimum along dim and its index."""
    _check_tensor("cummin", input)
    _unnamed("cummin", input)
    if input.dim() == 0:
        return _write_out("cummin", return_types.cummin(*_zero_dim_pair("cummin", input, dim)), out)
    return _write_out("cummin", return_types.cummin(*_C._scan(input, _CUMMIN, dim, None)), out)


def logcumsumexp(input, dim, *, out=None):
    """Running log(sum(exp(x))) along dim, by torch's numerically stable step (the larger
    operand factored out); floating and complex64/128 dtypes, the result of input's dtype."""
    _check_tensor("logcumsumexp", input)
    if isinstance(dim, bool) or not isinstance(dim, (_numbers.Integral, str)):
        raise TypeError(f"logcumsumexp(): argument 'dim' (position 2) must be int, not {type(dim).__name__}")
    if out is not None and isinstance(out, _C.TensorBase) and out.dtype != input.dtype:
        raise RuntimeError(f"expected scalar_type {input.dtype._cname} but found {out.dtype._cname}")
    return _write_out("logcumsumexp", _C._scan(input, _LOGCUMSUMEXP, dim, None), out)


def histc(input, bins=100, min=0, max=0, *, out=None):
    """Histogram with equal-width bins over [min, max] (the data range when min == max)."""
    _check_tensor("histc", input)
    return _write_out("histc", _C._histc(input, bins, float(min), float(max)), out)


# ---- sorting ---------------------------------------------------------------------------

def sort(input, dim=-1, descending=False, stable=False, *, out=None):
    """Sorted values and their indices along dim (always stable; NaN sorts as the largest)."""
    _check_tensor("sort", input)
    _unnamed("sort", input)
    return _write_out("sort", return_types.sort(*_C._sort(input, dim, builtins.bool(descending))), out)


def argsort(input, dim=-1, descending=False, stable=False):
    """Indices that sort input along dim."""
    _check_tensor("argsort", input)
    _unnamed("argsort", input)
    return _C._sort(input, dim, builtins.bool(descending))[1]


def msort(input, *, out=None):
    """Sort along the first dim (values only)."""
    _check_tensor("msort", input)
    _unnamed("msort", input)
    return _write_out("msort", _C._sort(input, 0, False)[0], out)


def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    """The k largest (or smallest) elements along dim with their indices; in order when sorted,
    else in the order torch's selection leaves them. Equal values come in torch's order."""
    _check_tensor("topk", input)
    _unnamed("topk", input)
    if input.is_complex():
        raise RuntimeError(" topk does not support complex dtypes on CPU")  # torch's text, leading space included
    return _write_out("topk", return_types.topk(*_C._topk(input, k, dim, builtins.bool(largest), builtins.bool(sorted))),
                      out)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Unique elements of the flattened input, or unique slices along dim (always sorted,
    as torch's CPU kernel), optionally inverse and counts."""
    _check_tensor("unique", input)
    _unnamed("unique", input)
    if dim is not None:
        from ._unique import unique_dim
        return unique_dim(input, dim, return_inverse, return_counts)
    from ._unique import _pack
    v, inv, cnt = _C._unique(input, builtins.bool(return_inverse), builtins.bool(return_counts))
    return _pack(v, inv, cnt, return_inverse, return_counts)


def _as_values(values, like):
    if isinstance(values, _C.TensorBase):
        return values
    from ._factories import tensor
    return tensor(values, dtype=like.dtype if isinstance(values, float) == like.dtype.is_floating_point else None)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    """Insertion indices of input in the innermost dim of sorted_sequence (left, or right=True)."""
    _check_tensor("searchsorted", sorted_sequence)
    _unnamed("searchsorted", sorted_sequence, input)
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of "
                               "left while right was True")
        right = side == "right"
    values = _as_values(input, sorted_sequence)
    r = _C._searchsorted(sorted_sequence, values, sorter, builtins.bool(right), builtins.bool(out_int32))
    return _write_out("searchsorted", r, out)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """Index of the bucket of each input element given 1-D sorted boundaries."""
    _check_tensor("bucketize", boundaries)
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    _unnamed("bucketize", input, boundaries)
    values = _as_values(input, boundaries)
    r = _C._searchsorted(boundaries, values, None, builtins.bool(right), builtins.bool(out_int32))
    return _write_out("bucketize", r, out)


# ---- Tensor methods ---------------------------------------------------------------------

def _numpy_keywords(kwargs):
    """NumPy's spellings in a reduction method's keywords: torch's aliases axis -> dim and
    keepdims -> keepdim, and dtype given as a NumPy dtype (dask calls chunk.sum(axis=,
    dtype=np.float64, keepdims=) on its chunks)."""
    if "axis" in kwargs:
        kwargs["dim"] = kwargs.pop("axis")
    if "keepdims" in kwargs:
        kwargs["keepdim"] = kwargs.pop("keepdims")
    if kwargs.get("dtype") is not None:
        from ._factories import _dtype_of_numpy
        kwargs["dtype"] = _dtype_of_numpy(kwargs["dtype"])
    return kwargs


def _method(fn):
    def m(self, *args, **kwargs):
        if kwargs:
            kwargs = _numpy_keywords(kwargs)
        return fn(self, *args, **kwargs)
    m.__name__ = fn.__name__
    m.__qualname__ = "Tensor." + fn.__name__
    m.__doc__ = fn.__doc__
    return m


def _scan_inplace(fn):
    def m(self, dim, *, dtype=None):
        if dtype is not None and dtype != self.dtype:
            raise RuntimeError(f"Bad in-place call: input tensor dtype {self.dtype._typemeta} and output tensor dtype "
                               f"{dtype._typemeta} should match")
        return fn(self, dim, dtype=self.dtype, out=self)  # torch passes self's dtype (so bool raises)
    m.__name__ = m.__qualname__ = fn.__name__ + "_"
    m.__qualname__ = "Tensor." + m.__name__
    m.__doc__ = f"In-place {fn.__name__}: self accumulates in its own dtype and keeps its names."
    return m


for _fn in (sum, nansum, prod, mean, nanmean, std, var, logsumexp, norm, max, min, amax, amin, aminmax,
            argmax, argmin, median, nanmedian, mode, kthvalue, all, any, count_nonzero, cumsum, cumprod,
            cummax, cummin, logcumsumexp, histc, sort, argsort, msort, topk, unique):
    setattr(Tensor, _fn.__name__, _method(_fn))
for _fn in (cumsum, cumprod):
    setattr(Tensor, _fn.__name__ + "_", _scan_inplace(_fn))
del _fn
