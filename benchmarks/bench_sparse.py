"""Sparse COO rows: coalesce, to_dense, dense -> COO and the default validation cost.
The "numpy" column holds scipy.sparse (the COO peer NumPy lacks); it is skipped when SciPy
is missing."""
from harness import libs

np, torch, tl = libs()
try:
    import scipy.sparse as sp
except ImportError:  # scipy is optional
    sp = None

N_DENSE = 4096


def _coalesce():
    """1.1 M entries in shuffled order, ~10% duplicates, over a 4096 x 4096 matrix."""
    rng = np.random.default_rng(0)
    n = 1_000_000
    lin = rng.choice(N_DENSE * N_DENSE, size=n, replace=False)
    lin = np.concatenate([lin, rng.choice(lin, size=n // 10)])
    rng.shuffle(lin)
    ind = np.stack([lin // N_DENSE, lin % N_DENSE]).astype(np.int64)
    val = rng.standard_normal(len(lin)).astype(np.float32)
    x = tl.sparse_coo_tensor(tl.from_numpy(ind), tl.from_numpy(val), (N_DENSE, N_DENSE))
    t = torch and torch.sparse_coo_tensor(torch.from_numpy(ind), torch.from_numpy(val), (N_DENSE, N_DENSE))

    def scipy_sum_duplicates():
        m = sp.coo_array((val, (ind[0], ind[1])), shape=(N_DENSE, N_DENSE))
        m.sum_duplicates()
        return m
    return {"tensorlib": lambda: x._coalesce(), "numpy": sp and scipy_sum_duplicates,
            "torch": torch and (lambda: t.coalesce())}


def _dense_1pct():
    rng = np.random.default_rng(1)
    a = np.zeros(N_DENSE * N_DENSE, np.float32)
    a[rng.choice(a.size, size=a.size // 100, replace=False)] = 1.0 + rng.random(a.size // 100, dtype=np.float32)
    return a.reshape(N_DENSE, N_DENSE)


def _to_dense():
    a = _dense_1pct()
    x = tl.from_numpy(a).to_sparse()
    t = torch and torch.from_numpy(a).to_sparse()
    m = sp and sp.coo_array(a)
    return {"tensorlib": lambda: x.to_dense(), "numpy": m is not None and (lambda: m.toarray()) or None,
            "torch": torch and (lambda: t.to_dense())}


def _to_sparse():
    a = _dense_1pct()
    x = tl.from_numpy(a)
    t = torch and torch.from_numpy(a)
    return {"tensorlib": lambda: x.to_sparse(), "numpy": sp and (lambda: sp.coo_array(a)),
            "torch": torch and (lambda: t.to_sparse())}


def _validation():
    """Building a 1 M-entry COO tensor from components: validated (the default) vs not."""
    rng = np.random.default_rng(2)
    ind = tl.from_numpy(rng.integers(0, N_DENSE, size=(2, 1_000_000)))
    val = tl.from_numpy(rng.standard_normal(1_000_000).astype(np.float32))
    return {"tensorlib": lambda: tl.sparse_coo_tensor(ind, val, (N_DENSE, N_DENSE)),
            "numpy": None,
            "torch": lambda: tl.sparse_coo_tensor(ind, val, (N_DENSE, N_DENSE), check_invariants=False)}


def _pair_1m(coalesced=True):
    """Two 4096 x 4096 COO tensors of 1e6 entries each (~half of them shared), float32."""
    rng = np.random.default_rng(3)
    base = rng.choice(N_DENSE * N_DENSE, size=1_500_000, replace=False)
    out = []
    for part in (base[:1_000_000], base[500_000:]):
        lin = np.sort(part) if coalesced else rng.permutation(part)
        ind = np.stack([lin // N_DENSE, lin % N_DENSE]).astype(np.int64)
        val = rng.standard_normal(len(lin)).astype(np.float32)
        x = tl.sparse_coo_tensor(tl.from_numpy(ind), tl.from_numpy(val), (N_DENSE, N_DENSE), is_coalesced=coalesced)
        t = torch and torch.sparse_coo_tensor(torch.from_numpy(ind), torch.from_numpy(val), (N_DENSE, N_DENSE),
                                              is_coalesced=coalesced)
        m = sp and sp.coo_array((val, (ind[0], ind[1])), shape=(N_DENSE, N_DENSE)).tocsr()
        out.append((x, t, m))
    return out


def _mul_ss():
    (x, t, m), (y, u, n) = _pair_1m()
    return {"tensorlib": lambda: x * y, "numpy": sp and (lambda: m.multiply(n)), "torch": torch and (lambda: t * u)}


def _add_ss():
    (x, t, m), (y, u, n) = _pair_1m()
    return {"tensorlib": lambda: x + y, "numpy": sp and (lambda: m + n), "torch": torch and (lambda: t + u)}


def _sum_dim():
    (x, t, m), _ = _pair_1m(coalesced=False)
    return {"tensorlib": lambda: x.sum(0), "numpy": sp and (lambda: m.sum(0)), "torch": torch and (lambda: t.sum(0))}


def _spmm():
    (x, t, m), _ = _pair_1m()
    d = np.random.default_rng(4).standard_normal((N_DENSE, 32)).astype(np.float32)
    dl, dt = tl.from_numpy(d), torch and torch.from_numpy(d)
    return {"tensorlib": lambda: x @ dl, "numpy": sp and (lambda: m @ d), "torch": torch and (lambda: t @ dt)}


def _index_select():
    (x, t, m), _ = _pair_1m()
    p = np.random.default_rng(5).integers(0, N_DENSE, size=1024)
    pl, pt = tl.from_numpy(p), torch and torch.from_numpy(p)
    return {"tensorlib": lambda: x.index_select(0, pl), "numpy": sp and (lambda: m[p]),
            "torch": torch and (lambda: t.index_select(0, pt))}


ROWS = [
    ("coalesce 1.1M shuffled, 10% duplicates (numpy column: scipy sum_duplicates)", _coalesce),
    ("to_dense 4096^2 at 1% (numpy column: scipy toarray)", _to_dense),
    ("dense.to_sparse 4096^2 at 1% (numpy column: scipy coo_array)", _to_sparse),
    ("sparse_coo_tensor 1M validated (torch column: tensorlib check_invariants=False)", _validation),
    ("COO * COO 1e6 each, coalesced (numpy column: scipy csr multiply)", _mul_ss),
    ("COO + COO 1e6 each, coalesced (numpy column: scipy csr +)", _add_ss),
    ("COO sum(0) 1e6 uncoalesced (numpy column: scipy csr sum)", _sum_dim),
    ("COO @ dense 1e6 x 32 (numpy column: scipy csr @)", _spmm),
    ("COO index_select(0, 1024 rows) of 1e6 (numpy column: scipy csr rows)", _index_select),
]
