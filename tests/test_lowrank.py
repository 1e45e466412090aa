"""svd_lowrank and pca_lowrank (tensorlib/_lowrank.py) against torch 2.13 and the exact
SVD: they are randomized, so the tests check what must hold for any start (shapes and dtypes
as torch's, orthonormal factors, the exact singular values and reconstruction of an exactly
low-rank matrix, dense and sparse inputs agreeing) and torch's argument errors."""
import numpy as np
import pytest
import torch

import tensorlib as tl

pytestmark = pytest.mark.filterwarnings("ignore:Sparse CSR tensor support", "ignore:Sparse invariant checks")


def low_rank(m, n, k, dtype=np.float64, batch=(), seed=0):
    rng = np.random.default_rng(seed)
    left, right = rng.standard_normal(batch + (m, k)), rng.standard_normal(batch + (k, n))
    if np.dtype(dtype).kind == "c":
        left = left + 1j * rng.standard_normal(left.shape)
        right = right + 1j * rng.standard_normal(right.shape)
    return (left @ right).astype(dtype)


LAYOUTS = {"strided": lambda t: t, "coo": lambda t: t.to_sparse(), "csr": lambda t: t.to_sparse_csr()}


def tol(dtype):
    return 1e-3 if dtype in (np.float32, np.complex64) else 1e-9


