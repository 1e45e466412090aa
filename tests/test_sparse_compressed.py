"""Compressed sparse layouts (CSR, CSC, BSR, BSC) against torch 2.13: construction,
validation (with a generated corruption campaign), attributes, reprs of seed 004, copies
and transposes, conversions among every layout pair, SciPy interop, and the ops."""
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st, HealthCheck

import tensorlib as tl

pytestmark = [pytest.mark.filterwarnings("ignore:Sparse .* tensor support is in beta state"),
              pytest.mark.filterwarnings("ignore:Sparse invariant checks")]
warnings.filterwarnings("ignore", message="Sparse .* tensor support is in beta state")

LAYOUTS = ["csr", "csc", "bsr", "bsc"]
TL_LAYOUT = {k: getattr(tl, "sparse_" + k) for k in LAYOUTS}
TORCH_LAYOUT = {k: getattr(torch, "sparse_" + k) for k in LAYOUTS}
TL_DT = {torch.float32: tl.float32, torch.float64: tl.float64, torch.int64: tl.int64, torch.int32: tl.int32,
         torch.bool: tl.bool, torch.complex64: tl.complex64, torch.int16: tl.int16, torch.float16: tl.float16}
ROW = ("csr", "bsr")


def tt(x):
    """A tensorlib tensor with the same values and dtype as torch tensor x."""
    return tl.from_numpy(np.ascontiguousarray(x.numpy())) if x.dim() else tl.tensor(x.item(), dtype=TL_DT[x.dtype])


def names(lay):
    return ("crow_indices", "col_indices") if lay in ROW else ("ccol_indices", "row_indices")


def same(a, b):
    """torch compressed tensor a and tensorlib compressed tensor b agree in every observable."""
    assert str(a.layout).split(".")[1] == str(b.layout).split(".")[1]
    assert tuple(a.shape) == tuple(b.shape)
    assert str(a.dtype).split(".")[1] == str(b.dtype).split(".")[1]
    assert a.sparse_dim() == b.sparse_dim() and a.dense_dim() == b.dense_dim()
    assert a._nnz() == b._nnz()
    lay = str(a.layout).split("_")[-1]
    for n in names(lay):
        x, y = getattr(a, n)(), getattr(b, n)()
        assert str(x.dtype).split(".")[1] == str(y.dtype).split(".")[1], n
        np.testing.assert_array_equal(x.numpy(), y.numpy())
    np.testing.assert_array_equal(a.values().numpy(), b.values().numpy())
    np.testing.assert_array_equal(a.to_dense().numpy(), b.to_dense().numpy())


def outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e).split("\n")[0]
    return r


def build(lib, lay, ci, pi, v, size, check=True):
    if lib is torch:
        kw = dict(layout=TORCH_LAYOUT[lay], check_invariants=True)
        return torch.sparse_compressed_tensor(ci, pi, v, size, **kw) if size is not None else \
            torch.sparse_compressed_tensor(ci, pi, v, **kw)
    kw = dict(layout=TL_LAYOUT[lay], check_invariants=check)
    return tl.sparse_compressed_tensor(tt(ci), tt(pi), tt(v), size, **kw)


def random_dense(rng, shape, density=0.4, dtype=torch.float64):
    d = torch.tensor(rng.integers(1, 9, size=shape)).to(dtype)
    return d * torch.tensor(rng.random(shape) < density)


def random_compressed(rng, lay, batch=(), dense=(), blocks=(2, 3), nblk=(3, 4), idx=torch.int64, dtype=torch.float64):
    """A valid torch compressed tensor (torch's own conversion, so torch's invariants hold)."""
    bh, bw = blocks if lay in ("bsr", "bsc") else (1, 1)
    shape = batch + (nblk[0] * bh, nblk[1] * bw) + dense
    # the same sparsity in every batch (torch needs equal nse per batch)
    mask = torch.tensor(rng.random(nblk) < 0.5).repeat_interleave(bh, 0).repeat_interleave(bw, 1)
    d = random_dense(rng, shape, 1.0, dtype) * mask.reshape((1,) * len(batch) + mask.shape + (1,) * len(dense))
    dd = len(dense)
    t = {"csr": lambda: d.to_sparse_csr(dense_dim=dd), "csc": lambda: d.to_sparse_csc(dense_dim=dd),
         "bsr": lambda: d.to_sparse_bsr((bh, bw), dense_dim=dd), "bsc": lambda: d.to_sparse_bsc((bh, bw), dense_dim=dd)}
    t = t[lay]()
    ci, pi = (getattr(t, n)().to(idx) for n in names(lay))
    return t, ci, pi, t.values()


