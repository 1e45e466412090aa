"""tensorlib.linalg's LAPACK-backed functions against torch 2.13 on a grid of dtypes, batch
shapes (including empty matrices and empty batches) and layouts (non-contiguous views).
Where a factorization is unique the factors are compared with torch's; where it is unique
only up to signs or phases (QR, eigenvectors, singular vectors) the test checks the
reconstruction, orthogonality and the unique invariants instead."""
import math

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

# torch itself warns on its deprecated spellings (torch.cholesky) and complex32; not under test
pytestmark = pytest.mark.filterwarnings("ignore:.*(deprecated|ComplexHalf).*:UserWarning")

DTYPES = ["float32", "float64", "complex64", "complex128"]
SHAPES = [(3, 3), (2, 4, 4), (2, 1, 5, 5), (0, 0), (0, 3, 3), (1, 1)]


def _tol(dt):
    return 2e-3 if dt in ("float32", "complex64") else 1e-9


def _rand(shape, dt, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


def _wellcond(shape, dt, seed=0, layout="contig"):
    """A well-conditioned batch (random + n I), as (numpy array, tensorlib view, torch view)
    with the requested layout: contiguous, transposed (column-major) or every other column."""
    n = shape[-1]
    a = _rand(shape, dt, seed) + (n * np.eye(n) if shape[-1] == shape[-2] else 0)
    a = a.astype(dt)
    if layout == "transposed":
        base = np.ascontiguousarray(np.swapaxes(a, -1, -2))
        return a, tl.tensor(base).mT, torch.from_numpy(base).mT
    if layout == "strided":
        base = np.zeros(shape[:-1] + (2 * shape[-1],), dtype=dt)
        base[..., ::2] = a
        return a, tl.tensor(base)[..., ::2], torch.from_numpy(base)[..., ::2]
    return a, tl.tensor(a), torch.from_numpy(a.copy())


def _spd(shape, dt, seed=0):
    a = _rand(shape, dt, seed)
    s = a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])
    s = s.astype(dt)
    return s, tl.tensor(s), torch.from_numpy(s.copy())


def _np(x):
    if isinstance(x, torch.Tensor):
        return x.resolve_conj().numpy()
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def _close(r, e, dt, scale=1.0):
    assert tuple(r.shape) == tuple(e.shape), (r.shape, e.shape)
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1], (r.dtype, e.dtype)
    t = _tol(dt) * scale
    np.testing.assert_allclose(_np(r), _np(e), rtol=t, atol=t)


def _ct(x):
    return x.mH


LAYOUTS = ["contig", "transposed", "strided"]


# ---- values that are unique: compared with torch directly ----

@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_det_slogdet_inv(dt, shape, layout):
    _, a, ta = _wellcond(shape, dt, layout=layout)
    _close(tl.linalg.det(a), torch.linalg.det(ta), dt, 10)
    s, l = tl.linalg.slogdet(a)
    es, el = torch.linalg.slogdet(ta)
    _close(s, es, dt)
    _close(l, el, dt)
    _close(tl.linalg.inv(a), torch.linalg.inv(ta), dt)
    _close(tl.inverse(a), torch.inverse(ta), dt)
    _close(a.det(), ta.det(), dt, 10)
    _close(tl.logdet(a), torch.logdet(ta), dt, 10)


@pytest.mark.parametrize("dt", DTYPES)
def test_det_of_singular_and_permuted(dt):
    for m in ([[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]], [[0.0, 1.0, 0], [0, 0, 1], [1, 0, 0]]):
        a = np.array(m, dtype=dt)
        _close(tl.linalg.det(tl.tensor(a)), torch.linalg.det(torch.from_numpy(a)), dt)
        s, l = tl.linalg.slogdet(tl.tensor(a))
        es, el = torch.linalg.slogdet(torch.from_numpy(a))
        _close(s, es, dt)
        assert np.array_equal(np.isinf(_np(l)), np.isinf(el.numpy()))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ashape,bshape", [((3, 3), (3, 2)), ((2, 4, 4), (2, 4, 1)), ((2, 4, 4), (4, 3)),
                                           ((4, 4), (2, 4, 3)), ((3, 3), (3,)), ((2, 3, 3), (2, 3)), ((0, 0), (0, 2)),
                                           ((0, 3, 3), (0, 3, 2))])
