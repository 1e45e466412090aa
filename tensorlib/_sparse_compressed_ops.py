"""The ops of the compressed sparse layouts (tensorlib/_sparse_compressed.py registers
them in the layout gate's table): products on the row-parallel CSR kernel
(csrc/sparse/csr_matmul.c), addition with torch's union pattern, scalar products, sums,
softmax, sampled_addmm, spsolve and the factories."""
from . import _C
from . import _sparse, _sparse_device
from ._sparse_compressed import (
    _BLOCK, _ROW, _batch_dim, _blocksize, _convert, _coo_to, _empty_parts, _first_compressed,
    _is_compressed, _name, _new, _parts, _refuse, _select, _transpose, _unsupported, _values, _with_values)


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
    if _sparse_device.on_device(a) and _sparse_device.product_supported(a):
        return _sparse_device.mm(a, b)
    a = _as_csr(a)
    if _C._csr_matmul_supports(a.dtype):
        return _C._csr_matmul(a, b)
    wide = _C.complex64 if a.dtype.is_complex else _C.float32  # float16, bfloat16, ...
    return _C._csr_matmul(a.to(wide), b.to(wide)).to(a.dtype)


def _matmul_impl(name, a, b):
    """compressed @ strided, strided @ compressed, compressed @ compressed (2-D; batched
    compressed @ strided by batch entries)."""
    _sparse._tensor_input(name, a)
    _sparse._tensor_input(name, b, "other", 2)
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
        return r + _C.zeros(tuple(input.shape), dtype=r.dtype, device=r.device)
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
    if out is not None:
        return _mul_out(input, other, out)
    if _is_compressed(input) and _sparse._scalar_operand(other):
        return _with_values(input, _values(input) * other)
    if _is_compressed(other) and _sparse._scalar_operand(input):
        return _with_values(other, _values(other) * input)
    if _is_compressed(input) and isinstance(other, _C.TensorBase) and (
            _is_compressed(other) or other.layout == _C.sparse_coo):
        return _mul_sparse(input, other)
    if isinstance(input, _C.TensorBase) and input.layout == _C.sparse_coo and _is_compressed(other):
        raise RuntimeError("Expected result Tensor to be of format CSR")  # torch's COO * CSR
    if _is_compressed(input) and isinstance(other, _C.TensorBase) and other.layout == _C.strided:
        return _mul_strided(input, other, True)
    if _is_compressed(other) and isinstance(input, _C.TensorBase) and input.layout == _C.strided:
        return _mul_strided(other, input, False)
    _refuse("mul.Tensor")


def _as_coo(x):
    """An operand of the general out= product as torch's to_sparse() makes it: compressed
    layouts element-level COO (explicit zeros kept), a strided tensor the COO of its
    non-zeros, a Python number as it is (the COO product scales by it)."""
    if not isinstance(x, _C.TensorBase):
        return x
    if _is_compressed(x):
        return _C._compressed_to_coo(x)
    return x if x.layout == _C.sparse_coo else x.to_sparse()


