"""Sparse tensors on a backend device (CUDA): their components live there.

What reads no component data works on the device as on the CPU: moving (``to``, ``cuda``,
``cpu``), the components, shapes and flags, and every op the sparse layer composes of strided
ops on the components (scalar products, the zero-preserving unary functions, ``sum``, ...).
The products of a 2-D CSR, CSC or COO matrix with a dense vector or matrix (``mm``, ``mv``,
``matmul``, ``addmm``, ``tensorlib.sparse.mm``, either side) run on the device through the
backend's sparse-product entry (cuSPARSE on CUDA). The other sparse kernels of the core read
host memory: the layout gate (csrc/python/gate.c) hands a device tensor given to one of them
to the handler registered here under the kernel's name. That handler runs a composition of
the device's strided ops where one covers the call (to_dense, coalesce, the conversions
between strided, COO, CSR and CSC), else the kernel on host copies, moving the result back
(correct, and as slow as two copies: block layouts, sparse + sparse, validation of user-built
components)."""
from . import _C

# The sparse kernels of _C that read component data on the host (python/sparse.c,
# sparse_compressed.c): module functions, then Tensor methods.
_HOST_FUNCTIONS = ("_coo_add", "_coo_mul", "_coo_mul_source", "_coo_lookup", "_coo_index_select_plan", "_coo_spmm",
                   "_dense_to_sparse", "_compressed_to_dense", "_compressed_recompress", "_compressed_to_coo",
                   "_dense_to_compressed", "_coo_to_compressed", "_csr_matmul", "_compressed_intersect",
                   "_semi_compress", "_semi_to_dense", "_semi_mm")
_HOST_METHODS = ("_coalesce", "_coo_to_dense")

# dtypes of the backend's sparse products (float16/bfloat16 accumulate in float32)
_PRODUCT_DTYPES = (_C.float16, _C.bfloat16, _C.float32, _C.float64, _C.complex64, _C.complex128)


def on_device(t):
    """Whether tensor t (sparse or strided) lives on a device other than the CPU."""
    return t.device.type != "cpu"


def _tensors(args):
    for a in args:
        if isinstance(a, _C.TensorBase):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (b for b in a if isinstance(b, _C.TensorBase))


_NO_META = "tensorlib: sparse tensors on the meta device are not supported"


def _same_device(args):
    """The device of the tensors among args (torch's RuntimeError when two differ; a 0-d CPU
    tensor goes with any device). Meta tensors are refused (no sparse meta kernels)."""
    dev = None
    for t in _tensors(args):
        if t.device.type == "cpu" and t.dim() == 0 and t.layout == _C.strided:
            continue
        if t.device.type == "meta":
            raise NotImplementedError(_NO_META)
        if dev is None:
            dev = t.device
        elif t.device != dev:
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                               f"{dev} and {t.device}!")
    return dev


def _host(a):
    if isinstance(a, _C.TensorBase):
        return a.cpu()
    if isinstance(a, (list, tuple)):
        return type(a)(_host(b) for b in a)
    return a


def _back(r, dev):
    if isinstance(r, _C.TensorBase):
        return r.to(dev)
    if isinstance(r, (list, tuple)):
        return type(r)(_back(x, dev) for x in r)
    return r


def _round_trip(kernel):
    def run(*args, **kwargs):
        dev = _same_device(args)
        return _back(kernel(*_host(args), **kwargs), dev)
    run.__name__ = getattr(kernel, "__name__", "kernel")
    return run


# ---- kernels composed of the device's strided ops ---------------------------------------------
# Each returns NotImplemented for what it does not cover (the caller then takes the round trip);
# results equal the host kernel's (indices, order, coalesced flag, dtype; sums in the same
# accumulation dtype, in the same order on the stand-in, atomically on a GPU).

# value dtypes the compositions sum (index_add_/index_put_ accumulate on the device), with the
# dtype the host kernels accumulate in (csrc/sparse/sparse.h: tl_sparse_acc_dtype)
_ACC = {_C.float16: _C.float32, _C.bfloat16: _C.float32, _C.float32: _C.float32, _C.float64: _C.float64,
        _C.complex64: _C.complex64, _C.complex128: _C.complex128, _C.int8: _C.int8, _C.uint8: _C.uint8,
        _C.int16: _C.int16, _C.int32: _C.int32, _C.int64: _C.int64}


def _plain_compressed(t):
    return t.layout in (_C.sparse_csr, _C.sparse_csc) and t.dim() == 2 and t.dense_dim() == 0


def _compressed_ids(ci, n):
    """The compressed row (column) of each of the n stored elements: element k is in row r where
    ci[r] <= k < ci[r + 1], i.e. the number of boundaries ci[1:] at or before k."""
    marks = _C.zeros(n + 1, dtype=_C.int64, device=ci.device)
    marks.index_add_(0, ci[1:], _C.ones(ci.shape[0] - 1, dtype=_C.int64, device=ci.device))
    return marks.cumsum(0)[:n]


