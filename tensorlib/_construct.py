"""torch functions composed of existing ops: the complex views and builders (view_as_real,
view_as_complex, complex, polar), products and combinatorics (kron, isin, block_diag,
cartesian_prod, combinations, vander, tril_indices, triu_indices, unravel_index), the split
family (hsplit, vsplit, dsplit, split_with_sizes) and the methods fill_diagonal_, sum_to_size
and new_empty_strided. The two views are C entries (csrc/ops/view.c); the rest is argument
glue over ops that already run on every device, with torch's checks and messages."""
import builtins
import itertools
import math
import operator

from . import _C
from ._out import write_out
from ._util import infer_size as _infer_size, no_names, require_tensor, wrap_dim, install_names

_int = builtins.int
_HALF_FLOAT_DOUBLE = ("Half", "Float", "Double")
_UNSIGNED_WIDE = ("UInt16", "UInt32", "UInt64")


def _index(v):
    """operator.index(v); a wrong type raises ValueError so that tensorlib/_argcheck.py's wrapper
    turns it into torch's TypeError naming the argument and its position."""
    try:
        return operator.index(v)
    except TypeError:
        raise ValueError(f"not an int: {type(v).__name__}") from None


def _names_of(t):
    return t.names if t.has_names() else None


def _renamed(r, names):
    """r with names (None: r as it is)."""
    return r.rename(*names) if names is not None and r.dim() == len(names) else r


# ---- complex views and builders ----

def view_as_real(input):
    """The (re, im) pairs of a complex tensor as a real view with a new last dim of size 2."""
    require_tensor("view_as_real", input)
    return _C._view_as_real(input)


def view_as_complex(input):
    """A last dim of size 2 (stride 1) of a half/float/double tensor viewed as complex elements."""
    require_tensor("view_as_complex", input)
    return _C._view_as_complex(input)


def _complex_check(real, imag):
    a, b = real.dtype._cname, imag.dtype._cname
    if a not in _HALF_FLOAT_DOUBLE or b not in _HALF_FLOAT_DOUBLE:
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got {a} and {b}")
    if a != b:
        raise RuntimeError(f"Expected object of scalar type {a} but got scalar type {b} for second argument")


def _complex_out_check(real, out):
    want = _complex_dtype(real.dtype)
    if isinstance(out, _C.TensorBase) and out.dtype != want:
        raise RuntimeError(f"Expected object of scalar type {want._cname} but got scalar type {out.dtype._cname} "
                           "for argument 'out'")


def _complex_dtype(d):
    return {"Half": _C.complex32, "Float": _C.complex64, "Double": _C.complex128}[d._cname]


def _build_complex(real, imag):
    shape = _infer_size(tuple(real.shape), tuple(imag.shape))
    names = None
    if real.has_names() or imag.has_names():
        names = _C.TensorBase.eq(real, imag).names  # the binary ops' unification (and its errors)
    r = _C.empty(tuple(shape), dtype=_complex_dtype(real.dtype), device=real.device)
    pairs = _C._view_as_real(r)
    pairs.select(-1, 0).copy_(real.rename(None) if real.has_names() else real)
    pairs.select(-1, 1).copy_(imag.rename(None) if imag.has_names() else imag)
    return _renamed(r, names)


def complex(real, imag, *, out=None):
    """A complex tensor from its real and imaginary parts (both half, float or double, one dtype)."""
    require_tensor("complex", real, "real", 1)
    require_tensor("complex", imag, "imag", 2)
    _complex_check(real, imag)
    _complex_out_check(real, out)
    return write_out(_build_complex(real, imag), out, "complex")


def polar(abs, angle, *, out=None):  # noqa: A002 - torch's parameter name
    """The complex numbers abs * (cos(angle) + i sin(angle)) (float or double inputs, one dtype)."""
    require_tensor("polar", abs, "abs", 1)
    require_tensor("polar", angle, "angle", 2)
    _complex_check(abs, angle)
    _complex_out_check(abs, out)
    if abs.dtype == _C.float16:
        raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")
    # c10::polar: (r * cos(theta), r * sin(theta)) in the real dtype
    return write_out(_build_complex(abs * angle.cos(), abs * angle.sin()), out, "polar")