def test_solve(dt, layout, ashape, bshape):
    _, a, ta = _wellcond(ashape, dt, layout=layout)
    b = _rand(bshape, dt, 1)
    _close(tl.linalg.solve(a, tl.tensor(b)), torch.linalg.solve(ta, torch.from_numpy(b)), dt)
    if len(bshape) == len(ashape) and bshape[-1] == ashape[-1]:
        bt = np.ascontiguousarray(np.swapaxes(b, -1, -2))
        _close(tl.linalg.solve(a, tl.tensor(bt), left=False), torch.linalg.solve(ta, torch.from_numpy(bt), left=False),
               dt)
    X, info = tl.linalg.solve_ex(a, tl.tensor(b))
    assert info.dtype == tl.int32 and not info.numpy().any()


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_cholesky_and_eigvalsh(dt, shape):
    _, s, ts = _spd(shape, dt)
    _close(tl.linalg.cholesky(s), torch.linalg.cholesky(ts), dt)
    _close(tl.linalg.cholesky(s, upper=True), torch.linalg.cholesky(ts, upper=True), dt)
    _close(tl.cholesky(s), torch.cholesky(ts), dt)
    _close(tl.linalg.eigvalsh(s), torch.linalg.eigvalsh(ts), dt, 10)
    _close(tl.linalg.eigvalsh(s, "U"), torch.linalg.eigvalsh(ts, "U"), dt, 10)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES + [(2, 3, 5), (5, 2)])
@pytest.mark.parametrize("layout", ["contig", "strided"])
def test_lu_family(dt, shape, layout):
    _, a, ta = _wellcond(shape, dt, layout=layout)
    LU, piv = tl.linalg.lu_factor(a)
    eLU, epiv = torch.linalg.lu_factor(ta)
    _close(LU, eLU, dt)
    np.testing.assert_array_equal(piv.numpy(), epiv.numpy())
    assert piv.dtype == tl.int32
    P, L, U = tl.linalg.lu(a)
    eP, eL, eU = torch.linalg.lu(ta)
    _close(P, eP, dt)
    _close(L, eL, dt)
    _close(U, eU, dt)
    if shape[-1] == shape[-2]:
        b = _rand(shape[:-1] + (2,), dt, 2)
        for adjoint in (False, True):
            _close(tl.linalg.lu_solve(LU, piv, tl.tensor(b), adjoint=adjoint),
                   torch.linalg.lu_solve(eLU, epiv, torch.from_numpy(b), adjoint=adjoint), dt)
        bl = _rand(shape[:-2] + (2, shape[-1]), dt, 3)
        _close(tl.linalg.lu_solve(LU, piv, tl.tensor(bl), left=False),
               torch.linalg.lu_solve(eLU, epiv, torch.from_numpy(bl), left=False), dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular(dt, upper, left, unit):
    _, a, ta = _wellcond((2, 4, 4), dt)
    b = _rand((2, 4, 3) if left else (2, 3, 4), dt, 4)
    _close(tl.linalg.solve_triangular(a, tl.tensor(b), upper=upper, left=left, unitriangular=unit),
           torch.linalg.solve_triangular(ta, torch.from_numpy(b), upper=upper, left=left, unitriangular=unit), dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (2, 3, 5), (0, 3), (0, 2, 2)])
