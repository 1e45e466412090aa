"""The compressed sparse layouts (CSR, CSC, BSR, BSC): constructors, attributes,
conversions among every layout pair, copies, transposes and unary functions; the other ops
are in _sparse_compressed_ops.py.

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
    if device is not None:
        ci, pi, values = ci.to(device), pi.to(device), values.to(device)
    if ci.device.type != "cpu" or pi.device.type != "cpu" or values.device.type != "cpu":
        from ._sparse_device import compressed_new
        return compressed_new(ci, pi, values, size, layout, check_invariants is not False)
    from ._factories import _pinned
    return _pinned(_C._sparse_compressed_new(ci, pi, values, size, layout, check_invariants is not False), pin_memory)


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
    bs = (blocksize, blocksize) if isinstance(blocksize, int) else tuple(blocksize)  # torch takes an int too
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

def _refuse(name, t=None):
    where = "CUDA" if t is not None and t.device.type == "cuda" else "CPU"
    raise NotImplementedError(f"Could not run 'aten::{name}' with arguments from the 'SparseCsr{where}' backend. "
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
    dtype, copy, device, non_blocking = _sparse._to_args(args, kwargs)
    moved = _sparse._moved(self, device, non_blocking)
    if moved is not self:
        self, copy = moved, False
    if (dtype is None or dtype == self.dtype) and not copy:
        return self
    ci, pi, v = _parts(self)
    v = v.to(dtype if dtype is not None else self.dtype, copy=True)
    return _new(ci.clone() if copy else ci, pi.clone() if copy else pi, v, self.shape, self.layout)


def _empty_parts(t, dtype=None):
    ci, pi, v = _parts(t)
    bd = ci.dim() - 1
    batch = tuple(t.shape[:bd])
    z = _C.zeros(batch + (ci.shape[-1],), dtype=ci.dtype, device=t.device)
    p = _C.empty(batch + (0,), dtype=pi.dtype, device=t.device)
    vals = _C.empty(batch + (0,) + tuple(v.shape[bd + 1:]), dtype=dtype or t.dtype, device=t.device)
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
    ci, pi, v = _parts(_sparse._moved(src, self.device, non_blocking))
    return _C._set_compressed_(self, ci.clone(), pi.clone(), v.to(self.dtype, copy=True), tuple(src.shape))


def _resize_as_(self, other, *, memory_format=None):
    if not _is_compressed(other) or other.layout != self.layout:
        _refuse("resize_as_")
    ci, pi, v = _parts(_sparse._moved(other, self.device, False))
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
        _sparse._tensor_input(name, input)
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
    _sparse._tensor_input(name, input)
    if name not in _ZERO_PRESERVING:
        _unsupported(input)
    _sparse._no_out(name, out)
    r = _with_values(input, _C._ew_unary(op, _values(input), None, False, flag, p0, p1, p2))
    return _set_from(input, r) if inplace else r


def _set_from(self, r):
    if r.dtype != self.dtype and not _C.can_cast(r.dtype, self.dtype):
        raise RuntimeError(f"result type {r.dtype._cname} can't be cast to the desired output type {self.dtype._cname}")
    ci, pi, v = _parts(r)
    idt = _parts(self)[0].dtype  # in place keeps self's index dtype, as torch
    return _C._set_compressed_(self, ci.to(idt), pi.to(idt), v.to(self.dtype), tuple(r.shape))


def _inplace(op):
    def f(self, *args, **kwargs):
        return _set_from(self, op(self, *args, **kwargs))
    return f


def _square(input, *, out=None):
    _sparse._no_out("square", out)
    return _with_values(input, _C._square(_values(input)))


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


from ._sparse_compressed_ops import (  # noqa: E402  (it reads the helpers above)
    _mm, _matmul, _mv, addmm, _add, _mul, _mul_, _reduce, _unsupported_op, _empty_like, _factory, sampled_addmm, spsolve,
    softmax, log_softmax, _ns_mm, _ns_sum, _namespace_addmm)


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
        _OWN[_n[2:]] = _OWN[_n[2:] + "_"] = functools.partial(
            lambda name, input, *args, **kwargs: (_sparse._tensor_input(name, input), _unsupported(input)), _n[2:])
_OWN["add_"] = _inplace(_OWN["add"])
_OWN["mul_"] = _OWN["multiply_"] = _mul_
for _n, _d in _sparse._CASTS.items():
    _OWN[_n] = functools.partial(lambda dt, self, memory_format=None: _to(self, getattr(_C, dt)), _d)


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
            _refuse(name, t)
        return mine(*args, **kwargs)
    f.__name__ = name
    return f


def _register(handlers):
    """Wraps every registered op name (and adds this module's) so compressed arguments come here."""
    for name in set(handlers) | set(_OWN):
        handlers[name] = _dispatcher(name, _OWN.get(name), handlers.get(name))


def _rebuild(ci, pi, values, size, layout_name):
    """Unpickling: the compressed tensor of the pickled components."""
    return _new(ci, pi, values, size, getattr(_C, layout_name))


def _reduce_ex(self, proto):
    return (_rebuild, (*_parts(self), tuple(self.shape), str(self.layout).split(".")[-1]))


def _install_methods(Tensor, namespace):
    """Installs the Tensor methods and tensorlib.sparse's compressed-aware functions."""
    namespace.from_scipy = from_scipy
    namespace.addmm = _namespace_addmm
    namespace.sampled_addmm = sampled_addmm
    namespace.spsolve = spsolve
    # the COO functions of tensorlib.sparse stay for the other layouts
    for name, mine in (("mm", _ns_mm), ("sum", _ns_sum), ("softmax", softmax), ("log_softmax", log_softmax)):
        setattr(namespace, name, _wrap_method(getattr(namespace, name), mine,
                                              lambda s, a, k: _is_compressed(s) or any(map(_is_compressed, a))))
    for f in (crow_indices, col_indices, ccol_indices, row_indices, to_sparse_csr, to_sparse_csc, to_sparse_bsr,
              to_sparse_bsc):
        setattr(Tensor, f.__name__, f)
    Tensor.values = _wrap_method(Tensor.values, _values, lambda s, a, k: _is_compressed(s))
    Tensor.to_dense = _wrap_method(Tensor.to_dense, _to_dense, lambda s, a, k: _is_compressed(s))
    Tensor.to_sparse = _wrap_method(Tensor.to_sparse, _to_sparse, _to_sparse_mine)
    Tensor.to_sparse_coo = _wrap_method(Tensor.to_sparse_coo, _to_coo, lambda s, a, k: _is_compressed(s))
    Tensor.to_scipy = _wrap_method(Tensor.to_scipy, _to_scipy, lambda s, a, k: _is_compressed(s))
    Tensor.__reduce_ex__ = _wrap_method(Tensor.__reduce_ex__, _reduce_ex, lambda s, a, k: _is_compressed(s))


_register(_sparse._HANDLERS)
del _n, _d