# ---- products and combinatorics ----

def kron(input, other, *, out=None):
    """The Kronecker product: every element of ``input`` times the whole of ``other``, tiled."""
    require_tensor("kron", input)
    require_tensor("kron", other, "other", 2)
    no_names("kron", input, other)
    nd = builtins.max(input.dim(), other.dim())
    a = [1] * (nd - input.dim()) + list(input.shape)
    b = [1] * (nd - other.dim()) + list(other.shape)
    ai = input.reshape([x for s in a for x in (s, 1)]) if nd else input
    bi = other.reshape([x for s in b for x in (1, s)]) if nd else other
    r = (ai * bi).reshape([x * y for x, y in zip(a, b)]) if nd else ai * bi
    if out is not None:
        # mul_out: out may have any dtype the result casts to
        if isinstance(out, _C.TensorBase) and out.dtype != r.dtype:
            if not _C.can_cast(r.dtype, out.dtype):
                raise RuntimeError(f"result type {r.dtype._cname} can't be cast to the desired output type "
                                   f"{out.dtype._cname}")
            r = r.to(out.dtype)
        return write_out(r, out, "kron")
    return r.contiguous()


def _isin_dtype_check(dtype):
    if dtype == _C.bool or dtype.is_complex:
        raise RuntimeError(f"Unsupported input type encountered for isin(): {dtype._cname}")


def _scalar_dtype(v):
    if isinstance(v, bool):
        return _C.bool
    if isinstance(v, _int):
        return _C.int64
    if isinstance(v, builtins.complex):
        return _C.complex128
    return _C.float64


def _is_number(v):
    return isinstance(v, (bool, _int, builtins.float, builtins.complex))


def isin(elements, test_elements, *, assume_unique=False, invert=False, out=None):
    """Tests, per element of ``elements``, whether it occurs in ``test_elements`` (a bool tensor of
    ``elements``'s shape; one side may be a Python number)."""
    e_num, t_num = _is_number(elements), _is_number(test_elements)
    if e_num and t_num or not (e_num or isinstance(elements, _C.TensorBase)) or not (
            t_num or isinstance(test_elements, _C.TensorBase)):
        types = ", ".join(type(a).__name__ for a in (elements, test_elements))
        raise TypeError(f"isin() received an invalid combination of arguments - got ({types}), but expected one of:\n"
                        " * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert = False, "
                        "Tensor out = None)\n"
                        " * (Number element, Tensor test_elements, *, bool assume_unique = False, bool invert = False, "
                        "Tensor out = None)\n"
                        " * (Tensor elements, Number test_element, *, bool assume_unique = False, bool invert = False, "
                        "Tensor out = None)\n")
    if out is not None and isinstance(out, _C.TensorBase) and out.dtype != _C.bool:
        raise RuntimeError(f"Expected out tensor to have dtype bool, but got {out.dtype._typemeta} instead")
    if t_num:
        _isin_dtype_check(elements.dtype)
        _isin_dtype_check(_scalar_dtype(test_elements))
        e, v = elements, test_elements
        if e.dtype in (_C.uint16, _C.uint32) and not isinstance(v, builtins.complex):
            # tensorlib's eq has no kernel for these: compare exactly in a wider dtype, the
            # number converted as torch's wrapped number would be (into the dtype, or floating)
            if isinstance(v, (bool, _int)):
                bits = 16 if e.dtype == _C.uint16 else 32
                e, v = e.to(_C.int64), _int(v) % (1 << bits)
            else:
                e = e.to(_C.get_default_dtype() if e.dtype == _C.uint16 else _C.float64)
        r = e.ne(v) if invert else e.eq(v)
        return write_out(r, out, "isin")
    if e_num:
        _isin_dtype_check(_scalar_dtype(elements))
        _isin_dtype_check(test_elements.dtype)
        r = test_elements.rename(None).eq(elements).any()
        return write_out(r.logical_not() if invert else r, out, "isin")
    _isin_dtype_check(elements.dtype)
    _isin_dtype_check(test_elements.dtype)
    from ._ops import result_type
    common = result_type(elements, test_elements)
    names = _names_of(elements)
    e = elements.rename(None) if names else elements
    if e.numel() == 0:
        return write_out(_renamed(_C.zeros(tuple(e.shape), dtype=_C.bool, device=e.device), names), out, "isin")
    # torch's heuristic (numpy's): a short test list runs the element-by-element kernel
    small = test_elements.numel() < _int(10.0 * math.pow(builtins.float(e.numel()), 0.145))
    if small and common._cname in _UNSIGNED_WIDE:
        raise NotImplementedError(f"\"isin_default_cpu\" not implemented for '{common._cname}'")
    t = test_elements.rename(None) if test_elements.has_names() else test_elements
    if small:
        # isin_default: each element against every test element
        r = e.reshape(-1, 1).eq(t.reshape(1, -1)).any(1).reshape(tuple(e.shape))
        if invert:
            r = r.logical_not()
    else:
        r = _isin_sorting(e, t, assume_unique, invert)
    return write_out(_renamed(r, names), out, "isin")


