"""Ops on the compressed sparse layouts against torch 2.13 (and the dense results where
torch refuses): products, addmm, add, scalar products, sums, unary functions, factories,
sampled_addmm, spsolve, softmax; and 2:4 semi-structured sparsity on the CPU."""
import numpy as np
import pytest
import torch

import tensorlib as tl
from test_sparse_compressed import (  # the helpers of the construction tests
    LAYOUTS, TL_DT, TL_LAYOUT, TORCH_LAYOUT, build, names, outcome, random_compressed, random_dense, same, to_layout, tt)

pytestmark = [pytest.mark.filterwarnings("ignore:Sparse .* tensor support is in beta state"),
              pytest.mark.filterwarnings("ignore:Sparse invariant checks")]


# ---- operations -----------------------------------------------------------------------------

def _close(a, b, dtype):
    tol = 1e-5 if dtype in (torch.float32, torch.complex64) else 1e-12
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


OP_DTYPES = [torch.float32, torch.float64, torch.complex64]


def operand(lay, idx, dtype, shape=(6, 4), blocks=(2, 2), empty=False, seed=31):
    rng = np.random.default_rng(seed)
    d = random_dense(rng, shape, 0.0 if empty else 0.4, dtype)
    t = to_layout(torch, d, lay, blocks)
    ci, pi = (getattr(t, n)().to(idx) for n in names(lay))
    t = build(torch, lay, ci, pi, t.values(), tuple(t.shape))
    return d, t, build(tl, lay, ci, pi, t.values(), tuple(t.shape))


@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("dtype", OP_DTYPES)
@pytest.mark.parametrize("empty", [False, True])
def test_sparse_times_dense(lay, idx, dtype, empty):
    d, a, b = operand(lay, idx, dtype, empty=empty)
    rng = np.random.default_rng(1)
    for x in (torch.tensor(rng.normal(size=(4, 5))).to(dtype), torch.tensor(rng.normal(size=4)).to(dtype)):
        want = (d @ x).numpy()
        for f in (lambda s, y: s @ y, lambda s, y: s.matmul(y), lambda s, y: (s.mm(y) if y.dim() == 2 else s.mv(y))):
            r = f(b, tt(x))
            assert r.layout == tl.strided and tuple(r.shape) == want.shape
            _close(r.numpy(), want, dtype)
            et = outcome(lambda: f(a, x))
            if not isinstance(et, tuple):
                _close(r.numpy(), et.numpy(), dtype)
    assert outcome(lambda: b @ tl.ones(5, 2, dtype=b.dtype))[0] is RuntimeError
    if not empty:  # torch skips its dtype check when nothing is stored
        assert outcome(lambda: b @ tl.ones(4, 2, dtype=tl.int64 if dtype != torch.int64 else tl.float32)) == \
            outcome(lambda: d.to_sparse_csr() @ torch.ones(4, 2, dtype=torch.int64 if dtype != torch.int64 else torch.float32))


@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("dtype", OP_DTYPES)
def test_dense_times_sparse_and_addmm(lay, dtype):
    d, a, b = operand(lay, torch.int64, dtype)
    rng = np.random.default_rng(2)
    x = torch.tensor(rng.normal(size=(3, 6))).to(dtype)
    r = tt(x) @ b
    _close(r.numpy(), (x @ d).numpy(), dtype)
    et = outcome(lambda: x @ a)
    if not isinstance(et, tuple):  # torch refuses dense @ BSR; we support it
        _close(r.numpy(), et.numpy(), dtype)
    _close((tt(x[0]) @ b).numpy(), (x[0] @ d).numpy(), dtype)
    y = torch.tensor(rng.normal(size=(4, 2))).to(dtype)
    c = torch.tensor(rng.normal(size=(6, 2))).to(dtype)
    want = (2 * c + 3 * (d @ y)).numpy()
    _close(tl.addmm(tt(c), b, tt(y), beta=2, alpha=3).numpy(), want, dtype)
    _close(tl.sparse.addmm(tt(c), b, tt(y), beta=2, alpha=3).numpy(), want, dtype)
    _close(tl.sparse.mm(b, tt(y)).numpy(), (d @ y).numpy(), dtype)


def test_batched_csr_times_dense():
    rng = np.random.default_rng(8)
    t, ci, pi, v = random_compressed(rng, "csr", (3,), (), nblk=(5, 4))
    b = build(tl, "csr", ci, pi, v, tuple(t.shape))
    x = torch.tensor(rng.normal(size=(4, 2)))
    _close((b @ tt(x)).numpy(), (t.to_dense() @ x).numpy(), torch.float64)


def test_csr_times_csr():
    d, a, b = operand("csr", torch.int64, torch.float64)
    e, a2, b2 = operand("csr", torch.int64, torch.float64, shape=(4, 3), seed=5)
    r = b @ b2
    assert r.layout == tl.sparse_csr
    _close(r.to_dense().numpy(), (d @ e).numpy(), torch.float64)


@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("dtype", OP_DTYPES + [torch.int64])
def test_add(lay, idx, dtype):
    d1, a1, b1 = operand(lay, idx, dtype, seed=3)
    d2, a2, b2 = operand(lay, idx, dtype, seed=4)
    d2[0] = -d1[0]  # a cancellation: torch keeps the stored zeros of the union
    a2 = to_layout(torch, d2, lay, (2, 2))
    a2 = build(torch, lay, *(getattr(a2, n)().to(idx) for n in names(lay)), a2.values(), tuple(a2.shape))
    b2 = build(tl, lay, *(getattr(a2, n)() for n in names(lay)), a2.values(), tuple(a2.shape))
    for alpha in (1, 2):
        r = b1.add(b2, alpha=alpha)
        assert r.layout == TL_LAYOUT[lay]
        np.testing.assert_allclose(r.to_dense().numpy(), (d1 + alpha * d2).numpy())
        et = outcome(lambda: a1.add(a2, alpha=alpha))
        if not isinstance(et, tuple):  # torch adds CSR and BSR (not CSC/BSC)
            same(et, r)
    for r, w in ((b1 + tt(d2), d1 + d2), (tt(d2) + b1, d2 + d1)):
        assert r.layout == tl.strided
        np.testing.assert_allclose(r.numpy(), w.numpy())
    assert outcome(lambda: b1 - b2) == (RuntimeError, f"unsupported tensor layout: {_tname(lay)}")


def test_add_batched_and_errors():
    rng = np.random.default_rng(6)
    t, ci, pi, v = random_compressed(rng, "csr", (2,), ())
    b = build(tl, "csr", ci, pi, v, tuple(t.shape))
    np.testing.assert_array_equal((b + b).to_dense().numpy(), (2 * t.to_dense()).numpy())
    c = tl.tensor([[1., 0], [0, 1]])
    with pytest.raises(RuntimeError, match="unsupported tensor layout: SparseCsr"):
        c.to_sparse_csr() - c.to_sparse_csr()
    with pytest.raises(RuntimeError):
        c.to_sparse_csr() + c.to_sparse_csc()


