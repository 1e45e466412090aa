"""Randomized low-rank factorizations and extreme eigenpairs of dense and sparse matrices:
svd_lowrank, pca_lowrank and lobpcg. svd_lowrank and pca_lowrank follow Halko, Martinsson
and Tropp 2009 (algorithms 4.4 and 5.1, as torch 2.13 runs them), composed from matmul, linalg.qr and linalg.svd. A sparse A (COO, or a compressed
layout, multiplied as COO) is only ever multiplied by dense matrices: products with A^H are
taken as (Q^H A)^H, so nothing of A's size is made dense."""
from . import _C


def _floating(dtype):
    """The dtype the factorization runs in: float16/32/64 and complex dtypes stay, others are float32."""
    if dtype in (_C.float16, _C.float32, _C.float64) or dtype.is_complex:
        return dtype
    return _C.float32


def _check_tensors(op, **args):
    """torch's argument TypeError for a non-tensor operand (None allowed for the optional ones
    after the first), before any of it is read."""
    for pos, (name, x) in enumerate(args.items(), 1):
        if not isinstance(x, _C.TensorBase) and (pos == 1 or x is not None):
            where = f" (position {pos})" if pos == 1 else ""
            raise TypeError(f"{op}(): argument '{name}'{where} must be Tensor, not {type(x).__name__}")


def _is_sparse(a):
    return a.layout != _C.strided


def _as_coo(a):
    """Compressed layouts multiply as COO (their products with dense matrices of either side)."""
    return a.to_sparse_coo() if _is_sparse(a) and a.layout != _C.sparse_coo else a


def _mhmm(a, b):
    """a^H @ b without transposing a sparse a: (b^H @ a)^H."""
    return (b.mH @ a).mH if _is_sparse(a) else a.mH @ b


def _basis(A, q, niter, M, mH):
    """Q with q orthonormal columns such that Q Q^H (A - M) approximates A - M, where A
    stands for A^H when mH (A is never transposed itself). Subspace iteration from a
    Gaussian start, orthonormalized by QR after every product."""
    from . import linalg
    from ._random import randn

    def times(X):  # (A - M) @ X
        Y = _mhmm(A, X) if mH else A @ X
        return Y if M is None else Y - M @ X

    def times_h(X):  # (A - M)^H @ X
        Y = A @ X if mH else _mhmm(A, X)
        return Y if M is None else Y - M.mH @ X

    n = A.shape[-2] if mH else A.shape[-1]
    dtype = A.dtype if A.dtype.is_complex else _floating(A.dtype)
    Q = linalg.qr(times(randn(n, q, dtype=dtype))).Q
    for _ in range(2 if niter is None else niter):
        Q = linalg.qr(times_h(Q)).Q
        Q = linalg.qr(times(Q)).Q
    return Q


def _svd_lowrank(A, q, niter, M):
    from . import linalg
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    A = _as_coo(A)
    tall = m >= n  # work on the tall one of A and A^H
    if not tall and M is not None:
        M = M.mH
    Q = _basis(A, q, niter, M, not tall)
    B = Q.mH @ A if tall else (A @ Q).mH  # Q^H (A or A^H)
    if M is not None:
        B = B - Q.mH @ M
    U, S, Vh = linalg.svd(B, full_matrices=False)
    U = Q @ U
    V = Vh.mH
    return (U, S, V) if tall else (V, S, U)


def svd_lowrank(A, q=6, niter=2, M=None):
    r"""svd_lowrank(A, q=6, niter=2, M=None) -> (U, S, V)

    A randomized SVD with ``A ≈ U diag(S) V^H`` (of ``A - M`` when M is
    given, M broadcast to A's shape), as torch.svd_lowrank.

    ``A`` is a matrix or a batch of matrices, or a sparse matrix (COO or a compressed
    layout; never made dense). ``q`` is a slightly overestimated rank (U is ``(*, m, q)``,
    S ``(*, q)``, V ``(*, n, q)``), ``niter`` the number of subspace iterations. The start is
    random (``tl.manual_seed`` makes it repeatable); for an exactly rank-k matrix and
    q >= k, the k leading singular values are exact to rounding.

    Example::

        >>> _ = tl.manual_seed(0)
        >>> A = tl.ones(5, 1) @ tl.tensor([[1., 2., 2.]])
        >>> U, S, V = tl.svd_lowrank(A, q=2)
        >>> round(S[0].item(), 4), U.shape, V.shape
        (6.7082, tensorlib.Size([5, 2]), tensorlib.Size([3, 2]))
    """
    _check_tensors("svd_lowrank", A=A, M=M)
    return _svd_lowrank(A, q, niter, M)