def _isin_sorting(e, t, assume_unique, invert):
    """torch's isin_sorting: the (unique) elements and test elements sorted together, stably; an
    element is found when the next one in that order equals it."""
    from ._join import cat
    from ._reduce import unique
    if assume_unique:
        ef, tf, order = e.reshape(-1), t.reshape(-1), None
    else:
        ef, order = unique(e, sorted=False, return_inverse=True)
        tf = unique(t, sorted=False)
    both = cat([ef, tf])
    srt, perm = both.sort(stable=True, dim=0)
    dup = _C.empty((both.shape[0],), dtype=_C.bool, device=both.device)
    dup[:-1] = srt[1:].ne(srt[:-1]) if invert else srt[1:].eq(srt[:-1])
    dup[-1] = invert
    mask = _C.empty((both.shape[0],), dtype=_C.bool, device=both.device)
    mask.index_copy_(0, perm, dup)
    if assume_unique:
        return mask[:e.numel()].reshape(tuple(e.shape))
    return mask[order]


def block_diag(*tensors):
    """A block-diagonal matrix of the tensors (0-d and 1-D ones count as 1 x n rows)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    _tensor_list(tensors)
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    no_names("block_diag", *tensors)
    if not tensors:
        return _C.empty((1, 0))
    mats = [t.reshape(1, -1) if t.dim() < 2 else t for t in tensors]
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = _C.promote_types(dtype, m.dtype)
    rows = builtins.sum(m.shape[0] for m in mats)
    cols = builtins.sum(m.shape[1] for m in mats)
    r = _C.zeros((rows, cols), dtype=dtype, device=mats[0].device)
    i = j = 0
    for m in mats:
        h, w = m.shape
        if h and w:
            r[i:i + h, j:j + w].copy_(m)
        i += h
        j += w
    return r


def _tensor_list(tensors):
    """torch's TypeError for a non-tensor in a TensorList argument."""
    for i, t in enumerate(tensors):
        if not isinstance(t, _C.TensorBase):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")


def _check_1d(t):
    if t.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")