@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("dtype", OP_DTYPES + [torch.int64, torch.bool])
def test_mul_scalar_sum_and_unary(lay, dtype):
    d, a, b = operand(lay, torch.int64, dtype)
    if dtype != torch.bool:
        same(a * 2, b * 2)
        same(2 * a, 2 * b)
        same(-a, -b)
        c = b.clone()
        c.mul_(3)
        same(a * 3, c)
    et, el = a.sum(), b.sum()
    assert el.layout == tl.strided and el.dim() == 0
    np.testing.assert_allclose(el.numpy(), et.numpy(), rtol=1e-6)
    np.testing.assert_allclose(tl.sparse.sum(b).numpy(), et.numpy(), rtol=1e-6)
    if dtype != torch.bool:  # torch names its bool kernel first there
        assert outcome(lambda: b.sum(0)) == outcome(lambda: a.sum(0))
    for f in ("abs", "sin", "sqrt", "neg", "sgn", "isnan", "relu", "tanh", "angle"):
        et = outcome(lambda: getattr(a, f)())
        el = outcome(lambda: getattr(b, f)())
        if isinstance(et, tuple):
            assert isinstance(el, tuple)
            continue
        assert el.layout == TL_LAYOUT[lay]
        np.testing.assert_allclose(el.to_dense().numpy(), et.to_dense().numpy(), rtol=1e-6)
    for f in ("cos", "exp", "sigmoid"):
        if dtype == torch.bool:
            continue
        assert outcome(lambda: getattr(b, f)()) == (RuntimeError, f"unsupported tensor layout: {_tname(lay)}")
        assert outcome(lambda: getattr(tl, f)(b)) == (RuntimeError, f"unsupported tensor layout: {_tname(lay)}")


def _tname(lay):
    return "Sparse" + lay.capitalize()


def _pair(rng, lay, idx, dtype, shape=(7, 9), dense=(), blocks=(1, 1), density=(0.5, 0.5)):
    """Two torch compressed tensors of one layout with overlapping random patterns (plus
    their tensorlib twins) with `idx` indices and `dense` dims."""
    out = []
    for dens in density:
        d = random_dense(rng, shape + dense, 1.0, dtype) * torch.tensor(
            rng.random(shape) < dens).reshape(shape + (1,) * len(dense))
        t = to_layout(torch, d, lay, blocks, dense_dim=len(dense))
        ci, pi = (getattr(t, n)().to(idx) for n in names(lay))
        out.append((d, build(torch, lay, ci, pi, t.values(), tuple(t.shape)),
                    build(tl, lay, ci, pi, t.values(), tuple(t.shape))))
    return out


MUL_DTYPES = [torch.float32, torch.float64, torch.complex64, torch.int64, torch.int32, torch.float16]


@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("dtype", MUL_DTYPES)
@pytest.mark.parametrize("shape,dense,density", [((7, 9), (), (0.5, 0.5)), ((6, 5), (3,), (0.6, 0.4)),
                                                  ((0, 4), (), (0.5, 0.5)), ((5, 6), (), (0.0, 0.7)),
                                                  ((40, 33), (), (0.2, 0.9))])
def test_csr_times_csr_matches_torch(idx, dtype, shape, dense, density):
    """CSR * CSR (and mul, mul_, CSR * COO): the entries both store, int64 indices, promoted
    dtype, exactly torch's components (hybrid and empty included)."""
    rng = np.random.default_rng(len(shape) + shape[0] + len(dense))
    (da, ta, la), (db, tb, lb) = _pair(rng, "csr", idx, dtype, shape, dense, density=density)
    same(ta * tb, la * lb)
    same(ta.mul(tb), la.mul(lb))
    same(torch.mul(ta, tb), tl.mul(la, lb))
    c, d = ta.clone(), la.clone()
    c.mul_(tb)
    d.mul_(lb)
    same(c, d)
    if dtype != torch.complex64:
        same(ta * tb.double(), la * lb.double())
    if not dense:
        same(ta * tb.to_sparse(), la * lb.to_sparse())


@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("dtype", MUL_DTYPES)
@pytest.mark.parametrize("shape,dense,density", [((7, 9), (), (0.5,)), ((6, 5), (3,), (0.6,)), ((0, 4), (), (0.5,)),
                                                  ((5, 6), (), (0.0,)), ((41, 33), (), (0.2,)), ((1, 1), (2, 2), (1.0,))])
def test_csr_times_strided_matches_torch(idx, dtype, shape, dense, density):
    """CSR * strided and strided * CSR (mul, mul_, torch.mul): s's pattern, int64 indices
    (mul_ keeps self's), promoted dtype, exactly torch's components; the strided operand's
    elements at unstored positions (NaN here) are not read."""
    rng = np.random.default_rng(shape[0] * 7 + len(dense))
    ((ds, ts, ls),) = _pair(rng, "csr", idx, dtype, shape, dense, density=density)
    full = shape + dense
    dd = random_dense(rng, full, 1.0, dtype)
    if dtype.is_floating_point or dtype.is_complex:
        dd = torch.where(ds == 0, torch.tensor(float("nan"), dtype=dtype), dd)
    ld = tt(dd)
    same(ts * dd, ls * ld)
    same(dd * ts, ld * ls)
    same(ts.mul(dd), ls.mul(ld))
    same(torch.mul(dd, ts), tl.mul(ld, ls))
    dt = dd.t() if dd.dim() == 2 else dd.transpose(0, 1)  # a non-contiguous strided operand
    same(ts * dt.contiguous().transpose(0, 1), ls * tt(dt.contiguous()).transpose(0, 1))
    for other in (torch.float64, torch.int32, torch.complex64):
        if dtype == torch.float16 and other == torch.complex64:
            continue
        same(ts * dd.to(other), ls * ld.to(TL_DT[other]))
        same(dd.to(other) * ts, ld.to(TL_DT[other]) * ls)
    c, d = ts.clone(), ls.clone()
    vc, vd = c.values(), d.values()
    c.mul_(dd.to(torch.float64))
    d.mul_(ld.to(tl.float64))
    same(c, d)
    np.testing.assert_array_equal(vd.numpy(), vc.numpy())  # written in place: a values() view sees it
    same(ts * torch.tensor(3, dtype=dtype), ls * tl.tensor(3, dtype=TL_DT[dtype]))


