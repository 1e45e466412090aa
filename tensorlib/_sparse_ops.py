"""The COO op surface beyond the layer's first ops, with torch 2.13's semantics (entry order,
coalesced flags, dtypes, errors): sparse * sparse (intersection) and sparse * dense, pow by
a number, sum over dims, any, index_select, select, cat (and so stack/hstack/vstack); the
products addmm, bmm, smm, hspmm, sspaddmm and COO @ COO; tensorlib.sparse's softmax,
log_softmax, spdiags, addmm; sparse_resize_.

Each op is composed from strided ops on the components plus index-only plans computed in C
(csrc/sparse/coo_ops.c); the implementations register into the layout gate's table
(_sparse._HANDLERS) under the op names the gate dispatches on.
"""
import builtins
import math
import operator

from . import _C
from . import _sparse, _sparse_device
from ._sparse import _is_sparse, _new, _no_out, _refuse, _scalar_operand, _take, _rows, _tensor_input, _with_values
from ._out import write_out
from ._util import wrap_dim

_prev_mul = _sparse._HANDLERS["mul"]
_prev_reduce = _sparse._HANDLERS["_reduce"]


def _new_entries(ind, vals, size):
    """A COO tensor over entries in no known order: flagged coalesced only when it holds at
    most one entry (as torch flags the results of index_select, select and cat)."""
    return _new(ind, vals, size, ind.shape[1] <= 1)


def _where(cond, a, b):
    from ._ops import where
    return where(cond, a, b)


# ---- mul -------------------------------------------------------------------------------

def _mul_sparse(x, y):
    """sparse * sparse over the intersection of the entries.

    Both coalesced (and one dense shape): the matching entries only (sorted), coalesced.
    Otherwise torch's hash
    intersection: a `source` tensor (the uncoalesced one when only one is, else the one with
    fewer entries, the second when tied) keeps every entry, in stored order, multiplied by
    zero plus the sum of its products with the other's entries at the same index,
    accumulated in torch's acc_type (zero where the other has none, even for a NaN source);
    the source's coalesced flag. One C pass (tl_coo_mul_source)."""
    if y.dim() == 0:
        return _mul_zero_dim(y, x)
    if x.dim() == 0:
        return _mul_zero_dim(x, y)
    sd = x.sparse_dim()
    if x.dim() != y.dim() or sd != y.sparse_dim() or x.shape[:sd] != y.shape[:sd]:
        raise RuntimeError("sparse_binary_op_intersection_cpu(): expects sparse inputs with equal dimensionality, "
                           "number of sparse dimensions, and shape of sparse dimensions")
    dt = _C.promote_types(x.dtype, y.dtype)
    from ._join import broadcast_shapes
    shape = tuple(x.shape[:sd]) + tuple(broadcast_shapes(x.shape[sd:], y.shape[sd:]))
    if x.is_coalesced() and y.is_coalesced():
        if dt == _C.bool and x._nnz() and y._nnz():
            kernel = "addcmul_cpu_out" if x.dense_dim() or y.dense_dim() else "mul_out_sparse"
            raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
        if x.shape[sd:] == y.shape[sd:]:  # one C walk over both (tl_coo_mul)
            return _C._coo_mul(x, x._values().to(dt), y, y._values().to(dt))
        # dense dims that broadcast: torch takes its general path below
    if not x._nnz() or not y._nnz():  # torch: no entries, coalesced (it fails on broadcast dense dims)
        return _new(_C.empty((sd, 0), dtype=_C.int64, device=x.device),
                    _C.empty((0,) + shape[sd:], dtype=dt, device=x.device), shape, True)
    if x.is_coalesced() != y.is_coalesced():
        pc, src = (x, y) if x.is_coalesced() else (y, x)
    else:
        pc, src = (x, y) if x._nnz() >= y._nnz() else (y, x)
        # torch coalesces the larger first when it must hold > 50 entries at some index
        if pc._nnz() // max(math.prod(pc.shape[:sd]), 1) > 50:
            pc = pc.coalesce()
    if dt in _MUL_SOURCE_DTYPES and math.prod(shape[:sd]) < 2 ** 63:
        # one C pass (tl_coo_mul_source): torch's accumulation of matches, dense dims broadcast
        sv = src._values().to(dt).expand((src._nnz(),) + shape[sd:])
        pv = pc._values().to(dt).expand((pc._nnz(),) + shape[sd:])
        return _C._coo_mul_source(src, sv, pc, pv)
    pc = pc.coalesce()  # other dtypes and overflowing sizes: one match per entry after coalescing
    pos = _C._coo_lookup(src, pc)
    found = (pos >= 0).reshape((-1,) + (1,) * (pc._values().dim() - 1))
    other = _where(found, _take(pc._values(), 0, pos).to(dt), _C.zeros((), dtype=dt))
    vals = _where(found, src._values().to(dt) * other, _C.zeros((), dtype=dt))
    return _new(src._indices().clone(), vals, shape, src.is_coalesced())