def test_svdvals_pinv_rank_cond(dt, shape):
    _, a, ta = _wellcond(shape, dt)
    _close(tl.linalg.svdvals(a), torch.linalg.svdvals(ta), dt)
    _close(tl.linalg.pinv(a), torch.linalg.pinv(ta), dt, 10)
    _close(tl.pinverse(a), torch.pinverse(ta), dt, 10)
    np.testing.assert_array_equal(tl.linalg.matrix_rank(a).numpy(), torch.linalg.matrix_rank(ta).numpy())
    _close(tl.linalg.cond(a), torch.linalg.cond(ta), dt, 10)
    if shape[-1] == shape[-2]:
        for p in ("fro", "nuc", 1, -1, math.inf, -math.inf, -2):
            _close(tl.linalg.cond(a, p), torch.linalg.cond(ta, p), dt, 10)
        _, h, th = _spd(shape, dt)
        _close(tl.linalg.pinv(h, hermitian=True), torch.linalg.pinv(th, hermitian=True), dt, 10)
        np.testing.assert_array_equal(tl.linalg.matrix_rank(h, hermitian=True).numpy(),
                                      torch.linalg.matrix_rank(th, hermitian=True).numpy())


def test_rank_deficient_rank_pinv_cond():
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    assert tl.linalg.matrix_rank(tl.tensor(a)).item() == torch.linalg.matrix_rank(torch.from_numpy(a)).item() == 2
    assert tl.linalg.matrix_rank(tl.tensor(a), atol=10.0).item() == 0
    _close(tl.linalg.pinv(tl.tensor(a)), torch.linalg.pinv(torch.from_numpy(a)), "float64", 1e3)
    assert math.isinf(tl.linalg.cond(tl.tensor(a), 1).item())


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, -1, -2])
def test_matrix_power(dt, n):
    _, a, ta = _wellcond((2, 3, 3), dt)
    a, ta = a / 3, ta / 3
    _close(tl.linalg.matrix_power(a, n), torch.linalg.matrix_power(ta, n), dt, 10)
    _close(a.matrix_power(n), ta.matrix_power(n), dt, 10)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("scale", [0.01, 1.0, 30.0])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1), (0, 2, 2)])
def test_matrix_exp(dt, scale, shape):
    a = _rand(shape, dt) * scale / max(shape[-1], 1)
    r, e = tl.linalg.matrix_exp(tl.tensor(a)), torch.linalg.matrix_exp(torch.from_numpy(a))
    assert tuple(r.shape) == tuple(e.shape)
    rel = np.abs(r.numpy() - e.numpy()).max(initial=0) / max(np.abs(e.numpy()).max(initial=0), 1)
    assert rel < _tol(dt) * 10


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("ashape,bshape", [((5, 3), (5, 2)), ((2, 6, 4), (2, 6, 1)), ((3, 3), (3, 2)),
                                           ((2, 4, 3), (2, 4))])
def test_lstsq(dt, driver, ashape, bshape):
    a = _rand(ashape, dt)
    b = _rand(bshape, dt, 5)
    r = tl.linalg.lstsq(tl.tensor(a), tl.tensor(b), driver=driver)
    e = torch.linalg.lstsq(torch.from_numpy(a), torch.from_numpy(b), driver=driver)
    assert r._fields == ("solution", "residuals", "rank", "singular_values")
    for x, y in zip(r, e):
        if y.numel() or x.numel():
            _close(x, y, dt, 10)
        else:
            assert tuple(x.shape) == tuple(y.shape) and str(x.dtype).split(".")[-1] == str(y.dtype).split(".")[-1]


# ---- decompositions unique up to signs / phases: reconstructions and invariants ----