def test_compressed_times_strided_errors_as_torch():
    """Broadcasting, other shapes, batches, bool, CSC/BSR/BSC and a strided self of mul_:
    torch's errors (whose wording depends on the operand order)."""
    d = torch.tensor([[0., 2, 0, 3], [0, 0, 0, 0], [4, 0, 5, 0]])
    pairs = [(lay, to_layout(torch, d, lay, (1, 2)), to_layout(tl, tt(d), lay, (1, 2))) for lay in LAYOUTS]
    dense = [(3, 4), (4,), (3, 1), (1, 1), (1,), (2, 3, 4), (3, 5)]
    def agree(x, y):
        if isinstance(x, tuple) or isinstance(y, tuple):
            assert x == y
        else:
            same(x, y)
    for lay, a, b in pairs:
        for shp in dense:
            agree(outcome(lambda: a * torch.ones(shp)), outcome(lambda: b * tl.ones(shp)))
            agree(outcome(lambda: torch.ones(shp) * a), outcome(lambda: tl.ones(shp) * b))
            agree(outcome(lambda: a.clone().mul_(torch.ones(shp))), outcome(lambda: b.clone().mul_(tl.ones(shp))))
        assert outcome(lambda: torch.ones(3, 4).mul_(a)) == outcome(lambda: tl.ones(3, 4).mul_(b))
        same_or_dense = outcome(lambda: (a * torch.tensor(2.)).to_dense()), outcome(lambda: (b * tl.tensor(2.)).to_dense())
        np.testing.assert_array_equal(same_or_dense[0].numpy(), same_or_dense[1].numpy())
    ta, la = d.to_sparse_csr(), tt(d).to_sparse_csr()
    assert outcome(lambda: ta.bool() * torch.ones(3, 4).bool()) == outcome(lambda: la.bool() * tl.ones(3, 4).bool())
    same(torch.zeros(3, 4).to_sparse_csr().bool() * torch.ones(3, 4).bool(),
         tl.zeros(3, 4).to_sparse_csr().bool() * tl.ones(3, 4).bool())  # nothing stored: no Bool refusal
    bt, bl = torch.stack([d, 2 * d]).to_sparse_csr(), tl.stack([tt(d), 2 * tt(d)]).to_sparse_csr()
    for shp in [(2, 3, 4), (3, 4)]:
        assert outcome(lambda: bt * torch.ones(shp)) == outcome(lambda: bl * tl.ones(shp))
    assert outcome(lambda: bt.bool() * torch.ones(2, 3, 4).bool()) == outcome(lambda: bl.bool() * tl.ones(2, 3, 4).bool())


@pytest.mark.parametrize("lay,blocks", [("csc", (1, 1)), ("bsr", (2, 3)), ("bsc", (3, 2))])
@pytest.mark.parametrize("dtype", [torch.float32, torch.complex64, torch.int64])
def test_compressed_times_compressed_beyond_torch(lay, blocks, dtype):
    """CSC * CSC, BSR * BSR, BSC * BSC (torch refuses them): a's layout and blocksize, the
    same elements as the dense product; mixed layouts and blocksizes convert b to a's."""
    rng = np.random.default_rng(7)
    (da, _, la), (db, _, lb) = _pair(rng, lay, torch.int32, dtype, (6, 12), blocks=blocks)
    r = la * lb
    assert r.layout == TL_LAYOUT[lay] and r.dtype == TL_DT[dtype]
    np.testing.assert_array_equal(r.to_dense().numpy(), (da * db).numpy())
    np.testing.assert_array_equal((la * lb.to_dense().to_sparse_csr()).to_dense().numpy(), (da * db).numpy())
    lc = tl.from_numpy(db.numpy()).to_sparse_csr()
    np.testing.assert_array_equal((lc * la).to_dense().numpy(), (da * db).numpy())


def test_csr_times_csr_errors():
    a = tl.tensor([[1., 0], [2, 3]]).to_sparse_csr()
    t = torch.tensor([[1., 0], [2, 3]]).to_sparse_csr()
    assert outcome(lambda: a * tl.ones(2, 3).to_sparse_csr()) == outcome(lambda: t * torch.ones(2, 3).to_sparse_csr())
    assert outcome(lambda: a.bool() * a.bool()) == outcome(lambda: t.bool() * t.bool())
    bt = torch.ones(2, 2, 2).to_sparse_csr()
    bl = tl.ones(2, 2, 2).to_sparse_csr()
    assert outcome(lambda: bl * bl) == outcome(lambda: bt * bt)
    # unchecked components with crow_indices past nse: an error, never a read out of range
    bad = tl.sparse_csr_tensor(tl.tensor([0, 1, 5]), tl.tensor([0, 1]), tl.tensor([1., 2]), (2, 2),
                               check_invariants=False)
    with pytest.raises(RuntimeError, match="compressed indices are not valid"):
        bad * a


@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64, torch.int64, torch.int32,
                                   torch.int16, torch.float16])
@pytest.mark.parametrize("shape,density", [((7, 9), 0.4), ((0, 4), 0.5), ((5, 0), 0.5), ((4, 6), 0.0),
                                           ((50, 30), 0.1)])
def test_csr_sum_dim_keepdim_matches_torch(idx, dtype, shape, density):
    """CSR sum(dim, keepdim=True) over dim 0, 1, -1, both, [] (and dtype=): torch's
    components exactly (columns/rows with an entry, zero sums kept; int64 for integers)."""
    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    ((d, t, x),) = _pair(rng, "csr", idx, dtype, shape, density=(density,))
    if dtype == torch.float16 and shape[0] * shape[1] > 100:
        return  # torch's float16 accumulation order is its own
    for dim in (0, 1, -1, -2, (0, 1), (1, 0), []):
        for kw in ({}, {"dtype": torch.float64}, {"dtype": torch.int32}):
            if kw and dtype in (torch.complex64,):
                continue
            tkw = {k: v for k, v in kw.items()}
            lkw = {k: TL_DT[v] for k, v in kw.items()}
            want = outcome(lambda: t.sum(dim, keepdim=True, **tkw))
            got = outcome(lambda: x.sum(dim, keepdim=True, **lkw))
            if isinstance(want, tuple):
                assert got == want
                continue
            if want._nnz() == 0 and isinstance(dim, (list, tuple)):
                # torch leaves the values of an all-dims sum of nothing uninitialized
                assert got._nnz() == 0 and tuple(got.shape) == (1, 1)
                continue
            same(want, got)
    np.testing.assert_allclose(x.sum(0, keepdim=True).to_dense().numpy(), t.to_dense().sum(0, keepdim=True).numpy(),
                               rtol=1e-6)


def test_csr_sum_dim_errors():
    a = tl.tensor([[1., 0], [2, 3]]).to_sparse_csr()
    t = torch.tensor([[1., 0], [2, 3]]).to_sparse_csr()
    for f in (lambda m, x: x.sum(2, keepdim=True), lambda m, x: x.sum(0), lambda m, x: x.bool().sum(0, keepdim=True),
              lambda m, x: x.to_sparse_csc().sum(0, keepdim=True), lambda m, x: x.to_sparse_bsr(1).sum(1, keepdim=True)):
        assert outcome(lambda: f(tl, a)) == outcome(lambda: f(torch, t))
    with pytest.raises(RuntimeError, match="batch or dense dims"):
        tl.ones(2, 2, 2).to_sparse_csr().sum(0, keepdim=True)
    with pytest.raises(RuntimeError, match="appears multiple times"):
        a.sum((0, 0), keepdim=True)
    assert outcome(lambda: a.sum(dim=None, keepdim=True)) == outcome(lambda: t.sum(dim=None, keepdim=True))
    assert outcome(lambda: a.to_sparse_coo() * a) == outcome(lambda: t.to_sparse_coo() * t)