def cartesian_prod(*tensors):
    """All tuples of one element from each 1-D tensor, as rows (one tensor: that tensor)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    _tensor_list(tensors)
    for t in tensors:
        _check_1d(t)
    if len(tensors) == 1:
        return tensors[0]
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    from ._join import meshgrid, stack
    no_names("cartesian_prod", *tensors)
    grids = meshgrid(*tensors, indexing="ij")
    return stack([g.reshape(-1) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """All length-``r`` combinations of the elements of a 1-D tensor, as rows, in lexicographic order."""
    require_tensor("combinations", input)
    _check_1d(input)
    r = _index(r)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    no_names("combinations", input)
    if r == 0:
        return _C.empty((0,), dtype=input.dtype, device=input.device)
    n = input.shape[0]
    gen = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    import numpy as np
    idx = np.fromiter(itertools.chain.from_iterable(gen(range(n), r)), dtype=np.int64)
    from ._factories import tensor
    from ._index import index_select
    ix = tensor(idx, dtype=_C.int64, device=input.device)
    return index_select(input, 0, ix).reshape(-1, r)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a 1-D tensor: columns x**(N-1), ..., x**0 (or increasing powers)."""
    require_tensor("vander", x, "x", 1)
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else _index(N)
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    no_names("vander", x)
    # torch: ones, then a cumulative product of x in the promoted dtype (integers and bool: int64)
    dtype = _C.promote_types(x.dtype, _C.int64)
    r = _C.ones((x.shape[0], n), dtype=dtype, device=x.device)
    if n > 1:
        from ._reduce import cumprod
        r[:, 1:] = x.unsqueeze(1).expand(x.shape[0], n - 1)
        r[:, 1:] = cumprod(r[:, 1:], 1)
    return r.flip(1) if not increasing and n > 0 else r


def _tri_check(name, row, col, dtype):
    row, col = _index(row), _index(col)
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    if dtype not in (_C.int64, _C.int32):
        raise NotImplementedError(f"\"{name}\" not implemented for '{dtype._cname}'")
    return row, col


def _tri_indices(name, row, col, offset, dtype, device, layout, pin_memory, requires_grad, lower):
    dtype = _C.int64 if dtype is None else dtype
    row, col = _tri_check(name, row, col, dtype)
    offset = _index(offset)
    if requires_grad:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    import numpy as np
    i = np.arange(row, dtype=np.int64)
    if lower:
        lo, hi = np.zeros(row, dtype=np.int64), np.minimum(col, i + offset + 1)
    else:
        lo, hi = np.maximum(0, i + offset), np.full(row, col, dtype=np.int64)
    counts = np.maximum(hi - lo, 0)
    total = _int(counts.sum())
    rows = np.repeat(i, counts)
    starts = np.cumsum(counts) - counts
    cols = np.arange(total, dtype=np.int64) - np.repeat(starts - lo, counts)
    if total == 0:
        r = _C.empty((2, 0), dtype=dtype, device=device)
    else:
        from ._factories import from_numpy
        dev = _C._get_default_device() if device is None else device
        r = from_numpy(np.stack([rows, cols])).to(dtype=dtype, device=dev)
    return r.pin_memory() if pin_memory else r


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False,
                 requires_grad=False):
    """The (row, column) indices of the lower triangle of a row x col matrix, as a 2 x N tensor."""
    return _tri_indices("tril_indices", row, col, offset, dtype, device, layout, pin_memory, requires_grad, True)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False,
                 requires_grad=False):
    """The (row, column) indices of the upper triangle of a row x col matrix, as a 2 x N tensor."""
    return _tri_indices("triu_indices", row, col, offset, dtype, device, layout, pin_memory, requires_grad, False)


