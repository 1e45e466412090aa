"""Indexing, joining and reshaping ops: key translation for advanced ``__getitem__`` /
``__setitem__`` and the public functions (also attached as Tensor methods).

The C core (``csrc/ops/index.c``, ``mask.c``, ``join.c``) does the work; this module only
translates arguments: dim names to positions, index keys to per-dim index tensors, and
composites (stack, hstack, roll, rot90, meshgrid, ...) of those primitives.
"""
import builtins
import numbers
import operator

from . import _C
from ._out import supports_out, write_out
from ._util import dim_index, no_names as _no_names, wrap_dim as _wrap

_RED = {"sum": 1, "prod": 2, "mean": 3, "amax": 4, "amin": 5}
_ACCUMULATING = (1, 2, 3)  # sum/add, prod/multiply, mean
_MEAN = _RED["mean"]


def _scatter_into(input, dim, index, src, op, include_self, name, half_in_float=True):
    """The C scatter; float16/bfloat16 sums, products and means accumulate in float32 and round
    once at the end, as torch's CPU scatters do (with half_in_float False they round at every
    step, as index_add/index_put_/index_reduce_ do)."""
    d = _dim(input, dim)
    if (half_in_float and op in _ACCUMULATING and input.dtype in (_C.float16, _C.bfloat16)
            and (not isinstance(src, _C.TensorBase) or src.dtype == input.dtype)):
        work = input.float()
        _scatter_into(work, d, index, src.float() if isinstance(src, _C.TensorBase) else src, op, include_self, name)
        input.copy_(work)
    elif op == _MEAN and input.device.type not in ("cpu", "meta"):
        _scatter_mean_on_device(input, d, index, src, include_self, name)
    else:
        _C._scatter_(input, d, index, src, op, include_self, name)
    return input


def _scatter_mean_on_device(input, d, index, src, include_self, name):
    """'mean' on a backend device, of the device's ops: the sum by the combining put, the count
    per target by another (self counts once with include_self), then the CPU's division where a
    count exceeds one (dividing by a count clamped to 1 leaves the others as they are): floats
    through float64, one rounding of the exact quotient, complex part by part, integers
    floored."""
    meta = [t.to("meta") for t in (input, index, src)]
    _C._scatter_(meta[0], d, meta[1], meta[2], _MEAN, include_self, name)  # the mean's checks, no data
    _C._scatter_(input, d, index, src, _RED["sum"], include_self, name)
    count = index.new_full(tuple(input.shape), 1 if include_self else 0)
    count.scatter_add_(d, index, index.new_ones(tuple(index.shape)))
    count.clamp_(min=1)
    for part in (input.real, input.imag) if input.dtype.is_complex else (input,):
        if part.dtype.is_floating_point:
            part.copy_(part.double() / count)
        else:
            part.copy_(part.div(count, rounding_mode="floor"))
_int = builtins.int
_bool = builtins.bool


def _Tensor():
    from ._tensor import Tensor
    return Tensor


def _as_tensor(obj, dtype=None):
    from ._factories import tensor
    return tensor(obj, dtype=dtype)


def _dim(t, d):
    """A dim name resolved against t; ints pass through (the C op wraps them with torch's message)."""
    return dim_index(t, d) if isinstance(d, str) else operator.index(d)








# ---- advanced indexing -----------------------------------------------------------------

def _is_int_like(o):
    if isinstance(o, _C.TensorBase):
        return o.dim() == 0 and not o.dtype.is_floating_point and not o.dtype.is_complex and o.dtype != _C.bool
    if type(o).__name__ == "ndarray":  # NumPy arrays index as tensors; 0-d integer ones as ints
        return o.ndim == 0 and o.dtype.kind in "iu"
    return not isinstance(o, _bool) and hasattr(o, "__index__")