def test_product_kernel_refuses_bad_indices_and_balances_rows():
    ci, pi, v = tl.tensor([0, 2, 4]), tl.tensor([0, 1, 0, 9]), tl.tensor([1., 2, 3, 4])
    s = tl.sparse_csr_tensor(ci, pi, v, (2, 2), check_invariants=False)
    with pytest.raises(RuntimeError, match="0 <= col_indices < ncols"):
        s @ tl.ones(2)
    s = tl.sparse_csr_tensor(tl.tensor([0, 5, 4]), tl.tensor([0, 1, 0, 1]), v, (2, 2), check_invariants=False)
    with pytest.raises(RuntimeError, match="crow_indices"):
        s @ tl.ones(2, 3)
    # skewed rows on several threads (balanced by nnz): the same as SciPy
    import scipy.sparse
    rng = np.random.default_rng(0)
    m = scipy.sparse.random(3000, 2000, density=0.01, format="lil", random_state=1)
    m[7, :] = rng.normal(size=2000)  # one dense row
    m = m.tocsr()
    s = tl.sparse.from_scipy(m)
    x = rng.normal(size=(2000, 3))
    old = tl.get_num_threads()
    try:
        for n in (1, 2, 3):
            tl.set_num_threads(n)
            _close((s @ tl.from_numpy(x)).numpy(), m @ x, torch.float64)
            _close((s @ tl.from_numpy(x[:, 0].copy())).numpy(), m @ x[:, 0], torch.float64)
    finally:
        tl.set_num_threads(old)


def _kernel_case(rng, idx, nrows=3000, ncols=1500):
    """A CSR matrix with the row shapes the product kernel treats apart: empty rows, short
    rows batched into one pass, and long rows (1300 and 517 stored elements) spanning
    several passes with lengths that are not multiples of 4; enough stored elements to be
    split across threads."""
    import scipy.sparse
    m = scipy.sparse.random(nrows, ncols, density=0.01, format="lil", random_state=int(rng.integers(1 << 30)))
    m[11, :] = 0
    m[5, rng.choice(ncols, 1300, replace=False)] = rng.normal(size=1300)
    m[nrows - 3, rng.choice(ncols, 517, replace=False)] = rng.normal(size=517)
    m[40:60, :] = 0
    m = m.tocsr()
    m.sort_indices()
    return m, m.indptr.astype(idx), m.indices.astype(idx)


def _lanes_spmv(indptr, indices, data, x):
    """float32 CSR @ x in the order of the float32 SpMV kernel: element i of a row into lane
    i % 16 (in element order, from +0), then the lanes folded in halves."""
    out = np.zeros(len(indptr) - 1, np.float32)
    for r in range(len(out)):
        p = (data[indptr[r]:indptr[r + 1]] * x[indices[indptr[r]:indptr[r + 1]]]).astype(np.float32)
        acc = np.zeros(16, np.float32)
        for j in range(0, len(p), 16):
            q = np.zeros(16, np.float32)
            q[:len(p) - j if len(p) - j < 16 else 16] = p[j:j + 16]
            acc = (acc + q).astype(np.float32)
        for h in (8, 4, 2, 1):
            acc = (acc[:h] + acc[h:2 * h]).astype(np.float32)
        out[r] = acc[0]
    return out


@pytest.mark.parametrize("idx", [np.int32, np.int64])
def test_float32_spmv_lanes_exact_on_both_loops(idx):
    """float32 SpMV: the AVX-512 product loop (where the CPU has it) and the portable loop give
    the bits of the documented order (16 lanes, folded in halves) for rows of 0..40 elements
    and rows longer than a pass (1024 elements: 1300 and 2049, the lanes' phase kept across
    passes), at 1 and 2 threads; both refuse an index out of range, never reading through it."""
    rng = np.random.default_rng(5)
    lens = list(range(41)) * 3 + [1300, 2049, 1024, 1025]
    ncols = 2100
    indptr = np.concatenate([[0], np.cumsum(lens)]).astype(idx)
    indices = np.concatenate([np.sort(rng.choice(ncols, n, replace=False)) for n in lens]).astype(idx)
    data = (rng.normal(size=len(indices)) * 1e3 ** rng.integers(-1, 2, len(indices))).astype(np.float32)
    x = rng.normal(size=ncols).astype(np.float32)
    want = _lanes_spmv(indptr, indices, data, x)
    s = tl.sparse_csr_tensor(tl.from_numpy(indptr), tl.from_numpy(indices), tl.from_numpy(data), (len(lens), ncols))
    bad = indices.copy()
    bad[len(bad) // 2] = ncols
    sb = tl.sparse_csr_tensor(tl.from_numpy(indptr), tl.from_numpy(bad), tl.from_numpy(data), (len(lens), ncols),
                              check_invariants=False)
    old, old_fast = tl.get_num_threads(), tl._C._csr_spmv_set_avx512(1)
    try:
        for fast in (1, 0):
            tl._C._csr_spmv_set_avx512(fast)
            for n in (1, 2):
                tl.set_num_threads(n)
                assert (s @ tl.from_numpy(x)).numpy().tobytes() == want.tobytes()
                with pytest.raises(RuntimeError, match="0 <= col_indices < ncols"):
                    sb @ tl.from_numpy(x)
    finally:
        tl.set_num_threads(old)
        tl._C._csr_spmv_set_avx512(old_fast)


@pytest.mark.parametrize("idx", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int64, np.int8])
def test_product_kernel_paths_against_scipy(idx, dtype):
    """CSR @ vector and CSR @ matrix for every panel width (vector panels, their tail, odd
    widths), non-contiguous dense operands, 1 and 2 threads: the same values as SciPy (exact
    modular sums for integers) and the same bits at every thread count."""
    import scipy.sparse
    rng = np.random.default_rng(7)
    m, ip, ix = _kernel_case(rng, idx)
    if np.dtype(dtype).kind in "iu":
        data = rng.integers(-100, 100, size=m.nnz).astype(dtype)
    else:
        data = (m.data + 1j * rng.normal(size=m.nnz) if np.dtype(dtype).kind == "c" else m.data).astype(dtype)
    s = tl.sparse_csr_tensor(tl.from_numpy(ip), tl.from_numpy(ix), tl.from_numpy(data), m.shape)
    wide = {"c": np.complex128, "f": np.float64}.get(np.dtype(dtype).kind, np.int64)
    ref = scipy.sparse.csr_array((data.astype(wide), m.indices, m.indptr), shape=m.shape)
    operands = [rng.normal(size=m.shape[1])] + [rng.normal(size=(m.shape[1], n)) for n in (1, 3, 8, 31, 32, 45, 70, 130)]
    operands.append(rng.normal(size=(3, m.shape[1])).T)            # transposed (strides 1, K)
    operands.append(rng.normal(size=(m.shape[1], 2 * 17))[:, ::2])  # column step 2
    old = tl.get_num_threads()
    try:
        for b in operands:
            b = (b * 50).astype(dtype) if np.dtype(dtype).kind in "iu" else b.astype(dtype)
            want = ref @ b.astype(ref.dtype)
            got = []
            for n in (1, 2):
                tl.set_num_threads(n)
                got.append((s @ tl.from_numpy(b)).numpy())
            assert got[0].dtype == dtype and got[0].shape == want.shape
            assert got[0].tobytes() == got[1].tobytes()  # the thread count changes no bit
            if np.dtype(dtype).kind in "iu":
                np.testing.assert_array_equal(got[0], want.astype(dtype))  # modular sums
            else:
                tol = 2e-4 if dtype in (np.float32, np.complex64) else 1e-12
                np.testing.assert_allclose(got[0], want, rtol=tol, atol=tol)
    finally:
        tl.set_num_threads(old)