# ---- construction ---------------------------------------------------------------------------

@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("idx", [torch.int32, torch.int64])
@pytest.mark.parametrize("batch,dense", [((), ()), ((2,), ()), ((), (2,)), ((2, 1), (3,)), ((2,), (0,))])
@pytest.mark.parametrize("given_size", [True, False])
def test_construct_matches_torch(lay, idx, batch, dense, given_size):
    rng = np.random.default_rng(len(batch) * 7 + len(dense) + (idx == torch.int32))
    t, ci, pi, v = random_compressed(rng, lay, batch, dense, idx=idx)
    size = tuple(t.shape) if given_size else None
    a = build(torch, lay, ci, pi, v, size)
    b = build(tl, lay, ci, pi, v, size)
    same(a, b)
    assert b.is_sparse_csr == (lay == "csr") and not b.is_sparse
    assert b.layout == TL_LAYOUT[lay]


@pytest.mark.parametrize("lay,ctor", [("csr", "sparse_csr_tensor"), ("csc", "sparse_csc_tensor"),
                                      ("bsr", "sparse_bsr_tensor"), ("bsc", "sparse_bsc_tensor")])
def test_layout_constructors_and_lists(lay, ctor):
    v = [1., 2., 3., 4.] if lay in ("csr", "csc") else np.arange(24.).reshape(4, 2, 3).tolist()
    a = getattr(torch, ctor)([0, 2, 4], [0, 1, 0, 1], v, dtype=torch.float32)
    b = getattr(tl, ctor)([0, 2, 4], [0, 1, 0, 1], v, dtype=tl.float32)
    same(a, b)
    other = "csc" if lay != "csc" else "csr"
    assert outcome(lambda: getattr(tl, ctor)([0, 1], [0], [1.], layout=TL_LAYOUT[other]))[1] == \
        outcome(lambda: getattr(torch, ctor)([0, 1], [0], [1.], layout=TORCH_LAYOUT[other]))[1].replace("torch.", "")


def test_compressed_constructor_layout_errors():
    for layout_t, layout_l in [(None, None), (torch.strided, tl.strided), (torch.sparse_coo, tl.sparse_coo)]:
        kt = {} if layout_t is None else {"layout": layout_t}
        kl = {} if layout_l is None else {"layout": layout_l}
        et = outcome(lambda: torch.sparse_compressed_tensor(torch.tensor([0, 1]), torch.tensor([0]),
                                                            torch.tensor([1.]), **kt))
        el = outcome(lambda: tl.sparse_compressed_tensor(tl.tensor([0, 1]), tl.tensor([0]), tl.tensor([1.]), **kl))
        assert el == et


@pytest.mark.parametrize("case", [
    # (layout, crow, plain, values-shape-or-list, size, index dtype of plain)
    ("csr", [1, 2, 4], [0, 1, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 3], [0, 1, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 3, 2, 4], [0, 1, 0, 1], [1., 2, 3, 4], (3, 2)),
    ("csr", [0, 2, 4], [0, 1, 0, 2], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 4], [0, 1, 0, -1], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 4], [1, 0, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 4], [0, 0, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 4], [0, 1, 0, 1], [1., 2, 3], (2, 2)),
    ("csr", [0, 2, 4], [0, 1, 0, 1], [1., 2, 3, 4], (3, 2)),
    ("csr", [0, 2, 4], [0, 1, 0, 1], [1., 2, 3, 4], (2,)),
    ("csr", [0, 2, 4], [0, 1, 0, 1], [1., 2, 3, 4], (2, 2, 3)),
    ("csr", [0, 5, 4], [0, 1, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 1, 4], [1, 0, 0, 1], [1., 2, 3, 4], (3, 2)),
    ("csc", [0, 2, 4], [0, 1, 0, 2], [1., 2, 3, 4], (2, 2)),
    ("csc", [0, 2, 4], [1, 0, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csc", [0, 2, 3], [0, 1, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("bsr", [0, 2, 4], [0, 1, 0, 1], (4, 2, 2), (4, 5)),
    ("bsr", [0, 2, 4], [0, 1, 0, 1], (4, 2, 2), (5, 4)),
    ("bsr", [0, 2, 4], [0, 1, 0, 1], (4, 2), (4, 4)),
    ("bsc", [0, 2, 4], [0, 1, 0, 1], (4, 1, 1), (2, 3)),
    ("bsc", [0, 2, 4], [0, 1, 0, 3], (4, 1, 2), (2, 4)),
    ("csr", 0, [0, 1, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 4], 0, [1., 2, 3, 4], (2, 2)),
    ("csr", [0, 2, 4], [0, 1, 0, 1], 1., (2, 2)),
    ("csr", [[0, 2, 4]], [0, 1, 0, 1], [1., 2, 3, 4], (2, 2)),
    ("csr", [[0, 2, 4]], [[0, 1, 0, 1]], [1., 2, 3, 4], (1, 2, 2)),
    ("csr", [[0, 2, 4]], [[0, 1, 0, 1]], [[1., 2, 3, 4]], (2, 2, 2)),
    ("csr", [[0, 2, 4], [1, 2, 4]], [[0, 1, 0, 1]] * 2, [[1., 2, 3, 4]] * 2, (2, 2, 2)),
])
def test_validation_messages(case):
    lay, ci, pi, v, size = case
    v = torch.ones(v, dtype=torch.float64) if isinstance(v, tuple) else torch.tensor(v)
    ci, pi = torch.tensor(ci), torch.tensor(pi)
    et = outcome(lambda: build(torch, lay, ci, pi, v, size))
    el = outcome(lambda: build(tl, lay, ci, pi, v, size))
    assert isinstance(et, tuple) and el == (RuntimeError, et[1])


