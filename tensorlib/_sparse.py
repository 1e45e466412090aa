"""Sparse COO tensors: the constructor, validation switch, attributes and conversions.

The C side (csrc/sparse/, bound in csrc/python/sparse.c) holds a sparse tensor as strided
component tensors; this module composes those primitives and fills the layout gate's
table (csrc/python/gate.c): the op names listed in ``_HANDLERS`` run here when an argument
is sparse, every other op refuses sparse tensors with torch's NotImplementedError.
"""
import functools

from . import _C
from ._util import require_tensor as _tensor_input

__all__ = ["sparse_coo_tensor", "check_sparse_tensor_invariants"]


class check_sparse_tensor_invariants:
    """torch's switch for COO invariant checks: a context manager, a decorator, and the
    global ``enable()``/``disable()``/``is_enabled()``.

    tensorlib validates user-built components by default whatever this says; the switch
    exists for torch compatibility (``check_invariants=False`` is what skips the checks).
    """

    _enabled = False

    def __init__(self, enable=True):
        self.state = enable
        self.saved_state = None

    @staticmethod
    def is_enabled():
        """Whether the global invariant check is on (torch's flag; False by default)."""
        return check_sparse_tensor_invariants._enabled

    @staticmethod
    def enable():
        """Turns the global invariant check on."""
        check_sparse_tensor_invariants._enabled = True

    @staticmethod
    def disable():
        """Turns the global invariant check off."""
        check_sparse_tensor_invariants._enabled = False

    def __enter__(self):
        if self.saved_state is not None:
            raise RuntimeError("This context manager instance is already activated. Use a different context manager instance for context nesting.")
        self.saved_state = self.is_enabled()
        check_sparse_tensor_invariants._enabled = self.state

    def __exit__(self, exc_type, exc_value, traceback):
        check_sparse_tensor_invariants._enabled = self.saved_state
        self.saved_state = None

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with check_sparse_tensor_invariants(self.state):
                return func(*args, **kwargs)
        return wrapper


def _no_grad(requires_grad):
    if requires_grad:
        raise RuntimeError("tensorlib has no autograd yet: requires_grad=True is not supported")


def sparse_coo_tensor(indices=None, values=None, size=None, *, dtype=None, device=None, pin_memory=False,
                      requires_grad=False, check_invariants=None, is_coalesced=None):
    """A sparse COO tensor from int64 ``indices`` (sparse_dim x nse) and ``values``
    (nse x dense dims), sharing them; ``sparse_coo_tensor(size)`` (or ``size=``) alone is an
    empty one (no specified elements, ``dtype`` or the default dtype), as in torch.

    ``size`` defaults to the smallest that holds the indices (max index + 1 per sparse dim,
    then values' dense dims). Unlike torch, the components are validated by default
    (indices 2-D, in range and non-negative, values' first dim == nse, size consistent
    with the dense dims) with torch's errors; ``check_invariants=False`` skips the bounds
    scan. ``is_coalesced=True`` declares the indices sorted and unique (checked unless
    ``check_invariants=False``).

        >>> i = tensorlib.tensor([[0, 1, 1], [2, 0, 2]])
        >>> tensorlib.sparse_coo_tensor(i, tensorlib.tensor([3, 4, 5]), (2, 3)).to_dense()
        tensor([[0, 0, 3],
                [4, 0, 5]])
    """
    from ._factories import as_tensor
    if values is None:
        if size is None and indices is not None and not isinstance(indices, _C.TensorBase):
            indices, size = None, indices  # the size-only form, size given by position
        if indices is not None or size is None:
            raise TypeError("sparse_coo_tensor() takes (indices, values, size=None, ...) or (size, ...): "
                            "values are missing")
        size = tuple(size)
        return sparse_coo_tensor(_C.zeros((len(size), 0), dtype=_C.int64),
                                 _C.zeros((0,), dtype=dtype or _C.get_default_dtype()), size,
                                 device=device, pin_memory=pin_memory, requires_grad=requires_grad,
                                 is_coalesced=True)
    _no_grad(requires_grad)
    if not isinstance(indices, _C.TensorBase):
        indices = as_tensor(indices)
    if indices.dtype != _C.int64:
        indices = indices.to(_C.int64)
    if not isinstance(values, _C.TensorBase):
        values = as_tensor(values, dtype=dtype)
    elif dtype is not None and values.dtype != dtype:
        values = values.to(dtype)
    if values.dim() == 0:
        values = values.reshape(1)
    if size is not None and not isinstance(size, (tuple, list, _C.Size)):
        raise TypeError(f"sparse_coo_tensor(): argument 'size' must be tuple of ints, not {type(size).__name__}")
    check = check_invariants is not False
    if device is not None:
        indices, values = indices.to(device), values.to(device)
    if indices.device.type != "cpu" or values.device.type != "cpu":
        from ._sparse_device import coo_new
        return coo_new(indices, values, size, check, is_coalesced)
    from ._factories import _pinned
    return _pinned(_C._sparse_coo_new(indices, values, size, check, is_coalesced), pin_memory)