@pytest.mark.parametrize("idx", [np.int32, np.int64])
def test_product_kernel_edge_shapes_and_bad_indices(idx):
    """nse 0, zero rows or columns, and a bad index placed in a long row's later pass or in a
    chunk other threads run: torch's error, never a wild read."""
    old = tl.get_num_threads()
    try:
        tl.set_num_threads(2)
        for shape, n in (((5, 4), 3), ((0, 4), 2), ((5, 0), 2), ((5, 4), 0)):
            s = tl.sparse_csr_tensor(tl.zeros(shape[0] + 1, dtype=tl.int32 if idx == np.int32 else tl.int64),
                                     tl.tensor(np.zeros(0, idx)), tl.zeros(0), shape)
            for b in (tl.ones(shape[1]), tl.ones(shape[1], n)):
                r = s @ b
                assert tuple(r.shape) == (shape[0],) + tuple(b.shape[1:]) and not r.numpy().any()
        rng = np.random.default_rng(3)
        m, ip, ix = _kernel_case(rng, idx)
        for pos in (int(m.indptr[5]) + 900, int(m.indptr[-1]) - 7, int(m.indptr[2000]) + 1):
            for bad in (m.shape[1], -1):
                cols = ix.copy()
                cols[pos] = bad
                s = tl.sparse_csr_tensor(tl.from_numpy(ip), tl.from_numpy(cols), tl.from_numpy(m.data), m.shape,
                                         check_invariants=False)
                for b in (tl.ones(m.shape[1], dtype=tl.float64), tl.ones(m.shape[1], 9, dtype=tl.float64)):
                    with pytest.raises(RuntimeError, match="0 <= col_indices < ncols"):
                        s @ b
        rows = ip.copy()
        rows[2500] = rows[2501] + 1  # out of order in a later chunk
        s = tl.sparse_csr_tensor(tl.from_numpy(rows), tl.from_numpy(ix), tl.from_numpy(m.data), m.shape,
                                 check_invariants=False)
        for b in (tl.ones(m.shape[1], dtype=tl.float64), tl.ones(m.shape[1], 4, dtype=tl.float64)):
            with pytest.raises(RuntimeError, match="crow_indices"):
                s @ b
    finally:
        tl.set_num_threads(old)


# ---- 2:4 semi-structured (beyond torch: CUDA-only there) ------------------------------------