def test_validation_dtypes_and_contiguity():
    ci, pi, v = torch.tensor([0, 2, 4]), torch.tensor([0, 1, 0, 1]), torch.tensor([1., 2, 3, 4])
    for a, b in [(ci.int(), pi), (ci.float(), pi), (ci.short(), pi.short())]:
        et = outcome(lambda: build(torch, "csr", a, b, v, (2, 2)))
        el = outcome(lambda: build(tl, "csr", a, b, v, (2, 2)))
        assert el == et
    nc = tl.tensor([0, 0, 2, 0, 4, 0])[::2]
    el = outcome(lambda: tl.sparse_csr_tensor(nc, tl.tensor([0, 1, 0, 1]), tl.tensor([1., 2, 3, 4]), (2, 2)))
    assert el == (RuntimeError, "expected crow_indices to be a contiguous tensor per batch")
    i32 = torch.int32
    args = (torch.tensor([1, 2, 4], dtype=i32), torch.tensor([0, 1, 0, 1], dtype=i32), v, (2, 2 ** 31))
    assert outcome(lambda: build(tl, "csr", *args)) == outcome(lambda: build(torch, "csr", *args))


def test_check_invariants_false_skips_contents_but_kernels_refuse():
    ci, pi, v = tl.tensor([0, 2, 4]), tl.tensor([0, 1, 0, 7]), tl.tensor([1., 2, 3, 4])
    with pytest.raises(RuntimeError, match="0 <= col_indices < ncols"):
        tl.sparse_csr_tensor(ci, pi, v, (2, 2))
    s = tl.sparse_csr_tensor(ci, pi, v, (2, 2), check_invariants=False)
    for f in (s.to_dense, s.to_sparse_coo, s.to_sparse_csc):
        with pytest.raises(RuntimeError, match="0 <= col_indices < ncols"):
            f()
    s = tl.sparse_csr_tensor(tl.tensor([0, 9, 4]), tl.tensor([0, 1, 0, 1]), v, (2, 2), check_invariants=False)
    with pytest.raises(RuntimeError, match="0 <= crow_indices"):
        s.to_dense()
    # shapes are always checked
    with pytest.raises(RuntimeError, match="must be equal to nnz"):
        tl.sparse_csr_tensor(ci, tl.tensor([0, 1]), v, (2, 2), check_invariants=False)


def test_size_inference_matches_torch():
    T = torch.tensor
    for lay, v in [("csr", T([1., 2, 3, 4])), ("bsr", torch.ones(4, 2, 3)), ("bsc", torch.ones(4, 2, 3)),
                   ("csc", torch.ones(4, 2))]:
        same(build(torch, lay, T([0, 2, 4]), T([0, 1, 0, 3]), v, None),
             build(tl, lay, T([0, 2, 4]), T([0, 1, 0, 3]), v, None))
    a = torch.sparse_csr_tensor(T([0, 0]), T([], dtype=torch.int64), torch.ones(0))
    b = tl.sparse_csr_tensor(tl.tensor([0, 0]), tl.tensor([], dtype=tl.int64), tl.ones(0))
    same(a, b)


# ---- the corruption campaign ----------------------------------------------------------------

