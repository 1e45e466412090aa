"""NumPy's dispatch protocols on Tensor: ``__array_ufunc__`` and ``__array_function__``.

The rule, decided once (docs/interop.md, "Mixing with NumPy"):

- A NumPy ufunc called on tensors (``np.sqrt(t)``, ``np.add(t, 1)``, ``ndarray + t``) runs
  tensorlib's kernel and returns a tensor, with torch's type promotion: exactly what the
  tensorlib function of the same meaning returns. ndarrays among the operands take part as
  tensors (shared memory). ``out=`` may name tensors or ndarrays; it is written in place and
  returned, as NumPy does.
- Ufunc calls tensorlib has no kernel for (``np.spacing``, ``np.add.reduce``, ``where=``,
  ``casting=``...) run in NumPy on zero-copy views of the tensors; array results come back
  as tensors, so code that mixes the two keeps tensors either way.
- A curated set of NumPy functions (``np.mean``, ``np.sum``, ``np.concatenate``,
  ``np.where``, ... the keys of ``_FUNCTIONS``) runs as tensorlib's function and returns
  tensors (``axis``/``keepdims`` translated to ``dim``/``keepdim``). Every other NumPy
  function runs NumPy's own implementation and returns what NumPy returns (ndarrays), so
  libraries that call ``np.atleast_1d`` or ``np.copy`` on our tensors see what they expect.
"""
import builtins

from . import _C
from ._factories import _numpy



def _tl():
    import tensorlib
    return tensorlib


# ---- ufuncs ----------------------------------------------------------------------------

# NumPy ufunc name -> tensorlib function name. Only ufuncs whose meaning is the same in both
# (NumPy's remainder and floor_divide follow Python's signs, as torch's do).
_UFUNCS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "true_divide",
    "true_divide": "true_divide", "floor_divide": "floor_divide", "remainder": "remainder",
    "fmod": "fmod", "power": "pow", "float_power": "float_power", "negative": "neg",
    "positive": "positive", "absolute": "abs", "fabs": "abs", "sign": "sign", "sqrt": "sqrt",
    "square": "square", "reciprocal": "reciprocal", "exp": "exp", "exp2": "exp2", "expm1": "expm1",
    "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos",
    "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh",
    "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
    "arctan2": "atan2", "hypot": "hypot", "deg2rad": "deg2rad", "radians": "deg2rad",
    "rad2deg": "rad2deg", "degrees": "rad2deg", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
    "rint": "round", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite", "signbit": "signbit",
    "copysign": "copysign", "nextafter": "nextafter", "logaddexp": "logaddexp", "maximum": "maximum",
    "minimum": "minimum", "fmax": "fmax", "fmin": "fmin", "equal": "eq", "not_equal": "ne",
    "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge",
    "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
    "logical_not": "logical_not", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor", "invert": "bitwise_not", "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift", "matmul": "matmul", "conjugate": "conj_physical",
    "heaviside": "heaviside", "gcd": "gcd", "lcm": "lcm", "ldexp": "ldexp",
}


def _is_array(o):
    return type(o) is _numpy().ndarray


def _operand(o):
    """A ufunc operand for tensorlib: ndarrays as tensors; tensors and scalars unchanged."""
    if _is_array(o):
        if o.dtype.kind in "OUSVMm":
            return None
        from ._factories import as_tensor
        return as_tensor(o)
    if isinstance(o, _C.TensorBase) or isinstance(o, (bool, int, float, complex)) \
            or isinstance(o, _numpy().generic):
        return o
    return None


def _to_numpy(o):
    """o with tensors replaced by ndarrays sharing their memory (recursively in tuples/lists)."""
    if isinstance(o, _C.TensorBase):
        return o.numpy()
    if isinstance(o, tuple):
        return tuple(_to_numpy(x) for x in o)
    if isinstance(o, list):
        return [_to_numpy(x) for x in o]
    return o


def _wrap(r, keep=()):
    """NumPy results as tensors: arrays and NumPy scalars; `keep` objects (the caller's own
    out= arrays) are returned as they are."""
    np = _numpy()
    if builtins.any(r is k for k in keep):
        return r
    if isinstance(r, np.ndarray) and r.dtype.kind in "biufc":
        from ._factories import as_tensor
        return as_tensor(r)
    if isinstance(r, np.generic) and r.dtype.kind in "biufc":
        from ._factories import tensor
        return tensor(r)
    if isinstance(r, tuple):
        return tuple(_wrap(x, keep) for x in r)
    return r