def _to_index_tensor(o):
    if isinstance(o, _C.TensorBase):
        return o
    if type(o).__name__ == "ndarray" and o.dtype.kind in "iu":
        # An ndarray's integers are positions at any width and sign, as in NumPy and in torch
        # 2.13 (which also reads uint8 ndarrays as masks, deprecated; dask indexes its blocks
        # with uint8 arrays). uint64 wraps into int64 as in torch.
        return _as_tensor(o.astype("int64", copy=False))
    if isinstance(o, (list, tuple)) or hasattr(o, "__array__"):
        if isinstance(o, (list, tuple)) and len(o) == 0:
            return _as_tensor([], dtype=_C.int64)
        t = _as_tensor(o)
        if t.dtype.is_floating_point or t.dtype.is_complex:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if t.dtype not in (_C.bool, _C.uint8, _C.int32, _C.int64):  # e.g. a list of np.int8: positions
            t = t.to(_C.int64)
        return t
    if isinstance(o, (str, bytes)):  # torch tries to build an index tensor from it
        raise TypeError(f"new(): invalid data type '{type(o).__name__}'")
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                     f"valid indices (got {type(o).__name__})")


def _translate(self, key, unknown_masks=False):
    """Applies the basic parts of key to self; returns (view, indices) where indices lists,
    per dim of view, an integer index tensor or None (empty when nothing advanced).
    unknown_masks: a meta boolean mask stands for an empty index, unchecked against the
    shape as in torch's meta index_put_ (its nonzero count is unknown); the caller only checks."""
    if not isinstance(key, tuple) or (isinstance(key, tuple) and False):
        key = (key,)
    items = []
    for o in key:
        if o is None or o is Ellipsis or isinstance(o, (slice, _bool)) or _is_int_like(o):
            items.append(o)
        else:
            items.append(_to_index_tensor(o))
    specified = 0
    for o in items:
        if o is None or o is Ellipsis or isinstance(o, _bool):
            continue
        if isinstance(o, _C.TensorBase) and o.dtype in (_C.bool, _C.uint8):
            specified += o.dim()
        else:
            specified += 1
    if specified > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    if builtins.sum(1 for o in items if o is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    view, dim, indices = self, 0, []
    for o in items:
        if o is None:
            view = view.unsqueeze(dim)
            indices.append(None)
            dim += 1
        elif o is Ellipsis:
            n = self.dim() - specified
            indices.extend([None] * n)
            dim += n
        elif isinstance(o, slice):
            view = view[(slice(None),) * dim + (o,)]
            indices.append(None)
            dim += 1
        elif isinstance(o, _bool) or (isinstance(o, _C.TensorBase) and o.dtype == _C.bool and o.dim() == 0):
            view = view.unsqueeze(dim)
            indices.append(_C.zeros((1 if _bool(o) else 0,), dtype=_C.int64))
            dim += 1
        elif _is_int_like(o):
            i = operator.index(o)
            size = view.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
            view = view.select(dim, i)
        elif o.dtype in (_C.bool, _C.uint8):
            k = o.dim()
            for j in range(k if not (unknown_masks and o.is_meta) else 0):  # (torch's meta index_put_ skips it)
                if o.shape[j] != view.shape[dim + j]:
                    raise IndexError(f"The shape of the mask {list(o.shape)} at index {j} does not match the shape "
                                     f"of the indexed tensor {list(view.shape)} at index {dim + j}")
            nz = _C.empty((0, k), dtype=_C.int64, device=o.device) if unknown_masks and o.is_meta else _C._nonzero(o)
            indices.extend(nz.select(1, j) for j in range(k))
            dim += k
        else:
            if o.dtype not in (_C.int64, _C.int32):
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            indices.append(o)
            dim += 1
    if all(i is None for i in indices):
        indices = []
    return view, indices


def _getitem(self, key):
    # fast path: a full-shape boolean mask selects in one pass
    if (isinstance(key, _C.TensorBase) and key.dtype == _C.bool and key.dim() > 0 and key.shape == self.shape
            and not self.is_meta):  # (torch's meta refusal comes from nonzero, below)
        return _C._masked_select(self, key)
    view, indices = _translate(self, key)
    if not indices:
        return view if view is not self else self.view(self.shape)
    tensors = [(d, i) for d, i in enumerate(indices) if i is not None]
    if (len(tensors) == 1 and tensors[0][1].dim() == 1 and view.is_contiguous() and not view.has_names()
            and tensors[0][1].dtype in (_C.int64, _C.int32)):
        # one 1-D index on a contiguous tensor: index_select's row copies give the same values
        # and (contiguous) layout; negative or bad indices take the general path and its errors
        try:
            return _C._index_select(view, tensors[0][0], tensors[0][1])
        except (IndexError, RuntimeError):  # index_select's out-of-range errors
            pass
    return _C._index(view, tuple(indices))


def _setitem(self, key, value):
    if self.is_meta and any(isinstance(o, _C.TensorBase) and o.is_meta and o.dtype in (_C.bool, _C.uint8)
                            for o in (key if isinstance(key, tuple) else (key,))):
        _translate(self, key, unknown_masks=True)  # the key's checks as torch's meta index_put_, no data
        return
    view, indices = _translate(self, key)
    if not isinstance(value, (_C.TensorBase, _int, float, complex, _bool)):
        value = _as_tensor(value, dtype=self.dtype)
    if not indices:
        if isinstance(value, _C.TensorBase):
            view[...] = value  # the C path: setitem broadcasting and overlap rules
        else:
            view.fill_(value)
        return
    _C._index_put_(view, tuple(indices), value, False)


_C._set_indexing_hooks(_getitem, _setitem)


def index_put_(input, indices, values, accumulate=False):
    """In place: input[indices] = values (or += with accumulate=True); indices is a tuple of
    integer/bool tensors (None for whole dims)."""
    if isinstance(values, _C.TensorBase) and values.dtype != input.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_cname(input.dtype)} for the destination and {_cname(values.dtype)} for the source.")
    view, idx = _translate(input, tuple(indices))
    if not idx:
        idx = [None] * view.dim()
    _C._index_put_(view, tuple(idx), values, _bool(accumulate))
    return input