def _corrupt(rng, lay, ci, pi, v, size):
    """One random corruption of a valid component set (numpy arrays + size)."""
    ci, pi, v, size = ci.copy(), pi.copy(), v.copy(), list(size)
    kind = rng.integers(0, 12)
    nse = pi.shape[-1]
    if kind <= 2 and ci.size:  # an entry of the compressed indices
        ci.reshape(-1)[rng.integers(0, ci.size)] += rng.choice([-2, -1, 1, 2, 5])
    elif kind <= 5 and pi.size:  # an entry of the plain indices
        pi.reshape(-1)[rng.integers(0, pi.size)] = rng.integers(-2, max(size[ci.ndim - 1:ci.ndim + 1]) + 3)
    elif kind == 6 and nse >= 2:  # two plain indices swapped
        i, j = rng.choice(nse, 2, replace=False)
        p = pi.reshape(-1, nse)
        p[:, [i, j]] = p[:, [j, i]]
    elif kind == 7:  # a sparse size changed
        d = ci.ndim - 1 + rng.integers(0, 2)
        size[d] = max(0, size[d] + rng.choice([-2, -1, 1, 2]))
    elif kind == 8:  # one entry more or less in plain or values
        if rng.integers(0, 2):
            pi = pi[..., :-1] if nse else np.concatenate([pi, pi[..., :0] + 0], -1)
        else:
            v = np.concatenate([v, v[(slice(None),) * (ci.ndim - 1) + (slice(0, 1),)]], ci.ndim - 1) if nse else v
    elif kind == 9:  # a dim dropped or added
        which = rng.integers(0, 3)
        if which == 0:
            ci = ci[None]
        elif which == 1:
            pi = pi[None]
        else:
            size = size[:-1] if len(size) > 2 else size + [1]
    elif kind == 10:  # index dtypes
        pi = pi.astype(rng.choice([np.int32, np.int16, np.float64]))
    else:  # the compressed indices one longer or shorter
        ci = np.concatenate([ci, ci[..., -1:]], -1) if rng.integers(0, 2) else ci[..., :-1]
    return ci, pi, v, (None if rng.integers(0, 8) == 0 else tuple(size))


def _trustworthy(ci, pi):
    """torch reads past the plain indices when a compressed index leaves [0, nse] before its
    step check fails; its message is then arbitrary (the outcome is still an error)."""
    if ci.dtype.kind != "i" or ci.ndim == 0 or pi.ndim == 0:
        return True
    return bool(((ci >= 0) & (ci <= pi.shape[-1])).all())


@pytest.mark.parametrize("lay", LAYOUTS)
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(seed=st.integers(0, 2 ** 32 - 1), shape=st.sampled_from([((), ()), ((2,), ()), ((), (2,)), ((1, 2), ())]),
       idx=st.sampled_from([np.int32, np.int64]))
def test_corruption_campaign(lay, seed, shape, idx):
    """100 valid sets per layout, each corrupted 100 ways (10,000 per layout): torch and
    tensorlib agree on accept/reject and on the message; no valid set is rejected; the
    kernels on unchecked corrupted sets raise or agree with torch's dense result, never crash."""
    rng = np.random.default_rng(seed)
    batch, dense = shape
    t, ci, pi, v = random_compressed(rng, lay, batch, dense, blocks=(1, 2), nblk=(3, 3))
    base = (ci.numpy().astype(idx), pi.numpy().astype(idx), v.numpy(), tuple(t.shape))
    b = build(tl, lay, *(torch.from_numpy(x) for x in base[:3]), base[3])  # the valid set is accepted
    np.testing.assert_array_equal(b.to_dense().numpy(), t.to_dense().numpy())
    for _ in range(100):
        c_ci, c_pi, c_v, size = _corrupt(rng, lay, *base)
        args = [torch.from_numpy(np.ascontiguousarray(x)) for x in (c_ci, c_pi, c_v)]
        et = outcome(lambda: build(torch, lay, *args, size))
        el = outcome(lambda: build(tl, lay, *args, size))
        if isinstance(et, tuple):
            assert isinstance(el, tuple), (lay, c_ci, c_pi, size, et)
            assert el[0] is et[0], (et, el)
            if _trustworthy(c_ci, c_pi):
                assert el[1] == et[1], (c_ci, c_pi, size)
            # unchecked: the kernels raise or give the dense result of the stored entries
            u = outcome(lambda: build(tl, lay, *args, size, check=False))
            if not isinstance(u, tuple):
                outcome(u.to_dense)
                outcome(u.to_sparse_coo)
        else:
            assert not isinstance(el, tuple), (lay, c_ci, c_pi, size, el)
            same(et, el)


# ---- attributes, repr, copies --------------------------------------------------------------