def _new(indices, values, size, coalesced):
    """A COO tensor over trusted components (already validated)."""
    return _C._sparse_coo_new(indices, values, tuple(size), False, coalesced)


# ---- Tensor methods (installed on Tensor; strided tensors answer as torch does) -----------

def _indices_checked(self, what):
    if self.layout != _C.sparse_coo:
        raise RuntimeError(f"{what} expected sparse coordinate tensor layout but got {_layout_name(self)}")
    if not self.is_coalesced():
        raise RuntimeError(f"Cannot get {what} on an uncoalesced tensor, please call .coalesce() first")


def _layout_name(t):
    return {_C.strided: "Strided", _C.sparse_csr: "SparseCsr", _C.sparse_csc: "SparseCsc",
            _C.sparse_bsr: "SparseBsr", _C.sparse_bsc: "SparseBsc"}.get(t.layout, "Sparse")


def indices(self):
    """The indices of a coalesced COO tensor (shared); RuntimeError when uncoalesced."""
    _indices_checked(self, "indices")
    return self._indices()


def values(self):
    """The values of a coalesced COO tensor (shared); RuntimeError when uncoalesced."""
    _indices_checked(self, "values")
    return self._values()


def coalesce(self):
    """self when coalesced, else a copy with duplicates summed and indices sorted."""
    if self.layout != _C.sparse_coo:
        raise RuntimeError(f"coalesce expected sparse coordinate tensor layout but got {_layout_name(self)}")
    return self if self.is_coalesced() else self._coalesce()


def to_dense(self, dtype=None, *, masked_grad=None):
    """The strided tensor with the same elements (self when already strided)."""
    r = self if self.layout == _C.strided else self._coo_to_dense()
    return r if dtype is None else r.to(dtype)


def to_sparse(self, *args, layout=None, blocksize=None, dense_dim=None):
    """A COO tensor of the non-zero elements: ``to_sparse(sparse_dim)`` keeps the last
    ``ndim - sparse_dim`` dims dense; ``to_sparse(layout=tensorlib.sparse_coo)``."""
    sparse_dim = args[0] if args else None
    if len(args) > 1:
        raise TypeError(f"to_sparse() takes from 0 to 1 positional arguments but {len(args)} were given")
    if layout is not None and layout != _C.sparse_coo:
        raise NotImplementedError(f"to_sparse: conversion to {layout} is not supported yet")
    if self.layout == _C.sparse_coo:
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError(f"to_sparse: conversion from Sparse to Sparse with sparse_dim argument != "
                               f"self.sparse_dim() is not supported")
        return self
    if self.layout != _C.strided:
        raise NotImplementedError(f"to_sparse: conversion from {self.layout} is not supported yet")
    if sparse_dim is None:
        sparse_dim = self.dim()
    if sparse_dim == 0 and self.dim() > 0:
        raise RuntimeError("dense_to_sparse: sparse_dim argument must be in >0 when self.dim()>0")
    if self.has_names():
        raise RuntimeError("to_sparse: named tensors are not supported by sparse layouts")
    return _C._dense_to_sparse(self, sparse_dim)


