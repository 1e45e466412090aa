"""The compressed sparse layouts (CSR, CSC, BSR, BSC): constructors, attributes,
conversions among every layout pair, and the ops torch 2.13 gives them.

A compressed tensor holds three strided components (csrc/sparse/sparse.h): compressed
indices ``(*batch, ncompressed + 1)``, plain indices ``(*batch, nse)`` (int32 or int64,
the same dtype) and values ``(*batch, nse, [bh, bw,] *dense)``. The C primitives are in
csrc/sparse/compressed*.c (bound in csrc/python/sparse_compressed.c); this module composes
them and wraps the layout gate's table (_sparse._HANDLERS): each op name gets a
dispatcher that sends a call with a compressed argument here and any other sparse call to
the handler registered before (COO). It is imported after every COO module, so its
dispatchers are the outermost ones.
"""
import functools

from . import _C
from . import _sparse

__all__ = ["sparse_compressed_tensor", "sparse_csr_tensor", "sparse_csc_tensor", "sparse_bsr_tensor",
           "sparse_bsc_tensor"]

_COMPRESSED = (_C.sparse_csr, _C.sparse_csc, _C.sparse_bsr, _C.sparse_bsc)
_ROW = (_C.sparse_csr, _C.sparse_bsr)
_BLOCK = (_C.sparse_bsr, _C.sparse_bsc)
_NAMES = {_C.strided: "Strided", _C.sparse_coo: "Sparse", _C.sparse_csr: "SparseCsr", _C.sparse_csc: "SparseCsc",
          _C.sparse_bsr: "SparseBsr", _C.sparse_bsc: "SparseBsc"}
_FLIP = {_C.sparse_csr: _C.sparse_csc, _C.sparse_csc: _C.sparse_csr, _C.sparse_bsr: _C.sparse_bsc,
         _C.sparse_bsc: _C.sparse_bsr}


def _is_compressed(x):
    return isinstance(x, _C.TensorBase) and x.layout in _COMPRESSED


def _name(layout):
    return _NAMES.get(layout, str(layout))


def _new(ci, pi, values, size, layout):
    """A compressed tensor over trusted components (shapes are still checked)."""
    return _C._sparse_compressed_new(ci, pi, values, tuple(size), layout, False)


def _parts(t):
    """(compressed_indices, plain_indices, values), shared with t."""
    return _C._compressed_parts(t)


def _batch_dim(t):
    return _parts(t)[0].dim() - 1


def _blocksize(t):
    """(bh, bw) of a BSR/BSC tensor, None for CSR/CSC."""
    if t.layout not in _BLOCK:
        return None
    ci, _, v = _parts(t)
    return tuple(v.shape[ci.dim():ci.dim() + 2])


# ---- constructors -------------------------------------------------------------------------

def _as_index(x, like=None):
    from ._factories import as_tensor
    if isinstance(x, _C.TensorBase):
        return x
    if like is not None and like.dtype in (_C.int32, _C.int64):
        return as_tensor(x, dtype=like.dtype)
    return as_tensor(x, dtype=_C.int64)


def sparse_compressed_tensor(compressed_indices, plain_indices, values, size=None, *, dtype=None, layout=None,
                             device=None, pin_memory=False, requires_grad=False, check_invariants=None):
    """A sparse CSR, CSC, BSR or BSC tensor (``layout=``) from its compressed indices
    ``(*batch, ncompressed + 1)``, plain indices ``(*batch, nse)`` (both int32 or both
    int64) and values ``(*batch, nse, *dense)`` (BSR/BSC: ``(*batch, nse, bh, bw,
    *dense)``), sharing them.

    ``size`` defaults to the smallest that holds the indices (torch's inference: the
    compressed size from the length of the compressed indices, the plain size from the
    largest plain index, times the blocksize; then the dense dims of values). Unlike torch,
    the components are validated by default (torch's invariants and messages);
    ``check_invariants=False`` skips the index-content scan (the shapes are always checked,
    and each kernel checks the indices it reads).

        >>> tensorlib.sparse_compressed_tensor([0, 2, 4], [0, 1, 0, 1], [1, 2, 3, 4],
        ...                                    layout=tensorlib.sparse_csc).to_dense()
        tensor([[1, 3],
                [2, 4]])
    """
    from ._factories import as_tensor
    if layout is None:
        raise RuntimeError("sparse_compressed_tensor expected sparse compressed tensor layout but got none")
    if layout not in _COMPRESSED:
        raise RuntimeError(f"sparse_compressed_tensor expected sparse compressed tensor layout but got {_name(layout)}")
    _sparse._no_grad(requires_grad)
    if device is not None and _C.device(device).type != "cpu":
        raise RuntimeError(f"tensorlib: no backend is loaded for device type '{_C.device(device).type}'")
    ci = _as_index(compressed_indices, plain_indices if isinstance(plain_indices, _C.TensorBase) else None)
    pi = _as_index(plain_indices, ci)
    if not isinstance(values, _C.TensorBase):
        values = as_tensor(values, dtype=dtype)
    elif dtype is not None and values.dtype != dtype:
        values = values.to(dtype)
    if size is not None:
        if not isinstance(size, (tuple, list, _C.Size)):
            raise TypeError(f"sparse_compressed_tensor(): argument 'size' must be tuple of ints, not "
                            f"{type(size).__name__}")
        size = tuple(size)
    return _C._sparse_compressed_new(ci, pi, values, size, layout, check_invariants is not False)