# the value dtypes tl_coo_mul_source computes (those with a native or float accumulation type)
_MUL_SOURCE_DTYPES = frozenset(getattr(_C, n) for n in (
    "bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "bfloat16",
    "float32", "float64", "complex32", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2"))


def _mul_zero_dim(zero_dim, other):
    """sparse * sparse where one operand has no dims (torch's _mul_sparse_sparse_zero_dim_out):
    a coalesced 0-dim operand is a scalar that scales the other's entries (their indices and
    flag); else a coalesced 0-dim `other` scales zero_dim's entries; else zero_dim is summed
    into the scalar. An empty 0-dim scalar counts as zero (torch reads an uninitialized one)."""
    def scalar(t):
        v = t._values()
        return v[0] if v.shape[0] else _C.zeros((), dtype=v.dtype)
    if zero_dim.is_coalesced():
        k, s = scalar(zero_dim), other
    elif other.dim() == 0 and other.is_coalesced():
        k, s = scalar(other), zero_dim
    else:
        k, s = scalar(zero_dim.coalesce()), other
    dt = _C.promote_types(k.dtype, s.dtype)
    return _with_values(s, s._values().to(dt) * k.to(dt))


def _mul_dense(s, d):
    """sparse * strided (either order): s's entries times d at their positions (d
    broadcast to s's shape); s's indices and coalesced flag."""
    from ._join import broadcast_shapes
    if tuple(broadcast_shapes(s.shape, d.shape)) != tuple(s.shape):
        raise NotImplementedError("mul: a strided operand that broadcasts beyond the sparse operand's shape is "
                                  "not supported for sparse tensors")
    sd = s.sparse_dim()
    ind = s._indices()
    if s._values().numel() == 0:  # torch gives no entries then
        dt = _C.promote_types(s.dtype, d.dtype)
        return _new(_C.empty((sd, 0), dtype=_C.int64, device=s.device),
                    _C.empty((0,) + tuple(s.shape[sd:]), dtype=dt, device=s.device), s.shape, True)
    de = d.expand(s.shape)
    picked = de[tuple(ind[k] for k in range(sd))] if sd else de.unsqueeze(0).expand(s._values().shape)
    return _new(ind, s._values() * picked, s.shape, s.is_coalesced())


def _mul(input, other, *, out=None):
    _no_out("mul", out)
    if _is_sparse(input) and _is_sparse(other):
        return _mul_sparse(input, other)
    if _scalar_operand(other) or _scalar_operand(input):
        return _prev_mul(input, other)
    if _is_sparse(input) and isinstance(other, _C.TensorBase):
        return _mul_dense(input, other)
    if _is_sparse(other) and isinstance(input, _C.TensorBase):
        return _mul_dense(other, input)
    _refuse("mul.Tensor")


# ---- pow -------------------------------------------------------------------------------

def _pow(input, exponent, *, out=None):
    """sparse ** number: the values of the coalesced tensor raised (coalesced result, of
    input's dtype); exponent 0 would make it dense and raises, as torch."""
    _no_out("pow", out)
    if not _is_sparse(input):
        _refuse("pow.Scalar")
    if isinstance(exponent, _C.TensorBase):
        _refuse("pow.Tensor_Tensor")
    if exponent == 0:
        raise RuntimeError("pow: cannot raise to zeroth power on sparse tensor; it would make the result tensor dense")
    s = input.coalesce()
    v = s._values()
    exact = not (v.dtype.is_floating_point or v.dtype.is_complex)
    if isinstance(exponent, complex) and exponent.imag:
        raise RuntimeError("value cannot be converted to type double without overflow")
    if exact and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    from ._ops import result_type
    rt = result_type(v, exponent)
    if rt != v.dtype and not _C.can_cast(rt, v.dtype):
        raise RuntimeError(f"result type {rt._cname} can't be cast to the desired output type {v.dtype._cname}")
    return _new(s._indices(), v.pow(exponent).to(v.dtype), s.shape, True)


def _pow_(self, exponent):
    _refuse("pow_.Scalar")


# ---- sum, any ----------------------------------------------------------------------------

def sparse_sum(input, dim=None, keepdim=False, dtype=None, promote=True):
    """Sum of a COO tensor. No dim: every element (a 0-d strided tensor). Over dims: a
    strided tensor when every sparse dim is reduced, else a coalesced COO tensor (torch's
    rule). ``promote`` (Tensor.sum): integer and bool values sum in int64 unless dtype= says
    otherwise; without it (tensorlib.sparse.sum) the values keep their dtype, so a partial
    sum of bool values ors them, and a full sum counts the coalesced tensor's entries."""
    _tensor_input("sparse_sum", input)
    vals = input._values()
    if dtype is None and promote and not (vals.dtype.is_floating_point or vals.dtype.is_complex):
        dtype = _C.int64
    if dim is None:
        if not promote:
            vals = input.coalesce()._values()
        return vals.sum(dtype=dtype)
    n, sd = input.dim(), input.sparse_dim()
    dims = [wrap_dim(operator.index(d), n) for d in ((dim,) if isinstance(dim, int) else dim)]
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    if dtype is not None:
        vals = vals.to(dtype)
    dense_red = sorted(d - sd + 1 for d in dims if d >= sd)
    if dense_red:
        kept = vals.dtype
        vals = vals.sum(dense_red)
    sparse_keep = [d for d in range(sd) if d not in dims]
    if not sparse_keep and sd:
        r = vals.sum(0)
    else:
        if dense_red and vals.dtype != kept:  # torch.sparse.sum of bool values over a dense dim
            raise RuntimeError(f"dtype of values ({vals.dtype._cname}) must match dtype of sparse tensor "
                               f"({kept._cname})")
        size = [input.shape[d] for d in range(n) if d not in dims]
        r = _new(_rows(input._indices(), sparse_keep) if sparse_keep != list(range(sd)) else input._indices(),
                 vals, size, False)._coalesce()
    if keepdim:  # torch unsqueezes every dim when none is named
        for d in sorted(dims) if dims else range(n):
            r = r.unsqueeze(d)
    return r


def _reduce(x, code, dim, keepdim, dtype, param):
    name = _sparse._REDUCE_NAMES[code] if 0 <= code < len(_sparse._REDUCE_NAMES) else "_reduce"
    _tensor_input(name, x)
    if name == "sum":
        if dim is None and keepdim:
            dim = tuple(range(x.dim()))
        return sparse_sum(x, dim, keepdim, dtype)
    if name == "any":
        if dim is not None or keepdim:
            _refuse("any.dim")
        return x._values().any()
    return _prev_reduce(x, code, dim, keepdim, dtype, param)


# ---- index_select, select, __getitem__ ----------------------------------------------------

def _index_select(input, dim, index):
    """Entries along a sparse dim are picked per index position (in index order, then stored
    order; uncoalesced unless empty); along a dense dim the values are selected."""
    if not _is_sparse(input) or _is_sparse(index):
        raise IndexError("index_select() argument index must be 1-D strided (non-sparse) long-tensor.")
    n, sd = input.dim(), input.sparse_dim()
    dim = wrap_dim(dim, n)
    if index.dtype != _C.int64 or index.dim() != 1:
        raise IndexError("index_select() argument index must be 1-D strided (non-sparse) long-tensor.")
    size = list(input.shape)
    size[dim] = index.shape[0]
    if dim >= sd:
        vals, vd = input._values(), dim - sd + 1
        if vals.numel() == 0:  # no element read: torch checks no index then
            shape = list(vals.shape)
            shape[vd] = index.shape[0]
            return _new_entries(input._indices().clone(), _C.zeros(tuple(shape), dtype=vals.dtype, device=vals.device), size)
        bad = (index < 0) | (index >= input.shape[dim])
        if bad.any():
            raise RuntimeError(f"index {index[bad][0].item()} is out of bounds for dimension {vd} with size "
                               f"{input.shape[dim]}")
        vals = vals.index_select(vd, index)
        return _new_entries(input._indices().clone(), vals, size)
    plan = _C._coo_index_select_plan(input, dim, index)
    ind = input._indices().index_select(1, plan[0])
    ind[dim] = plan[1]
    return _new_entries(ind, input._values().index_select(0, plan[0]), size)


def _select(input, dim, index):
    """A sparse dim: the entries at `index` with that dim removed (a strided tensor, their
    sum, when it was the only sparse dim); a dense dim: the values selected."""
    n, sd = input.dim(), input.sparse_dim()
    if isinstance(dim, str):
        _refuse("select.Dimname")
    dim = wrap_dim(operator.index(dim), n)
    index = operator.index(index)
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at "
                         f"dimension {dim}")
    index += size if index < 0 else 0
    ind, vals = input._indices(), input._values()
    new_size = list(input.shape[:dim]) + list(input.shape[dim + 1:])
    if dim >= sd:
        return _new_entries(ind.clone(), vals.select(dim - sd + 1, index), new_size)
    keep = ind[dim] == index
    vals = vals[keep]
    if sd == 1:  # no sparse dim left: the sum of the entries there, in their dtype (bool: or)
        return vals.any(0) if vals.dtype == _C.bool else vals.sum(0, dtype=vals.dtype)
    rows = [d for d in range(sd) if d != dim]
    return _new_entries(_rows(ind, rows)[:, keep], vals, new_size)


def _getitem(input, key):
    """torch's indexing of a sparse tensor, item by item: an integer (or 0-d integer tensor)
    selects, a full slice keeps its dim, None inserts one, ``...`` skips; once no sparse dim
    is left the result is strided and the rest of the key indexes it as usual. A partial
    slice or an index tensor on a sparse result refuses as torch (no as_strided there)."""
    items = key if isinstance(key, tuple) else (key,)
    specified = builtins.sum(1 for o in items if o is not None and o is not Ellipsis)
    if specified > input.dim():
        raise IndexError(f"too many indices for tensor of dimension {input.dim()}")
    t, dim, real_dim = input, 0, 0
    for k, o in enumerate(items):
        sparse = _is_sparse(t)
        if o is None:
            t, dim = t.unsqueeze(dim), dim + 1
        elif o is Ellipsis:
            skip = t.dim() - dim - builtins.sum(1 for p in items[k + 1:] if p is not None and p is not Ellipsis)
            dim, real_dim = dim + skip, real_dim + skip
        elif isinstance(o, bool) or (isinstance(o, _C.TensorBase) and o.dtype == _C.bool):
            if sparse:
                _refuse("fill_.Scalar")
            return t[(slice(None),) * dim + items[k:]]
        elif (not isinstance(o, _C.TensorBase) and hasattr(o, "__index__")) or (
                isinstance(o, _C.TensorBase) and o.dim() == 0 and not o.dtype.is_floating_point
                and not o.dtype.is_complex):
            i, size = operator.index(o), t.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {real_dim} with size {size}")
            t, real_dim = (_select(t, dim, i) if sparse else t.select(dim, i)), real_dim + 1
        elif isinstance(o, slice) and (not sparse or range(*o.indices(t.shape[dim])) == range(t.shape[dim])):
            t = t if sparse else t[(slice(None),) * dim + (o,)]
            dim, real_dim = dim + 1, real_dim + 1
        elif not sparse:
            return t[(slice(None),) * dim + items[k:]]
        else:
            _refuse("as_strided")
    if t is input:  # torch returns an alias here, which a sparse tensor cannot give
        raise NotImplementedError("Cannot access storage of SparseTensorImpl")
    return t


# ---- cat ---------------------------------------------------------------------------------

def _cat(tensors, dim=0):
    """Concatenation of COO tensors of one sparse_dim/dense_dim: along a sparse dim the
    indices are shifted, along a dense dim each tensor's values are zero-padded to the joint
    width; the result holds every entry (uncoalesced)."""
    ts = list(tensors)
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    n = ts[0].dim()
    dim = wrap_dim(operator.index(dim), n)
    if not _is_sparse(ts[0]):  # torch reads the first tensor's values before any check
        raise NotImplementedError("Could not run 'aten::_values' with arguments from the 'CPU' backend. This could "
                                  "be because the operator doesn't exist for this backend.")
    for i, t in enumerate(ts):
        if not _is_sparse(t):
            raise RuntimeError(f"Concatenating sparse tensors, but a dense tensor was found at position {i}.")
    sd, dd = ts[0].sparse_dim(), ts[0].dense_dim()
    for i, t in enumerate(ts):
        if t.sparse_dim() != sd or t.dense_dim() != dd:
            raise RuntimeError(f"All tensors must have the same sparse_dim and dense_dim: {sd}, {dd}, but tensor "
                               f"at position {i} has {t.sparse_dim()}, {t.dense_dim()}.")
        if any(t.shape[d] != ts[0].shape[d] for d in range(n) if d != dim):
            raise RuntimeError(f"All tensors must have the same shape: {list(ts[0].shape)} (except in the "
                               f"concatenating dimension), but found shape: {list(t.shape)} at position {i}.")
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = _C.promote_types(dt, t.dtype)
    size = list(ts[0].shape)
    size[dim] = builtins.sum(t.shape[dim] for t in ts)
    inds, vals, offset = [], [], 0
    for t in ts:
        ind, val = t._indices(), t._values().to(dt)
        if dim < sd:
            if offset:
                shift = _C.zeros((sd, 1), dtype=_C.int64, device=t.device)
                shift[dim] = offset
                ind = ind + shift
        else:
            vshape = list(val.shape)
            vd = dim - sd + 1
            vshape[vd] = size[dim]
            padded = _C.zeros(tuple(vshape), dtype=dt, device=t.device)
            padded.narrow(vd, offset, t.shape[dim]).copy_(val)
            val = padded
        offset += t.shape[dim]
        inds.append(ind)
        vals.append(val)
    return _new_entries(_sparse._cat(inds, 1), _sparse._cat(vals, 0), size)


# ---- products ------------------------------------------------------------------------------

def _same_dtype(ref, *others):
    for t in others:
        if t.dtype != ref.dtype:
            raise RuntimeError(f"expected scalar type {ref.dtype._cname} but found {t.dtype._cname}")


def _sparse_sparse_mm(a, b):
    """2-D COO @ 2-D COO: every product of an entry (i, k) of a with an entry (k, j) of b,
    summed per (i, j): a coalesced COO tensor (explicit zeros of cancelling sums kept)."""
    if a.sparse_dim() != 2 or b.sparse_dim() != 2 or a.dense_dim() or b.dense_dim():
        _refuse("mm")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                           f"{b.shape[0]}x{b.shape[1]})")
    if a.dtype != b.dtype:
        raise RuntimeError(f"mat1 dtype {a.dtype._cname} does not match mat2 dtype {b.dtype._cname}")
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        raise NotImplementedError(f"\"sparse_matmul\" not implemented for '{a.dtype._cname}'")
    ai, bi = a._indices(), b._indices()
    plan = _C._coo_index_select_plan(b, 0, ai[1])  # (entry of b, entry of a) with b.row == a.col
    ind = _sparse._cat([ai[0:1].index_select(1, plan[1]), bi[1:2].index_select(1, plan[0])], 0)
    vals = a._values().index_select(0, plan[1]) * b._values().index_select(0, plan[0])
    return _new(ind, vals, (a.shape[0], b.shape[1]), False)._coalesce()


