"""Sparse COO tensors against torch 2.13: construction and validation, attributes, coalesce,
conversions, repr, pickling, SciPy interop, and the layout gate refusing dense ops."""
import copy
import pickle
import re

import numpy as np
import pytest
import torch

import tensorlib as tl

pytestmark = pytest.mark.filterwarnings("ignore:Sparse invariant checks")

TL_DT = {torch.float32: tl.float32, torch.float64: tl.float64, torch.int64: tl.int64, torch.bool: tl.bool,
         torch.complex64: tl.complex64, torch.int32: tl.int32, torch.float16: tl.float16}


def both(indices, values, size=None, **kw):
    """The same COO tensor built by torch and tensorlib (torch checks invariants too)."""
    ti = torch.tensor(np.asarray(indices, dtype=np.int64))
    tv = torch.tensor(np.asarray(values))
    args = () if size is None else (size,)
    a = torch.sparse_coo_tensor(ti, tv, *args, check_invariants=True, **kw)
    b = tl.sparse_coo_tensor(tl.tensor(np.asarray(indices, dtype=np.int64)), tl.tensor(np.asarray(values)), *args, **kw)
    return a, b


def same(a, b):
    """torch COO tensor a and tensorlib COO tensor b agree in every observable."""
    assert b.layout == tl.sparse_coo and b.is_sparse
    assert tuple(a.shape) == tuple(b.shape)
    assert str(a.dtype).split(".")[1] == str(b.dtype).split(".")[1]
    assert a.sparse_dim() == b.sparse_dim() and a.dense_dim() == b.dense_dim()
    assert a._nnz() == b._nnz()
    assert a.is_coalesced() == b.is_coalesced()
    np.testing.assert_array_equal(a._indices().numpy(), b._indices().numpy())
    if a.dtype.is_floating_point or a.dtype.is_complex:  # elementwise functions may differ in the last ulp
        np.testing.assert_allclose(a._values().numpy(), b._values().numpy(), rtol=1e-6, atol=1e-12)
    else:
        np.testing.assert_array_equal(a._values().numpy(), b._values().numpy())


def torch_err(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e).split("\n")[0]
    return None


# ---- construction ---------------------------------------------------------------------

@pytest.mark.parametrize("indices,values,size", [
    ([[0, 1, 1], [2, 0, 2]], [3, 4, 5], (2, 3)),
    ([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], None),
    ([[1, 0, 1], [2, 0, 2]], [True, False, True], (4, 5)),
    ([[0, 1, 1]], [[1., 2.], [3., 4.], [5., 6.]], None),          # hybrid
    ([[0, 1, 1]], [[1., 2.], [3., 4.], [5., 6.]], (3, 2)),
    (np.zeros((2, 0)), np.zeros((0,)), (2, 3)),                     # nse 0
    (np.zeros((2, 0)), np.zeros((0,)), None),
    (np.zeros((1, 0)), np.zeros((0, 4)), None),
    (np.zeros((0, 1)), [7.], ()),                                   # scalar
    (np.zeros((0, 2)), [1., 2.], None),                             # scalar, duplicates
    ([[0]], [1 + 2j], None),
])
def test_construct_like_torch(indices, values, size):
    a, b = both(indices, values, size)
    same(a, b)


def test_construct_options():
    i = [[0, 1], [1, 0]]
    a = torch.sparse_coo_tensor(i, [1, 2], (2, 2), dtype=torch.float64)
    b = tl.sparse_coo_tensor(i, [1, 2], (2, 2), dtype=tl.float64)
    same(a, b)
    a = torch.sparse_coo_tensor(i, [1., 2.], (3, 3), is_coalesced=True)
    b = tl.sparse_coo_tensor(i, [1., 2.], (3, 3), is_coalesced=True)
    assert b.is_coalesced() and a.is_coalesced()
    # 0-d values and float/int32 indices, as torch accepts them
    same(torch.sparse_coo_tensor(torch.zeros(2, 1, dtype=torch.long), torch.tensor(1.)),
         tl.sparse_coo_tensor(tl.zeros(2, 1, dtype=tl.int64), tl.tensor(1.)))
    same(torch.sparse_coo_tensor(torch.tensor([[0., 1.]]), [1., 2.], (2,)),
         tl.sparse_coo_tensor(tl.tensor([[0., 1.]]), [1., 2.], (2,)))
    same(torch.sparse_coo_tensor(torch.tensor([[0, 1]], dtype=torch.int32), [1., 2.], (2,)),
         tl.sparse_coo_tensor(tl.tensor([[0, 1]], dtype=tl.int32), [1., 2.], (2,)))
    # shares values like torch
    v = tl.tensor([1., 2.])
    s = tl.sparse_coo_tensor([[0, 1]], v, (2,))
    v[0] = 9.
    assert s._values()[0].item() == 9.