def index_put(input, indices, values, accumulate=False):
    """Out-of-place index_put_."""
    return index_put_(input.clone(), indices, values, accumulate)


def _cname(dt):
    return dt._cname


# ---- index ops ------------------------------------------------------------------------------

@supports_out
def index_select(input, dim, index):
    """Entries of input along dim at the 1-D index (int32/int64); keeps input's names."""
    return _C._index_select(input, _dim(input, dim), index)


@supports_out
def gather(input, dim, index, *, sparse_grad=False):
    """out[i][j][k] = input[i][index[i][j][k]][k] for dim=1 (int64 index, same rank)."""
    return _C._gather(input, _dim(input, dim), index)


def scatter_(input, dim, index, src=None, value=None, *, reduce=None):
    """In place: input[...index...] = src (or value), with reduce='add'/'multiply'."""
    if src is None:
        src = value
    if src is None:
        raise TypeError("scatter_() missing required argument 'src' or 'value'")
    op = 0
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError(f"reduce argument must be either add or multiply, got {reduce}")
        op = 1 if reduce == "add" else 2
    return _scatter_into(input, dim, index, src, op, True, "scatter")


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """Out-of-place scatter_."""
    return scatter_(input.clone(memory_format=_C.contiguous_format), dim, index, src, value, reduce=reduce)


def scatter_add_(input, dim, index, src):
    """In place: input[...index...] += src."""
    return _scatter_into(input, dim, index, src, 1, True, "scatter_add")


def scatter_add(input, dim, index, src):
    """Out-of-place scatter_add_."""
    return scatter_add_(input.clone(memory_format=_C.contiguous_format), dim, index, src)