SEED_REPRS = [
    (lambda m: m.sparse_csr_tensor(m.tensor([0, 2, 4]), m.tensor([0, 1, 0, 1]), m.tensor([1, 2, 3, 4]),
                                   dtype=m.float64)),
    (lambda m: m.tensor([[0, 0, 1, 0], [1, 2, 0, 0], [0, 0, 0, 0]], dtype=m.float64).to_sparse_csr()),
    (lambda m: m.sparse_csc_tensor(m.tensor([0, 2, 4]), m.tensor([0, 1, 0, 1]), m.tensor([1, 2, 3, 4]),
                                   dtype=m.float64)),
    (lambda m: m.tensor([[0, 0, 1, 0], [1, 2, 0, 0], [0, 0, 0, 0]], dtype=m.float64).to_sparse_csc()),
    (lambda m: m.sparse_bsr_tensor(m.tensor([0, 2, 4]), m.tensor([0, 1, 0, 1]), m.tensor(
        [[[0, 1, 2], [6, 7, 8]], [[3, 4, 5], [9, 10, 11]], [[12, 13, 14], [18, 19, 20]], [[15, 16, 17], [21, 22, 23]]]),
        dtype=m.float64)),
    (lambda m: m.tensor([[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17],
                         [18, 19, 20, 21, 22, 23]]).to_sparse_bsr(blocksize=(2, 3))),
    (lambda m: m.sparse_bsc_tensor(m.tensor([0, 2, 4]), m.tensor([0, 1, 0, 1]), m.tensor(
        [[[0, 1, 2], [6, 7, 8]], [[3, 4, 5], [9, 10, 11]], [[12, 13, 14], [18, 19, 20]], [[15, 16, 17], [21, 22, 23]]]),
        dtype=m.float64)),
    (lambda m: m.sparse_compressed_tensor(m.tensor([0, 2, 4]), m.tensor([0, 1, 0, 1]), m.tensor([1, 2, 3, 4]),
                                          layout=m.sparse_csr)),
    (lambda m: m.sparse_compressed_tensor(m.tensor([0, 2, 4]), m.tensor([0, 1, 0, 1]), m.tensor([1, 2, 3, 4]),
                                          layout=m.sparse_csc)),
    (lambda m: m.tensor([[[1., 0], [2., 3.]], [[4., 0], [5., 6.]]]).to_sparse_csr()),
    (lambda m: m.tensor([[0, 0, 1, 2, 3, 0], [4, 5, 0, 6, 0, 0]]).to_sparse_csr().sin()),
    (lambda m: m.sparse_csr_tensor(m.tensor([0, 0]), m.tensor([], dtype=m.int64), m.ones(0))),
    (lambda m: m.tensor([[1., 0], [0, 2]], dtype=m.float32).to_sparse_csr().to(m.int32)),
]


@pytest.mark.parametrize("i", range(len(SEED_REPRS)))
def test_seed_004_reprs(i):
    """Seed 004's compressed examples print what torch prints, with tensorlib's names (the
    longer name may move a suffix to the next line: whitespace runs compare equal)."""
    ours, theirs = repr(SEED_REPRS[i](tl)), repr(SEED_REPRS[i](torch)).replace("torch.", "tensorlib.")
    assert " ".join(ours.split()) == " ".join(theirs.split())
    if "dtype=" not in theirs:  # same length of names: the same text
        assert ours == theirs


def test_seed_004_csc_transpose_equals_csr():
    ci, pi, v = tl.tensor([0, 2, 4]), tl.tensor([0, 1, 0, 1]), tl.tensor([1, 2, 3, 4])
    csr = tl.sparse_compressed_tensor(ci, pi, v, layout=tl.sparse_csr)
    csc = tl.sparse_compressed_tensor(ci, pi, v, layout=tl.sparse_csc)
    assert bool((csr.transpose(0, 1).to_dense() == csc.to_dense()).all())


@pytest.mark.parametrize("lay", LAYOUTS)
def test_attribute_errors(lay):
    rng = np.random.default_rng(3)
    t, ci, pi, v = random_compressed(rng, lay)
    b = build(tl, lay, ci, pi, v, tuple(t.shape))
    for n in ("crow_indices", "col_indices", "ccol_indices", "row_indices", "indices", "is_coalesced", "coalesce",
              "cos", "exp"):
        et, el = outcome(getattr(t, n)), outcome(getattr(b, n))
        if isinstance(et, tuple):
            assert el == et
        else:
            np.testing.assert_array_equal(el.numpy(), et.numpy())
    assert outcome(lambda: tl.cos(b)) == outcome(lambda: torch.cos(t))
    assert outcome(b.numpy) == outcome(t.numpy)
    assert b.dense_dim() == 0 and b.sparse_dim() == 2