def pca_lowrank(A, q=None, center=True, niter=2):
    r"""pca_lowrank(A, q=None, center=True, niter=2) -> (U, S, V)

    PCA of a low-rank matrix by a randomized SVD of ``A`` minus its column means
    (``center=True``), as torch.pca_lowrank: ``(U, S, V)`` where V's columns are the
    principal directions and ``S**2 / (m - 1)`` the variances along them.

    ``q`` defaults to ``min(6, m, n)`` and must lie in ``[0, min(m, n)]``; ``niter >= 0``.
    A sparse A (2-D COO or compressed; torch 2.13 refuses a CSR A with center=True) is
    centered without being made dense: the means enter as the rank-one M of svd_lowrank.

    Example::

        >>> _ = tl.manual_seed(0)
        >>> A = tl.tensor([[1., 0.], [3., 0.], [5., 0.]])
        >>> U, S, V = tl.pca_lowrank(A, q=1)
        >>> round(S[0].item(), 4), [round(v, 4) for v in V.abs().flatten().tolist()]
        (2.8284, [1.0, 0.0])
    """
    _check_tensors("pca_lowrank", A=A)
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter, None)
    if _is_sparse(A):
        if A.dim() != 2:
            raise ValueError("pca_lowrank input is expected to be 2-dimensional tensor")
        from . import sparse
        # the column means as an (n, 1) COO tensor times a row of ones: M = (c 1^T)^T, dense (m, n)
        c = sparse.sum(_as_coo(A), dim=(-2,)) / m
        cols = c._indices()[0]
        ind = _C.zeros((2, cols.shape[0]), dtype=_C.int64)
        ind[0] = cols
        dtype = _floating(A.dtype)
        C_t = _C._sparse_coo_new(ind, c._values().to(dtype), (n, 1), False, None)
        M = (C_t @ _C.ones((1, m), dtype=dtype)).mT
        return _svd_lowrank(A, q, niter, M)
    return _svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter, None)


# ---- lobpcg ------------------------------------------------------------------------------

def _b_orthonormal(S, B, cut):
    """Columns spanning S's range, orthonormal in the B inner product (B None: the plain
    one): S V diag(w)^-1/2 from the eigenpairs (w, V) of the Gram matrix S^H B S, dropping
    directions with w <= cut * max(w) (what S repeats); applied twice, as one pass squares
    the condition number."""
    from . import linalg
    for _ in range(2):
        G = S.mH @ (S if B is None else B @ S)
        w, V = linalg.eigh((G + G.mH) / 2)
        keep = w > cut * w.max().clamp(min=0)
        S = (S @ V[:, keep]) / w[keep].sqrt()
    return S