def _constructor(kind, layout, cname, pname):
    def f(compressed_indices, plain_indices, values, size=None, *, dtype=None, layout=None, device=None,
          pin_memory=False, requires_grad=False, check_invariants=None):
        if layout is not None and layout != want:
            raise RuntimeError(f"sparse_{kind}_tensor: layout must be {_name(want)} but got {_name(layout)}")
        return sparse_compressed_tensor(compressed_indices, plain_indices, values, size, dtype=dtype, layout=want,
                                        device=device, pin_memory=pin_memory, requires_grad=requires_grad,
                                        check_invariants=check_invariants)
    want = layout
    f.__name__ = f.__qualname__ = f"sparse_{kind}_tensor"
    f.__doc__ = (f"A sparse {kind.upper()} tensor from ``{cname}``, ``{pname}`` and ``values``: "
                 f"sparse_compressed_tensor(..., layout=tensorlib.sparse_{kind}).")
    return f


sparse_csr_tensor = _constructor("csr", _C.sparse_csr, "crow_indices", "col_indices")
sparse_csc_tensor = _constructor("csc", _C.sparse_csc, "ccol_indices", "row_indices")
sparse_bsr_tensor = _constructor("bsr", _C.sparse_bsr, "crow_indices", "col_indices")
sparse_bsc_tensor = _constructor("bsc", _C.sparse_bsc, "ccol_indices", "row_indices")


# ---- attributes -----------------------------------------------------------------------------

def _index_getter(name, row, which):
    kind = "row" if row else "column"

    def f(self):
        if self.layout not in (_ROW if row else (_C.sparse_csc, _C.sparse_bsc)):
            raise RuntimeError(f"{name} expected sparse {kind} compressed tensor layout but got {_name(self.layout)}")
        return _parts(self)[which]
    f.__name__ = name
    f.__doc__ = f"The {name} component of a sparse {'CSR/BSR' if row else 'CSC/BSC'} tensor (shared)."
    return f


crow_indices = _index_getter("crow_indices", True, 0)
col_indices = _index_getter("col_indices", True, 1)
ccol_indices = _index_getter("ccol_indices", False, 0)
row_indices = _index_getter("row_indices", False, 1)


def _values(self):
    return _parts(self)[2]


# ---- conversions ----------------------------------------------------------------------------

def _to_dense(self, dtype=None, *, masked_grad=None):
    r = _C._compressed_to_dense(self)
    return r if dtype is None else r.to(dtype)


def _check_blocksize(blocksize):
    bs = tuple(blocksize)
    if len(bs) != 2:
        raise RuntimeError(f"blocksize needs to be a tuple of size 2, but got {len(bs)}")
    return bs


def _dense_to(self, layout, blocksize, dense_dim, fname="dense_to_sparse"):
    """strided -> compressed, with torch's argument checks (``fname`` names the entry point
    in the messages, as torch's do)."""
    if layout in _BLOCK and blocksize is None:
        raise RuntimeError(f"dense_to_sparse: conversion from Strided to {_name(layout)} without blocksize argument "
                           "given is not supported")
    if layout not in _BLOCK and blocksize is not None:
        raise RuntimeError(f"dense_to_sparse: conversion from Strided to {_name(layout)} with blocksize argument "
                           "given is not supported")
    n = self.dim()
    if n < 2:
        raise RuntimeError(f"to_sparse_{_name(layout)[6:].lower()}: expected a tensor of at least 2 dimensions, "
                           f"got {n}")
    dd = 0 if dense_dim is None else dense_dim
    if not 0 <= dd <= n - 2:
        raise RuntimeError(f"{fname}: dense_dim argument must be in "
                           f"[0,{n - 2}] range, but {dd} is given")
    if n - 2 - dd > 0 and 0 in tuple(self.shape[:n - 2 - dd]):
        raise RuntimeError(f"to_sparse_{_name(layout)[6:].lower()}: Expected product of batch dimensions to be "
                           "non-zero.")
    if blocksize is not None:
        bs = _check_blocksize(blocksize)
        sp = tuple(self.shape[n - 2 - dd:n - dd])
        if sp[0] % bs[0] or sp[1] % bs[1]:
            raise RuntimeError(f"{fname}: tensor sparse size ({sp[0]},{sp[1]}) must be divisible by given "
                               f"blocksize ({bs[0]},{bs[1]})")
        blocksize = bs
    if self.has_names():
        raise RuntimeError("to_sparse: named tensors are not supported by sparse layouts")
    return _C._dense_to_compressed(self, layout, blocksize, dd)


def _coo_to(self, layout, blocksize, dense_dim):
    """COO -> compressed: a coalesced 2-D-sparse COO tensor is compressed directly (its
    stored zeros kept, as torch); others go through the strided tensor."""
    if dense_dim is not None:
        raise RuntimeError(f"coo_to_sparse_{_name(layout)[6:].lower()}: conversion from Sparse to {_name(layout)} with "
                           "dense_dim argument given is not supported")
    if layout in (_C.sparse_csr, _C.sparse_csc) and self.sparse_dim() == 2:
        return _C._coo_to_compressed(self.coalesce(), layout)
    return _dense_to(self.to_dense(), layout, blocksize, self.dense_dim())