@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("batch,dense", [((), ()), ((2,), (2,))])
def test_copies_and_casts(lay, batch, dense):
    rng = np.random.default_rng(5)
    t, ci, pi, v = random_compressed(rng, lay, batch, dense, idx=torch.int32)
    t = build(torch, lay, ci, pi, v, tuple(t.shape))
    b = build(tl, lay, ci, pi, v, tuple(t.shape))
    c = b.clone()
    same(t, c)
    assert c.values().data_ptr() != b.values().data_ptr()
    d = b.detach()
    assert d.values().data_ptr() == b.values().data_ptr()
    same(t.to(torch.float32), b.to(tl.float32))
    same(t.to(torch.float32), b.float())
    assert b.to(tl.float64) is b
    z = b.clone()
    assert z.zero_() is z
    same(t.clone().zero_(), z)
    z.copy_(b)
    same(t, z)
    assert outcome(lambda: c.copy_(b.to_dense())) == outcome(lambda: t.clone().copy_(t.to_dense()))
    r = b.clone()
    r.sin_()
    same(t.clone().sin_(), r)


@pytest.mark.parametrize("lay", LAYOUTS)
def test_pickle_and_deepcopy(lay):
    import copy
    import pickle
    rng = np.random.default_rng(13)
    t, ci, pi, v = random_compressed(rng, lay, (2,), (), idx=torch.int32)
    t = build(torch, lay, ci, pi, v, tuple(t.shape))
    b = build(tl, lay, ci, pi, v, tuple(t.shape))
    same(t, pickle.loads(pickle.dumps(b)))
    c = copy.deepcopy(b)
    same(t, c)
    assert c.values().data_ptr() != b.values().data_ptr()


def test_copy_layout_mismatch():
    a = tl.tensor([[1., 0], [0, 2]])
    ta = torch.tensor([[1., 0], [0, 2]])
    assert outcome(lambda: a.to_sparse_csr().copy_(a.to_sparse_csc())) == \
        outcome(lambda: ta.to_sparse_csr().copy_(ta.to_sparse_csc()))


@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("batch", [(), (2,)])
def test_transpose(lay, batch):
    rng = np.random.default_rng(11)
    t, ci, pi, v = random_compressed(rng, lay, batch)
    b = build(tl, lay, ci, pi, v, tuple(t.shape))
    n = len(batch)
    same(t.transpose(n, n + 1), b.transpose(n, n + 1))
    same(t.transpose(-1, -2), b.transpose(-1, -2))
    if not batch:
        same(t.t(), b.t())
        same(t.t().t(), b.t().t())


def test_select_batch():
    rng = np.random.default_rng(2)
    t, ci, pi, v = random_compressed(rng, "csr", (3,))
    b = build(tl, "csr", ci, pi, v, tuple(t.shape))
    for i in (0, 2, -1):
        same(t.select(0, i), b.select(0, i))


# ---- conversions ----------------------------------------------------------------------------

ALL = ["strided", "coo"] + LAYOUTS


def convert(m, x, to, blocks, dense_dim=0):
    """Conversion of x (a tensor of library m) to layout `to` through the layout methods
    (dense_dim: the trailing dense dims, passed when x is strided)."""
    kw = {"dense_dim": dense_dim} if x.layout == m.strided else {}
    if to == "strided":
        return x.to_dense()
    if to == "coo":
        return x.to_sparse_coo() if x.layout != m.strided else x.to_sparse(x.dim() - dense_dim)
    if to in ("csr", "csc"):
        return getattr(x, "to_sparse_" + to)(**kw)
    return getattr(x, "to_sparse_" + to)(blocks, **kw)


def to_layout(m, d, lay, blocks, dense_dim=0):
    """Tensor of library m in layout `lay` from strided d."""
    if lay == "strided":
        return d
    if lay == "coo":
        return d.to_sparse(d.dim() - dense_dim)
    if lay in ("csr", "csc"):
        return getattr(d, "to_sparse_" + lay)(dense_dim=dense_dim)
    return getattr(d, "to_sparse_" + lay)(blocks, dense_dim=dense_dim)


def same_any(a, b):
    """torch tensor a and tensorlib tensor b agree (any layout)."""
    la = str(a.layout).split(".")[1]
    assert la == str(b.layout).split(".")[1]
    if la == "strided":
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    elif la == "sparse_coo":
        assert a.is_coalesced() == b.is_coalesced()
        np.testing.assert_array_equal(a._indices().numpy(), b._indices().numpy())
        np.testing.assert_array_equal(a._values().numpy(), b._values().numpy())
        assert tuple(a.shape) == tuple(b.shape)
    else:
        same(a, b)