def _lobpcg_one(A, B, X, iK, k, niter, tol, largest):
    """The block iteration on one matrix: Rayleigh-Ritz over [X, iK R, P] (the Ritz vectors,
    the preconditioned residuals and the previous step), orthonormalized together, until the
    k leading residuals are below tol relative to ||A|| (+ |E| ||B||)."""
    from . import linalg
    n = X.shape[-1]
    dt = X.dtype
    eps = 1.2e-07 if dt == _C.float32 else 2.23e-16
    norm = (A._values() if A.layout == _C.sparse_coo else A).norm().item()
    bnorm = 1.0 if B is None else (B._values() if B.layout == _C.sparse_coo else B).norm().item()

    def ritz(S):
        T = S.mH @ (A @ S)
        E, C = linalg.eigh((T + T.mH) / 2)
        return (E.flip(0), C.flip(1)) if largest else (E, C)

    X = _b_orthonormal(X, B, eps * 10)
    E, C = ritz(X)
    X = X @ C
    P = None
    it = 0
    while True:
        AX, BX = A @ X, X if B is None else B @ X
        R = AX - BX * E[:n]
        rnorm = R.norm(dim=0)
        rerr = rnorm / ((norm + E[:n].abs() * bnorm) * X.norm(dim=0))
        if bool((rerr[:k] < tol).all()) or (niter >= 0 and it >= niter):
            return E[:k], X[:, :k]
        it += 1
        W = R if iK is None else iK @ R
        parts = [X, W] if P is None else [X, W, P]
        S = _b_orthonormal(_cat(parts), B, eps * 10)
        E, C = ritz(S)
        E, C = E[:n], C[:, :n]
        Xn = S @ C
        # the step taken: the new vectors' part outside span(X)
        P = Xn - X @ (X.mH @ (Xn if B is None else B @ Xn))
        X = Xn


def _cat(ts):
    from ._join import cat
    return cat(ts, 1)


def lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None, method=None,
           tracker=None, ortho_iparams=None, ortho_fparams=None, ortho_bparams=None):
    r"""lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None, method=None, ...) -> (E, X)

    The k largest (or, with ``largest=False``, smallest) eigenpairs of a symmetric positive
    definite problem ``A X = B X diag(E)`` by LOBPCG (Knyazev's locally optimal block
    preconditioned conjugate gradient), as torch.lobpcg: ``A`` (and ``B``) dense, batched, or
    sparse (COO, or a compressed layout, multiplied as COO); ``X`` an initial ``(*, m, n)``
    block (else random, n = k columns); ``iK`` a preconditioner; ``niter`` the most steps
    (default 1000, -1: until converged); ``tol`` the relative residual (default the dtype's
    sqrt(eps)). E is ``(*, k)``, X ``(*, m, k)``; m must be at least 3 n. ``method``,
    ``tracker`` and the ``ortho_*`` parameters are accepted for torch's signature: every
    method here is the one Rayleigh-Ritz iteration, orthonormalizing [X, R, P] together.

    Example::

        >>> _ = tl.manual_seed(0)
        >>> A = tl.diag(tl.arange(1., 13., dtype=tl.float64))
        >>> E, X = tl.lobpcg(A, k=2)
        >>> [round(e, 6) for e in E.tolist()], X.shape
        ([12.0, 11.0], tensorlib.Size([12, 2]))
    """
    from ._random import randn
    _check_tensors("lobpcg", A=A, B=B, X=X, iK=iK)
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype = A.dtype if A.dtype in (_C.float16, _C.float32, _C.float64) else _C.float32
    if tol is None:
        tol = {_C.float32: 1.2e-07, _C.float64: 2.23e-16}[dtype] ** 0.5
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows (={m}) is smaller than "
                         f"3 x the number of requested eigenpairs (={n})")
    niter = 1000 if niter is None else niter
    largest = True if largest is None else largest
    A, B, iK = _as_coo(A), None if B is None else _as_coo(B), None if iK is None else _as_coo(iK)

    def one(A_, B_, X_):
        X_ = randn((m, n), dtype=dtype) if X_ is None else X_
        if not (X_.dim() == 2 and tuple(X_.shape) == (m, n)):
            raise AssertionError(f"X shape mismatch: got {X_.shape}, expected {(m, n)}")
        return _lobpcg_one(A_, B_, X_, iK, k, niter, tol, largest)

    if A.dim() == 2:
        return one(A, B, X)
    batch = tuple(A.shape[:-2])
    N = 1
    for s in batch:
        N *= s
    bA = A.reshape((N, m, m))
    bB = None if B is None else B.reshape((N, m, m))
    bX = None if X is None else X.reshape((N,) + tuple(X.shape[-2:]))
    res = [one(bA[i], None if bB is None else bB[i], None if bX is None else bX[i]) for i in range(N)]
    from ._join import stack
    E = stack([r[0] for r in res])
    V = stack([r[1] for r in res])
    return E.reshape(batch + (k,)), V.reshape(batch + (m, k))