def _plain_2d(s):
    return _is_sparse(s) and s.sparse_dim() == 2 and s.dense_dim() == 0


def _spmm(name, a, b):
    """a @ b with one of them a 2-D COO tensor and the other strided (2-D, or 1-D on the
    right): the C kernel (csrc/sparse/coo_ops.c) when shapes and dtypes allow, else the
    layer's composition of strided ops (which also raises torch's errors)."""
    _tensor_input(name, a)
    _tensor_input(name, b, "mat2", 2)
    if _plain_2d(a) and not _is_sparse(b) and b.dim() in (1, 2) and a.shape[1] == b.shape[0] and a.dtype == b.dtype:
        if _sparse_device.on_device(a) and _sparse_device.product_supported(a):
            return _sparse_device.mm(a, b)
        v = a._values()
        if not v.is_contiguous():
            a = _new(a._indices(), v.contiguous(), a.shape, a.is_coalesced())
        r = _C._coo_spmm(a, (b if b.dim() == 2 else b.reshape(-1, 1)).contiguous())
        if r is not None:
            return r if b.dim() == 2 else r.reshape(-1)
    if _plain_2d(b) and not _is_sparse(a) and a.dim() == 2 and a.shape[1] == b.shape[0] and a.dtype == b.dtype:
        if _sparse_device.on_device(b) and _sparse_device.product_supported(b):
            return _sparse_device.mm(b, a.t(), True).t()
        bt = _new(b._indices().flip(0), b._values().contiguous(), (b.shape[1], b.shape[0]), False)
        r = _C._coo_spmm(bt, a.t().contiguous())
        if r is not None:
            return r.t()
    return _sparse._mm_impl(name, a, b)