def to_sparse_coo(self):
    """to_sparse(layout=tensorlib.sparse_coo)."""
    return to_sparse(self)


def sparse_mask(self, mask):
    """The elements of strided self at the indices of COO ``mask``, as a COO tensor with
    mask's indices (and coalesced flag)."""
    if not isinstance(mask, _C.TensorBase):
        raise TypeError(f"sparse_mask(): argument 'mask' (position 1) must be Tensor, not {type(mask).__name__}")
    if not _is_sparse(mask):
        raise RuntimeError("sparse_mask expects mask to be sparse COO tensor, but got mask layout " + str(mask.layout))
    if self.shape != mask.shape:
        raise RuntimeError("sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(self.shape)} but mask has size {list(mask.shape)}")
    ind = mask._indices()
    vals = self.to_dense()[tuple(ind[d] for d in range(ind.shape[0]))] if ind.shape[1] else \
        _C.empty((0,) + tuple(self.shape[mask.sparse_dim():]), dtype=self.dtype, device=self.device)
    return _new(ind.clone(), vals, self.shape, mask.is_coalesced())


def narrow_copy(self, dim, start, length):
    """A copy of narrow(dim, start, length); for COO, the entries inside the range
    (shifted) when dim is sparse, or the narrowed values when it is dense."""
    if not _is_sparse(self):
        return self.narrow(dim, start, length).clone()
    n = self.dim()
    if not 0 <= dim < n:  # torch's sparse narrow_copy takes no negative dim
        raise RuntimeError(f"Dimension {dim} out of range. Expecting 0 <= dim < {n}.")
    size = self.shape[dim]
    if start < 0 or length < 0 or start + length > size:
        raise RuntimeError(f"Invalid range to narrow. range(start, start+length) must be a subset of range(0, {size}).")
    new_size = list(self.shape)
    new_size[dim] = length
    sd = self.sparse_dim()
    ind, val = self._indices(), self._values()
    if dim >= sd:
        return _new(ind.clone(), val.narrow(dim - sd + 1, start, length).clone(), new_size, self.is_coalesced())
    keep = (ind[dim] >= start) & (ind[dim] < start + length)
    shift = _C.zeros((sd, 1), dtype=_C.int64, device=ind.device)
    shift[dim] = start
    return _new(ind[:, keep] - shift, val[keep], new_size, self.is_coalesced())


def sparse_resize_and_clear_(self, size, sparse_dim, dense_dim):
    """Makes self an empty COO tensor of ``size`` with the given sparse and dense dims."""
    if self.layout != _C.sparse_coo:
        _refuse("sparse_resize_and_clear_")
    size = tuple(size)
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                           f"sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
    return self._set_coo_(_C.empty((sparse_dim, 0), dtype=_C.int64, device=self.device),
                          _C.empty((0,) + size[sparse_dim:], dtype=self.dtype, device=self.device), size, True)


# ---- sparse implementations of generic ops (the gate's table) ---------------------------

def _clone(self, *, memory_format=None):
    return _new(self._indices().clone(), self._values().clone(), self.shape, self.is_coalesced())


def _detach(self):
    return _new(self._indices(), self._values(), self.shape, self.is_coalesced())


def _to_args(args, kwargs):
    """(dtype or None, copy, device or None, non_blocking) of a sparse tensor's to(...) call
    (every sparse layout)."""
    dtype, device = kwargs.get("dtype"), kwargs.get("device")
    for a in args:
        if isinstance(a, _C.dtype):
            dtype = a
        elif isinstance(a, _C.TensorBase):
            dtype, device = a.dtype, a.device
        elif isinstance(a, (str, _C.device)):
            device = a
    return dtype, kwargs.get("copy", False), device, kwargs.get("non_blocking", False)


def _moved(self, device, non_blocking):
    """self on ``device`` (tensorlib/_sparse_device.py), self when None or already there."""
    if device is None:
        return self
    from ._sparse_device import move
    return move(self, device, non_blocking)