@pytest.mark.parametrize("src", ALL)
@pytest.mark.parametrize("dst", ALL)
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.complex64])
def test_all_pairs(src, dst, dtype):
    rng = np.random.default_rng(17)
    d = random_dense(rng, (4, 6), 0.5, dtype)
    d[0, 0] = 0
    d[1, 1] = 1  # block (0, 0) of (2, 2) blocks holds a stored zero
    x_t = to_layout(torch, d, src, (2, 2))
    x_l = to_layout(tl, tt(d), src, (2, 2))
    same_any(x_t, x_l)
    et = outcome(lambda: convert(torch, x_t, dst, (2, 2)))
    r = convert(tl, x_l, dst, (2, 2))
    if isinstance(et, tuple):  # torch refuses the pair: we convert, and the elements agree
        assert str(r.layout).split(".")[1] == ("sparse_" + dst if dst != "strided" else "strided")
        np.testing.assert_array_equal(r.to_dense().numpy(), d.numpy())
    else:
        same_any(et, r)


@pytest.mark.parametrize("src", ALL)
@pytest.mark.parametrize("dst", LAYOUTS + ["coo", "strided"])
@pytest.mark.parametrize("batch,dense", [((2,), ()), ((), (2,)), ((2,), (3,))])
def test_pairs_with_batch_and_dense_dims(src, dst, batch, dense):
    if src == "coo" and batch:
        return  # a COO tensor has no batch dims: its sparse dims become them (torch refuses)
    rng = np.random.default_rng(23)
    t, ci, pi, v = random_compressed(rng, "bsr", batch, dense, blocks=(2, 2), nblk=(2, 3))
    d = t.to_dense()
    x_t = to_layout(torch, d, src, (2, 2), len(dense))
    x_l = to_layout(tl, tt(d), src, (2, 2), len(dense))
    et = outcome(lambda: convert(torch, x_t, dst, (2, 2), len(dense)))
    el = convert(tl, x_l, dst, (2, 2), len(dense))
    if isinstance(et, tuple):  # torch refuses (BSR <-> CSR families): we convert
        np.testing.assert_array_equal(el.to_dense().numpy(), d.numpy())
    else:
        same_any(et, el)


@pytest.mark.parametrize("lay", LAYOUTS)
def test_to_sparse_layout_argument(lay):
    d = torch.tensor([[0., 1, 0, 0], [2, 0, 0, 3], [0, 0, 0, 0], [4, 5, 0, 6]])
    kw = {"blocksize": (2, 2)} if lay in ("bsr", "bsc") else {}
    same(d.to_sparse(layout=TORCH_LAYOUT[lay], **kw), tt(d).to_sparse(layout=TL_LAYOUT[lay], **kw))
    same(d.to_sparse_coo().to_sparse(layout=TORCH_LAYOUT[lay], **kw),
         tt(d).to_sparse_coo().to_sparse(layout=TL_LAYOUT[lay], **kw))
    s = tt(d).to_sparse(layout=TL_LAYOUT[lay], **kw)
    same_any(d.to_sparse(layout=TORCH_LAYOUT[lay], **kw).to_sparse(layout=torch.sparse_coo),
             s.to_sparse(layout=tl.sparse_coo))
    assert s.to_sparse(layout=TL_LAYOUT[lay], **kw) is s


@pytest.mark.parametrize("call", [
    lambda m, d: d.to_sparse(layout=m.sparse_bsr),
    lambda m, d: d.to_sparse(layout=m.sparse_bsc),
    lambda m, d: d.to_sparse(layout=m.sparse_bsr, blocksize=(4, 4)),
    lambda m, d: d.to_sparse(layout=m.sparse_csr, blocksize=(1, 1)),
    lambda m, d: d.to_sparse_csr(dense_dim=3),
    lambda m, d: d.to_sparse_csr().to_sparse(layout=m.sparse_bsr),
    lambda m, d: d.to_sparse().to_sparse(layout=m.sparse_bsc),
    lambda m, d: m.stack([d, d * 0]).to_sparse_csr(),
    lambda m, d: d.to_sparse_bsr((4, 4)),
    lambda m, d: d.to_sparse(layout=m.sparse_csr, dense_dim=3),
    lambda m, d: m.zeros(0, 2, 2).to_sparse(layout=m.sparse_csc),
    lambda m, d: d.to_sparse_coo().to_sparse_csr(dense_dim=1),
    lambda m, d: d.to_sparse_csr().to_sparse_csr(dense_dim=1),
])
def test_conversion_errors(call):
    d = torch.tensor([[0, 0, 1, 2, 3, 0], [4, 5, 0, 6, 0, 0]])
    assert outcome(lambda: call(tl, tt(d))) == outcome(lambda: call(torch, d))