def _mm(input, mat2, *, out=None):
    if _is_sparse(input) and _is_sparse(mat2):
        _no_out("mm", out)
        return _sparse_sparse_mm(input, mat2)
    return write_out(_spmm("mm", input, mat2), out, "mm")


def _matmul(input, other, *, out=None):
    if _is_sparse(input) and _is_sparse(other):
        _no_out("matmul", out)
        return _sparse_sparse_mm(input, other)
    return write_out(_spmm("matmul", input, other), out, "matmul")


def _mv(input, vec, *, out=None):
    return write_out(_spmm("mv", input, vec), out, "mv")


def _scalars_for(dt, *xs):
    """alpha/beta as torch applies them: cast to the operands' dtype (integers truncate)."""
    return tuple(int(x) if not (dt.is_floating_point or dt.is_complex) and dt != _C.bool else x for x in xs)


def _addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2) with one of mat1/mat2 a 2-D COO tensor and the
    other strided: strided result (input broadcast; beta == 0 ignores it, NaN included).
    torch accepts only a sparse mat1; a sparse mat2 is supported here too."""
    for i, (arg, t) in enumerate((("input", input), ("mat1", mat1), ("mat2", mat2))):
        _tensor_input("addmm", t, arg, i + 1)
    if _is_sparse(input):
        raise RuntimeError("addmm_sparse_dense: expected strided result tensor, got tensor with layout Sparse")
    if _is_sparse(mat1) and _is_sparse(mat2):
        raise RuntimeError("addmm_sparse_dense: expected either 'mat1' to have sparse layout and 'mat2' to have strided "
                           "layout, got 'mat1' with layout Sparse and 'mat2' with layout Sparse")
    sp = mat1 if _is_sparse(mat1) else mat2
    if sp.sparse_dim() != 2:
        raise RuntimeError(f"addmm: matrices expected, got {sp.sparse_dim()}D tensor")
    _same_dtype(sp, mat2 if sp is mat1 else mat1, input)
    if sp.dtype == _C.bool and sp._nnz():  # torch's kernel runs (and refuses bool) only on entries
        raise NotImplementedError("\"addmm_sparse_dense\" not implemented for 'Bool'")
    prod = _spmm("addmm", mat1, mat2)
    beta, alpha = _scalars_for(prod.dtype, beta, alpha)
    base = input.expand(prod.shape)
    if alpha != 1:
        prod = prod * alpha
    r = prod if beta == 0 else (base * beta if beta != 1 else base) + prod
    return write_out(r.to(sp.dtype), out, "addmm")


def sparse_addmm(mat, mat1, mat2, *, beta=1., alpha=1.):
    """tensorlib.sparse.addmm: beta * mat + alpha * (mat1 @ mat2), mat1 a 2-D COO tensor
    (or mat2, which torch refuses), strided result."""
    return _addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def _bmm(input, mat2, *, out=None):
    """3-D COO (3 sparse dims) @ strided 3-D: a strided batch of products."""
    _tensor_input("bmm", input)
    _tensor_input("bmm", mat2, "mat2", 2)
    if _is_sparse(mat2):
        raise RuntimeError("bmm_sparse: Tensor 'mat2' must be dense")
    if input.dense_dim():
        raise RuntimeError(f"bmm_sparse: Tensor 'self' must have 0 dense dims, but has {input.dense_dim()}")
    if input.sparse_dim() != 3:
        raise RuntimeError(f"bmm_sparse: Tensor 'self' must have 3 sparse dims, but has {input.sparse_dim()}")
    if mat2.dim() != 3:
        raise RuntimeError(f"bmm_sparse: Tensor 'mat2' must have 3 dims, but has {mat2.dim()}")
    b, n, m = input.shape
    if mat2.shape[0] != b:
        raise RuntimeError("bmm_sparse: 'self.size(0)' and 'mat2.size(0)' must match")
    if mat2.shape[1] != m:
        raise RuntimeError("bmm_sparse: 'self.size(2)' and 'mat2.size(1)' must match")
    _same_dtype(input, mat2)
    p = mat2.shape[2]
    ind, vals = input._indices(), input._values()
    r = _C.zeros((b * n, p), dtype=input.dtype, device=input.device)
    if vals.shape[0] and p:
        picked = mat2.reshape(b * m, p).index_select(0, ind[0] * m + ind[2]) * vals.unsqueeze(1)
        r.index_add_(0, ind[0] * n + ind[1], picked)
    return write_out(r.reshape(b, n, p), out, "bmm")


def _rows_product(name, s, d):
    """The rows of s holding entries (sorted, unique) and those rows of s @ d."""
    _tensor_input(name, s, "mat1", 2)
    _tensor_input(name, d, "mat2", 3)
    if s.sparse_dim() != 2 or s.dense_dim():
        _refuse(name)
    if d.dim() != 2 or _is_sparse(d):
        raise RuntimeError(f"{name}: Argument #3: Expected 2D tensor, got {d.dim()}D")
    if s.shape[1] != d.shape[0]:
        raise RuntimeError(f"{name}: Argument #3: Expected dim 0 size {s.shape[1]}, got {d.shape[0]}")
    _same_dtype(s, d)
    from ._reduce import unique
    rows = unique(s._indices()[0])
    return rows, _spmm(name, s, d).index_select(0, rows)


def _full_rows(rows, block):
    """COO indices (2, r * p) and values of the dense rows `block` placed at `rows`."""
    from ._factories import arange
    p = block.shape[1]
    ind = _sparse._cat([rows.repeat_interleave(p).reshape(1, -1), arange(p, device=rows.device).repeat(rows.shape[0]).reshape(1, -1)], 0)
    return ind, block.reshape(-1)


def _sparse_out(r, out):
    """torch's out= for ops with a COO result: out (a COO tensor of r's dtype) becomes r."""
    if out is None:
        return r
    if not _is_sparse(out):
        raise RuntimeError("out= must be a sparse COO tensor for an op with a sparse result")
    if out.dtype != r.dtype:
        raise RuntimeError(f"dtype of values ({r.dtype._cname}) must match dtype of sparse tensor ({out.dtype._cname})")
    return out._set_coo_(r._indices(), r._values(), r.shape, r.is_coalesced())


def hspmm(mat1, mat2, *, out=None):
    """mat1 (2-D COO) @ mat2 (strided) as a hybrid COO tensor: one entry per row of mat1
    that holds entries, its value the dense row of the product. ``out``: a COO tensor."""
    rows, block = _rows_product("hspmm", mat1, mat2)
    return _sparse_out(_new_entries(rows.reshape(1, -1), block, (mat1.shape[0], mat2.shape[1])), out)


def smm(input, mat):
    """input (2-D COO) @ mat (strided) as a COO tensor: every element of the rows of the
    product where input holds entries (explicit zeros included, as torch)."""
    rows, block = _rows_product("sspaddmm", input, mat)
    ind, vals = _full_rows(rows, block)
    return _new_entries(ind, vals, (input.shape[0], mat.shape[1]))


def sspaddmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2) as a COO tensor (input and mat1 COO, mat2
    strided): input's entries scaled by beta, then the product's rows as smm gives them,
    uncoalesced. ``out``: a COO tensor."""
    if not _is_sparse(input):
        raise RuntimeError("sspaddmm: expected a sparse COO tensor as input, got a strided one")
    rows, block = _rows_product("sspaddmm", mat1, mat2)
    if tuple(input.shape) != (mat1.shape[0], mat2.shape[1]):
        d = 0 if input.shape[0] != mat1.shape[0] else 1
        raise RuntimeError(f"sspaddmm: Argument #1: Expected dim {d} size {(mat1.shape[0], mat2.shape[1])[d]}, got "
                           f"{input.shape[d]}")
    beta, alpha = _scalars_for(input.dtype, beta, alpha)
    ind, vals = _full_rows(rows, block)
    mv = input._values()
    ind = _sparse._cat([input._indices(), ind], 1)
    vals = _sparse._cat([mv * beta if beta != 1 else mv, vals * alpha if alpha != 1 else vals], 0)
    return _sparse_out(_new_entries(ind, vals.to(input.dtype), input.shape), out)