def _factory_size(size, kw):
    """The size of a sparse zeros/empty(...) call: varargs, one sequence, or size=."""
    if "size" in kw:
        size = (kw.pop("size"),)
    if kw:
        raise TypeError(f"zeros() got an unexpected keyword argument '{next(iter(kw))}'")
    if len(size) == 1 and isinstance(size[0], (tuple, list, _C.Size)):
        size = tuple(size[0])
    return size


def _to(self, *args, **kwargs):
    dtype, copy, device, non_blocking = _to_args(args, kwargs)
    moved = _moved(self, device, non_blocking)
    if moved is not self:
        self, copy = moved, False
    if (dtype is None or dtype == self.dtype) and not copy:
        return self
    v = self._values().to(dtype if dtype is not None else self.dtype, copy=True)
    return _new(self._indices().clone() if copy else self._indices(), v, self.shape, self.is_coalesced())


def _zero_(self):
    sd = self.sparse_dim()
    return self._set_coo_(_C.empty((sd, 0), dtype=_C.int64, device=self.device),
                          _C.empty((0,) + tuple(self.shape[sd:]), dtype=self.dtype, device=self.device), self.shape, True)


def _copy_(self, src, non_blocking=False):
    if not (isinstance(src, _C.TensorBase) and src.layout == self.layout):
        raise RuntimeError("copy_() between dense and sparse Tensors is not implemented! Found self type = "
                           f"{self.type()} and src type = {src.type() if isinstance(src, _C.TensorBase) else type(src).__name__}")
    src = _moved(src, self.device, non_blocking)
    return self._set_coo_(src._indices().clone(), src._values().to(self.dtype, copy=True), src.shape, src.is_coalesced())


def _numpy(self, *args, **kwargs):
    raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")


def _dlpack(self, *args, **kwargs):
    raise BufferError("Can't export tensors with layout other than torch.strided")


def _no_storage(self, *args, **kwargs):
    raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")


def _empty_like(input, dtype=None, memory_format=None):
    sd = input.sparse_dim()
    dt = dtype or input.dtype
    return _new(_C.empty((sd, 0), dtype=_C.int64, device=input.device),
                _C.empty((0,) + tuple(input.shape[sd:]), dtype=dt, device=input.device), input.shape, True)


def _sparse_factory(*size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, **kw):
    """zeros/empty(..., layout=tensorlib.sparse_coo): an all-zero COO tensor (nse 0, all dims sparse)."""
    if layout != _C.sparse_coo:
        raise NotImplementedError(f"factories do not create {layout} tensors yet")
    _no_grad(requires_grad)
    size = _factory_size(size, kw)
    dt = dtype or _C.get_default_dtype()
    return _new(_C.empty((len(size), 0), dtype=_C.int64, device=device), _C.empty((0,), dtype=dt, device=device),
                size, True)


# ---- arithmetic, zero-preserving unary functions, products, sum (torch 2.13's semantics) --

def _is_sparse(x):
    return isinstance(x, _C.TensorBase) and x.layout != _C.strided


def _no_out(name, out):
    if out is not None:
        raise NotImplementedError(f"{name}: out= is not supported for sparse tensors yet")


def _refuse(name):
    raise NotImplementedError(f"Could not run 'aten::{name}' with arguments from the 'SparseCPU' backend. "
                              "This could be because the operator doesn't exist for this backend.")


def _scalar_operand(x):
    """A Python number or a 0-d strided tensor: the operands sparse mul/div accept."""
    return not isinstance(x, _C.TensorBase) or (x.layout == _C.strided and x.dim() == 0)


def _cat(ts, dim):
    from ._join import cat
    return cat(ts, dim)


def _take(t, dim, pos):
    """t's slices at the positions `pos` along dim, where -1 (an absent entry) reads slice 0
    (or zeros when t has none); the caller masks those out."""
    if t.shape[dim] == 0:
        shape = list(t.shape)
        shape[dim] = pos.shape[0]
        return _C.zeros(tuple(shape), dtype=t.dtype, device=t.device)
    return t.index_select(dim, pos.clamp(min=0))