def _mul_out(t, s, out):
    """mul(t, s, out=) as torch's mul_out_sparse_csr: a CSR operand with a strided (or
    scalar) one masks the strided one by the CSR pattern first (the sizes must match, a
    scalar's are []), then both are taken to COO, multiplied where both store, and the CSR
    of the product is written into out, which must be CSR: out keeps its dtype and index
    dtype and takes the product's shape; a component whose storage holds the result is
    written in place (views of it see the new entries, as torch's resize_ + copy_ gives)."""
    strided = lambda x: not isinstance(x, _C.TensorBase) or x.layout == _C.strided
    csr = lambda x: isinstance(x, _C.TensorBase) and x.layout == _C.sparse_csr
    if csr(t) and strided(s) or strided(t) and csr(s):
        m, d = (t, s) if csr(t) else (s, t)
        dshape = list(d.shape) if isinstance(d, _C.TensorBase) else []
        if dshape != list(m.shape):
            raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size {dshape} but "
                               f"mask has size {list(m.shape)}")
    if not isinstance(out, _C.TensorBase) or out.layout != _C.sparse_csr:
        raise RuntimeError("Expected result Tensor to be of format CSR")
    if csr(t) and strided(s):
        r = _mul_strided(t, s, True)
    elif strided(t) and csr(s):
        r = _mul_strided(s, t, False)
    else:
        p = _as_coo(t) * _as_coo(s)
        if not isinstance(p, _C.TensorBase) or p.sparse_dim() != 2:  # two numbers: torch's 0-d product
            raise RuntimeError("coo_to_sparse_csr: conversion from Sparse to SparseCsr for input tensors with "
                               "sparse_dim()!=2 is not supported")
        r = p.to_sparse_csr()
    ci, pi, v = _parts(r)
    oci, opi, ov = _parts(out)
    return _C._set_compressed_(out, _into(oci, ci, oci.dtype), _into(opi, pi, oci.dtype), _into(ov, v, out.dtype),
                               tuple(r.shape))


def _into(old, new, dtype):
    """new (cast to dtype) written into old's storage where old (contiguous, same dtype and
    trailing shape) is long enough, as torch's resize_ keeps a storage that holds the new
    size; a fresh tensor otherwise."""
    if (old.dtype == dtype and old.dim() == new.dim() and tuple(old.shape[1:]) == tuple(new.shape[1:])
            and old.shape[0] >= new.shape[0] and old.is_contiguous()):
        dst = old.narrow(0, 0, new.shape[0])
    else:
        dst = _C.empty(tuple(new.shape), dtype=dtype, device=new.device)
    dst.copy_(new)
    return dst


def _mul_strided(s, d, s_first):
    """compressed s times a strided d (not 0-d), as torch: CSR only, d of s's exact shape (no
    broadcasting: torch masks d with s's pattern first), a CSR result with s's pattern and
    int64 indices holding s's values times d's elements there (d's elements elsewhere, NaN
    included, are not read). BSR/BSC/CSC refuse with torch's messages, which depend on the
    operand order."""
    if s.layout in _BLOCK and s_first:
        raise RuntimeError("empty_sparse_compressed expected sparse compressed (non-block) tensor layout but got "
                           f"{_name(s.layout)}")
    if s.layout != _C.sparse_csr:
        raise RuntimeError("Expected result Tensor to be of format CSR")
    if tuple(d.shape) != tuple(s.shape):
        raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size {list(d.shape)} but "
                           f"mask has size {list(s.shape)}")
    dt = _C.promote_types(s.dtype, d.dtype)
    ci, pi, v = _parts(s)
    if dt == _C.bool and pi.numel() > 0:
        raise NotImplementedError('"mul_out_sparse" not implemented for \'Bool\'')
    if _batch_dim(s):
        raise RuntimeError("coo_to_sparse_csr: conversion from Sparse to SparseCsr for input tensors with "
                           "sparse_dim()!=2 is not supported")
    ind = _C._compressed_to_coo(s)._indices()  # (2, nse) int64, in storage order
    flat = ind[0] * s.shape[1] + ind[1]
    dv = d.reshape((-1,) + tuple(d.shape[2:])).index_select(0, flat).to(dt)
    v = v.to(dt)
    return _new(ci.to(_C.int64), pi.to(_C.int64), v * dv if s_first else dv * v, s.shape, s.layout)


def _mul_(self, other):
    """self.mul_(other): a compressed self takes the product's values cast to its dtype (for
    a strided other torch casts without the can-cast check, complex to real included) and
    keeps its index dtype; a strided self with a compressed other fails as torch."""
    strided = isinstance(other, _C.TensorBase) and other.layout == _C.strided and other.dim() > 0
    if not _is_compressed(self) or (strided and self.layout != _C.sparse_csr):
        raise RuntimeError("Expected result Tensor to be of format CSR")
    r = _mul(self, other)
    if strided:  # the same pattern: the values are written in place (views of them see it, as torch)
        _parts(self)[2].copy_(_parts(r)[2].to(self.dtype))
        return self
    from ._sparse_compressed import _set_from
    return _set_from(self, r)


