"""Sparse tensors on a backend device (CUDA): their components live there.

What reads no component data works on the device as on the CPU: moving (``to``, ``cuda``,
``cpu``), the components, shapes and flags, and every op the sparse layer composes of strided
ops on the components (scalar products, the zero-preserving unary functions, ``sum``, ...).
The products of a 2-D CSR, CSC or COO matrix with a dense vector or matrix (``mm``, ``mv``,
``matmul``, ``addmm``, ``tensorlib.sparse.mm``, either side) run on the device through the
backend's sparse-product entry (cuSPARSE on CUDA). The other sparse kernels of the core read
host memory: the layout gate (csrc/python/gate.c) hands a device tensor given to one of them
to the handler registered here under the kernel's name. That handler runs a composition of
the device's strided ops where one covers the call, with the host kernel's result bit for bit
and only counts crossing to the host: every conversion between strided, COO, CSR, CSC, BSR and
BSC (batch and dense dims, int32/int64 indices), to_dense, coalesce, COO + COO of operands
stored in non-decreasing order, the index_select plan. Else it runs the kernel on host copies,
moving the result back (correct, and as slow as two copies): COO + COO with an unsorted operand
flagged uncoalesced (the host kernel walks the stored order, which no sort gives),
sparse * sparse, integer CSR products, dense -> sparse of dtypes without a device != 0
(float8, complex32, uint16-64), 2:4 compression, validation of user-built components."""
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


_ROW = (_C.sparse_csr, _C.sparse_bsr)
_BLOCK = (_C.sparse_bsr, _C.sparse_bsc)


def _iota(n, dev):
    """0, 1, ..., n - 1 (int64), made by device ops (arange fills on the host and copies)."""
    return _C.ones(n, dtype=_C.int64, device=dev).cumsum(0) - 1