def _add_impl(name, a, b, alpha, sign):
    if _is_sparse(a) and _is_sparse(b):
        if a.shape != b.shape:
            raise RuntimeError(f"{name}: expected sizes of 'self' and 'other' to match, but "
                               f"{list(a.shape)} != {list(b.shape)}")
        if a.sparse_dim() != b.sparse_dim():
            raise RuntimeError(f"{name}: expected 'self' and 'other' to have same sparse dimensions, but got "
                               f"{a.sparse_dim()} != {b.sparse_dim()}")
        dt = _C.promote_types(a.dtype, b.dtype)
        av, bv = a._values().to(dt), b._values().to(dt)
        if alpha != 1 or sign < 0:
            bv = (bv * (alpha * sign)).to(dt)
        coalesced = a.is_coalesced() and b.is_coalesced()
        contiguous = a._values().is_contiguous() and b._values().is_contiguous()
        if dt == _C.bool and b._nnz():  # torch has no bool kernel (its messages, by path)
            if not a._nnz():
                raise RuntimeError("result type Long can't be cast to the desired output type Bool")
            kernel = "cadd_sparse" if contiguous else "add_out_sparse_cpu"
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
        if not b._nnz():  # torch copies self
            return _new(a._indices().clone(), av.clone(), a.shape, a.is_coalesced())
        if not a._nnz():  # torch: other * alpha
            return _new(b._indices().clone(), bv.clone(), a.shape, b.is_coalesced())
        if not contiguous:
            # torch's other path: concatenate, then sum duplicates, flagged uncoalesced
            r = _new(_cat([a._indices(), b._indices()], 1), _cat([av, bv], 0), a.shape, False)._coalesce()
            return r._coalesced_(coalesced)
        # torch walks both index lists in their stored order, summing equal entries
        # (a merge when both are coalesced): one C pass, see tl_coo_add
        return _C._coo_add(a, av, b, bv)
    if _is_sparse(b) and isinstance(a, _C.TensorBase):
        return a.add(b.to_dense(), alpha=alpha * sign)
    raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")


def _add(input, other, *, alpha=1, out=None):
    _no_out("add", out)
    return _add_impl("add", input, other, alpha, 1)


def _sub(input, other, *, alpha=1, out=None):
    _no_out("sub", out)
    return _add_impl("sub", input, other, alpha, -1)


def _rows(ind, order):
    """A copy of the index rows in the given order."""
    return _cat([ind[r:r + 1] for r in order], 0) if order else ind.clone()


def _transpose(input, dim0, dim1):
    """Swaps two sparse dims (a copy, flagged uncoalesced unless empty, as torch); a dim with
    itself is a clone."""
    from ._util import wrap_dim
    n, sd = input.dim(), input.sparse_dim()
    d0, d1 = wrap_dim(dim0, n), wrap_dim(dim1, n)
    if d0 == d1:
        return input.clone()
    if d0 >= sd or d1 >= sd:
        raise RuntimeError(f"sparse transpose: transposed dimensions must be sparse Got sparse_dim: {sd}, "
                           f"d0: {d0}, d1: {d1}")
    order = list(range(sd))
    order[d0], order[d1] = d1, d0
    size = list(input.shape)
    size[d0], size[d1] = size[d1], size[d0]
    ind = _rows(input._indices(), order)
    return _new(ind, input._values().clone(), size, input._nnz() == 0)


def _t(input):
    sd, dd = input.sparse_dim(), input.dense_dim()
    if sd > 2 or dd:
        raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got {sd} sparse "
                           f"and {dd} dense dimensions")
    return _transpose(input, 0, 1 if sd == 2 else 0)