@pytest.mark.parametrize("lay", LAYOUTS)
@pytest.mark.parametrize("idx", [np.int32, np.int64])
def test_scipy_round_trip(lay, idx):
    import scipy.sparse
    rng = np.random.default_rng(29)
    t, ci, pi, v = random_compressed(rng, lay, blocks=(2, 3), nblk=(3, 4))
    b = build(tl, lay, torch.from_numpy(ci.numpy().astype(idx)), torch.from_numpy(pi.numpy().astype(idx)), v,
              tuple(t.shape))
    m = b.to_scipy()
    want = {"csr": scipy.sparse.csr_array, "csc": scipy.sparse.csc_array, "bsr": scipy.sparse.bsr_array,
            "bsc": scipy.sparse.bsr_array}[lay]
    assert isinstance(m, want)
    np.testing.assert_array_equal(m.toarray(), t.to_dense().numpy())
    back = tl.sparse.from_scipy(m)
    expect = "bsr" if lay == "bsc" else lay
    assert back.layout == TL_LAYOUT[expect]
    np.testing.assert_array_equal(back.to_dense().numpy(), t.to_dense().numpy())
    if lay != "bsc":  # the same components
        for n in names(lay):
            np.testing.assert_array_equal(getattr(back, n)().numpy(), getattr(b, n)().numpy())
    coo = tl.sparse.from_scipy(scipy.sparse.coo_array(m.toarray()))
    assert coo.layout == tl.sparse_coo


@pytest.mark.parametrize("threads", [1, 2])
def test_coo_to_csr_large_coalesced_both_paths(threads):
    """Coalesced COO -> CSR above the threaded path's size (chunks starting at row
    boundaries, empty rows filled by the running max) and at one thread (the count loop):
    torch's components; out-of-range indices and a coalesced flag on unsorted rows (given
    with check_invariants=False) are caught or handled on both."""
    old = tl.get_num_threads()
    tl.set_num_threads(threads)
    try:
        rng = np.random.default_rng(threads)
        for rows, cols, nnz in [(300_000, 1000, 1_500_000), (3_000_000, 7, 700_000), (5, 400_000, 1_200_000)]:
            d = np.unique(rng.integers(0, rows * cols, size=nnz))
            ind, v = np.stack([d // cols, d % cols]), rng.standard_normal(d.size)
            t = torch.sparse_coo_tensor(torch.from_numpy(ind), torch.from_numpy(v), (rows, cols)).coalesce()
            x = tl.sparse_coo_tensor(tl.from_numpy(ind), tl.from_numpy(v), (rows, cols)).coalesce()
            a, b = t.to_sparse_csr(), x.to_sparse_csr()
            for n in ("crow_indices", "col_indices", "values"):
                np.testing.assert_array_equal(getattr(a, n)().numpy(), getattr(b, n)().numpy())
            for k, (r, c) in enumerate([(rows, 0), (0, cols), (-1, 0), (0, -1)]):
                bad = ind.copy()
                bad[:, (k * 7919) % d.size] = (r, c)
                y = tl.sparse_coo_tensor(tl.from_numpy(bad), tl.from_numpy(v), (rows, cols), is_coalesced=True,
                                         check_invariants=False)
                with pytest.raises(RuntimeError, match="size is inconsistent with indices"):
                    y.to_sparse_csr()
            perm = rng.permutation(d.size)[: d.size // 3]
            shuffled = ind.copy()
            shuffled[:, np.sort(perm)] = ind[:, perm]  # rows out of order, flag still set
            y = tl.sparse_coo_tensor(tl.from_numpy(shuffled), tl.from_numpy(v), (rows, cols), is_coalesced=True,
                                     check_invariants=False)
            z = torch.sparse_coo_tensor(torch.from_numpy(shuffled), torch.from_numpy(v), (rows, cols)).coalesce()
            got = y.to_sparse_csr()
            np.testing.assert_array_equal(got.crow_indices().numpy(), z.to_sparse_csr().crow_indices().numpy())
            if threads > 1:  # the chunked pass sees the order and scatters; one thread trusts the flag as torch
                crow, col = got.crow_indices().numpy(), got.col_indices().numpy()
                key = np.repeat(np.arange(rows), np.diff(crow)) * cols + col
                np.testing.assert_array_equal(got.values().numpy()[np.argsort(key, kind="stable")], z.values().numpy())
    finally:
        tl.set_num_threads(old)