# ---- torch's older names of the products above ----

def hsmm(mat1, mat2):
    """``hspmm(mat1, mat2)``."""
    return hspmm(mat1, mat2)


def saddmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """``sspaddmm(input, mat1, mat2, beta=beta, alpha=alpha, out=out)``."""
    return sspaddmm(input, mat1, mat2, beta=beta, alpha=alpha, out=out)


def spmm(input, mat2):
    """``mm(input, mat2)``: a sparse (or dense) matrix times a dense one."""
    from . import mm
    return mm(input, mat2)


def dsmm(input, mat2):
    """``mm(input, mat2)``: a sparse (or dense) matrix times a dense one."""
    from . import mm
    return mm(input, mat2)


# ---- softmax, spdiags, sparse_resize_ ------------------------------------------------------

def _softmax_impl(name, input, dim, dtype):
    """softmax over the stored entries of each line along dim (implicit zeros count as -inf,
    so they stay zero): a coalesced COO tensor with input's indices."""
    _tensor_input(name, input)
    from ._reduce import unique
    n = input.dim()
    dim = wrap_dim(operator.index(dim), n)
    s = input if dtype is None else input.to(dtype)
    if s.numel() == 0:  # no element: torch returns no entries, before any dtype check
        return _new(_C.empty((s.sparse_dim(), 0), dtype=_C.int64, device=s.device),
                    _C.empty((0,) + tuple(s.shape[s.sparse_dim():]), dtype=s.dtype, device=s.device), s.shape, True)
    if not s.dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}\" not implemented for '{s.dtype._cname}'")
    s = s.coalesce()
    sd, vals, ind = s.sparse_dim(), s._values(), s._indices()
    log = name == "log_softmax"
    if dim >= sd:
        from . import _compat
        v = getattr(_compat, name)(vals, dim - sd + 1) if vals.numel() else vals.clone()
    elif not s._nnz():
        v = vals.clone()
    else:
        other = [d for d in range(sd) if d != dim]
        group = unique(_rows(ind, other), dim=1, return_inverse=True)[1] if other else \
            _C.zeros((s._nnz(),), dtype=_C.int64, device=s.device)
        ng = int(group.max().item()) + 1
        gshape = (ng,) + tuple(vals.shape[1:])
        gidx = group.reshape((-1,) + (1,) * (vals.dim() - 1)).expand(vals.shape)
        top = _C.zeros(gshape, dtype=vals.dtype, device=vals.device).scatter_reduce(0, gidx, vals, "amax", include_self=False)
        shifted = vals - top.index_select(0, group)
        e = shifted.exp()
        total = _C.zeros(gshape, dtype=vals.dtype, device=vals.device).index_add_(0, group, e).index_select(0, group)
        v = shifted - total.log() if log else e / total
    return _new(ind, v, s.shape, True)