def _permute(input, *dims):
    """Permutes sparse dims among themselves (the index rows) and dense dims among
    themselves (the values' dims); the values are shared when the dense dims stay."""
    from ._util import wrap_dim
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    n, sd = input.dim(), input.sparse_dim()
    if len(dims) != n:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
                           f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal to "
                           f"len(dims) = {len(dims)}")
    dims = [wrap_dim(d, n) for d in dims]
    if len(set(dims)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    if any(d >= sd for d in dims[:sd]):
        raise RuntimeError("permute(sparse_coo): transpositions between sparse and dense dimensions are not "
                           "allowed.Only transpositions within sparse and dense dimensions are supported.")
    ind = _rows(input._indices(), dims[:sd])
    val = input._values()
    if dims[sd:] != list(range(sd, n)):
        val = val.permute(0, *[d - sd + 1 for d in dims[sd:]])
    same_order = dims[:sd] == list(range(sd))
    return _new(ind, val, [input.shape[d] for d in dims], input.is_coalesced() and same_order)


def _unsqueeze(input, dim):
    """A size-1 dim: a row of zeros in the indices when it lands among the sparse dims,
    else a dim of the (shared) values; flagged uncoalesced unless nse <= 1, as torch."""
    from ._util import wrap_dim
    n, sd = input.dim(), input.sparse_dim()
    d = wrap_dim(dim, n + 1)
    size = list(input.shape)
    size.insert(d, 1)
    ind, val = input._indices(), input._values()
    if d <= sd:
        ind = _cat([ind[:d], _C.zeros((1, ind.shape[1]), dtype=_C.int64, device=ind.device), ind[d:]], 0)
    else:
        val = val.unsqueeze(d - sd + 1)
    return _new(ind, val, size, val.shape[0] <= 1)


def _with_values(s, values, coalesced=None):
    return _new(s._indices(), values, tuple(s.shape[:s.sparse_dim()]) + tuple(values.shape[1:]),
                s.is_coalesced() if coalesced is None else coalesced)


def _mul(input, other, *, out=None):
    _no_out("mul", out)
    if _is_sparse(input) and _scalar_operand(other):
        return _with_values(input, input._values() * other)
    if _is_sparse(other) and _scalar_operand(input):
        return _with_values(other, other._values() * input)
    _refuse("mul.Tensor")


def _div(input, other, *, rounding_mode=None, out=None):
    _no_out("div", out)
    if _is_sparse(input) and _scalar_operand(other):
        return _with_values(input, _C.div(input._values(), other, rounding_mode=rounding_mode))
    _refuse("div.Tensor")


def _floor_divide(input, other, *, out=None):
    _no_out("floor_divide", out)
    if _is_sparse(input) and _scalar_operand(other):  # not linear: torch sums duplicates first
        s = input.coalesce()
        return _with_values(s, s._values() // other, True)
    _refuse("floor_divide")


def _neg(input, *, out=None):
    _no_out("neg", out)
    return _with_values(input, -input._values())


def _inplace(op):
    def f(self, *args, **kwargs):
        r = op(self, *args, **kwargs)
        if not _is_sparse(r) or r.dtype != self.dtype and not _C.can_cast(r.dtype, self.dtype):
            raise RuntimeError(f"result type {r.dtype} can't be cast to the desired output type {self.dtype}")
        return self._set_coo_(r._indices(), r._values().to(self.dtype), r.shape, r.is_coalesced())
    return f


# torch's zero-preserving unary functions on COO: f(0) == 0, so f applies to the stored
# values of the coalesced tensor (the sum of duplicates first, as torch coalesces)
_ZERO_PRESERVING = (
    "abs", "absolute", "neg", "negative", "sign", "sgn", "signbit", "ceil", "floor", "round", "trunc", "fix",
    "frac", "sqrt", "square", "sin", "tan", "tanh", "asin", "arcsin", "atan", "arctan", "sinh", "asinh",
    "arcsinh", "atanh", "arctanh", "expm1", "log1p", "deg2rad", "rad2deg", "erf", "erfinv", "isnan", "isinf",
    "isposinf", "isneginf", "nan_to_num", "conj_physical", "relu")


# linear ones commute with summing duplicates: torch applies them without coalescing
_LINEAR = ("neg", "negative", "conj_physical")


def _unary(name):
    def f(input, *args, out=None, **kwargs):
        _tensor_input(name, input)
        _no_out(name, out)
        s = input if name in _LINEAR else input.coalesce()
        return _with_values(s, getattr(_C.TensorBase, name)(s._values(), *args, **kwargs))
    f.__name__ = name
    return f


_REDUCE_NAMES = ("sum", "nansum", "prod", "mean", "nanmean", "var", "std", "max", "min", "amax", "amin", "argmax",
                 "argmin", "all", "any", "count_nonzero", "norm", "logsumexp", "aminmax", "aminmax")


_EW_NAMES = None


def _ew_unary(op, input, out, inplace, flag, p0, p1, p2):
    """The Python-level unary ops (tensorlib/_ops.py) reach C through _C._ew_unary with the
    kernel's op index: zero-preserving ones apply to the coalesced values, others refuse."""
    global _EW_NAMES
    if _EW_NAMES is None:
        _EW_NAMES = {v: k[2:] for k, v in _C._ew_op_indices().items() if k.startswith("u_")}
    name = _EW_NAMES.get(op, "_ew_unary")
    if name.startswith("round"):
        name = "round"
    if name not in _ZERO_PRESERVING:
        _refuse(name)
    _no_out(name, out)
    s = input if name in _LINEAR else input.coalesce()
    if inplace and name not in _LINEAR:
        _need_coalesced(name, input)
    r = _with_values(s, _C._ew_unary(op, s._values(), None, False, flag, p0, p1, p2))
    return input._set_coo_(r._indices(), r._values(), r.shape, r.is_coalesced()) if inplace else r


# torch's names of the in-place zero-preserving functions in its "requires coalesced" error
_CANONICAL = {"absolute": "abs", "fix": "trunc", "arcsin": "asin", "arctan": "atan", "arcsinh": "asinh",
              "arctanh": "atanh"}


def _need_coalesced(name, input):
    """torch's in-place zero-preserving functions (but the linear ones) refuse an
    uncoalesced COO tensor rather than coalescing it behind the caller's back."""
    if not input.is_coalesced():
        raise RuntimeError(f"{_CANONICAL.get(name, name)}_ requires coalesced input")


def _inplace_unary(name):
    op = _inplace(_HANDLERS[name])

    def f(self, *args, **kwargs):
        _need_coalesced(name, self)
        return op(self, *args, **kwargs)
    return f



def _square(input, *, out=None):
    _no_out("square", out)
    s = input.coalesce()
    return _with_values(s, _C._square(s._values()), True)


def _reduce(x, code, dim, keepdim, dtype, param):
    """The reductions of tensorlib/_reduce.py reach C through _C._reduce (op codes shared
    with csrc/ops/reduce.h): the full sum of a COO tensor sums its stored values."""
    name = _REDUCE_NAMES[code] if 0 <= code < len(_REDUCE_NAMES) else "_reduce"
    _tensor_input(name, x)
    dims = None if dim is None else sorted(d % max(x.dim(), 1) for d in ((dim,) if isinstance(dim, int) else dim))
    if name != "sum" or (dims is not None and dims != list(range(x.dim()))) or keepdim:
        _refuse(name if name != "sum" else "sum.dim_IntList")
    return x._values().sum(dtype=dtype)


def _mm_impl(name, a, b):
    """sparse (2-D COO, no dense dims) @ strided (2-D or 1-D), and strided @ sparse."""
    _tensor_input(name, a)
    _tensor_input(name, b, "mat2", 2)
    if _is_sparse(b) and not _is_sparse(a):
        if a.dim() != 2 or b.dim() != 2:
            _refuse(name)
        bt = _new(b._indices().flip(0), b._values(), (b.shape[1], b.shape[0]), False)
        return _mm_impl(name, bt, a.t()).t()
    if _is_sparse(b) or a.sparse_dim() != 2 or a.dense_dim() != 0 or b.dim() not in (1, 2):
        _refuse(name)
    if a.shape[1] != b.shape[0]:
        if b.dim() == 1:
            raise RuntimeError("mv: expected self.size(-1) == vec.size(-1)")
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {a.shape[1]}, got {b.shape[0]}")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype._cname} but found {b.dtype._cname}")
    dt = a.dtype
    rows, cols = a._indices()[0], a._indices()[1]
    out = _C.zeros((a.shape[0],) + tuple(b.shape[1:]), dtype=dt, device=b.device)
    picked = b.to(dt).index_select(0, cols)
    vals = a._values().to(dt)
    contrib = picked * (vals.unsqueeze(1) if b.dim() == 2 else vals)
    return out.index_add_(0, rows, contrib)


_HANDLERS = {
    "clone": _clone, "detach": _detach, "to": _to, "zero_": _zero_, "copy_": _copy_,
    "numpy": _numpy, "__dlpack__": _dlpack, "data_ptr": _no_storage, "tolist": _no_storage,
    "_empty_like": _empty_like, "zeros": _sparse_factory, "empty": _sparse_factory,
}
for _n in _ZERO_PRESERVING:
    _HANDLERS[_n] = _unary(_n)
# the dtype-named casts (t.float(), t.bool(), ...) are to(dtype) on the values
_CASTS = {"bool": "bool", "byte": "uint8", "char": "int8", "short": "int16", "int": "int32", "long": "int64",
          "half": "float16", "bfloat16": "bfloat16", "float": "float32", "double": "float64",
          "cfloat": "complex64", "cdouble": "complex128"}
for _n, _d in _CASTS.items():
    _HANDLERS[_n] = functools.partial(lambda dt, self, memory_format=None: _to(self, getattr(_C, dt)), _d)
_HANDLERS.update({
    "add": _add, "sub": _sub, "subtract": _sub, "mul": _mul, "multiply": _mul, "div": _div, "divide": _div,
    "true_divide": _div, "floor_divide": _floor_divide, "neg": _neg, "negative": _neg,
    "transpose": _transpose, "t": _t, "permute": _permute,
    "unsqueeze": _unsqueeze, "_reduce": _reduce, "_ew_unary": _ew_unary, "_square": _square,
    "_square_": lambda self, *a, **k: _refuse("pow_.Scalar"),  # torch's square_ is pow_(2), no COO kernel
})
for _n in ("add", "sub", "mul", "div", "floor_divide", "neg", "negative") + _ZERO_PRESERVING:
    if _n + "_" not in _HANDLERS:
        _HANDLERS[_n + "_"] = _inplace(_HANDLERS[_n]) if _n not in _ZERO_PRESERVING or _n in _LINEAR else \
            _inplace_unary(_n)
del _n, _d
_C._set_sparse_handlers(_HANDLERS)


# ---- SciPy interop (scipy is optional: imported only here) -------------------------------

def to_scipy(self):
    """A ``scipy.sparse.coo_array`` with the same elements (2-D COO without dense dims),
    sharing the index and value buffers where the dtypes allow."""
    import scipy.sparse
    if self.layout != _C.sparse_coo or self.sparse_dim() != 2 or self.dense_dim() != 0:
        raise RuntimeError("to_scipy: expected a 2-D sparse COO tensor without dense dims, got "
                           f"layout={self.layout}, sparse_dim={self.sparse_dim()}, dense_dim={self.dense_dim()}")
    i = self._indices().numpy()
    m = scipy.sparse.coo_array((self._values().numpy(), (i[0], i[1])), shape=tuple(self.shape))
    if self.is_coalesced():
        m.has_canonical_format = True
    return m


def from_scipy(m):
    """A COO tensor from any ``scipy.sparse`` array or matrix (converted to COO first),
    sharing its values buffer (the row/column arrays are stacked into one int64 copy)."""
    from ._factories import from_numpy
    import numpy as np
    if not callable(getattr(m, "tocoo", None)):
        raise TypeError(f"from_scipy(): expected a scipy.sparse array or matrix, got {type(m).__name__}")
    coo = m.tocoo()
    idx = np.stack([coo.row.astype(np.int64, copy=False), coo.col.astype(np.int64, copy=False)])
    return _new(from_numpy(idx), from_numpy(coo.data), coo.shape, bool(getattr(coo, "has_canonical_format", False)))


def _install_methods(Tensor):
    for f in (indices, values, coalesce, to_dense, to_sparse, to_sparse_coo, sparse_mask, narrow_copy,
              sparse_resize_and_clear_, to_scipy):
        setattr(Tensor, f.__name__, f)