def check_factors(U, S, V, want_s, a, k):
    """Orthonormal U and V columns (the first k, which an exact rank-k input determines),
    the k leading singular values, and U diag(S) V^H == a."""
    u, s, v = U.numpy(), S.numpy(), V.numpy()
    t = tol(a.dtype)
    eye = np.eye(k)
    np.testing.assert_allclose(np.swapaxes(u[..., :k], -1, -2).conj() @ u[..., :k], np.broadcast_to(eye, u.shape[:-2] + eye.shape), atol=t)
    np.testing.assert_allclose(np.swapaxes(v[..., :k], -1, -2).conj() @ v[..., :k], np.broadcast_to(eye, v.shape[:-2] + eye.shape), atol=t)
    np.testing.assert_allclose(s[..., :k], want_s[..., :k], rtol=t, atol=t)
    assert np.all(np.abs(s[..., k:]) <= t * max(1.0, np.abs(want_s).max()))
    rec = (u * s[..., None, :]) @ np.swapaxes(v, -1, -2).conj()
    np.testing.assert_allclose(rec, a, atol=t * np.abs(a).max())


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("m,n", [(12, 7), (7, 12)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_svd_lowrank_exact_for_low_rank(layout, m, n, dtype):
    tl.manual_seed(1)
    a = low_rank(m, n, 3, dtype)
    A = LAYOUTS[layout](tl.tensor(a))
    U, S, V = tl.svd_lowrank(A, q=5)
    tU, tS, tV = torch.svd_lowrank(LAYOUTS[layout](torch.tensor(a)), q=5)
    for x, y in ((U, tU), (S, tS), (V, tV)):
        assert tuple(x.shape) == tuple(y.shape) and str(x.dtype)[10:] == str(y.dtype)[6:]
        assert x.layout == tl.strided
    check_factors(U, S, V, np.linalg.svd(a, compute_uv=False), a, 3)
    np.testing.assert_allclose(S.numpy()[:3], tl.linalg.svdvals(tl.tensor(a)).numpy()[:3], rtol=tol(dtype))


def test_svd_lowrank_batched_complex_and_M():
    tl.manual_seed(2)
    a = low_rank(9, 6, 2, np.float64, batch=(3,))
    U, S, V = tl.svd_lowrank(tl.tensor(a), q=4, niter=3)
    assert tuple(U.shape) == (3, 9, 4) and tuple(S.shape) == (3, 4) and tuple(V.shape) == (3, 6, 4)
    check_factors(U, S, V, np.linalg.svd(a, compute_uv=False), a, 2)
    c = low_rank(8, 5, 2, np.complex64, seed=3)
    U, S, V = tl.svd_lowrank(tl.tensor(c), q=3)
    tU, tS, tV = torch.svd_lowrank(torch.tensor(c), q=3)
    assert (U.dtype, S.dtype, V.dtype) == (tl.complex64, tl.float32, tl.complex64)
    assert (tU.dtype, tS.dtype, tV.dtype) == (torch.complex64, torch.float32, torch.complex64)
    check_factors(U, S, V, np.linalg.svd(c, compute_uv=False), c, 2)
    # M (broadcast to A's shape): the SVD of A - M, for dense and sparse A
    b = low_rank(10, 6, 2, seed=4)
    row = np.random.default_rng(5).standard_normal(6)
    for A in (tl.tensor(b + row), tl.tensor(b + row).to_sparse()):
        U, S, V = tl.svd_lowrank(A, q=4, M=tl.tensor(row))
        check_factors(U, S, V, np.linalg.svd(b, compute_uv=False), b, 2)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("center", [True, False])
def test_pca_lowrank(layout, center):
    """The centered (or not) data's singular values and directions, from dense and sparse
    data alike (torch 2.13 refuses a CSR input with center=True; tensorlib centers it)."""
    tl.manual_seed(3)
    rng = np.random.default_rng(6)
    a = low_rank(20, 8, 2, seed=7) * (rng.random((20, 8)) < 0.5)  # sparse-ish data
    centered = a - a.mean(0) if center else a
    k = np.linalg.matrix_rank(centered)
    U, S, V = tl.pca_lowrank(LAYOUTS[layout](tl.tensor(a)), q=min(8, k + 2), center=center, niter=4)
    assert tuple(U.shape) == (20, min(8, k + 2)) and tuple(V.shape) == (8, min(8, k + 2))
    check_factors(U, S, V, np.linalg.svd(centered, compute_uv=False), centered, k)
    if not (layout == "csr" and center):
        tU, tS, tV = torch.pca_lowrank(LAYOUTS[layout](torch.tensor(a)), q=min(8, k + 2), center=center)
        assert tuple(tU.shape) == tuple(U.shape) and tuple(tV.shape) == tuple(V.shape)
    U, S, V = tl.pca_lowrank(tl.tensor(a.astype(np.float32)))  # q defaults to min(6, m, n)
    assert tuple(S.shape) == (6,) and S.dtype == tl.float32


def outcome(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    return None


@pytest.mark.parametrize("call", [
    lambda L, a: L.pca_lowrank(a, q=7),
    lambda L, a: L.pca_lowrank(a, q=-1),
    lambda L, a: L.pca_lowrank(a, niter=-1),
    lambda L, a: L.pca_lowrank(a.to_sparse().unsqueeze(0)),
])
def test_argument_errors_like_torch(call):
    a = low_rank(8, 6, 2, np.float32)
    got, want = outcome(lambda: call(tl, tl.tensor(a))), outcome(lambda: call(torch, torch.tensor(a)))
    assert want is not None and got is not None
    assert got[0] is want[0] and got[1].split(" object")[0] == want[1].split(" object")[0], (got, want)


def test_non_tensor_input_is_a_type_error():
    # torch 2.13's Python code reads A.shape first and raises AttributeError; tensorlib gives
    # the argument TypeError its C ops give (the fuzzer counts an AttributeError as a defect)
    for call in (lambda: tl.svd_lowrank([[1.0]]), lambda: tl.pca_lowrank([[1.0]]), lambda: tl.lobpcg(3)):
        with pytest.raises(TypeError, match="must be Tensor, not"):
            call()


def test_integer_and_half_input_refused_like_torch():
    a = low_rank(8, 6, 2, np.float32)
    for conv in (lambda t: t.int(), lambda t: t.half()):
        got = outcome(lambda: tl.svd_lowrank(conv(tl.tensor(a)), q=2))
        want = outcome(lambda: torch.svd_lowrank(conv(torch.tensor(a)), q=2))
        assert want is not None and got == want


# ---- lobpcg -------------------------------------------------------------------------------

def spd(m, seed, spectrum=None):
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((m, m)))
    w = np.arange(1.0, m + 1) if spectrum is None else spectrum
    return (q * w) @ q.T


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("largest", [True, False, None])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lobpcg_eigenpairs(layout, largest, dtype):
    """A x = λ x to the tolerance, λ the extreme eigenvalues of eigh, orthonormal X; torch's
    shapes and dtypes."""
    tl.manual_seed(4)
    a = spd(36, 8).astype(dtype)
    E, X = tl.lobpcg(LAYOUTS[layout](tl.tensor(a)), k=3, largest=largest)
    tE, tX = torch.lobpcg(LAYOUTS[layout](torch.tensor(a)), k=3, largest=largest, niter=3)  # shapes, dtypes
    for x, y in ((E, tE), (X, tX)):
        assert tuple(x.shape) == tuple(y.shape) and str(x.dtype)[10:] == str(y.dtype)[6:]
    w = np.linalg.eigvalsh(a.astype(np.float64))
    want = w[::-1][:3] if largest in (True, None) else w[:3]
    e, x = E.numpy().astype(np.float64), X.numpy().astype(np.float64)
    t = 2e-3 if dtype == np.float32 else 1e-7
    np.testing.assert_allclose(e, want, rtol=t, atol=t)
    np.testing.assert_allclose(e, tl.linalg.eigvalsh(tl.tensor(a)).numpy()[::-1][:3] if largest in (True, None)
                               else tl.linalg.eigvalsh(tl.tensor(a)).numpy()[:3], rtol=t, atol=t)
    assert np.abs(a @ x - x * e).max() <= 10 * t * np.linalg.norm(a)
    np.testing.assert_allclose(x.T @ x, np.eye(3), atol=10 * t)


def test_lobpcg_generalized_batched_and_initial_block():
    tl.manual_seed(5)
    a, b = spd(30, 9), spd(30, 10, spectrum=np.linspace(1.0, 3.0, 30))
    E, X = tl.lobpcg(tl.tensor(a), k=2, B=tl.tensor(b), niter=-1)
    w = np.linalg.eigvals(np.linalg.solve(b, a)).real
    np.testing.assert_allclose(E.numpy(), np.sort(w)[::-1][:2], rtol=1e-7)
    x = X.numpy()
    assert np.abs(a @ x - (b @ x) * E.numpy()).max() <= 1e-6 * np.linalg.norm(a)
    # X given: k defaults to its columns
    E, X = tl.lobpcg(tl.tensor(a), X=tl.randn(30, 4, dtype=tl.float64))
    assert tuple(E.shape) == (4,) and tuple(X.shape) == (30, 4)
    np.testing.assert_allclose(E.numpy(), np.arange(30.0, 26.0, -1), rtol=1e-7)
    # a batch: one solve per matrix
    E, X = tl.lobpcg(tl.tensor(np.stack([a, 2 * a])), k=2, n=3)
    assert tuple(E.shape) == (2, 2) and tuple(X.shape) == (2, 30, 2)
    np.testing.assert_allclose(E.numpy(), [[30.0, 29.0], [60.0, 58.0]], rtol=1e-7)


@pytest.mark.parametrize("call", [
    lambda L, a: L.lobpcg(a[:, :5]),
    lambda L, a: L.lobpcg(a, k=11),
    lambda L, a: L.lobpcg(a, k=2, n=11),
    lambda L, a: L.lobpcg(a, B=L.eye(3, dtype=a.dtype)),
    lambda L, a: L.lobpcg(a, X=L.ones(29, 2, dtype=a.dtype)),
    lambda L, a: L.lobpcg(a.half()),
])
def test_lobpcg_argument_errors_like_torch(call):
    a = spd(30, 11)
    got, want = outcome(lambda: call(tl, tl.tensor(a))), outcome(lambda: call(torch, torch.tensor(a)))
    assert want is not None and got is not None
    assert got[0] is want[0] and got[1].replace("tensorlib.", "torch.") == want[1], (got, want)