def _two_four(rng, shape, dtype, fill=True):
    """A random dense matrix with at most 2 non-zeros in every group of 4 of a row (some
    groups with fewer, some all zero)."""
    m, n = shape
    a = rng.standard_normal((m, n)).astype(np.float32) + 0.5
    g = a.reshape(m, n // 4, 4)
    for i in range(m):
        for j in range(n // 4):
            keep = rng.choice(4, size=rng.integers(0 if not fill else 1, 3), replace=False)
            mask = np.zeros(4, bool)
            mask[keep] = True
            g[i, j, ~mask] = 0
    t = tl.from_numpy(a)
    return t.to(dtype) if dtype != tl.int8 else tl.from_numpy(np.round(a * 3).astype(np.int8))


@pytest.mark.parametrize("dtype", [tl.float16, tl.bfloat16, tl.float32, tl.int8])
def test_semi_structured_round_trip_and_metadata(dtype):
    rng = np.random.default_rng(41)
    a = _two_four(rng, (6, 64), dtype, fill=False)
    s = tl.sparse.to_sparse_semi_structured(a)
    assert isinstance(s, tl.sparse.SparseSemiStructuredTensor)
    assert tuple(s.shape) == (6, 64) and s.dtype == dtype
    assert tuple(s.values().shape) == (6, 32)
    wb = 32 if dtype == tl.int8 else 16
    assert s.indices().dtype == (tl.int32 if dtype == tl.int8 else tl.int16)
    assert tuple(s.indices().shape) == (6, 64 // wb)
    assert bool((s.to_dense() == a).all())
    assert bool((s.t().to_dense() == a.t()).all())
    # the metadata decodes to the kept positions, the values are the elements there
    d = a.to(tl.float32).numpy()
    meta = s.indices().numpy().astype(np.int64) & ((1 << wb) - 1)
    vals = s.values().to(tl.float32).numpy()
    for i in range(6):
        for g in range(16):
            nib = (meta[i, g // (wb // 4)] >> (4 * (g % (wb // 4)))) & 0xF
            p0, p1 = nib & 3, nib >> 2
            assert p0 < p1
            assert vals[i, 2 * g] == d[i, 4 * g + p0] and vals[i, 2 * g + 1] == d[i, 4 * g + p1]
            assert np.count_nonzero(d[i, 4 * g:4 * g + 4]) == np.count_nonzero(vals[i, 2 * g:2 * g + 2])


def test_semi_structured_seed_004():
    """Seed 004's example: [0, 0, 1, 1] tiles keep positions 2 and 3 (torch's -4370)."""
    a = tl.tensor([0., 0, 1, 1]).tile((128, 32)).half()
    s = tl.sparse.to_sparse_semi_structured(a)
    assert bool((s.indices() == -4370).all()) and bool((s.values() == 1).all())
    r = repr(s)
    assert r.startswith("SparseSemiStructuredTensor(shape=tensorlib.Size([128, 128]), transposed=False, values=tensor(")
    assert "metadata=tensor([[-4370, -4370, -4370,  ..., -4370, -4370, -4370]," in r
    b = tl.rand(128, 64).half()
    assert tl.allclose(tl.mm(a, b), tl.mm(s, b), rtol=1e-2, atol=1e-2)


def test_semi_structured_errors():
    with pytest.raises(RuntimeError, match="not 2:4 sparse"):
        tl.sparse.to_sparse_semi_structured(tl.ones(4, 16))
    with pytest.raises(RuntimeError, match="multiple of 16"):
        tl.sparse.to_sparse_semi_structured(tl.zeros(4, 8))
    with pytest.raises(RuntimeError, match="multiple of 32"):
        tl.sparse.to_sparse_semi_structured(tl.zeros(4, 16, dtype=tl.int8))
    with pytest.raises(RuntimeError, match="not supported"):
        tl.sparse.to_sparse_semi_structured(tl.zeros(4, 16, dtype=tl.float64))
    with pytest.raises(RuntimeError, match="multiple of 16"):
        tl.sparse.to_sparse_semi_structured(tl.zeros(16))
    s = tl.sparse.to_sparse_semi_structured(tl.zeros(4, 16))
    with pytest.raises(RuntimeError, match="expected scalar type"):
        s @ tl.zeros(16, 2, dtype=tl.float64)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        s @ tl.zeros(8, 2)


@pytest.mark.parametrize("dtype", [tl.float16, tl.bfloat16, tl.float32, tl.int8])
@pytest.mark.parametrize("n", [5, 64, 70])
def test_semi_structured_products(dtype, n):
    """S @ B, A @ S, A @ S.t(), S.t() @ B, addmm, matmul and nn.functional.linear against the
    dense products (float32 reference; low-precision dtypes compared loosely)."""
    rng = np.random.default_rng(n)
    a = _two_four(rng, (48, 64), dtype)
    s = tl.sparse.to_sparse_semi_structured(a)
    ref = a.to(tl.float64)
    tol = {tl.float16: 3e-2, tl.bfloat16: 2e-1, tl.float32: 1e-4, tl.int8: 0}[dtype]
    mk = (lambda shape: tl.from_numpy(rng.integers(-3, 4, shape).astype(np.int8))) if dtype == tl.int8 else \
        (lambda shape: tl.from_numpy(rng.standard_normal(shape).astype(np.float32)).to(dtype))

    def check(got, want):
        assert got.dtype == dtype and tuple(got.shape) == tuple(want.shape)
        w = want.to(dtype).to(tl.float64) if dtype == tl.int8 else want  # int8 wraps as torch's mm
        np.testing.assert_allclose(got.to(tl.float64).numpy(), w.numpy(), rtol=tol, atol=tol * 8)

    b = mk((64, n))
    check(s @ b, ref @ b.to(tl.float64))
    check(tl.mm(s, b), ref @ b.to(tl.float64))
    check(tl.matmul(s, b), ref @ b.to(tl.float64))
    x = mk((n, 48))
    check(x @ s, x.to(tl.float64) @ ref)
    check(tl.mm(x, s), x.to(tl.float64) @ ref)
    y = mk((n, 64))
    check(y @ s.t(), y.to(tl.float64) @ ref.t())
    check(tl.nn.functional.linear(y, s), y.to(tl.float64) @ ref.t())
    z = mk((48, n))
    check(s.t() @ z, ref.t() @ z.to(tl.float64))
    if dtype != tl.int8:
        bias = mk((48,))
        check(tl.nn.functional.linear(y, s, bias), y.to(tl.float64) @ ref.t() + bias.to(tl.float64))
        c = mk((48, n))
        check(tl.addmm(c, s, b, beta=0.5, alpha=2), 0.5 * c.to(tl.float64) + 2 * (ref @ b.to(tl.float64)))
        check(tl.addmm(c.t(), y, s.t()), c.t().to(tl.float64) + y.to(tl.float64) @ ref.t())


def _two_four_fast(rng, m, n):
    """A float32 2:4 matrix built without Python loops: two random positions of every group
    of 4 kept (a few kept values zero), the rest zero."""
    a = rng.standard_normal((m, n)).astype(np.float32)
    keys = rng.random((m, n // 4, 4)).argsort(axis=2)[:, :, :2]
    mask = np.zeros((m, n // 4, 4), bool)
    np.put_along_axis(mask, keys, True, axis=2)
    a[~mask.reshape(m, n)] = 0
    a[rng.random((m, n)) < 0.05] = 0
    return a


@pytest.mark.parametrize("level", [1, 3])
@pytest.mark.parametrize("threads", [1, 2])
def test_semi_structured_packed_kernel_blocks_and_strides(level, threads):
    """The float32 S @ B kernel (csrc/sparse/semi.c) across its blocks: rows past the tile and
    the row block (MR 2, MC 96), K past the KC block (128), N past the micro-panel and the
    column block (NR 48 / 24, NC 3072), rows past the C super-block (4 MB of C shared by the
    threads: 96 rows at N 8192); B contiguous, transposed, sliced, expanded; each
    variant the CPU has (the AVX2+FMA one, the baseline) and 1 or 2 threads."""
    rng = np.random.default_rng(level * 10 + threads)
    old = tl._C._semi_set_kernel(level)
    nt = tl.get_num_threads()
    tl.set_num_threads(threads)
    try:
        for m, k, n in [(1, 16, 1), (3, 32, 5), (97, 272, 49), (195, 144, 3100), (8, 400, 130), (400, 64, 8192)]:
            a = _two_four_fast(rng, m, k)
            s = tl.sparse.to_sparse_semi_structured(tl.from_numpy(a))
            b = rng.standard_normal((k, n)).astype(np.float32)
            bt = np.ascontiguousarray(b.T)
            wide = rng.standard_normal((k, 2 * n + 1)).astype(np.float32)
            cases = [(tl.from_numpy(b), b), (tl.from_numpy(bt).t(), b),
                     (tl.from_numpy(wide)[:, 1::2], wide[:, 1::2]),
                     (tl.from_numpy(b[:, :1].copy()).expand(k, n), np.broadcast_to(b[:, :1], (k, n)))]
            for bx, bn in cases:
                got = (s @ bx).numpy()
                want = a.astype(np.float64) @ bn.astype(np.float64)
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.sqrt(k))
    finally:
        tl.set_num_threads(nt)
        tl._C._semi_set_kernel(old)


def test_linear_dense_matches_torch():
    rng = np.random.default_rng(3)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((2, 3, 5), (4, 5), (4,)))
    want = torch.nn.functional.linear(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b)).numpy()
    got = tl.nn.functional.linear(tl.from_numpy(x), tl.from_numpy(w), tl.from_numpy(b)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# ---- factories, sampled_addmm, spsolve ------------------------------------------------------

@pytest.mark.parametrize("lay", ["csr", "csc"])
def test_factories(lay):
    for size in ((2, 3), (2, 4, 3)):
        same(torch.zeros(size, layout=TORCH_LAYOUT[lay]), tl.zeros(size, layout=TL_LAYOUT[lay]))
        same(torch.zeros(*size, layout=TORCH_LAYOUT[lay], dtype=torch.float64),
             tl.zeros(*size, layout=TL_LAYOUT[lay], dtype=tl.float64))
        e = tl.empty(size, layout=TL_LAYOUT[lay])
        assert e.layout == TL_LAYOUT[lay] and e._nnz() == 0 and tuple(e.shape) == size
    d, a, b = operand(lay, torch.int32, torch.float32)
    same(torch.zeros_like(a), tl.zeros_like(b))
    z = tl.empty_like(b)
    assert z.layout == b.layout and z.shape == b.shape and z._nnz() == 0
    with pytest.raises(RuntimeError):
        tl.zeros(2, 4, layout=tl.sparse_bsr)


@pytest.mark.parametrize("dtype", OP_DTYPES)
def test_sampled_addmm(dtype):
    d, a, b = operand("csr", torch.int64, dtype, shape=(5, 6))
    rng = np.random.default_rng(9)
    m1 = torch.tensor(rng.normal(size=(5, 3))).to(dtype)
    m2 = torch.tensor(rng.normal(size=(3, 6))).to(dtype)
    want = torch.sparse.sampled_addmm(a, m1, m2, beta=0.5, alpha=2.0)
    got = tl.sparse.sampled_addmm(b, tt(m1), tt(m2), beta=0.5, alpha=2.0)
    assert got.layout == tl.sparse_csr
    np.testing.assert_array_equal(got.crow_indices().numpy(), want.crow_indices().numpy())
    np.testing.assert_array_equal(got.col_indices().numpy(), want.col_indices().numpy())
    _close(got.values().numpy(), want.values().numpy(), dtype)


@pytest.mark.parametrize("lay", ["csr", "csc", "bsr"])
def test_spsolve(lay):
    rng = np.random.default_rng(10)
    d = torch.tensor(rng.normal(size=(6, 6))) * torch.tensor(rng.random((6, 6)) < 0.4) + 6 * torch.eye(6,
                                                                                                        dtype=torch.float64)
    s = to_layout(tl, tt(d), lay, (2, 2))
    for rhs in (torch.tensor(rng.normal(size=6)), torch.tensor(rng.normal(size=(6, 2)))):
        _close(tl.sparse.spsolve(s, tt(rhs)).numpy(), np.linalg.solve(d.numpy(), rhs.numpy()), torch.float64)
    rhs = torch.tensor(rng.normal(size=(2, 6)))
    _close(tl.sparse.spsolve(s, tt(rhs), left=False).numpy(), np.linalg.solve(d.numpy().T, rhs.numpy().T).T,
           torch.float64)


def _masked_softmax(d, dim, log):
    """Softmax over the non-zero elements along dim (zeros stay unstored: -inf)."""
    x = d.numpy()
    m = np.where(x != 0, x, -np.inf)
    mx = m.max(axis=dim, keepdims=True)
    mx = np.where(np.isfinite(mx), mx, 0)
    e = np.where(x != 0, np.exp(m - mx), 0)
    s = e.sum(axis=dim, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x != 0, (m - mx - np.log(s)) if log else e / s, 0)


@pytest.mark.parametrize("lay", ["csr", "csc"])
@pytest.mark.parametrize("batch", [(), (2,)])
@pytest.mark.parametrize("log", [False, True])
def test_sparse_softmax(lay, batch, log):
    rng = np.random.default_rng(12)
    d = torch.tensor(rng.normal(size=batch + (5, 6))) * torch.tensor(rng.random(batch + (5, 6)) < 0.5)
    if batch:  # equal nse per batch entry
        d[1] = d[0] * 2
    s = to_layout(tl, tt(d), lay, None)
    f = tl.sparse.log_softmax if log else tl.sparse.softmax
    for dim in (-1, -2):
        r = f(s, dim)
        assert r.layout == s.layout
        np.testing.assert_array_equal(getattr(r, names(lay)[1])().numpy(), getattr(s, names(lay)[1])().numpy())
        got = r.to_dense().numpy()
        want = _masked_softmax(d, dim, log)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        # the same as torch's COO sparse softmax (torch refuses CSR/CSC on the CPU)
        tf = torch.sparse.log_softmax if log else torch.sparse.softmax
        np.testing.assert_allclose(got, tf(d.to_sparse(), dim).to_dense().numpy(), rtol=1e-12, atol=1e-12)


# ---- conversion fast paths (csrc/sparse/compressed.c) ---------------------------------------

@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64, torch.int16, torch.int64])
def test_conversion_fast_paths_match_torch(idx, dtype):
    """CSR <-> CSC (typed loops for 4- and 8-byte values), CSR/CSC -> COO (one value copy),
    coalesced COO -> CSR (components shared as torch shares them), strided -> CSR/CSC (the
    COO scan; -0.0 is zero, NaN is not) on a few thousand entries: torch's components."""
    rng = np.random.default_rng(5)
    d = random_dense(rng, (61, 77), 0.3, dtype)
    if dtype.is_floating_point:
        d[0, 1], d[2, 3] = -0.0, float("nan")
    t = d.to_sparse_csr()
    ci, pi = t.crow_indices().to(idx), t.col_indices().to(idx)
    t = build(torch, "csr", ci, pi, t.values(), tuple(t.shape))
    x = build(tl, "csr", ci, pi, t.values(), tuple(t.shape))
    same(t.to_sparse_csc(), x.to_sparse_csc())
    same(t.to_sparse_csc().to_sparse_csr(), x.to_sparse_csc().to_sparse_csr())
    for a, b in ((t, x), (t.to_sparse_csc(), x.to_sparse_csc())):
        ta, tb = a.to_sparse_coo(), b.to_sparse_coo()
        assert ta.is_coalesced() == tb.is_coalesced()
        np.testing.assert_array_equal(ta._indices().numpy(), tb._indices().numpy())
        np.testing.assert_array_equal(ta._values().numpy(), tb._values().numpy())
    dl = tt(d)
    same(d.to_sparse_csr(), dl.to_sparse_csr())
    same(d.to_sparse_csc(), dl.to_sparse_csc())
    same(d.t().to_sparse_csr(), dl.t().to_sparse_csr())  # a non-contiguous strided source
    # coalesced COO -> CSR shares the column indices and values with the COO tensor, as torch
    c = dl.to_sparse()
    r = c.to_sparse_csr()
    same(d.to_sparse().to_sparse_csr(), r)
    assert r.values().data_ptr() == c.values().data_ptr()
    assert r.col_indices().data_ptr() == c.indices()[1].data_ptr()
    # indices stored transposed (not one contiguous row each): copied, same result
    ind = tl.from_numpy(np.ascontiguousarray(c.indices().numpy().T)).t()
    c2 = tl.sparse_coo_tensor(ind, c.values(), tuple(c.shape), is_coalesced=True)
    same(d.to_sparse().to_sparse_csr(), c2.to_sparse_csr())


@pytest.mark.parametrize("idx", [np.int32, np.int64])
def test_large_csr_csc_to_coo_in_chunks_matches_scipy(idx):
    """CSR/CSC -> COO of 6e5 elements (filled in chunks over the thread pool, each finding its
    first row by binary search; rows spanning chunk edges, empty rows): SciPy's indices and
    values at 1 and 2 threads."""
    import scipy.sparse
    rng = np.random.default_rng(3)
    M, N, nnz = 20000, 3000, 600000
    m = scipy.sparse.coo_array((rng.normal(size=nnz).astype(np.float32), (rng.integers(0, M // 2, nnz) * 2,
                                rng.integers(0, N, nnz))), shape=(M, N)).tocsr()
    m.sum_duplicates()
    m.sort_indices()
    s = tl.sparse_csr_tensor(tl.from_numpy(m.indptr.astype(idx)), tl.from_numpy(m.indices.astype(idx)),
                             tl.from_numpy(m.data), (M, N))
    w = m.tocoo()
    old = tl.get_num_threads()
    try:
        for n in (1, 2):
            tl.set_num_threads(n)
            o = s.to_sparse_coo()
            np.testing.assert_array_equal(o._indices().numpy(), np.stack([w.row, w.col]))
            np.testing.assert_array_equal(o._values().numpy(), w.data)
            assert o.is_coalesced()
            oc = s.to_sparse_csc().to_sparse_coo()
            order = np.lexsort((w.row, w.col))
            np.testing.assert_array_equal(oc._indices().numpy(), np.stack([w.row[order], w.col[order]]))
            np.testing.assert_array_equal(oc._values().numpy(), w.data[order])
    finally:
        tl.set_num_threads(old)


# ---- mul(..., out=) -----------------------------------------------------------------------------

def _out_csr(lib, shape, dtype, idx, nnz_like=None):
    """An out= target: a CSR tensor of `shape` (zeros, or the pattern of nnz_like) with idx indices."""
    t = nnz_like if nnz_like is not None else torch.zeros(shape, dtype=dtype).to_sparse_csr()
    ci, pi = t.crow_indices().to(idx), t.col_indices().to(idx)
    return build(lib, "csr", ci, pi, t.values().to(dtype), tuple(t.shape))


def _operands(rng, idx, dtype, shape, dense):
    """torch/tensorlib operand pairs for mul(out=): every layout, strided (contiguous and
    not, NaN where the CSR pattern has nothing), a 0-d tensor and Python scalars."""
    ((ds, ts, ls),) = _pair(rng, "csr", idx, dtype, shape, dense, density=(0.5,))
    dd = random_dense(rng, shape + dense, 0.7, dtype)
    if dtype.is_floating_point:
        dd = torch.where(ds == 0, torch.tensor(float("nan"), dtype=dtype), dd)
    nc = dd.transpose(0, 1).contiguous()
    ops = [("csr", ts, ls), ("strided", dd, tt(dd)), ("strided-nc", nc.transpose(0, 1), tt(nc).transpose(0, 1)),
           ("0d", torch.tensor(3, dtype=dtype), tl.tensor(3, dtype=TL_DT[dtype])), ("int", 2, 2), ("float", 2.5, 2.5)]
    if not dense:
        for lay in ("csc", "bsr", "coo"):
            t = to_layout(torch, ds, lay, (1, 1))
            ops.append((lay, t, to_layout(tl, tt(ds), lay, (1, 1))))
    return ops


@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64])
@pytest.mark.parametrize("shape,dense", [((5, 7), ()), ((4, 3), (2,)), ((0, 3), ()), ((3, 0), ())])
def test_mul_out_matches_torch(idx, dtype, shape, dense):
    """mul(a, b, out=CSR) for every operand pair as torch 2.13's mul_out_sparse_csr: the
    result is out itself, with out's dtype and index dtype and the product's shape and
    pattern (or torch's error for the pair, e.g. CSR times a scalar); out of a strided, COO
    or CSC layout refuses as torch does."""
    rng = np.random.default_rng(shape[0] * 11 + len(dense))
    ops = _operands(rng, idx, dtype, shape, dense)
    for (na, ta, la), (nb, tb, lb) in [(x, y) for x in ops for y in ops]:
        for odt, oidx, oshape in [(dtype, torch.int64, shape + dense), (torch.float64, torch.int32, (2, 2)),
                                  (torch.int64, idx, shape + dense)]:
            to, lo = _out_csr(torch, oshape, odt, oidx), _out_csr(tl, oshape, odt, oidx)
            r1 = outcome(lambda: torch.mul(ta, tb, out=to))
            r2 = outcome(lambda: tl.mul(la, lb, out=lo))
            if isinstance(r1, tuple) or isinstance(r2, tuple):
                assert r1 == r2, (na, nb)
                continue
            assert r1 is to and r2 is lo
            same(to, lo)
        if na not in ("csr", "csc", "bsr") and nb not in ("csr", "csc", "bsr"):
            continue  # nothing compressed: not this layout's op
        for ot, ol in [(torch.zeros(shape + dense), tl.zeros(shape + dense)),
                       (torch.zeros(shape).to_sparse_csc(), tl.zeros(shape).to_sparse_csc()),
                       (torch.zeros(shape).to_sparse(), tl.zeros(shape).to_sparse())]:
            assert outcome(lambda: torch.mul(ta, tb, out=ot)) == outcome(lambda: tl.mul(la, lb, out=ol)), (na, nb)


def test_mul_out_writes_in_place_and_errors():
    """out's components are written in place where their storage holds the result (a
    values() view sees it, as torch's resize_ + copy_), out may be an operand; batched and
    Bool operands refuse as torch."""
    d = torch.tensor([[1., 0, 2], [0, 0, 3]])
    m = torch.tensor([[2., 5, 2], [7, 2, 2]])
    for lib, c, dd, big in [(torch, d.to_sparse_csr(), m, torch.tensor([[9., 9, 9], [0, 0, 9]]).to_sparse_csr()),
                            (tl, tt(d).to_sparse_csr(), tt(m), tl.tensor([[9., 9, 9], [0, 0, 9]]).to_sparse_csr())]:
        v0 = big.values()
        lib.mul(c, dd, out=big)
        np.testing.assert_array_equal(v0.numpy(), [2., 4., 6., 9.])
        cc = c.clone()
        lib.mul(cc, dd, out=cc)
        np.testing.assert_array_equal(cc.values().numpy(), [2., 4., 6.])
    b = torch.stack([d, 2 * d])
    bl = tt(b)
    cases = [(lambda lib, x, y: lib.mul(x.to_sparse_csr(), lib.ones(2, 2, 3), out=lib.zeros(2, 3).to_sparse_csr()), b, bl),
             (lambda lib, x, y: lib.mul(x.to_sparse_csr(), x.to_sparse_csr(), out=lib.zeros(2, 3).to_sparse_csr()), b, bl),
             (lambda lib, x, y: lib.mul(x.bool().to_sparse_csr(), x.bool().to_sparse_csr(),
                                        out=lib.zeros(2, 3).bool().to_sparse_csr()), d, tt(d))]
    for f, x, y in cases:
        assert outcome(lambda: f(torch, x, None)) == outcome(lambda: f(tl, y, None))