def _ufunc_fallback(ufunc, method, inputs, kwargs):
    out = kwargs.get("out")
    keep = tuple(o for o in out if o is not None) if isinstance(out, tuple) else ()
    kw = dict(kwargs)
    if out is not None:
        kw["out"] = _to_numpy(out)
    r = getattr(ufunc, method)(*_to_numpy(inputs), **kw)
    if out is not None:  # NumPy returned its views of our outs: hand back the caller's objects
        return keep[0] if ufunc.nout == 1 and len(keep) == 1 else _wrap(r, keep)
    return _wrap(r)


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy ufuncs on tensors run tensorlib's kernels and return tensors (module docstring)."""
    name = _UFUNCS.get(ufunc.__name__)
    out = kwargs.pop("out", None)
    dtype = kwargs.pop("dtype", None)
    ops = [_operand(x) for x in inputs]
    if (name is None or method != "__call__" or kwargs or builtins.any(o is None for o in ops)
            or (out is not None and (len(out) != 1 or _operand(out[0]) is None))):
        if out is not None:
            kwargs["out"] = out
        if dtype is not None:
            kwargs["dtype"] = dtype
        return _ufunc_fallback(ufunc, method, inputs, kwargs)
    tl = _tl()
    fn = getattr(tl, name)
    if dtype is not None:
        dt = tl._factories._dtype_of_numpy(dtype)
        ops = [o.to(dt) if isinstance(o, _C.TensorBase) else o for o in ops]
    if not isinstance(ops[0], _C.TensorBase):
        # tensorlib's functions take a tensor first (np.subtract(1, t), or only scalars with a
        # tensor out=): a 0-d tensor promotes as the scalar would
        ops[0] = tl.tensor(ops[0])
    r = fn(*ops)
    if out is None:
        return r
    _operand(out[0]).copy_(r)
    return out[0]


# ---- functions -------------------------------------------------------------------------