def _offsets(ids, count):
    """Compressed indices (count + 1, int64) of sorted row ids."""
    off = _C.zeros(count + 1, dtype=_C.int64, device=ids.device)
    return off.index_add_(0, ids + 1, _C.ones(ids.shape[0], dtype=_C.int64, device=ids.device)).cumsum(0)


def _compressed_to_coo(t):
    """CSR/CSC (2-D, no dense dims) -> COO in storage order: coalesced for CSR, not for CSC."""
    if not _plain_compressed(t):
        return NotImplemented
    ci, pi, v = _C._compressed_parts(t)
    comp, plain = _compressed_ids(ci, pi.shape[0]), pi.to(_C.int64)
    csr = t.layout == _C.sparse_csr
    from ._join import stack
    ind = stack([comp, plain] if csr else [plain, comp], 0)
    return _C._sparse_coo_new(ind, v, tuple(t.shape), False, csr)


def _coo_to_compressed(s, layout):
    """Coalesced 2-D COO -> CSR or CSC (int64 indices; CSC reorders by column, stably)."""
    if layout not in (_C.sparse_csr, _C.sparse_csc) or not s.is_coalesced() or s.sparse_dim() != 2:
        return NotImplemented
    ind, v = s._indices(), s._values()
    rows, cols = ind[0], ind[1]
    if layout == _C.sparse_csc:
        perm = (cols * s.shape[0] + rows).sort(stable=True)[1]
        rows, cols, v = rows.index_select(0, perm), cols.index_select(0, perm), v.index_select(0, perm)
        ci, pi = _offsets(cols, s.shape[1]), rows
    else:
        ci, pi = _offsets(rows, s.shape[0]), cols.contiguous()
    return _C._sparse_compressed_new(ci, pi, v, tuple(s.shape), layout, False)


def _linear(ind, size):
    """Row-major linear position of each COO entry; None when it could overflow int64."""
    span = 1
    for n in size:
        span *= max(n, 1)
    if span >= 1 << 62:
        return None
    key, stride = _C.zeros(ind.shape[1], dtype=_C.int64, device=ind.device), 1
    for d in range(len(size) - 1, -1, -1):
        key = key + ind[d] * stride
        stride *= size[d]
    return key


def _coalesce(s):
    """Duplicates summed (in the host kernels' accumulation dtype), entries sorted."""
    ind, v = s._indices(), s._values()
    sd = s.sparse_dim()
    acc = _ACC.get(s.dtype)
    key = _linear(ind, tuple(s.shape[:sd])) if acc is not None and ind.shape[1] and sd else None
    if key is None:
        return NotImplemented
    from ._unique import unique_consecutive
    skey, perm = key.sort(stable=True)
    _, inverse, counts = unique_consecutive(skey, return_inverse=True, return_counts=True)
    first = perm.index_select(0, counts.cumsum(0) - counts)
    sums = _C.zeros((counts.shape[0],) + tuple(v.shape[1:]), dtype=acc, device=v.device)
    sums.index_add_(0, inverse, v.index_select(0, perm).to(acc))
    return _C._sparse_coo_new(ind.index_select(1, first), sums.to(s.dtype), tuple(s.shape), False, True)


def _coo_to_dense(s):
    """The strided tensor: every entry added at its position (duplicates summed)."""
    ind, v = s._indices(), s._values()
    acc = _ACC.get(s.dtype)
    if acc is None or not s.sparse_dim():
        return NotImplemented
    out = _C.zeros(tuple(s.shape), dtype=acc, device=v.device)
    if ind.shape[1]:
        out.index_put_(tuple(ind[d] for d in range(s.sparse_dim())), v.to(acc), accumulate=True)
    return out.to(s.dtype)


def _compressed_to_dense(t):
    coo = _compressed_to_coo(t)
    return NotImplemented if coo is NotImplemented else _coo_to_dense(coo)


def _dense_to_sparse(t, sparse_dim):
    """The COO tensor of the non-zero elements (rows over the last ndim - sparse_dim dims)."""
    if not 0 < sparse_dim <= t.dim() or t.dtype not in _ACC:
        return NotImplemented
    nz = t != 0
    if sparse_dim < t.dim():
        nz = nz.any(dim=tuple(range(sparse_dim, t.dim())))
    ind = nz.nonzero().t()
    vals = t[tuple(ind[d] for d in range(sparse_dim))]
    return _C._sparse_coo_new(ind, vals, tuple(t.shape), False, True)


def _dense_to_compressed(t, layout, blocksize, dense_dim):
    """A 2-D strided tensor -> CSR or CSC (int64 indices), through its COO tensor."""
    if t.dim() != 2 or blocksize is not None or dense_dim or layout not in (_C.sparse_csr, _C.sparse_csc):
        return NotImplemented
    coo = _dense_to_sparse(t, 2)
    return NotImplemented if coo is NotImplemented else _coo_to_compressed(coo, layout)