def _compressed_to(self, layout, blocksize, dense_dim):
    """compressed -> compressed."""
    cur = self.layout
    if blocksize is not None:
        blocksize = _check_blocksize(blocksize)
    if layout in _BLOCK and blocksize is None:
        if cur in _BLOCK:
            blocksize = _blocksize(self)
        else:
            raise RuntimeError(f"sparse_compressed_to_sparse: conversion from {_name(cur)} to {_name(layout)} without "
                               "blocksize argument given is not supported")
    if dense_dim is not None:
        raise RuntimeError(f"to_sparse_{_name(layout)[6:].lower()}: conversion from {_name(cur)} to {_name(layout)} "
                           "with dense_dim argument given is not supported")
    same_blocks = cur not in _BLOCK or _blocksize(self) == tuple(blocksize or ())
    if layout == cur and same_blocks:
        return self
    if layout == _FLIP[cur] and same_blocks:
        return _C._compressed_recompress(self)
    if cur in _BLOCK and layout not in _BLOCK and _batch_dim(self) == 0:
        # torch refuses BSR/BSC -> CSR/CSC; the element-level COO keeps the stored zeros
        return _coo_to(_C._compressed_to_coo(self), layout, None, None)
    return _dense_to(self.to_dense(), layout, blocksize, self.dense_dim())


def _convert(self, layout, blocksize=None, dense_dim=None, fname=None):
    """Any layout -> compressed ``layout`` (``fname``: the to_sparse_* entry point, None for
    to_sparse(layout=))."""
    if self.layout == _C.strided:
        return _dense_to(self, layout, blocksize, dense_dim, "dense_" + fname if fname else "dense_to_sparse")
    if self.layout == _C.sparse_coo:
        if layout in _BLOCK and blocksize is None:
            raise RuntimeError(f"sparse_coo_to_sparse: conversion from Sparse to {_name(layout)} without blocksize "
                               "argument given is not supported")
        return _coo_to(self, layout, blocksize, dense_dim)
    return _compressed_to(self, layout, blocksize, dense_dim)


def to_sparse_csr(self, dense_dim=None):
    """A sparse CSR tensor with the same elements (``dense_dim`` trailing dims stay dense;
    dims before the last 2 + dense_dim are batch dims, with the same nse per batch)."""
    return _convert(self, _C.sparse_csr, None, dense_dim, "to_sparse_csr")


def to_sparse_csc(self, dense_dim=None):
    """A sparse CSC tensor with the same elements (see to_sparse_csr)."""
    return _convert(self, _C.sparse_csc, None, dense_dim, "to_sparse_csc")


def to_sparse_bsr(self, blocksize, dense_dim=None):
    """A sparse BSR tensor of the non-zero ``blocksize`` blocks (each stored whole)."""
    return _convert(self, _C.sparse_bsr, blocksize, dense_dim, "to_sparse_bsr")


def to_sparse_bsc(self, blocksize, dense_dim=None):
    """A sparse BSC tensor of the non-zero ``blocksize`` blocks (each stored whole)."""
    return _convert(self, _C.sparse_bsc, blocksize, dense_dim, "to_sparse_bsc")


def _to_coo(self):
    return _C._compressed_to_coo(self)


# ---- Tensor methods that dispatch on layout: wrappers over the COO layer's -----------------

def _wrap_method(prev, mine, wants):
    @functools.wraps(prev)
    def f(self, *args, **kwargs):
        if wants(self, args, kwargs):
            return mine(self, *args, **kwargs)
        return prev(self, *args, **kwargs)
    return f


def _to_sparse_mine(self, args, kwargs):
    return _is_compressed(self) or kwargs.get("layout") in _COMPRESSED


def _to_sparse(self, *args, layout=None, blocksize=None, dense_dim=None):
    if args:
        raise RuntimeError(f"sparse_compressed_to_sparse: conversion from {_name(self.layout)} to Sparse with "
                           "sparse_dim argument is not supported")
    if layout is None or layout == _C.sparse_coo:
        return _to_coo(self)
    if layout == _C.strided:
        return _to_dense(self)
    return _convert(self, layout, blocksize, dense_dim)


def _to_scipy(self):
    """scipy.sparse csr_array / csc_array / bsr_array (2-D, no batch or dense dims); the
    index and value buffers are shared where the dtypes allow."""
    import scipy.sparse
    if self.dim() != 2 or self.dense_dim() != 0:
        raise RuntimeError("to_scipy: expected a 2-D sparse tensor without batch or dense dims, got "
                           f"layout={self.layout}, shape={tuple(self.shape)}, dense_dim={self.dense_dim()}")
    ci, pi, v = (x.numpy() for x in _parts(self))
    if self.layout == _C.sparse_csr:
        return scipy.sparse.csr_array((v, pi, ci), shape=tuple(self.shape))
    if self.layout == _C.sparse_csc:
        return scipy.sparse.csc_array((v, pi, ci), shape=tuple(self.shape))
    if self.layout == _C.sparse_bsr:
        return scipy.sparse.bsr_array((v, pi, ci), shape=tuple(self.shape))
    # BSC has no SciPy format: its BSR transpose's transpose keeps the blocks
    t = _C._compressed_recompress(self)
    ci, pi, v = (x.numpy() for x in _parts(t))
    return scipy.sparse.bsr_array((v, pi, ci), shape=tuple(self.shape))


