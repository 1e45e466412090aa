"""tensorlib as a dask chunk type: dask.array's dispatch registrations for Tensor.

dask.array routes a few chunk operations through type-keyed registries
(``dask.array.dispatch``): concatenating blocks, tensordot, einsum, empty arrays, the
division and element counts of its mean/var reductions, ``take``, percentiles and the
conversion to NumPy. Everything else reaches tensors through NumPy's protocols
(``__array_ufunc__``/``__array_function__``, tensorlib/_numpy_proto.py), so blocks stay
tensors throughout a graph.

``import tensorlib`` never imports dask: ``install()`` registers at once when dask.array is
already imported, and otherwise leaves a one-shot import hook that registers right after
``dask.array`` finishes importing. Docs: docs/interop.md, "dask".
"""
import sys


def _tl():
    import tensorlib
    return tensorlib


def _as_tensors(arrays):
    tl = _tl()
    return [a if isinstance(a, tl.Tensor) else tl.as_tensor(a) for a in arrays]


def _tl_dtype(dtype):
    from ._factories import _dtype_of_numpy
    return None if dtype is None else _dtype_of_numpy(dtype)


def _concatenate(arrays, axis=0):
    ts = _as_tensors(arrays)
    if axis is None:
        ts, axis = [t.reshape(-1) for t in ts], 0
    return _tl().cat(ts, dim=axis)


def _tensordot(a, b, axes=2):
    a, b = _as_tensors((a, b))
    return _tl().tensordot(a, b, dims=axes)


def _einsum(subscripts, *operands, dtype=None, casting="safe", order="K", optimize=False):
    # dask passes NumPy's keywords: dtype/casting are honoured, order/optimize do not apply
    r = _tl().einsum(subscripts, *_as_tensors(operands))
    return r if dtype is None else r.astype(dtype, casting=casting)


def _empty(shape, dtype=float, **kwargs):
    return _tl().empty(shape, dtype=_tl_dtype(dtype))


def _divide(a, b, dtype=None):
    tl = _tl()
    r = tl.true_divide(*_as_tensors((a, b)))
    return r if dtype is None else r.to(_tl_dtype(dtype))


def _take(a, indices, axis=None, **kwargs):
    """np.take on a block: the result has indices' shape in place of axis (flat when None)."""
    tl = _tl()
    (t,) = _as_tensors((a,))
    idx = tl.as_tensor(indices, dtype=tl.int64)
    if axis is None:
        return t.reshape(-1)[idx]
    return t.index_select(axis, idx.reshape(-1)).reshape(
        t.shape[:axis % t.dim()] + tuple(idx.shape) + t.shape[axis % t.dim() + 1:])


def _numel_shape(x, keepdims, axis):
    shape = tuple(x.shape)
    if axis is None:
        axes = range(len(shape))
    else:
        axes = [a % len(shape) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]
    n = 1
    for a in axes:
        n *= shape[a]
    if keepdims:
        out = tuple(1 if d in axes else s for d, s in enumerate(shape))
    else:
        out = tuple(s for d, s in enumerate(shape) if d not in axes)
    return n, out


def _numel(x, keepdims=False, axis=None, dtype=None, **kwargs):
    """The element count of x's reduction over axis, as a tensor of the reduction's shape
    (dask's mean/var divide by it blockwise)."""
    n, shape = _numel_shape(x, keepdims, axis)
    return _tl().full(shape, n, dtype=_tl_dtype(dtype) or _tl().float64)


def _nannumel(x, keepdims=False, axis=None, dtype=None, **kwargs):
    """The count of non-NaN elements of x over axis (dask's nanmean/nanvar)."""
    tl = _tl()
    r = tl.logical_not(tl.isnan(x)).sum(dim=axis, keepdim=bool(keepdims))
    return r.to(_tl_dtype(dtype) or tl.float64)


def _percentile(a, q, method="linear"):
    """A block's percentiles (dask.array.percentile): NumPy's implementation on the block's
    memory, the result as a tensor."""
    from dask.array.dispatch import percentile_lookup
    from ._factories import _numpy
    tl = _tl()
    (t,) = _as_tensors((a,))
    r, n = percentile_lookup.dispatch(_numpy().ndarray)(t.numpy(), q, method)
    return tl.as_tensor(r), n


def _to_numpy(data, **kwargs):
    return data.numpy(force=True)


def register():
    """Register Tensor in dask.array's dispatch tables (imports dask.array)."""
    from dask.array import dispatch as d
    T = _tl().Tensor
    d.concatenate_lookup.register(T, _concatenate)
    d.tensordot_lookup.register(T, _tensordot)
    d.einsum_lookup.register(T, _einsum)
    d.empty_lookup.register(T, _empty)
    d.divide_lookup.register(T, _divide)
    d.take_lookup.register(T, _take)
    d.numel_lookup.register(T, _numel)
    d.nannumel_lookup.register(T, _nannumel)
    d.percentile_lookup.register(T, _percentile)
    d.to_numpy_dispatch.register(T, _to_numpy)


class _AfterDaskArray:
    """A one-shot sys.meta_path entry: when ``dask.array`` is imported, lets the normal
    finders load it and calls register() once its module has run."""

    def find_spec(self, name, path=None, target=None):
        if name != "dask.array":
            return None
        _remove_hook()
        import importlib.util
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            try:
                run(module)
            finally:
                del spec.loader.exec_module  # back to the loader's own method
            register()
        spec.loader.exec_module = exec_module
        return spec


_hook = None


def _remove_hook():
    global _hook
    if _hook is not None and _hook in sys.meta_path:
        sys.meta_path.remove(_hook)
    _hook = None


def install():
    """Called by ``import tensorlib``: registers now if dask.array is loaded, else on its import."""
    global _hook
    if "dask.array.dispatch" in sys.modules:
        register()
    elif _hook is None:
        _hook = _AfterDaskArray()
        sys.meta_path.insert(0, _hook)