@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (2, 3, 5), (0, 3), (0, 2, 2), (3, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(dt, shape, mode):
    _, a, ta = _wellcond(shape, dt, layout="strided")
    Q, R = tl.linalg.qr(a, mode)
    eQ, eR = torch.linalg.qr(ta, mode)
    assert tuple(Q.shape) == tuple(eQ.shape) and tuple(R.shape) == tuple(eR.shape)
    _close(R.abs(), eR.abs(), dt)  # R's rows are unique up to a sign / phase
    if mode != "r":
        _close(Q @ R, ta, dt)
        k = Q.shape[-1]
        _close(_ct(Q) @ Q, torch.eye(k, dtype=eQ.dtype).expand(tuple(Q.shape[:-2]) + (k, k)), dt)
    if mode == "reduced":
        tq, tr = tl.qr(a)
        assert isinstance(tq, tl.Tensor) and type(tl.qr(a)).__name__ == "qr"


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(dt, shape, uplo):
    _, s, ts = _spd(shape, dt)
    w, V = tl.linalg.eigh(s, uplo)
    ew, eV = torch.linalg.eigh(ts, uplo)
    _close(w, ew, dt, 10)
    assert tuple(V.shape) == tuple(eV.shape)
    _close((V * w.unsqueeze(-2).to(s.dtype)) @ _ct(V), ts, dt, 10)
    n = shape[-1]
    _close(_ct(V) @ V, torch.eye(n, dtype=eV.dtype).expand(tuple(V.shape)), dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (2, 3, 5), (0, 3), (0, 2, 2), (1, 1)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(dt, shape, full):
    _, a, ta = _wellcond(shape, dt, layout="transposed" if len(shape) == 2 else "contig")
    U, S, Vh = tl.linalg.svd(a, full_matrices=full)
    eU, eS, eVh = torch.linalg.svd(ta, full_matrices=full)
    assert (tuple(U.shape), tuple(S.shape), tuple(Vh.shape)) == (tuple(eU.shape), tuple(eS.shape), tuple(eVh.shape))
    _close(S, eS, dt)
    k = min(shape[-2], shape[-1])
    _close((U[..., :, :k] * S.unsqueeze(-2).to(a.dtype)) @ Vh[..., :k, :], ta, dt)
    for M in (U, Vh.mH):  # orthonormal columns of U and rows of Vh
        n = M.shape[-1]
        _close(_ct(M) @ M, torch.eye(n, dtype=eU.dtype).expand(tuple(M.shape[:-2]) + (n, n)), dt)
    # torch.svd: V instead of Vh, reduced by default
    u, s, v = tl.svd(a)
    eu, es, ev = torch.svd(ta)
    assert tuple(v.shape) == tuple(ev.shape) and type(tl.svd(a))._fields == ("U", "S", "V")
    _close(s, es, dt)
    _close((u * s.unsqueeze(-2).to(a.dtype)) @ _ct(v), ta, dt)
    u0, s0, v0 = tl.svd(a, compute_uv=False)
    eu0, es0, ev0 = torch.svd(ta, compute_uv=False)
    _close(u0, eu0, dt)
    _close(v0, ev0, dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 5), (0, 0), (0, 3, 3), (1, 1)])
def test_eig(dt, shape):
    a = _rand(shape, dt, 7)
    w, V = tl.linalg.eig(tl.tensor(a))
    ew, eV = torch.linalg.eig(torch.from_numpy(a))
    assert str(w.dtype).split(".")[-1] == str(ew.dtype).split(".")[-1]
    assert tuple(V.shape) == tuple(eV.shape)
    ta = torch.from_numpy(a).to(eV.dtype)
    _close(ta @ torch.from_numpy(V.numpy()), torch.from_numpy(V.numpy()) * torch.from_numpy(w.numpy()).unsqueeze(-2),
           dt, 10)
    _close(V.abs().pow(2).sum(-2), torch.ones(tuple(V.shape[:-2]) + (V.shape[-1],), dtype=ew.real.dtype), dt)
    # eigenvalues as a set (geev's order is LAPACK's, as torch's, but compare sorted)
    key = lambda z: np.sort_complex(np.round(z, 3))  # noqa: E731
    np.testing.assert_allclose(key(tl.linalg.eigvals(tl.tensor(a)).numpy()), key(ew.numpy()), atol=_tol(dt) * 10)