def scatter_reduce_(input, dim, index, src, reduce, *, include_self=True):
    """In place: reduce src into input at index along dim (sum/prod/mean/amax/amin)."""
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in _RED:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    return _scatter_into(input, dim, index, src, _RED[reduce], _bool(include_self), "scatter_reduce")


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """Out-of-place scatter_reduce_."""
    return scatter_reduce_(input.clone(memory_format=_C.contiguous_format), dim, index, src, reduce,
                           include_self=include_self)


def _dim_index_put(input, dim, index, values, accumulate, opname, allow32):
    d = _wrap(_dim(input, dim), input.dim())
    if index.dtype != _C.int64 and not (allow32 and index.dtype == _C.int32):
        raise RuntimeError(f"{opname}(): Expected dtype {'int32/int64' if allow32 else 'int64'} for index")
    if index.dim() > 1:
        raise IndexError(f"{opname}(): Index is supposed to be a vector")
    if input.dim() == 0:
        idx = (index.reshape(-1),)
        target = input.view(1)
    else:
        idx = (None,) * d + (index.reshape(-1),)
        target = input
    flags = {"index_add_": 8 | 4, "index_copy_": 8 | 16}.get(opname, 0)
    if opname == "index_add_" and input.dim() <= 1:
        flags = 8 | 2  # torch's vector path: IndexError "index out of range in self"
    _C._index_put_(target, idx, values, accumulate, flags)
    return input


def index_fill_(input, dim, index, value):
    """In place: input's slices along dim at index set to value (negative indices wrap)."""
    if isinstance(value, _C.TensorBase):
        if value.dim() != 0:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.dim()} dimension(s).")
        value = value.item()
    _same_device("index_copy", input, index, input.device)
    if index.dtype != _C.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    return _dim_index_put(input, dim, index, value, False, "index_fill_", False)


def index_fill(input, dim, index, value):
    """Out-of-place index_fill_ (keeps input's names)."""
    return index_fill_(input.clone(), dim, index, value)


def _same_device(op, input, index, source_device):
    """torch's index_add/index_copy (index_fill: through index_copy) device check: one device
    for self, index and source (a meta self takes no CPU index here, unlike index_select)."""
    if index.device != input.device or source_device != input.device:
        raise RuntimeError(f"{op}(): self, index and source expected to be in the same device, but got (self) "
                           f"{input.device.type}, (index) {index.device.type}, and (source) {source_device.type}")


def _check_index_func(input, d, index, source, func):
    """torch's checks of index_add_ and index_reduce_ (one meta function there), in its order."""
    if index.dim() > 1:
        raise IndexError(f"{func}(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{_cname(index.dtype)} and size: {list(index.shape)}")
    if index.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(f"{func}(): Expected dtype int32/int64 for index but got: {_cname(index.dtype)}")
    if source.dtype != input.dtype:
        raise RuntimeError(f"{func}(): self ({_cname(input.dtype)}) and source ({_cname(source.dtype)}) must "
                           "have the same scalar type")
    if d != 0 and d >= source.dim():
        raise RuntimeError(f"{func}(): Indexing dim {d} is out of bounds of the source tensor with dim {source.dim()}")
    n, sd = index.numel(), source.shape[d] if source.dim() > 0 else 1
    if n != sd:
        raise RuntimeError(f"{func}(): Number of indices ({n}) should be equal to source.size(dim): ({sd}), for dim: {d}")
    ds, ss = list(input.shape), list(source.shape)
    if ds and ss:
        del ds[d], ss[d]
    if ds != ss:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}")


def _check_source(input, d, index, source, opname):
    _same_device(opname[:-1], input, index, source.device)
    n = index.numel()
    if opname == "index_add_":
        _check_index_func(input, d, index, source, opname)
        return
    if source.dtype != input.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_cname(input.dtype)} and (source) {_cname(source.dtype)}")
    ds = [input.shape[k] for k in range(input.dim()) if k != d]
    ss = [source.shape[k] for k in range(source.dim()) if k != d]
    if ds != ss:
        raise RuntimeError("index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
                           f"shape: {' '.join(map(str, ds))} at dimension {d} and source slice shape: "
                           f"{' '.join(map(str, ss))} at dimension {d}.")
    sd = source.shape[d] if source.dim() > 0 else 1
    if sd != n:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) ({sd})")