def unravel_index(indices, shape):
    """Flat indices turned into coordinates of ``shape``: a tuple of tensors, one per dim."""
    require_tensor("unravel_index", indices, "indices", 1)
    if indices.dtype.is_complex or indices.dtype.is_floating_point or indices.dtype == _C.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, _int) and not isinstance(shape, bool):
        shape = (shape,)
    elif isinstance(shape, (tuple, list, _C.Size)):
        for d in shape:
            if not isinstance(d, _int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(d)}")
        shape = tuple(shape)
    else:
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    if any(d < 0 for d in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    coefs = list(reversed(list(itertools.accumulate(reversed(shape[1:] + (1,)), operator.mul))))
    from ._factories import tensor
    dev = indices.device
    c = tensor(coefs, dtype=_C.int64, device=dev)
    s = tensor(list(shape), dtype=_C.int64, device=dev)
    r = indices.unsqueeze(-1).floor_divide(c) % s
    return r.unbind(-1)


# ---- the split family ----

def _split_sections(name, input, sections, dim, min_dim):
    seq = isinstance(sections, (tuple, list, _C.Size))
    ok = all(_is_index(v) for v in sections) if seq else _is_index(sections)
    if not ok:
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                        f"{type(sections).__name__}), but expected one of:\n * (Tensor input, int sections)\n"
                        " * (Tensor input, tuple of ints indices)\n")
    if input.dim() < min_dim:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dim} dimension, but got a tensor with "
                           f"{input.dim()} dimensions!")
    if seq:
        # tensor_split at indices: Python slices between them (negative ones wrap, out-of-order
        # ones give empty pieces), as torch's slice()
        bounds = [None] + [operator.index(v) for v in sections] + [None]
        lead = (slice(None),) * dim
        return tuple(input[lead + (slice(a, b),)] for a, b in zip(bounds[:-1], bounds[1:]))
    s = operator.index(sections)
    size = input.shape[dim]
    if s == 0 or size % builtins.abs(s):
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                           f"{size} is not divisible by the split_size {s}!")
    return input.tensor_split(s, dim)


def _is_index(v):
    if isinstance(v, bool):
        return False
    try:
        operator.index(v)
    except TypeError:
        return False
    return True


def hsplit(input, indices_or_sections):
    """Splits along dim 1 (dim 0 of a 1-D tensor) into equal sections or at the given indices (views)."""
    require_tensor("hsplit", input)
    dim = 0 if input.dim() == 1 else 1
    return _split_sections("hsplit", input, indices_or_sections, dim, 1)