def _mul_sparse(a, b):
    """a * b, both sparse, a compressed: the entries both store (one merge per compressed
    slice in C, csrc/sparse/compressed_arith.c), in a's layout with int64 indices, as torch
    (which has CSR only; CSC, BSR and BSC here too, b converted to a's layout and blocksize
    when they differ: the same elements, torch keeps b's pattern for CSR * CSC)."""
    if a.shape != b.shape or a.dense_dim() != b.dense_dim():
        raise RuntimeError("sparse_binary_op_intersection_cpu(): expects sparse inputs with equal dimensionality, "
                           "number of sparse dimensions, and shape of sparse dimensions")
    dt = _C.promote_types(a.dtype, b.dtype)
    if dt == _C.bool:
        raise NotImplementedError('"mul_out_sparse" not implemented for \'Bool\'')
    if _batch_dim(a) or (_is_compressed(b) and _batch_dim(b)):
        raise RuntimeError("coo_to_sparse_csr: conversion from Sparse to SparseCsr for input tensors with "
                           "sparse_dim()!=2 is not supported")
    if b.layout != a.layout or _blocksize(a) != _blocksize(b):
        b = b.to_sparse(layout=a.layout, blocksize=_blocksize(a))
    ci, pi, pa, pb = _C._compressed_intersect(_grid_csr(a), _grid_csr(b))
    v = _values(a).index_select(0, pa).to(dt) * _values(b).index_select(0, pb).to(dt)
    return _new(ci, pi, v, a.shape, a.layout)


def _reduce(x, code, dim, keepdim, dtype, param):
    """The full sum of a compressed tensor sums its stored values (a 0-d strided tensor)."""
    name = _sparse._REDUCE_NAMES[code] if 0 <= code < len(_sparse._REDUCE_NAMES) else "_reduce"
    _sparse._tensor_input(name, x)
    if name == "sum" and dim is None and not keepdim:
        return _values(x).sum(dtype=dtype)
    if name == "sum" and x.layout != _C.sparse_csr:
        raise RuntimeError("Currently the only compressed sparse format supported for sum.dim_IntList is CSR, but "
                           f"got layout {_name(x.layout)}")
    if name == "sum" and not keepdim:
        raise RuntimeError("reduction operations on CSR tensors with keepdim=False is unsupported")
    if name == "sum":
        return _csr_sum_dim(x, dim, dtype)
    _refuse(name if name != "sum" else "sum.dim_IntList")