def test_eig_real_conjugate_pairs():
    a = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    w, V = tl.linalg.eig(tl.tensor(a))
    ew, eV = torch.linalg.eig(torch.from_numpy(a))
    _close(w, ew, "float64")
    _close(V, eV, "float64")  # same LAPACK geev: the same normalization and order


# ---- errors: torch's types and messages ----

def _same_error(f_tl, f_torch, exc=RuntimeError):
    with pytest.raises(exc) as e:
        f_torch()
    with pytest.raises(exc) as r:
        f_tl()
    assert str(r.value) == str(e.value)
    return r.value, e.value


@pytest.mark.parametrize("batched", [False, True])
def test_singular_errors(batched):
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    a = np.stack([np.eye(2), sing]) if batched else sing
    A, tA = tl.tensor(a), torch.from_numpy(a)
    b = np.ones(a.shape[:-1])
    cases = [(lambda: tl.linalg.inv(A), lambda: torch.linalg.inv(tA)),
             (lambda: tl.inverse(A), lambda: torch.inverse(tA)),
             (lambda: tl.linalg.solve(A, tl.tensor(b)), lambda: torch.linalg.solve(tA, torch.from_numpy(b))),
             (lambda: tl.linalg.cholesky(-A), lambda: torch.linalg.cholesky(-tA)),
             (lambda: tl.linalg.lu_factor(A), lambda: torch.linalg.lu_factor(tA))]
    for f, g in cases:
        r, e = _same_error(f, g)
        assert isinstance(r, tl.linalg.LinAlgError) == isinstance(e, torch.linalg.LinAlgError)
    assert issubclass(tl.linalg.LinAlgError, RuntimeError)
    inv, info = tl.linalg.inv_ex(A)
    np.testing.assert_array_equal(info.numpy(), torch.linalg.inv_ex(tA).info.numpy())
    L, info = tl.linalg.cholesky_ex(-A)
    np.testing.assert_array_equal(info.numpy(), torch.linalg.cholesky_ex(-tA).info.numpy())


def test_nonfinite_errors():
    nan = np.full((2, 2), np.nan)
    _same_error(lambda: tl.linalg.eig(tl.tensor(nan)), lambda: torch.linalg.eig(torch.from_numpy(nan)))
    _same_error(lambda: tl.linalg.svd(tl.tensor(nan)), lambda: torch.linalg.svd(torch.from_numpy(nan)))


@pytest.mark.parametrize("fname", ["inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "svd", "svdvals", "qr",
                                   "eig", "matrix_exp", "pinv"])
@pytest.mark.parametrize("bad", ["long", "half", "nonsquare", "1d"])
def test_dtype_and_shape_errors(fname, bad):
    if bad == "nonsquare" and fname in ("svd", "svdvals", "qr", "pinv"):
        return
    a = {"long": torch.ones(2, 2, dtype=torch.long), "half": torch.ones(2, 2, dtype=torch.half),
         "nonsquare": torch.ones(2, 3), "1d": torch.ones(3)}[bad]
    try:
        getattr(torch.linalg, fname)(a)
    except (RuntimeError, NotImplementedError) as e:
        exc = type(e)
    else:
        pytest.skip("torch accepts this input")
    ta = tl.tensor(a.numpy() if bad != "half" else a.float().numpy()).to(getattr(tl, str(a.dtype).split(".")[-1]))
    _same_error(lambda: getattr(tl.linalg, fname)(ta), lambda: getattr(torch.linalg, fname)(a), exc)