def _compressed_recompress(t):
    """CSR <-> CSC (2-D, no dense dims), keeping the index dtype."""
    coo = _compressed_to_coo(t)
    if coo is NotImplemented:
        return NotImplemented
    if not coo.is_coalesced():
        coo = _coalesce(coo)
        if coo is NotImplemented:
            return NotImplemented
    r = _coo_to_compressed(coo, _C.sparse_csc if t.layout == _C.sparse_csr else _C.sparse_csr)
    ci, pi, v = _C._compressed_parts(r)
    idt = _C._compressed_parts(t)[0].dtype
    return _C._sparse_compressed_new(ci.to(idt), pi.to(idt), v, tuple(t.shape), r.layout, False)


def _coo_add(a, av, b, bv):
    """a + b of two coalesced COO tensors (values av, bv in the result dtype): their entries
    merged, equal positions summed (a's first), coalesced."""
    if not (a.is_coalesced() and b.is_coalesced()):
        return NotImplemented
    from ._join import cat
    both = _C._sparse_coo_new(cat([a._indices(), b._indices()], 1), cat([av, bv], 0), tuple(a.shape), False, False)
    return _coalesce(both)


def _on_device_first(name, kernel, composed):
    """The gate's handler of a host kernel: the composition on the device when it covers the call,
    else the round trip."""
    trip = _round_trip(kernel)

    def run(*args, **kwargs):
        _same_device(args)
        r = composed(*args, **kwargs)
        return trip(*args, **kwargs) if r is NotImplemented else r
    run.__name__ = name
    return run


_COMPOSED = {"_compressed_to_coo": _compressed_to_coo, "_coo_to_compressed": _coo_to_compressed,
             "_coalesce": _coalesce, "_coo_to_dense": _coo_to_dense, "_compressed_to_dense": _compressed_to_dense,
             "_dense_to_sparse": _dense_to_sparse, "_dense_to_compressed": _dense_to_compressed,
             "_compressed_recompress": _compressed_recompress, "_coo_add": _coo_add}


def register(table):
    """Adds to the gate's table (after the layouts' own dispatchers, which would refuse these
    names) the handlers of the host kernels, which the gate calls for device tensors: the
    composition of device ops where there is one, else the round trip."""
    for n in _HOST_FUNCTIONS + _HOST_METHODS:
        kernel = getattr(_C, n) if n in _HOST_FUNCTIONS else getattr(_C.TensorBase, n)
        table[n] = _on_device_first(n, kernel, _COMPOSED[n]) if n in _COMPOSED else _round_trip(kernel)


def move(t, device, non_blocking=False):
    """Sparse tensor t with its components on ``device`` (t itself when already there)."""
    device = _C.device(device)
    if device.type == "cuda" and device.index is None:
        from . import cuda
        device = _C.device("cuda", cuda.current_device())
    if t.device == device:
        return t
    if device.type == "meta":
        raise NotImplementedError(_NO_META)
    from ._tensor import _rebuild_sparse, _sparse_components
    return _rebuild_sparse(t, [c.to(device, non_blocking=non_blocking) for c in _sparse_components(t)])


def _shapes_only(values):
    """A CPU stand-in of values' shape and dtype (no data is read by the validation)."""
    return _C.zeros((), dtype=values.dtype).expand(tuple(values.shape))


def coo_new(indices, values, size, check, is_coalesced):
    """A COO tensor over device components: validated (and its size inferred) from a host copy
    of the indices, then wrapped on the device."""
    if indices.device != values.device:  # torch's message, from the core's check
        _C._sparse_coo_new(indices, values, size, False, None)
    host = _C._sparse_coo_new(indices.cpu(), _shapes_only(values), size, check, is_coalesced)
    return _C._sparse_coo_new(indices, values, tuple(host.shape), False, host.is_coalesced())


def compressed_new(ci, pi, values, size, layout, check):
    """A compressed tensor over device components, validated from host copies of the indices."""
    if ci.device != values.device or pi.device != values.device:
        _C._sparse_compressed_new(ci, pi, values, size, layout, False)
    host = _C._sparse_compressed_new(ci.cpu(), pi.cpu(), _shapes_only(values), size, layout, check)
    return _C._sparse_compressed_new(ci, pi, values, tuple(host.shape), layout, False)


def product_supported(a):
    return a.dtype in _PRODUCT_DTYPES


def mm(a, b, trans=False):
    """op(a) @ b on a's device (op: a, or with ``trans`` its transpose) for a 2-D sparse a without
    dense dims and a strided 1-D or 2-D b of its dtype, through the backend's sparse products:
    CSR, CSC and COO as they are stored (an uncoalesced COO is coalesced first), BSR/BSC as
    the CSR of their elements."""
    _same_device((a, b))
    if a.layout == _C.sparse_coo:
        a = a.coalesce()
    elif a.layout in (_C.sparse_bsr, _C.sparse_bsc):
        a = a.to_sparse_csr()
    return _C._sparse_device_mm(a, b, trans)