def _csr_sum_dim(x, dim, dtype):
    """CSR sum over dim 0, dim 1 or both with keepdim=True, as torch: a CSR result that
    stores the columns (rows) holding at least one entry (sums of zero kept), index dtype
    kept; integer sums in int64 (also under dtype=); both dims: one entry unless nnz is 0.
    Batched and hybrid CSR sums fail an internal assert in torch: refused here."""
    if dim is None:
        raise RuntimeError("dim has no value, cannot be used in sum.dim_IntList")
    dims = [dim] if isinstance(dim, int) else list(dim)
    dims = dims or [0, 1]
    if _batch_dim(x) or x.dense_dim():
        raise RuntimeError("sum(dim, keepdim=True) of a CSR tensor with batch or dense dims is not supported")
    wrapped = []
    for d in dims:
        if not -2 <= d <= 1:
            raise IndexError(f"Dimension out of range (expected to be in range of [-2, 1], but got {d})")
        if d % 2 in wrapped:
            raise RuntimeError(f"dim {d % 2} appears multiple times in the list of dims")
        wrapped.append(d % 2)
    if x.dtype == _C.bool:
        raise NotImplementedError('"_sparse_csr_sum_cpu" not implemented for \'Bool\'')
    od = dtype if dtype is not None else x.dtype
    if not (od.is_floating_point or od.is_complex):
        od = _C.int64
    ci, pi, v = _parts(x)
    idt, (R, C), nnz = ci.dtype, tuple(x.shape), pi.shape[0]
    v = v.to(od)
    dev = v.device

    def bounds(n):  # compressed indices [0, n] of a one-slice result
        return _C.full((2,), n, dtype=idt, device=dev).index_fill_(0, _C.zeros(1, dtype=_C.int64, device=dev), 0)
    if len(wrapped) == 2:
        n = 1 if nnz else 0
        return _new(bounds(n), _C.zeros(n, dtype=idt, device=dev), v.sum().reshape(1)[:n], (1, 1), _C.sparse_csr)
    if wrapped == [1]:
        counts = (ci[1:] - ci[:-1]).to(_C.int64)
        rows = _C.full((R,), 1, dtype=_C.int64, device=dev).cumsum(0).sub_(1).repeat_interleave(counts)
        sums = _C.zeros(R, dtype=od, device=dev).index_add_(0, rows, v)
        keep = counts > 0
        nci = _C.zeros(R + 1, dtype=idt, device=dev)
        nci[1:] = keep.cumsum(0)
        return _new(nci, _C.zeros(int(keep.sum()), dtype=idt, device=dev), sums[keep], (R, 1), _C.sparse_csr)
    cols = pi.to(_C.int64)
    sums = _C.zeros(C, dtype=od, device=dev).index_add_(0, cols, v)
    keep = _C.zeros(C, dtype=_C.bool, device=dev)
    keep[cols] = True
    which = keep.nonzero().reshape(-1)
    return _new(bounds(which.shape[0]), which.to(idt), sums[keep], (1, C), _C.sparse_csr)


def _empty_like(input, dtype=None, memory_format=None):
    """empty_like/zeros_like: the same layout, shape and index dtype with nothing stored."""
    return _new(*_empty_parts(input, dtype), input.shape, input.layout)


def _factory(*size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, **kw):
    """zeros/empty(..., layout=CSR or CSC): nothing stored (int64 indices; dims before the
    last two are batch dims); the block layouts need a blocksize factories cannot take."""
    _sparse._no_grad(requires_grad)
    size = _sparse._factory_size(size, kw)
    if layout in _BLOCK or len(size) < 2:
        raise RuntimeError("torch.empty: Only batched sparse compressed (non-block) tensors are supported, but got "
                           f"size {list(size)}" if len(size) < 2 else
                           f"empty_sparse_compressed expected sparse compressed (non-block) tensor layout but got "
                           f"{_name(layout)}")
    batch, ncomp = tuple(size[:-2]), size[-2] if layout == _C.sparse_csr else size[-1]
    ci = _C.zeros(batch + (ncomp + 1,), dtype=_C.int64, device=device)
    pi = _C.empty(batch + (0,), dtype=_C.int64, device=device)
    v = _C.empty(batch + (0,), dtype=dtype or _C.get_default_dtype(), device=device)
    return _new(ci, pi, v, size, layout)


def sampled_addmm(input, mat1, mat2, *, beta=1., alpha=1., out=None):
    """tensorlib.sparse.sampled_addmm: ``beta * input + alpha * (mat1 @ mat2)`` at the stored
    elements of the CSR ``input`` only (a CSR result with input's indices)."""
    _sparse._no_out("sampled_addmm", out)
    for i, (arg, t) in enumerate((("input", input), ("mat1", mat1), ("mat2", mat2))):
        _sparse._tensor_input("sparse_sampled_addmm", t, arg, i + 1)
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
    _sparse._tensor_input("spsolve", input)
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
    mx = _C.zeros(ngroups, dtype=flat.dtype, device=flat.device).scatter_reduce(0, group, flat, "amax", include_self=False)
    shifted = flat - mx.index_select(0, group)
    e = shifted.exp()
    total = _C.zeros(ngroups, dtype=flat.dtype, device=flat.device).index_add(0, group, e).index_select(0, group)
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
    _sparse._tensor_input("the function", input)
    _unsupported(input if _is_compressed(input) else _first_compressed(args, kwargs))


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