def test_solve_shape_and_dtype_errors():
    _same_error(lambda: tl.linalg.solve(tl.eye(2), tl.ones(3)), lambda: torch.linalg.solve(torch.eye(2), torch.ones(3)))
    _same_error(lambda: tl.linalg.solve(tl.eye(2), tl.ones(2, dtype=tl.float64)),
                lambda: torch.linalg.solve(torch.eye(2), torch.ones(2, dtype=torch.float64)))
    _same_error(lambda: tl.linalg.lstsq(tl.eye(2), tl.ones(3, 1)), lambda: torch.linalg.lstsq(torch.eye(2),
                                                                                              torch.ones(3, 1)))


# ---- return types and the small helpers ----

def test_return_type_fields():
    a = tl.tensor(_spd((3, 3), "float64")[0])
    assert tl.linalg.slogdet(a)._fields == ("sign", "logabsdet")
    assert tl.linalg.qr(a)._fields == ("Q", "R")
    assert tl.linalg.eigh(a)._fields == ("eigenvalues", "eigenvectors")
    assert tl.linalg.eig(a)._fields == ("eigenvalues", "eigenvectors")
    assert tl.linalg.svd(a)._fields == ("U", "S", "Vh")
    assert tl.linalg.lu(a)._fields == ("P", "L", "U")
    assert tl.linalg.lu_factor(a)._fields == ("LU", "pivots")
    assert tl.linalg.lu_factor_ex(a)._fields == ("LU", "pivots", "info")
    assert tl.linalg.inv_ex(a)._fields == ("inverse", "info")
    assert tl.linalg.cholesky_ex(a)._fields == ("L", "info")
    assert tl.linalg.solve_ex(a, a)._fields == ("result", "info")
    assert type(tl.linalg.svd(a)).__name__ == "linalg_svd"


@pytest.mark.parametrize("dt", DTYPES)
def test_norms_and_helpers(dt):
    a = _rand((2, 3, 4), dt)
    A, tA = tl.tensor(a), torch.from_numpy(a)
    for ord_ in (None, 2, 1, math.inf, 0, 3.5):
        _close(tl.linalg.vector_norm(A, 2 if ord_ is None else ord_),
               torch.linalg.vector_norm(tA, 2 if ord_ is None else ord_), dt)
    _close(tl.linalg.vector_norm(A, 1, dim=(0, 2), keepdim=True), torch.linalg.vector_norm(tA, 1, dim=(0, 2),
                                                                                           keepdim=True), dt)
    _close(tl.linalg.norm(A), torch.linalg.norm(tA), dt)
    _close(tl.linalg.norm(A, dim=-1), torch.linalg.norm(tA, dim=-1), dt)
    _close(tl.linalg.norm(A, "fro", dim=(-2, -1)), torch.linalg.norm(tA, "fro", dim=(-2, -1)), dt)
    _close(tl.linalg.norm(A[0], 2), torch.linalg.norm(tA[0], 2), dt)
    _close(tl.linalg.norm(A[0, 0], 3), torch.linalg.norm(tA[0, 0], 3), dt)
    b = _rand((2, 3, 4), dt, 1)
    _close(tl.linalg.vecdot(A, tl.tensor(b)), torch.linalg.vecdot(tA, torch.from_numpy(b)), dt)
    _close(tl.linalg.diagonal(A, offset=1), torch.linalg.diagonal(tA, offset=1), dt)
    c, d = _rand((4, 3), dt, 2), _rand((4, 3), dt, 3)
    _close(tl.linalg.cross(tl.tensor(c), tl.tensor(d)), torch.linalg.cross(torch.from_numpy(c), torch.from_numpy(d)),
           dt)
    ms = [_rand(s, dt, i) for i, s in enumerate([(3,), (3, 4), (4, 5), (5,)])]
    _close(tl.linalg.multi_dot([tl.tensor(m) for m in ms]), torch.linalg.multi_dot([torch.from_numpy(m) for m in ms]),
           dt)
    _close(tl.linalg.multi_dot([tl.tensor(m) for m in ms[1:3]]),
           torch.linalg.multi_dot([torch.from_numpy(m) for m in ms[1:3]]), dt)
    x = _rand((2, 3), dt)
    _close(tl.linalg.vander(tl.tensor(x)), torch.linalg.vander(torch.from_numpy(x)), dt)
    _close(tl.linalg.vander(tl.tensor(x), N=5), torch.linalg.vander(torch.from_numpy(x), N=5), dt)