def index_copy_(input, dim, index, source):
    """In place: input's slices along dim at index <- source's slices."""
    d = _wrap(_dim(input, dim), input.dim())
    if index.dtype != _C.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_cname(index.dtype)}")
    _check_source(input, d, index, source, "index_copy_")
    return _dim_index_put(input, dim, index, source.reshape(_shape_for(input, d, index)), False, "index_copy_", False)


def _shape_for(input, d, index):
    s = list(input.shape)
    if s:
        s[d] = index.numel()
    return s


def index_copy(input, dim, index, source):
    """Out-of-place index_copy_."""
    return index_copy_(input.clone(memory_format=_C.contiguous_format), dim, index, source)


def index_add_(input, dim, index, source, *, alpha=1):
    """In place: input's slices along dim at index += alpha * source's slices (duplicates add)."""
    d = _wrap(_dim(input, dim), input.dim())
    _check_source(input, d, index, source, "index_add_")
    src = source.reshape(_shape_for(input, d, index))
    if alpha != 1:
        src = src.clone()
        _C._scale_(src, alpha)
    return _dim_index_put(input, dim, index, src, True, "index_add_", True)


_INDEX_REDUCE_DTYPES = (_C.uint8, _C.int8, _C.int16, _C.int32, _C.int64, _C.float16, _C.bfloat16, _C.float32,
                        _C.float64)


def index_reduce_(input, dim, index, source, reduce, *, include_self=True):
    """In place: input's slices along dim at index combined with source's slices by reduce
    (``'prod'``, ``'mean'``, ``'amax'``, ``'amin'``; duplicates combine, in index order), as
    scatter_reduce_ with index spread along source's other dims; float16/bfloat16 round at
    every step, as torch's index_reduce_ does."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    d = _wrap(_dim(input, dim), input.dim())
    _same_device("index_reduce", input, index, source.device)
    _check_index_func(input, d, index, source, "index_reduce_")
    if input.dtype not in _INDEX_REDUCE_DTYPES:
        kernel = "index_func_" if include_self else "index_reduce_func_exclude_input_init"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_cname(input.dtype)}'")
    n = index.numel()
    size = input.shape[d] if input.dim() else 1
    if n and input.device.type != "meta" and (index.min().item() < 0 or index.max().item() >= size):
        raise IndexError("index out of range in self")
    target, src = (input.view(1), source.reshape(1)) if input.dim() == 0 else (input, source)
    spread = [1] * src.dim()
    spread[d] = n
    _scatter_into(target, d, index.to(_C.int64).reshape(spread).expand(tuple(src.shape)), src, _RED[reduce],
                  _bool(include_self), "index_reduce", half_in_float=False)
    return input


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """Out-of-place index_reduce_."""
    return index_reduce_(input.clone(memory_format=_C.contiguous_format), dim, index, source, reduce,
                         include_self=include_self)


def index_add(input, dim, index, source, *, alpha=1):
    """Out-of-place index_add_."""
    return index_add_(input.clone(memory_format=_C.contiguous_format), dim, index, source, alpha=alpha)


def take(input, index):
    """input treated as 1-D (row-major), read at index; result has index's shape."""
    return _C._take(input, index)


def take_along_dim(input, indices, dim=None):
    """Gathers values along dim at indices broadcast against input (flattened when dim is None)."""
    if indices.dtype != _C.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {_cname(indices.dtype)}")
    if dim is None:
        return _C._gather(input.view(-1), 0, indices.view(-1))
    d = _wrap(_dim(input, dim), input.dim())
    if input.dim() != indices.dim():
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    si, sx = list(input.shape), list(indices.shape)
    si[d] = sx[d] = 1
    from ._join import broadcast_shapes
    b = broadcast_shapes(si, sx)
    si, sx = list(b), list(b)
    si[d] = input.shape[d]
    sx[d] = indices.shape[d]
    return _C._gather(input.expand(si), d, indices.expand(sx))