def softmax(input, dim, *, dtype=None):
    """tensorlib.sparse.softmax: softmax along dim over each line's stored entries of a COO
    tensor (unstored elements are -inf: they stay unstored); ``dtype`` casts first."""
    return _softmax_impl("softmax", input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    """tensorlib.sparse.log_softmax: log of softmax (same entries)."""
    return _softmax_impl("log_softmax", input, dim, dtype)


def spdiags(diagonals, offsets, shape, layout=None):
    """A 2-D sparse matrix of ``shape`` with row k of ``diagonals`` on diagonal
    ``offsets[k]`` (SciPy's placement: element (j - offset, j) takes diagonals[k, j]);
    entries in offset order, then by column. COO unless ``layout`` says otherwise."""
    _tensor_input("spdiags", diagonals, "diagonals")
    _tensor_input("spdiags", offsets, "offsets", 2)
    if diagonals.dim() > 2:
        raise RuntimeError("Diagonals must be vector or matrix")
    if offsets.dim() > 1:
        raise RuntimeError("Offsets must be scalar or vector")
    if len(shape) != 2:
        raise RuntimeError("Output shape must be 2d")
    if offsets.dtype != _C.int64:
        raise RuntimeError(f"Offset Tensor must have dtype Long but got {offsets.dtype._cname}")
    d2 = diagonals.reshape(1, -1) if diagonals.dim() < 2 else diagonals
    offs = [int(o) for o in offsets.reshape(-1).tolist()]
    if d2.shape[0] != len(offs):
        raise RuntimeError(f"Number of diagonals ({d2.shape[0]}) does not match the number of offsets ({len(offs)})")
    if len(set(offs)) != len(offs):
        raise RuntimeError("Offset tensor contains duplicate values")
    from ._factories import arange
    m, n = (operator.index(x) for x in shape)
    rows, cols, vals = [], [], []
    for k, off in enumerate(offs):
        lo, hi = max(0, off), min(n, m + off, d2.shape[1])
        if hi > lo:
            j = arange(lo, hi, device=d2.device)
            rows.append(j - off)
            cols.append(j)
            vals.append(d2[k, lo:hi])
    if rows:
        ind = _sparse._cat([_sparse._cat(rows, 0).reshape(1, -1), _sparse._cat(cols, 0).reshape(1, -1)], 0)
        val = _sparse._cat(vals, 0)
    else:
        ind, val = (_C.empty((2, 0), dtype=_C.int64, device=diagonals.device),
                    _C.empty((0,), dtype=diagonals.dtype, device=diagonals.device))
    r = _new_entries(ind, val.clone(), (m, n))
    return r if layout in (None, _C.sparse_coo) else r.to_sparse(layout=layout)


_RESIZE_HINT = ("\nYou could try the following options:\n1. If you need an empty sparse tensor of this size, call "
                "`x = tensorlib.sparse_coo_tensor(size)`.\n2. If you need to resize this tensor, you have the following "
                "options:\n    1. For both sparse and dense dimensions, keep the number of them constant and the size "
                "of them non-shrinking, and then try the same call again.\n    2. Or, create a new sparse tensor with "
                "the correct indices and values from this sparse tensor.")


def sparse_resize_(self, size, sparse_dim, dense_dim):
    """Resizes a COO tensor in place to ``size`` with the given sparse and dense dims. An
    empty one may change anything; a non-empty one keeps its numbers of sparse and dense
    dims and may only grow (torch's errors otherwise); grown dense dims are zero-filled."""
    if self.layout != _C.sparse_coo:
        _refuse("sparse_resize_")
    size = tuple(operator.index(x) for x in size)
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                           f"sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
    sd, dd = self.sparse_dim(), self.dense_dim()
    ind, vals = self._indices(), self._values()
    if not self._nnz():
        return self._set_coo_(_C.empty((sparse_dim, 0), dtype=_C.int64, device=self.device),
                              _C.empty((0,) + size[sparse_dim:], dtype=self.dtype, device=self.device), size,
                              self.is_coalesced())
    old = tuple(self.shape)
    for what, a, b in (("sparse", sd, sparse_dim), ("dense", dd, dense_dim)):
        if a != b:
            raise RuntimeError(f"changing the number of {what} dimensions (from {a} to {b}) on a non-empty sparse "
                               f"tensor is not supported." + _RESIZE_HINT)
    for what, a, b in (("sparse", old[:sd], size[:sd]), ("dense", old[sd:], size[sd:])):
        if any(y < x for x, y in zip(a, b)):
            raise RuntimeError(f"shrinking the size of {what} dimensions (from {list(a)} to {list(b)}) on a non-empty "
                               f"sparse tensor is not supported." + _RESIZE_HINT)
    if size[sd:] != old[sd:]:
        grown = _C.zeros((vals.shape[0],) + size[sd:], dtype=vals.dtype, device=vals.device)
        grown[(slice(None),) + tuple(slice(0, x) for x in old[sd:])] = vals
        vals = grown
    return self._set_coo_(ind, vals, size, self.is_coalesced())


def _resize_as_(self, other, *, memory_format=None):
    """torch's resize_as_ of a COO tensor: sparse_resize_ to the template's size, sparse
    and dense dims (its rules on a non-empty tensor)."""
    if self.layout != _C.sparse_coo or not isinstance(other, _C.TensorBase) or other.layout != _C.sparse_coo:
        _refuse("resize_as_")
    return sparse_resize_(self, tuple(other.shape), other.sparse_dim(), other.dense_dim())


def native_norm(input, p=2, dim=None, keepdim=False, dtype=None):
    """native_norm(input, p=2, dim=None, keepdim=False, dtype=None) -> Tensor

    torch's norm of a sparse COO tensor: the p-norm of its coalesced values, over every
    element (dim, when given, must name every dim; no keepdim, no dtype). Strided tensors
    have no native_norm kernel (torch's NotImplementedError)."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"native_norm(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.layout != _C.sparse_coo:
        backend = "CPU" if input.layout == _C.strided else "SparseCsrCPU"
        raise NotImplementedError(f"Could not run 'aten::native_norm' with arguments from the '{backend}' backend. "
                                  "This could be because the operator doesn't exist for this backend.")
    if dim is not None:
        dims = {wrap_dim(operator.index(d), input.dim()) for d in ((dim,) if isinstance(dim, int) else dim)}
        if dims and dims != set(range(input.dim())):
            raise RuntimeError("norm_sparse currently only supports full reductions, so 'dim' must either be empty "
                               "or contain all dimensions of the input")
    if keepdim:
        raise RuntimeError("norm_sparse currently does not support keepdim=True")
    if dtype is not None:
        raise RuntimeError("norm_sparse currently does not support 'dtype' argument")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{input.dtype._cname} instead.")
    from . import linalg
    return linalg.vector_norm(input.coalesce()._values(), 2 if p is None else p)


_sparse._HANDLERS.update({
    "resize_as_": _resize_as_, "_resize_as_": _resize_as_, "mul": _mul, "multiply": _mul, "pow": _pow, "pow_": _pow_, "_reduce": _reduce,
    "_index_select": _index_select, "index_select": _index_select, "select": _select, "__getitem__": _getitem,
    "_cat": _cat, "mm": _mm, "matmul": _matmul, "mv": _mv, "addmm": _addmm, "bmm": _bmm,
})
for _n in ("mul", "multiply"):
    _sparse._HANDLERS[_n + "_"] = _sparse._inplace(_mul)
del _n


def _install_methods(Tensor):
    for f in (smm, hspmm, sspaddmm, sparse_resize_):
        setattr(Tensor, f.__name__, f)