BAD = [
    (torch.tensor([0, 1]), [1., 2.], (2,)),                 # indices 1-D
    (torch.tensor([[0, 1]]), [1., 2., 3.], (2,)),           # nnz mismatch
    (torch.tensor([[0, 1]]), [1., 2.], (2, 2)),             # len(size)
    (torch.tensor([[0, 1]]), [[1.], [2.]], (2,)),
    (torch.tensor([[0, 1]]), [[1., 3.], [2., 3.]], (2, 3)),  # dense size
    (torch.tensor([[0, 2]]), [1., 2.], (2,)),               # out of range
    (torch.tensor([[0, -1]]), [1., 2.], (2,)),              # negative
    (torch.tensor([[0, -1]]), [1., 2.], None),              # negative, inferred size
    (torch.tensor([[0, 1], [0, 1]]).t(), [1., 2.], (2,)),
    (torch.tensor([[1, 0]]), [1., 2.], (3,), True),         # is_coalesced lie
]


@pytest.mark.parametrize("case", BAD)
def test_validation_like_torch(case):
    ind, val, size = case[:3]
    kw = {"is_coalesced": True} if len(case) > 3 else {}
    args = () if size is None else (size,)
    want = torch_err(lambda: torch.sparse_coo_tensor(ind, val, *args, check_invariants=True, **kw))
    got = torch_err(lambda: tl.sparse_coo_tensor(tl.tensor(ind.numpy()), val, *args, **kw))
    assert want is not None and got == want


def test_validation_is_default_and_skippable():
    # torch accepts this without checks; tensorlib validates unless told not to
    with pytest.raises(RuntimeError, match="size is inconsistent with indices"):
        tl.sparse_coo_tensor([[0, 5]], [1., 2.], (2,))
    s = tl.sparse_coo_tensor([[0, 5]], [1., 2.], (2,), check_invariants=False)
    # the kernels still refuse the bad index instead of writing out of bounds
    with pytest.raises(RuntimeError, match="size is inconsistent with indices"):
        s.to_dense()
    with pytest.raises(RuntimeError, match="size is inconsistent with indices"):
        s.coalesce()


def test_check_sparse_tensor_invariants_api():
    c = tl.sparse.check_sparse_tensor_invariants
    assert not c.is_enabled()
    with c():
        assert c.is_enabled()
    assert not c.is_enabled()
    c.enable()
    assert c.is_enabled()
    c.disable()
    assert not c.is_enabled()

    @c(enable=True)
    def f():
        return c.is_enabled()
    assert f() and not c.is_enabled()


def test_ten_thousand_corrupted_component_sets():
    """Generated corruptions of valid components: none accepted, none crashes."""
    rng = np.random.default_rng(0)
    accepted = 0
    for k in range(10_000):
        sd, dd, nse = rng.integers(1, 4), rng.integers(0, 3), rng.integers(1, 6)
        size = [int(x) for x in rng.integers(1, 5, size=sd + dd)]
        ind = np.stack([rng.integers(0, size[d], size=nse) for d in range(sd)])
        val = rng.standard_normal((nse,) + tuple(size[sd:]))
        kind = k % 6
        if kind == 0:      # an index out of range
            ind[rng.integers(sd), rng.integers(nse)] = size[0] + rng.integers(0, 3) + max(size)
        elif kind == 1:    # a negative index
            ind[rng.integers(sd), rng.integers(nse)] = -rng.integers(1, 5)
        elif kind == 2:    # values' first dim differs from nse
            val = rng.standard_normal((nse + rng.integers(1, 3),) + tuple(size[sd:]))
        elif kind == 3:    # size of the wrong rank
            size = size + [2] if rng.integers(2) else size[:-1]
            if len(size) == 0:
                size = [1, 1, 1, 1, 1, 1]
        elif kind == 4:    # dense dims disagree with size
            val = rng.standard_normal((nse,) + tuple(size[sd:]) + (2,))
        else:              # indices not 2-D
            ind = ind.reshape(-1) if rng.integers(2) else ind[None]
        try:
            tl.sparse_coo_tensor(tl.tensor(ind), tl.tensor(val), size)
            accepted += 1
        except RuntimeError:
            pass
    assert accepted == 0


# ---- attributes, coalesce -----------------------------------------------------------------

def random_coo(rng, shape, sd, nse, dtype=np.float64):
    ind = np.stack([rng.integers(0, shape[d], size=nse) for d in range(sd)]) if sd else np.zeros((0, nse))
    val = rng.standard_normal((nse,) + tuple(shape[sd:]))
    if dtype == np.bool_:
        val = val > 0
    else:
        val = (val * 4).round().astype(dtype)
    return ind.astype(np.int64), val


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_, np.complex64])
@pytest.mark.parametrize("shape,sd,nse", [((5, 4), 2, 12), ((6,), 1, 20), ((3, 4, 2), 2, 9), ((4, 3), 1, 7),
                                          ((2, 3), 2, 0), ((0, 3), 1, 0), ((7, 7, 7), 3, 50), ((), 0, 3)])