def put_(input, index, source, accumulate=False):
    """In place: input (as 1-D, row-major) at index <- source (or += with accumulate)."""
    _C._put_(input, index, source, _bool(accumulate))
    return input


def put(input, index, source, accumulate=False):
    """Out-of-place put_."""
    return put_(input.clone(), index, source, accumulate)


def _unify_from_right(a, b, action):
    n = builtins.max(len(a), len(b))
    a = (None,) * (n - len(a)) + tuple(a)
    b = (None,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in reversed(list(zip(a, b))):
        if x is not None and y is not None and x != y:
            raise RuntimeError(f"Error when attempting to {action} dims {list(a)} and dims {list(b)}: dim '{x}' and "
                               f"dim '{y}' are at the same position from the right but do not match.")
        out.insert(0, x if x is not None else y)
    for i, x in enumerate(a):
        if x is not None and x in b and b.index(x) != i:
            raise RuntimeError(f"Misaligned dims when attempting to {action} dims {list(a)} and dims {list(b)}: "
                               f"dim '{x}' appears in a different position from the right across both lists.")
    return out


def masked_select(input, mask, *, out=None):
    """1-D tensor of input's elements where the (broadcast) bool mask is True. Names: the
    mask is aligned with input and the names must unify; the 1-D result is unnamed."""
    if input.has_names() or mask.has_names():
        _unify_from_right(input.names, mask.names, "broadcast")
    return write_out(_C._masked_select(input, mask), out, "masked_select")


def masked_scatter_(input, mask, source):
    """In place: input's elements where mask is True <- consecutive elements of source."""
    if mask.dtype == _C.uint8:
        mask = mask.to(_C.bool)
    _C._masked_scatter_(input, mask, source)
    return input


def masked_scatter(input, mask, source):
    """Out-of-place masked_scatter_ (input and mask broadcast together)."""
    from ._join import broadcast_shapes
    shape = broadcast_shapes(input.shape, mask.shape)
    r = input.expand(shape).clone(memory_format=_C.contiguous_format)  # contiguous, as torch's
    return masked_scatter_(r, mask, source)


@supports_out
def nonzero(input, *, as_tuple=False):
    """Indices of non-zero elements: [n, ndim] int64, or a tuple of 1-D tensors with as_tuple."""
    if as_tuple:
        t = input if input.dim() > 0 else input.unsqueeze(0)
        return tuple(_C._nonzero(t).unbind(1))
    return _C._nonzero(input)


@supports_out
def nonzero_static(input, *, size, fill_value=-1):
    """nonzero_static(input, *, size, fill_value=-1, out=None) -> Tensor

    nonzero with a fixed result shape ``(size, input.dim())``: the first ``size`` indices of
    the non-zero elements (row-major order), the rows past their count filled with
    ``fill_value``. On the meta device it gives the shape without looking at any value.

        >>> tl.nonzero_static(tl.tensor([0, 3, 0, 5]), size=3)
        tensor([[ 1],
                [ 3],
                [-1]])
    """
    for v, nm in ((size, "size"), (fill_value, "fill_value")):
        if not isinstance(v, numbers.Integral) or isinstance(v, bool):
            raise TypeError(f"nonzero_static(): argument '{nm}' must be int, not {type(v).__name__}")
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    size, ndim = int(size), input.dim()
    if input.is_meta:  # (torch's meta result has nonzero's column-major strides)
        return _C.empty_strided((size, ndim), (1, builtins.max(size, 1)), dtype=_C.int64, device=input.device)
    found = _C._nonzero(input)
    if found.shape[0] >= size:
        return found[:size].clone()
    r = _C.full((size, ndim), int(fill_value), dtype=_C.int64, device=input.device)
    r[:found.shape[0]] = found
    return r


def argwhere(input):
    """Same as nonzero(input)."""
    return _C._nonzero(input)