def test_vander_dtypes_and_errors():
    for dt in ("int32", "uint8", "int64"):
        x = np.array([1, 2, 3], dtype=dt)
        r, e = tl.linalg.vander(tl.tensor(x)), torch.linalg.vander(torch.from_numpy(x))
        assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
        np.testing.assert_array_equal(r.numpy(), e.numpy())
    for x, kw in ((np.array(1.0), {}), (np.array([1.0, 2.0]), {"N": 1}), (np.array([True]), {})):
        _same_error(lambda: tl.linalg.vander(tl.tensor(x), **kw), lambda: torch.linalg.vander(torch.tensor(x), **kw))


@pytest.mark.parametrize("dt", ["float64", "complex128"])
def test_tensorinv_tensorsolve_householder(dt):
    a = _rand((4, 6, 8, 3), dt) + 0
    a = a.reshape(24, 24) + 24 * np.eye(24)
    a = a.reshape(4, 6, 8, 3).astype(dt)
    _close(tl.linalg.tensorinv(tl.tensor(a), ind=2), torch.linalg.tensorinv(torch.from_numpy(a), ind=2), dt)
    b = _rand((4, 6), dt, 1)
    _close(tl.linalg.tensorsolve(tl.tensor(a), tl.tensor(b)), torch.linalg.tensorsolve(torch.from_numpy(a),
                                                                                       torch.from_numpy(b)), dt)
    h = _rand((2, 5, 3), dt, 2)
    tau = _rand((2, 3), dt, 3)
    _close(tl.linalg.householder_product(tl.tensor(h), tl.tensor(tau)),
           torch.linalg.householder_product(torch.from_numpy(h), torch.from_numpy(tau)), dt)


def test_ill_conditioned_hilbert():
    n = 8
    h = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1.0)  # cond ~ 1e10
    H, tH = tl.tensor(h), torch.from_numpy(h)
    b = np.ones(n)
    x = tl.linalg.solve(H, tl.tensor(b)).numpy()
    np.testing.assert_allclose(h @ x, b, atol=1e-5)  # small residual despite the conditioning
    np.testing.assert_allclose(tl.linalg.cond(H).item(), torch.linalg.cond(tH).item(), rtol=1e-4)
    np.testing.assert_allclose(tl.linalg.det(H).item(), torch.linalg.det(tH).item(), rtol=1e-5)
    np.testing.assert_allclose(tl.linalg.eigvalsh(H).numpy(), torch.linalg.eigvalsh(tH).numpy(), atol=1e-12)
    assert tl.linalg.matrix_rank(H).item() == torch.linalg.matrix_rank(tH).item()


def test_out_and_methods():
    a = _spd((3, 3), "float64")[0]
    A, tA = tl.tensor(a), torch.from_numpy(a)
    o = tl.empty(3, 3, dtype=tl.float64)
    assert tl.linalg.inv(A, out=o) is o
    _close(o, torch.linalg.inv(tA), "float64")
    d = tl.empty((), dtype=tl.float64)
    assert tl.linalg.det(A, out=d) is d
    with pytest.raises(TypeError):
        tl.linalg.qr(A, out=(o, o))
    for name in ("inverse", "pinverse", "det", "logdet", "cholesky", "matrix_exp"):
        _close(getattr(A, name)(), getattr(tA, name)(), "float64", 10)
    _close(A.matrix_power(3), tA.matrix_power(3), "float64", 10)
    s, l = A.slogdet()
    _close(l, tA.slogdet()[1], "float64")
    q, r = A.qr()
    _close(q @ r, tA, "float64")