def from_scipy(m):
    """A tensorlib sparse tensor from a SciPy sparse array or matrix: csr -> CSR, csc ->
    CSC, bsr -> BSR (components shared where the dtypes allow), any other format -> COO."""
    from ._factories import from_numpy
    import numpy as np
    fmt = getattr(m, "format", None)
    layout = {"csr": _C.sparse_csr, "csc": _C.sparse_csc, "bsr": _C.sparse_bsr}.get(fmt)
    if layout is None:
        return _prev_from_scipy(m)
    dt = np.int64 if max(m.indptr.dtype.itemsize, m.indices.dtype.itemsize) > 4 else np.int32
    ci = from_numpy(np.ascontiguousarray(m.indptr.astype(dt, copy=False)))
    pi = from_numpy(np.ascontiguousarray(m.indices.astype(dt, copy=False)))
    return sparse_compressed_tensor(ci, pi, from_numpy(np.ascontiguousarray(m.data)), m.shape, layout=layout)


_prev_from_scipy = _sparse.from_scipy


# ---- op implementations (the gate's table) --------------------------------------------------

def _refuse(name):
    raise NotImplementedError(f"Could not run 'aten::{name}' with arguments from the 'SparseCsrCPU' backend. "
                              "This could be because the operator doesn't exist for this backend.")


def _unsupported(t):
    raise RuntimeError(f"unsupported tensor layout: {_name(t.layout)}")


def _with_values(t, values):
    ci, pi, _ = _parts(t)
    return _new(ci, pi, values, tuple(t.shape[:-t.dense_dim() or None]) + tuple(
        values.shape[values.dim() - t.dense_dim():]), t.layout)


def _clone(self, *, memory_format=None):
    ci, pi, v = _parts(self)
    return _new(ci.clone(), pi.clone(), v.clone(), self.shape, self.layout)


def _detach(self):
    return _new(*_parts(self), self.shape, self.layout)


def _to(self, *args, **kwargs):
    dtype = kwargs.get("dtype")
    copy = kwargs.get("copy", False)
    for a in args:
        if isinstance(a, _C.dtype):
            dtype = a
        elif isinstance(a, _C.TensorBase):
            dtype = a.dtype
        elif isinstance(a, (str, _C.device)) and _C.device(a).type != "cpu":
            raise RuntimeError(f"tensorlib: no backend is loaded for device type '{_C.device(a).type}'")
    if (dtype is None or dtype == self.dtype) and not copy:
        return self
    ci, pi, v = _parts(self)
    v = v.to(dtype if dtype is not None else self.dtype, copy=True)
    return _new(ci.clone() if copy else ci, pi.clone() if copy else pi, v, self.shape, self.layout)


def _empty_parts(t, dtype=None):
    ci, pi, v = _parts(t)
    bd = ci.dim() - 1
    batch = tuple(t.shape[:bd])
    z = _C.zeros(batch + (ci.shape[-1],), dtype=ci.dtype)
    p = _C.empty(batch + (0,), dtype=pi.dtype)
    vals = _C.empty(batch + (0,) + tuple(v.shape[bd + 1:]), dtype=dtype or t.dtype)
    return z, p, vals


def _zero_(self):
    return _C._set_compressed_(self, *_empty_parts(self), tuple(self.shape))


def _copy_(self, src, non_blocking=False):
    if not isinstance(src, _C.TensorBase):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    if src.layout != self.layout:
        raise RuntimeError("torch.copy_: copy of sparse compressed tensors having different layouts is not supported. "
                           f"self layout is {_name(self.layout)} and src layout is {_name(src.layout)}")
    if self.shape != src.shape:
        raise RuntimeError(f"torch.copy_: only sparse compressed tensors with the same shape are supported, but "
                           f"self has shape {list(self.shape)} and src has shape {list(src.shape)}")
    ci, pi, v = _parts(src)
    return _C._set_compressed_(self, ci.clone(), pi.clone(), v.to(self.dtype, copy=True), tuple(src.shape))


def _resize_as_(self, other, *, memory_format=None):
    if not _is_compressed(other) or other.layout != self.layout:
        _refuse("resize_as_")
    ci, pi, v = _parts(other)
    return _C._set_compressed_(self, ci.clone(), pi.clone(), v.to(self.dtype, copy=True), tuple(other.shape))


def _numpy(self, *args, **kwargs):
    raise TypeError(f"can't convert {_name(self.layout)} layout tensor to numpy. Use Tensor.to_dense() first.")


def _transpose(input, dim0, dim1):
    """Swaps the two sparse dims: CSR <-> CSC (the same components), BSR <-> BSC (each
    block transposed); a dim with itself is a copy."""
    from ._util import wrap_dim
    n = input.dim()
    d0, d1 = wrap_dim(dim0, n), wrap_dim(dim1, n)
    bd = _batch_dim(input)
    if d0 == d1:
        return input.clone()
    if sorted((d0, d1)) != [bd, bd + 1]:
        raise RuntimeError(f"transpose(): only the sparse dims {bd} and {bd + 1} of a sparse compressed tensor can be "
                           f"transposed, got {d0} and {d1}")
    ci, pi, v = _parts(input)
    if input.layout in _BLOCK:
        v = v.transpose(bd + 1, bd + 2)
    size = list(input.shape)
    size[bd], size[bd + 1] = size[bd + 1], size[bd]
    return _new(ci, pi, v, size, _FLIP[input.layout])