def vsplit(input, indices_or_sections):
    """Splits along dim 0 of a tensor of 2 or more dims into equal sections or at the given indices (views)."""
    require_tensor("vsplit", input)
    return _split_sections("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    """Splits along dim 2 of a tensor of 3 or more dims into equal sections or at the given indices (views)."""
    require_tensor("dsplit", input)
    return _split_sections("dsplit", input, indices_or_sections, 2, 3)


def split_with_sizes(input, split_sizes, dim=0):
    """Splits ``dim`` into consecutive views of the given sizes (which must add up to its size)."""
    require_tensor("split_with_sizes", input)
    if not isinstance(split_sizes, (tuple, list, _C.Size)):
        raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 1) must be tuple of ints, not "
                        f"{type(split_sizes).__name__}")
    sizes = [_index(s) for s in split_sizes]
    if input.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    from ._util import dim_index
    d = dim_index(input, dim)
    size = input.shape[d]
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                           f"split_sizes={sizes}")
    if builtins.sum(sizes) != size:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at "
                           f"dimension {dim}), but got split_sizes={sizes}")
    res, start = [], 0
    for s in sizes:
        res.append(input.narrow(d, start, s))
        start += s
    return tuple(res)



def fill(input, value):
    """fill(input, value) -> Tensor

    A new tensor shaped like ``input`` (its dtype, device and strides) with every element
    ``value`` (a number or a 0-d tensor): the out-of-place ``input.fill_(value)``."""
    require_tensor("fill", input)
    return _C._empty_like(input, None, None).fill_(value)

def unsafe_chunk(input, chunks, dim=0):
    """``chunk`` (torch's autograd-unchecked form; the same views here)."""
    require_tensor("unsafe_chunk", input)
    return input.chunk(_index(chunks), dim)


def unsafe_split(input, split_size, dim=0):
    """``split`` by an int size (torch's autograd-unchecked form; the same views here)."""
    require_tensor("unsafe_split", input)
    return input.split(_index(split_size), dim)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """``split_with_sizes`` (torch's autograd-unchecked form; the same views here)."""
    require_tensor("unsafe_split_with_sizes", input)
    if not isinstance(split_sizes, (tuple, list, _C.Size)):
        raise TypeError(f"unsafe_split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not "
                        f"{type(split_sizes).__name__}")
    return split_with_sizes(input, split_sizes, dim)

# ---- Tensor methods ----

def fill_diagonal_(self, fill_value, wrap=False):
    """Fills the main diagonal (all dims of equal length when more than 2) with ``fill_value``, in place;
    ``wrap`` restarts it every ``cols + 1`` rows in a tall matrix, as NumPy."""
    if isinstance(fill_value, _C.TensorBase) and fill_value.dim() != 0:
        raise TypeError("fill_diagonal_(): argument 'fill_value' (position 1) must be Number, not Tensor")
    nd = self.dim()
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    h, w = self.shape[0], self.shape[1]
    if nd > 2 and any(self.shape[i] != h for i in range(1, nd)):
        raise RuntimeError("all dimensions of input must be of equal length")
    off = self.storage_offset()
    stride = builtins.sum(self.stride())
    size = builtins.min(h, w)
    self.as_strided((size,), (stride,), off).fill_(fill_value)
    if wrap and nd == 2 and h > w + 1:
        step = w + 1
        wrap_size = (self.numel() + step - 1) // step - size
        self.as_strided((wrap_size,), (stride,), off + self.stride(0) * (w + 1)).fill_(fill_value)
    return self


def _is_expandable_to(shape, desired):
    n, m = len(shape), len(desired)
    if n > m:
        return False
    for i in range(n):
        s, t = shape[n - 1 - i], desired[m - 1 - i]
        if s != t and s != 1:
            return False
    return True


def sum_to_size(self, *size):
    """Sums ``self`` down to ``size`` (a shape ``self`` broadcasts from); ``self`` when it already has it."""
    if len(size) == 1 and isinstance(size[0], (tuple, list, _C.Size)):
        size = tuple(size[0])
    shape = tuple(operator.index(s) for s in size)
    if not _is_expandable_to(shape, tuple(self.shape)):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(self.shape)}}}.")
    if not shape:
        return self.sum()
    lead = self.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and self.shape[lead + i] != 1]
    t = self.sum(dims, keepdim=True) if dims else self
    if lead > 0 and t.has_names():
        # a reduction's rule: the summed-away leading dims go, the others keep their names
        for _ in range(lead):
            t = t.squeeze(0)
        return t
    return t.view(shape) if lead > 0 else t


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory=False,
                      requires_grad=False):
    """An uninitialized tensor of the given size and strides with ``self``'s dtype and device by default."""
    for name, v, pos in (("size", size, 1), ("stride", stride, 2)):
        if not isinstance(v, (tuple, list, _C.Size)):
            raise TypeError(f"new_empty_strided(): argument '{name}' (position {pos}) must be tuple of ints, not "
                            f"{type(v).__name__}")
    return _C.empty_strided(tuple(size), tuple(stride), dtype=self.dtype if dtype is None else dtype,
                            layout=layout, device=self.device if device is None else device, pin_memory=pin_memory,
                            requires_grad=requires_grad)


FUNCTIONS = ("view_as_real", "view_as_complex", "complex", "polar", "kron", "isin", "block_diag", "cartesian_prod",
             "combinations", "vander", "tril_indices", "triu_indices", "unravel_index", "hsplit", "vsplit", "dsplit",
             "split_with_sizes", "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes", "fill")
METHODS = ("kron", "hsplit", "vsplit", "dsplit", "split_with_sizes", "fill_diagonal_", "sum_to_size",
           "new_empty_strided", "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes")


def install(namespace, tensor_class):
    """Puts the functions into tensorlib's namespace and the methods on Tensor."""
    install_names(namespace, tensor_class, globals(), FUNCTIONS, METHODS)
