"""Sparse tensors on a backend device (CUDA): their components live there.

What reads no component data works on the device as on the CPU: moving (``to``, ``cuda``,
``cpu``), the components, shapes and flags, and every op the sparse layer composes of strided
ops on the components (scalar products, the zero-preserving unary functions, ``sum``, ...).
The products of a 2-D CSR, CSC or COO matrix with a dense vector or matrix (``mm``, ``mv``,
``matmul``, ``addmm``, ``tensorlib.sparse.mm``, either side) run on the device through the
backend's sparse-product entry (cuSPARSE on CUDA). The other sparse kernels of the core read
host memory: the layout gate (csrc/python/gate.c) hands a device tensor given to one of them
to the handler registered here under the kernel's name, which runs it on host copies and
moves the result back (correct, and as slow as two copies: conversions, coalescing, sparse +
sparse, to_dense, validation of user-built components)."""
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


def _same_device(args):
    """The device of the tensors among args (torch's RuntimeError when two differ; a 0-d CPU
    tensor goes with any device)."""
    dev = None
    for t in _tensors(args):
        if t.device.type == "cpu" and t.dim() == 0 and t.layout == _C.strided:
            continue
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


def register(table):
    """Adds to the gate's table (after the layouts' own dispatchers, which would refuse these
    names) the round trips of the host kernels, which the gate calls for device tensors."""
    table.update({n: _round_trip(getattr(_C, n)) for n in _HOST_FUNCTIONS})
    table.update({n: _round_trip(getattr(_C.TensorBase, n)) for n in _HOST_METHODS})


def move(t, device, non_blocking=False):
    """Sparse tensor t with its components on ``device`` (t itself when already there)."""
    device = _C.device(device)
    if device.type == "cuda" and device.index is None:
        from . import cuda
        device = _C.device("cuda", cuda.current_device())
    if t.device == device:
        return t
    if device.type == "meta":
        raise NotImplementedError("tensorlib: sparse tensors on the meta device are not supported")
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