def _red(tl_name, has_dtype=True):
    def f(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
        if out is not None or kw or (dtype is not None and not has_dtype):
            return NotImplemented
        t = _tensor_arg(a)
        fn = getattr(_tl(), tl_name)
        extra = {}
        if dtype is not None:
            extra["dtype"] = _tl()._factories._dtype_of_numpy(dtype)
        if axis is None:
            r = fn(t, **extra)
            return r.reshape((1,) * t.dim()) if keepdims else r
        return fn(t, dim=axis, keepdim=builtins.bool(keepdims), **extra)
    return f


def _var(tl_name):
    def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        if out is not None or dtype is not None or kw:
            return NotImplemented
        t = _tensor_arg(a)
        return getattr(_tl(), tl_name)(t, dim=axis, correction=ddof, keepdim=builtins.bool(keepdims))
    return f


def _minmax(tl_name):
    def f(a, axis=None, out=None, keepdims=False, **kw):
        if out is not None or kw:
            return NotImplemented
        t = _tensor_arg(a)
        fn = getattr(_tl(), tl_name)
        if t.numel() == 0:  # NumPy's error (dask tells empty chunks by it), not torch's IndexError
            ax = range(t.dim()) if axis is None else axis if isinstance(axis, (tuple, list)) else (axis,)
            if builtins.any(t.shape[d] == 0 for d in ax):
                raise ValueError(f"zero-size array to reduction operation {ufunc_name} which has no identity")
        if axis is None:
            r = fn(t)
            return r.reshape((1,) * t.dim()) if keepdims else r
        return fn(t, dim=axis, keepdim=builtins.bool(keepdims))
    ufunc_name = "maximum" if tl_name in ("amax", "max") else "minimum"
    return f


def _argminmax(tl_name):
    def f(a, axis=None, out=None, *, keepdims=False):
        if out is not None:
            return NotImplemented
        return getattr(_tl(), tl_name)(_tensor_arg(a), dim=axis, keepdim=builtins.bool(keepdims))
    return f


def _scan(tl_name):
    def f(a, axis=None, dtype=None, out=None):
        if out is not None:
            return NotImplemented
        t = _tensor_arg(a)
        extra = {"dtype": _tl()._factories._dtype_of_numpy(dtype)} if dtype is not None else {}
        if axis is None:
            t, axis = t.reshape(-1), 0
        return getattr(_tl(), tl_name)(t, dim=axis, **extra)
    return f


def _join(tl_name):
    def f(arrays, axis=0, out=None, **kw):
        if out is not None or kw.get("dtype") is not None or kw.get("casting", "same_kind") != "same_kind":
            return NotImplemented
        ts = [_tensor_arg(a) for a in arrays]
        if axis is None:  # np.concatenate(axis=None) flattens first
            ts, axis = [t.reshape(-1) for t in ts], 0
        return getattr(_tl(), tl_name)(ts, dim=axis)
    return f


def _np_where(condition, x=None, y=None):
    tl = _tl()
    c = _tensor_arg(condition)
    if x is None and y is None:
        return tl.where(c)
    if x is None or y is None:
        return NotImplemented
    return tl.where(c, _operand_or_tensor(x), _operand_or_tensor(y))


def _np_clip(a, a_min=None, a_max=None, out=None, **kw):
    if out is not None or kw:
        return NotImplemented
    lo = None if a_min is None else _operand_or_tensor(a_min)
    hi = None if a_max is None else _operand_or_tensor(a_max)
    return _tl().clamp(_tensor_arg(a), lo, hi)


def _np_transpose(a, axes=None):
    t = _tensor_arg(a)
    return t.permute(*(axes if axes is not None else range(t.dim() - 1, -1, -1)))


def _np_reshape(a, *args, **kw):
    shape = kw.pop("shape", kw.pop("newshape", None)) if not args else args[0]
    if kw.get("order", "C") != "C" or kw.get("copy") is not None or len(args) > 1:
        return NotImplemented
    return _tensor_arg(a).reshape(shape)


def _np_squeeze(a, axis=None):
    t = _tensor_arg(a)
    return t.squeeze() if axis is None else t.squeeze(axis)


def _np_expand_dims(a, axis):
    t = _tensor_arg(a)
    for ax in sorted(axis if isinstance(axis, (tuple, list)) else (axis,)):
        t = t.unsqueeze(ax)
    return t


def _np_sort(a, axis=-1, kind=None, order=None, **kw):
    if order is not None or kw:
        return NotImplemented
    t = _tensor_arg(a)
    if axis is None:
        t, axis = t.reshape(-1), 0
    return _tl().sort(t, dim=axis, stable=kind == "stable").values


def _np_argsort(a, axis=-1, kind=None, order=None, **kw):
    if order is not None or kw:
        return NotImplemented
    t = _tensor_arg(a)
    if axis is None:
        t, axis = t.reshape(-1), 0
    return _tl().argsort(t, dim=axis, stable=kind == "stable")


def _np_isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _tl().isclose(_tensor_arg(a), _tensor_arg(b), rtol=rtol, atol=atol, equal_nan=equal_nan)


def _np_allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(_np_isclose(a, b, rtol, atol, equal_nan).all())


def _np_dot(a, b, out=None):
    if out is not None:
        return NotImplemented
    ta, tb = _tensor_arg(a), _tensor_arg(b)
    if ta.dim() == 0 or tb.dim() == 0:
        return ta * tb
    if tb.dim() > 2:  # NumPy's dot contracts with b's second-to-last axis, unlike matmul
        return NotImplemented
    return _tl().matmul(ta, tb)


def _np_round(a, decimals=0, out=None):
    if out is not None:
        return NotImplemented
    t = _tensor_arg(a)
    if decimals == 0:  # NumPy rounds integers to themselves; torch's decimals= refuses them
        return _tl().round(t)
    if not (t.is_floating_point() or t.is_complex()):
        return NotImplemented
    return _tl().round(t, decimals=decimals)


def _np_flip(m, axis=None):
    t = _tensor_arg(m)
    dims = range(t.dim()) if axis is None else (axis if isinstance(axis, (tuple, list)) else (axis,))
    return t.flip(tuple(dims))


def _tensor_arg(a):
    if isinstance(a, _C.TensorBase):
        return a
    from ._factories import as_tensor
    return as_tensor(a)


def _operand_or_tensor(o):
    return o if isinstance(o, (bool, int, float, complex)) else _tensor_arg(o)


# NumPy function name -> implementation (returns NotImplemented for arguments it does not
# take, and NumPy's own implementation runs then).
_FUNCTIONS = {
    "sum": _red("sum"), "prod": _red("prod"), "mean": _red("mean"), "nansum": _red("nansum"),
    "nanmean": _red("nanmean"), "any": _red("any", False), "all": _red("all", False),
    "max": _minmax("amax"), "amax": _minmax("amax"), "min": _minmax("amin"), "amin": _minmax("amin"),
    "std": _var("std"), "var": _var("var"),
    "argmax": _argminmax("argmax"), "argmin": _argminmax("argmin"),
    "cumsum": _scan("cumsum"), "cumprod": _scan("cumprod"),
    "concatenate": _join("cat"), "concat": _join("cat"), "stack": _join("stack"),
    "where": _np_where, "clip": _np_clip, "transpose": _np_transpose, "reshape": _np_reshape,
    "squeeze": _np_squeeze, "expand_dims": _np_expand_dims, "sort": _np_sort, "argsort": _np_argsort,
    "isclose": _np_isclose, "allclose": _np_allclose, "dot": _np_dot, "round": _np_round,
    "around": _np_round, "flip": _np_flip,
}


def array_function(self, func, types, args, kwargs):
    """NumPy functions on tensors: the curated ones run tensorlib's function (module
    docstring); the rest run NumPy's implementation on the tensors as arrays."""
    impl = _FUNCTIONS.get(func.__name__)
    if impl is not None and func.__module__.startswith("numpy") and builtins.all(
            issubclass(t, (_C.TensorBase, _numpy().ndarray)) for t in types):
        r = impl(*args, **kwargs)
        if r is not NotImplemented:
            return r
    if not hasattr(func, "_implementation"):
        # only the like= functions (np.asarray(x, like=t), np.empty(n, like=t)) come here without
        # one, NumPy having removed like=: an array like ours is a tensor
        return _wrap(func(*_to_numpy(args), **{k: _to_numpy(v) for k, v in kwargs.items()}))
    # NumPy's own code on the tensors as arrays: some of it would call methods of its argument
    # with NumPy's keywords (np.sum calls a.sum(axis=, out=)), so it gets ndarrays
    return func._implementation(*_to_numpy(args), **{k: _to_numpy(v) for k, v in kwargs.items()})