def _prod(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def _compressed_ids(ci, n):
    """The compressed slice of each of the n stored elements of every batch: ci (nb, ncomp + 1)
    -> (nb, n) int64; element k of batch b is in slice r where ci[b, r] <= k < ci[b, r + 1],
    i.e. the number of boundaries ci[b, 1:] at or before k."""
    nb, dev = ci.shape[0], ci.device
    marks = _C.zeros(nb * (n + 1), dtype=_C.int64, device=dev)
    if nb and ci.shape[1] > 1:
        at = (ci[:, 1:].to(_C.int64) + (_iota(nb, dev) * (n + 1)).view(nb, 1)).reshape(-1)
        marks.index_add_(0, at, _C.ones(at.shape[0], dtype=_C.int64, device=dev))
    return marks.view(nb, n + 1).cumsum(1)[:, :n]


def _offsets(ids, count, batch=None, nb=1):
    """Compressed indices (nb, count + 1), int64, of slice ids sorted by (batch, id) (batch: the
    batch of each id, None for one batch)."""
    dev = ids.device
    at = ids + 1 if batch is None else batch * (count + 1) + ids + 1
    off = _C.zeros(nb * (count + 1), dtype=_C.int64, device=dev)
    if ids.shape[0]:
        off.index_add_(0, at, _C.ones(ids.shape[0], dtype=_C.int64, device=dev))
    return off.view(nb, count + 1).cumsum(1)


class _Parts:
    """A compressed tensor's components and geometry: batch dims, blocks (1 x 1 for CSR/CSC),
    dense dims, the numbers of compressed and plain slices (the host kernels' cview)."""

    def __init__(self, t):
        self.ci, self.pi, self.v = _C._compressed_parts(t)
        bd = self.bd = self.ci.dim() - 1
        self.row = t.layout in _ROW
        self.batch = tuple(t.shape[:bd])
        self.nb = _prod(self.batch)
        self.nse = self.pi.shape[-1]
        self.bh, self.bw = tuple(self.v.shape[bd + 1:bd + 3]) if t.layout in _BLOCK else (1, 1)
        self.dense = tuple(t.shape[bd + 2:])
        self.ncomp = self.ci.shape[-1] - 1
        M, N = t.shape[bd], t.shape[bd + 1]
        self.nplain = (N // self.bw if self.bw else 0) if self.row else (M // self.bh if self.bh else 0)

    def comp(self):
        """(nb, nse) int64: the compressed slice of each stored element (block)."""
        return _compressed_ids(self.ci.reshape(self.nb, self.ncomp + 1), self.nse)


def _compressed_to_coo(t):
    """Any compressed tensor -> COO in the host kernel's order: batch by batch, slice by slice in
    storage order, each block's elements row-major; int64 indices, the values' rows as stored;
    flagged coalesced for CSR (batched too) and BSR of one-row blocks, as the host kernel."""
    g = _Parts(t)
    dev = g.v.device
    comp, plain = g.comp().view(g.batch + (g.nse,)), g.pi.to(_C.int64)
    R, C = (comp, plain) if g.row else (plain, comp)
    m = g.nb * g.nse * g.bh * g.bw
    if (g.bh, g.bw) == (1, 1):
        full = g.batch + (g.nse,)
        rows, cols = R.reshape(m), C.reshape(m)
    else:  # element (r, q) of block (R, C) is at (R * bh + r, C * bw + q)
        full, at = g.batch + (g.nse, g.bh, g.bw), g.batch + (g.nse, 1, 1)
        rows = ((R * g.bh).view(at) + _iota(g.bh, dev).view(g.bh, 1)).expand(full).reshape(m)
        cols = ((C * g.bw).view(at) + _iota(g.bw, dev)).expand(full).reshape(m)
    after = len(full) - g.bd  # the batch coordinates, each broadcast over the dims after it
    coords = [_iota(s, dev).view((s,) + (1,) * (g.bd - d - 1 + after)).expand(full).reshape(m)
              for d, s in enumerate(g.batch)]
    from ._join import stack
    coalesced = t.layout == _C.sparse_csr or (t.layout == _C.sparse_bsr and g.bh == 1)
    return _C._sparse_coo_new(stack(coords + [rows, cols], 0), g.v.reshape((m,) + g.dense), tuple(t.shape), False,
                              coalesced)


def _coo_to_compressed(s, layout):
    """Coalesced 2-D COO -> CSR or CSC (int64 indices; CSC reorders by column, stably)."""
    if layout not in (_C.sparse_csr, _C.sparse_csc) or not s.is_coalesced() or s.sparse_dim() != 2:
        return NotImplemented
    ind, v = s._indices(), s._values()
    rows, cols = ind[0], ind[1]
    if layout == _C.sparse_csc:
        perm = (cols * s.shape[0] + rows).sort(stable=True)[1]
        rows, cols, v = rows.index_select(0, perm), cols.index_select(0, perm), v.index_select(0, perm)
        ci, pi = _offsets(cols, s.shape[1])[0], rows
    else:
        ci, pi = _offsets(rows, s.shape[0])[0], cols.contiguous()
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


def _acc(dt):
    """The dtype the host kernels sum dt in (bool: or, here a sum in int64 tested != 0)."""
    return _C.int64 if dt == _C.bool else _ACC.get(dt)


def _ascending(key):
    """Whether the keys are strictly ascending (what the host kernels test; one byte to the host)."""
    return key.shape[0] < 2 or bool((key[1:] > key[:-1]).all().item())


def _coalesce(s, zero_start=False):
    """Duplicates summed (in the host kernels' accumulation dtype; bool: or), entries sorted. Each
    sum starts from the group's first entry, as the host coalesce's (a lone -0.0 stays), or with
    zero_start from zero, as the host add's."""
    ind, v = s._indices(), s._values()
    sd, dev = s.sparse_dim(), v.device
    acc = _acc(s.dtype)
    if acc is None or not sd:
        return NotImplemented
    if not ind.shape[1]:
        return _C._sparse_coo_new(ind.clone(), v.clone(), tuple(s.shape), False, True)
    key = _linear(ind, tuple(s.shape[:sd]))
    if key is None:
        return NotImplemented
    from ._unique import unique_consecutive
    skey, perm = key.sort(stable=True)
    _, inverse, counts = unique_consecutive(skey, return_inverse=True, return_counts=True)
    starts = counts.cumsum(0) - counts
    vs = v.index_select(0, perm).to(acc)
    if zero_start:
        sums = _C.zeros((counts.shape[0],) + tuple(v.shape[1:]), dtype=acc, device=dev)
    else:
        # the first entries copied, the others added in order; -0.0 added in place of the
        # first ones leaves every sum as it is (x + -0.0 == x, bit for bit, -0.0 included)
        from ._join import cat
        from ._ops import where
        sums = vs.index_select(0, starts)
        lead = cat([_C.ones(1, dtype=_C.bool, device=dev), skey[1:] != skey[:-1]])
        vs = where(lead.view((-1,) + (1,) * (vs.dim() - 1)), _C.zeros((), dtype=acc, device=dev).neg(), vs)
    sums.index_add_(0, inverse, vs)
    vals = sums != 0 if s.dtype == _C.bool else sums.to(s.dtype)
    return _C._sparse_coo_new(ind.index_select(1, perm.index_select(0, starts)), vals, tuple(s.shape), False, True)


def _coo_to_dense(s):
    """The strided tensor: with strictly ascending positions (whatever the flag says) every entry
    copied to its place, else every entry added there in the accumulation dtype (bool: or), as
    the host kernel."""
    ind, v = s._indices(), s._values()
    sd, acc = s.sparse_dim(), _acc(s.dtype)
    if acc is None or not sd:
        return NotImplemented
    where = tuple(ind[d] for d in range(sd))
    n = ind.shape[1]
    key = _linear(ind, tuple(s.shape[:sd])) if n > 1 else None
    if n < 2 or (key is not None and _ascending(key)):
        out = _C.zeros(tuple(s.shape), dtype=s.dtype, device=v.device)
        if n:
            out.index_put_(where, v)
        return out
    out = _C.zeros(tuple(s.shape), dtype=acc, device=v.device)
    out.index_put_(where, v.to(acc), accumulate=True)
    return out != 0 if s.dtype == _C.bool else out.to(s.dtype)


def _compressed_to_dense(t):
    """Every stored element written at its position (a copy, as the host kernel's: a stored -0.0
    stays; a valid tensor has each position once)."""
    coo = _compressed_to_coo(t)
    ind, v = coo._indices(), coo._values()
    out = _C.zeros(tuple(t.shape), dtype=t.dtype, device=v.device)
    if ind.shape[1]:
        out.index_put_(tuple(ind[d] for d in range(ind.shape[0])), v)
    return out


def _dense_to_sparse(t, sparse_dim):
    """The COO tensor of the non-zero elements (rows over the last ndim - sparse_dim dims)."""
    if not 0 < sparse_dim <= t.dim() or _acc(t.dtype) is None:
        return NotImplemented
    nz = t != 0
    if sparse_dim < t.dim():
        nz = nz.any(dim=tuple(range(sparse_dim, t.dim())))
    ind = nz.nonzero().t()
    vals = t[tuple(ind[d] for d in range(sparse_dim))]
    return _C._sparse_coo_new(ind, vals, tuple(t.shape), False, True)


def _dense_to_compressed(t, layout, blocksize, dense_dim):
    """A strided tensor -> CSR, CSC, BSR or BSC (batch dims, dense dims; int64 indices): the
    blocks (elements) with a non-zero, per batch in compressed-slice order, each stored whole;
    the same number per batch, else the host kernel's error."""
    if _acc(t.dtype) is None:  # no device != 0 for the others (float8, complex32, uint16-64)
        return NotImplemented
    bd = t.dim() - 2 - dense_dim
    row, dev = layout in _ROW, t.device
    bh, bw = tuple(blocksize) if layout in _BLOCK else (1, 1)
    batch, dense = tuple(t.shape[:bd]), tuple(t.shape[bd + 2:])
    nb, M, N = _prod(batch), t.shape[bd], t.shape[bd + 1]
    nR, nC = M // bh, N // bw
    ncomp = nR if row else nC
    x = t.reshape((nb, nR, bh, nC, bw) + dense)
    keep = x != 0  # the host kernel's test: -0.0 is zero, NaN is not
    keep = keep.any(dim=(2, 4) + tuple(range(5, 5 + len(dense)))) if keep.numel() else \
        _C.zeros((nb, nR, nC), dtype=_C.bool, device=dev)
    if not row:
        keep = keep.transpose(1, 2)
    if nb > 1:
        counts = keep.sum(dim=(1, 2))
        if (counts != counts[0]).any().item():  # one byte to the host
            raise RuntimeError("Expect the same number of specified elements per batch.")
    at = keep.nonzero()  # (nb * nse, 3): batch, compressed slice, plain slice, in that order
    nse = at.shape[0] // nb if nb else 0
    b, i, j = at[:, 0], at[:, 1], at[:, 2]
    R, C = (i, j) if row else (j, i)
    blocks = x.permute((0, 1, 3, 2, 4) + tuple(range(5, 5 + len(dense))))  # (nb, nR, nC, bh, bw, *dense)
    vals = blocks[b, R, C]
    vshape = batch + (nse,) + ((bh, bw) if layout in _BLOCK else ()) + dense
    ci = _offsets(i, ncomp, b, nb).view(batch + (ncomp + 1,))
    return _C._sparse_compressed_new(ci, j.contiguous().view(batch + (nse,)), vals.reshape(vshape), tuple(t.shape),
                                     layout, False)


def _compressed_recompress(t):
    """CSR <-> CSC, BSR <-> BSC (batch and dense dims; the index dtype kept): per batch, the
    stored elements (blocks, as they are) stably sorted by their plain slice."""
    g = _Parts(t)
    dev, idt = g.v.device, g.ci.dtype
    p = g.pi.reshape(g.nb, g.nse).to(_C.int64)
    b = _iota(g.nb, dev).view(g.nb, 1)
    perm = (p + b * g.nplain).reshape(-1).sort(stable=True)[1]
    pi = g.comp().reshape(-1).index_select(0, perm).view(g.batch + (g.nse,))
    ci = _offsets(p.reshape(-1), g.nplain, b.expand(g.nb, g.nse).reshape(-1), g.nb).view(g.batch + (g.nplain + 1,))
    vals = g.v.reshape((g.nb * g.nse,) + tuple(g.v.shape[g.bd + 1:])).index_select(0, perm).view(tuple(g.v.shape))
    flip = {_C.sparse_csr: _C.sparse_csc, _C.sparse_csc: _C.sparse_csr, _C.sparse_bsr: _C.sparse_bsc,
            _C.sparse_bsc: _C.sparse_bsr}[t.layout]
    return _C._sparse_compressed_new(ci.to(idt), pi.to(idt), vals, tuple(t.shape), flip, False)


def _ranks(key):
    """Each entry's rank among the entries of its key (0, 1, ...), for non-decreasing keys."""
    from ._unique import unique_consecutive
    _, inverse, counts = unique_consecutive(key, return_inverse=True, return_counts=True)
    return _iota(key.shape[0], key.device) - (counts.cumsum(0) - counts).index_select(0, inverse)


def _coo_add(a, av, b, bv):
    """a + b of two COO tensors (values av, bv in the result dtype) whose entries ascend:
    coalesced, or flagged uncoalesced but stored in non-decreasing order (duplicates included;
    what sparse_coo_tensor makes of sorted indices). The host kernel's walk over both stored
    lists is then a merge that sums the r-th entry of a position in a with the r-th one of
    that position in b (from zero, a's first) and keeps the unpaired ones, in the order of
    (position, r): a coalesce by (position, r). Flagged coalesced when both are. Unsorted
    uncoalesced operands: the walk follows their stored order, which no sort reproduces
    (NotImplemented: the round trip)."""
    from ._join import cat
    shape, sd = tuple(a.shape), a.sparse_dim()
    ind = cat([a._indices(), b._indices()], 1)
    if a.is_coalesced() and b.is_coalesced():
        return _coalesce(_C._sparse_coo_new(ind, cat([av, bv], 0), shape, False, False), zero_start=True)
    keys = [_linear(s._indices(), shape[:sd]) for s in (a, b)]
    acc = _acc(av.dtype)
    if acc is None or any(k is None or not k.shape[0] or not bool((k[1:] >= k[:-1]).all().item()) for k in keys):
        return NotImplemented  # (one byte to the host per operand)
    key, rank = cat(keys), cat([_ranks(k) for k in keys])
    p = rank.sort(stable=True)[1]  # by (position, rank), a's entry before b's
    p = p.index_select(0, key.index_select(0, p).sort(stable=True)[1])
    skey, srank = key.index_select(0, p), rank.index_select(0, p)
    lead = cat([_C.ones(1, dtype=_C.bool, device=key.device), (skey[1:] != skey[:-1]) | (srank[1:] != srank[:-1])])
    group = lead.to(_C.int64).cumsum(0) - 1
    first = p.masked_select(lead)  # (the group count crosses to the host)
    v = cat([av, bv], 0)
    sums = _C.zeros((first.shape[0],) + tuple(v.shape[1:]), dtype=acc, device=v.device)
    sums.index_add_(0, group, v.index_select(0, p).to(acc))
    return _C._sparse_coo_new(ind.index_select(1, first), sums.to(av.dtype), shape, False, False)


def _below(inner, outer, equal):
    """For each outer value, the number of inner values below it (equal: at or below it): the
    inner values before it in a stable sort of both (an outer value sorts before equal inner
    ones, or with `equal` after them)."""
    from ._join import cat
    ni, no = inner.shape[0], outer.shape[0]
    perm = cat([inner * 2 + (0 if equal else 1), outer * 2 + (1 if equal else 0)]).sort(stable=True)[1]
    is_in = (perm < ni).to(_C.int64)
    at = _C.zeros(ni + no, dtype=_C.int64, device=inner.device)
    at.index_put_((perm,), is_in.cumsum(0) - is_in)
    return at[ni:]


def _match_pairs(outer, inner):
    """(2, m) int64: every pair (o, i) with outer[o] == inner[i], ordered by o, then i (the host
    kernel's match_pairs); the pair count m crosses to the host."""
    dev, no = outer.device, outer.shape[0]
    order = inner.sort(stable=True)[1]  # inner positions by value, then position
    lo = _below(inner, outer, False)
    count = _below(inner, outer, True) - lo
    ends = count.cumsum(0)
    m = int(ends[-1].item()) if no else 0
    from ._join import cat, stack
    o = _compressed_ids(cat([_C.zeros(1, dtype=_C.int64, device=dev), ends]).view(1, no + 1), m)[0]
    k = _iota(m, dev) - (ends - count).index_select(0, o)  # the pair's rank among those of o
    return stack([o, order.index_select(0, lo.index_select(0, o) + k)], 0)


def _coo_index_select_plan(src, dim, index):
    """The host kernel's plan of index_select along a sparse dim: (entry, index position) pairs
    of equal values, entry-major when torch's brute-force path would run (both small, fewer
    entries than index positions), index-major otherwise; index bounds checked with torch's
    IndexError (the bad value read back)."""
    if not (isinstance(src, _C.TensorBase) and src.layout == _C.sparse_coo and type(dim) is int
            and 0 <= dim < src.sparse_dim() and isinstance(index, _C.TensorBase) and index.layout == _C.strided
            and index.dtype == _C.int64 and index.dim() == 1):
        return NotImplemented  # the host kernel's refusals
    size, ni = src.shape[dim], index.shape[0]
    dv = src._indices()[dim]
    nse = dv.shape[0]
    bad = (index < -size) | (index >= size)
    if ni and bad.any().item():
        v = index[bad][0].item()
        raise IndexError(f"index_select(): index contains {v} that is out of range for tensor of size "
                         f"[{', '.join(str(n) for n in src.shape)}] at dimension {dim}")
    if nse and ((dv < 0) | (dv >= size)).any().item():
        return NotImplemented  # components out of range (built unchecked): the host kernel's error
    iv = index + (index < 0).to(_C.int64) * size
    small = 1 << 15
    if nse <= small and ni <= small and nse * ni <= small and nse < ni:
        return _match_pairs(dv, iv)
    pairs = _match_pairs(iv, dv)
    from ._join import stack
    return stack([pairs[1], pairs[0]], 0)


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
             "_compressed_recompress": _compressed_recompress, "_coo_add": _coo_add,
             "_coo_index_select_plan": _coo_index_select_plan}


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