def test_coalesce_to_dense_like_torch(dtype, shape, sd, nse):
    rng = np.random.default_rng(sd * 100 + nse)
    ind, val = random_coo(rng, shape, sd, nse, dtype)
    a, b = both(ind, val, shape)
    same(a, b)
    same(a.coalesce(), b.coalesce())
    assert b.coalesce().coalesce()._nnz() == a.coalesce()._nnz()
    np.testing.assert_array_equal(a.to_dense().numpy(), b.to_dense().numpy())
    d = a.to_dense()
    for k in range(1 if shape else 0, len(shape) + 1):
        same(d.to_sparse(k), tl.tensor(d.numpy()).to_sparse(k))
    same(d.to_sparse(), tl.tensor(d.numpy()).to_sparse(layout=tl.sparse_coo))
    same(d.to_sparse_coo(), tl.tensor(d.numpy()).to_sparse_coo())


@pytest.mark.parametrize("name", ["bool", "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32",
                                  "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape,sd,nse", [((6,), 1, 40), ((4, 5), 2, 300), ((3, 4, 2), 2, 50), ((), 0, 7),
                                          ((7, 3), 1, 7), ((5,), 1, 3)])
def test_coalesce_small_key_span_like_torch(name, shape, sd, nse):
    """coalesce where the sparse positions are no more than the entries (the dense
    accumulator path; hybrid values take the sort): torch's indices, flag and values bit
    for bit, sums in stored order, a lone -0.0 kept, -0.0 + -0.0 = -0.0."""
    rng = np.random.default_rng(nse + sd)
    ind = np.stack([rng.integers(0, shape[d], size=nse) for d in range(sd)]) if sd else np.zeros((0, nse))
    val = (rng.standard_normal((nse,) + shape[sd:]) * 4).round() / 4
    val.reshape(nse, -1)[rng.integers(0, nse, size=max(1, nse // 4)), 0] = -0.0
    t = torch.sparse_coo_tensor(torch.tensor(ind, dtype=torch.int64), torch.tensor(val).to(getattr(torch, name)), shape)
    x = tl.sparse_coo_tensor(tl.tensor(ind, dtype=tl.int64), tl.tensor(val).to(getattr(tl, name)), shape)
    a, b = t.coalesce(), x.coalesce()
    assert a.is_coalesced() and b.is_coalesced()
    np.testing.assert_array_equal(a._indices().numpy(), b._indices().numpy())
    wa = a._values().to(torch.complex128 if a.is_complex() else torch.float64).numpy()
    wb = b._values().to(tl.complex128 if b.is_complex() else tl.float64).numpy()
    np.testing.assert_array_equal(wa, wb)
    np.testing.assert_array_equal(np.signbit(wa.view(np.float64)), np.signbit(wb.view(np.float64)))
    if sd == 1 and len(shape) == 1:  # the sum over dims that drives this path
        np.testing.assert_array_equal(t.sum(0).to(torch.float64 if not a.is_complex() else torch.complex128).numpy(),
                                      x.sum(0).to(tl.float64 if not b.is_complex() else tl.complex128).numpy())


def test_to_sparse_zero_and_nan():
    d = np.array([[0., -0.], [np.nan, 1.]])
    same(torch.tensor(d).to_sparse(), tl.tensor(d).to_sparse())
    h = tl.tensor(d, dtype=tl.float16).to_sparse()
    assert h._nnz() == 2


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.float16, np.int8, np.bool_])
@pytest.mark.parametrize("shape,sd", [((700_003,), 1), ((613, 1031), 2), ((301, 977, 3), 2), ((64, 16, 10), 3)])
def test_conversions_span_chunks_like_torch(threads, dtype, shape, sd):
    """Strided <-> COO over many ranges of the thread pool (about 1 MB of input per scan
    chunk, 256 KB of output per fill range): non-zeros on both sides of the range edges,
    blocks of 16 cut by the end, -0.0 (zero) and NaN (non-zero)."""
    rng = np.random.default_rng(7)
    n = int(np.prod(shape))
    d = np.zeros(n, dtype=np.float64)
    hot = np.concatenate([rng.choice(n, size=n // 97, replace=False),
                          [0, 15, 16, n - 1, n - 17] + [k * m + e for k in (1 << 16, 1 << 18, 1 << 20)
                                                         for m in (1, 2, 3) for e in (-1, 0) if 0 < k * m < n]])
    d[hot] = rng.integers(1, 5, size=hot.size)
    d[rng.choice(n, size=50)] = -0.0
    if np.dtype(dtype).kind == "f":
        d[rng.choice(hot, size=5)] = np.nan
    a = d.astype(dtype).reshape(shape)
    old = tl.get_num_threads()
    tl.set_num_threads(threads)
    try:
        s = tl.from_numpy(a).to_sparse(sd)
        t = torch.from_numpy(a).to_sparse(sd)
        same(t, s)
        np.testing.assert_array_equal(s.to_dense().numpy(), a)
        # the same entries flagged uncoalesced (sorted anyway), then with duplicates
        u = tl.sparse_coo_tensor(s._indices(), s._values(), shape, is_coalesced=False)
        np.testing.assert_array_equal(u.to_dense().numpy(), a)
        if dtype != np.bool_:
            dup = tl.sparse_coo_tensor(tl.cat([s._indices(), s._indices()], 1), tl.cat([s._values(), s._values()]),
                                       shape)
            tdup = torch.sparse_coo_tensor(torch.cat([t._indices(), t._indices()], 1),
                                           torch.cat([t._values(), t._values()]), shape)
            np.testing.assert_array_equal(dup.to_dense().numpy(), tdup.to_dense().numpy())
    finally:
        tl.set_num_threads(old)


LINE_DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
               torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]


@pytest.mark.parametrize("dtype", LINE_DTYPES, ids=str)
@pytest.mark.parametrize("n", [1, 63, 64, 65, 127, 200, 1031])
def test_to_sparse_line_scan_like_torch(dtype, n):
    """The 64-byte line scan of one-element rows (itemsizes 1, 2, 4, 8, 16): a non-zero at
    every offset of a line and in the tail past the last whole line, -0.0 (zero, also as
    either part of a complex), NaN and the smallest subnormal (non-zero), through a
    contiguous tensor and a strided view of one."""
    rng = np.random.default_rng(n)
    d = np.zeros(2 * n, dtype=np.complex128)
    hot = rng.choice(2 * n, size=max(1, n // 5), replace=False)
    d[hot] = rng.integers(1, 5, size=hot.size)
    d[np.arange(0, 2 * n, 7)] = -0.0
    if dtype.is_floating_point or dtype.is_complex:
        d[rng.choice(2 * n, size=3)] = np.nan
        d[rng.choice(2 * n, size=2)] = np.finfo(np.float64).tiny if dtype == torch.float64 else 2.0 ** -24
    if dtype.is_complex:
        d[rng.choice(2 * n, size=3)] = complex(-0.0, -0.0)
        d[rng.choice(2 * n, size=3)] = complex(0.0, 3.0)
    t = torch.from_numpy(d if dtype.is_complex else d.real.copy()).to(dtype)
    x = tl.from_numpy(t.view(torch.uint8).numpy()).view(getattr(tl, str(dtype).split(".")[1]))
    for tt, xx in ((t[:n], x[:n]), (t[::2], x[::2]), (t.reshape(2, n).t(), x.reshape(2, n).t())):
        for k in range(1, tt.dim() + 1):
            a, b = tt.to_sparse(k), xx.to_sparse(k)
            assert a._nnz() == b._nnz() and a.is_coalesced() == b.is_coalesced()
            np.testing.assert_array_equal(a._indices().numpy(), b._indices().numpy())
            va, vb = a._values(), b._values()
            np.testing.assert_array_equal(va.view(torch.uint8).numpy(), vb.view(tl.uint8).numpy())


def test_indices_values_need_coalesced():
    a, b = both([[1, 0, 1]], [1., 2., 3.], (2,))
    for name in ("indices", "values"):
        assert torch_err(lambda: getattr(b, name)()) == torch_err(lambda: getattr(a, name)())
    np.testing.assert_array_equal(b.coalesce().indices().numpy(), a.coalesce().indices().numpy())
    np.testing.assert_array_equal(b.coalesce().values().numpy(), a.coalesce().values().numpy())


def test_methods_like_torch():
    a, b = both([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
    assert b.numel() == a.numel() and b.dim() == a.dim() and b.shape == tl.Size([2, 3])
    assert b.device == tl.device("cpu") and b.dtype == tl.float64
    same(a.clone(), b.clone())
    same(a.detach(), b.detach())
    same(a.to(torch.float32), b.to(tl.float32))
    assert b.type() == "tensorlib.sparse.DoubleTensor" and a.type() == "torch.sparse.DoubleTensor"
    c = b.clone()
    c._values()[0] = 100.
    assert b._values()[0].item() == 3.
    z = b.clone().zero_()
    same(a.clone().zero_(), z)
    e = tl.sparse_coo_tensor([[0]], [1.], (4,), dtype=tl.float64)
    e.copy_(b)
    same(a, e)
    assert b.is_same_size(b.to_dense()) and not b.is_same_size(tl.zeros(3))
    s = b.clone()._coalesced_(True)
    assert s.is_coalesced()


def test_sparse_factories():
    for f, g in ((torch.zeros, tl.zeros), (torch.empty, tl.empty)):
        same(f(2, 3, layout=torch.sparse_coo), g(2, 3, layout=tl.sparse_coo))
        same(f((4,), dtype=torch.float64, layout=torch.sparse_coo), g((4,), dtype=tl.float64, layout=tl.sparse_coo))
    a, b = both([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
    same(torch.zeros_like(a), tl.zeros_like(b))
    same(torch.empty_like(a), tl.empty_like(b))


# ---- repr, pickling, NumPy, SciPy -----------------------------------------------------------

@pytest.mark.parametrize("indices,values,size", [
    ([[0, 1, 1], [2, 0, 2]], [3, 4, 5], (2, 3)),
    ([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3)),
    ([[0, 1, 1]], [[1., 2.], [3., 4.], [5., 6.]], None),
    (np.zeros((2, 0)), np.zeros((0,), dtype=np.float64), (2, 3)),
    ([[0, 2]], np.array([1., 2.], dtype=np.float64), (5,)),
    ([list(range(1500))], np.arange(1500.), None),
])
def test_repr_like_torch(indices, values, size):
    a, b = both(indices, values, size)
    want = repr(a).replace("torch.", "tensorlib.")
    # "tensorlib." is longer than "torch.": a suffix near the line width may wrap differently
    want, got = (re.sub(r",\s+(\w+=tensorlib)", r", \1", x) for x in (want, repr(b)))
    assert got == want


def test_seed_004_examples():
    i = [[0, 1, 1], [2, 0, 2]]
    v = [3, 4, 5]
    s = tl.sparse_coo_tensor(i, v, (2, 3))
    assert repr(s) == ("tensor(indices=tensor([[0, 1, 1],\n                       [2, 0, 2]]),\n"
                       "       values=tensor([3, 4, 5]),\n       size=(2, 3), nnz=3, layout=tensorlib.sparse_coo)")
    assert repr(s.to_dense()) == "tensor([[0, 0, 3],\n        [4, 0, 5]])"
    u = tl.sparse_coo_tensor([[1, 1]], [3, 4], (3,))
    assert repr(u.coalesce()) == ("tensor(indices=tensor([[1]]),\n       values=tensor([7]),\n"
                                  "       size=(3,), nnz=1, layout=tensorlib.sparse_coo)")


def test_pickle_deepcopy():
    _, b = both([[1, 0, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
    for c in (pickle.loads(pickle.dumps(b)), copy.deepcopy(b)):
        assert c.layout == tl.sparse_coo and c.is_coalesced() == b.is_coalesced()
        np.testing.assert_array_equal(c._indices().numpy(), b._indices().numpy())
        np.testing.assert_array_equal(c._values().numpy(), b._values().numpy())


def test_numpy_export_refused():
    a, b = both([[0, 1]], [1., 2.], (2,))
    for f in (lambda t: t.numpy(), np.asarray):
        assert torch_err(lambda: f(b)) == torch_err(lambda: f(a))
    with pytest.raises(TypeError):
        memoryview(b)
    with pytest.raises(BufferError):
        b.__dlpack__()


def test_scipy_roundtrip():
    sp = pytest.importorskip("scipy.sparse")
    _, b = both([[1, 0, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
    m = b.to_scipy()
    assert isinstance(m, sp.coo_array)
    np.testing.assert_array_equal(m.toarray(), b.to_dense().numpy())
    c = tl.sparse.from_scipy(sp.random(20, 30, density=0.2, format="csr", random_state=0))
    np.testing.assert_array_equal(c.to_dense().numpy(), sp.random(20, 30, density=0.2, format="csr",
                                                                    random_state=0).toarray())


# ---- the layout gate ------------------------------------------------------------------

DENSE_OPS = [
    lambda s: s.cos(), lambda s: tl.cos(s), lambda s: tl.exp(s),
    lambda s: s % 2, lambda s: s @ s, lambda s: s.exp_(), lambda s: s == s, lambda s: s < 1, lambda s: s.mean(), lambda s: s.max(),
    lambda s: s.argmax(), lambda s: s.cumsum(0), lambda s: s.sort(), lambda s: s.flip(0), lambda s: s.view(6),
    lambda s: s.reshape(6), lambda s: s.contiguous(), lambda s: s[0:1], lambda s: s.__setitem__(0, 1.),
    lambda s: float(s), lambda s: int(s), lambda s: bool(s), lambda s: s.item(), lambda s: s.tolist(),
    lambda s: s.data_ptr(), lambda s: s.stride(), lambda s: s.expand(2, 3), lambda s: s.fill_(1),
    lambda s: s.add_(1), lambda s: s.T, lambda s: s.mT, lambda s: tl.where(s > 0, s, s), lambda s: s.flip(0),
    lambda s: s.roll(1, 0), lambda s: s.diag(), lambda s: s + tl.ones(2, 3), lambda s: s.add(1, out=tl.ones(2, 3)),
    lambda s: tl.mm(s, tl.ones(4, 2)), lambda s: tl.ones(2, 3).copy_(s),
    lambda s: s.any(0), lambda s: s.masked_fill(s > 0, 1.), lambda s: s.clamp(0, 1),
    lambda s: s.norm(), lambda s: tl.einsum("ij->i", s), lambda s: s.nonzero(),
    lambda s: s.storage_offset(), lambda s: s.real, 
    lambda s: s.numpy(), lambda s: s.__dlpack__(), lambda s: memoryview(s), lambda s: s.set_(tl.ones(2)),
    lambda s: s.resize_(3), lambda s: s.uniform_(), lambda s: s.bernoulli(), lambda s: s.unique(),
    lambda s: s.split(1), lambda s: s.chunk(2), lambda s: s.flatten(), lambda s: s.squeeze(),
]


@pytest.mark.parametrize("k", range(len(DENSE_OPS)))
def test_dense_ops_refuse_sparse(k):
    s = tl.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
    before = (s._indices().numpy().copy(), s._values().numpy().copy())
    with pytest.raises((RuntimeError, TypeError, BufferError)):
        DENSE_OPS[k](s)
    np.testing.assert_array_equal(s._indices().numpy(), before[0])
    np.testing.assert_array_equal(s._values().numpy(), before[1])


def test_refusal_names_op_and_layout():
    s = tl.sparse_coo_tensor([[0, 1]], [1., 2.], (2,))
    a = torch.sparse_coo_tensor([[0, 1]], [1., 2.], (2,))
    want = torch_err(lambda: a.cos())
    got = torch_err(lambda: s.cos())
    assert got[0] is want[0] is NotImplementedError and issubclass(got[0], RuntimeError)
    assert got[1].startswith("Could not run 'aten::cos' with arguments from the 'SparseCPU' backend.")


def test_sparse_primitives_refuse_strided():
    d = tl.ones(2)
    with pytest.raises(NotImplementedError, match="'CPU' backend"):
        d._indices()
    assert d.to_dense() is d and d.sparse_dim() == 0 and d.dense_dim() == 1


def test_user_guide_examples():
    """The examples of docs/sparse.md run and print what the guide shows."""
    import doctest
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "sparse.md")
    text = open(path).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    runner.run(parser.get_doctest("\n".join(blocks), {}, "sparse.md", path, 0))
    res = runner.summarize(verbose=False)
    assert res.attempted > 5 and res.failed == 0


# ---- operations ---------------------------------------------------------------------------

def pair(dtype=np.float64):
    rng = np.random.default_rng(5)
    out = []
    for nse in (6, 4):
        ind, val = random_coo(rng, (4, 3), 2, nse, dtype)
        out.append(both(ind, val, (4, 3)))
    return out


def check(a, b, ordered=True):
    """torch result a and tensorlib result b agree; ordered=False: an uncoalesced result may
    list its entries in another order (compared after coalescing)."""
    if isinstance(a, torch.Tensor) and a.is_sparse:
        if ordered or a.is_coalesced():
            same(a, b)
        else:
            assert not b.is_coalesced() and a._nnz() == b._nnz()
            same(a.coalesce(), b.coalesce())
    else:
        assert b.layout == tl.strided and str(a.dtype)[6:] == str(b.dtype)[10:]
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


@pytest.mark.parametrize("coalesced", [False, True])
def test_add_sub_like_torch(coalesced):
    (a1, b1), (a2, b2) = pair()
    if coalesced:
        a1, b1, a2, b2 = a1.coalesce(), b1.coalesce(), a2.coalesce(), b2.coalesce()
    # torch walks both index lists in stored order: same entries, same order
    check(a1 + a2, b1 + b2)
    check(a1 - a2, b1 - b2)
    check(torch.add(a1, a2, alpha=3), tl.add(b1, b2, alpha=3))
    check(a1 + a2.to(torch.float32), b1 + b2.to(tl.float32))
    d = np.arange(12.).reshape(4, 3)
    check(torch.tensor(d) + a1, tl.tensor(d) + b1)
    check(torch.tensor(d) - a1, tl.tensor(d) - b1)
    assert torch_err(lambda: b1 + tl.tensor(d)) == torch_err(lambda: a1 + torch.tensor(d))
    e = torch.sparse_coo_tensor([[0]], [1.], (5,))
    f = tl.sparse_coo_tensor([[0]], [1.], (5,))
    assert torch_err(lambda: f + b1) == torch_err(lambda: e + a1)
    c1, c2 = a1.clone(), b1.clone()
    c1.add_(a2)
    c2.add_(b2)
    check(c1, c2)


def test_add_walk_matches_torch_on_random_pairs():
    """sparse + sparse lists torch's entries in torch's order (its walk over both index
    lists), for coalesced and uncoalesced, hybrid and empty operands."""
    rng = np.random.default_rng(11)
    for it in range(200):
        shape = (int(rng.integers(1, 5)), int(rng.integers(1, 4))) + ((2,) if it % 3 == 0 else ())
        (ta, sa), (tb, sb) = [both(*random_coo(rng, shape, 2, int(rng.integers(0, 8)), np.float64), shape)
                              for _ in range(2)]
        if it % 2:
            ta, sa = ta.coalesce(), sa.coalesce()
        if it % 5 == 0:
            tb, sb = tb.coalesce(), sb.coalesce()
        same(torch.add(ta, tb, alpha=-2), tl.add(sa, sb, alpha=-2))
        same(ta - tb, sa - sb)


def test_add_noncontiguous_values_and_bool():
    ind = [[1, 0, 1]]
    val = np.array([[1., 2.], [3, 4], [5, 6]])
    ta = torch.sparse_coo_tensor(ind, torch.tensor(val).t().contiguous().t(), (2, 2))
    sa = tl.sparse_coo_tensor(ind, tl.tensor(val).t().contiguous().t(), (2, 2))
    assert not sa._values().is_contiguous()
    same(ta + ta.coalesce(), sa + sa.coalesce())
    tb, sb = ta.bool(), sa.bool()
    assert torch_err(lambda: tb + tb) == torch_err(lambda: sb + sb)
    te = torch.sparse_coo_tensor(torch.zeros(1, 0, dtype=torch.long), torch.zeros(0, 2), (2, 2)).bool()
    se = tl.sparse_coo_tensor(tl.zeros(1, 0, dtype=tl.int64), tl.zeros(0, 2), (2, 2)).bool()
    same(tb + te, sb + se)
    assert torch_err(lambda: te + tb) == torch_err(lambda: se + sb)
    tc = torch.sparse_coo_tensor(ind, torch.tensor(val), (2, 2)).bool()
    sc = tl.sparse_coo_tensor(ind, tl.tensor(val), (2, 2)).bool()
    assert torch_err(lambda: tc + tc) == torch_err(lambda: sc + sc)


@pytest.mark.parametrize("name", ["bool", "byte", "char", "short", "int", "long", "half", "bfloat16", "float",
                                  "double", "cfloat", "cdouble"])
def test_dtype_cast_methods(name):
    (a, b), _ = pair()
    ta, sb = getattr(a, name)(), getattr(b, name)()
    assert str(ta.dtype)[6:] == str(sb.dtype)[10:]
    if name == "bfloat16":  # NumPy has no bfloat16: compare its exact float32 widening
        ta, sb = ta.float(), sb.float()
    same(ta, sb)


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_scalar_arith_like_torch(dtype):
    (a, b), _ = pair(dtype)
    check(a * 3, b * 3)
    check(3 * a, 3 * b)
    check(a * torch.tensor(2), b * tl.tensor(2))
    check(a / 2, b / 2)
    check(a // 2, b // 2)
    check(-a, -b)
    check(a.neg(), b.neg())
    c, d = a.clone(), b.clone()
    c.mul_(5)
    d.mul_(5)
    check(c, d)


@pytest.mark.parametrize("name", ["abs", "neg", "sign", "sgn", "ceil", "floor", "round", "trunc", "frac", "sqrt",
                                  "square", "sin", "tan", "tanh", "asin", "atan", "sinh", "asinh", "atanh", "expm1",
                                  "log1p", "deg2rad", "rad2deg", "erf", "erfinv", "isnan", "isinf", "isposinf",
                                  "isneginf", "nan_to_num", "relu", "signbit", "conj_physical"])
def test_zero_preserving_unary_like_torch(name):
    (a, b), _ = pair()
    a, b = a / 8, b / 8  # inside the domains of asin/atanh/erfinv
    check(getattr(a, name)(), getattr(b, name)())
    check(getattr(torch, name)(a), getattr(tl, name)(b))


@pytest.mark.parametrize("name", ["cos", "exp", "log", "sigmoid", "cosh"])
def test_non_zero_preserving_refused_like_torch(name):
    (a, b), _ = pair()
    got, want = torch_err(lambda: getattr(b, name)()), torch_err(lambda: getattr(a, name)())
    assert got[0] is want[0] is NotImplementedError and got[1].split(". ")[0] == want[1].split(". ")[0]


def test_products_and_sum_like_torch():
    (a, b), _ = pair()
    d = np.arange(6.).reshape(3, 2)
    check(a @ torch.tensor(d), b @ tl.tensor(d))
    check(torch.mm(a, torch.tensor(d)), tl.mm(b, tl.tensor(d)))
    check(a.matmul(torch.tensor(d[:, 0])), b.matmul(tl.tensor(d[:, 0])))
    check(torch.mv(a, torch.tensor(d[:, 0])), tl.mv(b, tl.tensor(d[:, 0])))
    e = np.arange(8.).reshape(2, 4)
    check(torch.tensor(e) @ a, tl.tensor(e) @ b)
    check(a.sum(), b.sum())
    check(torch.sum(a), tl.sum(b))
    for f, g in ((lambda x, y: x @ y, None), (lambda x, y: x.matmul(y[:, 0]), None), (lambda x, y: x.mm(y.float()), None)):
        assert torch_err(lambda: f(b, tl.ones(4, 2, dtype=tl.float64))) == \
            torch_err(lambda: f(a, torch.ones(4, 2, dtype=torch.float64)))
    assert torch_err(lambda: tl.ones(2, 3, dtype=tl.float64) @ b) == \
        torch_err(lambda: torch.ones(2, 3, dtype=torch.float64) @ a)


def test_sparse_namespace_and_empty_dims():
    (a, b), _ = pair()
    d = np.arange(6.).reshape(3, 2)
    check(torch.sparse.mm(a, torch.tensor(d)), tl.sparse.mm(b, tl.tensor(d)))
    check(torch.sparse.sum(a), tl.sparse.sum(b))
    # a huge dim times an empty dense dim: nothing to scan
    e = tl.zeros(2**40, 0).to_sparse(1)
    assert e._nnz() == 0 and e.shape == (2**40, 0)


@pytest.mark.parametrize("coalesced", [False, True])
def test_mask_narrow_resize_like_torch(coalesced):
    a, b = both([[1, 0, 1, 3], [0, 2, 0, 1]], [[1., 1.], [2., 2.], [3., 3.], [4., 4.]], (4, 3, 2))
    if coalesced:
        a, b = a.coalesce(), b.coalesce()
    for args in ((0, 1, 2), (1, 0, 2), (2, 1, 1), (1, 3, 0)):
        check(a.narrow_copy(*args), b.narrow_copy(*args))
    for args in ((0, 3, 2), (-1, 0, 1), (3, 0, 1), (0, -2, 2)):
        assert torch_err(lambda: b.narrow_copy(*args)) == torch_err(lambda: a.narrow_copy(*args))
    d = np.arange(24.).reshape(4, 3, 2)
    check(torch.tensor(d).sparse_mask(a), tl.tensor(d).sparse_mask(b))
    c, e = a.clone(), b.clone()
    c.sparse_resize_and_clear_((5, 5, 2), 2, 1)
    e.sparse_resize_and_clear_((5, 5, 2), 2, 1)
    check(c, e)
    assert torch_err(lambda: e.sparse_resize_and_clear_((5, 5, 2), 2, 0)) == \
        torch_err(lambda: c.sparse_resize_and_clear_((5, 5, 2), 2, 0))
    check(torch.arange(6.).reshape(3, 2).narrow_copy(0, 1, 2), tl.arange(6.).reshape(3, 2).narrow_copy(0, 1, 2))


SHAPE_OPS = [
    lambda s, c, h, e: s.transpose(0, 1), lambda s, c, h, e: c.transpose(1, 0), lambda s, c, h, e: c.transpose(0, 0),
    lambda s, c, h, e: c.transpose(1, 2), lambda s, c, h, e: c.transpose(2, -1), lambda s, c, h, e: c.transpose(0, 5),
    lambda s, c, h, e: c.t(), lambda s, c, h, e: e.t(), lambda s, c, h, e: e.transpose(0, 1),
    lambda s, c, h, e: c.permute(1, 0, 2), lambda s, c, h, e: c.permute(0, 1, 2), lambda s, c, h, e: c.permute(2, 1, 0),
    lambda s, c, h, e: h.permute(0, 2, 1), lambda s, c, h, e: h.permute((0, 1, 2)), lambda s, c, h, e: h.permute(0, 1),
    lambda s, c, h, e: h.permute(0, 1, 1), lambda s, c, h, e: e.permute(1, 0), lambda s, c, h, e: c.unsqueeze(0),
    lambda s, c, h, e: c.unsqueeze(2), lambda s, c, h, e: c.unsqueeze(3), lambda s, c, h, e: s.unsqueeze(-1),
    lambda s, c, h, e: c.unsqueeze(4), lambda s, c, h, e: e.unsqueeze(1), lambda s, c, h, e: h.unsqueeze(-4),
]


@pytest.mark.parametrize("k", range(len(SHAPE_OPS)))
def test_transpose_permute_unsqueeze_like_torch(k):
    def make(lib):
        s = lib.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [[3., 1], [4, 1], [5, 1]], (2, 3, 2))
        h = lib.sparse_coo_tensor([[0, 1, 1]], lib.ones(3, 2, 4), (2, 2, 4)).coalesce()
        e = lib.sparse_coo_tensor(lib.zeros(2, 0, dtype=lib.int64), lib.zeros(0), (2, 3))
        return s, s.coalesce(), h, e
    ta, sa = make(torch), make(tl)
    want, got = torch_err(lambda: SHAPE_OPS[k](*ta)), torch_err(lambda: SHAPE_OPS[k](*sa))
    assert want == got
    if want is None:
        same(SHAPE_OPS[k](*ta), SHAPE_OPS[k](*sa))
        same(ta[0], sa[0])  # the input is left as it was
    for f, g in ((torch.t, tl.t), (torch.transpose, tl.transpose)):
        args = (ta[3],) if f is torch.t else (ta[1], 0, 1)
        same(f(*args), g(*((sa[3],) if g is tl.t else (sa[1], 0, 1))))


@pytest.mark.parametrize("call", ["size=", "size positional", "dtype", "3-d"])
def test_size_only_constructor_is_empty(call):
    """torch's sparse_coo_tensor(size) overload: no specified elements, default dtype."""
    args, kw = {"size=": ((), {"size": (2, 3)}), "size positional": (((2, 3),), {}),
                "dtype": (([2, 3],), {"dtype": "int32"}), "3-d": (((4, 1, 2),), {})}[call]
    a = torch.sparse_coo_tensor(*args, **{k: getattr(torch, v) if k == "dtype" else v for k, v in kw.items()})
    b = tl.sparse_coo_tensor(*args, **{k: getattr(tl, v) if k == "dtype" else v for k, v in kw.items()})
    same(a, b)
    assert str(b).replace("tensorlib", "torch") == str(a)
    with pytest.raises(TypeError):
        tl.sparse_coo_tensor()