def _t(input):
    if input.dim() != 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.dim()}D")
    return _transpose(input, 0, 1)


def _select(input, dim, index):
    """select on a batch dim: the compressed tensor of that batch entry."""
    from ._util import wrap_dim
    n = input.dim()
    d = wrap_dim(dim, n)
    bd = _batch_dim(input)
    if d >= bd:
        _refuse("select.int")
    size = input.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at dimension {d}")
    ci, pi, v = (x.select(d, index) for x in _parts(input))
    return _new(ci, pi, v, tuple(input.shape[:d]) + tuple(input.shape[d + 1:]), input.layout)


# the COO list of zero-preserving functions, plus angle (torch has it for compressed
# layouts, not COO)
_ZERO_PRESERVING = _sparse._ZERO_PRESERVING + ("angle",)


def _unary(name):
    def f(input, *args, out=None, **kwargs):
        _sparse._no_out(name, out)
        return _with_values(input, getattr(_C.TensorBase, name)(_values(input), *args, **kwargs))
    f.__name__ = name
    return f


def _ew_unary(op, input, out, inplace, flag, p0, p1, p2):
    if _sparse._EW_NAMES is None:
        _sparse._EW_NAMES = {v: k[2:] for k, v in _C._ew_op_indices().items() if k.startswith("u_")}
    name = _sparse._EW_NAMES.get(op, "_ew_unary")
    if name.startswith("round"):
        name = "round"
    if name not in _ZERO_PRESERVING:
        _unsupported(input)
    _sparse._no_out(name, out)
    r = _with_values(input, _C._ew_unary(op, _values(input), None, False, flag, p0, p1, p2))
    return _set_from(input, r) if inplace else r


def _set_from(self, r):
    if r.dtype != self.dtype and not _C.can_cast(r.dtype, self.dtype):
        raise RuntimeError(f"result type {r.dtype._cname} can't be cast to the desired output type {self.dtype._cname}")
    ci, pi, v = _parts(r)
    return _C._set_compressed_(self, ci, pi, v.to(self.dtype), tuple(r.shape))


def _inplace(op):
    def f(self, *args, **kwargs):
        return _set_from(self, op(self, *args, **kwargs))
    return f


def _square(input, *, out=None):
    _sparse._no_out("square", out)
    return _with_values(input, _C._square(_values(input)))


# ---- products, sums, arithmetic ---------------------------------------------------------------

def _check_same_dtype(a, b):
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype._cname} but found {b.dtype._cname}")


def _as_csr(a):
    """A 2-D compressed tensor without dense dims as CSR (the product kernel's layout)."""
    if a.layout == _C.sparse_csr:
        return a
    if a.layout == _C.sparse_csc:
        return _C._compressed_recompress(a)
    return _coo_to(_C._compressed_to_coo(a), _C.sparse_csr, None, None)  # BSR/BSC: element level


def _csr_times(a, b):
    """2-D compressed a (no dense dims) @ strided b (1-D or 2-D), a strided result."""
    _check_same_dtype(a, b)
    if a.dtype == _C.bool:
        raise NotImplementedError("\"addmm_out_sparse_csr_impl_mkl\" not implemented for 'Bool'")
    a = _as_csr(a)
    if _C._csr_matmul_supports(a.dtype):
        return _C._csr_matmul(a, b)
    wide = _C.complex64 if a.dtype.is_complex else _C.float32  # float16, bfloat16, ...
    return _C._csr_matmul(a.to(wide), b.to(wide)).to(a.dtype)


def _matmul_impl(name, a, b):
    """compressed @ strided, strided @ compressed, compressed @ compressed (2-D; batched
    compressed @ strided by batch entries)."""
    if _is_compressed(a) and _is_compressed(b):
        r = _matmul_impl(name, a, b.to_dense())
        return _convert(r, a.layout if a.layout in (_C.sparse_csr, _C.sparse_csc) else _C.sparse_csr)
    if _is_compressed(b):  # x @ S = (S^T @ x^T)^T
        if a.dim() not in (1, 2) or b.dim() != 2 or b.dense_dim():
            _refuse(name)
        if a.shape[-1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({'x'.join(map(str, (a.shape if a.dim() == 2 else (1,) + tuple(a.shape))))} "
                               f"and {b.shape[0]}x{b.shape[1]})")
        r = _csr_times(_transpose(b, 0, 1), a.t() if a.dim() == 2 else a)
        return r.t() if a.dim() == 2 else r
    if not _is_compressed(a) or a.dense_dim() or b.dim() not in (1, 2):
        _refuse(name)
    bd = _batch_dim(a)
    if bd:
        from ._join import stack
        flat = a.shape[:bd]
        parts = [_matmul_impl(name, _select(a, 0, i), b) for i in range(flat[0])]
        return stack(parts, 0)
    if a.shape[1] != b.shape[0]:
        if b.dim() == 1:
            raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                               f"vec ({b.shape[0]})")
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                           f"{b.shape[0]}x{b.shape[1]})")
    return _csr_times(a, b)


def _mm(input, mat2, *, out=None):
    _sparse._no_out("mm", out)
    return _matmul_impl("mm", input, mat2)


def _matmul(input, other, *, out=None):
    _sparse._no_out("matmul", out)
    return _matmul_impl("matmul", input, other)


