"""Sparse rows: COO (coalesce, to_dense, dense -> COO, the default validation cost) and
CSR (SpMV, SpMM, conversions). The "numpy" column holds scipy.sparse (the sparse peer NumPy
lacks); it is skipped when SciPy is missing."""
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


def _construct(validated):
    """Building a 1 M-entry COO tensor from components (shuffled, with duplicates):
    tensorlib's default validates; check_invariants=False skips it (torch: the same flag,
    off by default). The numpy column: scipy.sparse.coo_array, which checks the indices."""
    def factory():
        rng = np.random.default_rng(2)
        i = rng.integers(0, N_DENSE, size=(2, 1_000_000))
        v = rng.standard_normal(1_000_000).astype(np.float32)
        ind, val = tl.from_numpy(i), tl.from_numpy(v)
        ti, tv = torch and torch.from_numpy(i), torch and torch.from_numpy(v)
        kw = {} if validated else {"check_invariants": False}
        return {"tensorlib": lambda: tl.sparse_coo_tensor(ind, val, (N_DENSE, N_DENSE), **kw),
                "numpy": (lambda: sp.coo_array((v, (i[0], i[1])), shape=(N_DENSE, N_DENSE))) if sp and validated
                else None,
                "torch": torch and (lambda: torch.sparse_coo_tensor(ti, tv, (N_DENSE, N_DENSE),
                                                                    check_invariants=validated))}
    return factory