def _mv(input, vec, *, out=None):
    _sparse._no_out("mv", out)
    if vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, 2, {vec.dim()}")
    return _matmul_impl("mv", input, vec)


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2) with a compressed mat1 or mat2: a strided result."""
    _sparse._no_out("addmm", out)
    p = _matmul_impl("addmm", mat1, mat2)
    if _is_compressed(input):
        input = input.to_dense()
    r = p * alpha if alpha != 1 else p
    if beta == 0:
        return r + _C.zeros(tuple(input.shape), dtype=r.dtype)
    return r + (input * beta if beta != 1 else input)


def _grid_csr(t):
    """A 2-D compressed tensor as the CSR tensor of its block grid (compressed dim first),
    values unchanged: the view in which any compressed layout adds like CSR."""
    ci, pi, v = _parts(t)
    bs = _blocksize(t) or (1, 1)
    r, c = t.shape[0] // max(bs[0], 1), t.shape[1] // max(bs[1], 1)
    return _new(ci, pi, v, ((r, c) if t.layout in _ROW else (c, r)) + tuple(v.shape[1:]), _C.sparse_csr)


def _add_impl(a, b, alpha):
    if _is_compressed(a) and _is_compressed(b):
        if a.layout != b.layout:
            raise RuntimeError(f"add: expected 'self' and 'other' to have the same layout, but got {_name(a.layout)} "
                               f"and {_name(b.layout)}")
        if a.shape != b.shape:
            raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has size "
                               f"{list(a.shape)} while other has size {list(b.shape)} (FYI: dense-sparse addition "
                               "does not currently support broadcasting)")
        dt = _C.promote_types(a.dtype, b.dtype)
        a, b = a.to(dt), b.to(dt)
        if _batch_dim(a) or _blocksize(a) != _blocksize(b):  # through the strided sum
            return _convert(a.to_dense() + b.to_dense() * alpha, a.layout, _blocksize(a), a.dense_dim())
        ga, gb = _grid_csr(a), _grid_csr(b)
        s = (_C._compressed_to_coo(ga) + _C._compressed_to_coo(gb) * alpha).coalesce()
        ci, pi, v = _parts(_C._coo_to_compressed(s, _C.sparse_csr))
        if _parts(a)[0].dtype == _C.int32 and _parts(b)[0].dtype == _C.int32:
            ci, pi = ci.to(_C.int32), pi.to(_C.int32)
        return _new(ci, pi, v, a.shape, a.layout)
    if _is_compressed(a):
        return a.to_dense().add(b, alpha=alpha)
    return a.add(b.to_dense(), alpha=alpha)


def _add(input, other, *, alpha=1, out=None):
    _sparse._no_out("add", out)
    if not isinstance(other, _C.TensorBase) or not isinstance(input, _C.TensorBase):
        _unsupported(input if _is_compressed(input) else other)
    return _add_impl(input, other, alpha)


def _mul(input, other, *, out=None):
    _sparse._no_out("mul", out)
    if _is_compressed(input) and _sparse._scalar_operand(other):
        return _with_values(input, _values(input) * other)
    if _is_compressed(other) and _sparse._scalar_operand(input):
        return _with_values(other, _values(other) * input)
    _refuse("mul.Tensor")


def _reduce(x, code, dim, keepdim, dtype, param):
    """The full sum of a compressed tensor sums its stored values (a 0-d strided tensor)."""
    name = _sparse._REDUCE_NAMES[code] if 0 <= code < len(_sparse._REDUCE_NAMES) else "_reduce"
    if name == "sum" and dim is None and not keepdim:
        return _values(x).sum(dtype=dtype)
    if name == "sum" and x.layout != _C.sparse_csr:
        raise RuntimeError("Currently the only compressed sparse format supported for sum.dim_IntList is CSR, but "
                           f"got layout {_name(x.layout)}")
    if name == "sum" and not keepdim:
        raise RuntimeError("reduction operations on CSR tensors with keepdim=False is unsupported")
    _refuse(name if name != "sum" else "sum.dim_IntList")


def _empty_like(input, dtype=None, memory_format=None):
    """empty_like/zeros_like: the same layout, shape and index dtype with nothing stored."""
    return _new(*_empty_parts(input, dtype), input.shape, input.layout)


def _factory(*size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, **kw):
    """zeros/empty(..., layout=CSR or CSC): nothing stored (int64 indices; dims before the
    last two are batch dims); the block layouts need a blocksize factories cannot take."""
    _sparse._no_grad(requires_grad)
    if "size" in kw:
        size = (kw.pop("size"),)
    if kw:
        raise TypeError(f"zeros() got an unexpected keyword argument '{next(iter(kw))}'")
    if len(size) == 1 and isinstance(size[0], (tuple, list, _C.Size)):
        size = tuple(size[0])
    if layout in _BLOCK or len(size) < 2:
        raise RuntimeError("torch.empty: Only batched sparse compressed (non-block) tensors are supported, but got "
                           f"size {list(size)}" if len(size) < 2 else
                           f"empty_sparse_compressed expected sparse compressed (non-block) tensor layout but got "
                           f"{_name(layout)}")
    batch, ncomp = tuple(size[:-2]), size[-2] if layout == _C.sparse_csr else size[-1]
    ci = _C.zeros(batch + (ncomp + 1,), dtype=_C.int64)
    pi = _C.empty(batch + (0,), dtype=_C.int64)
    v = _C.empty(batch + (0,), dtype=dtype or _C.get_default_dtype())
    return _new(ci, pi, v, size, layout)


def sampled_addmm(input, mat1, mat2, *, beta=1., alpha=1., out=None):
    """tensorlib.sparse.sampled_addmm: ``beta * input + alpha * (mat1 @ mat2)`` at the stored
    elements of the CSR ``input`` only (a CSR result with input's indices)."""
    _sparse._no_out("sampled_addmm", out)
    if not (isinstance(input, _C.TensorBase) and input.layout == _C.sparse_csr):
        raise RuntimeError(f"sampled_addmm: Expected self to be a sparse CSR tensor, got {_name(input.layout)}")
    if input.dim() != 2 or mat1.dim() != 2 or mat2.dim() != 2:
        raise RuntimeError("sampled_addmm: expected 2-D operands")
    if mat1.shape[1] != mat2.shape[0] or (mat1.shape[0], mat2.shape[1]) != tuple(input.shape):
        raise RuntimeError(f"sampled_addmm: shapes {list(input.shape)}, {list(mat1.shape)} and {list(mat2.shape)} "
                           "do not match")
    if not (input.dtype == mat1.dtype == mat2.dtype):
        raise RuntimeError(f"sampled_addmm: expected mat1, mat2 and self to have the same dtype, got "
                           f"{mat1.dtype._cname}, {mat2.dtype._cname} and {input.dtype._cname}")
    ci, pi, v = _parts(input)
    rows = _C._compressed_to_coo(input)._indices()[0]
    prod = (mat1.index_select(0, rows) * mat2.t().index_select(0, pi.to(_C.int64))).sum(-1)
    return _new(ci, pi, v * beta + prod * alpha, input.shape, input.layout)


def spsolve(input, other, *, left=True):
    """tensorlib.sparse.spsolve: the solution X of ``input @ X = other`` (``X @ input =
    other`` with left=False) for a square 2-D sparse ``input`` and a strided right-hand side
    (a vector or a matrix). torch's CPU build refuses; tensorlib solves through the strided
    matrix's LU (LAPACK), so it suits moderate sizes."""
    from . import linalg
    if not (_is_compressed(input) or (isinstance(input, _C.TensorBase) and input.layout == _C.sparse_coo)):
        raise RuntimeError(f"spsolve: expected a sparse input, got {_name(input.layout)}")
    if input.dim() != 2 or input.shape[0] != input.shape[1]:
        raise RuntimeError(f"spsolve: expected a square 2-D sparse matrix, got shape {list(input.shape)}")
    a = input.to_dense()
    if left:
        return linalg.solve(a, other)
    if other.dim() == 1:  # x @ A = b  <=>  A^T x = b
        return linalg.solve(a.t(), other)
    return linalg.solve(a.t(), other.t()).t()  # X @ A = B  <=>  A^T X^T = B^T


def _softmax(input, dim, dtype, log):
    """Softmax of the stored values along ``dim`` (unstored elements count as -inf, as
    torch's sparse softmax): every group of stored elements sharing their other indices is
    normalized on its own; the result keeps the layout and indices."""
    from ._util import wrap_dim
    if input.layout not in (_C.sparse_csr, _C.sparse_csc) or input.dense_dim():
        raise NotImplementedError(f"softmax: only CSR and CSC tensors without dense dims are supported, got "
                                  f"{_name(input.layout)} with {input.dense_dim()} dense dims")
    n = input.dim()
    d = wrap_dim(dim, n)
    bd = _batch_dim(input)
    if d < bd:
        raise RuntimeError(f"softmax: dim {dim} is a batch dim of the sparse compressed tensor")
    ci, pi, v = _parts(input)
    if dtype is not None:
        v = v.to(dtype)
    if not (v.dtype.is_floating_point or v.dtype.is_complex):
        raise RuntimeError(f"softmax: expected a floating point tensor, got {v.dtype}")
    ind = _C._compressed_to_coo(input)._indices()   # (bd + 2, numel of pi), storage order
    other = ind[bd + 1] if d == bd else ind[bd]      # the index along the kept sparse dim
    size_other = input.shape[bd + 1] if d == bd else input.shape[bd]
    group = other
    for i in range(bd - 1, -1, -1):                  # batch entries are groups of their own
        group = group + ind[i] * (size_other * _prod(input.shape[i + 1:bd]))
    flat = v.reshape(-1)
    ngroups = _prod(input.shape[:bd]) * size_other
    mx = _C.zeros(ngroups, dtype=flat.dtype).scatter_reduce(0, group, flat, "amax", include_self=False)
    shifted = flat - mx.index_select(0, group)
    e = shifted.exp()
    total = _C.zeros(ngroups, dtype=flat.dtype).index_add(0, group, e).index_select(0, group)
    r = shifted - total.log() if log else e / total
    return _new(ci, pi, r.reshape(tuple(v.shape)), input.shape, input.layout)


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def softmax(input, dim, *, dtype=None):
    """tensorlib.sparse.softmax on CSR/CSC (torch's CPU build refuses them): see _softmax."""
    if not _is_compressed(input):
        raise NotImplementedError("tensorlib.sparse.softmax: only the compressed layouts (CSR, CSC) are supported")
    return _softmax(input, dim, dtype, False)


def log_softmax(input, dim, *, dtype=None):
    """tensorlib.sparse.log_softmax on CSR/CSC: see softmax."""
    if not _is_compressed(input):
        raise NotImplementedError("tensorlib.sparse.log_softmax: only the compressed layouts (CSR, CSC) are supported")
    return _softmax(input, dim, dtype, True)


def _unsupported_op(input, *args, **kwargs):
    _unsupported(input if _is_compressed(input) else _first_compressed(args, kwargs))


_OWN = {
    "clone": _clone, "detach": _detach, "to": _to, "zero_": _zero_, "copy_": _copy_, "resize_as_": _resize_as_,
    "numpy": _numpy, "transpose": _transpose, "t": _t, "select": _select, "_ew_unary": _ew_unary,
    "_square": _square, "mm": _mm, "matmul": _matmul, "mv": _mv, "addmm": addmm, "add": _add, "mul": _mul,
    "multiply": _mul, "_reduce": _reduce, "sub": _unsupported_op, "subtract": _unsupported_op,
    "div": _unsupported_op, "divide": _unsupported_op, "true_divide": _unsupported_op,
    "_empty_like": _empty_like, "zeros": _factory, "empty": _factory,
}
for _n in _ZERO_PRESERVING:
    _OWN[_n] = _unary(_n)
    _OWN[_n + "_"] = _inplace(_OWN[_n])
# the other element-wise unary functions (f(0) != 0 in general) refuse, with torch's message
for _n in _C._ew_op_indices():
    if _n.startswith("u_") and _n[2:] not in _OWN and not _n[2:].startswith(("round", "clamp")):
        _OWN[_n[2:]] = _OWN[_n[2:] + "_"] = lambda input, *args, **kwargs: _unsupported(input)
for _n in ("add", "mul", "multiply"):
    _OWN[_n + "_"] = _inplace(_OWN[_n])
for _n, _d in _sparse._CASTS.items():
    _OWN[_n] = functools.partial(lambda dt, self, memory_format=None: _to(self, getattr(_C, dt)), _d)


def _first_compressed(args, kwargs):
    for a in args:
        if _is_compressed(a):
            return a
        if isinstance(a, (list, tuple)):
            for b in a:
                if _is_compressed(b):
                    return b
    for a in kwargs.values():
        if _is_compressed(a):
            return a
    return None


def _dispatcher(name, mine, prev):
    def f(*args, **kwargs):
        t = _first_compressed(args, kwargs)
        if t is None and kwargs.get("layout") in _COMPRESSED and mine is not None:  # a factory's layout=
            return mine(*args, **kwargs)
        if t is None:
            if prev is None:
                _sparse._refuse(name)
            return prev(*args, **kwargs)
        if mine is None:
            _refuse(name)
        return mine(*args, **kwargs)
    f.__name__ = name
    return f


def _register(handlers):
    """Wraps every registered op name (and adds this module's) so compressed arguments come here."""
    for name in set(handlers) | set(_OWN):
        handlers[name] = _dispatcher(name, _OWN.get(name), handlers.get(name))


def _ns_mm(mat1, mat2):
    return _matmul_impl("mm", mat1, mat2)


def _ns_sum(input, dim=None, dtype=None):
    return _reduce(input, 0, dim, False, dtype, 0.0)


def _namespace_addmm(mat, mat1, mat2, *, beta=1., alpha=1.):
    """tensorlib.sparse.addmm: beta * mat + alpha * (mat1 @ mat2) with a sparse mat1 (or
    mat2); a strided result."""
    if not (_is_compressed(mat1) or _is_compressed(mat2)):
        return _C.addmm(mat, mat1, mat2, beta=beta, alpha=alpha)
    return addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def _install_methods(Tensor, namespace):
    """Installs the Tensor methods and tensorlib.sparse's compressed-aware functions."""
    namespace.from_scipy = from_scipy
    namespace.addmm = _namespace_addmm
    namespace.sampled_addmm = sampled_addmm
    namespace.spsolve = spsolve
    namespace.softmax = softmax
    namespace.log_softmax = log_softmax
    for name in ("mm", "sum"):
        prev = getattr(namespace, name)
        setattr(namespace, name, _wrap_method(prev, {"mm": _ns_mm, "sum": _ns_sum}[name],
                                              lambda s, a, k: _is_compressed(s) or any(map(_is_compressed, a))))
    for f in (crow_indices, col_indices, ccol_indices, row_indices, to_sparse_csr, to_sparse_csc, to_sparse_bsr,
              to_sparse_bsc):
        setattr(Tensor, f.__name__, f)
    Tensor.values = _wrap_method(Tensor.values, _values, lambda s, a, k: _is_compressed(s))
    Tensor.to_dense = _wrap_method(Tensor.to_dense, _to_dense, lambda s, a, k: _is_compressed(s))
    Tensor.to_sparse = _wrap_method(Tensor.to_sparse, _to_sparse, _to_sparse_mine)
    Tensor.to_sparse_coo = _wrap_method(Tensor.to_sparse_coo, _to_coo, lambda s, a, k: _is_compressed(s))
    Tensor.to_scipy = _wrap_method(Tensor.to_scipy, _to_scipy, lambda s, a, k: _is_compressed(s))


_register(_sparse._HANDLERS)
del _n, _d