def _random_csr(rows, nnz, dtype, seed=3):
    """A CSR matrix of `rows` x `rows` with about nnz entries (uniform columns), as a SciPy
    csr_array and the same components in tensorlib and torch (int32 indices)."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(nnz / rows, size=rows)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    cols = rng.integers(0, rows, size=int(indptr[-1])).astype(np.int32)
    vals = rng.standard_normal(int(indptr[-1])).astype(dtype)
    m = sp.csr_array((vals, cols, indptr), shape=(rows, rows))
    m.sort_indices()
    m.sum_duplicates()
    x = tl.sparse_csr_tensor(tl.from_numpy(m.indptr), tl.from_numpy(m.indices), tl.from_numpy(m.data),
                             (rows, rows), check_invariants=False)
    t = torch and torch.sparse_csr_tensor(torch.from_numpy(m.indptr), torch.from_numpy(m.indices),
                                          torch.from_numpy(m.data), (rows, rows))
    return m, x, t


def _spmv(rows, nnz, dtype):
    def factory():
        m, x, t = _random_csr(rows, nnz, dtype)
        v = np.random.default_rng(4).standard_normal(rows).astype(dtype)
        vx, vt = tl.from_numpy(v), torch and torch.from_numpy(v)
        return {"tensorlib": lambda: x @ vx, "numpy": lambda: m @ v, "torch": torch and (lambda: t @ vt)}
    return factory


def _spmm32():
    m, x, t = _random_csr(100_000, 1_000_000, np.float32)
    b = np.random.default_rng(5).standard_normal((100_000, 32)).astype(np.float32)
    bx, bt = tl.from_numpy(b), torch and torch.from_numpy(b)
    return {"tensorlib": lambda: x @ bx, "numpy": lambda: m @ b, "torch": torch and (lambda: t @ bt)}


def _to_csr():
    a = _dense_1pct()
    x = tl.from_numpy(a)
    t = torch and torch.from_numpy(a)
    return {"tensorlib": lambda: x.to_sparse_csr(), "numpy": sp and (lambda: sp.csr_array(a)),
            "torch": torch and (lambda: t.to_sparse_csr())}


def _csr_to_dense():
    a = _dense_1pct()
    x = tl.from_numpy(a).to_sparse_csr()
    t = torch and torch.from_numpy(a).to_sparse_csr()
    m = sp.csr_array(a)
    return {"tensorlib": lambda: x.to_dense(), "numpy": lambda: m.toarray(), "torch": torch and (lambda: t.to_dense())}


def _csr_to_csc():
    m, x, t = _random_csr(1_000_000, 10_000_000, np.float32)
    return {"tensorlib": lambda: x.to_sparse_csc(), "numpy": lambda: m.tocsc(),
            "torch": torch and (lambda: t.to_sparse_csc())}


def _csc_to_csr():
    m, x, t = _random_csr(1_000_000, 10_000_000, np.float32)
    mc, xc, tc = m.tocsc(), x.to_sparse_csc(), torch and t.to_sparse_csc()
    return {"tensorlib": lambda: xc.to_sparse_csr(), "numpy": lambda: mc.tocsr(),
            "torch": torch and (lambda: tc.to_sparse_csr())}


def _coo_1e7():
    """The 1e7-entry matrix of the CSR rows as a coalesced COO tensor (int64 indices)."""
    m, x, t = _random_csr(1_000_000, 10_000_000, np.float32)
    return m.tocoo(), x.to_sparse_coo(), torch and t.to_sparse_coo()


def _coo_to_csr():
    mo, xo, to = _coo_1e7()
    return {"tensorlib": lambda: xo.to_sparse_csr(), "numpy": lambda: mo.tocsr(),
            "torch": torch and (lambda: to.to_sparse_csr())}


def _csr_to_coo():
    m, x, t = _random_csr(1_000_000, 10_000_000, np.float32)
    return {"tensorlib": lambda: x.to_sparse_coo(), "numpy": lambda: m.tocoo(),
            "torch": torch and (lambda: t.to_sparse_coo())}


def _semi(n, pruned=False):
    """2:4 S @ B against the dense product of the same matrices (float32, n x n). The kept
    positions are the same two in every group of four, or (pruned) the two largest magnitudes
    of each group, as magnitude pruning leaves them: every row then reads other B rows."""
    def factory():
        rng = np.random.default_rng(6)
        a = rng.standard_normal((n, n)).astype(np.float32)
        groups = a.reshape(n, n // 4, 4)
        if pruned:
            np.put_along_axis(groups, np.argsort(np.abs(groups), axis=2)[:, :, :2], 0, axis=2)
        else:
            groups[:, :, rng.permutation(4)[:2]] = 0
        b = rng.standard_normal((n, n)).astype(np.float32)
        x, y = tl.from_numpy(a), tl.from_numpy(b)
        s = tl.sparse.to_sparse_semi_structured(x)
        t, u = torch and torch.from_numpy(a), torch and torch.from_numpy(b)
        return {"tensorlib": lambda: s @ y, "numpy": lambda: a @ b, "torch": torch and (lambda: t @ u)}
    return factory
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
def _mul_ss(coalesced=True):
    def factory():
        (x, t, m), (y, u, n) = _pair_1m(coalesced)
        return {"tensorlib": lambda: x * y, "numpy": sp and (lambda: m.multiply(n)), "torch": torch and (lambda: t * u)}
    return factory
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
    ("sparse_coo_tensor 1M, validated (tensorlib default; torch check_invariants=True; numpy column: scipy "
     "coo_array)", _construct(True)),
    ("sparse_coo_tensor 1M, check_invariants=False", _construct(False)),
    ("CSR SpMV float32 1e6 nnz, 1e5 rows (numpy column: scipy)", _spmv(100_000, 1_000_000, np.float32)),
    ("CSR SpMV float64 1e6 nnz, 1e5 rows (numpy column: scipy)", _spmv(100_000, 1_000_000, np.float64)),
    ("CSR SpMV float32 1e7 nnz, 1e6 rows (numpy column: scipy)", _spmv(1_000_000, 10_000_000, np.float32)),
    ("CSR SpMV float64 1e7 nnz, 1e6 rows (numpy column: scipy)", _spmv(1_000_000, 10_000_000, np.float64)),
    ("CSR @ dense 32 cols float32, 1e6 nnz (numpy column: scipy)", _spmm32),
    ("dense.to_sparse_csr 4096^2 at 1% (numpy column: scipy csr_array)", _to_csr),
    ("CSR.to_dense 4096^2 at 1% (numpy column: scipy toarray)", _csr_to_dense),
    ("CSR -> CSC 1e7 nnz (numpy column: scipy tocsc)", _csr_to_csc),
    ("CSC -> CSR 1e7 nnz (numpy column: scipy tocsr)", _csc_to_csr),
    ("COO -> CSR 1e7 nnz, coalesced (numpy column: scipy coo tocsr)", _coo_to_csr),
    ("CSR -> COO 1e7 nnz (numpy column: scipy tocoo)", _csr_to_coo),
    ("2:4 semi-structured S @ B 512^2 float32 (numpy/torch: the dense product)", _semi(512)),
    ("2:4 semi-structured S @ B 2048^2 float32 (numpy/torch: the dense product)", _semi(2048)),
    ("2:4 semi-structured S @ B 4096^2 float32 (numpy/torch: the dense product)", _semi(4096)),
    ("2:4 semi-structured S @ B 2048^2 float32, magnitude-pruned pattern (numpy/torch: the dense product)",
     _semi(2048, pruned=True)),
    ("2:4 semi-structured S @ B 4096^2 float32, magnitude-pruned pattern (numpy/torch: the dense product)",
     _semi(4096, pruned=True)),
    ("COO * COO 1e6 each, coalesced (numpy column: scipy csr multiply)", _mul_ss()),
    ("COO * COO 1e6 each, uncoalesced shuffled (numpy column: scipy csr multiply)", _mul_ss(False)),
    ("COO + COO 1e6 each, coalesced (numpy column: scipy csr +)", _add_ss),
    ("COO sum(0) 1e6 uncoalesced (numpy column: scipy csr sum)", _sum_dim),
    ("COO @ dense 1e6 x 32 (numpy column: scipy csr @)", _spmm),
    ("COO index_select(0, 1024 rows) of 1e6 (numpy column: scipy csr rows)", _index_select),
]
